import type { Queryable } from '../database.ts';

/**
 * The figures behind a reconciliation statement (domain/close/statement.ts), summed and compared
 * as SQL numeric. A calendar date is the UTC day of a transaction's timestamp; "on or before D"
 * is a timestamp before the first instant of the day after D (endMs).
 */

const DAY_OF = (column: string) => `to_char((to_timestamp(${column} / 1000.0) AT TIME ZONE 'UTC')::date, 'YYYY-MM-DD')`;

export interface StatementRowItem {
  transactionId: string;
  datasetId: string;
  datasetName: string;
  date: string;
  description: string | null;
  reference: string | null;
  amount: string;
  countedAmount: string;
  status: string;
  /** Whether a link of the row leads to a counterpart dated after the period end. */
  matchedAfter: boolean;
}

/**
 * The rows of the datasets dated on or before the period end that are not explained by then:
 * what is left of each once the links to counterparts dated on or before the end (with the
 * adjustments they carry, and the links that lower it, matches.reduces) are taken off, signed as
 * the row; and every row set apart (informative, out of scope).
 */
export async function unexplainedRows(database: Queryable, organizationId: string, datasetIds: string[], endMs: number): Promise<StatementRowItem[]> {
  if (datasetIds.length === 0) return [];
  return database.query<StatementRowItem>(
    `WITH side_rows AS (
       SELECT t.id, t.dataset_id, t.timestamp_ms, t.description, t.reference, t.amount, t.reconciliation_status
         FROM transactions t
        WHERE t.organization_id = $1 AND t.dataset_id = ANY ($2::uuid[]) AND t.timestamp_ms < $3),
     links AS (
       SELECT r.id AS row_id,
              CASE WHEN m.reduces = 'origin' THEN -coalesce(m.amount, 0) ELSE coalesce(m.amount, 0) + m.origin_adjustment END AS allocation,
              c.timestamp_ms < $3 AS counterpart_in_period
         FROM side_rows r
         JOIN matches m ON m.organization_id = $1 AND m.origin_id = r.id
         JOIN transactions c ON c.organization_id = $1 AND c.id = m.target_id
       UNION ALL
       SELECT r.id,
              CASE WHEN m.reduces = 'target' THEN -coalesce(m.amount, 0) ELSE coalesce(m.amount, 0) + m.target_adjustment END,
              c.timestamp_ms < $3
         FROM side_rows r
         JOIN matches m ON m.organization_id = $1 AND m.target_id = r.id
         JOIN transactions c ON c.organization_id = $1 AND c.id = m.origin_id),
     allocated AS (
       SELECT row_id, coalesce(sum(allocation) FILTER (WHERE counterpart_in_period), 0) AS in_period, bool_or(NOT counterpart_in_period) AS after_period
         FROM links GROUP BY row_id)
     SELECT r.id::text AS "transactionId", r.dataset_id::text AS "datasetId", d.name AS "datasetName", ${DAY_OF('r.timestamp_ms')} AS date,
            r.description, r.reference, coalesce(r.amount, 0)::text AS amount,
            CASE WHEN r.reconciliation_status IN ('informative', 'out of scope') THEN coalesce(r.amount, 0)
                 ELSE sign(r.amount) * greatest(abs(r.amount) - coalesce(a.in_period, 0), 0) END::text AS "countedAmount",
            r.reconciliation_status AS status, coalesce(a.after_period, false) AS "matchedAfter"
       FROM side_rows r
       JOIN datasets d ON d.organization_id = $1 AND d.id = r.dataset_id
       LEFT JOIN allocated a ON a.row_id = r.id
      WHERE r.reconciliation_status IN ('informative', 'out of scope')
         OR (r.amount IS NOT NULL AND r.amount <> 0 AND abs(r.amount) - coalesce(a.in_period, 0) > 0)
      ORDER BY r.timestamp_ms, d.name, r.description, r.id`,
    [organizationId, datasetIds, endMs],
  );
}

/** The signed sum of the amounts of the datasets' rows dated in [fromMs, endMs) (fromMs null: from the first). */
export async function sumAmounts(database: Queryable, organizationId: string, datasetIds: string[], fromMs: number | null, endMs: number): Promise<string> {
  if (datasetIds.length === 0) return '0';
  const rows = await database.query<{ total: string }>(
    `SELECT coalesce(sum(amount), 0)::text AS total FROM transactions
      WHERE organization_id = $1 AND dataset_id = ANY ($2::uuid[]) AND ($3::bigint IS NULL OR timestamp_ms >= $3) AND timestamp_ms < $4`,
    [organizationId, datasetIds, fromMs, endMs],
  );
  return rows[0]!.total;
}

