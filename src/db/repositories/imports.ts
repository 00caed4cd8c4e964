import type { ImportFailure } from '../../domain/model.ts';
import type { Queryable } from '../database.ts';
import { isoTimeSql } from './transaction-records.ts';

/** An import as the API shows it (SPEC §7's report), times already in ISO form. */
export interface ImportRow {
  id: string;
  datasetId: string;
  format: string | null;
  fileName: string | null;
  sha256: string | null;
  sizeBytes: number | null;
  encoding: string | null;
  status: 'running' | 'completed' | 'failed' | 'undone';
  createdAt: string;
  completedAt: string | null;
  createdBy: string;
  rowsRead: number;
  inserted: number;
  duplicates: number;
  statements: unknown[];
  warnings: unknown[];
  error: ImportFailure | null;
  /** When the import was undone (its transactions removed), and by whom; null otherwise. */
  undoneAt: string | null;
  undoneBy: string | null;
}

const IMPORT_JSON_SQL = `json_build_object(
  'id', i.id,
  'datasetId', i.dataset_id,
  'format', i.format,
  'fileName', i.file_name,
  'sha256', i.sha256,
  'sizeBytes', i.size_bytes,
  'encoding', i.encoding,
  'status', i.status,
  'createdAt', ${isoTimeSql('i.created_at')},
  'completedAt', ${isoTimeSql('i.completed_at')},
  'createdBy', i.created_by,
  'rowsRead', i.rows_read,
  'inserted', i.inserted,
  'duplicates', i.duplicates,
  'statements', i.statements,
  'warnings', i.warnings,
  'error', i.error,
  'undoneAt', ${isoTimeSql('i.undone_at')},
  'undoneBy', i.undone_by)`;

export async function insertImport(
  database: Queryable,
  row: {
    id: string;
    organizationId: string;
    datasetId: string;
    jobId: string | null;
    format: string | null;
    fileName: string | null;
    sha256: string | null;
    sizeBytes: number | null;
    encoding: string | null;
    mapping: unknown;
    createdBy: string;
    allowOtherAccount: boolean;
  },
): Promise<ImportRow> {
  const rows = await database.query<{ record: ImportRow }>(
    `WITH i AS (
       INSERT INTO imports (id, organization_id, dataset_id, job_id, format, file_name, sha256, size_bytes, encoding, mapping, status, created_by, allow_other_account)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10::jsonb, 'running', $11, $12)
       RETURNING *)
     SELECT ${IMPORT_JSON_SQL} AS record FROM i`,
    [
      row.id,
      row.organizationId,
      row.datasetId,
      row.jobId,
      row.format,
      row.fileName,
      row.sha256,
      row.sizeBytes,
      row.encoding,
      JSON.stringify(row.mapping ?? null),
      row.createdBy,
      row.allowOtherAccount,
    ],
  );
  return rows[0]!.record;
}

export async function findImport(database: Queryable, organizationId: string, importId: string): Promise<ImportRow | undefined> {
  const rows = await database.query<{ record: ImportRow }>(`SELECT ${IMPORT_JSON_SQL} AS record FROM imports i WHERE i.organization_id = $1 AND i.id = $2`, [
    organizationId,
    importId,
  ]);
  return rows[0]?.record;
}

/** What an import needs to run (again): the dataset, the reading settings and the job. */
export async function findImportToRun(
  database: Queryable,
  organizationId: string,
  importId: string,
): Promise<
  | {
      organizationId: string;
      datasetId: string;
      format: string | null;
      fileName: string | null;
      encoding: string | null;
      mapping: unknown;
      createdBy: string;
      status: string;
      allowOtherAccount: boolean;
    }
  | undefined
