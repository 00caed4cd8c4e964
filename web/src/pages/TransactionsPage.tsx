import { useInfiniteQuery, useQuery } from '@tanstack/react-query';
import { useVirtualizer } from '@tanstack/react-virtual';
import { useEffect, useMemo, useRef, useState } from 'react';
import { useSearchParams } from 'react-router';
import type { SearchQuery, Transaction, TransactionQuery } from '../../../sdk/src/index.ts';
import { DatasetSelect, useDatasets } from '../components/DatasetSelect.tsx';
import { formatAmount, formatCount, formatDateTime } from '../format.ts';
import { ErrorMessage } from '../components/ErrorMessage.tsx';
import { messageOf, useSession } from '../session.tsx';

const STATUSES = ['none', 'partial', 'full', 'informative', 'out of scope'] as const;
/** Rows per request: the API's largest page, so that scrolling asks the server rarely. */
const PAGE_SIZE = 500;
const ROW_HEIGHT_PIXELS = 36;

interface Filters {
  text: string;
  amountFrom: string;
  amountTo: string;
  dateFrom: string;
  dateTo: string;
  statuses: string[];
  columns: string[];
}

const NO_FILTERS: Filters = { text: '', amountFrom: '', amountTo: '', dateFrom: '', dateTo: '', statuses: [], columns: [] };
const AMOUNT_PATTERN = /^-?\d{1,18}(\.\d{1,8})?$/;

/** The query of the filters, in the SearchQuery grammar; amounts stay decimal strings. */
function queryOf(datasetId: string, filters: Filters): { query: TransactionQuery; problems: string[] } {
  const search: SearchQuery[] = [];
  const problems: string[] = [];
  if (filters.text.trim() !== '') search.push({ path: 'description', search: { type: 'string', value: filters.text.trim() } });
  const range: Record<string, string> = {};
  for (const [key, value, label] of [['start', filters.amountFrom, 'Amount from'], ['end', filters.amountTo, 'Amount to']] as const) {
    if (value.trim() === '') continue;
    if (!AMOUNT_PATTERN.test(value.trim())) problems.push(`${label}: write an amount like 120.50 (a dot for decimals)`);
    else range[key] = value.trim();
  }
  if (Object.keys(range).length > 0) search.push({ path: 'amount', search: { type: 'money', value: range } });
  if (filters.statuses.length > 0) search.push({ path: 'reconciliationStatus', search: { type: 'string', value: filters.statuses, exact: true } });
  const from = filters.dateFrom ? Date.parse(`${filters.dateFrom}T00:00:00Z`) : undefined;
  const to = filters.dateTo ? Date.parse(`${filters.dateTo}T23:59:59.999Z`) : undefined;
  return {
    query: {
      datasetId,
      ...(from !== undefined ? { from } : {}),
      ...(to !== undefined ? { to } : {}),
      ...(search.length > 0 ? { search } : {}),
      columns: ['amount', 'currency', 'reference', ...filters.columns].map((path) => ({ path })),
    },
    problems,
  };
}

function field(transaction: Transaction, name: string): string {
  const value = (transaction as Record<string, unknown>)[name];
  return value === null || value === undefined ? '' : String(value);
}

