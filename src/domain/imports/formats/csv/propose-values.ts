import { compileDateFormat, type CompiledDateFormat } from './dates.ts';
import type { SampleRecord } from './sniffing.ts';

/**
 * What the values of a CSV sample say about each of its columns, for the mapping the preview
 * proposes: which cells are numbers and which are dates (and in which formats, by elimination
 * over every sampled row), the separators of the amounts, debit/credit marks, currency codes,
 * rows that are not yet booked and lines that carry a balance rather than an entry. Everything
 * here is a guess from a sample held in memory.
 */

/**
 * Date formats tried on every date-like column, in order of preference: the first that every
 * value fits wins, so DD/MM comes before MM/DD and fixed widths before loose ones. Each is also
 * tried with a time.
 */
const DATE_CANDIDATES = [
  'DD.MM.YYYY',
  'DD/MM/YYYY',
  'MM/DD/YYYY',
  'YYYY-MM-DD',
  'DD-MM-YYYY',
  'MM-DD-YYYY',
  'YYYYMMDD',
  'D.M.YYYY',
  'D/M/YYYY',
  'M/D/YYYY',
  'DD.MM.YY',
  'DD/MM/YY',
  'MM/DD/YY',
  'D.M.YY',
  'D/M/YY',
  'M/D/YY',
  'DD-MM-YY',
  'YYYY/MM/DD',
  'YYYY.MM.DD',
  'DD MMM YYYY',
  'D MMM YYYY',
  'DD-MMM-YYYY',
  'D-MMM-YYYY',
  'DD MMM YY',
  'DD-MMM-YY',
  'DD/MMM/YYYY',
  'MMM D, YYYY',
];
const TIME_SUFFIXES = ['', ' HH:mm:ss', ' HH:mm'];
/** Formats whose day and month may be swapped by a US export, each with its counterpart. */
const SWAPPED_FORMATS = new Map([
  ['DD/MM/YYYY', 'MM/DD/YYYY'],
  ['DD-MM-YYYY', 'MM-DD-YYYY'],
  ['D/M/YYYY', 'M/D/YYYY'],
  ['DD/MM/YY', 'MM/DD/YY'],
  ['D/M/YY', 'M/D/YY'],
]);

export interface DateCandidate {
  format: string;
  compiled: CompiledDateFormat;
  /** The counterpart with day and month swapped, when there is one. */
  swapped: string | null;
}

const CANDIDATES: DateCandidate[] = [
  ...TIME_SUFFIXES.flatMap((suffix) =>
    DATE_CANDIDATES.map((base) => ({
      format: base + suffix,
      compiled: compileDateFormat(base + suffix) as CompiledDateFormat,
      swapped: SWAPPED_FORMATS.has(base) ? (SWAPPED_FORMATS.get(base) as string) + suffix : null,
    })),
  ),
  { format: 'ISO', compiled: compileDateFormat('ISO') as CompiledDateFormat, swapped: null },
];

