import { isCalendarDate } from '../../../sdk/src/dates.ts';
import { invalidField, quoteInput } from '../../errors.ts';
import { moneyProblem, parseMoney } from '../money.ts';
import { describeValue } from '../text.ts';

/**
 * Columns of a dataset: the standard ones every dataset has, and the custom ones a dataset
 * declares. A record sent to ingest is a flat JSON object keyed by these names.
 */
export const COLUMN_TYPES = ['string', 'number', 'money', 'date', 'boolean'] as const;
export type ColumnType = (typeof COLUMN_TYPES)[number];

export interface Column {
  name: string;
  type: ColumnType;
}

/** The standard columns, stored in columns of their own; `timestamp` is required in every record. */
export const STANDARD_COLUMNS: readonly Column[] = [
  { name: 'timestamp', type: 'date' },
  { name: 'description', type: 'string' },
  { name: 'type', type: 'string' },
  { name: 'reference', type: 'string' },
  // The bank's own reference of an entry (camt AcctSvcrRef, MT940 bank reference, BAI2 bank
  // reference), filled by imports; SPEC §7.
  { name: 'bankReference', type: 'string' },
  { name: 'currency', type: 'string' },
  { name: 'amount', type: 'money' },
];

/** A currency code as stored and searched: ISO 4217 letters, or a provider's own short code. */
export const CURRENCY_PATTERN = /^[A-Za-z0-9]{1,16}$/;

/** The property of a record that carries the caller's own id of it (idempotent ingest). */
export const EXTERNAL_ID_FIELD = 'externalId';

/**
 * The fields of the published transaction record. A requested column is added to a record as a
 * top-level property under its own name, so a custom column must not be able to shadow these.
 */
const PUBLISHED_RECORD_FIELDS = ['id', 'datasetId', 'reconciliationStatus', 'incomingMatches', 'outgoingMatches', 'description', 'type', 'timestamp'];

/** Reserved names (lower case) and why; for a name reserved twice, the later, more specific reason wins. */
const RESERVED_NAMES = new Map<string, string>([
  ...PUBLISHED_RECORD_FIELDS.map((name): [string, string] => [name.toLowerCase(), `"${name}" is a field of the published transaction record`]),
  [EXTERNAL_ID_FIELD.toLowerCase(), `"${EXTERNAL_ID_FIELD}" is the record's own id field`] as [string, string],
  ...STANDARD_COLUMNS.map((column): [string, string] => [column.name.toLowerCase(), `"${column.name}" is a standard column that every dataset already has`]),
]);

/** Bounds the width of records and of every query that lists columns. */
export const CUSTOM_COLUMNS_LIMIT = 50;
export const COLUMN_NAME_PATTERN = /^[A-Za-z][A-Za-z0-9_]{0,63}$/;
export const COLUMN_NAME_RULE = 'must start with a letter and contain only letters, digits and underscores, at most 64 characters';

/**
 * Checks the custom columns of a new dataset: names well formed, not reserved, unique without
 * regard to case (search paths match column names case-insensitively, so "Vat" and "vat" could
 * not be told apart), types known. Errors name the column by its index.
 */
export function validateCustomColumns(input: readonly { name: string; type: string }[]): Column[] {
  if (input.length > CUSTOM_COLUMNS_LIMIT) {
    throw invalidField('/columns', `at most ${CUSTOM_COLUMNS_LIMIT} custom columns are allowed, got ${input.length}`);
  }
  const seen = new Map<string, number>();
  return input.map((column, index) => {
    const path = `/columns/${index}`;
    if (!COLUMN_NAME_PATTERN.test(column.name)) {
      throw invalidField(`${path}/name`, `column name ${quoteInput(column.name)} ${COLUMN_NAME_RULE}`);
    }
    const folded = column.name.toLowerCase();
    const reserved = RESERVED_NAMES.get(folded);
    if (reserved) throw invalidField(`${path}/name`, `column name ${quoteInput(column.name)} is reserved: ${reserved}; choose another name`);
    const earlier = seen.get(folded);
    if (earlier !== undefined) {
      throw invalidField(
        `${path}/name`,
        `column name ${quoteInput(column.name)} repeats column ${earlier} (names are compared without regard to case); choose another name`,
      );
    }
    seen.set(folded, index);
    if (!(COLUMN_TYPES as readonly string[]).includes(column.type)) {
      throw invalidField(`${path}/type`, `column type must be one of ${COLUMN_TYPES.join(', ')}, got ${quoteInput(column.type)}`);
    }
    return { name: column.name, type: column.type as ColumnType };
  });
}

