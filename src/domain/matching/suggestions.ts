import { randomUUID } from 'node:crypto';
import type { Database, Queryable } from '../../db/database.ts';
import { findCandidatesFor } from '../../db/matching/run-work.ts';
import { appendAuditEvents } from '../../db/repositories/audit-events.ts';
import { markDatasetsUpdated } from '../../db/repositories/datasets.ts';
import {
  findMatchGroupJson,
  listMatchGroupMatchesJson,
  findOverAllocated,
  findSuggestionJson,
  insertRejectedOptions,
  insertRuleGroup,
  listSuggestionsJson,
  lockSuggestion,
  markSuggestionDecided,
  supersedeSuggestionsOf,
} from '../../db/repositories/suggestions.ts';
import { lockTransactions, recomputeReconciliation } from '../../db/repositories/transactions.ts';
import { findTransactionExists } from '../../db/repositories/transactions.ts';
import { conflict, invalidField, listErrors, notFound } from '../../errors.ts';
import { AuditActions, type WriteContext } from '../audit.ts';
import { refuseClosedPeriods } from '../close/closed-periods.ts';
import { statusChangeEvents } from '../transactions/status.ts';
import { createdCursors, pageOf, pageSize, readCursor, rowsToFetch, textCursors } from '../pages.ts';
import { UUID_PATTERN } from '../identifiers.ts';
import { completeRecordedEvidence } from './evidence.ts';
import { loadForRun } from './rules.ts';

/**
 * Suggestions and candidates (SPEC §8.4). A suggestion lists options a rule could not (or was
 * told not to) decide alone; a person confirms one, which becomes a rule-made match group
 * created by that person, or rejects the suggestion, whose options are then never proposed
 * again. Candidates are the same evidence for one transaction, on demand.
 */

export const SUGGESTION_LIMITS = {
  bulkIds: 500,
  reasonLength: 1000,
} as const;

export const SUGGESTIONS_PAGE_SIZE = pageSize(100, 500);
/** Candidates of one transaction: a single page, without a cursor. */
export const CANDIDATES_PAGE_SIZE = pageSize(10, 100);

export const SUGGESTION_STATUSES = ['pending', 'confirmed', 'rejected', 'superseded'] as const;

const SUGGESTIONS_CURSORS = createdCursors('s1.');

/** The matches of one match group on a page, when a page is asked for: a payout may have 100,000. */
export const MATCH_GROUP_MATCHES_PAGE_SIZE = pageSize(1000, 10000);

/**
 * A page of a group's matches continues after a match of that group: the position is the group's
 * id and the match's, both checked to be ids, so a cursor made up or of another group is refused
 * rather than reaching the query.
 */
const MATCH_GROUP_MATCHES_CURSORS = textCursors<{ groupId: string; matchId: string }>('gm1.', {
  write: (position) => `${position.groupId}|${position.matchId}`,
  read: (text) => {
    const [groupId, matchId, ...rest] = text.split('|');
    return groupId && matchId && rest.length === 0 && UUID_PATTERN.test(groupId) && UUID_PATTERN.test(matchId) ? { groupId, matchId } : null;
  },
});

export class Suggestions {
  constructor(private readonly database: Database) {}

  async list(
    organizationId: string,
    query: { status: string | null; datasetId: string | null; ruleId: string | null; cursor: string | null; limit: number },
  ): Promise<{ suggestions: Record<string, unknown>[]; nextCursor: string | null }> {
    const after = await readCursor(SUGGESTIONS_CURSORS, query.cursor);
    const rows = await listSuggestionsJson(this.database, organizationId, { ...query, after, limit: rowsToFetch(query.limit) });
    const page = await pageOf(rows, query.limit, (row) => row, SUGGESTIONS_CURSORS);
    return { suggestions: page.rows.map((row) => row.suggestion), nextCursor: page.nextCursor };
  }

  async get(organizationId: string, suggestionId: string): Promise<Record<string, unknown>> {
    const suggestion = await findSuggestionJson(this.database, organizationId, suggestionId);
    if (!suggestion) throw notFound('suggestion', suggestionId);
    return suggestion;
  }

