import { useInfiniteQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { ErrorMessage } from '../components/ErrorMessage.tsx';
import { Field } from '../components/FormField.tsx';
import { TableHead } from '../components/TableHead.tsx';
import { Moment } from '../components/When.tsx';
import { isUuid } from '@ledger-recon/sdk';
import { useSession } from '../session.tsx';

const PAGE_SIZE = 200;
const DAY_MILLISECONDS = 86_400_000;

function summaryOf(value: unknown): string {
  if (value === null || value === undefined) return '';
  const text = JSON.stringify(value);
  return text.length > 160 ? `${text.slice(0, 160)}…` : text;
}

interface Filter {
  days: string;
  transactionId: string;
}

/** The organization's audit trail over the days chosen, oldest first, a page at a time. */
export function AuditPage() {
  const { recon } = useSession();
  const [applied, setApplied] = useState({ fromMs: Date.now() - 7 * DAY_MILLISECONDS, transactionId: '' });
  const {
    register,
    handleSubmit,
    formState: { errors },
  } = useForm<Filter>({ defaultValues: { days: '7', transactionId: '' } });
  const events = useInfiniteQuery({
    queryKey: ['audit-trail', applied],
    initialPageParam: undefined as string | undefined,
    queryFn: ({ pageParam }) =>
      recon.auditEvents.page({
        from: applied.fromMs,
        limit: PAGE_SIZE,
        ...(pageParam ? { cursor: pageParam } : {}),
        ...(applied.transactionId ? { transactionId: applied.transactionId } : {}),
      }),
    getNextPageParam: (page) => (page.hasMore ? (page.nextCursor ?? undefined) : undefined),
  });
  const rows = events.data?.pages.flatMap((page) => page.events) ?? [];

  function submit({ days, transactionId }: Filter) {
    setApplied({ fromMs: Date.now() - Number(days) * DAY_MILLISECONDS, transactionId: transactionId.trim() });
  }

  return (
    <section className="card">
      <h1>Audit trail</h1>
      <p className="hint">Every match, unmatch, status change, rule change and user change, with who made it and why.</p>
      <form className="inline" onSubmit={handleSubmit(submit)} noValidate>
        <Field label="Period" error={errors.days}>
          {(aria) => (
            <select {...aria} {...register('days')}>
              <option value="1">Last day</option>
              <option value="7">Last 7 days</option>
              <option value="30">Last 30 days</option>
              <option value="365">Last year</option>
            </select>
          )}
        </Field>
        <Field label="Transaction id" error={errors.transactionId}>
          {(aria) => (
            <input
              placeholder="all transactions"
              {...aria}
              {...register('transactionId', {
                validate: (value) =>
                  value.trim() === '' || isUuid(value.trim()) || 'Transaction id: paste the id of a transaction (a UUID), or leave it empty.',
              })}
            />
          )}
        </Field>
        <button type="submit">Show</button>
      </form>
      <ErrorMessage error={events.error} />
      {events.data && rows.length === 0 && <p className="hint">Nothing happened in this period.</p>}
      {rows.length > 0 && (
        <table>
          <TableHead columns={['When', 'Who', 'What', 'Transaction', 'Change']} />
          <tbody>
            {rows.map((event) => (
              <tr key={event.id}>
                <td>
                  <Moment value={event.occurredAt} />
                </td>
                <td>{event.actor}</td>
                <td>
                  {event.action}
                  {event.note ? <div className="hint">“{event.note}”</div> : null}
                </td>
                <td>{event.transactionId ? <code>{event.transactionId.slice(0, 8)}</code> : '—'}</td>
                <td className="change">
                  {event.before !== null && event.before !== undefined && <div>before {summaryOf(event.before)}</div>}
                  {event.after !== null && event.after !== undefined && <div>after {summaryOf(event.after)}</div>}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {events.hasNextPage && (
        <button type="button" className="secondary" disabled={events.isFetchingNextPage} onClick={() => void events.fetchNextPage()}>
          Load more
        </button>
      )}
    </section>
  );
}