/** Longest text a string value may have. */
export const STRING_VALUE_MAX_LENGTH = 4000;
/** Epoch-millisecond dates are accepted from 1970 up to the end of year 9999. */
const LATEST_DATE_MS = 253_402_300_799_999;
const ISO_DATE_PATTERN = /^\d{4}-\d{2}-\d{2}(T\d{2}:\d{2}(:\d{2}(\.\d{1,3})?)?(Z|[+-]\d{2}:\d{2}))?$/;
const NUMBER_TEXT_PATTERN = /^-?(0|[1-9]\d*)(\.\d+)?([eE][+-]?\d+)?$/;

export type ParsedValue = { ok: true; value: string | number | boolean } | { ok: false; message: string };

const fail = (message: string): ParsedValue => ({ ok: false, message });

/**
 * Converts one value of a record to its column's type. Money stays an exact decimal string;
 * dates become epoch milliseconds. The failure message says what the value should look like.
 */
export function parseColumnValue(type: ColumnType, value: unknown): ParsedValue {
  switch (type) {
    case 'string':
      if (typeof value !== 'string') return fail(`must be a string, got ${describeValue(value)}`);
      if (value.length > STRING_VALUE_MAX_LENGTH) return fail(`must be at most ${STRING_VALUE_MAX_LENGTH} characters, got ${value.length}`);
      // PostgreSQL text cannot hold NUL; refusing it here names the record and the column.
      if (value.includes('\u0000')) return fail('must not contain the NUL character (\\u0000); remove it');
      return { ok: true, value };
    case 'money': {
      const money = parseMoney(value);
      return money === null ? fail(moneyProblem(value)) : { ok: true, value: money };
    }
    case 'number': {
      const number = typeof value === 'number' ? value : typeof value === 'string' && NUMBER_TEXT_PATTERN.test(value) ? Number(value) : NaN;
      return Number.isFinite(number) ? { ok: true, value: number } : fail(`must be a number, got ${describeValue(value)}`);
    }
    case 'date': {
      const milliseconds = parseDate(value);
      return milliseconds === null
        ? fail(
            `must be a date: epoch milliseconds (an integer, or a string of one) or an ISO 8601 date such as "2024-01-31" or "2024-01-31T09:30:00Z", got ${describeValue(value)}`,
          )
        : { ok: true, value: milliseconds };
    }
    case 'boolean':
      return typeof value === 'boolean' ? { ok: true, value } : fail(`must be true or false, got ${describeValue(value)}`);
  }
}

function parseDate(value: unknown): number | null {
  let milliseconds: number;
  if (typeof value === 'number') milliseconds = value;
  else if (typeof value === 'string' && /^-?\d{1,16}$/.test(value)) milliseconds = Number(value);
  else if (typeof value === 'string' && ISO_DATE_PATTERN.test(value)) {
    // Date.parse rolls "2024-02-30" over into March; a calendar date that does not exist is refused.
    if (!isCalendarDate(value.slice(0, 10))) return null;
    // A date without a time is midnight UTC; a time must carry its zone, so nothing depends on
    // the zone this server happens to run in.
    milliseconds = Date.parse(value.length === 10 ? `${value}T00:00:00Z` : value);
  } else return null;
  if (!Number.isSafeInteger(milliseconds) || milliseconds < 0 || milliseconds > LATEST_DATE_MS) return null;
  return milliseconds;
}
