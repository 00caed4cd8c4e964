import type { Queryable } from '../database.ts';

/**
 * Reconciliations (month-end close, SPEC §14), their datasets by side, their periods and the steps
 * of their sign-off, as stored by migration 0021. Amounts travel as numeric text.
 */

export interface ReconciliationRow {
  id: string;
  name: string;
  currency: string;
  ledgerOpeningBalance: string;
  ledgerOpeningDate: string;
  periodMonths: number;
  ruleIds: string[];
  adjustmentAccounts: Record<string, string>;
  /** The bank's own account in the ledger, which adjustments are posted against; null when not set. */
  cashAccount: string | null;
  archived: boolean;
  createdAt: string;
  createdBy: string;
  updatedAt: string;
  bankDatasetIds: string[];
  ledgerDatasetIds: string[];
}

const RECONCILIATION_COLUMNS = `r.id, r.name, r.currency, r.ledger_opening_balance::text AS "ledgerOpeningBalance",
  to_char(r.ledger_opening_date, 'YYYY-MM-DD') AS "ledgerOpeningDate", r.period_months AS "periodMonths",
  r.rule_ids::text[] AS "ruleIds", r.adjustment_accounts AS "adjustmentAccounts", r.cash_account AS "cashAccount", r.archived,
  r.created_at::text AS "createdAt", r.created_by AS "createdBy", r.updated_at AS "updatedAt",
  coalesce((SELECT array_agg(rd.dataset_id::text ORDER BY rd.dataset_id) FROM reconciliation_datasets rd
             WHERE rd.organization_id = r.organization_id AND rd.reconciliation_id = r.id AND rd.side = 'bank'), '{}') AS "bankDatasetIds",
  coalesce((SELECT array_agg(rd.dataset_id::text ORDER BY rd.dataset_id) FROM reconciliation_datasets rd
             WHERE rd.organization_id = r.organization_id AND rd.reconciliation_id = r.id AND rd.side = 'ledger'), '{}') AS "ledgerDatasetIds"`;

export interface ReconciliationFields {
  name: string;
  currency: string;
  ledgerOpeningBalance: string;
  ledgerOpeningDate: string;
  periodMonths: number;
  ruleIds: string[];
  adjustmentAccounts: Record<string, string>;
  cashAccount: string | null;
  archived: boolean;
  bankDatasetIds: string[];
  ledgerDatasetIds: string[];
}

function normalized(row: ReconciliationRow): ReconciliationRow {
  return { ...row, updatedAt: new Date(row.updatedAt).toISOString() };
}

export async function findReconciliation(
  database: Queryable,
  organizationId: string,
  id: string,
  options: { lock?: boolean } = {},
): Promise<ReconciliationRow | null> {
  if (options.lock) await database.query('SELECT 1 FROM reconciliations WHERE organization_id = $1 AND id = $2 FOR UPDATE', [organizationId, id]);
  const rows = await database.query<ReconciliationRow>(`SELECT ${RECONCILIATION_COLUMNS} FROM reconciliations r WHERE r.organization_id = $1 AND r.id = $2`, [
    organizationId,
    id,
  ]);
  return rows[0] ? normalized(rows[0]) : null;
}

/** A page of the organization's reconciliations in creation order, after a (createdAt, id) position. */
export async function listReconciliations(
  database: Queryable,
  organizationId: string,
  options: { limit: number; after: { createdAt: string; id: string } | null; includeArchived: boolean },
): Promise<ReconciliationRow[]> {
  const rows = await database.query<ReconciliationRow>(
    `SELECT ${RECONCILIATION_COLUMNS} FROM reconciliations r
      WHERE r.organization_id = $1 AND ($2::boolean OR NOT r.archived)
        AND ($3::timestamptz IS NULL OR (r.created_at, r.id) > ($3::timestamptz, $4::uuid))
      ORDER BY r.created_at, r.id
      LIMIT $5`,
    [organizationId, options.includeArchived, options.after?.createdAt ?? null, options.after?.id ?? null, options.limit],
  );
  return rows.map(normalized);
}

export async function insertReconciliation(
  database: Queryable,
  organizationId: string,
  id: string,
  fields: ReconciliationFields,
  createdBy: string,
): Promise<void> {
  await database.query(
    `INSERT INTO reconciliations (id, organization_id, name, currency, ledger_opening_balance, ledger_opening_date, period_months, rule_ids, adjustment_accounts, archived, created_by, cash_account)
     VALUES ($1, $2, $3, $4, $5::numeric, $6::date, $7, $8::uuid[], $9::jsonb, $10, $11, $12)`,
    [
      id,
      organizationId,
      fields.name,
      fields.currency,
      fields.ledgerOpeningBalance,
      fields.ledgerOpeningDate,
      fields.periodMonths,
      fields.ruleIds,
      JSON.stringify(fields.adjustmentAccounts),
      fields.archived,
      createdBy,
      fields.cashAccount,
    ],
  );
  await replaceDatasets(database, organizationId, id, fields);
}

