import type { Queryable } from '../database.ts';
import { isoTimeSql } from './transaction-records.ts';

/**
 * Matching rules and their versions (migration 0007). `rules` holds each rule as it stands now;
 * `rule_versions` every body a rule has had, so that a match can show the rule that made it.
 * Deleting a rule only marks it (deleted_at): matches and evidence keep naming it. Every
 * statement filters on the organization.
 */

/** A rule as the repositories hand it to the domain: times already in the API's ISO form. */
export interface RuleRow {
  id: string;
  version: number;
  /** The normalized rule body (rule-checker.ts), as stored in jsonb. */
  body: unknown;
  createdAt: string;
  createdBy: string;
  updatedAt: string;
  updatedBy: string;
  /** created_at to the microsecond, as text that sorts like the time: the run order's tie-break. */
  createdAtKey: string;
}

export interface RuleVersionRow {
  ruleId: string;
  version: number;
  body: unknown;
  createdAt: string;
  createdBy: string;
}

const RULE_COLUMNS_SQL = `r.id, r.version, r.body,
  ${isoTimeSql('r.created_at')} AS "createdAt", r.created_by AS "createdBy",
  ${isoTimeSql('r.updated_at')} AS "updatedAt", r.updated_by AS "updatedBy",
  to_char(r.created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US') AS "createdAtKey"`;

/** The order rules run in (SPEC §8.2): priority, then creation, then id. */
const RUN_ORDER_SQL = 'r.priority, r.created_at, r.id';

export interface RuleWrite {
  organizationId: string;
  id: string;
  name: string;
  enabled: boolean;
  priority: number;
  runOnIngest: boolean;
  body: unknown;
  actor: string;
}

/** Inserts a rule and its version 1. */
export async function insertRule(transaction: Queryable, rule: RuleWrite): Promise<RuleRow> {
  const rows = await transaction.query<RuleRow>(
    `INSERT INTO rules AS r (id, organization_id, version, name, enabled, priority, run_on_ingest, body, created_by, updated_by)
     VALUES ($1, $2, 1, $3, $4, $5, $6, $7::jsonb, $8, $8)
     RETURNING ${RULE_COLUMNS_SQL}`,
    [rule.id, rule.organizationId, rule.name, rule.enabled, rule.priority, rule.runOnIngest, JSON.stringify(rule.body), rule.actor],
  );
  await insertRuleVersion(transaction, rule.organizationId, rule.id, 1, rule.body, rule.actor);
  return rows[0]!;
}

/** Stores a new body as the rule's next version; undefined when there is no such (undeleted) rule. */
export async function updateRule(transaction: Queryable, rule: RuleWrite): Promise<RuleRow | undefined> {
  const rows = await transaction.query<RuleRow>(
    `UPDATE rules AS r
        SET version = r.version + 1, name = $3, enabled = $4, priority = $5, run_on_ingest = $6, body = $7::jsonb,
            updated_at = now(), updated_by = $8
      WHERE r.organization_id = $1 AND r.id = $2 AND r.deleted_at IS NULL
      RETURNING ${RULE_COLUMNS_SQL}`,
    [rule.organizationId, rule.id, rule.name, rule.enabled, rule.priority, rule.runOnIngest, JSON.stringify(rule.body), rule.actor],
  );
  const row = rows[0];
  if (row) await insertRuleVersion(transaction, rule.organizationId, rule.id, row.version, rule.body, rule.actor);
  return row;
}

async function insertRuleVersion(transaction: Queryable, organizationId: string, ruleId: string, version: number, body: unknown, actor: string): Promise<void> {
  await transaction.query('INSERT INTO rule_versions (organization_id, rule_id, version, body, created_by) VALUES ($1, $2, $3, $4::jsonb, $5)', [
    organizationId,
    ruleId,
    version,
    JSON.stringify(body),
    actor,
  ]);
}

/** Marks a rule deleted; false when there is no such (undeleted) rule. */
export async function softDeleteRule(transaction: Queryable, organizationId: string, ruleId: string, actor: string): Promise<boolean> {
  const rows = await transaction.query(
    `UPDATE rules SET deleted_at = now(), updated_at = now(), updated_by = $3
      WHERE organization_id = $1 AND id = $2 AND deleted_at IS NULL
      RETURNING id`,
    [organizationId, ruleId, actor],
  );
  return rows.length > 0;
}

/** The names of those of the rules given that are deleted. */
export async function findDeletedRuleNames(database: Queryable, organizationId: string, ruleIds: readonly string[]): Promise<string[]> {
  const rows = await database.query<{ name: string }>(
    `SELECT name FROM rules WHERE organization_id = $1 AND id = ANY ($2::uuid[]) AND deleted_at IS NOT NULL ORDER BY name`,
    [organizationId, [...ruleIds]],
  );
  return rows.map((row) => row.name);
}

/** A rule that is not deleted. */
export async function findRule(database: Queryable, organizationId: string, ruleId: string): Promise<RuleRow | undefined> {
  const rows = await database.query<RuleRow>(`SELECT ${RULE_COLUMNS_SQL} FROM rules r WHERE r.organization_id = $1 AND r.id = $2 AND r.deleted_at IS NULL`, [
    organizationId,
    ruleId,
  ]);
  return rows[0];
}

/** A rule that is not deleted, locked until the end of the transaction (FOR UPDATE). */
export async function lockRule(transaction: Queryable, organizationId: string, ruleId: string): Promise<RuleRow | undefined> {
  const rows = await transaction.query<RuleRow>(
    `SELECT ${RULE_COLUMNS_SQL} FROM rules r WHERE r.organization_id = $1 AND r.id = $2 AND r.deleted_at IS NULL FOR UPDATE`,
    [organizationId, ruleId],
  );
  return rows[0];
}

