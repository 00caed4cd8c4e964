import type { Queryable } from '../database.ts';
import { LINK_ADJUSTMENTS_SQL, LINK_COLUMNS_SQL } from '../matching/run-apply.ts';
import { isoTimeSql, MATCH_JSON_SQL } from './transaction-records.ts';

/** Suggestions (SPEC §8.4): proposals of a rule a person confirms or rejects. */

const SUGGESTION_JSON_SQL = `json_build_object(
  'id', s.id,
  'status', s.status,
  'reason', s.reason,
  'ruleId', s.rule_id,
  'ruleVersion', s.rule_version,
  'runId', s.run_id,
  'transactionIds', s.transaction_ids,
  'datasetIds', s.dataset_ids,
  'options', s.options,
  'createdAt', ${isoTimeSql('s.created_at')},
  'decidedAt', ${isoTimeSql('s.decided_at')},
  'decidedBy', s.decided_by,
  'decisionNote', s.decision_note,
  'groupId', s.group_id)`;

export interface SuggestionRow {
  id: string;
  status: string;
  rule_id: string;
  rule_version: number;
  run_id: string | null;
  options: SuggestionOption[];
}

export interface SuggestionOption {
  key: string;
  links: {
    originId: string;
    originDatasetId: string;
    targetId: string;
    targetDatasetId: string;
    amount: string;
    originAdjustment: string;
    targetAdjustment: string;
    /** A netted link of a payout: the end whose allocated total it lowers (migration 0020). */
    reduces?: 'origin' | 'target';
  }[];
  adjustment: { amount: string; reason: string } | null;
  score: string;
  evidence: unknown;
}

export async function findSuggestionJson(database: Queryable, organizationId: string, suggestionId: string): Promise<Record<string, unknown> | undefined> {
  const rows = await database.query<{ suggestion: Record<string, unknown> }>(
    `SELECT ${SUGGESTION_JSON_SQL} AS suggestion FROM suggestions s WHERE s.organization_id = $1 AND s.id = $2`,
    [organizationId, suggestionId],
  );
  return rows[0]?.suggestion;
}

export async function lockSuggestion(transaction: Queryable, organizationId: string, suggestionId: string): Promise<SuggestionRow | undefined> {
  const rows = await transaction.query<SuggestionRow>(
    `SELECT id, status, rule_id, rule_version, run_id, options FROM suggestions WHERE organization_id = $1 AND id = $2 FOR UPDATE`,
    [organizationId, suggestionId],
  );
  return rows[0];
}

/** Suggestions of an organization, oldest first, after a (created_at, id) position. */
export async function listSuggestionsJson(
  database: Queryable,
  organizationId: string,
  filter: { status: string | null; datasetId: string | null; ruleId: string | null; after: { createdAt: string; id: string } | null; limit: number },
): Promise<{ suggestion: Record<string, unknown>; createdAt: string; id: string }[]> {
  const parameters: unknown[] = [organizationId, filter.limit];
  const conditions = ['s.organization_id = $1'];
  const add = (value: unknown, condition: (placeholder: string) => string) => {
    parameters.push(value);
    conditions.push(condition(`$${parameters.length}`));
  };
  if (filter.status !== null) add(filter.status, (placeholder) => `s.status = ${placeholder}`);
  if (filter.datasetId !== null) add(filter.datasetId, (placeholder) => `${placeholder}::uuid = ANY (s.dataset_ids)`);
  if (filter.ruleId !== null) add(filter.ruleId, (placeholder) => `s.rule_id = ${placeholder}::uuid`);
  if (filter.after !== null) {
    parameters.push(filter.after.createdAt, filter.after.id);
    conditions.push(`(s.created_at, s.id) > ($${parameters.length - 1}::timestamptz, $${parameters.length}::uuid)`);
  }
  return database.query(
    `SELECT ${SUGGESTION_JSON_SQL} AS suggestion, s.created_at::text AS "createdAt", s.id
       FROM suggestions s WHERE ${conditions.join(' AND ')}
      ORDER BY s.created_at, s.id LIMIT $2`,
    parameters,
  );
}

export async function markSuggestionDecided(
  transaction: Queryable,
  organizationId: string,
  suggestionId: string,
  decision: { status: 'confirmed' | 'rejected'; actor: string; note: string | null; groupId: string | null },
): Promise<void> {
  await transaction.query(
    `UPDATE suggestions SET status = $3, decided_at = now(), decided_by = $4, decision_note = $5, group_id = $6 WHERE organization_id = $1 AND id = $2`,
    [organizationId, suggestionId, decision.status, decision.actor, decision.note, decision.groupId],
  );
}

/** Pending suggestions that share a transaction with a confirmed one no longer stand. */
export async function supersedeSuggestionsOf(
  transaction: Queryable,
  organizationId: string,
  exceptId: string,
  transactionIds: readonly string[],
): Promise<number> {
  const rows = await transaction.query<{ count: number }>(
    `WITH superseded AS (
       UPDATE suggestions SET status = 'superseded', decided_at = now()
        WHERE organization_id = $1 AND status = 'pending' AND id <> $2 AND transaction_ids && $3::uuid[]
       RETURNING 1)
     SELECT count(*)::integer AS count FROM superseded`,
    [organizationId, exceptId, [...new Set(transactionIds)]],
  );
  return rows[0]!.count;
}