> {
  const rows = await database.query<{
    organization_id: string;
    dataset_id: string;
    format: string | null;
    file_name: string | null;
    encoding: string | null;
    mapping: unknown;
    created_by: string;
    status: string;
    allow_other_account: boolean;
  }>(
    'SELECT organization_id, dataset_id, format, file_name, encoding, mapping, created_by, status, allow_other_account FROM imports WHERE organization_id = $1 AND id = $2',
    [organizationId, importId],
  );
  const row = rows[0];
  return (
    row && {
      organizationId: row.organization_id,
      datasetId: row.dataset_id,
      format: row.format,
      fileName: row.file_name,
      encoding: row.encoding,
      mapping: row.mapping,
      createdBy: row.created_by,
      status: row.status,
      allowOtherAccount: row.allow_other_account,
    }
  );
}

/** The imports of an organization (or one dataset), newest first, after a cursor position. */
export async function listImports(
  database: Queryable,
  query: { organizationId: string; datasetId: string | null; before: { createdAt: string; id: string } | null; limit: number },
): Promise<(ImportRow & { position: { createdAt: string; id: string } })[]> {
  const rows = await database.query<{ record: ImportRow; created_at: string; id: string }>(
    `SELECT ${IMPORT_JSON_SQL} AS record, i.created_at::text AS created_at, i.id
       FROM imports i
      WHERE i.organization_id = $1
        AND ($2::uuid IS NULL OR i.dataset_id = $2)
        AND ($3::timestamptz IS NULL OR (i.created_at, i.id) < ($3::timestamptz, $4::uuid))
      ORDER BY i.created_at DESC, i.id DESC
      LIMIT $5`,
    [query.organizationId, query.datasetId, query.before?.createdAt ?? null, query.before?.id ?? null, query.limit],
  );
  return rows.map((row) => ({ ...row.record, position: { createdAt: row.created_at, id: row.id } }));
}

export async function recordImportProgress(database: Queryable, organizationId: string, importId: string, rowsRead: number): Promise<void> {
  await database.query(`UPDATE imports SET rows_read = greatest(rows_read, $3) WHERE organization_id = $1 AND id = $2 AND status = 'running'`, [
    organizationId,
    importId,
    rowsRead,
  ]);
}

/** Settles an import as completed, with its report, in the transaction that stored its rows. */
export async function completeImport(
  database: Queryable,
  organizationId: string,
  importId: string,
  result: {
    format: string;
    encoding: string | null;
    rowsRead: number;
    inserted: number;
    duplicates: number;
    statements: unknown[];
    warnings: unknown[];
    /** The run the import queued (rules with runOnIngest), named by its import.completed event. */
    runId?: string | null;
  },
): Promise<ImportRow> {
  const rows = await database.query<{ record: ImportRow }>(
    `WITH i AS (
       UPDATE imports SET status = 'completed', completed_at = now(), format = $2, encoding = $3, rows_read = $4, inserted = $5, duplicates = $6,
                          statements = $7::jsonb, warnings = $8::jsonb, error = NULL, run_id = $10::uuid
        WHERE organization_id = $9 AND id = $1
       RETURNING *)
     SELECT ${IMPORT_JSON_SQL} AS record FROM i`,
    [
      importId,
      result.format,
      result.encoding,
      result.rowsRead,
      result.inserted,
      result.duplicates,
      JSON.stringify(result.statements),
      JSON.stringify(result.warnings),
      organizationId,
      result.runId ?? null,
    ],
  );
  return rows[0]!.record;
}

/**
 * Settles an import as failed, with its error; nothing of its file was stored. The error is built
 * by import_failure() (migration 0015), the function the database's own settling uses.
 */
