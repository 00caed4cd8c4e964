import { useInfiniteQuery, useQuery } from '@tanstack/react-query';
import { useId, useMemo, useState } from 'react';
import { useSearchParams } from 'react-router';
import { csvField, type AuditEvent, type AuditQuery } from '@ledger-recon/sdk';
import { ErrorMessage } from '../components/ErrorMessage.tsx';
import { TableHead } from '../components/TableHead.tsx';
import { ACTION_WORDS, OBJECT_WORDS, actionInWords, changeInWords, objectInWords, utcMinute } from '../audit-words.ts';
import { useSession } from '../session.tsx';
import { saveFile } from '../save-file.ts';

const PAGE_SIZE = 200;
const CALENDAR_DATE = /^\d{4}-\d{2}-\d{2}$/;

/** The filters the URL keeps: who, action, object and the days from and to (calendar dates in the reader's zone). */
const FILTERS = ['who', 'action', 'object', 'from', 'to'] as const;
type Filters = Record<(typeof FILTERS)[number], string>;

/** A time in the reader's zone, with the zone named, e.g. "Nov 27, 2026, 7:05 PM GMT+1". */
const LOCAL_TIME = new Intl.DateTimeFormat(undefined, {
  year: 'numeric',
  month: 'short',
  day: 'numeric',
  hour: 'numeric',
  minute: '2-digit',
  timeZoneName: 'short',
});

/** The first or the last millisecond of a calendar day in the reader's zone; null for no date. */
function dayBoundary(day: string, end: boolean): number | null {
  if (!CALENDAR_DATE.test(day)) return null;
  const [year, month, date] = day.split('-').map(Number) as [number, number, number];
  const start = new Date(year, month - 1, date).getTime();
  return end ? new Date(year, month - 1, date + 1).getTime() - 1 : start;
}

/** The API's query for the filters of the URL, newest first. */
function queryOf(filters: Filters): AuditQuery {
  const from = dayBoundary(filters.from, false);
  const to = dayBoundary(filters.to, true);
  return {
    order: 'newest',
    ...(filters.who ? { actor: filters.who } : {}),
    ...(filters.action ? { action: filters.action as AuditQuery['action'] } : {}),
    ...(filters.object ? { object: filters.object as AuditQuery['object'] } : {}),
    ...(from !== null ? { from } : {}),
    ...(to !== null ? { to } : {}),
  };
}

/** The people and API clients the reader may pick, by name: those the organization lists, and those in the trail shown. */
function usePeople(events: readonly AuditEvent[]): { actor: string; name: string }[] {
  const { session, recon } = useSession();
  const isAdministrator = session.user.role === 'Administrator';
  const users = useQuery({ queryKey: ['users'], queryFn: () => recon.users.list(), enabled: isAdministrator, retry: false });
  const clients = useQuery({
    queryKey: ['clients', 'all'],
    queryFn: () => recon.clients.list({ includeRevoked: true }),
    enabled: isAdministrator,
    retry: false,
  });
  return useMemo(() => {
    const named = new Map<string, string>();
    for (const user of users.data?.users ?? []) named.set(`user:${user.email}`, user.email);
    for (const client of clients.data ?? []) named.set(`client:${client.clientId}`, `${client.name} (API client)`);
    for (const event of events) if (!named.has(event.actor)) named.set(event.actor, event.actorName);
    named.set(`user:${session.user.email}`, session.user.email);
    return [...named].map(([actor, name]) => ({ actor, name })).sort((a, b) => a.name.localeCompare(b.name));
  }, [users.data, clients.data, events, session.user.email]);
}

/** The dataset names the trail refers to, archived datasets included. */
function useDatasetNames(): Map<string, string> {
  const { recon } = useSession();
  const sources = useQuery({ queryKey: ['sources', 'with archived'], queryFn: () => recon.sources.list({ includeArchived: true }) });
  return useMemo(
    () => new Map((sources.data ?? []).flatMap((source) => source.datasets.map((dataset) => [dataset.id, dataset.name] as const))),
    [sources.data],
  );
}

/** The trail as a CSV file a spreadsheet opens: times in UTC with the zone named, text that cannot run as a formula. */
function csvOf(events: readonly AuditEvent[], datasetNames: ReadonlyMap<string, string>): string {
  const header = ['When (UTC)', 'Who', 'What', 'Object', 'Change', 'Note'];
  const lines = [header.map((name) => csvField(name)).join(',')];
  for (const event of events) {
    lines.push(
      [
        utcMinute(event.occurredAt),
        event.actorName,
        actionInWords(event.action),
        objectInWords(event, datasetNames),
        changeInWords(event).join('; '),
        event.note ?? '',
      ]
        .map((value) => csvField(value))
        .join(','),
    );
  }
  return lines.join('\r\n') + '\r\n';
}

