import type { Queryable } from '../database.ts';
import { AUDIT_APPEND_LOCK_SQL } from '../repositories/audit-events.ts';
import { RESULT_LINK_COUNT_SQL, resultLinksSql, resultTransactionsSql } from '../repositories/run-result-transactions.ts';
import { MATCH_JSON_SQL } from '../repositories/transaction-records.ts';
import { ALLOCATIONS_OF_SQL, RECONCILIATION_SET_SQL } from '../repositories/transactions.ts';

/**
 * The statements that carry out a run's decisions (run_results) in the database, set-based:
 * lock and check the transactions involved, insert the match groups and matches, set
 * classified statuses, derive statuses anew, create suggestions, and write every change to the
 * audit trail with the run id. And the reverse: delete what a run made.
 */

export interface ApplyContext {
  organizationId: string;
  runId: string;
  actor: string;
  requestId: string | null;
  note: string;
}

const APPLIED_KINDS = `('match', 'classified')`;

/** The columns of a link kept as JSON ({originId, …}) in `l.link`, for an INSERT INTO matches. */
export const LINK_COLUMNS_SQL = `(l.link ->> 'originId')::uuid, (l.link ->> 'originDatasetId')::uuid, (l.link ->> 'targetId')::uuid,
  (l.link ->> 'targetDatasetId')::uuid, (l.link ->> 'amount')::numeric`;
/** What a link counts beyond its amount, for the columns origin_adjustment, target_adjustment, reduces. */
export const LINK_ADJUSTMENTS_SQL = `coalesce((l.link ->> 'originAdjustment')::numeric, 0), coalesce((l.link ->> 'targetAdjustment')::numeric, 0), l.link ->> 'reduces'`;

/** The transactions a run's matches and classifications involve, as SQL selecting `id` ($1 the run, $2 its organization). */
const involvedSql = `SELECT DISTINCT x.id FROM (${resultTransactionsSql('$1::uuid', '$2::uuid', APPLIED_KINDS)}) AS x`;

/**
 * Locks the transactions the run's decisions involve (in id order, like every writer), then
 * returns those whose state changed since the run decided: their status or allocated total
 * differs from what the run saw. At most `limit` ids.
 */
export async function lockAndFindChanged(
  transaction: Queryable,
  organizationId: string,
  runId: string,
  limit: number,
): Promise<{ ids: string[]; total: number }> {
  await transaction.query(`SELECT t.id FROM transactions t WHERE t.organization_id = $2::uuid AND t.id IN (${involvedSql}) ORDER BY t.id FOR UPDATE OF t`, [
    runId,
    organizationId,
  ]);
  // The results' transactions are read out of their JSON first (MATERIALIZED), then joined. A
  // run writes its results in the same transaction, so the planner has no statistics of them and
  // guesses one row; inlined, the join to transactions went inside the loop over the results and
  // scanned every transaction once per result (a commit of 18,112 matches: 39 s, now under 1 s).
  const rows = await transaction.query<{ id: string; total: number }>(
    `WITH seen AS MATERIALIZED (
       SELECT x.id, x.status, x.allocated::numeric AS allocated FROM (${resultTransactionsSql('$1::uuid', '$2::uuid', APPLIED_KINDS)}) AS x),
     changed AS (
       SELECT DISTINCT s.id FROM seen s JOIN transactions t ON t.id = s.id AND t.organization_id = $2::uuid
        WHERE t.reconciliation_status IS DISTINCT FROM s.status OR t.allocated_amount IS DISTINCT FROM s.allocated)
     SELECT id, count(*) OVER ()::integer AS total FROM changed ORDER BY id LIMIT $3`,
    [runId, organizationId, limit],
  );
  return { ids: rows.map((row) => row.id), total: rows[0]?.total ?? 0 };
}

/**
 * Transactions of the run's decisions now allocated beyond their amount: a check after the
 * decisions are carried out, so that no defect of the engine can ever over-allocate money.
 */
export async function findOverAllocatedOfRun(transaction: Queryable, organizationId: string, runId: string, limit: number): Promise<string[]> {
  const rows = await transaction.query<{ id: string }>(
    `SELECT t.id FROM transactions t
      WHERE t.organization_id = $2::uuid AND t.id IN (${involvedSql}) AND t.amount IS NOT NULL AND t.amount <> 0 AND t.allocated_amount > abs(t.amount)
      ORDER BY t.id LIMIT $3`,
    [runId, organizationId, limit],
  );
  return rows.map((row) => row.id);
}

