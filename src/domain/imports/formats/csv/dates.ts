import { isCalendarDate, quoteFound } from '../../statement-entries.ts';
import { CSV_LIMITS } from './mapping.ts';
import { instantOfWallClock } from '../../../time-zones.ts';

/** Dates and times as a mapping's format says they are written, and the time zones they are read in. */

export interface ReadDate {
  /** The calendar date as written, `YYYY-MM-DD`. */
  date: string;
  /** Hours, minutes, seconds and milliseconds when the value has a time, else null. */
  time: { hour: number; minute: number; second: number; millisecond: number } | null;
  /** The offset from UTC the value names ("+01:00", "Z"), in minutes, else null. */
  offsetMinutes: number | null;
}

export interface CompiledDateFormat {
  /** The format as the mapping writes it. */
  format: string;
  /** Whether the format has a time part. */
  hasTime: boolean;
  /** Reads a value in the format, or its date part alone; null when it is neither. */
  read(text: string): ReadDate | null;
  /** What a value in this format looks like, for messages. */
  expected: string;
}

type DateToken = 'YYYY' | 'YY' | 'MMM' | 'MM' | 'M' | 'DD' | 'D' | 'HH' | 'mm' | 'ss';
/** Longest first, so that "MMM" is not read as "MM" and "M". */
const DATE_TOKENS: readonly DateToken[] = ['YYYY', 'YY', 'MMM', 'MM', 'M', 'DD', 'D', 'HH', 'mm', 'ss'];
/** The months as "MMM" reads them: English abbreviations, in any case (DBS writes "06 May 2020", Amex "12-Dec-2019"). */
const MONTH_ABBREVIATIONS = ['jan', 'feb', 'mar', 'apr', 'may', 'jun', 'jul', 'aug', 'sep', 'oct', 'nov', 'dec'];
const TOKEN_PATTERNS: Record<DateToken, string> = {
  YYYY: '(\\d{4})',
  YY: '(\\d{2})',
  MMM: '([A-Za-z]{3})',
  MM: '(\\d{2})',
  M: '(\\d{1,2})',
  DD: '(\\d{2})',
  D: '(\\d{1,2})',
  HH: '(\\d{2})',
  mm: '(\\d{2})',
  ss: '(\\d{2})',
};
const TOKEN_EXAMPLES: Record<DateToken, string> = { YYYY: '2024', YY: '24', MMM: 'Jan', MM: '01', M: '1', DD: '31', D: '31', HH: '13', mm: '45', ss: '30' };
const TIME_TOKENS = new Set<DateToken>(['HH', 'mm', 'ss']);
const VARIABLE_WIDTH_TOKENS = new Set<DateToken>(['M', 'D']);
/** Letters that would be read as a token: alone (a "Y", an "H") they are a mistake, not text. */
const RESERVED_FORMAT_LETTERS = /[YMDHhms]/;

const ISO_DATE = /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(?:[.,](\d{1,9}))?)?)?\s*(Z|[+-]\d{2}(?::?\d{2})?)?$/;
/**
 * Two-digit years: 00–69 are 2000–2069 and 70–99 are 1970–1999, as POSIX strptime reads them
 * (shifted by one so that 1969, before the epoch, never comes out).
 */
const TWO_DIGIT_YEAR_PIVOT = 70;
/** Dates are stored as epoch milliseconds, which the service accepts from 1970 on. */
const EARLIEST_YEAR = 1970;

type Part = { token: DateToken } | { literal: string };

/**
 * Compiles a mapping's date format. Returns the reason as a string when the format is not
 * one, so that checkCsvMapping can say it against "/dateFormat".
 */
export function compileDateFormat(format: string): CompiledDateFormat | string {
  if (format.toUpperCase() === 'ISO') return isoDateFormat(format);
  if (format.length === 0 || format.length > CSV_LIMITS.maxDateFormatLength) {
    return `must be a date format of 1 to ${CSV_LIMITS.maxDateFormatLength} characters, such as "DD.MM.YYYY", got ${quoteFound(format)}`;
  }
  const parts: Part[] = [];
  for (let index = 0; index < format.length;) {
    const token = DATE_TOKENS.find((candidate) => format.startsWith(candidate, index));
    if (token) {
      parts.push({ token });
      index += token.length;
      continue;
    }
    const character = format[index] as string;
    if (RESERVED_FORMAT_LETTERS.test(character)) {
      return `has ${JSON.stringify(character)} at position ${index + 1}, which is no part of a date format; use YYYY or YY, MMM (Jan), MM or M, DD or D, HH, mm, ss, and any other characters as separators (got ${quoteFound(format)})`;
    }
    const previous = parts[parts.length - 1];
    if (previous && 'literal' in previous) previous.literal += character;
    else parts.push({ literal: character });
    index += 1;
  }
  const tokens = parts.flatMap((part) => ('token' in part ? [part.token] : []));
  const count = (...names: DateToken[]) => tokens.filter((token) => names.includes(token)).length;
  const needs: Array<[DateToken[], string]> = [
    [['YYYY', 'YY'], 'a year (YYYY or YY)'],
    [['MMM', 'MM', 'M'], 'a month (MMM, MM or M)'],
    [['DD', 'D'], 'a day (DD or D)'],
  ];
  for (const [names, what] of needs) {
    if (count(...names) !== 1) return `must have exactly one ${what}, got ${quoteFound(format)}`;
  }
  for (const name of ['HH', 'mm', 'ss'] as DateToken[]) {
    if (count(name) > 1) return `has ${name} twice, got ${quoteFound(format)}`;
  }
  if (count('mm') !== count('HH') || (count('ss') === 1 && count('HH') === 0)) {
    return `must give a time as HH:mm or HH:mm:ss (hours, minutes, then optional seconds), got ${quoteFound(format)}`;
  }
  for (let index = 0; index + 1 < parts.length; index++) {
    const left = parts[index] as Part;
    const right = parts[index + 1] as Part;
    if ('token' in left && 'token' in right && (VARIABLE_WIDTH_TOKENS.has(left.token) || VARIABLE_WIDTH_TOKENS.has(right.token))) {
      return `needs a separator next to ${VARIABLE_WIDTH_TOKENS.has(left.token) ? left.token : right.token}, whose width varies; use DD and MM for fixed widths, got ${quoteFound(format)}`;
    }
  }
  const hasTime = count('HH') === 1;
  const full = partsReader(parts);
  // The date part alone: value and booking dates often come without the time the booking date has.
  const firstTime = parts.findIndex((part) => 'token' in part && TIME_TOKENS.has(part.token));
  let dateOnly: ((text: string) => ReadDate | null) | null = null;
  if (hasTime && firstTime > 0) {
    const dateParts = parts.slice(0, firstTime);
    while (dateParts.length > 0 && 'literal' in (dateParts[dateParts.length - 1] as Part)) dateParts.pop();
    const dateTokens = dateParts.flatMap((part) => ('token' in part ? [part.token] : []));
    if (dateTokens.length === 3) dateOnly = partsReader(dateParts);
  }
  const example = parts.map((part) => ('token' in part ? TOKEN_EXAMPLES[part.token] : part.literal)).join('');
  return {
    format,
    hasTime,
    read: (text) => {
      const trimmed = text.trim();
      return full(trimmed) ?? (dateOnly ? dateOnly(trimmed) : null);
    },
    expected: `a ${hasTime ? 'date and time' : 'date'} in the format ${format} such as ${JSON.stringify(example)}`,
  };
}

