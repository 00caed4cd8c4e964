/**
 * Calendar dates as the service takes them: `YYYY-MM-DD`, a day that exists. JavaScript's own
 * date parsing rolls a day that does not exist over into the next month ("2024-02-30" becomes
 * 1 March), so a date is checked here before it is turned into a time.
 */

/** A date written `YYYY-MM-DD`; whether the day exists is `isCalendarDate`'s question. */
export const CALENDAR_DATE_PATTERN = /^(\d{4})-(\d{2})-(\d{2})$/;

const MONTHS = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'];

/**
 * The days of a month (1 to 12) of a year, by the Gregorian rule. Not by Date.UTC, which reads
 * the years 0 to 99 as 1900 to 1999.
 */
function daysIn(year: number, month: number): number {
  if (month !== 2) return [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][month - 1]!;
  return year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0) ? 29 : 28;
}

/** Whether `text` is a real calendar date `YYYY-MM-DD` (no 30 February, no month 13). */
export function isCalendarDate(text: string): boolean {
  return calendarDateProblem(text) === null;
}

/**
 * What is wrong with a date, as words that follow the date itself ("2024-02-30" is not a day
 * …), each with the fix; null when it is a real calendar date.
 */
export function calendarDateProblem(text: string): string | null {
  const match = CALENDAR_DATE_PATTERN.exec(text);
  if (match === null) return 'is not a date; write it as YYYY-MM-DD, e.g. 2024-03-31';
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
  if (month < 1 || month > 12) return `is not a date: there is no month ${match[2]}; months run from 01 to 12`;
  const last = daysIn(year, month);
  if (day < 1 || day > last) {
    return `is not a date: ${MONTHS[month - 1]} ${match[1]} has no day ${match[3]}; give a day from 01 to ${last}, e.g. ${match[1]}-${match[2]}-${last}`;
  }
  return null;
}

/** Midnight UTC of a calendar date, in epoch milliseconds: how dates are stored and queried. */
export function calendarDateToEpochMs(date: string): number {
  if (!isCalendarDate(date)) throw new Error(`not a calendar date: ${JSON.stringify(date)}`);
  return Date.parse(`${date}T00:00:00Z`);
}
