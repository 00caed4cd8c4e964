import { LedgerReconError, type LedgerRecon, type Match, type MatchGroup, type Transaction } from '@ledger-recon/sdk';
import { absolute, subtract, sum } from './decimal.ts';
import { formatAmount, formatCount, formatTimestamp } from './format.ts';
import { messageOf } from './session.tsx';

/**
 * A match group as an accountant reads it: for a payout, the bank deposit, what the provider's
 * rows come to by type (from the summary the matching engine keeps as the group's evidence) and
 * the difference; for any other group, what each side holds. Read through the SDK only.
 */

/** Rows shown per page of a group's list, and asked for per request. */
export const ROWS_PER_PAGE = 50;
/** What a search by id takes at once (the SearchQuery's values per filter). */
const IDS_PER_QUERY = 100;

type Side = 'origin' | 'target';

export function field(transaction: Transaction | null | undefined, name: string): string {
  const value = (transaction as Record<string, unknown> | null | undefined)?.[name];
  return value === null || value === undefined ? '' : String(value);
}

export function rowCount(count: number, singular = 'row', plural = `${singular}s`): string {
  return `${formatCount(count)} ${count === 1 ? singular : plural}`;
}

export interface TypeSum {
  type: string | null;
  count: number;
  sum: string;
}

/** "296 charges", "1 fee", "4 rows of no type". */
export function typeCount({ type, count }: TypeSum): string {
  if (type === null || type === '') return `${rowCount(count)} of no type`;
  return `${formatCount(count)} ${count === 1 ? type : type.endsWith('s') ? type : `${type}s`}`;
}

/** The summary a rule keeps of a group formed by a key (a payout): one entry per type, not per row. */
interface KeyGroupEvidence {
  side: Side;
  transactions: number;
  byType: TypeSum[];
  total: string;
  counterpart: { id: string };
  difference: string;
}

function keyGroupEvidenceOf(evidence: unknown): KeyGroupEvidence | null {
  const group = (evidence as { group?: Partial<KeyGroupEvidence> } | null)?.group;
  if (
    group === undefined ||
    (group.side !== 'origin' && group.side !== 'target') ||
    typeof group.transactions !== 'number' ||
    !Array.isArray(group.byType) ||
    typeof group.total !== 'string' ||
    typeof group.counterpart?.id !== 'string' ||
    typeof group.difference !== 'string'
  )
    return null;
  return group as KeyGroupEvidence;
}

export interface GroupOverview {
  group: MatchGroup;
  /** Whether it is a payout: a rule's group formed by a key, summed from its rows. */
  payout: boolean;
  /** The payout id (the value of the rule's group key on the deposit); null when there is none. */
  key: string | null;
  ruleName: string | null;
  /** The one transaction the others are matched to (the deposit); null when both sides hold several. */
  anchor: Transaction | null;
  anchorSide: Side | null;
  /** The side the list of rows shows. */
  memberSide: Side;
  /** The rows of that side: how many, their signed total, and by type. */
  members: { count: number; total: string; byType: TypeSum[] };
  /** For a group without an anchor: the other side's count and total. */
  others: { count: number; total: string } | null;
  difference: string;
  currency: string;
}

/** Transactions by id, with the given columns, whichever of the datasets each is in. */
export async function transactionsByIds(recon: LedgerRecon, byDataset: Map<string, string[]>, columns: string[]): Promise<Map<string, Transaction>> {
  const found = new Map<string, Transaction>();
  const requests: Promise<void>[] = [];
  for (const [datasetId, ids] of byDataset) {
    const unique = [...new Set(ids)];
    for (let start = 0; start < unique.length; start += IDS_PER_QUERY) {
      const chunk = unique.slice(start, start + IDS_PER_QUERY);
      requests.push(
        recon.transactions
          .page({
            datasetId,
            limit: chunk.length,
            search: [{ path: 'id', search: { type: 'string', value: chunk, exact: true } }],
            columns: columns.map((path) => ({ path })),
          })
          .then((page) => {
            for (const transaction of page.transactions) found.set(transaction.id, transaction);
          }),
      );
    }
  }
  await Promise.all(requests);
  return found;
}

function idsOnSide(matches: readonly Match[], side: Side): Map<string, string[]> {
  const byDataset = new Map<string, string[]>();
  for (const match of matches) {
    const [datasetId, id] = side === 'origin' ? [match.originDatasetId, match.originId] : [match.targetDatasetId, match.targetId];
    byDataset.set(datasetId, [...(byDataset.get(datasetId) ?? []), id]);
  }
  return byDataset;
}

