import { quoteInput } from '../../errors.ts';

/** The durations of date windows: ISO 8601 durations or whole milliseconds. */

const DURATION_PATTERN = /^([+-])?P(?:(\d{1,6})W)?(?:(\d{1,6})D)?(?:T(?:(\d{1,8})H)?(?:(\d{1,10})M)?(?:(\d{1,12})(?:\.(\d{1,3}))?S)?)?$/;

/**
 * An ISO 8601 duration ("P5D", "-P2D", "PT12H", "P1DT6H", "PT0.5S") or whole milliseconds, as
 * milliseconds; null when it is neither. Years and months are refused: they have no fixed length.
 */
export function parseDuration(value: unknown): number | null {
  if (typeof value === 'number') return Number.isSafeInteger(value) ? value : null;
  if (typeof value !== 'string') return null;
  const match = DURATION_PATTERN.exec(value);
  if (!match || value.endsWith('P') || value.endsWith('T')) return null;
  const [, sign, weeks, days, hours, minutes, seconds, fraction] = match;
  const milliseconds =
    Number(weeks ?? 0) * 7 * 86_400_000 +
    Number(days ?? 0) * 86_400_000 +
    Number(hours ?? 0) * 3_600_000 +
    Number(minutes ?? 0) * 60_000 +
    Number(seconds ?? 0) * 1000 +
    Number((fraction ?? '').padEnd(3, '0'));
  return sign === '-' ? -milliseconds : milliseconds;
}

export function durationProblem(value: unknown): string {
  if (typeof value === 'string' && /^[+-]?P[^T]*[YM]/.test(value)) {
    return `${quoteInput(value)} counts years or months, which have no fixed length; write days instead (e.g. "P30D")`;
  }
  if (typeof value === 'number') return 'must be a whole number of milliseconds (or an ISO 8601 duration such as "P5D")';
  return 'must be an ISO 8601 duration such as "P5D", "-P2D" or "PT12H" (weeks, days, hours, minutes, seconds), or whole milliseconds';
}
