import { CsvError, parse, type InfoRecord, type Options, type Parser } from 'csv-parse';
import { CURRENCY_PATTERN, STRING_VALUE_MAX_LENGTH } from '../../catalog/columns.ts';
import { negateDecimal, withCurrencyScale } from '../../money.ts';
import { pointerSegment } from '../../../errors.ts';
import { closestName, describeValue } from '../../text.ts';
import { calendarDateToEpochMs, emptyEntry, ImportFormatError, isCalendarDate, quoteFound, type ParseEvent, type StatementEntry } from '../statement-entries.ts';
import { isSupportedEncoding, LINE_LENGTH_LIMIT } from '../text.ts';

/**
 * CSV files read with a mapping: the mapping (SPEC §7) says how the text is cut into fields and
 * which field is which column. The file is read as a stream by csv-parse, one record at a time,
 * so a file of any size passes with one row in memory. The whole file is one statement: CSV
 * exports carry no balances the parser could check, and no statement boundaries.
 */

/** Bounds on what a mapping may ask and what one file may make the reader hold. */
export const CSV_LIMITS = {
  /** Longest record (all its fields together, quoted line breaks included), in characters. */
  maxRecordLength: 128 * 1024,
  /** Most fields a header or a row may have. */
  columnLimit: 1000,
  /** Most lines `skipRows` may drop before the header. */
  skipRowsLimit: 1000,
  /** Most source columns one target column may join. */
  sourcesPerTargetLimit: 10,
  /** Most columns `externalId` may combine. */
  externalIdColumnLimit: 10,
  /** Most skip rules, and most values one rule may list. */
  skipRuleLimit: 50,
  skipValueLimit: 100,
  /** Most values an amount indicator may list for debit or for credit. */
  indicatorValueLimit: 20,
  /** Longest header text, skip value or indicator value a mapping may name, in characters. */
  maxMappingTextLength: 200,
  /** Longest date format, in characters. */
  maxDateFormatLength: 40,
} as const;

/** Standard columns every dataset has. */
export const CSV_STANDARD_TARGETS = ['timestamp', 'description', 'type', 'reference', 'bankReference', 'currency', 'amount'] as const;
/** Bank columns an import adds to the dataset the first time it fills them. */
export const CSV_BANK_TARGETS = [
  'valueDate',
  'bookingDate',
  'endToEndId',
  'counterpartyName',
  'counterpartyAccount',
  'accountId',
  'statementId',
  'bankTransactionCode',
] as const;

type TextTarget =
  | 'description'
  | 'type'
  | 'reference'
  | 'bankReference'
  | 'endToEndId'
  | 'counterpartyName'
  | 'counterpartyAccount'
  | 'accountId'
  | 'statementId'
  | 'bankTransactionCode';

const TEXT_TARGETS: readonly TextTarget[] = [
  'description',
  'type',
  'reference',
  'bankReference',
  'endToEndId',
  'counterpartyName',
  'counterpartyAccount',
  'accountId',
  'statementId',
  'bankTransactionCode',
];

const KNOWN_TARGETS: readonly string[] = [...CSV_STANDARD_TARGETS, ...CSV_BANK_TARGETS];

export type CsvColumnType = 'string' | 'number' | 'money' | 'date' | 'boolean';

/** A custom column of the dataset: a mapping may fill it, converted to its type, into `entry.extra`. */
export interface CsvCustomColumn {
  name: string;
  type: CsvColumnType;
}

/** A source column: its header text, or its 0-based index. */
export type CsvColumnReference = string | number;
/** One source column, or several joined with a space. */
export type CsvColumnSource = CsvColumnReference | CsvColumnReference[];

/** Separate debit and credit columns; their values are taken as absolute amounts. */
export interface CsvSplitAmount {
  debit: CsvColumnReference;
  credit: CsvColumnReference;
}

/** One amount column whose sign another column gives ("Af"/"Bij", "D"/"C", "S"/"H"). */
export interface CsvIndicatorAmount {
  column: CsvColumnReference;
  indicator: { column: CsvColumnReference; debit: string[]; credit: string[] };
}

/** Rows whose column equals one of the values are left out (pending rows, balance lines). */
export interface CsvSkipRule {
  column: CsvColumnReference;
  equals: string[];
}

/** The mapping of SPEC §7: every field optional except `columns`. */
export interface CsvMapping {
  encoding?: string;
  delimiter?: string;
  quote?: string | null;
  skipRows?: number;
  header?: boolean;
  decimalSeparator?: '.' | ',';
  thousandsSeparator?: string;
  dateFormat?: string;
  timezone?: string;
  columns: Record<string, CsvColumnSource>;
  amount?: CsvSplitAmount | CsvIndicatorAmount;
  invertSign?: boolean;
  currency?: string;
  externalId?: CsvColumnReference[];
  skip?: CsvSkipRule[];
}

/** What a mapping means when it leaves a field out. */
export const CSV_MAPPING_DEFAULTS = {
  encoding: 'utf-8',
  delimiter: ',',
  quote: '"',
  skipRows: 0,
  header: true,
  decimalSeparator: '.',
  thousandsSeparator: '',
  dateFormat: 'ISO',
  timezone: 'UTC',
  invertSign: false,
} as const;

const MAPPING_PROPERTIES = [
  'encoding',
  'delimiter',
  'quote',
  'skipRows',
  'header',
  'decimalSeparator',
  'thousandsSeparator',
  'dateFormat',
  'timezone',
  'columns',
  'amount',
  'invertSign',
  'currency',
  'externalId',
  'skip',
] as const;

/** Thousands separators a mapping may name; "" means none. Any space stands for every kind of space. */
const THOUSANDS_SEPARATORS = ['', '.', ',', ' ', "'", '\u00a0', '\u202f'];
const DELIMITER_MAX_LENGTH = 4;

/**
 * A mapping that cannot be used, found before any file is read. `path` is the JSON pointer of
 * the offending field, so that a form can show the message next to it.
 */
export class MappingError extends Error {
  override name = 'MappingError';
  readonly path: string;

  constructor(path: string, message: string) {
    super(`${path === '' ? 'the mapping' : path}: ${message}`);
    this.path = path;
  }
}

// ---------------------------------------------------------------------------------------------
// Checking a mapping
// ---------------------------------------------------------------------------------------------

/**
 * Checks a mapping given as JSON and returns it as a clean copy (currency in upper case,
 * `externalId` always a list). Every problem names the JSON pointer of the field and the fix.
 * The encoding is checked here but applied by the importer, which decodes the bytes.
 */
