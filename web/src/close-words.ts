/**
 * The words of the close screens: where a period's sign-off stands, and a period by its days.
 */
import { compareDecimals } from '@ledger-recon/sdk';
import type { PeriodSummary, SignOffState } from './close-api.ts';
import { formatCalendarDate, formatCalendarMonth } from './format.ts';

export function stateInWords(state: SignOffState): string {
  switch (state) {
    case 'open':
      return 'Open';
    case 'prepared':
      return 'Prepared, waiting for approval';
    case 'approved':
      return 'Approved and closed';
  }
}

/** The class of a state's badge, in the colours of the statuses elsewhere. */
export function stateClass(state: SignOffState): string {
  return state === 'approved' ? 'status status-full' : state === 'prepared' ? 'status status-partial' : 'status status-none';
}

function lastDayOfMonth(year: number, month: number): string {
  return new Date(Date.UTC(year, month + 1, 0)).toISOString().slice(0, 10);
}

/** A period by its days: "Mar 2026" for a whole calendar month, else "1 Jan 2026 – 31 Mar 2026" in the reader's way. */
export function periodInWords(periodStart: string, periodEnd: string): string {
  const [year, month] = periodEnd.split('-').map(Number) as [number, number];
  if (periodStart === `${periodEnd.slice(0, 7)}-01` && periodEnd === lastDayOfMonth(year, month - 1)) return formatCalendarMonth(periodEnd.slice(0, 7));
  return `${formatCalendarDate(periodStart)} – ${formatCalendarDate(periodEnd)}`;
}

export function isZero(amount: string): boolean {
  return compareDecimals(amount, '0') === 0;
}

/**
 * The periods worth showing, latest first: those that end after the ledger's opening balance (a
 * period ending on its day holds nothing to reconcile).
 */
export function periodsAfterOpening(periods: readonly PeriodSummary[], openingDate: string | undefined): PeriodSummary[] {
  return periods.filter((period) => openingDate === undefined || period.periodEnd > openingDate).sort((a, b) => b.periodEnd.localeCompare(a.periodEnd));
}

/** The period being closed: periods close in order, so the earliest one not yet approved; else the latest. */
export function periodAtHand(periods: readonly PeriodSummary[], openingDate: string | undefined): PeriodSummary | undefined {
  const shown = periodsAfterOpening(periods, openingDate);
  return [...shown].reverse().find((period) => period.state !== 'approved') ?? shown[0];
}
