/**
 * The periods of a reconciliation: runs of `periodMonths` calendar months, the first beginning
 * with the month of the ledger's opening date. A period is named by its last day (YYYY-MM-DD).
 */

const DATE_PATTERN = /^(\d{4})-(\d{2})-(\d{2})$/;

/** Whether a text is a real calendar date written YYYY-MM-DD. */
export function isCalendarDate(text: string): boolean {
  const parts = DATE_PATTERN.exec(text);
  if (!parts) return false;
  const date = new Date(Date.UTC(Number(parts[1]), Number(parts[2]) - 1, Number(parts[3])));
  return date.toISOString().slice(0, 10) === text;
}

/** Months since year 0 of a YYYY-MM-DD date. */
function monthIndex(date: string): number {
  return Number(date.slice(0, 4)) * 12 + Number(date.slice(5, 7)) - 1;
}

function firstDayOf(index: number): string {
  return new Date(Date.UTC(Math.floor(index / 12), index % 12, 1)).toISOString().slice(0, 10);
}

function lastDayOf(index: number): string {
  return new Date(Date.UTC(Math.floor(index / 12), (index % 12) + 1, 0)).toISOString().slice(0, 10);
}

export interface Period {
  periodStart: string;
  periodEnd: string;
}

/** The period whose months hold a date (dates before the first period belong to no period: null). */
export function periodHolding(date: string, openingDate: string, periodMonths: number): Period | null {
  const first = monthIndex(openingDate);
  const month = monthIndex(date);
  if (month < first) return null;
  const start = first + Math.floor((month - first) / periodMonths) * periodMonths;
  return { periodStart: firstDayOf(start), periodEnd: lastDayOf(start + periodMonths - 1) };
}

/** The period ending exactly on periodEnd, or null when periodEnd is not the last day of one. */
export function periodEndingOn(periodEnd: string, openingDate: string, periodMonths: number): Period | null {
  const period = periodHolding(periodEnd, openingDate, periodMonths);
  return period !== null && period.periodEnd === periodEnd ? period : null;
}

/** Every period from the first to the one holding `until`, oldest first; at most `limit`, the latest kept. */
export function periodsUntil(until: string, openingDate: string, periodMonths: number, limit: number): Period[] {
  const last = periodHolding(until, openingDate, periodMonths);
  if (last === null) return [];
  const periods: Period[] = [];
  let start = monthIndex(last.periodStart);
  while (start >= monthIndex(openingDate) && periods.length < limit) {
    periods.unshift({ periodStart: firstDayOf(start), periodEnd: lastDayOf(start + periodMonths - 1) });
    start -= periodMonths;
  }
  return periods;
}

/** The first instant (epoch milliseconds, UTC) of the day after a YYYY-MM-DD date: "on or before D" is before it. */
export function endOfDayMs(date: string): number {
  return Date.UTC(Number(date.slice(0, 4)), Number(date.slice(5, 7)) - 1, Number(date.slice(8, 10)) + 1);
}

/** The first instant (epoch milliseconds, UTC) of a YYYY-MM-DD date. */
export function startOfDayMs(date: string): number {
  return Date.UTC(Number(date.slice(0, 4)), Number(date.slice(5, 7)) - 1, Number(date.slice(8, 10)));
}

/** The day after a YYYY-MM-DD date. */
export function dayAfter(date: string): string {
  return new Date(endOfDayMs(date)).toISOString().slice(0, 10);
}
