/** The mapping of SPEC §7: its shape, its bounds and defaults, and the error a wrong one raises. */

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

export type TextTarget =
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

export const TEXT_TARGETS: readonly TextTarget[] = [
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

export const KNOWN_TARGETS: readonly string[] = [...CSV_STANDARD_TARGETS, ...CSV_BANK_TARGETS];

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

export const MAPPING_PROPERTIES = [
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
export const THOUSANDS_SEPARATORS = ['', '.', ',', ' ', "'", '\u00a0', '\u202f'];
export const DELIMITER_MAX_LENGTH = 4;

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