export async function failImport(
  database: Queryable,
  organizationId: string,
  importId: string,
  failure: { format: string | null; encoding: string | null; rowsRead: number; warnings: unknown[]; error: ImportFailure },
): Promise<ImportRow | undefined> {
  const { error } = failure;
  const rows = await database.query<{ record: ImportRow }>(
    `WITH i AS (
       UPDATE imports SET status = 'failed', completed_at = now(), format = coalesce($2, format), encoding = coalesce($3, encoding), rows_read = $4,
                          inserted = 0, duplicates = 0, statements = '[]', warnings = $5::jsonb, error = import_failure($6, $7, $8, $9, $10)
        WHERE organization_id = $11 AND id = $1 AND status = 'running'
       RETURNING *)
     SELECT ${IMPORT_JSON_SQL} AS record FROM i`,
    [
      importId,
      failure.format,
      failure.encoding,
      failure.rowsRead,
      JSON.stringify(failure.warnings),
      error.reason,
      error.message,
      error.line,
      error.column,
      error.xmlPath,
      organizationId,
    ],
  );
  return rows[0]?.record;
}

/** Counts a failed import on its dataset (the published `failures`) and records the file. */
export async function markDatasetImportFailed(database: Queryable, organizationId: string, datasetId: string, fileName: string | null): Promise<void> {
  await database.query('UPDATE datasets SET failures = failures + 1, last_file = coalesce($3, last_file) WHERE organization_id = $1 AND id = $2', [
    organizationId,
    datasetId,
    fileName,
  ]);
}

/** Records the file an import delivered to its dataset (the published `lastFile`). */
export async function markDatasetFile(database: Queryable, organizationId: string, datasetId: string, fileName: string | null): Promise<void> {
  await database.query('UPDATE datasets SET last_file = coalesce($3, last_file) WHERE organization_id = $1 AND id = $2', [organizationId, datasetId, fileName]);
}

/** Adds columns to a dataset's declared custom columns (the bank columns an import fills). */
export async function addDatasetColumns(
  database: Queryable,
  organizationId: string,
  datasetId: string,
  columns: { name: string; type: string }[],
): Promise<void> {
  if (columns.length === 0) return;
  await database.query(`UPDATE datasets SET columns = columns || $3::jsonb WHERE organization_id = $1 AND id = $2`, [
    organizationId,
    datasetId,
    JSON.stringify(columns),
  ]);
}

/** Stores one chunk of an asynchronous import's file. */
export async function insertImportFileChunk(database: Queryable, organizationId: string, importId: string, ordinal: number, data: Uint8Array): Promise<void> {
  await database.query('INSERT INTO import_file_chunks (organization_id, import_id, ordinal, data) VALUES ($1, $2, $3, $4)', [
    organizationId,
    importId,
    ordinal,
    data,
  ]);
}

/** Reads a stored file back, chunk by chunk, in order. */
export async function* readImportFileChunks(database: Queryable, organizationId: string, importId: string): AsyncGenerator<Uint8Array> {
  for (let ordinal = 0; ; ordinal++) {
    const rows = await database.query<{ data: Uint8Array }>(
      'SELECT data FROM import_file_chunks WHERE organization_id = $1 AND import_id = $2 AND ordinal = $3',
      [organizationId, importId, ordinal],
    );
    if (rows.length === 0) return;
    yield rows[0]!.data;
  }
}

export async function deleteImportFile(database: Queryable, organizationId: string, importId: string): Promise<void> {
  await database.query('DELETE FROM import_file_chunks WHERE organization_id = $1 AND import_id = $2', [organizationId, importId]);
}

export interface ImportMappingRow {
  name: string;
  mapping: unknown;
  createdAt: string;
  updatedAt: string;
  updatedBy: string;
}

const MAPPING_JSON_SQL = `json_build_object('name', m.name, 'mapping', m.mapping, 'createdAt', ${isoTimeSql('m.created_at')}, 'updatedAt', ${isoTimeSql('m.updated_at')}, 'updatedBy', m.updated_by)`;