export function checkCsvMapping(value: unknown, customColumns: readonly CsvCustomColumn[] = []): CsvMapping {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new MappingError('', `must be a JSON object with at least "columns", got ${describeValue(value)}`);
  }
  const input = value as Record<string, unknown>;
  for (const key of Object.keys(input)) {
    if (!(MAPPING_PROPERTIES as readonly string[]).includes(key)) {
      throw new MappingError(`/${pointerSegment(key)}`, `is not a mapping property${suggestion(key, MAPPING_PROPERTIES)}; the properties are ${MAPPING_PROPERTIES.join(', ')}`);
    }
  }
  const mapping: CsvMapping = { columns: {} };

  if (input.encoding !== undefined) {
    if (typeof input.encoding !== 'string' || !isSupportedEncoding(input.encoding)) {
      throw new MappingError('/encoding', `must be an encoding label such as "utf-8", "windows-1252", "iso-8859-1" or "utf-16le", got ${describeValue(input.encoding)}`);
    }
    mapping.encoding = input.encoding;
  }
  if (input.delimiter !== undefined) {
    const delimiter = input.delimiter;
    if (typeof delimiter !== 'string' || delimiter.length === 0 || delimiter.length > DELIMITER_MAX_LENGTH || /[\r\n]/.test(delimiter)) {
      throw new MappingError('/delimiter', `must be the character between fields, such as "," or ";" or "\\t" (a tab), got ${describeValue(delimiter)}`);
    }
    mapping.delimiter = delimiter;
  }
  if (input.quote !== undefined) {
    const quote = input.quote;
    if (quote !== null && (typeof quote !== 'string' || quote.length !== 1 || /[\r\n]/.test(quote))) {
      throw new MappingError('/quote', `must be one character such as "\\"" or "'", or null when fields are never quoted, got ${describeValue(quote)}`);
    }
    mapping.quote = quote;
  }
  const quote = mapping.quote === undefined ? CSV_MAPPING_DEFAULTS.quote : mapping.quote;
  if (quote !== null && quote === (mapping.delimiter ?? CSV_MAPPING_DEFAULTS.delimiter)) {
    if (mapping.quote === undefined) throw new MappingError('/delimiter', `must differ from the quote character, both are ${JSON.stringify(quote)}; set "quote" to another character or to null`);
    throw new MappingError('/quote', `must differ from the delimiter, both are ${JSON.stringify(quote)}`);
  }
  if (input.skipRows !== undefined) {
    const skipRows = input.skipRows;
    if (typeof skipRows !== 'number' || !Number.isInteger(skipRows) || skipRows < 0 || skipRows > CSV_LIMITS.skipRowsLimit) {
      throw new MappingError('/skipRows', `must be the number of lines before the header, a whole number from 0 to ${CSV_LIMITS.skipRowsLimit}, got ${describeValue(skipRows)}`);
    }
    mapping.skipRows = skipRows;
  }
  if (input.header !== undefined) {
    if (typeof input.header !== 'boolean') throw new MappingError('/header', `must be true (the first row names the columns) or false, got ${describeValue(input.header)}`);
    mapping.header = input.header;
  }
  const header = mapping.header ?? CSV_MAPPING_DEFAULTS.header;
  if (input.decimalSeparator !== undefined) {
    if (input.decimalSeparator !== '.' && input.decimalSeparator !== ',') {
      throw new MappingError('/decimalSeparator', `must be "." or ",", got ${describeValue(input.decimalSeparator)}`);
    }
    mapping.decimalSeparator = input.decimalSeparator;
  }
  if (input.thousandsSeparator !== undefined && input.thousandsSeparator !== null) {
    if (typeof input.thousandsSeparator !== 'string' || !THOUSANDS_SEPARATORS.includes(input.thousandsSeparator)) {
      throw new MappingError('/thousandsSeparator', `must be "" (none), ".", ",", " " (a space) or "'", got ${describeValue(input.thousandsSeparator)}`);
    }
    if (input.thousandsSeparator === (mapping.decimalSeparator ?? CSV_MAPPING_DEFAULTS.decimalSeparator)) {
      throw new MappingError('/thousandsSeparator', `must differ from the decimal separator, both are ${JSON.stringify(input.thousandsSeparator)}`);
    }
    mapping.thousandsSeparator = input.thousandsSeparator;
  }
  if (input.dateFormat !== undefined) {
    if (typeof input.dateFormat !== 'string') {
      throw new MappingError('/dateFormat', `must be a date format such as "DD.MM.YYYY", "MM/DD/YYYY", "YYYY-MM-DD HH:mm:ss" or "ISO", got ${describeValue(input.dateFormat)}`);
    }
    const compiled = compileDateFormat(input.dateFormat);
    if (typeof compiled === 'string') throw new MappingError('/dateFormat', compiled);
    mapping.dateFormat = input.dateFormat;
  }
  if (input.timezone !== undefined) {
    if (typeof input.timezone !== 'string' || !isTimeZone(input.timezone)) {
      throw new MappingError('/timezone', `must be an IANA time zone such as "Europe/Berlin", "America/New_York" or "UTC", got ${describeValue(input.timezone)}`);
    }
    mapping.timezone = input.timezone;
  }
  if (input.invertSign !== undefined) {
    if (typeof input.invertSign !== 'boolean') throw new MappingError('/invertSign', `must be true or false, got ${describeValue(input.invertSign)}`);
    mapping.invertSign = input.invertSign;
  }
  if (input.currency !== undefined) {
    if (typeof input.currency !== 'string' || !CURRENCY_PATTERN.test(input.currency)) {
      throw new MappingError('/currency', `must be a currency code such as "EUR" or "USD", got ${describeValue(input.currency)}`);
    }
    mapping.currency = input.currency.toUpperCase();
  }

  // Columns.
  if (input.columns === undefined) throw new MappingError('/columns', 'is required: an object naming, for each column of the dataset, its column in the file');
  if (typeof input.columns !== 'object' || input.columns === null || Array.isArray(input.columns)) {
    throw new MappingError('/columns', `must be an object such as {"timestamp": "Date", "amount": "Amount"}, got ${describeValue(input.columns)}`);
  }
  const customByName = new Map(customColumns.map((column) => [column.name.toLowerCase(), column]));
  const targetNames = [...KNOWN_TARGETS, ...customColumns.map((column) => column.name)];
  for (const [target, source] of Object.entries(input.columns as Record<string, unknown>)) {
    const path = `/columns/${pointerSegment(target)}`;
    let name = target;
    if (!KNOWN_TARGETS.includes(target)) {
      const custom = customByName.get(target.toLowerCase());
      if (!custom) {
        throw new MappingError(path, `is not a column of the dataset${suggestion(target, targetNames)}; the columns are ${targetNames.join(', ')}`);
      }
      name = custom.name;
    }
    if (name === 'amount' && Array.isArray(source)) {
      throw new MappingError(path, 'must name one column: an amount cannot be joined from several columns (for separate debit and credit columns, use "amount": {"debit": ..., "credit": ...})');
    }
    mapping.columns[name] = checkSource(source, path, header);
  }
  const columns = mapping.columns;
  // Both may be named, even as the same column: a card or ledger export carries the moment of
  // the transaction ("timestamp") and the day the bank booked it ("bookingDate").
  if (columns.timestamp === undefined && columns.bookingDate === undefined) {
    throw new MappingError('/columns/timestamp', 'is missing: name the column of the booking date (or date and time), e.g. "timestamp": "Date"');
  }

  // Amount.
  if (input.amount !== undefined) {
    if (columns.amount !== undefined) {
      throw new MappingError('/amount', 'and /columns/amount both say where the amount is; keep "amount" for separate debit and credit columns (or an indicator column), or "columns.amount" for one signed column');
    }
    mapping.amount = checkAmount(input.amount, header);
  } else if (columns.amount === undefined) {
    throw new MappingError('/columns/amount', 'is missing: name the column of the signed amount, e.g. "amount": "Amount", or give "amount": {"debit": ..., "credit": ...} for separate columns');
  }

  if (input.externalId !== undefined) {
    const list = Array.isArray(input.externalId) ? input.externalId : [input.externalId];
    if (list.length === 0 || list.length > CSV_LIMITS.externalIdColumnLimit) {
      throw new MappingError('/externalId', `must list 1 to ${CSV_LIMITS.externalIdColumnLimit} columns whose values together identify a row, got ${describeValue(input.externalId)}`);
    }
    const path = (index: number) => (Array.isArray(input.externalId) ? `/externalId/${index}` : '/externalId');
    mapping.externalId = list.map((reference, index) => checkReference(reference, path(index), header));
  }

  if (input.skip !== undefined) {
    if (!Array.isArray(input.skip) || input.skip.length > CSV_LIMITS.skipRuleLimit) {
      throw new MappingError('/skip', `must be a list of at most ${CSV_LIMITS.skipRuleLimit} rules such as [{"column": "Status", "equals": ["pending"]}], got ${describeValue(input.skip)}`);
    }
    mapping.skip = input.skip.map((rule: unknown, index: number) => checkSkipRule(rule, `/skip/${index}`, header));
  }
  return mapping;
}

function checkSource(source: unknown, path: string, header: boolean): CsvColumnSource {
  if (Array.isArray(source)) {
    if (source.length === 0 || source.length > CSV_LIMITS.sourcesPerTargetLimit) {
      throw new MappingError(path, `must list 1 to ${CSV_LIMITS.sourcesPerTargetLimit} columns to join, got ${source.length}`);
    }
    return source.map((reference, index) => checkReference(reference, `${path}/${index}`, header));
  }
  return checkReference(source, path, header);
}

function checkReference(reference: unknown, path: string, header: boolean): CsvColumnReference {
  if (typeof reference === 'string') {
    if (!header) {
      throw new MappingError(path, `names the column ${quoteFound(reference)} by header text, but "header" is false: name columns by their 0-based index (0 for the first column)`);
    }
    if (reference.trim() === '' || reference.length > CSV_LIMITS.maxMappingTextLength) {
      throw new MappingError(path, `must be the text of a header column (1 to ${CSV_LIMITS.maxMappingTextLength} characters), got ${describeValue(reference)}`);
    }
    return reference;
  }
  if (typeof reference === 'number' && Number.isInteger(reference) && reference >= 0 && reference < CSV_LIMITS.columnLimit) return reference;
  throw new MappingError(
    path,
    `must be ${header ? 'the text of a header column (a string) or ' : ''}a 0-based column index (a whole number from 0 to ${CSV_LIMITS.columnLimit - 1}), got ${describeValue(reference)}`,
  );
}