/** The organization's audit trail, newest first, filtered by who, what, object and days, kept in the URL; exported as CSV. */
export function AuditPage() {
  const { recon } = useSession();
  const [params, setParams] = useSearchParams();
  const ids = useId();
  const filters = Object.fromEntries(FILTERS.map((name) => [name, params.get(name) ?? ''])) as Filters;
  const query = queryOf(filters);
  const [exporting, setExporting] = useState<{ state: 'running' } | { state: 'failed'; error: unknown } | null>(null);
  const events = useInfiniteQuery({
    queryKey: ['audit-trail', query],
    initialPageParam: undefined as string | undefined,
    queryFn: ({ pageParam }) => recon.auditEvents.page({ ...query, limit: PAGE_SIZE, ...(pageParam ? { cursor: pageParam } : {}) }),
    getNextPageParam: (page) => (page.hasMore ? (page.nextCursor ?? undefined) : undefined),
    enabled: !(filters.from !== '' && filters.to !== '' && filters.from > filters.to),
  });
  const rows = useMemo(() => events.data?.pages.flatMap((page) => page.events) ?? [], [events.data]);
  const people = usePeople(rows);
  const datasetNames = useDatasetNames();
  const datesReversed = filters.from !== '' && filters.to !== '' && filters.from > filters.to;

  function setFilter(name: keyof Filters, value: string) {
    const next = new URLSearchParams(params);
    if (value === '') next.delete(name);
    else next.set(name, value);
    setParams(next);
  }

  async function exportCsv() {
    setExporting({ state: 'running' });
    try {
      const all: AuditEvent[] = [];
      for await (const event of recon.auditEvents.list(query)) all.push(event);
      saveFile(new Blob([csvOf(all, datasetNames)], { type: 'text/csv' }), `audit-trail-${new Date().toISOString().slice(0, 10)}.csv`);
      setExporting(null);
    } catch (error) {
      setExporting({ state: 'failed', error });
    }
  }

  return (
    <section className="card audit">
      <h1>Audit trail</h1>
      <p className="hint">Every change, newest first: imports, sources and datasets, matches and statuses, rules, API clients and people, with who made it.</p>
      <form className="inline audit-filters" aria-label="Filter the audit trail" onSubmit={(event) => event.preventDefault()}>
        <div className="audit-filter">
          <label htmlFor={`${ids}-who`}>Who</label>
          <select id={`${ids}-who`} value={filters.who} onChange={(event) => setFilter('who', event.target.value)}>
            <option value="">Everyone</option>
            {people.map((person) => (
              <option key={person.actor} value={person.actor}>
                {person.name}
              </option>
            ))}
          </select>
        </div>
        <div className="audit-filter">
          <label htmlFor={`${ids}-action`}>Action</label>
          <select id={`${ids}-action`} value={filters.action} onChange={(event) => setFilter('action', event.target.value)}>
            <option value="">Every action</option>
            {Object.entries(ACTION_WORDS).map(([action, words]) => (
              <option key={action} value={action}>
                {words}
              </option>
            ))}
          </select>
        </div>
        <div className="audit-filter">
          <label htmlFor={`${ids}-object`}>Object</label>
          <select id={`${ids}-object`} value={filters.object} onChange={(event) => setFilter('object', event.target.value)}>
            <option value="">Everything</option>
            {Object.entries(OBJECT_WORDS).map(([object, words]) => (
              <option key={object} value={object}>
                {words}
              </option>
            ))}
          </select>
        </div>
        <div className="audit-filter">
          <label htmlFor={`${ids}-from`}>From</label>
          <input
            id={`${ids}-from`}
            type="date"
            value={filters.from}
            max={filters.to || undefined}
            onChange={(event) => setFilter('from', event.target.value)}
          />
        </div>
        <div className="audit-filter">
          <label htmlFor={`${ids}-to`}>To</label>
          <input id={`${ids}-to`} type="date" value={filters.to} min={filters.from || undefined} onChange={(event) => setFilter('to', event.target.value)} />
        </div>
        {FILTERS.some((name) => filters[name] !== '') && (
          <button type="button" className="secondary" onClick={() => setParams(new URLSearchParams())}>
            Clear the filters
          </button>
        )}
        <button type="button" className="secondary" disabled={exporting?.state === 'running' || datesReversed} onClick={() => void exportCsv()}>
          {exporting?.state === 'running' ? 'Exporting…' : 'Export as CSV'}
        </button>
      </form>
      {datesReversed && (
        <p className="error" role="alert">
          The first day comes after the last one: pick a “From” day on or before the “To” day.
        </p>
      )}
      {exporting?.state === 'failed' && <ErrorMessage error={exporting.error} />}
      {!datesReversed && <ErrorMessage error={events.error} />}
      {events.isPending && !datesReversed && <p role="status">Loading…</p>}
      {events.data && rows.length === 0 && <p className="hint">No change matches these filters.</p>}
      {rows.length > 0 && (
        <table className="audit-table">
          <TableHead columns={['When', 'Who', 'What', 'Object', 'Change']} />
          <tbody>
            {rows.map((event) => {
              const change = changeInWords(event);
              return (
                <tr key={event.id}>
                  <td data-label="When">
                    <time dateTime={event.occurredAt} title={utcMinute(event.occurredAt)}>
                      {LOCAL_TIME.format(new Date(event.occurredAt))}
                    </time>
                  </td>
                  <td data-label="Who">{event.actorName}</td>
                  <td data-label="What">
                    {actionInWords(event.action)}
                    {event.note ? <div className="hint">“{event.note}”</div> : null}
                  </td>
                  <td data-label="Object">{objectInWords(event, datasetNames) || '—'}</td>
                  <td data-label="Change" className="change">
                    {change.length === 0
                      ? '—'
                      : change.map((line) => (
                          <div key={line} className="change-line">
                            {line}
                          </div>
                        ))}
                  </td>
                </tr>
              );
            })}
          </tbody>
        </table>
      )}
      {events.hasNextPage && (
        <button type="button" className="secondary" disabled={events.isFetchingNextPage} onClick={() => void events.fetchNextPage()}>
          {events.isFetchingNextPage ? 'Loading…' : 'Load more'}
        </button>
      )}
    </section>
  );
}