export async function upsertImportMapping(
  database: Queryable,
  row: { organizationId: string; datasetId: string; name: string; mapping: unknown; actor: string },
): Promise<{ mapping: ImportMappingRow; created: boolean }> {
  const rows = await database.query<{ record: ImportMappingRow; created: boolean }>(
    `WITH m AS (
       INSERT INTO import_mappings AS existing (organization_id, dataset_id, name, mapping, updated_by) VALUES ($1, $2, $3, $4::jsonb, $5)
       ON CONFLICT (organization_id, dataset_id, name) DO UPDATE SET mapping = excluded.mapping, updated_at = now(), updated_by = excluded.updated_by
       RETURNING *, (xmax = 0) AS created)
     SELECT ${MAPPING_JSON_SQL} AS record, m.created FROM m`,
    [row.organizationId, row.datasetId, row.name, JSON.stringify(row.mapping), row.actor],
  );
  return { mapping: rows[0]!.record, created: rows[0]!.created };
}

export async function findImportMapping(database: Queryable, organizationId: string, datasetId: string, name: string): Promise<ImportMappingRow | undefined> {
  const rows = await database.query<{ record: ImportMappingRow }>(
    `SELECT ${MAPPING_JSON_SQL} AS record FROM import_mappings m WHERE m.organization_id = $1 AND m.dataset_id = $2 AND m.name = $3`,
    [organizationId, datasetId, name],
  );
  return rows[0]?.record;
}

export async function listImportMappings(database: Queryable, organizationId: string, datasetId: string): Promise<ImportMappingRow[]> {
  const rows = await database.query<{ record: ImportMappingRow }>(
    `SELECT ${MAPPING_JSON_SQL} AS record FROM import_mappings m WHERE m.organization_id = $1 AND m.dataset_id = $2 ORDER BY m.name LIMIT 500`,
    [organizationId, datasetId],
  );
  return rows.map((row) => row.record);
}

export async function deleteImportMapping(database: Queryable, organizationId: string, datasetId: string, name: string): Promise<boolean> {
  const rows = await database.query('DELETE FROM import_mappings WHERE organization_id = $1 AND dataset_id = $2 AND name = $3 RETURNING name', [
    organizationId,
    datasetId,
    name,
  ]);
  return rows.length > 0;
}

/** The import an undo works on, locked for the undo (two undos of one import queue here). */
export async function lockImportForUndo(
  transaction: Queryable,
  organizationId: string,
  importId: string,
): Promise<{ datasetId: string; status: ImportRow['status']; fileName: string | null; format: string | null; inserted: number } | undefined> {
  const rows = await transaction.query<{
    datasetId: string;
    status: ImportRow['status'];
    fileName: string | null;
    format: string | null;
    inserted: string | number;
  }>('SELECT dataset_id AS "datasetId", status, file_name AS "fileName", format, inserted FROM imports WHERE organization_id = $1 AND id = $2 FOR UPDATE', [
    organizationId,
    importId,
  ]);
  const row = rows[0];
  return row && { ...row, inserted: Number(row.inserted) };
}

/** A transaction an import created that is matched, as an undo lists it. */
export interface MatchedImportTransaction {
  id: string;
  externalId: string | null;
  timestamp: number;
  description: string | null;
  amount: string | null;
  currency: string | null;
  reconciliationStatus: string;
  matchGroupIds: string[];
}

/**
 * What undoing an import would remove: how many transactions it created are still there, how many
 * of them are matched, and (up to `limit`) which, with their match groups.
 */