  /**
   * Confirms a pending suggestion: the chosen option (required when there are several) becomes
   * a match group, method "rule", created by the person or client who confirmed. Refused (409)
   * when a transaction of the option changed so that the allocation no longer fits, or was set
   * informative / out of scope since.
   */
  async confirm(
    transaction: Queryable,
    context: WriteContext,
    input: { suggestionId: string; option: number | null; note: string | null },
    pointer = '/option',
  ): Promise<Record<string, unknown>> {
    const suggestion = await lockSuggestion(transaction, context.organizationId, input.suggestionId);
    if (!suggestion) throw notFound('suggestion', input.suggestionId);
    if (suggestion.status !== 'pending') throw conflict(`suggestion ${suggestion.id} is ${suggestion.status}; only a pending suggestion can be confirmed`);
    let index = input.option;
    if (index === null) {
      if (suggestion.options.length > 1) {
        throw invalidField(
          pointer,
          `suggestion ${suggestion.id} has ${suggestion.options.length} options; confirm it alone with "option" set to the index of one (0 to ${suggestion.options.length - 1})`,
        );
      }
      index = 0;
    }
    const option = suggestion.options[index];
    if (!option) throw invalidField(pointer, `must be an option index from 0 to ${suggestion.options.length - 1}`);
    const ids = [...new Set(option.links.flatMap((link) => [link.originId, link.targetId]))];
    const locked = await lockTransactions(transaction, context.organizationId, ids);
    for (const row of locked) {
      if (row.status_override !== null) {
        throw conflict(
          `transaction ${row.id} was set "${row.status_override}" since the suggestion was made; set it back to "none" first, or reject the suggestion`,
        );
      }
    }
    await refuseClosedPeriods(transaction, context.organizationId, { kind: 'transactions', ids });
    const groupId = randomUUID();
    const matches = await insertRuleGroup(transaction, {
      id: groupId,
      organizationId: context.organizationId,
      ruleId: suggestion.rule_id,
      ruleVersion: suggestion.rule_version,
      runId: suggestion.run_id,
      suggestionId: suggestion.id,
      evidence: option.evidence,
      adjustment: option.adjustment,
      createdBy: context.actor,
      note: input.note,
      links: option.links,
    });
    const changes = await recomputeReconciliation(transaction, context.organizationId, ids);
    const over = await findOverAllocated(transaction, context.organizationId, ids);
    if (over.length > 0) {
      throw conflict(
        `transaction(s) ${over.join(', ')} were matched since the suggestion was made, and confirming it would allocate more than is left; reject it, or match the transactions by hand`,
        over.map((id) => ({ path: pointer, message: `transaction ${id} has too little left to allocate` })),
      );
    }
    await markSuggestionDecided(transaction, context.organizationId, suggestion.id, { status: 'confirmed', actor: context.actor, note: input.note, groupId });
    await supersedeSuggestionsOf(transaction, context.organizationId, suggestion.id, ids);
    await markDatasetsUpdated(
      transaction,
      context.organizationId,
      changes.map((change) => change.datasetId),
      context.actor,
    );
    await appendAuditEvents(transaction, { ...context, note: input.note }, [
      {
        action: AuditActions.suggestionConfirmed,
        transactionId: null,
        relatedTransactionId: null,
        matchId: null,
        groupId,
        before: null,
        after: { suggestionId: suggestion.id, option: index, ruleId: suggestion.rule_id, ruleVersion: suggestion.rule_version },
      },
      ...matches.map(({ match }) => ({
        action: AuditActions.matchCreated,
        transactionId: match.originId,
        relatedTransactionId: match.targetId,
        matchId: match.id,
        groupId,
        before: null,
        after: { ...match, forced: false, suggestionId: suggestion.id },
      })),
      ...statusChangeEvents(changes, groupId),
    ]);
    return (await findSuggestionJson(transaction, context.organizationId, suggestion.id))!;
  }

  /** Rejects a pending suggestion; none of its options is proposed again. */
  async reject(transaction: Queryable, context: WriteContext, input: { suggestionId: string; reason: string | null }): Promise<Record<string, unknown>> {
    const suggestion = await lockSuggestion(transaction, context.organizationId, input.suggestionId);
    if (!suggestion) throw notFound('suggestion', input.suggestionId);
    if (suggestion.status !== 'pending') throw conflict(`suggestion ${suggestion.id} is ${suggestion.status}; only a pending suggestion can be rejected`);
    await markSuggestionDecided(transaction, context.organizationId, suggestion.id, {
      status: 'rejected',
      actor: context.actor,
      note: input.reason,
      groupId: null,
    });
    await insertRejectedOptions(
      transaction,
      context.organizationId,
      suggestion.id,
      suggestion.options.map((option) => option.key),
      context.actor,
    );
    await appendAuditEvents(transaction, { ...context, note: input.reason }, [
      {
        action: AuditActions.suggestionRejected,
        transactionId: null,
        relatedTransactionId: null,
        matchId: null,
        groupId: null,
        before: null,
        after: { suggestionId: suggestion.id, reason: input.reason, options: suggestion.options.map((option) => option.key) },
      },
    ]);
    return (await findSuggestionJson(transaction, context.organizationId, suggestion.id))!;
  }

