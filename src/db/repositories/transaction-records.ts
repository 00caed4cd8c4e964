import type { Queryable } from '../database.ts';

/**
 * How a transaction record and its matches are written as JSON, in SQL, so that the database
 * sends finished JSON and the hot path never rebuilds rows in JavaScript. Every operation that
 * answers with a transaction record uses these fragments, so the shape is defined once.
 */

/** ISO 8601 in UTC with milliseconds, the format of every metadata time in the API. */
export const isoTimeSql = (column: string) => `to_char(${column} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;

/** The Match shape of SPEC §4; `m` is a row of matches. Money leaves as a decimal string. */
export const MATCH_JSON_SQL = `json_build_object(
  'id', m.id,
  'groupId', m.group_id,
  'originId', m.origin_id,
  'originDatasetId', m.origin_dataset_id,
  'targetId', m.target_id,
  'targetDatasetId', m.target_dataset_id,
  'amount', m.amount::text,
  'method', m.method,
  'ruleId', m.rule_id,
  'createdAt', ${isoTimeSql('m.created_at')},
  'createdBy', m.created_by)`;

/**
 * The published Transaction record of row alias `t`: exactly the eight published fields, in
 * the published order. incomingMatches are the matches where t is the origin, outgoingMatches
 * those where it is the target (the published interface's own, counter-intuitive naming).
 * `extraFields` are further "key, value" SQL pairs appended after the eight (the columns a
 * query asks for); json_build_object takes at most 100 arguments, so at most 42 pairs fit.
 */
export function transactionRecordSql(alias = 't', extraFields: readonly string[] = []): string {
  const extra = extraFields.map((pair) => `,\n  ${pair}`).join('');
  return `json_build_object(
  'id', ${alias}.id,
  'datasetId', ${alias}.dataset_id,
  'reconciliationStatus', ${alias}.reconciliation_status,
  'incomingMatches', coalesce((SELECT json_agg(${MATCH_JSON_SQL} ORDER BY m.created_at, m.id) FROM matches m WHERE m.origin_id = ${alias}.id), '[]'::json),
  'outgoingMatches', coalesce((SELECT json_agg(${MATCH_JSON_SQL} ORDER BY m.created_at, m.id) FROM matches m WHERE m.target_id = ${alias}.id), '[]'::json),
  'description', ${alias}.description,
  'type', ${alias}.type,
  'timestamp', ${alias}.timestamp_ms${extra})`;
}

/** One transaction record of an organization, matches included; undefined if there is none. */
export async function findTransactionRecord(
  database: Queryable,
  organizationId: string,
  transactionId: string,
): Promise<Record<string, unknown> | undefined> {
  const rows = await database.query<{ record: Record<string, unknown> }>(
    `SELECT ${transactionRecordSql('t')} AS record FROM transactions t WHERE t.organization_id = $1 AND t.id = $2`,
    [organizationId, transactionId],
  );
  return rows[0]?.record;
}