/**
 * Inserts the match groups and matches of the run's "match" results, sets the statuses of its
 * "classified" results, derives the statuses of every transaction involved, and appends the
 * audit events (match.created, transaction.status_changed) with the run id in the note.
 */
export async function applyRunResults(
  transaction: Queryable,
  context: ApplyContext,
): Promise<{ groups: number; matches: number; classified: number; datasetIds: string[] }> {
  const base = [context.runId, context.organizationId];
  const groups = await transaction.query<{ count: number }>(
    `WITH inserted AS (
       INSERT INTO match_groups (id, organization_id, method, rule_id, rule_version, run_id, note, created_by, evidence, adjustment)
       SELECT r.group_id, $2::uuid, 'rule', r.rule_id, r.rule_version, r.run_id, $3::text, 'rule:' || r.rule_id::text, r.evidence, r.adjustment
         FROM run_results r WHERE r.organization_id = $2::uuid AND r.run_id = $1::uuid AND r.kind = 'match'
       RETURNING 1)
     SELECT count(*)::integer AS count FROM inserted`,
    [...base, context.note],
  );
  await transaction.query(AUDIT_APPEND_LOCK_SQL, [context.organizationId]);
  const matches = await transaction.query<{ count: number }>(
    `WITH inserted AS (
       INSERT INTO matches AS m (id, organization_id, group_id, origin_id, origin_dataset_id, target_id, target_dataset_id, amount,
                                 method, rule_id, rule_version, run_id, created_by, origin_adjustment, target_adjustment, reduces)
       SELECT gen_random_uuid(), $2::uuid, r.group_id, l.origin_id, l.origin_dataset_id, l.target_id, l.target_dataset_id, l.amount,
              'rule', r.rule_id, r.rule_version, r.run_id, 'rule:' || r.rule_id::text, l.origin_adjustment, l.target_adjustment, l.reduces
         FROM (${resultLinksSql('$1::uuid', '$2::uuid', `('match')`)}) AS l
         JOIN run_results r ON r.organization_id = $2::uuid AND r.sequence = l.sequence
        WHERE r.organization_id = $2::uuid AND r.run_id = $1::uuid AND r.kind = 'match'
        ORDER BY l.sequence, l.ordinality
       RETURNING m.*, ${MATCH_JSON_SQL} AS json),
     audited AS (
       INSERT INTO audit_events (id, organization_id, actor, action, transaction_id, related_transaction_id, match_id, group_id, before, after, note, request_id)
       SELECT gen_random_uuid(), $2::uuid, $3::text, 'match.created', i.origin_id, i.target_id, i.id, i.group_id, NULL,
              i.json::jsonb || jsonb_build_object('forced', false, 'originAdjustment', i.origin_adjustment::text, 'targetAdjustment', i.target_adjustment::text)
                || CASE WHEN i.reduces IS NULL THEN '{}'::jsonb ELSE jsonb_build_object('reduces', i.reduces) END,
              $4::text, $5::text
         FROM inserted i
       RETURNING 1)
     SELECT count(*)::integer AS count FROM audited`,
    [...base, context.actor, context.note, context.requestId],
  );
  const classified = await transaction.query<{ count: number }>(
    `WITH named AS MATERIALIZED (
       -- Read out of the JSON first, then joined: see lockAndFindChanged.
       SELECT (x ->> 'id')::uuid AS id, r.status
         FROM run_results r, jsonb_array_elements(r.transactions) AS x
        WHERE r.organization_id = $2::uuid AND r.run_id = $1::uuid AND r.kind = 'classified'),
     updated AS (
       UPDATE transactions t SET status_override = n.status
         FROM named n
        WHERE t.organization_id = $2::uuid AND t.id = n.id
       RETURNING 1)
     SELECT count(*)::integer AS count FROM updated`,
    base,
  );
  const datasetIds = await recomputeAndAudit(transaction, context, involvedSql);
  return { groups: groups[0]!.count, matches: matches[0]!.count, classified: classified[0]!.count, datasetIds };
}

/**
 * Derives reconciliation status, allocated total and match count anew for the transactions
 * `selectionSql` selects (it may use $1, the run id, and $2, the organization), appends a
 * transaction.status_changed event for each that changed, and returns their datasets. The
 * same rule as recomputeReconciliation (transactions.ts), for sets too large to pass as a list.
 */
