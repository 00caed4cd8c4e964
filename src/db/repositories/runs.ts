import type { Queryable } from '../database.ts';
import { RESULT_LINKS_SQL, RESULT_TRANSACTION_IDS_SQL, resultTransactionsSql } from './run-result-transactions.ts';
import { isoTimeSql } from './transaction-records.ts';

/**
 * Runs and their results (SPEC §8.3). A run's status is the runs row's own, except while the
 * row still says queued or running and its job has failed for good (its process died on the
 * last attempt): then the run is failed, with the job's error. So a run never shows as running
 * forever after a crash.
 */

export interface RunInsert {
  id: string;
  organizationId: string;
  mode: 'dry-run' | 'commit';
  trigger: 'request' | 'ingest';
  rules: { id: string; version: number }[];
  datasetIds: string[] | null;
  fromMs: number | null;
  toMs: number | null;
  createdBy: string;
  requestId: string | null;
}

export async function insertRun(transaction: Queryable, run: RunInsert): Promise<void> {
  await transaction.query(
    `INSERT INTO runs (id, organization_id, mode, trigger, status, rules, dataset_ids, from_ms, to_ms, created_by, request_id)
     VALUES ($1, $2, $3, $4, 'queued', $5::jsonb, $6::uuid[], $7, $8, $9, $10)`,
    [run.id, run.organizationId, run.mode, run.trigger, JSON.stringify(run.rules), run.datasetIds, run.fromMs, run.toMs, run.createdBy, run.requestId],
  );
}

export async function setRunJob(transaction: Queryable, organizationId: string, runId: string, jobId: string): Promise<void> {
  await transaction.query('UPDATE runs SET job_id = $3 WHERE organization_id = $1 AND id = $2', [organizationId, runId, jobId]);
}

const EFFECTIVE_STATUS_SQL = `CASE WHEN r.status IN ('queued', 'running') AND j.status = 'failed' THEN 'failed' ELSE r.status END`;

/** A run as the API shows it. */
const RUN_JSON_SQL = `json_build_object(
  'id', r.id,
  'mode', r.mode,
  'trigger', r.trigger,
  'status', ${EFFECTIVE_STATUS_SQL},
  'rules', r.rules,
  'datasetIds', r.dataset_ids,
  'from', r.from_ms,
  'to', r.to_ms,
  'progress', CASE WHEN r.status = 'running' AND p.run_id IS NOT NULL THEN json_build_object('examined', p.examined, 'total', p.total)
                   ELSE json_build_object('examined', r.examined, 'total', r.total) END,
  'counts', r.counts,
  'totals', json_build_object(
     'matched', (SELECT coalesce(sum((c ->> 'matched')::integer), 0) FROM jsonb_array_elements(r.counts) AS c),
     'suggested', (SELECT coalesce(sum((c ->> 'suggested')::integer), 0) FROM jsonb_array_elements(r.counts) AS c),
     'ambiguous', (SELECT coalesce(sum((c ->> 'ambiguous')::integer), 0) FROM jsonb_array_elements(r.counts) AS c),
     'classified', (SELECT coalesce(sum((c ->> 'classified')::integer), 0) FROM jsonb_array_elements(r.counts) AS c),
     'boundsHit', (SELECT coalesce(sum((c ->> 'boundsHit')::integer), 0) FROM jsonb_array_elements(r.counts) AS c),
     'closedPeriodSkipped', r.closed_period_skipped),
  'timings', r.timings,
  'createdAt', ${isoTimeSql('r.created_at')},
  'createdBy', r.created_by,
  'startedAt', ${isoTimeSql('r.started_at')},
  'finishedAt', ${isoTimeSql('r.finished_at')},
  'committedAt', ${isoTimeSql('r.committed_at')},
  'committedBy', r.committed_by,
  'revertedAt', ${isoTimeSql('r.reverted_at')},
  'revertedBy', r.reverted_by,
  'revert', r.revert_report,
  'error', CASE WHEN r.error IS NOT NULL THEN r.error
                WHEN ${EFFECTIVE_STATUS_SQL} = 'failed' THEN json_build_object('message', coalesce(j.last_error, 'the run failed'))::jsonb END)`;

