/**
 * How the app writes dates, times, amounts and counts: the reader's locale, amounts exactly as
 * the API sends them.
 *
 * Two kinds of time reach the app, and each is written its own way:
 * - a calendar date (a booking date, a value date, a statement's balance date, and a transaction's
 *   `timestamp` when its file gave a day without a time): the day as the bank wrote it, the same
 *   in every time zone, with no time. The API sends such a day as its midnight UTC (SPEC: "stored
 *   as that day at 00:00 UTC"), so it is read in UTC, never in the reader's zone, which would turn
 *   7 January into 6 January west of Greenwich.
 * - a moment (an import, a sign-in, a match): in the reader's time zone, with the zone named on hover.
 * - a transaction's booking with its time: its date and time in UTC, the zone named, so that its
 *   day is the bank's in every zone; the reader's own time is on hover.
 */
import { CALENDAR_DATE_PATTERN } from '@ledger-recon/sdk';

const DAY_MILLISECONDS = 86_400_000;

type TimeValue = string | number | null | undefined;

/** The epoch milliseconds of a time the API sends (an ISO 8601 string or epoch milliseconds); null for none or an unreadable one. */
function millisecondsOf(value: TimeValue): number | null {
  if (value === null || value === undefined || value === '') return null;
  if (typeof value === 'string' && CALENDAR_DATE_PATTERN.test(value)) return Date.parse(`${value}T00:00:00Z`);
  const milliseconds = typeof value === 'number' ? value : /^-?\d+$/.test(value) ? Number(value) : Date.parse(value);
  return Number.isFinite(milliseconds) ? milliseconds : null;
}

/**
 * Whether a transaction's time is a calendar date: a day at exactly midnight UTC, which is how the
 * service stores a day its file gave without a time. (A booking at 00:00:00.000 UTC to the
 * millisecond reads as its day too, which is the day it was booked.)
 */
export function isCalendarDay(value: TimeValue): boolean {
  const milliseconds = millisecondsOf(value);
  return milliseconds !== null && milliseconds % DAY_MILLISECONDS === 0;
}

/** A calendar date as `YYYY-MM-DD` (the CSV export's form); an empty string for none. */
export function isoCalendarDate(value: TimeValue): string {
  const milliseconds = millisecondsOf(value);
  return milliseconds === null ? '' : new Date(milliseconds).toISOString().slice(0, 10);
}

/** A transaction's time as the CSV export writes it: `YYYY-MM-DD` for a day, else the ISO 8601 moment in UTC. */
export function isoTimestamp(value: TimeValue): string {
  const milliseconds = millisecondsOf(value);
  if (milliseconds === null) return '';
  return isCalendarDay(milliseconds) ? isoCalendarDate(milliseconds) : new Date(milliseconds).toISOString();
}

/** The formatters of one locale and time zone (undefined: the reader's own). Pure: tests give both. */
export function dateFormatters(locale?: string, timeZone?: string) {
  // One formatter each, made once: building an Intl formatter costs far more than using one, and
  // a table formats a date in every row.
  const day = new Intl.DateTimeFormat(locale, { dateStyle: 'medium', timeZone: 'UTC' });
  const month = new Intl.DateTimeFormat(locale, { month: 'short', year: 'numeric', timeZone: 'UTC' });
  const moment = new Intl.DateTimeFormat(locale, { dateStyle: 'medium', timeStyle: 'short', timeZone });
  const momentSeconds = new Intl.DateTimeFormat(locale, { dateStyle: 'medium', timeStyle: 'medium', timeZone });
  const zoned = new Intl.DateTimeFormat(locale, { dateStyle: 'long', timeStyle: 'long', timeZone });
  const zoneLong = new Intl.DateTimeFormat(locale, { timeZoneName: 'long', timeZone });
  // A transaction's booking with its time, as the service keeps it: in UTC, the zone named, so its
  // day is the one the bank's file gives in every reader's zone.
  const booked = new Intl.DateTimeFormat(locale, {
    year: 'numeric',
    month: 'short',
    day: 'numeric',
    hour: 'numeric',
    minute: '2-digit',
    timeZone: 'UTC',
    timeZoneName: 'short',
  });
  const zoneId = moment.resolvedOptions().timeZone;
  const write = (formatter: Intl.DateTimeFormat, value: TimeValue) => {
    const milliseconds = millisecondsOf(value);
    return milliseconds === null ? '—' : formatter.format(milliseconds);
  };
  return {
    /** The reader's time zone, as its IANA name ("America/Los_Angeles"). */
    timeZone: zoneId,
    /** A calendar date (the day of its midnight UTC, or `YYYY-MM-DD`), the same in every zone. */
    calendarDate: (value: TimeValue) => write(day, value),
    /** A calendar month, `YYYY-MM` as the API sends it ("Jan 2019"). */
    calendarMonth: (value: string | null | undefined) =>
      value && /^\d{4}-\d{2}$/.test(value) ? month.format(Date.parse(`${value}-01T00:00:00Z`)) : (value ?? '—'),
    /** A moment in the reader's zone, to the minute. */
    moment: (value: TimeValue) => write(moment, value),
    /** A moment to the second, for what happens several times a minute (webhook deliveries and their attempts). */
    momentSeconds: (value: TimeValue) => write(momentSeconds, value),
    /** A moment with its zone named, for the hover: "January 7, 2019 at 7:00:00 PM PST (Pacific Standard Time, America/Los_Angeles)". */
    momentWithZone: (value: TimeValue) => {
      const milliseconds = millisecondsOf(value);
      if (milliseconds === null) return '—';
      const zoneName = zoneLong.formatToParts(milliseconds).find((part) => part.type === 'timeZoneName')?.value;
      return `${zoned.format(milliseconds)} (${zoneName ? `${zoneName}, ` : ''}${zoneId})`;
    },
    /**
     * A transaction's time: its calendar date when the file gave only a day,
     * else the date and time in UTC with the zone named ("Jan 7, 2019, 6:30 PM UTC") — never moved
     * into the reader's zone, where a late booking would fall on the next day.
     */
    timestamp: (value: TimeValue) => (isCalendarDay(value) ? write(day, value) : write(booked, value)),
  };
}

/** The reader's formatters: the browser's locale and time zone. */
const READER = dateFormatters();

export const formatCalendarDate = READER.calendarDate;
export const formatCalendarMonth = READER.calendarMonth;
export const formatDateTime = READER.moment;
export const formatDateTimeSeconds = READER.momentSeconds;
export const formatMomentWithZone = READER.momentWithZone;
export const formatTimestamp = READER.timestamp;

const COUNT = new Intl.NumberFormat();

export function formatCount(value: number): string {
  return COUNT.format(value);
}

/** A count with its noun, singular for one: "1 exception", "3 exceptions". */
export function countOf(value: number, singular: string, plural = `${singular}s`): string {
  return `${formatCount(value)} ${value === 1 ? singular : plural}`;
}

/**
 * An amount as the decimal string the API sends, grouped for reading. The digits are never
 * turned into a float: a cent is never lost to rounding on the screen either.
 */
export function formatAmount(amount: string | null | undefined, currency?: string | null): string {
  if (amount === null || amount === undefined || amount === '') return '—';
  const negative = amount.startsWith('-');
  const [whole = '0', fraction] = amount.replace(/^[-+]/, '').split('.');
  const grouped = whole.replace(/\B(?=(\d{3})+(?!\d))/g, ',');
  return `${negative ? '−' : ''}${grouped}${fraction === undefined ? '' : `.${fraction}`}${currency ? ` ${currency}` : ''}`;
}