export async function updateReconciliation(database: Queryable, organizationId: string, id: string, fields: ReconciliationFields): Promise<void> {
  await database.query(
    `UPDATE reconciliations SET name = $3, currency = $4, ledger_opening_balance = $5::numeric, ledger_opening_date = $6::date, period_months = $7,
            rule_ids = $8::uuid[], adjustment_accounts = $9::jsonb, archived = $10, cash_account = $11, updated_at = now()
      WHERE organization_id = $1 AND id = $2`,
    [
      organizationId,
      id,
      fields.name,
      fields.currency,
      fields.ledgerOpeningBalance,
      fields.ledgerOpeningDate,
      fields.periodMonths,
      fields.ruleIds,
      JSON.stringify(fields.adjustmentAccounts),
      fields.archived,
      fields.cashAccount,
    ],
  );
  await database.query('DELETE FROM reconciliation_datasets WHERE organization_id = $1 AND reconciliation_id = $2', [organizationId, id]);
  await replaceDatasets(database, organizationId, id, fields);
}

async function replaceDatasets(database: Queryable, organizationId: string, id: string, fields: ReconciliationFields): Promise<void> {
  await database.query(
    `INSERT INTO reconciliation_datasets (organization_id, reconciliation_id, dataset_id, side)
     SELECT $1, $2, d.dataset_id, d.side
       FROM (SELECT unnest($3::uuid[]) AS dataset_id, 'bank' AS side UNION ALL SELECT unnest($4::uuid[]), 'ledger') d`,
    [organizationId, id, fields.bankDatasetIds, fields.ledgerDatasetIds],
  );
}

export interface DatasetFacts {
  id: string;
  name: string;
  currency: string | null;
  /** The other reconciliation that already holds the dataset, if any. */
  reconciliationId: string | null;
  reconciliationName: string | null;
}

export async function findDatasetFacts(database: Queryable, organizationId: string, datasetIds: string[]): Promise<DatasetFacts[]> {
  return database.query<DatasetFacts>(
    `SELECT d.id::text, d.name, d.currency, r.id::text AS "reconciliationId", r.name AS "reconciliationName"
       FROM datasets d
       LEFT JOIN reconciliation_datasets rd ON rd.organization_id = d.organization_id AND rd.dataset_id = d.id
       LEFT JOIN reconciliations r ON r.organization_id = rd.organization_id AND r.id = rd.reconciliation_id
      WHERE d.organization_id = $1 AND d.id = ANY ($2::uuid[])`,
    [organizationId, datasetIds],
  );
}

export async function findRuleIds(database: Queryable, organizationId: string, ruleIds: string[]): Promise<string[]> {
  const rows = await database.query<{ id: string }>('SELECT id::text FROM rules WHERE organization_id = $1 AND id = ANY ($2::uuid[]) AND deleted_at IS NULL', [
    organizationId,
    ruleIds,
  ]);
  return rows.map((row) => row.id);
}

export async function reconciliationNameTaken(database: Queryable, organizationId: string, name: string, exceptId: string | null): Promise<boolean> {
  const rows = await database.query('SELECT 1 FROM reconciliations WHERE organization_id = $1 AND name = $2 AND ($3::uuid IS NULL OR id <> $3::uuid)', [
    organizationId,
    name,
    exceptId,
  ]);
  return rows.length > 0;
}

// ---------------------------------------------------------------------------------------------
// Periods and sign-offs
// ---------------------------------------------------------------------------------------------

export interface PeriodRow {
  id: string;
  periodStart: string;
  periodEnd: string;
  state: 'open' | 'prepared' | 'approved';
}

export interface SignoffRow {
  sequence: string;
  periodEnd: string;
  step: 'prepare' | 'approve' | 'reopen';
  actor: string;
  actorName: string;
  note: string | null;
  createdAt: string;
}

const ACTOR_NAME = `CASE
  WHEN s.actor LIKE 'client:%' THEN coalesce((SELECT c.name FROM api_clients c WHERE c.organization_id = s.organization_id AND c.id = substr(s.actor, 8)), 'an API client')
  WHEN s.actor LIKE 'user:%' THEN substr(s.actor, 6)
  ELSE s.actor END`;

export async function listPeriods(database: Queryable, organizationId: string, reconciliationId: string): Promise<PeriodRow[]> {
  return database.query<PeriodRow>(
    `SELECT id::text, to_char(period_start, 'YYYY-MM-DD') AS "periodStart", to_char(period_end, 'YYYY-MM-DD') AS "periodEnd", state
       FROM close_periods WHERE organization_id = $1 AND reconciliation_id = $2 ORDER BY period_end`,
    [organizationId, reconciliationId],
  );
}