export async function findRunJson(database: Queryable, organizationId: string, runId: string): Promise<Record<string, unknown> | undefined> {
  const rows = await database.query<{ run: Record<string, unknown> }>(
    `SELECT ${RUN_JSON_SQL} AS run
       FROM runs r LEFT JOIN jobs j ON j.id = r.job_id LEFT JOIN run_progress p ON p.organization_id = r.organization_id AND p.run_id = r.id
      WHERE r.organization_id = $1 AND r.id = $2`,
    [organizationId, runId],
  );
  return rows[0]?.run;
}

export interface RunRow {
  id: string;
  organization_id: string;
  mode: 'dry-run' | 'commit';
  trigger: 'request' | 'ingest';
  status: string;
  effective_status: string;
  rules: { id: string; version: number }[];
  dataset_ids: string[] | null;
  from_ms: number | null;
  to_ms: number | null;
  committed_at: string | null;
  reverted_at: string | null;
  cancel_requested: boolean;
  created_by: string;
  request_id: string | null;
}

/**
 * A run's row; with `lock`, locked for a change of its status (FOR NO KEY UPDATE: its key never
 * changes, and a working run holds a key-share lock on its row through its results, which this
 * does not wait for).
 */
export async function findRun(database: Queryable, organizationId: string, runId: string, options: { lock?: boolean } = {}): Promise<RunRow | undefined> {
  const rows = await database.query<RunRow>(
    `SELECT r.id, r.organization_id, r.mode, r.trigger, r.status, ${EFFECTIVE_STATUS_SQL} AS effective_status, r.rules, r.dataset_ids::text[] AS dataset_ids,
            r.from_ms, r.to_ms, r.committed_at::text AS committed_at, r.reverted_at::text AS reverted_at, r.cancel_requested, r.created_by, r.request_id
       FROM runs r LEFT JOIN jobs j ON j.id = r.job_id
      WHERE r.organization_id = $1 AND r.id = $2 ${options.lock ? 'FOR NO KEY UPDATE OF r' : ''}`,
    [organizationId, runId],
  );
  return rows[0];
}

/** Runs of an organization, newest first, after a (created_at, id) position. */
export async function listRunsJson(
  database: Queryable,
  organizationId: string,
  page: { limit: number; before: { createdAt: string; id: string } | null; status: string | null },
): Promise<{ run: Record<string, unknown>; createdAt: string; id: string }[]> {
  const parameters: unknown[] = [organizationId, page.limit];
  const conditions = ['r.organization_id = $1'];
  if (page.before !== null) {
    parameters.push(page.before.createdAt, page.before.id);
    conditions.push(`(r.created_at, r.id) < ($${parameters.length - 1}::timestamptz, $${parameters.length}::uuid)`);
  }
  if (page.status !== null) {
    parameters.push(page.status);
    conditions.push(`${EFFECTIVE_STATUS_SQL} = $${parameters.length}`);
  }
  return database.query(
    `SELECT ${RUN_JSON_SQL} AS run, r.created_at::text AS "createdAt", r.id
       FROM runs r LEFT JOIN jobs j ON j.id = r.job_id LEFT JOIN run_progress p ON p.organization_id = r.organization_id AND p.run_id = r.id
      WHERE ${conditions.join(' AND ')}
      ORDER BY r.created_at DESC, r.id DESC
      LIMIT $2`,
    parameters,
  );
}

export async function markRunStarted(database: Queryable, organizationId: string, runId: string): Promise<void> {
  await database.query(
    `UPDATE runs SET status = 'running', started_at = coalesce(started_at, now()), error = NULL
      WHERE organization_id = $1 AND id = $2 AND status IN ('queued', 'running')`,
    [organizationId, runId],
  );
}

export async function setRunProgress(database: Queryable, organizationId: string, runId: string, progress: { examined: number; total: number }): Promise<void> {
  await database.query(
    `INSERT INTO run_progress (organization_id, run_id, examined, total) VALUES ($1, $2, $3, $4)
     ON CONFLICT (organization_id, run_id) DO UPDATE SET examined = excluded.examined, total = excluded.total, updated_at = now()`,
    [organizationId, runId, progress.examined, progress.total],
  );
}

