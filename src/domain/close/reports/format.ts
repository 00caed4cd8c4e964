import { addDecimals, negateDecimal, toScaled, withScale } from '../../../../sdk/src/money.ts';
import { CALENDAR_DATE_PATTERN } from '../../../../sdk/src/dates.ts';

/**
 * How the close reports write what an accountant reads: amounts grouped in thousands with two
 * decimals and a minus sign, straight from the decimal text (never through a floating-point
 * number); calendar dates as "31 March 2026"; instants in UTC, said so.
 */

const MONTHS = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'];

/**
 * An amount for reading: "-1234.5" is "-1,234.50". Two decimals at least; a third or later
 * decimal that is not zero is kept ("0.125" stays "0.125"), so that no digit is ever dropped.
 */
export function formatAmount(decimal: string): string {
  const text = trimmedDecimal(decimal);
  const negative = text.startsWith('-');
  const [whole = '0', fraction = ''] = text.replace(/^-/, '').split('.');
  const grouped = whole.replace(/\B(?=(\d{3})+(?!\d))/g, ',');
  return `${negative ? '-' : ''}${grouped}.${fraction}`;
}

/** The decimal with two decimals at least and no trailing zero beyond them ("7.5" -> "7.50", "1.2300" -> "1.23"); "-0.00" is "0.00". */
export function trimmedDecimal(decimal: string): string {
  let text = withScale(decimal, 2);
  while (/\.\d{3,}$/.test(text) && text.endsWith('0')) text = text.slice(0, -1);
  return toScaled(text).units === 0n ? text.replace(/^-/, '') : text;
}

/** The number of decimals trimmedDecimal writes: 2, or more when the amount has them. */
export function decimalsOf(decimal: string): number {
  return trimmedDecimal(decimal).split('.')[1]!.length;
}

/** "2026-03-31" is "31 March 2026". */
export function formatLongDate(date: string): string {
  const match = CALENDAR_DATE_PATTERN.exec(date);
  if (match === null) return date;
  return `${Number(match[3])} ${MONTHS[Number(match[2]) - 1]} ${match[1]}`;
}

/** An instant (ISO 8601) in UTC: "31 March 2026 at 14:05 UTC". */
export function formatInstant(instant: string): string {
  const time = new Date(instant);
  if (Number.isNaN(time.getTime())) return instant;
  const iso = time.toISOString();
  return `${formatLongDate(iso.slice(0, 10))} at ${iso.slice(11, 16)} UTC`;
}

/** The exact sum of decimals ("0" for none). */
export function sum(decimals: readonly string[]): string {
  return decimals.length === 0 ? '0' : addDecimals(...decimals);
}

export function negate(decimal: string): string {
  return negateDecimal(decimal);
}

/** Whether two decimals are the same amount ("1.5" and "1.50" are). */
export function sameAmount(left: string, right: string): boolean {
  return toScaled(addDecimals(left, negateDecimal(right))).units === 0n;
}

export function isNegative(decimal: string): boolean {
  return toScaled(decimal).units < 0n;
}

export function isZero(decimal: string): boolean {
  return toScaled(decimal).units === 0n;
}