export interface OtherCurrencyRows {
  datasetName: string;
  currency: string;
  count: number;
}

/** Rows dated on or before the period end whose currency is not the reconciliation's, by dataset and currency, most first. */
export async function otherCurrencyRows(
  database: Queryable,
  organizationId: string,
  datasetIds: string[],
  currency: string,
  endMs: number,
): Promise<OtherCurrencyRows[]> {
  return database.query<OtherCurrencyRows>(
    `SELECT d.name AS "datasetName", t.currency, count(*)::int AS count
       FROM transactions t JOIN datasets d ON d.organization_id = t.organization_id AND d.id = t.dataset_id
      WHERE t.organization_id = $1 AND t.dataset_id = ANY ($2::uuid[]) AND t.timestamp_ms < $4 AND t.currency IS NOT NULL AND t.currency <> $3
      GROUP BY 1, 2 ORDER BY 3 DESC, 1, 2`,
    [organizationId, datasetIds, currency, endMs],
  );
}

export interface AdjustmentRow {
  matchGroupId: string;
  reason: string | null;
  amount: string;
  date: string;
  description: string | null;
  bankReference: string | null;
}

/**
 * The adjustments of links whose two ends are dated on or before the period end, by match group,
 * signed as the bank sees them: bank minus ledger. An adjustment on a bank row adds to it (the
 * bank moved more than the ledger: +sign of the row), one on a ledger row takes from it.
 */
export async function adjustmentsOf(
  database: Queryable,
  organizationId: string,
  bankDatasetIds: string[],
  ledgerDatasetIds: string[],
  endMs: number,
): Promise<AdjustmentRow[]> {
  return database.query<AdjustmentRow>(
    `WITH adjusted AS (
       SELECT m.group_id, greatest(o.timestamp_ms, t.timestamp_ms) AS latest,
              CASE WHEN o.dataset_id = ANY ($2::uuid[]) THEN sign(o.amount) * m.origin_adjustment
                   WHEN o.dataset_id = ANY ($3::uuid[]) THEN -sign(o.amount) * m.origin_adjustment ELSE 0 END
            + CASE WHEN t.dataset_id = ANY ($2::uuid[]) THEN sign(t.amount) * m.target_adjustment
                   WHEN t.dataset_id = ANY ($3::uuid[]) THEN -sign(t.amount) * m.target_adjustment ELSE 0 END AS signed,
              CASE WHEN o.dataset_id = ANY ($2::uuid[]) THEN o.id WHEN t.dataset_id = ANY ($2::uuid[]) THEN t.id END AS bank_row
         FROM matches m
         JOIN transactions o ON o.organization_id = $1 AND o.id = m.origin_id
         JOIN transactions t ON t.organization_id = $1 AND t.id = m.target_id
        WHERE m.organization_id = $1 AND (m.origin_adjustment > 0 OR m.target_adjustment > 0)
          AND o.timestamp_ms < $4 AND t.timestamp_ms < $4
          AND (o.dataset_id = ANY ($2::uuid[]) OR o.dataset_id = ANY ($3::uuid[]) OR t.dataset_id = ANY ($2::uuid[]) OR t.dataset_id = ANY ($3::uuid[])))
     SELECT a.group_id::text AS "matchGroupId", g.adjustment ->> 'reason' AS reason, sum(a.signed)::text AS amount,
            ${DAY_OF('max(a.latest)')} AS date,
            (SELECT b.description FROM transactions b WHERE b.organization_id = $1 AND b.id = (array_agg(a.bank_row) FILTER (WHERE a.bank_row IS NOT NULL))[1]) AS description,
            (SELECT coalesce(b.bank_reference, b.reference) FROM transactions b WHERE b.organization_id = $1 AND b.id = (array_agg(a.bank_row) FILTER (WHERE a.bank_row IS NOT NULL))[1]) AS "bankReference"
       FROM adjusted a JOIN match_groups g ON g.organization_id = $1 AND g.id = a.group_id
      GROUP BY a.group_id, g.adjustment
     HAVING sum(a.signed) <> 0
      ORDER BY max(a.latest), a.group_id`,
    [organizationId, bankDatasetIds, ledgerDatasetIds, endMs],
  );
}