async function recomputeAndAudit(transaction: Queryable, context: ApplyContext, selectionSql: string): Promise<string[]> {
  const rows = await transaction.query<{ datasetId: string }>(
    `WITH selected AS (${selectionSql}),
     sums AS (
       SELECT x.id, coalesce(sum(m.amount), 0) AS allocated, count(m.id)::integer AS match_count
         FROM selected x LEFT JOIN LATERAL (${ALLOCATIONS_OF_SQL('x.id', '$2::uuid')}) AS m ON true
        GROUP BY x.id),
     updated AS (
       UPDATE transactions t
          SET ${RECONCILIATION_SET_SQL}
         FROM sums s, transactions previous
        WHERE t.organization_id = $2::uuid AND t.id = s.id AND previous.organization_id = t.organization_id AND previous.id = t.id
       RETURNING t.id, t.dataset_id,
                 jsonb_build_object('reconciliationStatus', previous.reconciliation_status, 'allocatedAmount', previous.allocated_amount::text,
                                    'matchCount', previous.match_count) AS before,
                 jsonb_build_object('reconciliationStatus', t.reconciliation_status, 'allocatedAmount', t.allocated_amount::text,
                                    'matchCount', t.match_count) AS after),
     audited AS (
       INSERT INTO audit_events (id, organization_id, actor, action, transaction_id, before, after, note, request_id)
       SELECT gen_random_uuid(), $2::uuid, $3::text, 'transaction.status_changed', u.id, u.before, u.after, $4::text, $5::text
         FROM updated u WHERE u.before IS DISTINCT FROM u.after
        ORDER BY u.id
       RETURNING 1)
     SELECT DISTINCT dataset_id AS "datasetId" FROM updated`,
    [context.runId, context.organizationId, context.actor, context.note, context.requestId],
  );
  return rows.map((row) => row.datasetId);
}

/**
 * Creates pending suggestions from the run's "suggestion" and "ambiguous" results. One pending
 * suggestion per set of options: an equal one already pending is left as it is.
 */
export async function createSuggestionsFromResults(transaction: Queryable, context: ApplyContext): Promise<number> {
  const rows = await transaction.query<{ count: number }>(
    `WITH matched AS (
       -- A later rule of the same run may have matched a transaction that an earlier one left ambiguous.
       SELECT DISTINCT x.id FROM (${resultTransactionsSql('$1::uuid', '$2::uuid', `('match')`)}) AS x),
     named AS (
       SELECT x.sequence, array_agg(DISTINCT x.id) AS transaction_ids, bool_or(m.id IS NOT NULL) AS matched
         FROM (${resultTransactionsSql('$1::uuid', '$2::uuid', `('suggestion', 'ambiguous')`)}) AS x LEFT JOIN matched m ON m.id = x.id
        GROUP BY x.sequence),
     options AS (
       SELECT r.sequence, r.rule_id, r.rule_version, r.kind, r.options,
              (SELECT string_agg(o ->> 'key', ' ' ORDER BY o ->> 'key') FROM jsonb_array_elements(r.options) AS o) AS options_key,
              n.transaction_ids
         FROM run_results r LEFT JOIN named n ON n.sequence = r.sequence
        WHERE r.organization_id = $2::uuid AND r.run_id = $1::uuid AND r.kind IN ('suggestion', 'ambiguous') AND NOT coalesce(n.matched, false)),
     inserted AS (
       INSERT INTO suggestions (id, organization_id, run_id, rule_id, rule_version, status, reason, transaction_ids, dataset_ids, options, options_key)
       SELECT gen_random_uuid(), $2::uuid, $1::uuid, o.rule_id, o.rule_version, 'pending', CASE o.kind WHEN 'suggestion' THEN 'suggest' ELSE 'ambiguous' END,
              o.transaction_ids,
              (SELECT array_agg(DISTINCT t.dataset_id) FROM transactions t WHERE t.organization_id = $2::uuid AND t.id = ANY (o.transaction_ids)),
              o.options, o.options_key
         FROM options o
        ORDER BY o.sequence
       ON CONFLICT (organization_id, options_key) WHERE status = 'pending' DO NOTHING
       RETURNING id, options_key)
     , linked AS (
       UPDATE run_results r SET suggestion_id = i.id FROM options o, inserted i
        WHERE r.organization_id = $2::uuid AND r.run_id = $1::uuid AND r.sequence = o.sequence AND o.options_key = i.options_key
       RETURNING 1)
     SELECT count(*)::integer AS count FROM inserted`,
    [context.runId, context.organizationId],
  );
  return rows[0]!.count;
}

/** A group a revert leaves, and why. */
export interface NotReverted {
  groupId: string;
  reason: string;
}

