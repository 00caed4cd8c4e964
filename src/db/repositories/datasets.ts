import type { Queryable } from '../database.ts';
import { isoTimeSql } from './transaction-records.ts';

/** A dataset as the repositories hand it to the domain: times already in the API's ISO form. */
export interface DatasetRow {
  id: string;
  sourceId: string;
  name: string;
  /** The custom columns, [{name, type}]. */
  columns: { name: string; type: string }[];
  revision: number;
  status: string;
  createdAt: string;
  lastUpdatedBy: string | null;
  lastUpdatedAt: string;
  lastReceived: string | null;
  latestTimestamp: number | null;
  failures: number;
  lastFile: string | null;
  accountId: string | null;
  currency: string | null;
  /** Transactions per reconciliation status; statuses without transactions may be missing. */
  statusCounts: Record<string, number>;
}

/** The JSON of dataset row `d`, with its counts per reconciliation status. */
export const DATASET_JSON_SQL = `json_build_object(
  'id', d.id,
  'sourceId', d.source_id,
  'name', d.name,
  'columns', d.columns,
  'revision', d.revision,
  'status', d.status,
  'createdAt', ${isoTimeSql('d.created_at')},
  'lastUpdatedBy', d.last_updated_by,
  'lastUpdatedAt', ${isoTimeSql('d.last_updated_at')},
  'lastReceived', ${isoTimeSql('d.last_received_at')},
  'latestTimestamp', d.latest_timestamp_ms,
  'failures', d.failures,
  'lastFile', d.last_file,
  'accountId', d.account_id,
  'currency', d.currency,
  'statusCounts', coalesce((SELECT json_object_agg(c.reconciliation_status, c.transaction_count)
                              FROM dataset_status_counts c
                             WHERE c.organization_id = d.organization_id AND c.dataset_id = d.id AND c.transaction_count <> 0), '{}'::json))`;

export async function insertDataset(
  database: Queryable,
  dataset: { id: string; organizationId: string; sourceId: string; name: string; columns: { name: string; type: string }[]; createdBy: string },
): Promise<DatasetRow> {
  const rows = await database.query<{ dataset: DatasetRow }>(
    `WITH d AS (
       INSERT INTO datasets (id, organization_id, source_id, name, columns, last_updated_by)
       VALUES ($1, $2, $3, $4, $5::jsonb, $6)
       RETURNING *)
     SELECT ${DATASET_JSON_SQL} AS dataset FROM d`,
    [dataset.id, dataset.organizationId, dataset.sourceId, dataset.name, JSON.stringify(dataset.columns), dataset.createdBy],
  );
  return rows[0]!.dataset;
}

export async function countDatasetsOfSource(database: Queryable, organizationId: string, sourceId: string): Promise<number> {
  const rows = await database.query<{ count: number }>('SELECT count(*) AS count FROM datasets WHERE organization_id = $1 AND source_id = $2', [
    organizationId,
    sourceId,
  ]);
  return rows[0]!.count;
}

export interface LockedDataset {
  id: string;
  name: string;
  columns: { name: string; type: string }[];
  /** The account whose statements the dataset holds, and their currency (migration 0018). */
  accountId: string | null;
  currency: string | null;
}

/**
 * Locks a dataset for a write of its rows and returns its custom columns. Writers of one dataset
 * queue here; the lock order is the one documented in migration 0003 (transaction rows first,
 * then datasets).
 */
export async function lockDataset(database: Queryable, organizationId: string, datasetId: string): Promise<LockedDataset | undefined> {
  const rows = await database.query<LockedDataset>(
    'SELECT id, name, columns, account_id AS "accountId", currency FROM datasets WHERE organization_id = $1 AND id = $2 FOR UPDATE',
    [organizationId, datasetId],
  );
  return rows[0];
}

/**
 * Locks datasets in id order, as the tracking triggers of migration 0003 lock them, for a write
 * that has locked its transaction rows already (an undo): rows first, then datasets.
 */
export async function lockDatasets(database: Queryable, organizationId: string, datasetIds: readonly string[]): Promise<void> {
  await database.query('SELECT id FROM datasets WHERE organization_id = $1 AND id = ANY ($2::uuid[]) ORDER BY id FOR UPDATE', [
    organizationId,
    [...new Set(datasetIds)],
  ]);
}

