import type { Queryable } from '../database.ts';
import { resultTransactionsSql } from './run-result-transactions.ts';

/**
 * Closed periods (month-end close, migration 0021): a period of a reconciliation is closed when
 * its state is 'approved'. A transaction is in it when its dataset belongs to the reconciliation
 * (reconciliation_datasets) and its calendar day, the UTC day of timestamp_ms, lies within
 * period_start..period_end. Every write that changes what a reconciliation statement reads asks
 * here first, inside its own database transaction.
 */

/** The calendar day (UTC) of an epoch-millisecond column or value, as SQL `date`. */
export const dayOfSql = (epochMilliseconds: string) => `(to_timestamp((${epochMilliseconds}) / 1000.0) AT TIME ZONE 'UTC')::date`;

/**
 * SQL that holds when transaction `alias` lies in a closed period (correlated, one anti-join for
 * the run's pools): an EXISTS over the partial index of approved periods.
 */
export const inClosedPeriodSql = (alias: string) => `EXISTS (
  SELECT 1 FROM reconciliation_datasets rd
    JOIN close_periods cp ON cp.organization_id = rd.organization_id AND cp.reconciliation_id = rd.reconciliation_id AND cp.state = 'approved'
   WHERE rd.organization_id = ${alias}.organization_id AND rd.dataset_id = ${alias}.dataset_id
     AND ${dayOfSql(`${alias}.timestamp_ms`)} BETWEEN cp.period_start AND cp.period_end)`;

/** What a write touches, as a set the SQL below reads in one statement however large. */
export type Touched =
  /** Existing transactions, by id (a match, an unmatch, a status change). */
  | { kind: 'transactions'; ids: readonly string[] }
  /**
   * New rows about to be stored in a dataset (an ingest), by their times; a row whose externalId the
   * dataset already holds is left out, since storing it again changes nothing.
   */
  | { kind: 'rows'; datasetId: string; timestampsMs: readonly number[]; externalIds: readonly (string | null)[] }
  /** The transactions an import created (stored by the import in progress, or to be removed by its undo). */
  | { kind: 'import'; importId: string }
  /** The transactions a run's decisions (matches, classifications) involve: its commit and its revert. */
  | { kind: 'run'; runId: string };

function touchedSql(touched: Touched): { sql: string; parameters: unknown[] } {
  switch (touched.kind) {
    case 'transactions':
      return {
        sql: `SELECT t.id::text AS key, t.dataset_id, ${dayOfSql('t.timestamp_ms')} AS day FROM transactions t
               WHERE t.organization_id = $1 AND t.id = ANY ($2::uuid[])`,
        parameters: [[...new Set(touched.ids)]],
      };
    case 'rows':
      return {
        sql: `SELECT r.ordinality::text AS key, $2::uuid AS dataset_id, ${dayOfSql('r.timestamp_ms')} AS day
                FROM unnest($3::bigint[], $4::text[]) WITH ORDINALITY AS r (timestamp_ms, external_id, ordinality)
               WHERE r.external_id IS NULL
                  OR NOT EXISTS (SELECT 1 FROM transactions t WHERE t.organization_id = $1 AND t.dataset_id = $2::uuid AND t.external_id = r.external_id)`,
        parameters: [touched.datasetId, touched.timestampsMs, touched.externalIds],
      };
    case 'import':
      return {
        sql: `SELECT t.id::text AS key, t.dataset_id, ${dayOfSql('t.timestamp_ms')} AS day FROM transactions t
               WHERE t.organization_id = $1 AND t.import_id = $2::uuid`,
        parameters: [touched.importId],
      };
    case 'run':
      return {
        sql: `SELECT t.id::text AS key, t.dataset_id, ${dayOfSql('t.timestamp_ms')} AS day FROM transactions t
               WHERE t.organization_id = $1
                 AND t.id IN (SELECT x.id FROM (${resultTransactionsSql('$2::uuid', '$1', `('match', 'classified')`)}) AS x)`,
        parameters: [touched.runId],
      };
  }
}

export interface ClosedPeriodTouched {
  periodId: string;
  periodStart: string;
  periodEnd: string;
  reconciliationName: string;
  /** Who approved it last (an actor as the audit trail names it: "user:ann@example.com"), and when (ISO). */
  approvedBy: string | null;
  approvedAt: string | null;
  /** How many of the touched items are dated in it. */
  touched: number;
}

/**
 * The closed periods a write touches, earliest first, in one statement. Every period of the
 * touched datasets' reconciliations that holds a touched day is locked FOR SHARE, open or not: an
 * approval (an UPDATE of the period's state) waits until this write's transaction ends, and a
 * write that waited behind an approval reads the period as approved once the approval commits.
 * So a period is never approved with a write into it in flight, nor written after its approval.
 * Organizations without any reconciliation pay one indexed probe.
 */
export async function findClosedPeriodsTouched(transaction: Queryable, organizationId: string, touched: Touched): Promise<ClosedPeriodTouched[]> {
  if (touched.kind === 'transactions' && touched.ids.length === 0) return [];
  if (touched.kind === 'rows' && touched.timestampsMs.length === 0) return [];
  const any = await transaction.query('SELECT 1 FROM reconciliation_datasets WHERE organization_id = $1 LIMIT 1', [organizationId]);
  if (any.length === 0) return [];
  const { sql, parameters } = touchedSql(touched);
  return transaction.query<ClosedPeriodTouched>(
    `WITH touched AS MATERIALIZED (${sql}),
     held AS (
       SELECT p.id, p.reconciliation_id, p.period_start, p.period_end, p.state
         FROM close_periods p
        WHERE p.organization_id = $1
          AND EXISTS (SELECT 1 FROM reconciliation_datasets rd JOIN touched x ON x.dataset_id = rd.dataset_id
                       WHERE rd.organization_id = p.organization_id AND rd.reconciliation_id = p.reconciliation_id
                         AND x.day BETWEEN p.period_start AND p.period_end)
        ORDER BY p.id
          FOR SHARE OF p)
     SELECT h.id AS "periodId", h.period_start::text AS "periodStart", h.period_end::text AS "periodEnd", r.name AS "reconciliationName",
            s.actor AS "approvedBy", to_char(s.created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') AS "approvedAt",
            (SELECT count(DISTINCT x.key) FROM reconciliation_datasets rd JOIN touched x ON x.dataset_id = rd.dataset_id
              WHERE rd.organization_id = $1 AND rd.reconciliation_id = h.reconciliation_id
                AND x.day BETWEEN h.period_start AND h.period_end)::integer AS touched
       FROM held h
       JOIN reconciliations r ON r.organization_id = $1 AND r.id = h.reconciliation_id
       LEFT JOIN LATERAL (SELECT cs.actor, cs.created_at FROM close_signoffs cs
                           WHERE cs.organization_id = $1 AND cs.period_id = h.id AND cs.step = 'approve'
                           ORDER BY cs.sequence DESC LIMIT 1) s ON true
      WHERE h.state = 'approved'
      ORDER BY h.period_end, r.name, h.id`,
    [organizationId, ...parameters],
  );
}

/** Whether the organization has any closed period at all (one probe of the partial index). */
export async function hasClosedPeriods(database: Queryable, organizationId: string): Promise<boolean> {
  const rows = await database.query("SELECT 1 FROM close_periods WHERE organization_id = $1 AND state = 'approved' LIMIT 1", [organizationId]);
  return rows.length > 0;
}