function sumsByType(transactions: readonly Transaction[]): TypeSum[] {
  const byType = new Map<string | null, string[]>();
  for (const transaction of transactions)
    byType.set(transaction.type ?? null, [...(byType.get(transaction.type ?? null) ?? []), field(transaction, 'amount') || '0']);
  return [...byType.entries()].map(([type, amounts]) => ({ type, count: amounts.length, sum: sum(amounts) })).sort((left, right) => right.count - left.count);
}

/**
 * Everything the summary of a group shows. A payout's comes from its evidence and one page of one
 * link, however many rows it has; another group (made by hand, or by a rule without a key) is
 * small, and is read whole.
 */
export async function loadGroupOverview(recon: LedgerRecon, groupId: string): Promise<GroupOverview> {
  const first = await recon.matchGroups.get(groupId, { limit: 1 });
  const evidence = keyGroupEvidenceOf(first.evidence);
  const rule = first.ruleId !== null ? await recon.rules.get(first.ruleId).catch(() => null) : null;
  if (evidence !== null) {
    const anchorSide: Side = evidence.side === 'target' ? 'origin' : 'target';
    const link = first.matches[0];
    const anchorDataset = link === undefined ? null : anchorSide === 'origin' ? link.originDatasetId : link.targetDatasetId;
    const keyPaths = rule?.groupBy?.[anchorSide] ?? [];
    const anchor =
      anchorDataset === null
        ? undefined
        : (await transactionsByIds(recon, new Map([[anchorDataset, [evidence.counterpart.id]]]), ['amount', 'currency', ...keyPaths])).get(
            evidence.counterpart.id,
          );
    const key = keyPaths.map((path) => field(anchor, path)).filter((value) => value !== '');
    return {
      group: first,
      payout: true,
      key: key.length > 0 ? key.join(' · ') : null,
      ruleName: rule?.name ?? null,
      anchor: anchor ?? null,
      anchorSide,
      memberSide: evidence.side,
      members: { count: evidence.transactions, total: evidence.total, byType: evidence.byType },
      others: null,
      difference: evidence.difference,
      currency: field(anchor, 'currency'),
    };
  }
  const whole = await recon.matchGroups.get(groupId);
  const origins = idsOnSide(whole.matches, 'origin');
  const targets = idsOnSide(whole.matches, 'target');
  const found = await transactionsByIds(recon, new Map([...origins, ...targets]), ['amount', 'currency']);
  const distinct = (byDataset: Map<string, string[]>) => [...new Set([...byDataset.values()].flat())];
  const [originIds, targetIds] = [distinct(origins), distinct(targets)];
  const anchorSide: Side | null = originIds.length === 1 ? 'origin' : targetIds.length === 1 ? 'target' : null;
  const memberSide: Side = anchorSide === 'target' ? 'origin' : 'target';
  const memberIds = memberSide === 'origin' ? originIds : targetIds;
  const otherIds = memberSide === 'origin' ? targetIds : originIds;
  const members = memberIds.map((id) => found.get(id)).filter((transaction) => transaction !== undefined);
  const others = otherIds.map((id) => found.get(id)).filter((transaction) => transaction !== undefined);
  const memberTotal = sum(members.map((transaction) => field(transaction, 'amount') || '0'));
  const otherTotal = sum(others.map((transaction) => field(transaction, 'amount') || '0'));
  const anchor = anchorSide === null ? null : (others[0] ?? null);
  return {
    group: first,
    payout: false,
    key: null,
    ruleName: rule?.name ?? null,
    anchor,
    anchorSide,
    memberSide,
    members: { count: memberIds.length, total: memberTotal, byType: sumsByType(members) },
    others: anchor === null ? { count: otherIds.length, total: otherTotal } : null,
    // Money in matched with money out (a bank receipt and a ledger credit) compares by size.
    difference: subtract(absolute(otherTotal), absolute(memberTotal)),
    currency: field(anchor ?? others[0] ?? members[0], 'currency'),
  };
}

/** One row of a group's list: the transaction and what its link allocates. */
export interface GroupRow {
  linkId: string;
  transaction: Transaction | undefined;
  allocated: string | null;
}

/** One page of a group's rows (those of the member side), with where the next page starts. */
export async function loadGroupRows(
  recon: LedgerRecon,
  groupId: string,
  memberSide: Side,
  cursor: string | undefined,
): Promise<{ rows: GroupRow[]; nextCursor: string | null }> {
  const page = await recon.matchGroups.get(groupId, { limit: ROWS_PER_PAGE, cursor });
  const found = await transactionsByIds(recon, idsOnSide(page.matches, memberSide), ['amount', 'currency', 'reference']);
  return {
    rows: page.matches.map((match) => ({
      linkId: match.id,
      transaction: found.get(memberSide === 'origin' ? match.originId : match.targetId),
      allocated: match.amount,
    })),
    nextCursor: page.nextCursor ?? null,
  };
}