function csvField(value: string): string {
  return /[",\r\n]/.test(value) ? `"${value.replace(/"/g, '""')}"` : value;
}

function TransactionDetails({ transaction, onClose }: { transaction: Transaction; onClose: () => void }) {
  const { recon } = useSession();
  const history = useQuery({
    queryKey: ['audit', transaction.id],
    queryFn: async () => {
      const events = [];
      for await (const event of recon.auditEvents.list({ transactionId: transaction.id })) events.push(event);
      return events;
    },
  });
  const matches = [...transaction.incomingMatches, ...transaction.outgoingMatches];
  return (
    <aside className="card details" aria-label="Transaction details">
      <div className="buttons spread">
        <h2>{transaction.description || '(no description)'}</h2>
        <button type="button" className="secondary" onClick={onClose}>
          Close
        </button>
      </div>
      <p>
        {formatDateTime(transaction.timestamp)} · {formatAmount(field(transaction, 'amount'), field(transaction, 'currency'))} · <strong>{transaction.reconciliationStatus}</strong>
      </p>
      <h3>Matches</h3>
      {matches.length === 0 ? (
        <p className="hint">Not matched.</p>
      ) : (
        <ul>
          {matches.map((match) => (
            <li key={match.id}>
              {match.originId === transaction.id ? 'with ' : 'from '}
              <code>{match.originId === transaction.id ? match.targetId : match.originId}</code>: {formatAmount(match.amount)} ({match.method}
              {match.ruleId ? `, rule v${match.ruleVersion}` : ''}, {formatDateTime(match.createdAt)} by {match.createdBy})
            </li>
          ))}
        </ul>
      )}
      <h3>History</h3>
      {history.isPending && <p role="status">Loading…</p>}
      {history.data?.length === 0 && <p className="hint">No changes recorded.</p>}
      {history.data && history.data.length > 0 && (
        <ol className="history">
          {history.data.map((event) => (
            <li key={event.id}>
              {formatDateTime(event.occurredAt)}: <strong>{event.action}</strong> by {event.actor}
              {event.note ? ` — ${event.note}` : ''}
            </li>
          ))}
        </ol>
      )}
    </aside>
  );
}

export function TransactionsPage() {
  const { recon } = useSession();
  const datasets = useDatasets();
  const [params, setParams] = useSearchParams();
  const datasetId = params.get('dataset') ?? datasets[0]?.id ?? '';
  const dataset = datasets.find((candidate) => candidate.id === datasetId);
  const [draft, setDraft] = useState<Filters>(NO_FILTERS);
  const [filters, setFilters] = useState<Filters>(NO_FILTERS);
  const [selected, setSelected] = useState<Transaction | null>(null);
  const [exporting, setExporting] = useState<string | null>(null);
  const { query, problems } = queryOf(datasetId, filters);

  const pages = useInfiniteQuery({
    queryKey: ['transactions', query],
    enabled: datasetId !== '' && problems.length === 0,
    initialPageParam: undefined as string | undefined,
    queryFn: ({ pageParam }) => recon.transactions.page({ ...query, limit: PAGE_SIZE, ...(pageParam ? { cursor: pageParam } : {}) }),
    getNextPageParam: (page) => page.nextCursor ?? undefined,
  });
  const rows = useMemo(() => pages.data?.pages.flatMap((page) => page.transactions) ?? [], [pages.data]);
  const scroller = useRef<HTMLDivElement>(null);
  const virtualizer = useVirtualizer({
    count: rows.length + (pages.hasNextPage ? 1 : 0),
    getScrollElement: () => scroller.current,
    estimateSize: () => ROW_HEIGHT_PIXELS,
    overscan: 20,
  });
  const items = virtualizer.getVirtualItems();
  const lastIndex = items[items.length - 1]?.index ?? 0;
  useEffect(() => {
    if (lastIndex >= rows.length - 50 && pages.hasNextPage && !pages.isFetchingNextPage) void pages.fetchNextPage();
  }, [lastIndex, rows.length, pages.hasNextPage, pages.isFetchingNextPage]);

  const customColumns = (dataset?.columns ?? []).filter((column) => !column.standard);
  const shownColumns = filters.columns;
  const gridColumns = { gridTemplateColumns: `11rem 10rem 7rem minmax(14rem, 1fr) 9rem${' 9rem'.repeat(shownColumns.length)}` };

  async function exportCsv() {
    const header = ['id', 'time', 'amount', 'currency', 'status', 'description', 'reference', ...shownColumns];
    const lines = [header.map(csvField).join(',')];
    let count = 0;
    for await (const transaction of recon.transactions.list(query, { pageSize: PAGE_SIZE })) {
      lines.push(
        [transaction.id, new Date(transaction.timestamp).toISOString(), field(transaction, 'amount'), field(transaction, 'currency'), transaction.reconciliationStatus, transaction.description ?? '', field(transaction, 'reference'), ...shownColumns.map((name) => field(transaction, name))]
          .map(csvField)
          .join(','),
      );
      count += 1;
      if (count % 5000 === 0) setExporting(`${formatCount(count)} rows read…`);
    }
    const url = URL.createObjectURL(new Blob([lines.join('\r\n') + '\r\n'], { type: 'text/csv' }));
    const anchor = document.createElement('a');
    anchor.href = url;
    anchor.download = `${dataset?.name ?? 'transactions'}.csv`;
    anchor.click();
    URL.revokeObjectURL(url);
    setExporting(`${formatCount(count)} rows exported.`);
  }

  return (
    <div className="explorer">
      <section className="card">
        <h1>Transactions</h1>
        <form
          className="filters"
          onSubmit={(event) => {
            event.preventDefault();
            setSelected(null);
            setFilters(draft);
          }}
        >
          <DatasetSelect label="Dataset" value={datasetId} onChange={(id) => setParams({ dataset: id })} datasets={datasets} />
          <label>
            Description contains
            <input value={draft.text} onChange={(event) => setDraft({ ...draft, text: event.target.value })} />
          </label>
          <label>
            Amount from
            <input inputMode="decimal" value={draft.amountFrom} onChange={(event) => setDraft({ ...draft, amountFrom: event.target.value })} />
          </label>
          <label>
            Amount to
            <input inputMode="decimal" value={draft.amountTo} onChange={(event) => setDraft({ ...draft, amountTo: event.target.value })} />
          </label>
          <label>
            From
            <input type="date" value={draft.dateFrom} onChange={(event) => setDraft({ ...draft, dateFrom: event.target.value })} />
          </label>
          <label>
            To
            <input type="date" value={draft.dateTo} onChange={(event) => setDraft({ ...draft, dateTo: event.target.value })} />
          </label>
          <fieldset className="chips">
            <legend>Status</legend>
            {STATUSES.map((status) => (
              <label key={status} className="chip">
                <input
                  type="checkbox"
                  checked={draft.statuses.includes(status)}
                  onChange={(event) => setDraft({ ...draft, statuses: event.target.checked ? [...draft.statuses, status] : draft.statuses.filter((other) => other !== status) })}
                />
                {status}
              </label>
            ))}
          </fieldset>
          {customColumns.length > 0 && (
            <fieldset className="chips">
              <legend>Columns</legend>
              {customColumns.map((column) => (
                <label key={column.name} className="chip">
                  <input
                    type="checkbox"
                    checked={draft.columns.includes(column.name)}
                    onChange={(event) => setDraft({ ...draft, columns: event.target.checked ? [...draft.columns, column.name] : draft.columns.filter((other) => other !== column.name) })}
                  />
                  {column.name}
                </label>
              ))}
            </fieldset>
          )}
          <div className="buttons">
            <button type="submit">Apply</button>
            <button type="button" className="secondary" onClick={() => { setDraft(NO_FILTERS); setFilters(NO_FILTERS); }}>
              Clear
            </button>
            <button type="button" className="secondary" disabled={pages.isPending || exporting?.endsWith('…') === true} onClick={() => { setExporting('Starting…'); exportCsv().catch((error: unknown) => setExporting(messageOf(error))); }}>
              Export CSV
            </button>
            {exporting && <span role="status">{exporting}</span>}
          </div>
        </form>
        {problems.map((problem) => (
          <p className="error" role="alert" key={problem}>
            {problem}
          </p>
        ))}
        <ErrorMessage error={pages.error} />
        <p className="hint" role="status">
          {dataset ? `${formatCount(rows.length)} shown${pages.hasNextPage ? ' (more load as you scroll)' : ''} of ${formatCount(dataset.transactionCount)} in the dataset` : 'No dataset yet: create one under Datasets.'}
        </p>
      </section>
      <div className="explorer-body">
        <div className="card grid-card">
          <div role="grid" aria-label="Transactions" aria-rowcount={pages.hasNextPage ? -1 : rows.length + 1}>
          <div role="rowgroup">
            <div className="grid-header" role="row" aria-rowindex={1} style={gridColumns}>
              <span role="columnheader">Time</span>
              <span role="columnheader" className="number">Amount</span>
              <span role="columnheader">Status</span>
              <span role="columnheader">Description</span>
              <span role="columnheader">Reference</span>
              {shownColumns.map((name) => (
                <span role="columnheader" key={name}>{name}</span>
              ))}
            </div>
          </div>
          <div ref={scroller} className="grid-scroll" role="rowgroup" tabIndex={0} aria-label="Rows: scroll to load more">
            <div role="presentation" style={{ height: virtualizer.getTotalSize(), position: 'relative' }}>
              {items.map((item) => {
                const transaction = rows[item.index];
                return (
                  <div
                    key={item.key}
                    role="row"
                    aria-rowindex={item.index + 2}
                    className={`grid-row${transaction && selected?.id === transaction.id ? ' selected' : ''}`}
                    style={{ ...gridColumns, transform: `translateY(${item.start}px)`, height: ROW_HEIGHT_PIXELS }}
                    tabIndex={transaction ? 0 : undefined}
                    onClick={() => transaction && setSelected(transaction)}
                    onKeyDown={(event) => {
                      if (event.key === 'Enter' && transaction) setSelected(transaction);
                    }}
                  >
                    {transaction ? (
                      <>
                        <span role="gridcell">{formatDateTime(transaction.timestamp)}</span>
                        <span role="gridcell" className="number">
                          {formatAmount(field(transaction, 'amount'), field(transaction, 'currency'))}
                        </span>
                        <span role="gridcell">
                          <span className={`status status-${transaction.reconciliationStatus.replace(/ /g, '-')}`}>{transaction.reconciliationStatus}</span>
                        </span>
                        <span role="gridcell">{transaction.description}</span>
                        <span role="gridcell">{field(transaction, 'reference')}</span>
                        {shownColumns.map((name) => (
                          <span role="gridcell" key={name}>
                            {field(transaction, name)}
                          </span>
                        ))}
                      </>
                    ) : (
                      <span role="gridcell" className="hint">
                        Loading…
                      </span>
                    )}
                  </div>
                );
              })}
            </div>
          </div>
          </div>
        </div>
        {selected && <TransactionDetails transaction={selected} onClose={() => setSelected(null)} />}
      </div>
    </div>
  );
}
