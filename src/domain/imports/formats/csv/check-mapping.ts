import { pointerSegment } from '../../../../errors.ts';
import { CURRENCY_PATTERN } from '../../../catalog/columns.ts';
import { quoteFound } from '../../statement-entries.ts';
import { isSupportedEncoding } from '../../text.ts';
import { closestName, describeValue } from '../../../text.ts';
import { isTimeZone } from '../../../time-zones.ts';
import { compileDateFormat } from './dates.ts';
import {
  CSV_LIMITS,
  CSV_MAPPING_DEFAULTS,
  DELIMITER_MAX_LENGTH,
  KNOWN_TARGETS,
  MAPPING_PROPERTIES,
  MappingError,
  THOUSANDS_SEPARATORS,
  type CsvColumnReference,
  type CsvColumnSource,
  type CsvCustomColumn,
  type CsvIndicatorAmount,
  type CsvMapping,
  type CsvSkipRule,
  type CsvSplitAmount,
} from './mapping.ts';

/** Checking a mapping given as JSON: every problem names the field and the fix. */

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
      throw new MappingError(
        `/${pointerSegment(key)}`,
        `is not a mapping property${suggestion(key, MAPPING_PROPERTIES)}; the properties are ${MAPPING_PROPERTIES.join(', ')}`,
      );
    }
  }
  const mapping: CsvMapping = { columns: {} };

  if (input.encoding !== undefined) {
    if (typeof input.encoding !== 'string' || !isSupportedEncoding(input.encoding)) {
      throw new MappingError(
        '/encoding',
        `must be an encoding label such as "utf-8", "windows-1252", "iso-8859-1" or "utf-16le", got ${describeValue(input.encoding)}`,
      );
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
    if (mapping.quote === undefined)
      throw new MappingError(
        '/delimiter',
        `must differ from the quote character, both are ${JSON.stringify(quote)}; set "quote" to another character or to null`,
      );
    throw new MappingError('/quote', `must differ from the delimiter, both are ${JSON.stringify(quote)}`);
  }
  if (input.skipRows !== undefined) {
    const skipRows = input.skipRows;
    if (typeof skipRows !== 'number' || !Number.isInteger(skipRows) || skipRows < 0 || skipRows > CSV_LIMITS.skipRowsLimit) {
      throw new MappingError(
        '/skipRows',
        `must be the number of lines before the header, a whole number from 0 to ${CSV_LIMITS.skipRowsLimit}, got ${describeValue(skipRows)}`,
      );
    }
    mapping.skipRows = skipRows;
  }
  if (input.header !== undefined) {
    if (typeof input.header !== 'boolean')
      throw new MappingError('/header', `must be true (the first row names the columns) or false, got ${describeValue(input.header)}`);
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
      throw new MappingError(
        '/dateFormat',
        `must be a date format such as "DD.MM.YYYY", "MM/DD/YYYY", "YYYY-MM-DD HH:mm:ss" or "ISO", got ${describeValue(input.dateFormat)}`,
      );
    }
    const compiled = compileDateFormat(input.dateFormat);
    if (typeof compiled === 'string') throw new MappingError('/dateFormat', compiled);
    mapping.dateFormat = input.dateFormat;
  }
  if (input.timezone !== undefined) {
    if (typeof input.timezone !== 'string' || !isTimeZone(input.timezone)) {
      throw new MappingError(
        '/timezone',
        `must be an IANA time zone such as "Europe/Berlin", "America/New_York" or "UTC", got ${describeValue(input.timezone)}`,
      );
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
      throw new MappingError(
        path,
        'must name one column: an amount cannot be joined from several columns (for separate debit and credit columns, use "amount": {"debit": ..., "credit": ...})',
      );
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
      throw new MappingError(
        '/amount',
        'and /columns/amount both say where the amount is; keep "amount" for separate debit and credit columns (or an indicator column), or "columns.amount" for one signed column',
      );
    }
    mapping.amount = checkAmount(input.amount, header);
  } else if (columns.amount === undefined) {
    throw new MappingError(
      '/columns/amount',
      'is missing: name the column of the signed amount, e.g. "amount": "Amount", or give "amount": {"debit": ..., "credit": ...} for separate columns',
    );
  }

  if (input.externalId !== undefined) {
    const list = Array.isArray(input.externalId) ? input.externalId : [input.externalId];
    if (list.length === 0 || list.length > CSV_LIMITS.externalIdColumnLimit) {
      throw new MappingError(
        '/externalId',
        `must list 1 to ${CSV_LIMITS.externalIdColumnLimit} columns whose values together identify a row, got ${describeValue(input.externalId)}`,
      );
    }
    const path = (index: number) => (Array.isArray(input.externalId) ? `/externalId/${index}` : '/externalId');
    mapping.externalId = list.map((reference, index) => checkReference(reference, path(index), header));
  }

  if (input.skip !== undefined) {
    if (!Array.isArray(input.skip) || input.skip.length > CSV_LIMITS.skipRuleLimit) {
      throw new MappingError(
        '/skip',
        `must be a list of at most ${CSV_LIMITS.skipRuleLimit} rules such as [{"column": "Status", "equals": ["pending"]}], got ${describeValue(input.skip)}`,
      );
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
      throw new MappingError(
        path,
        `names the column ${quoteFound(reference)} by header text, but "header" is false: name columns by their 0-based index (0 for the first column)`,
      );
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
      if (key !== 'debit' && key !== 'credit')
        throw new MappingError(`/amount/${pointerSegment(key)}`, `is not a property of separate debit and credit columns; they are debit, credit`);
    }
    if (object.debit === undefined) throw new MappingError('/amount/debit', 'is missing: name the column of money out');
    if (object.credit === undefined) throw new MappingError('/amount/credit', 'is missing: name the column of money in');
    return { debit: checkReference(object.debit, '/amount/debit', header), credit: checkReference(object.credit, '/amount/credit', header) };
  }
  if ('column' in object || 'indicator' in object) {
    for (const key of keys) {
      if (key !== 'column' && key !== 'indicator')
        throw new MappingError(`/amount/${pointerSegment(key)}`, `is not a property of an amount with an indicator column; they are column, indicator`);
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
    if (both !== undefined)
      throw new MappingError('/amount/indicator/credit', `lists ${quoteFound(both)}, which debit lists too; a value must mean one of them`);
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
    if (key !== 'column' && key !== 'equals')
      throw new MappingError(`${path}/${pointerSegment(key)}`, `is not a property of a skip rule; they are column, equals`);
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