function checkAmount(amount: unknown, header: boolean): CsvSplitAmount | CsvIndicatorAmount {
  const shapes = '{"debit": column, "credit": column} or {"column": column, "indicator": {"column": column, "debit": ["D"], "credit": ["C"]}}';
  if (typeof amount !== 'object' || amount === null || Array.isArray(amount)) {
    throw new MappingError('/amount', `must be ${shapes}, got ${describeValue(amount)}`);
  }
  const object = amount as Record<string, unknown>;
  const keys = Object.keys(object);
  if ('debit' in object || 'credit' in object) {
    for (const key of keys) {
      if (key !== 'debit' && key !== 'credit') throw new MappingError(`/amount/${pointerSegment(key)}`, `is not a property of separate debit and credit columns; they are debit, credit`);
    }
    if (object.debit === undefined) throw new MappingError('/amount/debit', 'is missing: name the column of money out');
    if (object.credit === undefined) throw new MappingError('/amount/credit', 'is missing: name the column of money in');
    return { debit: checkReference(object.debit, '/amount/debit', header), credit: checkReference(object.credit, '/amount/credit', header) };
  }
  if ('column' in object || 'indicator' in object) {
    for (const key of keys) {
      if (key !== 'column' && key !== 'indicator') throw new MappingError(`/amount/${pointerSegment(key)}`, `is not a property of an amount with an indicator column; they are column, indicator`);
    }
    if (object.column === undefined) throw new MappingError('/amount/column', 'is missing: name the column of the amount');
    const indicator = object.indicator;
    if (typeof indicator !== 'object' || indicator === null || Array.isArray(indicator)) {
      throw new MappingError('/amount/indicator', `must be {"column": column, "debit": [values], "credit": [values]}, got ${describeValue(indicator)}`);
    }
    const parts = indicator as Record<string, unknown>;
    for (const key of Object.keys(parts)) {
      if (key !== 'column' && key !== 'debit' && key !== 'credit') {
        throw new MappingError(`/amount/indicator/${pointerSegment(key)}`, `is not a property of an indicator; they are column, debit, credit`);
      }
    }
    if (parts.column === undefined) throw new MappingError('/amount/indicator/column', 'is missing: name the column that says debit or credit');
    const debit = checkValues(parts.debit, '/amount/indicator/debit', CSV_LIMITS.indicatorValueLimit, 'the values that mark money out, e.g. ["D", "Af"]');
    const credit = checkValues(parts.credit, '/amount/indicator/credit', CSV_LIMITS.indicatorValueLimit, 'the values that mark money in, e.g. ["C", "Bij"]');
    const both = debit.find((value) => credit.some((other) => other.trim().toLowerCase() === value.trim().toLowerCase()));
    if (both !== undefined) throw new MappingError('/amount/indicator/credit', `lists ${quoteFound(both)}, which debit lists too; a value must mean one of them`);
    return {
      column: checkReference(object.column, '/amount/column', header),
      indicator: { column: checkReference(parts.column, '/amount/indicator/column', header), debit, credit },
    };
  }
  throw new MappingError('/amount', `must be ${shapes}, got ${describeValue(amount)}`);
}

function checkSkipRule(rule: unknown, path: string, header: boolean): CsvSkipRule {
  if (typeof rule !== 'object' || rule === null || Array.isArray(rule)) {
    throw new MappingError(path, `must be {"column": column, "equals": [values]}, got ${describeValue(rule)}`);
  }
  const object = rule as Record<string, unknown>;
  for (const key of Object.keys(object)) {
    if (key !== 'column' && key !== 'equals') throw new MappingError(`${path}/${pointerSegment(key)}`, `is not a property of a skip rule; they are column, equals`);
  }
  if (object.column === undefined) throw new MappingError(`${path}/column`, 'is missing: name the column to compare');
  return {
    column: checkReference(object.column, `${path}/column`, header),
    equals: checkValues(object.equals, `${path}/equals`, CSV_LIMITS.skipValueLimit, 'the values that leave a row out, e.g. ["pending"]'),
  };
}

function checkValues(values: unknown, path: string, limit: number, what: string): string[] {
  if (!Array.isArray(values) || values.length === 0 || values.length > limit) {
    throw new MappingError(path, `must be a list of 1 to ${limit} texts: ${what}; got ${describeValue(values)}`);
  }
  return values.map((value, index) => {
    if (typeof value !== 'string' || value.length > CSV_LIMITS.maxMappingTextLength) {
      throw new MappingError(`${path}/${index}`, `must be a text of at most ${CSV_LIMITS.maxMappingTextLength} characters, got ${describeValue(value)}`);
    }
    return value;
  });
}


/** " (did you mean "x"?)" when a known name is close to the one given, else "". */
function suggestion(given: string, known: readonly string[]): string {
  const closest = closestName(given, known);
  return closest === undefined ? '' : ` (did you mean ${JSON.stringify(closest)}?)`;
}

// ---------------------------------------------------------------------------------------------
// Amounts
// ---------------------------------------------------------------------------------------------

export interface AmountFormat {
  decimalSeparator: '.' | ',';
  thousandsSeparator: string;
}

export interface ReadAmount {
  /** Canonical signed decimal text ("-1234.5"); zero is never negative. */
  decimal: string;
  /** The currency a symbol or code next to the number named (€ is EUR, £ is GBP), else null. */
  currency: string | null;
}

export interface AmountReader {
  /** The amount, or null when the text is not one in this format (or empty). */
  read(text: string): ReadAmount | null;
  /** What an amount in this format looks like, for messages. */
  expected: string;
}

/** Currency symbols read next to a number; $ and ¥ name several currencies, so they say none. */
const CURRENCY_SYMBOLS = new Map<string, string | null>([
  ['€', 'EUR'],
  ['£', 'GBP'],
  ['$', null],
  ['¥', null],
]);
const LEADING_CODE = /^([A-Z]{3})(?=[\s\d+\-−(.,])/;
const TRAILING_CODE = /(?<=[\s\d)])([A-Z]{3})$/;
const ZERO_DECIMAL = /^0(\.0*)?$/;
/** Digits allowed before and after the point: what a ledger's numeric column holds (money.ts). */
const MAX_WHOLE_DIGITS = 18;
const MAX_FRACTION_DIGITS = 6;

/**
 * Compiles the reader of amounts for a mapping's separators. It accepts a leading or trailing
 * minus (SAP writes "1.234,56-"), a leading plus, parentheses for negatives, and a currency
 * symbol (€ £ $ ¥) or ISO code next to the number. The thousands separator is removed only
 * where it groups digits by three, so "1.5" is not read as 15 when "." groups thousands.
 * The number never becomes a JavaScript number.
 */
export function compileAmountReader(format: AmountFormat): AmountReader {
  const decimal = format.decimalSeparator === ',' ? ',' : '\\.';
  const thousands = thousandsPattern(format.thousandsSeparator);
  const body = thousands === null ? new RegExp(`^(\\d*)(?:${decimal}(\\d+))?$`) : new RegExp(`^(\\d{1,3}(?:${thousands}\\d{3})+|\\d*)(?:${decimal}(\\d+))?$`);
  const stripThousands = thousands === null ? null : new RegExp(thousands, 'g');
  const example = format.thousandsSeparator === '' ? `1234${format.decimalSeparator}56` : `1${format.thousandsSeparator === '\u00a0' || format.thousandsSeparator === '\u202f' ? ' ' : format.thousandsSeparator}234${format.decimalSeparator}56`;
  const thousandsWords =
    format.thousandsSeparator === '' ? 'no thousands separator,' : `thousands separator ${format.thousandsSeparator.trim() === '' ? '" " (a space)' : JSON.stringify(format.thousandsSeparator)}`;
  const expected = `an amount with decimal separator ${JSON.stringify(format.decimalSeparator)} and ${thousandsWords} such as ${JSON.stringify(example)}`;

  return {
    expected,
    read(raw: string): ReadAmount | null {
      let text = raw.trim();
      if (text === '') return null;
      let negative = false;
      let signs = 0;
      let currency: string | null = null;
      let currencies = 0;
      if (text.charCodeAt(0) === 40 /* ( */ && text.charCodeAt(text.length - 1) === 41 /* ) */) {
        negative = true;
        signs += 1;
        text = text.slice(1, -1).trim();
      }
      // A sign and a currency may come in either order before the number ("-$12.00", "$-12.00").
      for (let pass = 0; pass < 2 && text !== ''; pass++) {
        const first = text[0] as string;
        if (first === '-' || first === '−' || first === '+') {
          negative = first !== '+';
          signs += 1;
          text = text.slice(1).trimStart();
          continue;
        }
        if (CURRENCY_SYMBOLS.has(first)) {
          currency = CURRENCY_SYMBOLS.get(first) ?? null;
          currencies += 1;
          text = text.slice(1).trimStart();
          continue;
        }
        const code = LEADING_CODE.exec(text);
        if (code) {
          currency = code[1] as string;
          currencies += 1;
          text = text.slice(3).trimStart();
        }
      }
      for (let pass = 0; pass < 2 && text !== ''; pass++) {
        const last = text[text.length - 1] as string;
        if (last === '-' || last === '−' || last === '+') {
          negative = last !== '+';
          signs += 1;
          text = text.slice(0, -1).trimEnd();
          continue;
        }
        if (CURRENCY_SYMBOLS.has(last)) {
          currency = CURRENCY_SYMBOLS.get(last) ?? null;
          currencies += 1;
          text = text.slice(0, -1).trimEnd();
          continue;
        }
        const code = TRAILING_CODE.exec(text);
        if (code) {
          currency = code[1] as string;
          currencies += 1;
          text = text.slice(0, -3).trimEnd();
        }
      }
      if (signs > 1 || currencies > 1) return null;
      const match = body.exec(text);
      if (!match) return null;
      const grouped = match[1] ?? '';
      const fraction = match[2] ?? '';
      if (grouped === '' && fraction === '') return null;
      const whole = (stripThousands === null ? grouped : grouped.replace(stripThousands, '')).replace(/^0+(?=\d)/, '') || '0';
      if (whole.length > MAX_WHOLE_DIGITS || fraction.length > MAX_FRACTION_DIGITS) return null;
      const magnitude = fraction === '' ? whole : `${whole}.${fraction}`;
      return { decimal: negative && !ZERO_DECIMAL.test(magnitude) ? `-${magnitude}` : magnitude, currency };
    },
  };
}

