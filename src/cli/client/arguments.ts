import { InvalidArgumentError } from 'commander';
import {
  amountProblem,
  CALENDAR_DATE_PATTERN,
  calendarDateProblem,
  calendarDateToEpochMs,
  isReconciliationStatus,
  isUuid,
  RECONCILIATION_STATUSES,
} from '@ledger-recon/sdk';

/**
 * Parsers of option values: each refuses a bad value with a message that names the form it
 * wants, before anything is sent to a server. Amounts, dates, statuses and ids are checked with
 * the SDK's definitions, which are the server's: what passes here, the server takes.
 */

export function uuid(value: string): string {
  if (!isUuid(value))
    throw new InvalidArgumentError(
      `"${value}" is not an id; ids are UUIDs such as 258b87d2-734a-49d3-8e7c-107bf2552b86 (list them with "ledger-recon datasets")`,
    );
  return value.toLowerCase();
}

/** Appends to a repeatable option's list. */
export function collectValues<T>(parse: (value: string) => T) {
  return (value: string, previous: T[] | undefined): T[] => [...(previous ?? []), parse(value)];
}

/** The date that starts an ISO date-time ("2024-03-31T12:00:00Z"), which Date.parse would roll over too. */
const DATE_TIME_PATTERN = /^(\d{4}-\d{2}-\d{2})T/;

/**
 * A point in time: epoch ms, an ISO date-time, or a date (UTC). A date as the end of a range
 * means the whole day (`--to 2024-03-31` includes the 31st). A day that does not exist
 * (2024-02-30) is refused, not read as a day of the next month.
 */
export function timeOf(value: string, endOfDay: boolean): number {
  if (/^\d{1,16}$/.test(value)) return Number(value);
  const date = CALENDAR_DATE_PATTERN.test(value) ? value : DATE_TIME_PATTERN.exec(value)?.[1];
  const problem = date === undefined ? null : calendarDateProblem(date);
  if (problem !== null) throw new InvalidArgumentError(`"${date}" ${problem}`);
  if (date === value) return calendarDateToEpochMs(value) + (endOfDay ? 86_400_000 - 1 : 0);
  const milliseconds = Date.parse(value);
  if (Number.isNaN(milliseconds))
    throw new InvalidArgumentError(`"${value}" is not a time; give a date (2024-03-31), an ISO date-time (2024-03-31T12:00:00Z) or epoch milliseconds`);
  return milliseconds;
}

export const fromTime = (value: string) => timeOf(value, false);
export const toTime = (value: string) => timeOf(value, true);

/** A comma-separated list of reconciliation statuses ("out of scope" may be written out-of-scope). */
export function statuses(value: string): string[] {
  return value.split(',').map((part) => {
    const status = part.trim().toLowerCase().replace(/-/g, ' ');
    if (!isReconciliationStatus(status))
      throw new InvalidArgumentError(`"${part}" is not a status; use ${RECONCILIATION_STATUSES.join(', ')} (or out-of-scope)`);
    return status;
  });
}

export function positiveInteger(value: string): number {
  if (!/^\d{1,9}$/.test(value) || Number(value) === 0) throw new InvalidArgumentError(`"${value}" is not a whole number above 0`);
  return Number(value);
}

/** A positive amount (a part to allocate) as a decimal string, never a float: "120.50". */
export function positiveAmount(value: string): string {
  const problem = amountProblem(value, { positive: true });
  if (problem !== null) throw new InvalidArgumentError(`amount "${value}" ${problem}`);
  return value;
}