/** Records who wrote to the dataset and when; the revision itself is bumped by the database (0003). */
export async function markDatasetReceived(
  database: Queryable,
  organizationId: string,
  datasetId: string,
  update: { actor: string; changed: boolean; latestTimestampMs: number | null },
): Promise<void> {
  await database.query(
    `UPDATE datasets
        SET last_received_at = now(),
            last_updated_at = CASE WHEN $3 THEN now() ELSE last_updated_at END,
            last_updated_by = CASE WHEN $3 THEN $4 ELSE last_updated_by END,
            latest_timestamp_ms = greatest(latest_timestamp_ms, $5::bigint)
      WHERE organization_id = $1 AND id = $2`,
    [organizationId, datasetId, update.changed, update.actor, update.latestTimestampMs],
  );
}

/** Records that datasets' rows changed (matches, statuses) and who changed them. */
export async function markDatasetsUpdated(database: Queryable, organizationId: string, datasetIds: string[], actor: string): Promise<void> {
  if (datasetIds.length === 0) return;
  await database.query(
    `UPDATE datasets SET last_updated_at = now(), last_updated_by = $3
      WHERE organization_id = $1 AND id = ANY ($2::uuid[])`,
    [organizationId, [...new Set(datasetIds)].sort(), actor],
  );
}

/**
 * Fills a dataset's account and currency where they are empty: the first statement import tells
 * which account the dataset holds.
 */
export async function adoptDatasetAccount(
  database: Queryable,
  organizationId: string,
  datasetId: string,
  account: { accountId: string | null; currency: string | null },
): Promise<void> {
  await database.query('UPDATE datasets SET account_id = coalesce(account_id, $3), currency = coalesce(currency, $4) WHERE organization_id = $1 AND id = $2', [
    organizationId,
    datasetId,
    account.accountId,
    account.currency,
  ]);
}

/**
 * Gives back the account and currency a dataset took from an import being undone: when the
 * dataset's account is one of that import's statements' accounts and no other completed import of
 * the dataset remains, both are cleared, so that the next statement sets them again (a file of the
 * wrong account imported first and undone no longer holds the dataset to that account). Returns
 * whether they were cleared.
 */
export async function releaseDatasetAccountOfImport(database: Queryable, organizationId: string, datasetId: string, importId: string): Promise<boolean> {
  const rows = await database.query(
    `UPDATE datasets d SET account_id = NULL, currency = NULL
      WHERE d.organization_id = $1 AND d.id = $2 AND d.account_id IS NOT NULL
        AND EXISTS (SELECT 1 FROM imports i, jsonb_array_elements(CASE WHEN jsonb_typeof(i.statements) = 'array' THEN i.statements ELSE '[]'::jsonb END) s
                     WHERE i.organization_id = $1 AND i.id = $3
                       AND upper(regexp_replace(s ->> 'accountId', '\\s', '', 'g')) = upper(regexp_replace(d.account_id, '\\s', '', 'g')))
        AND NOT EXISTS (SELECT 1 FROM imports o WHERE o.organization_id = $1 AND o.dataset_id = $2 AND o.id <> $3 AND o.status = 'completed')
      RETURNING d.id`,
    [organizationId, datasetId, importId],
  );
  return rows.length > 0;
}

/** The fields of a dataset a person may change; undefined leaves a field as it is. */
export interface DatasetChange {
  name?: string;
  accountId?: string | null;
  currency?: string | null;
  status?: 'active' | 'archived';
}

/**
 * Changes a dataset's name, account, currency or status (either of account and currency may be
 * cleared with null), and answers it as it was and as it is now; undefined when there is none.
 */
export async function updateDataset(
  database: Queryable,
  organizationId: string,
  datasetId: string,
  change: DatasetChange,
): Promise<{ before: DatasetRow; after: DatasetRow } | undefined> {
  const rows = await database.query<{ before: DatasetRow; dataset: DatasetRow }>(
    `WITH old AS (
       SELECT d.* FROM datasets d WHERE d.organization_id = $1 AND d.id = $2 FOR UPDATE),
     d AS (
       UPDATE datasets
          SET name = coalesce($7, name),
              account_id = CASE WHEN $3 THEN $4 ELSE account_id END,
              currency = CASE WHEN $5 THEN $6 ELSE currency END,
              status = coalesce($8, status)
        WHERE organization_id = $1 AND id = (SELECT id FROM old)
       RETURNING *)
     SELECT (SELECT ${DATASET_JSON_SQL} FROM old d) AS before, ${DATASET_JSON_SQL} AS dataset FROM d`,
    [
      organizationId,
      datasetId,
      change.accountId !== undefined,
      change.accountId ?? null,
      change.currency !== undefined,
      change.currency ?? null,
      change.name ?? null,
      change.status ?? null,
    ],
  );
  const row = rows[0];
  return row ? { before: row.before, after: row.dataset } : undefined;
}