function thousandsPattern(separator: string): string | null {
  switch (separator) {
    case '':
      return null;
    case '.':
      return '\\.';
    case "'":
      return "['\u2019]";
    case ',':
      return ',';
    default:
      // A space, a no-break space or a narrow no-break space: French exports use all three.
      return '[ \\u00a0\\u202f]';
  }
}

function absoluteDecimal(decimal: string): string {
  return decimal.startsWith('-') ? decimal.slice(1) : decimal;
}

// ---------------------------------------------------------------------------------------------
// Dates
// ---------------------------------------------------------------------------------------------

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
  for (let index = 0; index < format.length; ) {
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

/** Formatters by time zone: building one is costly, and a process meets few zones. */
const zoneFormatters = new Map<string, Intl.DateTimeFormat>();

function zoneFormatter(timeZone: string): Intl.DateTimeFormat {
  let formatter = zoneFormatters.get(timeZone);
  if (!formatter) {
    formatter = new Intl.DateTimeFormat('en-US', {
      timeZone,
      hourCycle: 'h23',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
    });
    zoneFormatters.set(timeZone, formatter);
  }
  return formatter;
}

/** Whether a name is an IANA time zone this runtime knows. */
export function isTimeZone(name: string): boolean {
  if (name.length === 0 || name.length > 64) return false;
  try {
    zoneFormatter(name);
    return true;
  } catch {
    return false;
  }
}

/**
 * Offsets already computed, by zone and quarter hour. Since 1970 every zone's offset is a
 * multiple of 15 minutes and changes at a whole quarter hour, so an offset holds for its whole
 * quarter hour; caching it keeps formatToParts, which is slow, out of most rows.
 */
const offsetCache = new Map<string, Map<number, number>>();
const OFFSET_BUCKET_MS = 15 * 60_000;
const OFFSET_CACHE_LIMIT = 20_000;

/** The zone's offset from UTC at an instant, in milliseconds (positive east of Greenwich). */
function zoneOffsetMs(timeZone: string, epochMs: number): number {
  const bucket = Math.floor(epochMs / OFFSET_BUCKET_MS);
  let cache = offsetCache.get(timeZone);
  if (!cache) {
    cache = new Map();
    offsetCache.set(timeZone, cache);
  }
  const cached = cache.get(bucket);
  if (cached !== undefined) return cached;
  const offset = computeZoneOffsetMs(timeZone, bucket * OFFSET_BUCKET_MS);
  if (cache.size >= OFFSET_CACHE_LIMIT) cache.clear();
  cache.set(bucket, offset);
  return offset;
}

function computeZoneOffsetMs(timeZone: string, epochMs: number): number {
  const parts = zoneFormatter(timeZone).formatToParts(new Date(epochMs));
  let year = 0;
  let month = 0;
  let day = 0;
  let hour = 0;
  let minute = 0;
  let second = 0;
  for (const part of parts) {
    switch (part.type) {
      case 'year':
        year = Number(part.value);
        break;
      case 'month':
        month = Number(part.value);
        break;
      case 'day':
        day = Number(part.value);
        break;
      case 'hour':
        hour = Number(part.value);
        break;
      case 'minute':
        minute = Number(part.value);
        break;
      case 'second':
        second = Number(part.value);
        break;
    }
  }
  const wholeSeconds = epochMs - (((epochMs % 1000) + 1000) % 1000);
  return Date.UTC(year, month - 1, day, hour, minute, second) - wholeSeconds;
}

const DAY_MS = 86_400_000;

/**
 * The instant of a wall-clock time in a zone. Around a change of offset, a time that occurs
 * twice (autumn) is taken at its first occurrence, and a time that does not exist (spring) is
 * moved forward by the gap, as ECMAScript Temporal's "compatible" disambiguation does.
 */
export function zonedTimeToEpochMs(date: string, time: NonNullable<ReadDate['time']>, timeZone: string): number {
  const [year, month, day] = date.split('-').map(Number) as [number, number, number];
  const local = Date.UTC(year, month - 1, day, time.hour, time.minute, time.second, time.millisecond);
  if (timeZone === 'UTC' || timeZone === 'Etc/UTC') return local;
  const before = zoneOffsetMs(timeZone, local - DAY_MS);
  const after = zoneOffsetMs(timeZone, local + DAY_MS);
  const candidates = [before, after].filter((offset) => zoneOffsetMs(timeZone, local - offset) === offset).map((offset) => local - offset);
  if (candidates.length > 0) return Math.min(...candidates);
  // In the gap: the offset from before the change carries the time forward past it.
  return local - before;
}

// ---------------------------------------------------------------------------------------------
// Sniffing
// ---------------------------------------------------------------------------------------------

const SNIFF_DELIMITERS = [',', ';', '\t', '|'];
/** The length of the head the importer passes; a head this long may end inside a line. */
const SNIFF_HEAD_LENGTH = 4096;
/** Records of the head looked at for each delimiter. */
const SNIFF_RECORD_LIMIT = 200;

/**
 * Whether the head of a file (decoded as latin1) is delimited text: the fallback format, so it
 * claims nothing that another format would. XML (camt, OFX 2.x), OFX 1.x headers, SWIFT MT940
 * and MT942 (`{1:` blocks or `:20:`-style tags) and BAI2 (`01,` file headers) are left to their
 * parsers; what remains is CSV when one delimiter cuts at least two lines into the same number
 * (two or more) of fields.
 */
export function sniffCsv(head: string): 'csv' | null {
  let text = head;
  if (text.startsWith('\u00ef\u00bb\u00bf')) text = text.slice(3);
  else if (text.startsWith('\u00ff\u00fe') || text.startsWith('\u00fe\u00ff')) text = text.slice(2).replaceAll('\u0000', '');
  else if (looksLikeUtf16(text)) text = text.replaceAll('\u0000', '');
  if (text.includes('\u0000')) return null;
  const start = text.trimStart();
  if (start === '' || start.startsWith('<')) return null;
  if (/^(OFXHEADER|DATA:OFXSGML|\{1:|\{2:|\{4:)/i.test(start)) return null;
  if (/^:\d{2}[A-Z]?:/m.test(text)) return null;
  if (/^01,/.test(start)) return null;
  let controls = 0;
  for (let index = 0; index < text.length; index++) {
    const code = text.charCodeAt(index);
    if (code < 32 && code !== 9 && code !== 10 && code !== 13) controls += 1;
  }
  if (controls > text.length / 100) return null;
  // A head cut at its full length may end inside a row: that row is left out.
  let sample = text;
  if (head.length >= SNIFF_HEAD_LENGTH) {
    const lastBreak = Math.max(sample.lastIndexOf('\n'), sample.lastIndexOf('\r'));
    if (lastBreak > 0) sample = sample.slice(0, lastBreak);
  }
  for (const delimiter of SNIFF_DELIMITERS) {
    const records = splitSample(sample, delimiter, '"', SNIFF_RECORD_LIMIT);
    let run = 0;
    let previous = -1;
    for (const record of records) {
      const fields = record.fields.length;
      run = fields >= 2 && fields === previous ? run + 1 : 1;
      previous = fields;
      if (fields >= 2 && (run >= 2 || records.length === 1)) return 'csv';
    }
  }
  return null;
}

/** UTF-16 text without a byte-order mark read as latin1: every other character is NUL. */
function looksLikeUtf16(text: string): boolean {
  const sample = text.slice(0, 200);
  if (sample.length < 8) return false;
  let nulls = 0;
  for (let index = 0; index < sample.length; index++) if (sample.charCodeAt(index) === 0) nulls += 1;
  return nulls >= sample.length * 0.4;
}

export interface SampleRecord {
  fields: string[];
  /** 1-based line where the record starts. */
  line: number;
  /** Whether a quote stood inside a field rather than around it (kept as text). */
  strayQuote: boolean;
}

/**
 * Cuts a sample of text (a file's head, held in memory) into records, for sniffing and for the
 * preview's guesses. Quoted fields may hold delimiters and line breaks; a quote is one only at
 * the start of a field, and a stray one after a closing quote is kept as text, so that a
 * guess never fails where csv-parse would. Empty lines are left out.
 */
export function splitSample(text: string, delimiter: string, quote: string | null, recordLimit: number): SampleRecord[] {
  const records: SampleRecord[] = [];
  let fields: string[] = [];
  let field = '';
  let quoted = false;
  let fieldWasQuoted = false;
  let recordHasContent = false;
  let strayQuote = false;
  let line = 1;
  let recordLine = 1;
  const finishRecord = () => {
    fields.push(field);
    if (recordHasContent) records.push({ fields, line: recordLine, strayQuote });
    fields = [];
    field = '';
    fieldWasQuoted = false;
    recordHasContent = false;
    strayQuote = false;
  };
  for (let index = 0; index < text.length && records.length < recordLimit; index++) {
    const character = text[index] as string;
    if (quoted) {
      if (character === quote) {
        if (text[index + 1] === quote) {
          field += character;
          index += 1;
        } else quoted = false;
        continue;
      }
      if (character === '\r' || character === '\n') {
        line += 1;
        if (character === '\r' && text[index + 1] === '\n') {
          field += '\r';
          index += 1;
          field += '\n';
          continue;
        }
      }
      field += character;
      continue;
    }
    if (character === '\r' || character === '\n') {
      if (character === '\r' && text[index + 1] === '\n') index += 1;
      finishRecord();
      line += 1;
      recordLine = line;
      continue;
    }
    recordHasContent = true;
    if (character === quote) {
      if (field === '' && !fieldWasQuoted) {
        quoted = true;
        fieldWasQuoted = true;
        continue;
      }
      strayQuote = true;
    }
    if (text.startsWith(delimiter, index)) {
      fields.push(field);
      field = '';
      fieldWasQuoted = false;
      index += delimiter.length - 1;
      continue;
    }
    field += character;
  }
  if (records.length < recordLimit && recordHasContent) finishRecord();
  return records;
}

// ---------------------------------------------------------------------------------------------
// A header naming the standard columns
// ---------------------------------------------------------------------------------------------

/**
 * The mapping for a file whose header names the dataset's columns themselves ("timestamp",
 * "amount", "description", bank columns, custom columns, and "externalId"), compared without
 * regard to case or surrounding spaces. Such a file imports without a mapping; its dates are
 * ISO 8601 and its amounts plain decimals ("-12.50"). Null when the header lacks a date or an
 * amount column. The delimiter is not known from the header's fields: the caller sets it.
 */
export function mappingFromHeader(header: readonly string[], customColumns: readonly CsvCustomColumn[] = []): CsvMapping | null {
  const names = new Map<string, string>();
  for (const name of [...KNOWN_TARGETS, ...customColumns.map((column) => column.name)]) names.set(name.toLowerCase(), name);
  const columns: Record<string, CsvColumnSource> = {};
  let externalId: string | null = null;
  for (const field of header) {
    const key = field.trim().toLowerCase();
    if (key === 'externalid' && externalId === null) {
      externalId = field;
      continue;
    }
    const target = names.get(key);
    if (target !== undefined && columns[target] === undefined) columns[target] = field;
  }
  if (columns.amount === undefined || (columns.timestamp === undefined && columns.bookingDate === undefined)) return null;
  const mapping: CsvMapping = { header: true, decimalSeparator: '.', thousandsSeparator: '', dateFormat: 'ISO', columns };
  if (externalId !== null) mapping.externalId = [externalId];
  return mapping;
}

// ---------------------------------------------------------------------------------------------
// Reading records
// ---------------------------------------------------------------------------------------------

interface CsvRecord {
  fields: string[];
  /** 1-based line of the file where the record starts. */
  line: number;
}

interface RecordSettings {
  delimiter: string;
  quote: string | null;
  skipRows: number;
  /** Whether the first record is a header, for messages. */
  header: boolean;
}

/** What the feeder learned that the reader needs for its messages. */
interface FeedState {
  /** Lines dropped by skipRows (fewer than asked when the file is shorter). */
  skippedLines: number;
}

/** Counts line breaks as readLines does: CRLF, LF or a lone CR each end one line. */
function lineBreaks(text: string): number {
  let count = 0;
  for (let index = 0; index < text.length; index++) {
    const code = text.charCodeAt(index);
    if (code === 10) count += 1;
    else if (code === 13) {
      count += 1;
      if (text.charCodeAt(index + 1) === 10) index += 1;
    }
  }
  return count;
}

function lineBreaksInRecord(fields: readonly string[]): number {
  let count = 0;
  for (const field of fields) {
    if (field.indexOf('\n') !== -1 || field.indexOf('\r') !== -1) count += lineBreaks(field);
  }
  return count;
}

function waitForDrain(parser: Parser): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      parser.off('drain', done);
      parser.off('close', done);
      resolve();
    };
    parser.on('drain', done);
    parser.on('close', done);
  });
}