function partsReader(parts: readonly Part[]): (text: string) => ReadDate | null {
  const order: DateToken[] = [];
  const source = parts
    .map((part) => {
      if ('token' in part) {
        order.push(part.token);
        return TOKEN_PATTERNS[part.token];
      }
      // A space in the format stands for any run of spaces, as exports pad their columns.
      return part.literal
        .split(/\s+/)
        .map((piece) => piece.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))
        .join('\\s+');
    })
    .join('');
  const pattern = new RegExp(`^${source}$`);
  return (text) => {
    const match = pattern.exec(text);
    if (!match) return null;
    let year = 0;
    let month = 0;
    let day = 0;
    let hour = -1;
    let minute = 0;
    let second = 0;
    for (let index = 0; index < order.length; index++) {
      const text = match[index + 1] as string;
      const value = Number(text);
      switch (order[index]) {
        case 'MMM':
          month = MONTH_ABBREVIATIONS.indexOf(text.toLowerCase()) + 1;
          if (month === 0) return null;
          break;
        case 'YYYY':
          year = value;
          break;
        case 'YY':
          year = value < TWO_DIGIT_YEAR_PIVOT ? 2000 + value : 1900 + value;
          break;
        case 'MM':
        case 'M':
          month = value;
          break;
        case 'DD':
        case 'D':
          day = value;
          break;
        case 'HH':
          hour = value;
          break;
        case 'mm':
          minute = value;
          break;
        case 'ss':
          second = value;
          break;
      }
    }
    return dateFromParts(year, month, day, hour < 0 ? null : { hour, minute, second, millisecond: 0 }, null);
  };
}

function isoDateFormat(format: string): CompiledDateFormat {
  return {
    format,
    hasTime: true,
    expected: 'an ISO 8601 date such as "2024-01-31", or a date and time such as "2024-01-31T13:45:30" or "2024-01-31T13:45:30+01:00"',
    read(text) {
      const match = ISO_DATE.exec(text.trim());
      if (!match) return null;
      const time =
        match[4] === undefined
          ? null
          : {
              hour: Number(match[4]),
              minute: Number(match[5]),
              second: match[6] === undefined ? 0 : Number(match[6]),
              millisecond: match[7] === undefined ? 0 : Number(match[7].slice(0, 3).padEnd(3, '0')),
            };
      let offsetMinutes: number | null = null;
      const zone = match[8];
      if (zone !== undefined) {
        if (time === null) return null;
        if (zone === 'Z') offsetMinutes = 0;
        else {
          const digits = zone.slice(1).replace(':', '');
          const hours = Number(digits.slice(0, 2));
          const minutes = digits.length > 2 ? Number(digits.slice(2, 4)) : 0;
          if (hours > 23 || minutes > 59) return null;
          offsetMinutes = (zone.startsWith('-') ? -1 : 1) * (hours * 60 + minutes);
        }
      }
      return dateFromParts(Number(match[1]), Number(match[2]), Number(match[3]), time, offsetMinutes);
    },
  };
}

function dateFromParts(year: number, month: number, day: number, time: ReadDate['time'], offsetMinutes: number | null): ReadDate | null {
  if (year < EARLIEST_YEAR) return null;
  const date = `${String(year).padStart(4, '0')}-${String(month).padStart(2, '0')}-${String(day).padStart(2, '0')}`;
  if (!isCalendarDate(date)) return null;
  if (time !== null && (time.hour > 23 || time.minute > 59 || time.second > 59)) return null;
  return { date, time, offsetMinutes };
}

/**
 * The instant of a wall-clock time in a zone; around a change of offset as instantOfWallClock
 * (src/domain/time-zones.ts) says.
 */
export function zonedTimeToEpochMs(date: string, time: NonNullable<ReadDate['time']>, timeZone: string): number {
  const [year, month, day] = date.split('-').map(Number) as [number, number, number];
  return instantOfWallClock(Date.UTC(year, month - 1, day, time.hour, time.minute, time.second, time.millisecond), timeZone);
}
