import type { Queryable } from '../../db/database.ts';
import { findClosedPeriodsTouched, hasClosedPeriods, type ClosedPeriodTouched, type Touched } from '../../db/repositories/closed-periods.ts';
import { closedPeriodErrors } from '../../errors.ts';

export type { Touched };
export { hasClosedPeriods };

/**
 * The lock of month-end close (SPEC §14, issue 25 item 4): in a closed (approved) period of a
 * reconciliation nothing that changes its statement may happen. Every write that changes a
 * transaction's matches or status, or adds or removes transactions, calls `refuseClosedPeriods`
 * with what it touches, inside its own database transaction and after it has locked the rows it
 * changes, and before it commits:
 *
 * - matching by hand, confirming a suggestion, committing a dry run (the pairs' transactions);
 * - unmatching (a match, a match group, the groups an import undo dissolves);
 * - setting or clearing a status (informative / out of scope);
 * - reverting a run (the transactions its decisions involve);
 * - ingesting records (the new records' dates: a record the dataset already holds by its
 *   externalId is skipped by ingest, so it is not counted);
 * - importing a file (the rows the import stored, checked before it completes: the whole file is
 *   refused) and undoing an import (the rows it removes).
 *
 * A run leaves transactions of closed periods out of its pools (run-work.ts) and counts them.
 *
 * Concurrency: the check reads the periods in the write's transaction and locks every period it
 * finds for the touched days FOR SHARE, whatever its state, so an approval waits for the writes in
 * flight and a write that waited for an approval sees it approved (repositories/closed-periods.ts).
 */
export async function refuseClosedPeriods(transaction: Queryable, organizationId: string, touched: Touched): Promise<void> {
  const periods = await findClosedPeriodsTouched(transaction, organizationId, touched);
  const first = periods[0];
  if (first === undefined) return;
  throw closedPeriodErrors.periodClosed(
    `${periodName(first.periodStart, first.periodEnd)} of ${first.reconciliationName}`,
    approvalOf(first),
    first.touched,
    touched.kind === 'rows' || touched.kind === 'import' ? 'row of the file' : 'transaction',
    periods.length - 1,
  );
}

/** The closed periods a write would touch, for a caller that reports rather than refuses. */
export async function closedPeriodsTouched(transaction: Queryable, organizationId: string, touched: Touched): Promise<ClosedPeriodTouched[]> {
  return findClosedPeriodsTouched(transaction, organizationId, touched);
}

const MONTHS = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'];

/**
 * A period in words, as accountants name it: "March 2026" for a calendar month, "January to March
 * 2026" or "November 2025 to January 2026" for whole months, else its first and last days.
 */
export function periodName(start: string, end: string): string {
  const [startYear, startMonth, startDay] = start.split('-').map(Number) as [number, number, number];
  const [endYear, endMonth, endDay] = end.split('-').map(Number) as [number, number, number];
  const lastDayOfEndMonth = new Date(Date.UTC(endYear, endMonth, 0)).getUTCDate();
  if (startDay !== 1 || endDay !== lastDayOfEndMonth) return `${dayName(startYear, startMonth, startDay)} to ${dayName(endYear, endMonth, endDay)}`;
  const startName = MONTHS[startMonth - 1]!;
  const endName = MONTHS[endMonth - 1]!;
  if (startYear === endYear && startMonth === endMonth) return `${startName} ${startYear}`;
  if (startYear === endYear) return `${startName} to ${endName} ${endYear}`;
  return `${startName} ${startYear} to ${endName} ${endYear}`;
}

function dayName(year: number, month: number, day: number): string {
  return `${day} ${MONTHS[month - 1]} ${year}`;
}

/** "approved by ann@example.com on 3 April 2026", as far as the sign-off is known. */
function approvalOf(period: ClosedPeriodTouched): string {
  const who = period.approvedBy === null ? null : period.approvedBy.replace(/^(user|client):/, '');
  const when = period.approvedAt === null ? null : period.approvedAt.slice(0, 10).split('-').map(Number);
  const on = when === null ? '' : ` on ${dayName(when[0]!, when[1]!, when[2]!)}`;
  return who === null ? `approved${on}` : `approved by ${who}${on}`;
}