/**
 * Writes the text into the parser with back-pressure, after dropping `skipRows` lines (done
 * here rather than by csv-parse, so that quotes in the lines before the header, which are not
 * CSV, cannot derail it). A high surrogate at the end of a chunk waits for its partner, so that
 * no character is cut in two when the text is turned into bytes. Never rejects: a failure
 * destroys the parser with it, and the reader sees it.
 */
async function feedParser(text: AsyncIterable<string>, parser: Parser, skipRows: number, state: FeedState): Promise<void> {
  let linesToSkip = skipRows;
  let skippedLineLength = 0;
  let afterCarriageReturn = false;
  let heldSurrogate = '';
  try {
    for await (const original of text) {
      if (parser.destroyed) return;
      let chunk = original;
      if (afterCarriageReturn && chunk.length > 0) {
        if (chunk.charCodeAt(0) === 10) chunk = chunk.slice(1);
        afterCarriageReturn = false;
      }
      while (linesToSkip > 0 && chunk.length > 0) {
        let end = -1;
        for (let index = 0; index < chunk.length; index++) {
          const code = chunk.charCodeAt(index);
          if (code === 10 || code === 13) {
            end = index;
            break;
          }
        }
        if (end === -1) {
          skippedLineLength += chunk.length;
          chunk = '';
        } else {
          skippedLineLength += end;
          const carriageReturn = chunk.charCodeAt(end) === 13;
          let next = end + 1;
          if (carriageReturn && chunk.charCodeAt(next) === 10) next += 1;
          else if (carriageReturn && next === chunk.length) afterCarriageReturn = true;
          chunk = chunk.slice(next);
          linesToSkip -= 1;
          state.skippedLines += 1;
          skippedLineLength = 0;
        }
        if (skippedLineLength > LINE_LENGTH_LIMIT) {
          throw new ImportFormatError(
            { line: state.skippedLines + 1 },
            `a line longer than ${LINE_LENGTH_LIMIT} characters among the ${skipRows} lines skipRows drops`,
            `short lines of account details before the header; is this the right file?`,
          );
        }
      }
      if (chunk === '') continue;
      chunk = heldSurrogate + chunk;
      heldSurrogate = '';
      const last = chunk.charCodeAt(chunk.length - 1);
      if (last >= 0xd800 && last <= 0xdbff) {
        heldSurrogate = chunk.slice(-1);
        chunk = chunk.slice(0, -1);
        if (chunk === '') continue;
      }
      if (!parser.write(chunk)) await waitForDrain(parser);
    }
    if (linesToSkip > 0 && skippedLineLength > 0) state.skippedLines += 1;
    if (parser.destroyed) return;
    if (heldSurrogate !== '') parser.write(heldSurrogate);
    parser.end();
  } catch (error) {
    if (!parser.destroyed) parser.destroy(error instanceof Error ? error : new Error(String(error)));
  }
}

/**
 * The records of the text with the line each starts on. csv-parse's own line count counts a
 * CRLF inside a quoted field twice, so lines are counted here: a record starts after the
 * previous one's line breaks (those inside its quoted fields plus the one that ends it) and the
 * empty lines csv-parse skipped in between. The count is kept in csv-parse's record hook, which
 * runs in file order as the parser goes, so that it is right even for an error met while
 * earlier records still wait to be read.
 */
async function* readRecords(text: AsyncIterable<string>, settings: RecordSettings, state: FeedState): AsyncGenerator<CsvRecord> {
  const count = { nextLine: settings.skipRows + 1, emptyLinesSeen: 0, expectedFields: -1 };
  const parser = parse({
    delimiter: settings.delimiter,
    quote: settings.quote ?? false,
    escape: settings.quote ?? false,
    record_delimiter: ['\r\n', '\n', '\r'],
    bom: true,
    skip_empty_lines: true,
    // Rows of another width than the first come through: longer ones so that trailing empty
    // fields (a delimiter at the end of every data row, as some banks write) can be told from
    // real extra fields, shorter ones so that a skip rule may leave out a closing balance line
    // (Deutsche Bank's "Kontostand;…"). The reader refuses every other such row itself.
    relax_column_count: true,
    max_record_size: CSV_LIMITS.maxRecordLength,
    // The hook receives the parser's context (lines and empty lines so far) with each record,
    // which is all the line count needs; `info: true` would build that context a second time
    // per record. The hook may return any value; the typings know only plain records.
    on_record: ((record: string[], context: InfoRecord): CsvRecord => {
      const line = count.nextLine + (context.empty_lines - count.emptyLinesSeen);
      count.emptyLinesSeen = context.empty_lines;
      count.nextLine = line + lineBreaksInRecord(record) + 1;
      if (count.expectedFields < 0) count.expectedFields = record.length;
      return { fields: record, line };
    }) as unknown as Options['on_record'],
  });
  const feeding = feedParser(text, parser, settings.skipRows, state);
  try {
    for await (const record of parser as AsyncIterable<CsvRecord>) yield record;
  } catch (error) {
    if (error instanceof CsvError) {
      const emptyLines = typeof error.empty_lines === 'number' ? error.empty_lines : count.emptyLinesSeen;
      throw csvErrorToImportError(error, count.nextLine + (emptyLines - count.emptyLinesSeen), count.expectedFields, settings);
    }
    throw error;
  } finally {
    if (!parser.destroyed) parser.destroy();
    // The feeder stops by itself once it sees the parser destroyed; waiting for it could wait
    // on a source that is slow to give its next chunk.
    void feeding;
  }
}

