import type { Queryable } from '../database.ts';

/**
 * How a transaction record and its matches are written as JSON, in SQL, so that the database
 * sends finished JSON and the hot path never rebuilds rows in JavaScript. Every operation that
 * answers with a transaction record uses these fragments, so the shape is defined once.
 */

/** ISO 8601 in UTC with milliseconds, the format of every metadata time in the API. */
export const isoTimeSql = (column: string) => `to_char(${column} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;

/** A property of a JSON object built in SQL: its name and the SQL expression of its value. */
export interface JsonField {
  name: string;
  expression: string;
}

/** A name as an SQL identifier, quoted so that any text is one identifier. */
function quoteIdentifier(name: string): string {
  return `"${name.replace(/"/g, '""')}"`;
}

/**
 * A JSON object of the given fields, in their order. row_to_json writes it compactly
 * ({"id":"…"}), like every other answer of the API, where json_build_object would write
 * {"id" : "…"}; the names are column aliases of a one-row subselect.
 */
function jsonObjectSql(fields: readonly JsonField[]): string {
  return `(SELECT row_to_json(o) FROM (SELECT ${fields.map((field) => `${field.expression} AS ${quoteIdentifier(field.name)}`).join(', ')}) AS o)`;
}

/**
 * The Match shape of SPEC §4, with the rule version and run of a rule-made match (SPEC §8.2);
 * `m` is a row of matches. Money leaves as a decimal string.
 */
export const MATCH_JSON_SQL = jsonObjectSql([
  { name: 'id', expression: 'm.id' },
  { name: 'groupId', expression: 'm.group_id' },
  { name: 'originId', expression: 'm.origin_id' },
  { name: 'originDatasetId', expression: 'm.origin_dataset_id' },
  { name: 'targetId', expression: 'm.target_id' },
  { name: 'targetDatasetId', expression: 'm.target_dataset_id' },
  { name: 'amount', expression: 'm.amount::text' },
  { name: 'method', expression: 'm.method' },
  { name: 'ruleId', expression: 'm.rule_id' },
  { name: 'ruleVersion', expression: 'm.rule_version' },
  { name: 'runId', expression: 'm.run_id' },
  { name: 'createdAt', expression: isoTimeSql('m.created_at') },
  { name: 'createdBy', expression: 'm.created_by' },
]);

/**
 * The matches of row alias `t` on one side (`origin_id` or `target_id`), as a JSON array in
 * creation order. match_count is derived from the matches in the same transaction that changes
 * them (recomputeReconciliation, and the run's recompute), and a statement reads both in one
 * snapshot, so a row that counts no match has none on either side: its lists are written
 * without looking for matches. Most rows of a typical page are still open, and these two
 * lookups per row were the larger part of the page's cost in the database.
 */
function matchListSql(alias: string, side: 'origin_id' | 'target_id'): string {
  return `CASE WHEN ${alias}.match_count = 0 THEN '[]'::json ELSE coalesce((SELECT json_agg(${MATCH_JSON_SQL} ORDER BY m.created_at, m.id) FROM matches m WHERE m.organization_id = ${alias}.organization_id AND m.${side} = ${alias}.id), '[]'::json) END`;
}

/**
 * The published Transaction record of row alias `t`: exactly the eight published fields, in
 * the published order. incomingMatches are the matches where t is the origin, outgoingMatches
 * those where it is the target (the published interface's own, counter-intuitive naming).
 * `extraFields` are appended after the eight (the columns a query asks for).
 */
export function transactionRecordSql(alias = 't', extraFields: readonly JsonField[] = []): string {
  return jsonObjectSql([
    { name: 'id', expression: `${alias}.id` },
    { name: 'datasetId', expression: `${alias}.dataset_id` },
    { name: 'reconciliationStatus', expression: `${alias}.reconciliation_status` },
    { name: 'incomingMatches', expression: matchListSql(alias, 'origin_id') },
    { name: 'outgoingMatches', expression: matchListSql(alias, 'target_id') },
    { name: 'description', expression: `${alias}.description` },
    { name: 'type', expression: `${alias}.type` },
    { name: 'timestamp', expression: `${alias}.timestamp_ms` },
    ...extraFields,
  ]);
}

/** One transaction record of an organization, matches included; undefined if there is none. */
export async function findTransactionRecord(database: Queryable, organizationId: string, transactionId: string): Promise<Record<string, unknown> | undefined> {
  const rows = await database.query<{ record: Record<string, unknown> }>(
    `SELECT ${transactionRecordSql('t')} AS record FROM transactions t WHERE t.organization_id = $1 AND t.id = $2`,
    [organizationId, transactionId],
  );
  return rows[0]?.record;
}
