import type { Queryable } from '../database.ts';

/**
 * The aggregates behind the dashboard (SPEC §9): one dataset's reconciled share by month of
 * transaction time, its open amounts by age, and how many matches each rule made. Each is one
 * statement over the dataset's rows (an index range on (dataset_id, timestamp_ms)), with amounts
 * summed as numeric and sent as text.
 */

export interface MonthRow {
  month: string;
  count: number;
  reconciledCount: number;
  excludedCount: number;
  amount: string;
  reconciledAmount: string;
}

export async function summarizeByMonth(database: Queryable, organizationId: string, datasetId: string, monthsLimit: number): Promise<MonthRow[]> {
  return database.query<MonthRow>(
    `SELECT to_char(date_trunc('month', to_timestamp(timestamp_ms / 1000.0) AT TIME ZONE 'UTC'), 'YYYY-MM') AS month,
            count(*)::int AS count,
            count(*) FILTER (WHERE reconciliation_status = 'full')::int AS "reconciledCount",
            count(*) FILTER (WHERE reconciliation_status IN ('informative', 'out of scope'))::int AS "excludedCount",
            coalesce(sum(abs(amount)) FILTER (WHERE reconciliation_status NOT IN ('informative', 'out of scope')), 0.00)::text AS amount,
            coalesce(sum(abs(amount)) FILTER (WHERE reconciliation_status = 'full'), 0.00)::text AS "reconciledAmount"
       FROM transactions
      WHERE organization_id = $1 AND dataset_id = $2
      GROUP BY 1
      ORDER BY 1 DESC
      LIMIT $3`,
    [organizationId, datasetId, monthsLimit],
  );
}

export interface AgeRow {
  bucket: string;
  count: number;
  amount: string;
}

/**
 * Open (none, partial) transactions by days since their time: what is left of each, with its sign
 * (money out negative), summed: the open entries net as the statement sums them.
 */
export async function summarizeOpenByAge(database: Queryable, organizationId: string, datasetId: string, nowMs: number): Promise<AgeRow[]> {
  return database.query<AgeRow>(
    `SELECT bucket, count(*)::int AS count, coalesce(sum(open_amount), 0.00)::text AS amount
       FROM (SELECT CASE WHEN age_days <= 7 THEN '0-7' WHEN age_days <= 30 THEN '8-30' WHEN age_days <= 90 THEN '31-90' ELSE '>90' END AS bucket,
                    sign(coalesce(amount, 0)) * greatest(abs(coalesce(amount, 0)) - allocated_amount, 0) AS open_amount
               FROM (SELECT amount, allocated_amount, floor(($3::bigint - timestamp_ms) / 86400000.0) AS age_days
                       FROM transactions
                      WHERE organization_id = $1 AND dataset_id = $2 AND reconciliation_status IN ('none', 'partial')) aged) bucketed
      GROUP BY bucket`,
    [organizationId, datasetId, nowMs],
  );
}

export interface RuleHitRow {
  ruleId: string;
  name: string | null;
  matches: number;
}

/** Matches that rules made with this dataset on either side, per rule. */
export async function countRuleHits(database: Queryable, organizationId: string, datasetId: string): Promise<RuleHitRow[]> {
  return database.query<RuleHitRow>(
    `SELECT m.rule_id AS "ruleId", r.name, count(*)::int AS matches
       FROM matches m LEFT JOIN rules r ON r.organization_id = m.organization_id AND r.id = m.rule_id
      WHERE m.organization_id = $1 AND m.rule_id IS NOT NULL AND (m.origin_dataset_id = $2 OR m.target_dataset_id = $2)
      GROUP BY m.rule_id, r.name
      ORDER BY matches DESC
      LIMIT 100`,
    [organizationId, datasetId],
  );
}