/** A row shorter than the header (or the first row), which no skip rule leaves out. */
function fewerFieldsError(line: number, fields: number | null, expectedFields: number, settings: Pick<RecordSettings, 'delimiter' | 'header'>): ImportFormatError {
  return new ImportFormatError(
    { line },
    fields === null ? 'a row with a different number of fields' : `${fields} field${fields === 1 ? '' : 's'}`,
    `${expectedFields} fields separated by ${JSON.stringify(settings.delimiter)}, as in the ${settings.header ? 'header' : 'first row'}; a balance or total line at the end of an export must be removed or left out by a skip rule, and a field containing the delimiter must be quoted`,
  );
}

function csvErrorToImportError(error: CsvError, line: number, expectedFields: number, settings: RecordSettings): ImportFormatError {
  const quote = settings.quote === null ? null : JSON.stringify(settings.quote);
  switch (error.code) {
    case 'CSV_RECORD_INCONSISTENT_FIELDS_LENGTH':
    case 'CSV_RECORD_INCONSISTENT_COLUMNS': {
      const record = Array.isArray(error.record) ? (error.record as unknown[]) : null;
      return fewerFieldsError(line, record === null ? null : record.length, expectedFields, settings);
    }
    case 'CSV_MAX_RECORD_SIZE':
      return new ImportFormatError(
        { line },
        `a row longer than ${CSV_LIMITS.maxRecordLength} characters`,
        `rows of at most ${CSV_LIMITS.maxRecordLength} characters; check the delimiter (${JSON.stringify(settings.delimiter)})${quote === null ? '' : ` and that no quote (${quote}) is left open`}, and that this is a CSV file`,
      );
    case 'CSV_QUOTE_NOT_CLOSED':
      return new ImportFormatError(
        { line },
        `a field opened with the quote ${quote ?? ''} that is never closed`,
        `every quoted field closed by a quote; if quotes in this file are ordinary characters, set the mapping's "quote" to null`,
      );
    case 'CSV_INVALID_CLOSING_QUOTE':
      return new ImportFormatError(
        { line },
        `a closing quote ${quote ?? ''} followed by other characters`,
        `the delimiter or the end of the line after a closing quote; a quote inside a quoted field is written twice`,
      );
    case 'INVALID_OPENING_QUOTE':
      return new ImportFormatError(
        { line },
        `a quote ${quote ?? ''} inside a field that does not start with one`,
        `quotes only around whole fields; if quotes in this file are ordinary characters, set the mapping's "quote" to null`,
      );
    default:
      return new ImportFormatError({ line }, `text that is not CSV (${error.code})`, `rows of fields separated by ${JSON.stringify(settings.delimiter)}`);
  }
}

// ---------------------------------------------------------------------------------------------
// Parsing
// ---------------------------------------------------------------------------------------------

export interface CsvParseOptions {
  mapping: CsvMapping;
  customColumns: readonly CsvCustomColumn[];
}

type AmountPlan =
  | { kind: 'signed'; column: number }
  | { kind: 'split'; debit: number; credit: number }
  | { kind: 'indicator'; column: number; indicator: number; debit: Set<string>; credit: Set<string>; expected: string };

interface CustomPlan {
  name: string;
  type: CsvColumnType;
  sources: number[];
}

/** The mapping resolved against the header: every column as an index, every reader compiled. */
interface Plan {
  labels: string[];
  texts: Array<{ target: TextTarget; sources: number[] }>;
  timestamp: number[] | null;
  bookingDate: number[] | null;
  valueDate: number[] | null;
  currency: number[] | null;
  amount: AmountPlan;
  custom: CustomPlan[];
  externalId: number[] | null;
  skip: Array<{ column: number; values: Set<string> }>;
}

const BOOLEAN_TRUE = new Set(['true', 'yes', 'y', '1', 'ja', 'j', 'oui', 'si', 'sí', 'x', 'waar']);
const BOOLEAN_FALSE = new Set(['false', 'no', 'n', '0', 'nein', 'non', 'onwaar']);
const LINE_BREAK_RUN = /\s*[\r\n]+\s*/g;

/**
 * Reads a CSV file with a mapping. Yields an entry per row (rows a skip rule matches are left
 * out), then warnings gathered on the way, then the one statement of the file. A row whose
 * date or amount does not read with the mapping, a header without a column the mapping names,
 * or text that is not CSV is an ImportFormatError naming the line, the column, what was found
 * and what was expected. An invalid mapping is a MappingError, before anything is read.
 */
export async function* parseCsv(text: AsyncIterable<string>, options: CsvParseOptions): AsyncGenerator<ParseEvent> {
  const mapping = checkCsvMapping(options.mapping, options.customColumns);
  const header = mapping.header ?? CSV_MAPPING_DEFAULTS.header;
  const delimiter = mapping.delimiter ?? CSV_MAPPING_DEFAULTS.delimiter;
  const quote = mapping.quote === undefined ? CSV_MAPPING_DEFAULTS.quote : mapping.quote;
  const skipRows = mapping.skipRows ?? CSV_MAPPING_DEFAULTS.skipRows;
  const amounts = compileAmountReader({
    decimalSeparator: mapping.decimalSeparator ?? CSV_MAPPING_DEFAULTS.decimalSeparator,
    thousandsSeparator: mapping.thousandsSeparator ?? CSV_MAPPING_DEFAULTS.thousandsSeparator,
  });
  const dates = compileDateFormat(mapping.dateFormat ?? CSV_MAPPING_DEFAULTS.dateFormat) as CompiledDateFormat;
  const timezone = mapping.timezone ?? CSV_MAPPING_DEFAULTS.timezone;
  const invertSign = mapping.invertSign ?? CSV_MAPPING_DEFAULTS.invertSign;
  const constantCurrency = mapping.currency ?? null;

  if (constantCurrency === null && mapping.columns.currency === undefined) {
    yield {
      kind: 'warning',
      line: null,
      message: 'the mapping names no currency column and no constant "currency": the entries have no currency unless an amount carries a symbol or code',
    };
  }

  const state: FeedState = { skippedLines: 0 };
  let plan: Plan | null = null;
  let headerLine: number | null = null;
  let fieldCount = 0;
  /** Fields a row must have: a header's trailing empty names (a delimiter at its end) need no field. */
  let requiredFieldCount = 0;
  let rows = 0;
  let skipped = 0;
  let firstSkippedLine: number | null = null;
  let warnedTrailingFields = false;
  const statement = { accountId: new SameValue(), statementId: new SameValue(), currency: new SameValue() };

  for await (const record of readRecords(text, { delimiter, quote, skipRows, header }, state)) {
    let fields = record.fields;
    if (plan === null) {
      fieldCount = fields.length;
      requiredFieldCount = header ? namedHeaderWidth(fields) : fieldCount;
      if (fieldCount > CSV_LIMITS.columnLimit) {
        throw new ImportFormatError({ line: record.line }, `${fieldCount} fields`, `at most ${CSV_LIMITS.columnLimit} columns; check the delimiter (${JSON.stringify(delimiter)})`);
      }
      plan = resolvePlan(mapping, options.customColumns, header ? fields : null, fieldCount, record.line, delimiter);
      if (header) {
        headerLine = record.line;
        continue;
      }
    }
    rows += 1;
    // A skip rule leaves a row out whatever its width: a closing balance or total line may be
    // shorter or longer than the table; any other row of another width is refused.
    if (matchesSkipRule(plan, fields)) {
      skipped += 1;
      firstSkippedLine ??= record.line;
      continue;
    }
    if (fields.length < fieldCount) {
      if (fields.length < requiredFieldCount) throw fewerFieldsError(record.line, fields.length, requiredFieldCount, { delimiter, header });
      // The header ends with empty names the row does not repeat: those fields are empty.
      fields = [...fields, ...Array<string>(fieldCount - fields.length).fill('')];
    }
    if (fields.length > fieldCount) {
      for (let index = fieldCount; index < fields.length; index++) {
        if ((fields[index] as string).trim() !== '') {
          throw new ImportFormatError(
            { line: record.line },
            `${fields.length} fields, the last ones not empty`,
            `${fieldCount} fields separated by ${JSON.stringify(delimiter)}, as in the ${header ? 'header' : 'first row'}; a field containing the delimiter must be quoted`,
          );
        }
      }
      if (!warnedTrailingFields) {
        warnedTrailingFields = true;
        yield {
          kind: 'warning',
          line: record.line,
          message: `rows end with empty fields that the ${header ? 'header' : 'first row'} does not have (a delimiter at the end of each row, first at line ${record.line}); they are ignored`,
        };
      }
    }
    const entry = buildEntry(plan, fields, record.line, { amounts, dates, timezone, invertSign, constantCurrency });
    statement.accountId.see(entry.accountId);
    statement.statementId.see(entry.statementId);
    statement.currency.see(entry.currency);
    yield { kind: 'entry', entry };
  }

  if (plan === null) {
    if (skipRows > 0 && state.skippedLines <= skipRows) {
      throw new ImportFormatError(
        { line: state.skippedLines === 0 ? 1 : state.skippedLines },
        state.skippedLines === 0 ? 'an empty file' : `only ${state.skippedLines} line${state.skippedLines === 1 ? '' : 's'}, all dropped by skipRows (${skipRows})`,
        `${header ? 'a header and rows' : 'rows'} after the first ${skipRows} lines; check skipRows`,
      );
    }
    throw new ImportFormatError({ line: 1 }, 'an empty file', `${header ? 'a header line naming the columns, then rows' : 'rows'} of fields separated by ${JSON.stringify(delimiter)}`);
  }
  if (rows === 0) {
    yield { kind: 'warning', line: headerLine, message: 'the file has a header but no rows: nothing to import' };
  }
  if (skipped > 0) {
    yield {
      kind: 'warning',
      line: firstSkippedLine,
      message: `${skipped} row${skipped === 1 ? ' was' : 's were'} left out by the mapping's skip rules (the first at line ${firstSkippedLine})`,
    };
  }
  yield {
    kind: 'statement',
    statement: {
      statementIndex: 0,
      line: 1,
      accountId: statement.accountId.value(),
      statementId: statement.statementId.value(),
      currency: constantCurrency ?? statement.currency.value(),
      openingBalance: null,
      closingBalance: null,
    },
  };
}

