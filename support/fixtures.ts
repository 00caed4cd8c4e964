import { randomUUID } from 'node:crypto';
import type { Queryable } from '../src/db/database.ts';

/**
 * Test data written straight into the tables with SQL, so that suites of the query can arrange
 * exactly the rows they need without going through the write operations.
 */

export interface FixtureColumn {
  name: string;
  type: 'string' | 'number' | 'money' | 'date' | 'boolean';
}

export async function insertSource(database: Queryable, organizationId: string, name = 'Bank'): Promise<string> {
  const id = randomUUID();
  await database.query('INSERT INTO sources (id, organization_id, name) VALUES ($1, $2, $3)', [id, organizationId, name]);
  return id;
}

export async function insertDataset(
  database: Queryable,
  organizationId: string,
  options: { sourceId?: string; name?: string; columns?: FixtureColumn[] } = {},
): Promise<string> {
  const sourceId = options.sourceId ?? (await insertSource(database, organizationId));
  const id = randomUUID();
  await database.query('INSERT INTO datasets (id, organization_id, source_id, name, columns) VALUES ($1, $2, $3, $4, $5::jsonb)', [
    id,
    organizationId,
    sourceId,
    options.name ?? 'Statement',
    JSON.stringify(options.columns ?? []),
  ]);
  return id;
}

export interface FixtureTransaction {
  id?: string;
  timestampMs: number;
  description?: string | null;
  type?: string | null;
  reference?: string | null;
  currency?: string | null;
  /** A decimal string. */
  amount?: string | null;
  custom?: Record<string, unknown>;
  statusOverride?: 'informative' | 'out of scope' | null;
  externalId?: string | null;
}

/** Inserts transactions in one statement and returns their ids in the order given. */
export async function insertTransactions(
  database: Queryable,
  organizationId: string,
  datasetId: string,
  transactions: readonly FixtureTransaction[],
): Promise<string[]> {
  const rows = transactions.map((transaction) => ({
    id: transaction.id ?? randomUUID(),
    timestamp_ms: transaction.timestampMs,
    description: transaction.description ?? null,
    type: transaction.type ?? null,
    reference: transaction.reference ?? null,
    currency: transaction.currency ?? null,
    amount: transaction.amount ?? null,
    custom: transaction.custom ?? {},
    status_override: transaction.statusOverride ?? null,
    external_id: transaction.externalId ?? null,
  }));
  await database.query(
    `INSERT INTO transactions (id, organization_id, dataset_id, external_id, timestamp_ms, description, type, reference, currency, amount, custom,
                               status_override, reconciliation_status)
     SELECT r.id, $1, $2, r.external_id, r.timestamp_ms, r.description, r.type, r.reference, r.currency, r.amount, r.custom,
            r.status_override, coalesce(r.status_override, 'none')
       FROM jsonb_to_recordset($3::jsonb) AS r (id uuid, external_id text, timestamp_ms bigint, description text, type text, reference text,
                                               currency text, amount numeric, custom jsonb, status_override text)`,
    [organizationId, datasetId, JSON.stringify(rows)],
  );
  return rows.map((row) => row.id);
}

/**
 * Links two transactions with a match of its own group, keeping allocated_amount, match_count
 * and reconciliation_status of both consistent, as the write path does.
 */
export async function insertMatch(
  database: Queryable,
  organizationId: string,
  link: { originId: string; targetId: string; amount?: string | null; createdBy?: string },
): Promise<{ matchId: string; groupId: string }> {
  const groupId = randomUUID();
  const matchId = randomUUID();
  const createdBy = link.createdBy ?? 'test';
  await database.query(`INSERT INTO match_groups (id, organization_id, method, created_by) VALUES ($1, $2, 'manual', $3)`, [
    groupId,
    organizationId,
    createdBy,
  ]);
  await database.query(
    `INSERT INTO matches (id, organization_id, group_id, origin_id, origin_dataset_id, target_id, target_dataset_id, amount, method, created_by)
     SELECT $1, $2, $3, o.id, o.dataset_id, t.id, t.dataset_id, $6::numeric, 'manual', $7
       FROM transactions o, transactions t
      WHERE o.id = $4 AND t.id = $5 AND o.organization_id = $2 AND t.organization_id = $2`,
    [matchId, organizationId, groupId, link.originId, link.targetId, link.amount ?? null, createdBy],
  );
  await database.query(
    `UPDATE transactions t
        SET allocated_amount = t.allocated_amount + coalesce($2::numeric, 0),
            match_count = t.match_count + 1,
            reconciliation_status = coalesce(t.status_override,
              CASE WHEN t.amount IS NULL OR t.allocated_amount + coalesce($2::numeric, 0) >= abs(t.amount) THEN 'full' ELSE 'partial' END)
      WHERE t.id = ANY($1::uuid[])`,
    [[link.originId, link.targetId], link.amount ?? null],
  );
  return { matchId, groupId };
}

/** The dataset's current revision. */
export async function datasetRevision(database: Queryable, datasetId: string): Promise<number> {
  const rows = await database.query<{ revision: number }>('SELECT revision FROM datasets WHERE id = $1', [datasetId]);
  return Number(rows[0]?.revision);
}

/**
 * Bumps a dataset's revision, as every write that changes its rows or statuses does. Writes made
 * through the transactions table bump it already; this is for changes arranged around that.
 */
export async function bumpRevision(database: Queryable, datasetId: string): Promise<void> {
  await database.query('UPDATE datasets SET revision = revision + 1 WHERE id = $1', [datasetId]);
}

/** An organization row alone, for data-layer suites that need no credentials. */
export async function insertOrganization(database: Queryable, name = 'Fixture organization'): Promise<string> {
  const id = randomUUID();
  await database.query('INSERT INTO organizations (id, name) VALUES ($1, $2)', [id, name]);
  return id;
}
