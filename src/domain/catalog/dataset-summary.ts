import type { Database } from '../../db/database.ts';
import { countRuleHits, summarizeByMonth, summarizeOpenByAge, type AgeRow, type MonthRow, type RuleHitRow } from '../../db/repositories/dataset-summary.ts';
import { findDatasetSchema } from '../../db/repositories/transaction-query.ts';
import { notFound } from '../../errors.ts';

/** The months of history a summary covers, newest first: two years. */
export const SUMMARY_MONTHS_LIMIT = 24;
export const AGE_BUCKETS = ['0-7', '8-30', '31-90', '>90'] as const;

export interface DatasetSummary {
  datasetId: string;
  /** Oldest first. Shares leave out informative and out-of-scope transactions, which are not expected to reconcile. */
  months: MonthRow[];
  /** Every bucket, in order, empty ones included. */
  openByAge: AgeRow[];
  ruleHits: RuleHitRow[];
}

export class DatasetSummaries {
  constructor(private readonly database: Database) {}

  async summarize(organizationId: string, datasetId: string, nowMs: number = Date.now()): Promise<DatasetSummary> {
    if (!(await findDatasetSchema(this.database, organizationId, datasetId))) throw notFound('dataset', datasetId);
    const [months, ages, ruleHits] = await Promise.all([
      summarizeByMonth(this.database, organizationId, datasetId, SUMMARY_MONTHS_LIMIT),
      summarizeOpenByAge(this.database, organizationId, datasetId, nowMs),
      countRuleHits(this.database, organizationId, datasetId),
    ]);
    const byBucket = new Map(ages.map((row) => [row.bucket, row]));
    return {
      datasetId,
      months: months.reverse(),
      openByAge: AGE_BUCKETS.map((bucket) => byBucket.get(bucket) ?? { bucket, count: 0, amount: '0.00' }),
      ruleHits,
    };
  }
}
