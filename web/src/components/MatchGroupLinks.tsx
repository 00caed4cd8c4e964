import { useQueries } from '@tanstack/react-query';
import { Link } from 'react-router';
import type { Transaction } from '@ledger-recon/sdk';
import { formatAmount, formatTimestamp } from '../format.ts';
import { anchorPhrase, groupTitle, loadGroupOverview, rowCount, groupProblem, type GroupOverview } from '../match-groups.ts';
import { useSession } from '../session.tsx';

/** "Part of payout po_123 — 300 rows, 3,000.00 EUR, matched to the bank deposit of Jan 3, 2026". */
function linkText(overview: GroupOverview, transactionId: string): string {
  const size = `${rowCount(overview.members.count)}, ${formatAmount(overview.members.total, overview.currency)}`;
  if (overview.anchor?.id === transactionId)
    return overview.payout ? `${groupTitle(overview)} — ${size}: see its rows` : `Matched with ${rowCount(overview.members.count, 'transaction')}: see them`;
  if (overview.payout) return `Part of ${groupTitle(overview).replace(/^P/, 'p')} — ${size}, matched to ${anchorPhrase(overview)}`;
  if (overview.anchor === null) return `Matched with ${rowCount(overview.others?.count ?? 0, 'transaction')}: see them`;
  const counterpart = `“${overview.anchor.description || 'no description'}” of ${formatTimestamp(overview.anchor.timestamp)}`;
  return `Matched with ${counterpart}${overview.members.count > 1 ? `, together with ${rowCount(overview.members.count - 1, 'other transaction')}` : ''}`;
}

/** The match groups a transaction belongs to, each as a link that opens the group's summary. */
export function MatchGroupLinks({ transaction }: { transaction: Transaction }) {
  const { recon } = useSession();
  const groupIds = [...new Set([...transaction.incomingMatches, ...transaction.outgoingMatches].map((match) => match.groupId))];
  const overviews = useQueries({
    queries: groupIds.map((groupId) => ({ queryKey: ['match-group', groupId], queryFn: () => loadGroupOverview(recon, groupId), staleTime: 30_000 })),
  });
  if (groupIds.length === 0) return null;
  return (
    <ul className="group-links">
      {groupIds.map((groupId, at) => {
        const overview = overviews[at];
        return (
          <li key={groupId}>
            {overview?.data ? (
              <Link to={`/match-group?group=${encodeURIComponent(groupId)}`}>{linkText(overview.data, transaction.id)}</Link>
            ) : overview?.error ? (
              <span className="error">{groupProblem(overview.error)}</span>
            ) : (
              <span className="hint">Reading the match…</span>
            )}
          </li>
        );
      })}
    </ul>
  );
}