export async function insertRejectedOptions(
  transaction: Queryable,
  organizationId: string,
  suggestionId: string,
  keys: readonly string[],
  actor: string,
): Promise<void> {
  await transaction.query(
    `INSERT INTO rejected_options (organization_id, option_key, rejected_by, suggestion_id)
     SELECT $1::uuid, key, $3::text, $4::uuid FROM unnest($2::text[]) AS key
     ON CONFLICT (organization_id, option_key) DO NOTHING`,
    [organizationId, [...new Set(keys)], actor, suggestionId],
  );
}

/** Inserts a rule-made group and its links (with adjustments) and returns the matches. */
export async function insertRuleGroup(
  transaction: Queryable,
  group: {
    id: string;
    organizationId: string;
    ruleId: string;
    ruleVersion: number;
    runId: string | null;
    suggestionId: string | null;
    evidence: unknown;
    adjustment: unknown;
    createdBy: string;
    note: string | null;
    links: SuggestionOption['links'];
  },
): Promise<{ match: Record<string, unknown> & { id: string; originId: string; targetId: string } }[]> {
  await transaction.query(
    `INSERT INTO match_groups (id, organization_id, method, rule_id, rule_version, run_id, suggestion_id, evidence, adjustment, created_by, note)
     VALUES ($1, $2, 'rule', $3, $4, $5, $6, $7::jsonb, $8::jsonb, $9, $10)`,
    [
      group.id,
      group.organizationId,
      group.ruleId,
      group.ruleVersion,
      group.runId,
      group.suggestionId,
      JSON.stringify(group.evidence),
      JSON.stringify(group.adjustment),
      group.createdBy,
      group.note,
    ],
  );
  return transaction.query(
    `INSERT INTO matches AS m (id, organization_id, group_id, origin_id, origin_dataset_id, target_id, target_dataset_id, amount, method, rule_id, rule_version,
                               run_id, created_by, origin_adjustment, target_adjustment, reduces)
     SELECT gen_random_uuid(), $2::uuid, $1::uuid, ${LINK_COLUMNS_SQL}, 'rule', $3::uuid, $4::integer, $5::uuid, $6::text, ${LINK_ADJUSTMENTS_SQL}
       FROM jsonb_array_elements($7::jsonb) WITH ORDINALITY AS l (link, ordinality)
      ORDER BY l.ordinality
     RETURNING ${MATCH_JSON_SQL}::jsonb AS match`,
    [group.id, group.organizationId, group.ruleId, group.ruleVersion, group.runId, group.createdBy, JSON.stringify(group.links)],
  );
}

/** Transactions whose allocated total exceeds their absolute amount (a check after a change). */
export async function findOverAllocated(transaction: Queryable, organizationId: string, ids: readonly string[]): Promise<string[]> {
  const rows = await transaction.query<{ id: string }>(
    `SELECT id FROM transactions WHERE organization_id = $1 AND id = ANY ($2::uuid[]) AND amount IS NOT NULL AND amount <> 0 AND allocated_amount > abs(amount) ORDER BY id`,
    [organizationId, [...new Set(ids)]],
  );
  return rows.map((row) => row.id);
}

/** A match group with its matches and, for a rule-made group, its evidence. */
/** A match group with all its matches, or (`withMatches: false`) without them, for a caller that pages them. */
export async function findMatchGroupJson(
  database: Queryable,
  organizationId: string,
  groupId: string,
  withMatches = true,
): Promise<Record<string, unknown> | undefined> {
  const matches = withMatches
    ? `coalesce((SELECT json_agg(${MATCH_JSON_SQL} ORDER BY m.created_at, m.id) FROM matches m
                         WHERE m.organization_id = g.organization_id AND m.group_id = g.id), '[]'::json)`
    : `'[]'::json`;
  const rows = await database.query<{ group: Record<string, unknown> }>(
    `SELECT json_build_object(
              'id', g.id, 'method', g.method, 'ruleId', g.rule_id, 'ruleVersion', g.rule_version, 'runId', g.run_id, 'suggestionId', g.suggestion_id,
              'forced', g.forced, 'note', g.note, 'adjustment', g.adjustment, 'evidence', g.evidence,
              'createdAt', ${isoTimeSql('g.created_at')}, 'createdBy', g.created_by,
              'matches', ${matches}) AS group
       FROM match_groups g WHERE g.organization_id = $1 AND g.id = $2`,
    [organizationId, groupId],
  );
  return rows[0]?.group;
}

/**
 * Up to `limit` matches of a group after one of its matches, in the order the group lists them
 * (created at, id). After a match that is not (or no longer) in the group, nothing follows.
 */
export async function listMatchGroupMatchesJson(
  database: Queryable,
  organizationId: string,
  groupId: string,
  page: { afterMatchId: string | null; limit: number },
): Promise<{ match: Record<string, unknown>; id: string }[]> {
  const parameters: unknown[] = [organizationId, groupId, page.limit];
  if (page.afterMatchId !== null) parameters.push(page.afterMatchId);
  const after =
    page.afterMatchId !== null
      ? `AND (m.created_at, m.id) > (SELECT a.created_at, a.id FROM matches a WHERE a.organization_id = $1 AND a.group_id = $2 AND a.id = $4::uuid)`
      : '';
  return database.query(
    `SELECT ${MATCH_JSON_SQL} AS match, m.id
       FROM matches m
      WHERE m.organization_id = $1 AND m.group_id = $2 ${after}
      ORDER BY m.created_at, m.id LIMIT $3`,
    parameters,
  );
}