export async function summarizeImportTransactions(
  database: Queryable,
  organizationId: string,
  importId: string,
  limit: number,
): Promise<{ transactions: number; matched: number; matchGroups: number; matchedTransactions: MatchedImportTransaction[] }> {
  const rows = await database.query<{ transactions: number; matched: number; match_groups: number; listed: MatchedImportTransaction[] | null }>(
    `WITH created AS (
       SELECT t.id, t.external_id, t.timestamp_ms, t.description, t.amount, t.currency, t.reconciliation_status, t.match_count
         FROM transactions t
        WHERE t.organization_id = $1 AND t.import_id = $2),
     links AS (
       SELECT c.id, m.group_id FROM created c JOIN matches m ON m.organization_id = $1 AND m.origin_id = c.id WHERE c.match_count > 0
       UNION
       SELECT c.id, m.group_id FROM created c JOIN matches m ON m.organization_id = $1 AND m.target_id = c.id WHERE c.match_count > 0),
     matched AS (
       SELECT c.*, (SELECT array_agg(DISTINCT l.group_id) FROM links l WHERE l.id = c.id) AS group_ids
         FROM created c WHERE EXISTS (SELECT 1 FROM links l WHERE l.id = c.id))
     SELECT (SELECT count(*) FROM created)::integer AS transactions,
            (SELECT count(*) FROM matched)::integer AS matched,
            (SELECT count(DISTINCT group_id) FROM links)::integer AS match_groups,
            (SELECT json_agg(json_build_object('id', x.id, 'externalId', x.external_id, 'timestamp', x.timestamp_ms, 'description', x.description,
                                               'amount', x.amount::text, 'currency', x.currency, 'reconciliationStatus', x.reconciliation_status,
                                               'matchGroupIds', x.group_ids) ORDER BY x.timestamp_ms, x.id)
               FROM (SELECT * FROM matched ORDER BY timestamp_ms, id LIMIT $3) AS x) AS listed`,
    [organizationId, importId, limit],
  );
  const row = rows[0]!;
  return {
    transactions: row.transactions,
    matched: row.matched,
    matchGroups: row.match_groups,
    matchedTransactions: (row.listed ?? []).map((entry) => ({ ...entry, timestamp: Number(entry.timestamp) })),
  };
}

/**
 * Locks, for an undo, the transactions the import created and every transaction linked with them
 * through their match groups (the other sides an unmatch changes), in one statement in id order:
 * the lock order of every writer (migration 0003: transaction rows in id order, then datasets in
 * id order), so that an undo and a match, unmatch or run on the same rows queue instead of
 * deadlocking. Returns the datasets of the locked rows, which the caller locks next.
 *
 * No match with a row of the import can be made once these rows are locked (every match writer
 * locks both ends), but one committed between this statement's snapshot and its locks is not
 * among the other sides it saw: a second pass locks the other sides again, which costs only the
 * matched rows (rows already held are not locked twice).
 */
export async function lockImportTransactionsForUndo(transaction: Queryable, organizationId: string, importId: string): Promise<string[]> {
  const lockSql = (created: string) => `
    WITH created AS (
       SELECT t.id, t.match_count FROM transactions t WHERE t.organization_id = $1 AND t.import_id = $2 AND (${created})),
     groups AS (
       SELECT m.group_id FROM created c JOIN matches m ON m.organization_id = $1 AND m.origin_id = c.id WHERE c.match_count > 0
       UNION
       SELECT m.group_id FROM created c JOIN matches m ON m.organization_id = $1 AND m.target_id = c.id WHERE c.match_count > 0),
     ends AS (
       SELECT m.origin_id AS id FROM matches m WHERE m.organization_id = $1 AND m.group_id IN (SELECT group_id FROM groups)
       UNION
       SELECT m.target_id FROM matches m WHERE m.organization_id = $1 AND m.group_id IN (SELECT group_id FROM groups)),
     locked AS (
       SELECT t.id, t.dataset_id FROM transactions t
        WHERE t.organization_id = $1 AND (t.import_id = $2 AND (${created}) OR t.id = ANY (ARRAY(SELECT id FROM ends)))
        ORDER BY t.id
          FOR UPDATE OF t)
     SELECT coalesce(array_agg(DISTINCT dataset_id), '{}') AS dataset_ids FROM locked`;
  return withoutStatementTimeout(transaction, async () => {
    const first = await transaction.query<{ dataset_ids: string[] }>(lockSql('true'), [organizationId, importId]);
    const second = await transaction.query<{ dataset_ids: string[] }>(lockSql('t.match_count > 0'), [organizationId, importId]);
    return [...new Set([...first[0]!.dataset_ids, ...second[0]!.dataset_ids])].sort();
  });
}

