import { useInfiniteQuery, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import { Link, useSearchParams } from 'react-router';
import { Amount } from '../components/Amount.tsx';
import { formatAmount, formatCount, formatDateTime, formatTimestamp } from '../format.ts';
import {
  field,
  groupTitle,
  loadGroupOverview,
  loadGroupRows,
  rowCount,
  typeCount,
  unmatchedMessage,
  unmatchLinkProblem,
  groupProblem,
  unmatchSentences,
  type GroupOverview,
  type GroupRow,
} from '../match-groups.ts';
import { useSession } from '../session.tsx';

/**
 * A match group, opened from a transaction's details or after matching: for a payout, the bank
 * deposit, its rows counted and summed by type, the difference, and the rows a page at a time;
 * and the one action that unmatches it whole, after saying what it will unmatch.
 */
export function MatchGroupPage() {
  const [params] = useSearchParams();
  const groupId = params.get('group') ?? '';
  const { recon } = useSession();
  const [unmatched, setUnmatched] = useState<string | null>(null);
  const overview = useQuery({
    queryKey: ['match-group', groupId],
    enabled: groupId !== '' && unmatched === null,
    queryFn: () => loadGroupOverview(recon, groupId),
  });
  if (unmatched !== null)
    return (
      <section className="card">
        {/* The dialog that had the focus is gone: the focus goes to what happened. */}
        <h1 tabIndex={-1} ref={(heading) => heading?.focus()}>
          Unmatched
        </h1>
        <p className="success" role="status">
          {unmatched}
        </p>
        <p>
          <Link to="/transactions">Back to the transactions</Link>
        </p>
      </section>
    );
  if (groupId === '')
    return (
      <section className="card">
        <h1>Match</h1>
        <p className="hint">Open a match from a transaction&apos;s details.</p>
      </section>
    );
  if (overview.isPending)
    return (
      <p className="hint" role="status">
        Loading…
      </p>
    );
  if (overview.isError)
    return (
      <section className="card">
        <h1>Match</h1>
        <p className="error" role="alert">
          {groupProblem(overview.error)}
        </p>
      </section>
    );
  return <GroupSummary overview={overview.data} onUnmatched={setUnmatched} />;
}

function GroupSummary({ overview, onUnmatched }: { overview: GroupOverview; onUnmatched: (message: string) => void }) {
  const { session } = useSession();
  const [confirming, setConfirming] = useState(false);
  const { anchor, currency, group } = overview;
  const adjustment = group.adjustment;
  const settled = /^-?0(\.0+)?$/.test(overview.difference);
  return (
    <>
      <section className="card group-summary" aria-labelledby="group-title">
        <h1 id="group-title">{groupTitle(overview)}</h1>
        {anchor !== null && (
          <dl className="group-anchor">
            <div>
              <dt>{overview.payout ? 'Bank deposit' : 'Matched to'}</dt>
              <dd className="group-anchor-text">{anchor.description || '(no description)'}</dd>
            </div>
            <div>
              <dt>Date</dt>
              <dd>{formatTimestamp(anchor.timestamp)}</dd>
            </div>
            <div>
              <dt>Amount</dt>
              <dd>
                <Amount amount={field(anchor, 'amount')} currency={currency} />
              </dd>
            </div>
          </dl>
        )}
        {overview.others !== null && (
          <p>
            One side: {rowCount(overview.others.count, 'transaction')}, {formatAmount(overview.others.total, currency)}
          </p>
        )}
        <p className="group-types">
          {overview.members.byType.every((entry) => entry.type === null)
            ? null
            : overview.members.byType.map((entry, at) => (
                <span key={entry.type ?? ''}>
                  {at > 0 && ' · '}
                  <span className="group-type">
                    {typeCount(entry)} <Amount amount={entry.sum} currency={currency} />
                  </span>
                </span>
              ))}
        </p>
        <p>
          {overview.payout ? 'The rows come to ' : `${rowCount(overview.members.count, 'transaction')}, in all `}
          <strong>{formatAmount(overview.members.total, currency)}</strong>
          {' · '}
          <span className={settled ? 'success' : 'error'}>Difference {formatAmount(overview.difference, currency)}</span>
          {adjustment !== null && (
            <>
              {' · '}closed by an adjustment of {formatAmount(adjustment.amount, currency)} ({adjustment.reason})
            </>
          )}
        </p>
        <p className="hint">
          Matched {group.method === 'rule' ? `by the rule “${overview.ruleName ?? 'no longer there'}”` : 'by hand'} on {formatDateTime(group.createdAt)}
          {/* A rule's group carries the run's own note; a person's note is theirs to read. */}
          {group.method === 'manual' && group.note ? ` — ${group.note}` : ''}
        </p>
        {session.user.role !== 'View-only' && (
          <div className="buttons">
            <button type="button" className="danger" onClick={() => setConfirming(true)}>
              {overview.payout ? 'Unmatch this payout…' : 'Unmatch…'}
            </button>
          </div>
        )}
      </section>
      <GroupRows overview={overview} />
      {confirming && <UnmatchDialog overview={overview} onClose={() => setConfirming(false)} onUnmatched={onUnmatched} />}
    </>
  );
}

/** The rows of the group, a page at a time: more load on request, by the cursor of the last page. */
function GroupRows({ overview }: { overview: GroupOverview }) {
  const { recon, session } = useSession();
  const client = useQueryClient();
  const groupId = overview.group.id;
  // One row can leave a group of several made by hand or by a rule without a key; a payout's rows
  // are netted against its deposit and leave it only all together.
  const rowsRemovable = !overview.payout && overview.members.count > 1 && session.user.role !== 'View-only';
  const [removed, setRemoved] = useState<string | null>(null);
  const removeRow = useMutation({
    mutationFn: async (row: GroupRow) => {
      await recon.matches.delete(row.linkId);
      return row;
    },
    onMutate: () => setRemoved(null),
    onSuccess: (row) => {
      setRemoved(
        `“${row.transaction?.description || 'no description'}” (${formatAmount(field(row.transaction, 'amount'), overview.currency)}) was unmatched; the others stay matched.`,
      );
      void client.invalidateQueries({ queryKey: ['match-group', groupId] });
      void client.invalidateQueries({ queryKey: ['match-group-rows', groupId] });
      void client.invalidateQueries({ queryKey: ['transactions'] });
      void client.invalidateQueries({ queryKey: ['workspace'] });
    },
  });
  const rows = useInfiniteQuery({
    queryKey: ['match-group-rows', groupId],
    initialPageParam: undefined as string | undefined,
    queryFn: ({ pageParam }) => loadGroupRows(recon, groupId, overview.memberSide, pageParam),
    getNextPageParam: (last) => last.nextCursor ?? undefined,
  });
  const shown = rows.data?.pages.flatMap((page) => page.rows) ?? [];
  return (
    <section className="card" aria-labelledby="group-rows-title">
      <h2 id="group-rows-title">{overview.payout ? 'Rows of the payout' : 'Matched transactions'}</h2>
      {rows.error !== null && (
        <p className="error" role="alert">
          {groupProblem(rows.error)}
        </p>
      )}
      <table className="group-rows">
        <thead>
          <tr>
            <th scope="col">Date</th>
            <th scope="col">Description</th>
            <th scope="col">Type</th>
            <th scope="col" className="number">
              Amount
            </th>
            {rowsRemovable && <th scope="col">Action</th>}
          </tr>
        </thead>
        <tbody>
          {shown.map((row) => {
            const { linkId, transaction, allocated } = row;
            return (
              <tr key={linkId}>
                <td>{transaction ? formatTimestamp(transaction.timestamp) : '—'}</td>
                <td className="group-row-text">{transaction ? transaction.description || '(no description)' : 'No longer in its dataset'}</td>
                <td>{transaction?.type ?? ''}</td>
                <td className="number">
                  <Amount
                    amount={transaction ? field(transaction, 'amount') : (allocated ?? '')}
                    currency={field(transaction, 'currency') || overview.currency}
                  />
                </td>
                {rowsRemovable && (
                  <td className="group-row-action">
                    <button
                      type="button"
                      className="danger small"
                      disabled={removeRow.isPending}
                      aria-label={`Unmatch “${transaction?.description || 'no description'}” alone`}
                      onClick={() => removeRow.mutate(row)}
                    >
                      Unmatch
                    </button>
                  </td>
                )}
              </tr>
            );
          })}
        </tbody>
      </table>
      {removed !== null && (
        <p className="success" role="status">
          {removed}
        </p>
      )}
      {removeRow.error !== null && (
        <p className="error" role="alert">
          {unmatchLinkProblem(removeRow.error)}
        </p>
      )}
      <p className="hint" role="status">
        {rows.isPending ? 'Loading rows…' : `Showing ${formatCount(shown.length)} of ${rowCount(overview.members.count)}`}
      </p>
      {rows.hasNextPage && (
        <div className="buttons">
          <button type="button" className="secondary" disabled={rows.isFetchingNextPage} onClick={() => void rows.fetchNextPage()}>
            {rows.isFetchingNextPage ? 'Loading…' : 'Show more rows'}
          </button>
        </div>
      )}
    </section>
  );
}

/** The confirmation: what will be unmatched, then the group is removed whole. */
function UnmatchDialog({ overview, onClose, onUnmatched }: { overview: GroupOverview; onClose: () => void; onUnmatched: (message: string) => void }) {
  const { recon } = useSession();
  const client = useQueryClient();
  const dialog = useRef<HTMLDialogElement>(null);
  useEffect(() => dialog.current?.showModal(), []);
  const unmatch = useMutation({
    mutationFn: () => recon.matchGroups.delete(overview.group.id),
    onSuccess: () => {
      void client.invalidateQueries({ queryKey: ['transactions'] });
      void client.invalidateQueries({ queryKey: ['workspace'] });
      void client.invalidateQueries({ queryKey: ['sources'] });
      client.removeQueries({ queryKey: ['match-group', overview.group.id] });
      client.removeQueries({ queryKey: ['match-group-rows', overview.group.id] });
      onUnmatched(unmatchedMessage(overview));
    },
  });
  const title = overview.payout ? `Unmatch ${groupTitle(overview).replace(/^P/, 'p')}?` : 'Unmatch these transactions?';
  return (
    <dialog ref={dialog} className="confirm-dialog" aria-labelledby="unmatch-group-title" onCancel={onClose}>
      <h2 id="unmatch-group-title">{title}</h2>
      <ul>
        {unmatchSentences(overview).map((sentence) => (
          <li key={sentence}>{sentence}</li>
        ))}
      </ul>
      {unmatch.error !== null && (
        <p className="error" role="alert">
          {groupProblem(unmatch.error)}
        </p>
      )}
      <div className="buttons">
        <button type="button" className="danger" disabled={unmatch.isPending} onClick={() => unmatch.mutate()}>
          {unmatch.isPending ? 'Unmatching…' : overview.payout ? `Unmatch ${rowCount(overview.members.count + 1, 'transaction')}` : 'Unmatch'}
        </button>
        <button type="button" className="secondary" disabled={unmatch.isPending} onClick={onClose} autoFocus>
          Keep the match
        </button>
      </div>
    </dialog>
  );
}
