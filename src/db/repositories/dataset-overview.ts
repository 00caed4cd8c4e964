import type { Queryable } from '../database.ts';

/**
 * The aggregates behind the dashboard's overview across accounts: for every bank dataset (one
 * with an account, or with statements imported), its transactions of a period by month, what is
 * left open of them by currency, and the closing balance of its latest statement. Amounts are
 * summed as numeric and sent as text; what is left open of a transaction keeps its sign (money in
 * positive, money out negative), so that open entries sum as the statement sums them.
 */

/** Formats whose files are bank statements, with balances. */
const STATEMENT_FORMATS = ['camt.052', 'camt.053', 'camt.054', 'mt940', 'mt942', 'bai2', 'ofx'];

export interface BankDatasetRow {
  datasetId: string;
  name: string;
  sourceName: string;
  accountId: string | null;
  currency: string | null;
}

export async function listBankDatasets(database: Queryable, organizationId: string): Promise<BankDatasetRow[]> {
  return database.query<BankDatasetRow>(
    `SELECT d.id AS "datasetId", d.name, s.name AS "sourceName", d.account_id AS "accountId", d.currency
       FROM datasets d JOIN sources s ON s.organization_id = d.organization_id AND s.id = d.source_id
      WHERE d.organization_id = $1 AND d.status = 'active'
        AND (d.account_id IS NOT NULL
             OR EXISTS (SELECT 1 FROM imports i
                         WHERE i.organization_id = d.organization_id AND i.dataset_id = d.id
                           AND i.status = 'completed' AND i.format = ANY($2::text[])))
      ORDER BY s.name, d.name, d.id`,
    [organizationId, STATEMENT_FORMATS],
  );
}

export interface OverviewMonthRow {
  datasetId: string;
  month: string;
  count: number;
  reconciledCount: number;
  excludedCount: number;
}

/** Per dataset and month (YYYY-MM of the transaction's time in UTC) of [fromMs, toMs): counts by status. */
export async function countByMonth(
  database: Queryable,
  organizationId: string,
  datasetIds: string[],
  fromMs: number,
  toMs: number,
): Promise<OverviewMonthRow[]> {
  return database.query<OverviewMonthRow>(
    `SELECT dataset_id AS "datasetId",
            to_char(date_trunc('month', to_timestamp(timestamp_ms / 1000.0) AT TIME ZONE 'UTC'), 'YYYY-MM') AS month,
            count(*)::int AS count,
            count(*) FILTER (WHERE reconciliation_status = 'full')::int AS "reconciledCount",
            count(*) FILTER (WHERE reconciliation_status IN ('informative', 'out of scope'))::int AS "excludedCount"
       FROM transactions
      WHERE organization_id = $1 AND dataset_id = ANY($2::uuid[]) AND timestamp_ms >= $3 AND timestamp_ms < $4
      GROUP BY 1, 2
      ORDER BY 1, 2`,
    [organizationId, datasetIds, fromMs, toMs],
  );
}

export interface OpenRow {
  datasetId: string;
  currency: string | null;
  count: number;
  moneyIn: string;
  moneyOut: string;
  net: string;
}

/**
 * The open (none, partial) transactions of [fromMs, toMs) per dataset and currency: how many, and
 * what is left to match of them, signed: money in and money out apart, and their net sum.
 */
export async function sumOpen(database: Queryable, organizationId: string, datasetIds: string[], fromMs: number, toMs: number): Promise<OpenRow[]> {
  return database.query<OpenRow>(
    `SELECT "datasetId", currency, count(*)::int AS count,
            coalesce(sum(open_amount) FILTER (WHERE open_amount > 0), 0.00)::text AS "moneyIn",
            coalesce(sum(open_amount) FILTER (WHERE open_amount < 0), 0.00)::text AS "moneyOut",
            coalesce(sum(open_amount), 0.00)::text AS net
       FROM (SELECT dataset_id AS "datasetId", currency,
                    sign(coalesce(amount, 0)) * greatest(abs(coalesce(amount, 0)) - allocated_amount, 0) AS open_amount
               FROM transactions
              WHERE organization_id = $1 AND dataset_id = ANY($2::uuid[]) AND timestamp_ms >= $3 AND timestamp_ms < $4
                AND reconciliation_status IN ('none', 'partial')) open_rows
      GROUP BY 1, 2
      ORDER BY 1, 2`,
    [organizationId, datasetIds, fromMs, toMs],
  );
}

export interface ClosingBalanceRow {
  datasetId: string;
  amount: string;
  currency: string | null;
  date: string;
}

/**
 * Per dataset, the closing balance of its latest statement dated on or before lastDate
 * (YYYY-MM-DD), from the imports still in force: the latest date, and of one date the latest import.
 */
export async function latestClosingBalances(database: Queryable, organizationId: string, datasetIds: string[], lastDate: string): Promise<ClosingBalanceRow[]> {
  return database.query<ClosingBalanceRow>(
    `SELECT DISTINCT ON (i.dataset_id) i.dataset_id AS "datasetId", s.statement -> 'closingBalance' ->> 'amount' AS amount,
            s.statement ->> 'currency' AS currency, s.statement -> 'closingBalance' ->> 'date' AS date
       FROM imports i CROSS JOIN LATERAL jsonb_array_elements(i.statements) WITH ORDINALITY AS s(statement, ordinal)
      WHERE i.organization_id = $1 AND i.dataset_id = ANY($2::uuid[]) AND i.status = 'completed'
        AND s.statement -> 'closingBalance' ->> 'date' IS NOT NULL AND s.statement -> 'closingBalance' ->> 'date' <= $3
      ORDER BY i.dataset_id, s.statement -> 'closingBalance' ->> 'date' DESC, i.created_at DESC, s.ordinal DESC`,
    [organizationId, datasetIds, lastDate],
  );
}