/**
 * Deletes the match groups a run made that nobody changed since (every match the run made in
 * the group is still there), clears the statuses it set that still stand, derives statuses anew
 * and audits it all. Returns what it reverted and what it left.
 */
export async function revertRunChanges(
  transaction: Queryable,
  context: ApplyContext,
): Promise<{ groups: number; matches: number; statuses: number; notReverted: NotReverted[]; datasetIds: string[] }> {
  const base = [context.runId, context.organizationId];
  // Lock every transaction the run's results name, in id order, before reading what changed.
  await transaction.query(
    `SELECT t.id FROM transactions t
      WHERE t.organization_id = $2::uuid
        AND t.id IN (SELECT x.id FROM (${resultTransactionsSql('$1::uuid', '$2::uuid', `('match', 'suggestion', 'ambiguous', 'classified', 'bounds')`)}) AS x)
      ORDER BY t.id FOR UPDATE OF t`,
    base,
  );
  const left = await transaction.query<NotReverted>(
    `SELECT r.group_id AS "groupId",
            CASE WHEN NOT EXISTS (SELECT 1 FROM match_groups g WHERE g.organization_id = r.organization_id AND g.id = r.group_id) THEN 'the match group was deleted since'
                 ELSE 'matches of the group were deleted since' END AS reason
       FROM run_results r
      WHERE r.organization_id = $2::uuid AND r.run_id = $1::uuid AND r.kind = 'match' AND r.group_id IS NOT NULL
        AND (SELECT count(*) FROM matches m WHERE m.organization_id = r.organization_id AND m.group_id = r.group_id AND m.run_id = $1)
            <> ${RESULT_LINK_COUNT_SQL}
      ORDER BY r.sequence`,
    base,
  );
  await transaction.query(
    `CREATE TEMP TABLE run_revert_groups ON COMMIT DROP AS
       SELECT r.group_id FROM run_results r
        WHERE r.organization_id = $2::uuid AND r.run_id = $1::uuid AND r.kind = 'match' AND r.group_id IS NOT NULL
          AND (SELECT count(*) FROM matches m WHERE m.organization_id = r.organization_id AND m.group_id = r.group_id AND m.run_id = $1)
              = ${RESULT_LINK_COUNT_SQL}`,
    base,
  );
  await transaction.query(AUDIT_APPEND_LOCK_SQL, [context.organizationId]);
  const deleted = await transaction.query<{ count: number }>(
    `WITH removed AS (
       DELETE FROM matches m USING run_revert_groups g WHERE m.group_id = g.group_id AND m.organization_id = $1::uuid
       RETURNING m.*, ${MATCH_JSON_SQL} AS json),
     audited AS (
       INSERT INTO audit_events (id, organization_id, actor, action, transaction_id, related_transaction_id, match_id, group_id, before, after, note, request_id)
       SELECT gen_random_uuid(), $1::uuid, $2::text, 'match.deleted', r.origin_id, r.target_id, r.id, r.group_id, r.json::jsonb, NULL, $3::text, $4::text
         FROM removed r ORDER BY r.created_at, r.id
       RETURNING 1)
     SELECT count(*)::integer AS count FROM audited`,
    [context.organizationId, context.actor, context.note, context.requestId],
  );
  const groups = await transaction.query<{ count: number }>(
    `WITH removed AS (DELETE FROM match_groups g USING run_revert_groups r WHERE g.id = r.group_id AND g.organization_id = $1 RETURNING 1)
     SELECT count(*)::integer AS count FROM removed`,
    [context.organizationId],
  );
  // A status the run set is cleared only while it is still the one the run set and the
  // transaction has no matches (a person may have changed it since).
  const statuses = await transaction.query<{ count: number }>(
    `WITH cleared AS (
       UPDATE transactions t SET status_override = NULL
         FROM run_results r, jsonb_array_elements(r.transactions) AS x
        WHERE r.organization_id = $2::uuid AND r.run_id = $1::uuid AND r.kind = 'classified' AND t.organization_id = $2::uuid AND t.id = (x ->> 'id')::uuid
          AND t.status_override = r.status AND t.match_count = 0
       RETURNING 1)
     SELECT count(*)::integer AS count FROM cleared`,
    base,
  );
  const datasetIds = await recomputeAndAudit(transaction, context, involvedSql);
  await transaction.query('DROP TABLE run_revert_groups');
  return { groups: groups[0]!.count, matches: deleted[0]!.count, statuses: statuses[0]!.count, notReverted: left, datasetIds };
}