/** "Payout po_123", "Payout", "Match of “Harbour deposit”", "Match". */
export function groupTitle(overview: GroupOverview): string {
  if (overview.payout) return overview.key !== null ? `Payout ${overview.key}` : 'Payout';
  return overview.anchor?.description ? `Match of “${overview.anchor.description}”` : 'Match';
}

/** "the bank deposit of Jan 3, 2026": the anchor by its kind and date. */
export function anchorPhrase(overview: GroupOverview): string {
  const anchor = overview.anchor;
  if (anchor === null) return 'several transactions';
  const kind = overview.payout ? (field(anchor, 'amount').startsWith('-') ? 'the bank payment' : 'the bank deposit') : 'the transaction';
  return `${kind} of ${formatTimestamp(anchor.timestamp)}`;
}

/** "296 charges 2,960.00 EUR · 4 refunds −40.00 EUR · 3 fees −87.30 EUR". */
export function byTypeLine(overview: GroupOverview): string {
  return overview.members.byType.map((entry) => `${typeCount(entry)} ${formatAmount(entry.sum, overview.currency)}`).join(' · ');
}

/** What unmatching the whole group undoes, in sentences, before it is done. */
export function unmatchSentences(overview: GroupOverview): string[] {
  const { anchor, currency } = overview;
  const sentences: string[] = [];
  if (anchor !== null)
    sentences.push(
      `${anchorPhrase(overview).replace(/^t/, 'T')}, “${anchor.description ?? 'no description'}”, ${formatAmount(field(anchor, 'amount'), currency)}, becomes open again.`,
    );
  else if (overview.others !== null)
    sentences.push(`${rowCount(overview.others.count, 'transaction')} on one side, ${formatAmount(overview.others.total, currency)}, become open again.`);
  sentences.push(
    `${overview.payout ? `The payout's ${rowCount(overview.members.count)}` : `${rowCount(overview.members.count, 'transaction')} on the other side`}, ${formatAmount(overview.members.total, currency)} in all` +
      `${overview.members.byType.length > 1 || overview.members.byType[0]?.type ? ` (${byTypeLine(overview)})` : ''}, ${overview.members.count === 1 ? 'becomes' : 'become'} open again.`,
  );
  sentences.push('Nothing else changes: you can match them again, by hand or by running the rules.');
  return sentences;
}

/** After the group is gone: what was unmatched. */
export function unmatchedMessage(overview: GroupOverview): string {
  const what = overview.payout ? `${groupTitle(overview)} was unmatched` : 'The match was undone';
  const anchor =
    overview.anchor !== null ? `${anchorPhrase(overview)} (${formatAmount(field(overview.anchor, 'amount'), overview.currency)})` : 'its transactions';
  return `${what}: ${anchor} and ${rowCount(overview.members.count, 'row')} (${formatAmount(overview.members.total, overview.currency)}) are open again.`;
}

/** Links of a group listed one by one in a transaction's details: this many at most; a bigger group is read on its page. */
const LINKS_LISTED_PER_GROUP = 10;

/** A transaction's links, less those of its groups too big to list link by link. */
export function linksWorthListing<T extends { groupId: string }>(links: readonly T[]): T[] {
  const perGroup = new Map<string, number>();
  for (const link of links) perGroup.set(link.groupId, (perGroup.get(link.groupId) ?? 0) + 1);
  return links.filter((link) => (perGroup.get(link.groupId) ?? 0) <= LINKS_LISTED_PER_GROUP);
}

/** An error of removing one link, in words: a payout's row cannot be unmatched alone. */
export function unmatchLinkProblem(error: unknown): string | null {
  if (error === null || error === undefined) return null;
  if (error instanceof LedgerReconError && error.code === 409)
    return 'This row is part of a payout whose refunds and fees are netted against one bank deposit, so it cannot be unmatched alone. Open the payout and unmatch it as a whole.';
  return messageOf(error);
}

/** An error of reading or removing a group, in words: a group that is gone was unmatched. */
export function groupProblem(error: unknown): string {
  if (error instanceof LedgerReconError && error.code === 404) return 'These transactions are no longer matched together: someone unmatched them already.';
  return messageOf(error);
}