/** What a cell looks like, decided once per value. */
const NUMBER_LIKE = /^[(+\-−]?\s*(?:[€$£¥]|[A-Z]{3}\s)?\s*[+\-−]?\d[\d.,' \u00a0\u202f]*\s*(?:[€$£¥]|\s[A-Z]{3})?\s*[-+]?\)?$/;
const TIME_OF_DAY = /^\d{1,2}:\d{2}(?::\d{2})?$/;
const TIME_PART = '(?:[T ]\\d{1,2}:\\d{2}(?::\\d{2}(?:\\.\\d+)?)?(?:Z|[+-]\\d{2}:?\\d{2})?)?';
const DATE_LIKE = new RegExp(
  [
    `^\\d{1,4}[./-]\\d{1,2}[./-]\\d{2,4}${TIME_PART}$`,
    '^\\d{8}$',
    // Month abbreviations: "06 May 2020", "12-Dec-2019", "Jan 5, 2024".
    `^\\d{1,2}[ ./-][A-Za-z]{3}[ ./-]\\d{2,4}${TIME_PART}$`,
    `^[A-Za-z]{3} \\d{1,2}, \\d{4}${TIME_PART}$`,
  ].join('|'),
);

export function isNumberLike(value: string): boolean {
  return NUMBER_LIKE.test(value);
}

export function isDateLike(value: string): boolean {
  return DATE_LIKE.test(value) && CANDIDATES.some((candidate) => candidate.compiled.read(value) !== null);
}

export function isTimeOfDay(value: string): boolean {
  return TIME_OF_DAY.test(value);
}

/** Marks of money out and money in, compared in lower case: Dutch Af/Bij, German Soll/Haben (S/H), D/C, DR/CR. */
const DEBIT_MARKS = new Set(['af', 'd', 'debit', 'dr', 's', 'soll', 'debet', 'dbit', 'db', '-', 'debe', 'cargo', 'out']);
const CREDIT_MARKS = new Set(['bij', 'c', 'credit', 'cr', 'h', 'haben', 'crdt', '+', 'haber', 'abono', 'in']);
/** Values that mark a row as not yet booked, in several languages. */
const PENDING_VALUES = new Set(['umsatz vorgemerkt', 'vorgemerkt', 'pending', 'ausstehend', 'in behandeling', 'en attente', 'pendiente', 'nicht gebucht']);
/**
 * Cells that make a line a balance or a total rather than an entry, normalised: Volksbank's
 * "Anfangssaldo"/"Endsaldo" lines have the table's width and a date and an amount like any row,
 * and Deutsche Bank closes its export with "Kontostand;…".
 */
const BALANCE_WORDS = new Set([
  'anfangssaldo',
  'endsaldo',
  'kontostand',
  'alter kontostand',
  'neuer kontostand',
  'letzter kontostand',
  'saldo',
  'beginsaldo',
  'eindsaldo',
  'opening balance',
  'closing balance',
  'balance',
  'balance brought forward',
  'balance carried forward',
  'solde',
  'solde initial',
  'solde final',
  'saldo inicial',
  'saldo final',
  'total',
  'totals',
  'summe',
  'gesamt',
]);
/** Distinct values an indicator column may have to be read as debit/credit marks. */
export const INDICATOR_VALUE_LIMIT = 6;
/** The ISO 4217 codes this runtime knows: a column of them is a currency column, whatever its header. */
const CURRENCY_CODES = new Set(Intl.supportedValuesOf('currency'));

/** Lower case, no accents, words only: how header texts and marker cells are compared. */
export function normaliseText(text: string): string {
  return text
    .trim()
    .toLowerCase()
    .normalize('NFD')
    .replace(/\p{M}/gu, '')
    .replace(/[^a-z0-9]+/g, ' ')
    .trim();
}

export function isPendingValue(value: string): boolean {
  return PENDING_VALUES.has(value.trim().toLowerCase());
}

/** Whether a cell says that its line is a balance or a total. */
export function isBalanceWord(value: string): boolean {
  return value.trim() !== '' && BALANCE_WORDS.has(normaliseText(value));
}

export interface ColumnFacts {
  index: number;
  /** The header's text (trimmed), or "column N" without a header. */
  label: string;
  /** The header's name, normalised; "" without a header. */
  key: string;
  /** A currency the header names ("Bedrag (EUR)", "Débit euros"). */
  headerCurrency: string | null;
  /** The non-empty values of the sampled rows, trimmed. */
  values: string[];
  /** Whether some sampled row has this column empty. */
  hasEmpty: boolean;
  /** Every value reads as a number. */
  numeric: boolean;
  /** Some value has a decimal part or a sign: an amount rather than a count or an id. */
  amountLike: boolean;
  /** Date formats every value fits (pending marks aside), in order of preference. */
  dateFormats: DateCandidate[];
  /** The values that mark a row as not yet booked ("Pending" where a date would be). */
  pending: string[];
}

export function examineColumn(
  index: number,
  label: string,
  header: { key: string; currency: string | null } | null,
  rows: readonly SampleRecord[],
): ColumnFacts {
  const cells = rows.map((record) => (record.fields[index] ?? '').trim());
  const values = cells.filter((value) => value !== '');
  const numeric = values.length > 0 && values.every(isNumberLike);
  const amountLike = numeric && values.some((value) => /[.,]\d{1,2}\s*[-+)]?\s*(?:[€$£¥]|[A-Z]{3})?$|^[(+\-−]|[-+]$/.test(value));
  // A card export writes "Pending" where the date of a row not yet booked would be.
  const pending = [...new Set(values.filter(isPendingValue))];
  const dated = values.filter((value) => !isPendingValue(value));
  const dateFormats =
    dated.length > 0 && dated.every((value) => DATE_LIKE.test(value))
      ? CANDIDATES.filter((candidate) => dated.every((value) => candidate.compiled.read(value) !== null))
      : [];
  return {
    index,
    label,
    key: header?.key ?? '',
    headerCurrency: header?.currency ?? null,
    values,
    hasEmpty: cells.length > values.length,
    numeric,
    amountLike,
    dateFormats,
    pending,
  };
}

export interface Separators {
  decimalSeparator: '.' | ',';
  thousandsSeparator: string;
  /** Whether some amounts point to a decimal comma and others to a decimal point. */
  conflicting: boolean;
}

/**
 * The decimal and thousands separators, from every value of the amount columns: a value with
 * both "." and "," has its decimal separator last; one separator followed by one or two digits
 * is a decimal separator; groups of three after several separators are thousands. When nothing
 * settles it, a ";" file is taken to be European (decimal comma).
 */
export function detectSeparators(facts: readonly ColumnFacts[], delimiter: string): Separators {
  let comma = 0;
  let point = 0;
  let thousandsSeen: string | null = null;
  for (const column of facts) {
    if (!column.amountLike || column.dateFormats.length > 0) continue;
    for (const value of column.values) {
      const digits = value.replace(/[^\d.,' \u00a0\u202f]/g, '').trim();
      const lastComma = digits.lastIndexOf(',');
      const lastPoint = digits.lastIndexOf('.');
      if (/\d[ \u00a0\u202f]\d{3}/.test(digits)) thousandsSeen = ' ';
      else if (/\d'\d{3}/.test(digits)) thousandsSeen = "'";
      if (lastComma >= 0 && lastPoint >= 0) {
        if (lastComma > lastPoint) {
          comma += 2;
          thousandsSeen ??= '.';
        } else {
          point += 2;
          thousandsSeen ??= ',';
        }
        continue;
      }
      const separator = lastComma >= 0 ? ',' : lastPoint >= 0 ? '.' : null;
      if (separator === null) continue;
      const occurrences = digits.split(separator).length - 1;
      const after = digits.length - 1 - digits.lastIndexOf(separator);
      if (occurrences > 1) {
        // Several of one separator can only group thousands.
        if (separator === ',') point += 1;
        else comma += 1;
        thousandsSeen ??= separator;
      } else if (after !== 3) {
        if (separator === ',') comma += 1;
        else point += 1;
      }
    }
  }
  const decimalSeparator: '.' | ',' = comma > point ? ',' : point > comma ? '.' : delimiter === ';' ? ',' : '.';
  let thousandsSeparator = thousandsSeen ?? (decimalSeparator === ',' ? '.' : ',');
  if (thousandsSeparator === decimalSeparator) thousandsSeparator = '';
  return { decimalSeparator, thousandsSeparator, conflicting: comma > 0 && point > 0 };
}

/**
 * The date format for the date columns of the mapping: the first candidate (in order of
 * preference) that every value of every one of them fits. DD/MM and MM/DD both fitting is
 * ambiguous unless a header names the order ("Date (MM/DD/YYYY)").
 */
export function chooseDateFormat(
  columns: readonly ColumnFacts[],
  labels: readonly string[],
): { format: string | null; ambiguous: boolean; swapped: string | null } {
  if (columns.length === 0) return { format: null, ambiguous: false, swapped: null };
  const fitting = CANDIDATES.filter((candidate) => columns.every((column) => column.dateFormats.includes(candidate)));
  const first = fitting[0];
  if (!first) return { format: null, ambiguous: false, swapped: null };
  if (first.swapped !== null && fitting.some((candidate) => candidate.format === first.swapped)) {
    const said = labels.join(' ').toUpperCase();
    if (said.includes('MM/DD') || said.includes('M/D/')) return { format: first.swapped, ambiguous: false, swapped: first.format };
    if (said.includes('DD/MM') || said.includes('D/M/')) return { format: first.format, ambiguous: false, swapped: first.swapped };
    return { format: first.format, ambiguous: true, swapped: first.swapped };
  }
  return { format: first.format, ambiguous: false, swapped: null };
}

export interface IndicatorMarks {
  debit: string[];
  credit: string[];
  /**
   * The side an empty cell stands for, when the column marks only one side and leaves the other
   * empty (Amex writes "CR" beside a payment and nothing beside a charge); null otherwise.
   */
  emptyMeans: 'debit' | 'credit' | null;
}

/** The indicator's values sorted into debit and credit marks, or null when one is neither. */
export function indicatorMarks(column: ColumnFacts): IndicatorMarks | null {
  const distinct = [...new Set(column.values)];
  if (distinct.length === 0 || distinct.length > INDICATOR_VALUE_LIMIT) return null;
  const debit: string[] = [];
  const credit: string[] = [];
  for (const value of distinct) {
    const key = value.toLowerCase();
    if (DEBIT_MARKS.has(key)) debit.push(value);
    else if (CREDIT_MARKS.has(key)) credit.push(value);
    else return null;
  }
  if (column.hasEmpty && (debit.length === 0 || credit.length === 0)) {
    // One side marked, the other left empty.
    if (debit.length === 0) return { debit: [''], credit, emptyMeans: 'debit' };
    return { debit, credit: [''], emptyMeans: 'credit' };
  }
  if (column.hasEmpty) return null;
  // A mark the sample lacks is added in its usual spelling, so that the file's other rows read.
  if (debit.length === 0)
    debit.push(credit.some((value) => value.toLowerCase() === 'bij') ? 'Af' : credit.some((value) => value.toLowerCase() === 'h') ? 'S' : 'D');
  if (credit.length === 0)
    credit.push(debit.some((value) => value.toLowerCase() === 'af') ? 'Bij' : debit.some((value) => value.toLowerCase() === 's') ? 'H' : 'C');
  return { debit, credit, emptyMeans: null };
}

/** Whether every value of a column is a currency code (EUR, CHF): a currency column without a header naming it. */
export function isCurrencyColumn(column: ColumnFacts): boolean {
  return column.values.length > 0 && column.values.every((value) => CURRENCY_CODES.has(value));
}