/** The match groups that link a transaction the import created. */
export async function findMatchGroupsOfImport(transaction: Queryable, organizationId: string, importId: string): Promise<string[]> {
  const rows = await transaction.query<{ group_id: string }>(
    `SELECT m.group_id FROM transactions t JOIN matches m ON m.organization_id = t.organization_id AND m.origin_id = t.id
      WHERE t.organization_id = $1 AND t.import_id = $2 AND t.match_count > 0
     UNION
     SELECT m.group_id FROM transactions t JOIN matches m ON m.organization_id = t.organization_id AND m.target_id = t.id
      WHERE t.organization_id = $1 AND t.import_id = $2 AND t.match_count > 0
     ORDER BY 1`,
    [organizationId, importId],
  );
  return rows.map((row) => row.group_id);
}

/**
 * Takes the pending suggestions that involve a transaction of the import out of the queue
 * (superseded): they propose matches with transactions that are about to go.
 */
export async function supersedeSuggestionsOfImport(transaction: Queryable, organizationId: string, importId: string): Promise<void> {
  await withoutStatementTimeout(transaction, () =>
    transaction.query(
      `UPDATE suggestions SET status = 'superseded', decided_at = now()
      WHERE organization_id = $1 AND status = 'pending'
        AND transaction_ids && ARRAY(SELECT id FROM transactions WHERE organization_id = $1 AND import_id = $2)`,
      [organizationId, importId],
    ),
  );
}

/** Deletes the transactions an import created; returns how many. */
export async function deleteImportTransactions(transaction: Queryable, organizationId: string, importId: string): Promise<number> {
  const rows = await withoutStatementTimeout(transaction, () =>
    transaction.query<{ removed: number }>(
      `WITH removed AS (DELETE FROM transactions WHERE organization_id = $1 AND import_id = $2 RETURNING 1)
     SELECT count(*)::integer AS removed FROM removed`,
      [organizationId, importId],
    ),
  );
  return rows[0]!.removed;
}

/**
 * Runs statements of an undo without the per-statement time budget, as the import's own
 * one-statement insert runs (transactions.ts): they touch every row of the import, and a file of a
 * million rows takes longer than the budget allows. Waiting for a lock another writer holds is
 * still bounded by the budget (lock_timeout): the work is not timed, a busy row or dataset is
 * answered as before (503, try again). Both are set back for the rest of the transaction.
 */
async function withoutStatementTimeout<T>(transaction: Queryable, work: () => Promise<T>): Promise<T> {
  const [setting] = await transaction.query<{ statement: string; lock: string }>(
    "SELECT current_setting('statement_timeout') AS statement, current_setting('lock_timeout') AS lock",
  );
  await transaction.query("SELECT set_config('lock_timeout', $1, true), set_config('statement_timeout', '0', true)", [setting!.statement]);
  const result = await work();
  await transaction.query("SELECT set_config('statement_timeout', $1, true), set_config('lock_timeout', $2, true)", [setting!.statement, setting!.lock]);
  return result;
}

/** Settles an import as undone; its row stays for the history (the trigger of 0018 emits import.undone). */
export async function markImportUndone(transaction: Queryable, organizationId: string, importId: string, actor: string): Promise<ImportRow> {
  const rows = await transaction.query<{ record: ImportRow }>(
    `WITH i AS (
       UPDATE imports SET status = 'undone', undone_at = now(), undone_by = $3 WHERE organization_id = $1 AND id = $2
       RETURNING *)
     SELECT ${IMPORT_JSON_SQL} AS record FROM i`,
    [organizationId, importId, actor],
  );
  return rows[0]!.record;
}
