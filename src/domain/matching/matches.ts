import { randomUUID } from 'node:crypto';
import type { Queryable } from '../../db/database.ts';
import { appendAuditEvents, type AuditEventInsert } from '../../db/repositories/audit-events.ts';
import { markDatasetsUpdated } from '../../db/repositories/datasets.ts';
import {
  computeLinkAllocation,
  deleteEmptyMatchGroups,
  deleteMatches,
  findEndsOfMatchGroups,
  findMatchEnds,
  findMatchGroupEnds,
  insertMatch,
  insertMatchGroup,
  markMatchGroupForced,
  type MatchJson,
} from '../../db/repositories/matches.ts';
import { lockTransactions, recomputeReconciliation, type LockedTransaction, type ReconciliationChange } from '../../db/repositories/transactions.ts';
import { conflict, type ErrorDetail, invalidField, matchingErrors, notFound } from '../../errors.ts';
import { AuditActions, type WriteContext } from '../audit.ts';
import { refuseClosedPeriods } from '../close/closed-periods.ts';
import { compareDecimals, moneyProblem, parsePositiveMoney } from '../money.ts';
import { statusChangeEvents } from '../transactions/status.ts';

/** The most links one match group may have. */
export const LINKS_PER_GROUP_LIMIT = 500;

export interface LinkInput {
  originId: string;
  targetId: string;
  /** A positive decimal; by default what is left of both sides. */
  amount?: unknown;
}

export interface CreatedMatchGroup {
  groupId: string;
  /** Whether any link was allowed only because the request forced it. */
  forced: boolean;
  matches: MatchJson[];
}

/**
 * Manual matching (SPEC §4). A group of links is created all or nothing. Each link allocates
 * an amount of the origin to the target: by default what is left of both sides, never more than
 * what is left of either side unless the request forces it, and forcing is recorded on the
 * match, on its group and in the audit trail.
 *
 * Different currencies on the two sides are refused (409) unless forced: an allocation is one
 * number applied to both sides, which only means something when both are in the same currency.
 * A caller who matches across currencies on purpose (a conversion booked elsewhere) forces the
 * link and gives the amount in the origin's currency; the allocation checks still compare
 * numbers as they are. A transaction without a currency matches any.
 *
 * Transactions without an amount (or with a zero amount) have nothing to allocate: a link
 * between two of them carries no amount, and a link to one of them allocates from the other
 * side only.
 */