/** The period of a reconciliation ending on periodEnd, created open when it does not exist yet; locked for the sign-off's change. */
export async function lockPeriod(
  database: Queryable,
  organizationId: string,
  reconciliationId: string,
  periodStart: string,
  periodEnd: string,
): Promise<PeriodRow> {
  await database.query(
    `INSERT INTO close_periods (id, organization_id, reconciliation_id, period_start, period_end)
     VALUES (gen_random_uuid(), $1, $2, $3::date, $4::date)
     ON CONFLICT (reconciliation_id, period_end, organization_id) DO NOTHING`,
    [organizationId, reconciliationId, periodStart, periodEnd],
  );
  const rows = await database.query<PeriodRow>(
    `SELECT id::text, to_char(period_start, 'YYYY-MM-DD') AS "periodStart", to_char(period_end, 'YYYY-MM-DD') AS "periodEnd", state
       FROM close_periods WHERE organization_id = $1 AND reconciliation_id = $2 AND period_end = $3::date FOR UPDATE`,
    [organizationId, reconciliationId, periodEnd],
  );
  return rows[0]!;
}

export async function setPeriodState(database: Queryable, organizationId: string, periodId: string, state: PeriodRow['state']): Promise<void> {
  await database.query('UPDATE close_periods SET state = $3, updated_at = now() WHERE organization_id = $1 AND id = $2', [organizationId, periodId, state]);
}

export async function insertSignoff(
  database: Queryable,
  organizationId: string,
  periodId: string,
  step: SignoffRow['step'],
  actor: string,
  note: string | null,
  statement: unknown,
  journalEntries: unknown = null,
): Promise<void> {
  await database.query(
    `INSERT INTO close_signoffs (organization_id, period_id, step, actor, note, statement, journal_entries) VALUES ($1, $2, $3, $4, $5, $6::jsonb, $7::jsonb)`,
    [
      organizationId,
      periodId,
      step,
      actor,
      note,
      statement === null ? null : JSON.stringify(statement),
      journalEntries === null ? null : JSON.stringify(journalEntries),
    ],
  );
}

/** Every step of the sign-offs of a reconciliation's periods, oldest first. */
export async function listSignoffs(database: Queryable, organizationId: string, reconciliationId: string): Promise<SignoffRow[]> {
  return database.query<SignoffRow>(
    `SELECT s.sequence::text, to_char(p.period_end, 'YYYY-MM-DD') AS "periodEnd", s.step, s.actor, ${ACTOR_NAME} AS "actorName", s.note,
            to_char(s.created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS "createdAt"
       FROM close_signoffs s JOIN close_periods p ON p.organization_id = s.organization_id AND p.id = s.period_id
      WHERE s.organization_id = $1 AND p.reconciliation_id = $2
      ORDER BY s.sequence`,
    [organizationId, reconciliationId],
  );
}

/** The statement stored by the latest prepare of a period. */
export async function findPreparedStatement(database: Queryable, organizationId: string, periodId: string): Promise<unknown> {
  const rows = await database.query<{ statement: unknown }>(
    `SELECT statement FROM close_signoffs WHERE organization_id = $1 AND period_id = $2 AND step = 'prepare' ORDER BY sequence DESC LIMIT 1`,
    [organizationId, periodId],
  );
  return rows[0]?.statement ?? null;
}

/** The role of the person or client behind an actor, from its user id or client id; null when unknown. */
export async function findRoleOf(database: Queryable, organizationId: string, who: { userId?: string; clientId: string }): Promise<string | null> {
  const rows = who.userId
    ? await database.query<{ role: string }>('SELECT role FROM users WHERE organization_id = $1 AND id = $2::uuid', [organizationId, who.userId])
    : await database.query<{ role: string }>('SELECT role FROM api_clients WHERE organization_id = $1 AND id = $2', [organizationId, who.clientId]);
  return rows[0]?.role ?? null;
}

export async function findOrganizationName(database: Queryable, organizationId: string): Promise<string> {
  const rows = await database.query<{ name: string }>('SELECT name FROM organizations WHERE id = $1', [organizationId]);
  return rows[0]?.name ?? '';
}

/** An actor as people read it: a user's email, an API client's name. */
export async function actorNameOf(database: Queryable, organizationId: string, actor: string): Promise<string> {
  const rows = await database.query<{ name: string }>(`SELECT ${ACTOR_NAME} AS name FROM (SELECT $1::uuid AS organization_id, $2::text AS actor) s`, [
    organizationId,
    actor,
  ]);
  return rows[0]?.name ?? actor;
}