export async function finishRun(
  database: Queryable,
  organizationId: string,
  runId: string,
  outcome: {
    status: 'completed' | 'failed' | 'cancelled';
    counts: unknown;
    timings: unknown;
    examined: number;
    total: number;
    error: unknown;
    /** Open transactions the rules left alone because they lie in closed periods. */
    closedPeriodSkipped?: number;
  },
): Promise<void> {
  await database.query(
    `UPDATE runs SET status = $2, counts = $3::jsonb, timings = $4::jsonb, examined = $5, total = $6, error = $7::jsonb, finished_at = now(),
                     closed_period_skipped = $9
      WHERE organization_id = $8 AND id = $1`,
    [
      runId,
      outcome.status,
      JSON.stringify(outcome.counts),
      JSON.stringify(outcome.timings),
      outcome.examined,
      outcome.total,
      outcome.error === null ? null : JSON.stringify(outcome.error),
      organizationId,
      outcome.closedPeriodSkipped ?? 0,
    ],
  );
}

/** Forgets what an earlier, interrupted attempt of the run wrote (it rolled back, but a dry run's results may have been kept by nobody). */
export async function deleteRunResults(transaction: Queryable, organizationId: string, runId: string): Promise<void> {
  await transaction.query('DELETE FROM run_result_transactions WHERE organization_id = $1 AND run_id = $2', [organizationId, runId]);
  await transaction.query('DELETE FROM run_results WHERE organization_id = $1 AND run_id = $2', [organizationId, runId]);
}

/** Removes a run with its progress and its results (a dry run thrown away); whether it was there. */
export async function deleteRun(transaction: Queryable, organizationId: string, runId: string): Promise<boolean> {
  await deleteRunResults(transaction, organizationId, runId);
  await transaction.query('DELETE FROM run_progress WHERE organization_id = $1 AND run_id = $2', [organizationId, runId]);
  const deleted = await transaction.query<{ id: string }>('DELETE FROM runs WHERE organization_id = $1 AND id = $2 RETURNING id', [organizationId, runId]);
  return deleted.length > 0;
}

export async function requestRunCancel(database: Queryable, organizationId: string, runId: string): Promise<void> {
  await database.query(`UPDATE runs SET cancel_requested = true WHERE organization_id = $1 AND id = $2`, [organizationId, runId]);
}

export async function isRunCancelRequested(database: Queryable, organizationId: string, runId: string): Promise<boolean> {
  const rows = await database.query<{ cancel_requested: boolean }>('SELECT cancel_requested FROM runs WHERE organization_id = $1 AND id = $2', [
    organizationId,
    runId,
  ]);
  return rows[0]?.cancel_requested ?? false;
}

export async function markRunCancelled(database: Queryable, organizationId: string, runId: string): Promise<void> {
  await database.query(`UPDATE runs SET status = 'cancelled', finished_at = now() WHERE organization_id = $1 AND id = $2 AND status IN ('queued', 'running')`, [
    organizationId,
    runId,
  ]);
}

export async function markRunCommitted(transaction: Queryable, organizationId: string, runId: string, actor: string): Promise<void> {
  await transaction.query('UPDATE runs SET committed_at = now(), committed_by = $3 WHERE organization_id = $1 AND id = $2', [organizationId, runId, actor]);
}

export async function markRunReverted(transaction: Queryable, organizationId: string, runId: string, actor: string, report: unknown): Promise<void> {
  await transaction.query(
    `UPDATE runs SET status = 'reverted', reverted_at = now(), reverted_by = $2, revert_report = $3::jsonb WHERE organization_id = $4 AND id = $1`,
    [runId, actor, JSON.stringify(report), organizationId],
  );
}

/** Whether an ingest-started run of the organization is waiting: another would do the same work. */
export async function findQueuedIngestRun(transaction: Queryable, organizationId: string): Promise<string | undefined> {
  const rows = await transaction.query<{ id: string }>(`SELECT id FROM runs WHERE organization_id = $1 AND trigger = 'ingest' AND status = 'queued' LIMIT 1`, [
    organizationId,
  ]);
  return rows[0]?.id;
}