export class Matching {
  async create(
    transaction: Queryable,
    context: WriteContext,
    input: { links: readonly LinkInput[]; note: string | null; force: boolean },
  ): Promise<CreatedMatchGroup> {
    const links = input.links.map((link, index) => checkLinkShape(link, index));
    checkDuplicateLinks(links);

    const ids = [...new Set(links.flatMap((link) => [link.originId, link.targetId]))];
    const locked = new Map((await lockTransactions(transaction, context.organizationId, ids)).map((row) => [row.id, row]));
    links.forEach((link, index) => {
      for (const side of ['originId', 'targetId'] as const) {
        if (!locked.has(link[side])) {
          throw matchingErrors.linkTransactionNotFound(link[side], index, side);
        }
      }
    });
    await refuseClosedPeriods(transaction, context.organizationId, { kind: 'transactions', ids });
    // Every check that needs no arithmetic is made before anything is written.
    const currencyMismatches: number[] = [];
    links.forEach((link, index) => {
      const origin = locked.get(link.originId)!;
      const target = locked.get(link.targetId)!;
      for (const [side, row] of [
        ['originId', origin],
        ['targetId', target],
      ] as const) {
        if (row.status_override !== null) {
          throw conflict(`transaction ${row.id} is "${row.status_override}" and cannot be matched; set its status to "none" first`, [
            { path: `/links/${index}/${side}`, message: `transaction is "${row.status_override}"` },
          ]);
        }
      }
      if (differentCurrencies(origin, target)) {
        if (!input.force) {
          throw conflict(
            `link ${index} joins a ${origin.currency} transaction to a ${target.currency} transaction; send "force": true to match across currencies on purpose`,
            [{ path: `/links/${index}`, message: `currencies differ: ${origin.currency} and ${target.currency}` }],
          );
        }
        currencyMismatches.push(index);
      }
    });

    const groupId = randomUUID();
    await insertMatchGroup(transaction, {
      id: groupId,
      organizationId: context.organizationId,
      method: 'manual',
      ruleId: null,
      note: input.note,
      createdBy: context.actor,
    });

    const matches: { match: MatchJson; forced: boolean }[] = [];
    for (const [index, link] of links.entries()) {
      const origin = locked.get(link.originId)!;
      const target = locked.get(link.targetId)!;
      const allocation = await computeLinkAllocation(transaction, context.organizationId, link);
      if (link.requestedAmount !== null && allocation.originRemaining === null && allocation.targetRemaining === null) {
        throw invalidField(`/links/${index}/amount`, 'neither transaction carries an amount, so there is nothing to allocate; leave "amount" out');
      }
      if (allocation.nothingLeft) {
        const full = allocation.originRemaining !== null && !isPositive(allocation.originRemaining) ? origin.id : target.id;
        throw conflict(
          `link ${index}: nothing is left to allocate on transaction ${full}` +
            (input.force ? '; to over-allocate it anyway, give the link an explicit "amount"' : ''),
          [{ path: `/links/${index}`, message: `transaction ${full} is fully allocated` }],
        );
      }
      const exceeded: ErrorDetail[] = [];
      if (allocation.exceedsOrigin) exceeded.push(exceedDetail(index, 'origin', origin.id, allocation.amount!, allocation.originRemaining!));
      if (allocation.exceedsTarget) exceeded.push(exceedDetail(index, 'target', target.id, allocation.amount!, allocation.targetRemaining!));
      if (exceeded.length > 0 && !input.force) {
        throw conflict(
          `link ${index} would over-allocate: ${exceeded.map((detail) => detail.message).join('; ')}; lower the amount, or send "force": true to over-allocate on purpose`,
          exceeded,
        );
      }
      const forced = exceeded.length > 0 || currencyMismatches.includes(index);
      const match = await insertMatch(transaction, {
        id: randomUUID(),
        organizationId: context.organizationId,
        groupId,
        originId: origin.id,
        originDatasetId: origin.dataset_id,
        targetId: target.id,
        targetDatasetId: target.dataset_id,
        amount: allocation.amount,
        method: 'manual',
        ruleId: null,
        forced,
        createdBy: context.actor,
      });
      matches.push({ match, forced });
    }
    const groupForced = matches.some((entry) => entry.forced);
    if (groupForced) await markMatchGroupForced(transaction, context.organizationId, groupId);

    const changes = await recomputeReconciliation(transaction, context.organizationId, ids);
    await markDatasetsUpdated(
      transaction,
      context.organizationId,
      changes.map((change) => change.datasetId),
      context.actor,
    );
    const events: AuditEventInsert[] = matches.map(({ match, forced }) => ({
      action: AuditActions.matchCreated,
      transactionId: match.originId,
      relatedTransactionId: match.targetId,
      matchId: match.id,
      groupId,
      before: null,
      after: { ...match, forced, forceRequested: input.force },
    }));
    await appendAuditEvents(transaction, { ...context, note: input.note }, [...events, ...statusChangeEvents(changes, groupId)]);
    return { groupId, forced: groupForced, matches: matches.map((entry) => entry.match) };
  }

  /** Deletes one match; the group goes with its last match. */
  async deleteMatch(transaction: Queryable, context: WriteContext, input: { matchId: string; note: string | null }): Promise<void> {
    const ends = await findMatchEnds(transaction, context.organizationId, input.matchId);
    if (!ends) throw notFound('match', input.matchId);
    // A netted group's total holds only as a whole: without one refund's or fee's link the
    // deposit would count more than its amount.
    if (ends.netted) throw matchingErrors.nettedMatchAlone(input.matchId, ends.groupId);
    await this.#delete(transaction, context, [ends.originId, ends.targetId], { matchId: input.matchId }, input.note, () => notFound('match', input.matchId));
  }

  /** Deletes every match of a group, and the group. */
  async deleteGroup(transaction: Queryable, context: WriteContext, input: { groupId: string; note: string | null }): Promise<void> {
    const ends = await findMatchGroupEnds(transaction, context.organizationId, input.groupId);
    if (!ends) throw notFound('match group', input.groupId);
    await this.#delete(transaction, context, ends, { groupIds: [input.groupId] }, input.note, () => notFound('match group', input.groupId));
  }

  /**
   * Dissolves many match groups at once (an import undone with unmatch), with what dissolving each
   * alone does and writes (its matches' and its transactions' audit events, its events), but one
   * statement per step for all of them, however many there are. A transaction linked by several
   * of the groups changes status once, from before to after them all, under the first group.
   */
  async deleteGroups(transaction: Queryable, context: WriteContext, input: { groupIds: readonly string[]; note: string | null }): Promise<void> {
    if (input.groupIds.length === 0) return;
    const ends = await findEndsOfMatchGroups(transaction, context.organizationId, input.groupIds);
    await this.#delete(transaction, context, ends, { groupIds: input.groupIds }, input.note, () => notFound('match group', input.groupIds.join(', ')));
  }