/** Tracks whether every entry had the same value (the statement's account, id, currency). */
class SameValue {
  private first: string | null = null;
  private seen = false;
  private same = true;

  see(value: string | null): void {
    if (!this.seen) {
      this.seen = true;
      this.first = value;
    } else if (value !== this.first) this.same = false;
  }

  value(): string | null {
    return this.same ? this.first : null;
  }
}

/** The width of a header without its trailing empty names; at least one field. */
export function namedHeaderWidth(header: readonly string[]): number {
  let width = header.length;
  while (width > 1 && (header[width - 1] as string).trim() === '') width -= 1;
  return width;
}

/** Whether a skip rule leaves the row out; a rule on a column a short row lacks does not. */
function matchesSkipRule(plan: Plan, fields: readonly string[]): boolean {
  for (const rule of plan.skip) {
    const value = fields[rule.column];
    if (value !== undefined && rule.values.has(value.trim())) return true;
  }
  return false;
}

/**
 * Turns the mapping's column references into field indexes, against the header (or, without
 * one, the first row's width). A header without a named column is the file's fault, said at the
 * header's line with the header's columns listed.
 */
function resolvePlan(mapping: CsvMapping, customColumns: readonly CsvCustomColumn[], header: string[] | null, fieldCount: number, line: number, delimiter: string): Plan {
  const labels = header === null ? Array.from({ length: fieldCount }, (_, index) => `index ${index}`) : header.map((name) => name.trim());
  const resolve = (reference: CsvColumnReference, what: string): number => {
    if (typeof reference === 'number') {
      if (reference >= fieldCount) {
        throw new ImportFormatError(
          { line, column: `index ${reference}` },
          `${header === null ? 'rows' : 'a header'} of ${fieldCount} field${fieldCount === 1 ? '' : 's'} (indexes 0 to ${fieldCount - 1})`,
          `a field at index ${reference}, which the mapping's ${what} names; check the delimiter (${JSON.stringify(delimiter)}) and the index`,
        );
      }
      return reference;
    }
    const exact: number[] = [];
    const loose: number[] = [];
    const wanted = reference.trim().toLowerCase();
    labels.forEach((label, index) => {
      if ((header as string[])[index] === reference) exact.push(index);
      else if (label.toLowerCase() === wanted) loose.push(index);
    });
    const found = exact.length > 0 ? exact : loose;
    if (found.length === 1) return found[0] as number;
    if (found.length > 1) {
      throw new ImportFormatError(
        { line, column: reference },
        `${found.length} header columns named so (indexes ${found.join(', ')})`,
        `one column of that name for the mapping's ${what}; name the one you mean by its 0-based index instead`,
      );
    }
    throw new ImportFormatError(
      { line, column: reference },
      `a header without this column (its columns: ${listLabels(labels)})`,
      `a column named ${JSON.stringify(reference)}, which the mapping's ${what} names; check the delimiter (${JSON.stringify(delimiter)}), skipRows and the column's spelling`,
    );
  };
  const sources = (target: string): number[] | null => {
    const source = mapping.columns[target];
    if (source === undefined) return null;
    const list = Array.isArray(source) ? source : [source];
    return list.map((reference) => resolve(reference, `columns.${target}`));
  };

  let amount: AmountPlan;
  const split = mapping.amount;
  if (split === undefined) amount = { kind: 'signed', column: (sources('amount') as number[])[0] as number };
  else if ('debit' in split) amount = { kind: 'split', debit: resolve(split.debit, 'amount.debit'), credit: resolve(split.credit, 'amount.credit') };
  else {
    const values = (list: readonly string[]) => new Set(list.map((value) => value.trim().toLowerCase()));
    amount = {
      kind: 'indicator',
      column: resolve(split.column, 'amount.column'),
      indicator: resolve(split.indicator.column, 'amount.indicator.column'),
      debit: values(split.indicator.debit),
      credit: values(split.indicator.credit),
      expected: `one of ${split.indicator.debit.map((value) => JSON.stringify(value)).join(', ')} (money out) or ${split.indicator.credit.map((value) => JSON.stringify(value)).join(', ')} (money in)`,
    };
  }

  const custom: CustomPlan[] = [];
  for (const column of customColumns) {
    const list = sources(column.name);
    if (list !== null) custom.push({ name: column.name, type: column.type, sources: list });
  }

  return {
    labels,
    texts: TEXT_TARGETS.flatMap((target) => {
      const list = sources(target);
      return list === null ? [] : [{ target, sources: list }];
    }),
    timestamp: sources('timestamp'),
    bookingDate: sources('bookingDate'),
    valueDate: sources('valueDate'),
    currency: sources('currency'),
    amount,
    custom,
    externalId: mapping.externalId?.map((reference) => resolve(reference, 'externalId')) ?? null,
    skip: (mapping.skip ?? []).map((rule, index) => ({ column: resolve(rule.column, `skip[${index}]`), values: new Set(rule.equals.map((value) => value.trim())) })),
  };
}

function listLabels(labels: readonly string[]): string {
  const shown = labels.slice(0, 30).map((label) => JSON.stringify(label.length > 40 ? `${label.slice(0, 40)}…` : label));
  return labels.length > 30 ? `${shown.join(', ')} and ${labels.length - 30} more` : shown.join(', ');
}

interface RowReaders {
  amounts: AmountReader;
  dates: CompiledDateFormat;
  timezone: string;
  invertSign: boolean;
  constantCurrency: string | null;
}

/** A field as text: trimmed, with line breaks inside a quoted field turned into one space. */
function cleanText(value: string): string {
  const trimmed = value.trim();
  return trimmed.indexOf('\n') === -1 && trimmed.indexOf('\r') === -1 ? trimmed : trimmed.replace(LINE_BREAK_RUN, ' ');
}

/** The joined value of a target's source columns, or "" when they are all empty. */
function joined(fields: readonly string[], sources: readonly number[]): string {
  if (sources.length === 1) return cleanText(fields[sources[0] as number] as string);
  let result = '';
  for (const source of sources) {
    const part = cleanText(fields[source] as string);
    if (part !== '') result = result === '' ? part : `${result} ${part}`;
  }
  return result;
}

function sourceLabel(plan: Plan, sources: readonly number[]): string {
  return sources.map((source) => plan.labels[source] as string).join(' + ');
}

