import { InvalidArgumentError } from 'commander';

/**
 * Parsers of option values: each refuses a bad value with a message that names the form it
 * wants, before anything is sent to a server.
 */

const UUID_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export function uuid(value: string): string {
  if (!UUID_PATTERN.test(value)) throw new InvalidArgumentError(`"${value}" is not an id; ids are UUIDs such as 258b87d2-734a-49d3-8e7c-107bf2552b86 (list them with "ledger-recon datasets")`);
  return value.toLowerCase();
}

/** Appends to a repeatable option's list. */
export function collectValues<T>(parse: (value: string) => T) {
  return (value: string, previous: T[] | undefined): T[] => [...(previous ?? []), parse(value)];
}

const DATE_PATTERN = /^\d{4}-\d{2}-\d{2}$/;

/**
 * A point in time: epoch ms, an ISO date-time, or a date (UTC). A date as the end of a range
 * means the whole day (`--to 2024-03-31` includes the 31st).
 */
export function timeOf(value: string, endOfDay: boolean): number {
  if (/^\d{1,16}$/.test(value)) return Number(value);
  const milliseconds = Date.parse(DATE_PATTERN.test(value) ? `${value}T00:00:00Z` : value);
  if (Number.isNaN(milliseconds)) throw new InvalidArgumentError(`"${value}" is not a time; give a date (2024-03-31), an ISO date-time (2024-03-31T12:00:00Z) or epoch milliseconds`);
  return DATE_PATTERN.test(value) && endOfDay ? milliseconds + 86_400_000 - 1 : milliseconds;
}

export const fromTime = (value: string) => timeOf(value, false);
export const toTime = (value: string) => timeOf(value, true);

export const STATUSES = ['none', 'partial', 'full', 'informative', 'out of scope'] as const;

/** A comma-separated list of reconciliation statuses ("out of scope" may be written out-of-scope). */
export function statuses(value: string): string[] {
  return value.split(',').map((part) => {
    const status = part.trim().toLowerCase().replace(/-/g, ' ');
    if (!(STATUSES as readonly string[]).includes(status)) throw new InvalidArgumentError(`"${part}" is not a status; use ${STATUSES.join(', ')} (or out-of-scope)`);
    return status;
  });
}

export function positiveInteger(value: string): number {
  if (!/^\d{1,9}$/.test(value) || Number(value) === 0) throw new InvalidArgumentError(`"${value}" is not a whole number above 0`);
  return Number(value);
}

/** A decimal amount as a string, never a float: "120.50". */
export function decimal(value: string): string {
  if (!/^\d{1,18}(\.\d{1,8})?$/.test(value)) throw new InvalidArgumentError(`"${value}" is not an amount; write it like 120.50 (a dot for decimals, no sign)`);
  return value;
}
