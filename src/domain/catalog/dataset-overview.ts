import type { Database } from '../../db/database.ts';
import { countByMonth, latestClosingBalances, listBankDatasets, sumOpen, type OpenRow, type OverviewMonthRow } from '../../db/repositories/dataset-overview.ts';
import { invalidFieldIn } from '../../errors.ts';

/** The longest period an overview covers: two years of months. */
export const OVERVIEW_MONTHS_LIMIT = 24;

export interface DatasetOverviewEntry {
  datasetId: string;
  name: string;
  sourceName: string;
  accountId: string | null;
  currency: string | null;
  /** Transactions of the period, and of them: reconciled (full) and left out (informative, out of scope). */
  count: number;
  reconciledCount: number;
  excludedCount: number;
  /** What is left open of the period's open transactions, per currency: money in, money out (negative) and net. */
  open: Omit<OpenRow, 'datasetId'>[];
  /** Months of the period that have transactions, oldest first; a month without any is not listed. */
  months: Omit<OverviewMonthRow, 'datasetId'>[];
  /** The latest statement dated on or before the period's last day. */
  closingBalance: { amount: string; currency: string | null; date: string } | null;
}

export interface DatasetOverview {
  from: string;
  to: string;
  /** Every month of the period, oldest first, those without transactions included. */
  months: string[];
  datasets: DatasetOverviewEntry[];
}

/** YYYY-MM of a month index (months since year 0). */
function monthText(index: number): string {
  return `${String(Math.floor(index / 12)).padStart(4, '0')}-${String((index % 12) + 1).padStart(2, '0')}`;
}

function monthIndex(month: string): number {
  return Number(month.slice(0, 4)) * 12 + Number(month.slice(5, 7)) - 1;
}

function monthStartMs(index: number): number {
  return Date.UTC(Math.floor(index / 12), index % 12, 1);
}

export class DatasetOverviews {
  constructor(private readonly database: Database) {}

  /**
   * Every bank dataset's reconciliation over the months from..to (YYYY-MM, both included, by the
   * transactions' time in UTC); by default the last twelve months up to now.
   */
  async overview(organizationId: string, period: { from: string | null; to: string | null }, nowMs: number = Date.now()): Promise<DatasetOverview> {
    const now = new Date(nowMs);
    const last = period.to === null ? now.getUTCFullYear() * 12 + now.getUTCMonth() : monthIndex(period.to);
    const first = period.from === null ? last - 11 : monthIndex(period.from);
    if (first > last) throw invalidFieldIn('query', 'from', `must be a month before or equal to the last month (${monthText(last)})`);
    if (last - first + 1 > OVERVIEW_MONTHS_LIMIT)
      throw invalidFieldIn('query', 'from', `must be at most ${OVERVIEW_MONTHS_LIMIT} months before the last month`);
    const fromMs = monthStartMs(first);
    const toMs = monthStartMs(last + 1);
    const lastDay = new Date(toMs - 86_400_000).toISOString().slice(0, 10);

    const banks = await listBankDatasets(this.database, organizationId);
    const ids = banks.map((bank) => bank.datasetId);
    const [months, open, balances] =
      ids.length === 0
        ? [[], [], []]
        : await Promise.all([
            countByMonth(this.database, organizationId, ids, fromMs, toMs),
            sumOpen(this.database, organizationId, ids, fromMs, toMs),
            latestClosingBalances(this.database, organizationId, ids, lastDay),
          ]);
    const allMonths: string[] = [];
    for (let index = first; index <= last; index += 1) allMonths.push(monthText(index));
    return {
      from: monthText(first),
      to: monthText(last),
      months: allMonths,
      datasets: banks.map((bank) => {
        const own = months.filter((row) => row.datasetId === bank.datasetId).map(({ datasetId: _, ...row }) => row);
        const balance = balances.find((row) => row.datasetId === bank.datasetId);
        return {
          ...bank,
          count: own.reduce((total, row) => total + row.count, 0),
          reconciledCount: own.reduce((total, row) => total + row.reconciledCount, 0),
          excludedCount: own.reduce((total, row) => total + row.excludedCount, 0),
          open: open.filter((row) => row.datasetId === bank.datasetId).map(({ datasetId: _, ...row }) => row),
          months: own,
          closingBalance: balance ? { amount: balance.amount, currency: balance.currency ?? bank.currency, date: balance.date } : null,
        };
      }),
    };
  }
}