/**
 * The rules of an organization that are not deleted, in run order. `enabledOnly` and
 * `runOnIngestOnly` narrow them for a run; `lock` locks them (FOR UPDATE) for a reorder.
 */
export async function listRules(
  database: Queryable,
  organizationId: string,
  options: { enabledOnly?: boolean; runOnIngestOnly?: boolean; lock?: boolean } = {},
): Promise<RuleRow[]> {
  return database.query<RuleRow>(
    `SELECT ${RULE_COLUMNS_SQL} FROM rules r
      WHERE r.organization_id = $1 AND r.deleted_at IS NULL
        AND ($2::boolean IS NOT TRUE OR r.enabled) AND ($3::boolean IS NOT TRUE OR r.run_on_ingest)
      ORDER BY ${RUN_ORDER_SQL}${options.lock ? ' FOR UPDATE' : ''}`,
    [organizationId, options.enabledOnly ?? false, options.runOnIngestOnly ?? false],
  );
}

/** The rules (not deleted) among `ruleIds`, in run order; ids without a rule are left out. */
export async function findRules(database: Queryable, organizationId: string, ruleIds: readonly string[]): Promise<RuleRow[]> {
  return database.query<RuleRow>(
    `SELECT ${RULE_COLUMNS_SQL} FROM rules r
      WHERE r.organization_id = $1 AND r.id = ANY ($2::uuid[]) AND r.deleted_at IS NULL
      ORDER BY ${RUN_ORDER_SQL}`,
    [organizationId, ruleIds],
  );
}

/** How many rules (not deleted) the organization has, and the largest priority among them. */
export async function countRules(database: Queryable, organizationId: string): Promise<{ count: number; maximumPriority: number | null }> {
  const rows = await database.query<{ count: number; maximumPriority: number | null }>(
    'SELECT count(*) AS count, max(priority) AS "maximumPriority" FROM rules WHERE organization_id = $1 AND deleted_at IS NULL',
    [organizationId],
  );
  return rows[0]!;
}

/**
 * Sets the priority of many rules at once, in their bodies too (a reorder: no new version).
 * Returns the ids changed.
 */
export async function setRulePriorities(
  transaction: Queryable,
  organizationId: string,
  priorities: readonly { id: string; priority: number }[],
  actor: string,
): Promise<string[]> {
  const rows = await transaction.query<{ id: string }>(
    `UPDATE rules AS r
        SET priority = p.priority, body = jsonb_set(r.body, '{priority}', to_jsonb(p.priority)), updated_at = now(), updated_by = $3
       FROM jsonb_to_recordset($2::jsonb) AS p (id uuid, priority integer)
      WHERE r.organization_id = $1 AND r.id = p.id AND r.deleted_at IS NULL AND r.priority IS DISTINCT FROM p.priority
      RETURNING r.id`,
    [organizationId, JSON.stringify(priorities), actor],
  );
  return rows.map((row) => row.id);
}

/** Whether the rule exists (deleted or not), with its current version and deletion time. */
export async function findRuleHistoryHead(
  database: Queryable,
  organizationId: string,
  ruleId: string,
): Promise<{ version: number; deletedAt: string | null } | undefined> {
  const rows = await database.query<{ version: number; deletedAt: string | null }>(
    `SELECT version, ${isoTimeSql('deleted_at')} AS "deletedAt" FROM rules WHERE organization_id = $1 AND id = $2`,
    [organizationId, ruleId],
  );
  return rows[0];
}

/** Versions of one rule, newest first, below `beforeVersion` when given; `limit` rows at most. */
export async function listRuleVersions(
  database: Queryable,
  organizationId: string,
  ruleId: string,
  options: { beforeVersion: number | null; limit: number },
): Promise<RuleVersionRow[]> {
  return database.query<RuleVersionRow>(
    `SELECT v.rule_id AS "ruleId", v.version, v.body, ${isoTimeSql('v.created_at')} AS "createdAt", v.created_by AS "createdBy"
       FROM rule_versions v
      WHERE v.organization_id = $1 AND v.rule_id = $2 AND ($3::integer IS NULL OR v.version < $3)
      ORDER BY v.version DESC
      LIMIT $4`,
    [organizationId, ruleId, options.beforeVersion, options.limit],
  );
}

/** The given versions of rules (deleted rules included: a run may have pinned them before). */
export async function findRuleVersions(
  database: Queryable,
  organizationId: string,
  versions: readonly { id: string; version: number }[],
): Promise<RuleVersionRow[]> {
  return database.query<RuleVersionRow>(
    `SELECT v.rule_id AS "ruleId", v.version, v.body, ${isoTimeSql('v.created_at')} AS "createdAt", v.created_by AS "createdBy"
       FROM rule_versions v
       JOIN jsonb_to_recordset($2::jsonb) AS wanted (id uuid, version integer) ON wanted.id = v.rule_id AND wanted.version = v.version
      WHERE v.organization_id = $1`,
    [organizationId, JSON.stringify(versions)],
  );
}

/** SQLSTATE invalid_regular_expression. */
const INVALID_REGULAR_EXPRESSION = '2201B';

/**
 * Has PostgreSQL compile a regular expression, as a statement of its own: null when it
 * compiles, else PostgreSQL's reason. Run outside any transaction, since a refused pattern is an
 * error that would abort the transaction it ran in.
 */
export async function compileRegularExpression(database: Queryable, pattern: string): Promise<string | null> {
  try {
    await database.query("SELECT '' ~ $1::text AS matched", [pattern]);
    return null;
  } catch (error) {
    if ((error as { code?: unknown }).code !== INVALID_REGULAR_EXPRESSION) throw error;
    return (error as Error).message;
  }
}