export type { ResultKind } from '../../domain/model.ts';
import type { ResultKind } from '../../domain/model.ts';
const KIND_OF: Record<ResultKind, string> = { matches: 'match', suggestions: 'suggestion', ambiguous: 'ambiguous', classified: 'classified', bounds: 'bounds' };

/** One page of a run's results of one kind, in the order the run decided them. */
export async function listRunResults(
  database: Queryable,
  organizationId: string,
  runId: string,
  page: { kind: ResultKind; afterSequence: number; limit: number },
): Promise<{ sequence: number; result: Record<string, unknown> }[]> {
  return database.query(
    `SELECT r.sequence,
            json_build_object('kind', r.kind, 'ruleId', r.rule_id, 'ruleVersion', r.rule_version,
                              'transactionIds', ${RESULT_TRANSACTION_IDS_SQL},
                              'links', ${RESULT_LINKS_SQL}, 'adjustment', r.adjustment, 'options', r.options, 'evidence', r.evidence,
                              'score', r.score::text, 'status', r.status, 'message', r.message,
                              'groupId', CASE WHEN EXISTS (SELECT 1 FROM match_groups g WHERE g.organization_id = r.organization_id AND g.id = r.group_id)
                                                THEN r.group_id END,
                              'suggestionId', r.suggestion_id) AS result
       FROM run_results r
      WHERE r.organization_id = $1 AND r.run_id = $2 AND r.kind = $3 AND r.sequence > $4
      ORDER BY r.sequence
      LIMIT $5`,
    [organizationId, runId, KIND_OF[page.kind], page.afterSequence, page.limit],
  );
}

/**
 * Transactions the run looked at and left unmatched: open transactions of the origin datasets of
 * its rules that none of its results names. Paged by id.
 */
export async function listUnmatchedOfRun(
  database: Queryable,
  organizationId: string,
  runId: string,
  page: { datasetIds: string[]; afterId: string | null; limit: number },
): Promise<{ id: string; datasetId: string; reconciliationStatus: string }[]> {
  return database.query(
    `SELECT t.id, t.dataset_id AS "datasetId", t.reconciliation_status AS "reconciliationStatus"
       FROM transactions t
      WHERE t.organization_id = $1 AND t.dataset_id = ANY ($3::uuid[]) AND t.reconciliation_status IN ('none', 'partial')
        AND ($4::uuid IS NULL OR t.id > $4::uuid)
        AND NOT EXISTS (SELECT 1 FROM (${resultTransactionsSql('$2::uuid', '$1::uuid', `('match', 'classified')`)}) AS x WHERE x.id = t.id)
      ORDER BY t.id
      LIMIT $5`,
    [organizationId, runId, page.datasetIds, page.afterId, page.limit],
  );
}

/** Which of the given dataset ids the organization has. */
export async function findOrganizationDatasetIds(database: Queryable, organizationId: string, datasetIds: readonly string[]): Promise<Set<string>> {
  const rows = await database.query<{ id: string }>('SELECT id FROM datasets WHERE organization_id = $1 AND id = ANY ($2::uuid[])', [
    organizationId,
    [...datasetIds],
  ]);
  return new Set(rows.map((row) => row.id));
}

/** What a person reads of a transaction a run's result names: its dataset, date, words and amount. */
export interface TransactionSummaryRow {
  id: string;
  datasetId: string;
  datasetName: string;
  timestamp: number;
  description: string | null;
  reference: string | null;
  type: string | null;
  amount: string | null;
  currency: string | null;
  reconciliationStatus: string;
}

/** The summaries of the given transactions of the organization, in no particular order. */
export async function findTransactionSummaries(database: Queryable, organizationId: string, ids: readonly string[]): Promise<TransactionSummaryRow[]> {
  if (ids.length === 0) return [];
  return database.query(
    `SELECT t.id, t.dataset_id AS "datasetId", d.name AS "datasetName", t.timestamp_ms::float8 AS timestamp, t.description, t.reference,
            t.type, t.amount::text AS amount, t.currency, t.reconciliation_status AS "reconciliationStatus"
       FROM transactions t
       JOIN datasets d ON d.organization_id = t.organization_id AND d.id = t.dataset_id
      WHERE t.organization_id = $1 AND t.id = ANY ($2::uuid[])`,
    [organizationId, [...ids]],
  );
}