function buildEntry(plan: Plan, fields: readonly string[], line: number, readers: RowReaders): StatementEntry {
  const entry = emptyEntry(line, 0, '0');
  for (let index = 0; index < fields.length; index++) {
    if ((fields[index] as string).indexOf('\u0000') !== -1) {
      throw new ImportFormatError({ line, column: plan.labels[index] ?? `index ${index}` }, 'a NUL character', 'text; a NUL character means a binary file or a wrong encoding');
    }
  }

  for (const { target, sources } of plan.texts) {
    const value = joined(fields, sources);
    if (value.length > STRING_VALUE_MAX_LENGTH) {
      throw new ImportFormatError({ line, column: sourceLabel(plan, sources) }, `a text of ${value.length} characters`, `at most ${STRING_VALUE_MAX_LENGTH} characters`);
    }
    entry[target] = value === '' ? null : value;
  }

  // Dates: the booking date (with its time when the format has one), then the value date.
  if (plan.timestamp !== null && plan.bookingDate !== null) readMomentAndBookingDate(plan, fields, line, readers, entry);
  else {
    const bookingSources = (plan.timestamp ?? plan.bookingDate) as number[];
    const value = joined(fields, bookingSources);
    const read = readers.dates.read(value);
    if (read === null) throw new ImportFormatError({ line, column: sourceLabel(plan, bookingSources) }, quoteFound(value), readers.dates.expected);
    entry.bookingDate = read.date;
    if (plan.timestamp !== null && read.time !== null) entry.bookingTimeMs = instantOf(read, readers.timezone);
  }
  if (plan.valueDate !== null) {
    const value = joined(fields, plan.valueDate);
    if (value !== '') {
      const read = readers.dates.read(value);
      if (read === null) throw new ImportFormatError({ line, column: sourceLabel(plan, plan.valueDate) }, quoteFound(value), readers.dates.expected);
      entry.valueDate = read.date;
    }
  }

  // Currency: the row's column, else the constant; a code or symbol on the amount may fill it.
  let currency = readers.constantCurrency;
  if (plan.currency !== null) {
    const value = joined(fields, plan.currency);
    if (value !== '') currency = readCurrency(value, line, sourceLabel(plan, plan.currency));
  }

  const read = readAmount(plan, fields, line, readers.amounts);
  if (read.currency !== null) {
    if (currency === null) currency = read.currency;
    else if (plan.currency !== null && read.currency !== currency) {
      throw new ImportFormatError({ line, column: read.label }, `an amount in ${read.currency} on a row whose currency is ${currency}`, 'the amount in the currency of its row');
    }
  }
  let amount = read.decimal;
  if (readers.invertSign) amount = negateDecimal(amount);
  entry.amount = withCurrencyScale(amount, currency);
  entry.currency = currency;

  for (const column of plan.custom) {
    const value = joined(fields, column.sources);
    if (value === '') continue;
    entry.extra[column.name] = customValue(column, value, line, sourceLabel(plan, column.sources), readers);
  }

  if (plan.externalId !== null) {
    const parts: string[] = [];
    for (const source of plan.externalId) {
      const value = cleanText(fields[source] as string);
      if (value === '') {
        throw new ImportFormatError({ line, column: plan.labels[source] as string }, '""', "a value: the mapping's externalId columns together identify each row");
      }
      parts.push(value);
    }
    entry.uniqueId = parts.join('|');
  }
  return entry;
}

/**
 * A mapping that names both `timestamp` and `bookingDate` (a card export's transaction date and
 * its posting date): the first gives the transaction's moment (its instant with a time, else
 * midnight UTC of its day, as bank dates are stored), the second the booking date as written.
 * One of the two may be empty on a row (a card payment not yet posted), not both.
 */
function readMomentAndBookingDate(plan: Plan, fields: readonly string[], line: number, readers: RowReaders, entry: StatementEntry): void {
  const momentSources = plan.timestamp as number[];
  const bookingSources = plan.bookingDate as number[];
  const moment = joined(fields, momentSources);
  const booking = joined(fields, bookingSources);
  if (moment === '' && booking === '') {
    throw new ImportFormatError(
      { line, column: sourceLabel(plan, momentSources) },
      `no date in ${JSON.stringify(sourceLabel(plan, momentSources))} nor in ${JSON.stringify(sourceLabel(plan, bookingSources))}`,
      `${readers.dates.expected} in at least one of them`,
    );
  }
  if (booking !== '') {
    const read = readers.dates.read(booking);
    if (read === null) throw new ImportFormatError({ line, column: sourceLabel(plan, bookingSources) }, quoteFound(booking), readers.dates.expected);
    entry.bookingDate = read.date;
  }
  if (moment !== '') {
    const read = readers.dates.read(moment);
    if (read === null) throw new ImportFormatError({ line, column: sourceLabel(plan, momentSources) }, quoteFound(moment), readers.dates.expected);
    entry.bookingTimeMs = read.time === null ? calendarDateToEpochMs(read.date) : instantOf(read, readers.timezone);
  }
}

/** The instant of a date with a time: at the offset the value names, else in the mapping's zone. */
function instantOf(read: ReadDate, timezone: string): number {
  const time = read.time as NonNullable<ReadDate['time']>;
  if (read.offsetMinutes === null) return zonedTimeToEpochMs(read.date, time, timezone);
  return zonedTimeToEpochMs(read.date, time, 'UTC') - read.offsetMinutes * 60_000;
}

function readCurrency(value: string, line: number, column: string): string {
  const symbol = CURRENCY_SYMBOLS.get(value);
  if (symbol) return symbol;
  if (!CURRENCY_PATTERN.test(value)) throw new ImportFormatError({ line, column }, quoteFound(value), 'a currency code such as "EUR" or "USD" (or the symbol € or £)');
  return value.toUpperCase();
}

function readAmount(plan: Plan, fields: readonly string[], line: number, amounts: AmountReader): ReadAmount & { label: string } {
  const amount = plan.amount;
  const readColumn = (column: number): ReadAmount | null => {
    const text = fields[column] as string;
    const read = amounts.read(text);
    if (read === null && text.trim() !== '') throw new ImportFormatError({ line, column: plan.labels[column] as string }, quoteFound(text.trim()), amounts.expected);
    return read;
  };
  switch (amount.kind) {
    case 'signed': {
      const read = readColumn(amount.column);
      if (read === null) throw new ImportFormatError({ line, column: plan.labels[amount.column] as string }, '""', amounts.expected);
      return { ...read, label: plan.labels[amount.column] as string };
    }
    case 'split': {
      const debit = readColumn(amount.debit);
      const credit = readColumn(amount.credit);
      const debitFilled = debit !== null && !ZERO_DECIMAL.test(absoluteDecimal(debit.decimal));
      const creditFilled = credit !== null && !ZERO_DECIMAL.test(absoluteDecimal(credit.decimal));
      const debitLabel = plan.labels[amount.debit] as string;
      const creditLabel = plan.labels[amount.credit] as string;
      if (debitFilled && creditFilled) {
        throw new ImportFormatError(
          { line, column: debitLabel },
          `${quoteFound((fields[amount.debit] as string).trim())} in ${JSON.stringify(debitLabel)} and ${quoteFound((fields[amount.credit] as string).trim())} in ${JSON.stringify(creditLabel)}`,
          'an amount in only one of the two columns',
        );
      }
      if (!debitFilled && !creditFilled) {
        throw new ImportFormatError(
          { line, column: debitLabel },
          `no amount in ${JSON.stringify(debitLabel)} nor in ${JSON.stringify(creditLabel)}`,
          `an amount in one of them, or a skip rule that leaves this row out`,
        );
      }
      if (debitFilled) {
        const value = debit as ReadAmount;
        return { decimal: negateDecimal(absoluteDecimal(value.decimal)), currency: value.currency, label: debitLabel };
      }
      const value = credit as ReadAmount;
      return { decimal: absoluteDecimal(value.decimal), currency: value.currency, label: creditLabel };
    }
    case 'indicator': {
      const label = plan.labels[amount.column] as string;
      const read = readColumn(amount.column);
      if (read === null) throw new ImportFormatError({ line, column: label }, '""', amounts.expected);
      const indicatorText = (fields[amount.indicator] as string).trim();
      const key = indicatorText.toLowerCase();
      const magnitude = absoluteDecimal(read.decimal);
      if (amount.debit.has(key)) return { decimal: ZERO_DECIMAL.test(magnitude) ? magnitude : `-${magnitude}`, currency: read.currency, label };
      if (amount.credit.has(key)) return { decimal: magnitude, currency: read.currency, label };
      throw new ImportFormatError({ line, column: plan.labels[amount.indicator] as string }, quoteFound(indicatorText), amount.expected);
    }
  }
}

function customValue(column: CustomPlan, value: string, line: number, label: string, readers: RowReaders): string | number | boolean {
  switch (column.type) {
    case 'string':
      if (value.length > STRING_VALUE_MAX_LENGTH) throw new ImportFormatError({ line, column: label }, `a text of ${value.length} characters`, `at most ${STRING_VALUE_MAX_LENGTH} characters`);
      return value;
    case 'money': {
      const read = readers.amounts.read(value);
      if (read === null) throw new ImportFormatError({ line, column: label }, quoteFound(value), readers.amounts.expected);
      return read.decimal;
    }
    case 'number': {
      const read = readers.amounts.read(value);
      if (read === null) throw new ImportFormatError({ line, column: label }, quoteFound(value), readers.amounts.expected.replace('an amount', 'a number'));
      return Number(read.decimal);
    }
    case 'date': {
      const read = readers.dates.read(value);
      if (read === null) throw new ImportFormatError({ line, column: label }, quoteFound(value), readers.dates.expected);
      return read.time === null ? read.date : new Date(instantOf(read, readers.timezone)).toISOString();
    }
    case 'boolean': {
      const key = value.toLowerCase();
      if (BOOLEAN_TRUE.has(key)) return true;
      if (BOOLEAN_FALSE.has(key)) return false;
      throw new ImportFormatError({ line, column: label }, quoteFound(value), 'yes or no: "true", "yes", "1", "ja", "oui" or "false", "no", "0", "nein", "non"');
    }
  }
}
