import { CURRENCY_PATTERN, STRING_VALUE_MAX_LENGTH } from '../../../catalog/columns.ts';
import { negateDecimal, withCurrencyScale } from '../../../money.ts';
import { calendarDateToEpochMs, emptyEntry, ImportFormatError, quoteFound, type ParseEvent, type StatementEntry } from '../../statement-entries.ts';
import { absoluteDecimal, compileAmountReader, CURRENCY_SYMBOLS, ZERO_DECIMAL, type AmountReader, type ReadAmount } from './amounts.ts';
import { checkCsvMapping } from './check-mapping.ts';
import { compileDateFormat, zonedTimeToEpochMs, type CompiledDateFormat, type ReadDate } from './dates.ts';
import {
  CSV_LIMITS,
  CSV_MAPPING_DEFAULTS,
  TEXT_TARGETS,
  type CsvColumnReference,
  type CsvColumnType,
  type CsvCustomColumn,
  type CsvMapping,
  type TextTarget,
} from './mapping.ts';
import { fewerFieldsError, readRecords, type FeedState } from './records.ts';

/** Parsing: the mapping resolved against the header, each record turned into a statement entry. */

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
        throw new ImportFormatError(
          { line: record.line },
          `${fieldCount} fields`,
          `at most ${CSV_LIMITS.columnLimit} columns; check the delimiter (${JSON.stringify(delimiter)})`,
        );
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
        state.skippedLines === 0
          ? 'an empty file'
          : `only ${state.skippedLines} line${state.skippedLines === 1 ? '' : 's'}, all dropped by skipRows (${skipRows})`,
        `${header ? 'a header and rows' : 'rows'} after the first ${skipRows} lines; check skipRows`,
      );
    }
    throw new ImportFormatError(
      { line: 1 },
      'an empty file',
      `${header ? 'a header line naming the columns, then rows' : 'rows'} of fields separated by ${JSON.stringify(delimiter)}`,
    );
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
function resolvePlan(
  mapping: CsvMapping,
  customColumns: readonly CsvCustomColumn[],
  header: string[] | null,
  fieldCount: number,
  line: number,
  delimiter: string,
): Plan {
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
    skip: (mapping.skip ?? []).map((rule, index) => ({
      column: resolve(rule.column, `skip[${index}]`),
      values: new Set(rule.equals.map((value) => value.trim())),
    })),
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
      throw new ImportFormatError(
        { line, column: plan.labels[index] ?? `index ${index}` },
        'a NUL character',
        'text; a NUL character means a binary file or a wrong encoding',
      );
    }
  }

  for (const { target, sources } of plan.texts) {
    const value = joined(fields, sources);
    if (value.length > STRING_VALUE_MAX_LENGTH) {
      throw new ImportFormatError(
        { line, column: sourceLabel(plan, sources) },
        `a text of ${value.length} characters`,
        `at most ${STRING_VALUE_MAX_LENGTH} characters`,
      );
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
    if (value !== '') currency = readCurrency(value, line, plan, plan.currency);
  }

  const read = readAmount(plan, fields, line, readers.amounts);
  if (read.currency !== null) {
    if (currency === null) currency = read.currency;
    else if (plan.currency !== null && read.currency !== currency) {
      throw new ImportFormatError(
        { line, column: read.label },
        `an amount in ${read.currency} on a row whose currency is ${currency}`,
        'the amount in the currency of its row',
      );
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
        throw new ImportFormatError(
          { line, column: plan.labels[source] as string },
          '""',
          "a value: the mapping's externalId columns together identify each row",
        );
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

/** The currency of a row; its columns' label is only put together for an error (it is read on every row). */
function readCurrency(value: string, line: number, plan: Plan, sources: readonly number[]): string {
  const symbol = CURRENCY_SYMBOLS.get(value);
  if (symbol) return symbol;
  if (!CURRENCY_PATTERN.test(value))
    throw new ImportFormatError(
      { line, column: sourceLabel(plan, sources) },
      quoteFound(value),
      'a currency code such as "EUR" or "USD" (or the symbol € or £)',
    );
  return value.toUpperCase();
}

function readAmount(plan: Plan, fields: readonly string[], line: number, amounts: AmountReader): ReadAmount & { label: string } {
  const amount = plan.amount;
  const readColumn = (column: number): ReadAmount | null => {
    const text = fields[column] as string;
    const read = amounts.read(text);
    if (read === null && text.trim() !== '')
      throw new ImportFormatError({ line, column: plan.labels[column] as string }, quoteFound(text.trim()), amounts.expected);
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
      if (value.length > STRING_VALUE_MAX_LENGTH)
        throw new ImportFormatError({ line, column: label }, `a text of ${value.length} characters`, `at most ${STRING_VALUE_MAX_LENGTH} characters`);
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
      throw new ImportFormatError(
        { line, column: label },
        quoteFound(value),
        'yes or no: "true", "yes", "1", "ja", "oui" or "false", "no", "0", "nein", "non"',
      );
    }
  }
}