  /** Confirms or rejects several suggestions, all or nothing, in the order given. */
  async bulk(
    transaction: Queryable,
    context: WriteContext,
    input: { ids: readonly string[]; action: 'confirm' | 'reject'; reason: string | null },
  ): Promise<{ suggestions: Record<string, unknown>[] }> {
    const seen = new Map<string, number>();
    input.ids.forEach((id, index) => {
      const earlier = seen.get(id.toLowerCase());
      if (earlier !== undefined) throw invalidField(`/ids/${index}`, `repeats suggestion ${id} (already at /ids/${earlier}); list each once`);
      seen.set(id.toLowerCase(), index);
    });
    const decided: Record<string, unknown>[] = [];
    for (const [index, id] of input.ids.entries()) {
      try {
        decided.push(
          input.action === 'confirm'
            ? await this.confirm(transaction, context, { suggestionId: id, option: null, note: input.reason }, `/ids/${index}`)
            : await this.reject(transaction, context, { suggestionId: id, reason: input.reason }),
        );
      } catch (error) {
        if (error instanceof Error && 'kind' in error) {
          const appError = error as Error & { kind: string; details: { path: string; message: string }[] };
          appError.message = `ids[${index}] (${id}): ${appError.message}; nothing was changed`;
          if (appError.details.length === 0) appError.details.push({ path: `/ids/${index}`, message: 'this suggestion could not be decided' });
        }
        throw error;
      }
    }
    return { suggestions: decided };
  }

  /**
   * The best counterparts of one transaction under the enabled rules whose datasets include its
   * dataset, ranked by score, with each rule's evidence (what the matching screen shows).
   */
  async candidates(organizationId: string, transactionId: string, limit: number): Promise<{ candidates: unknown[] }> {
    if (!(await findTransactionExists(this.database, organizationId, transactionId))) throw notFound('transaction', transactionId);
    const rules = (await loadForRun(this.database, organizationId, null, {})).filter((rule) => rule.outcome.kind !== 'classify' && rule.target !== null);
    const found: { score: string }[] = [];
    for (const rule of rules) found.push(...(await findCandidatesFor(this.database, organizationId, rule, transactionId, limit)));
    found.sort((left, right) => Number(right.score) - Number(left.score));
    return { candidates: found.slice(0, limit) };
  }

  /**
   * A match group with its matches: all of them when no page is asked for (as it always was), or
   * one page of them (`limit`, `cursor`) with the cursor of the next, for a payout's thousands.
   */
  async matchGroup(organizationId: string, groupId: string, page: { limit: number; cursor: string | null } | null = null): Promise<Record<string, unknown>> {
    const group = await findMatchGroupJson(this.database, organizationId, groupId, page === null);
    if (!group) throw notFound('match group', groupId);
    let paged: { matches: unknown[]; nextCursor: string | null } | null = null;
    if (page !== null) {
      const position = await readCursor(MATCH_GROUP_MATCHES_CURSORS, page.cursor);
      if (position !== null && position.groupId.toLowerCase() !== groupId.toLowerCase()) throw listErrors.cursorNotOurs();
      const rows = await listMatchGroupMatchesJson(this.database, organizationId, groupId, {
        afterMatchId: position?.matchId ?? null,
        limit: rowsToFetch(page.limit),
      });
      const cut = await pageOf(rows, page.limit, (row) => ({ groupId, matchId: row.id }), MATCH_GROUP_MATCHES_CURSORS);
      paged = { matches: cut.rows.map((row) => row.match), nextCursor: cut.nextCursor };
    }
    // The evidence is completed from the group's first match, whichever page is shown.
    const first =
      page === null || page.cursor === null
        ? ((paged?.matches ?? group.matches) as { originId: string; targetId: string }[])[0]
        : ((await listMatchGroupMatchesJson(this.database, organizationId, groupId, { afterMatchId: null, limit: 1 }))[0]?.match as
            { originId: string; targetId: string } | undefined);
    const [evidence] = await completeRecordedEvidence(this.database, organizationId, [
      { ruleId: group.ruleId as string | null, ruleVersion: group.ruleVersion as number | null, evidence: group.evidence, pair: first ?? null },
    ]);
    return { ...group, evidence, ...(paged ?? {}) };
  }
}