  async #delete(
    transaction: Queryable,
    context: WriteContext,
    transactionIds: string[],
    which: { matchId: string } | { groupIds: readonly string[] },
    note: string | null,
    gone: () => Error,
  ): Promise<void> {
    await lockTransactions(transaction, context.organizationId, transactionIds);
    await refuseClosedPeriods(transaction, context.organizationId, { kind: 'transactions', ids: transactionIds });
    // Read again under the locks: a concurrent request may have deleted the matches meanwhile.
    const deleted = await deleteMatches(transaction, context.organizationId, which);
    if (deleted.length === 0) throw gone();
    // Group by group (in id order), each group's matches oldest first: the order in which
    // dissolving the groups one by one would write them.
    deleted.sort(
      (left, right) =>
        compareText(left.match.groupId, right.match.groupId) ||
        compareText(left.match.createdAt, right.match.createdAt) ||
        compareText(left.match.id, right.match.id),
    );
    const groupIds = [...new Set(deleted.map((entry) => entry.match.groupId)), ...('groupIds' in which ? which.groupIds : [])];
    await deleteEmptyMatchGroups(transaction, context.organizationId, groupIds);
    // Each transaction's status change is told under the first group that linked it.
    const groupOf = new Map<string, string>();
    for (const { match } of deleted) {
      if (!groupOf.has(match.originId)) groupOf.set(match.originId, match.groupId);
      if (!groupOf.has(match.targetId)) groupOf.set(match.targetId, match.groupId);
    }
    const changes = await recomputeReconciliation(transaction, context.organizationId, [...groupOf.keys()]);
    await markDatasetsUpdated(
      transaction,
      context.organizationId,
      changes.map((change) => change.datasetId),
      context.actor,
    );
    const changesOf = new Map<string, ReconciliationChange[]>();
    for (const change of changes) {
      const groupId = groupOf.get(change.id)!;
      const listed = changesOf.get(groupId);
      if (listed) listed.push(change);
      else changesOf.set(groupId, [change]);
    }
    const events: AuditEventInsert[] = [];
    for (const [index, { match, forced }] of deleted.entries()) {
      events.push({
        action: AuditActions.matchDeleted,
        transactionId: match.originId,
        relatedTransactionId: match.targetId,
        matchId: match.id,
        groupId: match.groupId,
        before: { ...match, forced },
        after: null,
      });
      const next = deleted[index + 1];
      if (next?.match.groupId !== match.groupId) {
        events.push(...statusChangeEvents(changesOf.get(match.groupId) ?? [], match.groupId));
      }
    }
    await appendAuditEvents(transaction, { ...context, note }, events);
  }
}

/** Compares ids and ISO times by their characters (uuid order is the order of their text). */
function compareText(left: string, right: string): number {
  return left < right ? -1 : left > right ? 1 : 0;
}

interface CheckedLink {
  originId: string;
  targetId: string;
  requestedAmount: string | null;
}

function checkLinkShape(link: LinkInput, index: number): CheckedLink {
  if (link.originId.toLowerCase() === link.targetId.toLowerCase()) {
    throw invalidField(`/links/${index}/targetId`, 'must differ from originId: a transaction cannot be matched with itself');
  }
  let requestedAmount: string | null = null;
  if (link.amount !== undefined && link.amount !== null) {
    requestedAmount = parsePositiveMoney(link.amount);
    if (requestedAmount === null) {
      throw invalidField(`/links/${index}/amount`, `${moneyProblem(link.amount, { positive: true })}; leave it out to allocate what is left of both sides`);
    }
  }
  return { originId: link.originId.toLowerCase(), targetId: link.targetId.toLowerCase(), requestedAmount };
}

/** A group links a pair of transactions once; A→B and B→A are the same pair. */
function checkDuplicateLinks(links: readonly CheckedLink[]): void {
  const seen = new Map<string, number>();
  links.forEach((link, index) => {
    const pair = [link.originId, link.targetId].sort().join(' ');
    const earlier = seen.get(pair);
    if (earlier !== undefined) {
      throw invalidField(
        `/links/${index}`,
        `links the same two transactions as link ${earlier}; a group links a pair once (give that link the whole amount instead)`,
      );
    }
    seen.set(pair, index);
  });
}

function differentCurrencies(origin: LockedTransaction, target: LockedTransaction): boolean {
  return origin.currency !== null && target.currency !== null && origin.currency.toUpperCase() !== target.currency.toUpperCase();
}

/** Whether a decimal string is above zero; a sign test on the text, not arithmetic. */
function isPositive(decimal: string): boolean {
  return compareDecimals(decimal, '0') === 1;
}

function exceedDetail(index: number, side: 'origin' | 'target', id: string, amount: string, remaining: string): ErrorDetail {
  return {
    path: `/links/${index}/amount`,
    message: `${amount} is more than the ${remaining} left to allocate on the ${side} ${id}`,
  };
}
