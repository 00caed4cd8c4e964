import { ImportFormatError, type StatementEntry } from '../statement-entries.ts';
import { textChunks } from '../text.ts';
import {
  checkCsvMapping,
  compileAmountReader,
  compileDateFormat,
  mappingFromHeader,
  MappingError,
  parseCsv,
  splitSample,
  type CompiledDateFormat,
  type CsvColumnReference,
  type CsvColumnSource,
  type CsvCustomColumn,
  type CsvMapping,
  type SampleRecord,
} from './csv.ts';

/**
 * The preview of a CSV file (POST /datasets/{id}/imports/preview): from the head of the file,
 * the settings a mapping needs (delimiter, header, lines before the header, separators, date
 * format), a mapping proposed from the header's names, and the first rows read with it, so
 * that a person confirms or corrects the mapping before importing. Everything here is a guess
 * from a sample held in memory; nothing is stored.
 */

export interface CsvPreviewOptions {
  customColumns: readonly CsvCustomColumn[];
  /** The encoding the importer detected and decoded the sample with; returned as is. */
  encoding?: string;
  /**
   * Whether the sample is the whole file. When it is only the head, its text after the last
   * line break may be a cut row and is left out.
   */
  complete?: boolean;
}

export interface CsvPreview {
  encoding: string;
  delimiter: string;
  quote: string | null;
  header: boolean;
  skipRows: number;
  decimalSeparator: '.' | ',';
  thousandsSeparator: string;
  /** The date format of the booking date column, or null when no date column was found. */
  dateFormat: string | null;
  /** Whether the dates fit both DD/MM and MM/DD and nothing settled which (DD/MM is proposed). */
  dateFormatAmbiguous: boolean;
  /** The header's texts, or "column 1" … "column N" without a header. */
  columns: string[];
  /** The proposed mapping, or null when no date or no amount column was found (see problems). */
  mapping: CsvMapping | null;
  /** Whether the header names the dataset's columns themselves, so that the file imports without a mapping. */
  standardHeader: boolean;
  /** What stops a mapping from being proposed, each with what to do. */
  problems: string[];
  /** The first rows read with the proposed mapping, as entries; without a mapping, the raw fields. */
  rows: StatementEntry[] | string[][];
  warnings: Array<{ line: number | null; message: string }>;
}

/** Bounds on the work one preview does. */
export const CSV_PREVIEW_LIMITS = {
  /** Rows returned. */
  rowLimit: 20,
  /** Records of the sample read to guess the settings. */
  sampleRecordLimit: 500,
  /** Data rows whose values are examined per column. */
  examinedRowLimit: 200,
  /** Distinct values an indicator column may have to be read as debit/credit marks. */
  indicatorValueLimit: 6,
} as const;

const DELIMITERS = [';', ',', '\t', '|'];

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
  'YYYYMMDD',
  'D.M.YYYY',
  'D/M/YYYY',
  'M/D/YYYY',
  'DD.MM.YY',
  'DD/MM/YY',
  'MM/DD/YY',
  'YYYY/MM/DD',
];
const TIME_SUFFIXES = ['', ' HH:mm:ss', ' HH:mm'];
/** Formats whose day and month may be swapped by a US export, each with its counterpart. */
const SWAPPED_FORMATS = new Map([
  ['DD/MM/YYYY', 'MM/DD/YYYY'],
  ['D/M/YYYY', 'M/D/YYYY'],
  ['DD/MM/YY', 'MM/DD/YY'],
]);

interface Candidate {
  format: string;
  compiled: CompiledDateFormat;
  /** The counterpart with day and month swapped, when there is one. */
  swapped: string | null;
}

const CANDIDATES: Candidate[] = [
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
const DATE_LIKE = /^\d{1,4}[./-]\d{1,2}[./-]\d{2,4}(?:[T ]\d{1,2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:Z|[+-]\d{2}:?\d{2})?)?$|^\d{8}$/;

/**
 * Header names by target, normalised (lower case, no accents, no parentheses, words only).
 * English, German, Dutch, French and Spanish bank exports, and common ledger exports.
 */
const HEADER_NAMES: Record<string, readonly string[]> = {
  timestamp: [
    'date', 'booking date', 'bookingdate', 'posting date', 'posted date', 'post date', 'transaction date', 'trans date', 'txn date',
    'buchungstag', 'buchungsdatum', 'buchung', 'datum', 'fecha', 'fecha operacion', 'fecha contable', 'f operacion', 'date operation',
    'date de l operation', 'date comptable', 'dateop', 'boekdatum', 'transactiedatum', 'data', 'data operazione', 'completed date',
  ],
  valueDate: [
    'value date', 'valuta', 'valutadatum', 'wert', 'wertstellung', 'wertstellungstag', 'rentedatum', 'date de valeur', 'date valeur',
    'fecha valor', 'f valor', 'dateval', 'data valuta',
  ],
  amount: [
    'amount', 'betrag', 'bedrag', 'montant', 'importe', 'transaction amount', 'umsatz', 'amount in local currency', 'local amount',
    'transactiebedrag', 'brutto', 'importo', 'net amount', 'amount local currency',
  ],
  debit: [
    'debit', 'debit amount', 'debits', 'soll', 'sollbetrag', 'sollumsatz', 'af', 'debet', 'cargo', 'cargos', 'paid out', 'money out',
    'withdrawal', 'withdrawals', 'withdrawal amount', 'ausgang', 'ausgaben', 'debit amt', 'uitgaven', 'out',
  ],
  credit: [
    'credit', 'credit amount', 'credits', 'haben', 'habenbetrag', 'habenumsatz', 'bij', 'abono', 'abonos', 'paid in', 'money in',
    'deposit', 'deposits', 'deposit amount', 'eingang', 'einnahmen', 'credit amt', 'inkomsten', 'in',
  ],
  indicator: ['af bij', 'debit credit', 'credit debit', 'soll haben', 's h', 'd c', 'c d', 'dr cr', 'cr dr', 'debit credit indicator', 'cd indicator', 'sign'],
  description: [
    'description', 'verwendungszweck', 'omschrijving', 'omschrijving 1', 'omschrijving 2', 'omschrijving 3', 'libelle', 'libelle operation',
    'concepto', 'memo', 'narrative', 'transaction description', 'mededelingen', 'text', 'beschreibung', 'communication', 'communications',
    'observaciones', 'detail', 'remittance information', 'payment details', 'transaction details', 'particulars', 'original description',
    'details de l operation', 'descripcion', 'causale', 'buchungstext',
  ],
  type: [
    'type', 'transaction type', 'umsatzart', 'mutatiesoort', 'tipo', 'nature', 'type operation', 'buchungsart', 'vorgang', 'typ',
    'document type', 'trans type', 'transaktionstyp', 'categorie operation', 'type de transaction',
  ],
  bankTransactionCode: ['code', 'transaction code', 'gvc', 'bank transaction code', 'btc', 'txn code', 'transaction type code', 'textschluessel', 'textschlussel'],
  reference: [
    'reference', 'referenz', 'kundenreferenz', 'referentie', 'referencia', 'ref', 'customer reference', 'betalingskenmerk', 'check number',
    'check or slip', 'cheque number', 'check', 'invoice', 'invoice number', 'document no', 'document number', 'belegnummer', 'beleg',
    'reference number', 'payment reference', 'zahlungsreferenz', 'numero de reference', 'your reference',
  ],
  endToEndId: ['end to end', 'end to end id', 'endtoendid', 'end to end reference', 'eref', 'transactiereferentie', 'ende zu ende referenz'],
  bankReference: ['bank reference', 'bankreferenz', 'bank ref', 'primanota'],
  identifier: ['transaction id', 'transaktionscode', 'transaktions id', 'transaction number', 'unique id', 'fitid', 'id', 'volgnr', 'entry no', 'entry number'],
  counterpartyName: [
    'counterparty', 'counterparty name', 'counter party', 'auftraggeber', 'empfanger', 'auftraggeber empfanger', 'begunstigter',
    'beguenstigter', 'begunstigter auftraggeber', 'beguenstigter auftraggeber', 'begunstigter zahlungspflichtiger', 'beguenstigter zahlungspflichtiger',
    'auftraggeber zahlungsempfanger', 'empfanger zahlungspflichtiger', 'zahlungsempfanger', 'zahlungspflichtiger', 'name', 'naam',
    'naam omschrijving', 'naam tegenpartij', 'payee', 'payer', 'beneficiary', 'beneficiario', 'ordenante', 'tiers', 'nom', 'merchant',
    'name zahlungsbeteiligter', 'zahlungsbeteiligter', 'nom du tiers', 'counterparty account name',
  ],
  counterpartyAccount: [
    'iban', 'tegenrekening', 'tegenrekening iban bban', 'kontonummer iban', 'iban kontonummer', 'counterparty account', 'counterparty iban',
    'iban zahlungsbeteiligter', 'gegenkonto', 'compte', 'cuenta', 'iban tegenpartij', 'compte contrepartie',
  ],
  accountId: [
    'account', 'account number', 'auftragskonto', 'rekening', 'iban bban', 'konto', 'g l account', 'gl account', 'account no', 'sachkonto',
    'iban auftragskonto', 'own account', 'rekeningnummer', 'numero de compte', 'account iban',
  ],
  time: ['time', 'uhrzeit', 'zeit', 'heure', 'hora', 'tijd', 'tijdstip', 'transaction time', 'booking time', 'ora'],
  statementId: ['statement', 'statement number', 'statement id', 'auszugsnummer', 'kontoauszug', 'auszug', 'afschriftnummer'],
  currency: ['currency', 'wahrung', 'waehrung', 'munt', 'muntsoort', 'devise', 'moneda', 'ccy', 'cur', 'currency code', 'local currency', 'valuta code'],
  balance: ['balance', 'saldo', 'kontostand', 'saldo na mutatie', 'saldo na trn', 'guthaben', 'saldo nach buchung', 'solde', 'running balance', 'available balance'],
};

const HEADER_TARGETS = new Map<string, string>();
for (const [target, names] of Object.entries(HEADER_NAMES)) for (const name of names) if (!HEADER_TARGETS.has(name)) HEADER_TARGETS.set(name, target);

const DEBIT_MARKS = new Set(['af', 'd', 'debit', 'dr', 's', 'soll', 'debet', 'dbit', 'db', '-', 'debe', 'cargo', 'out']);
const CREDIT_MARKS = new Set(['bij', 'c', 'credit', 'cr', 'h', 'haben', 'crdt', '+', 'haber', 'abono', 'in']);
/** Values that mark a row as not yet booked, in several languages. */
const PENDING_VALUES = new Set(['umsatz vorgemerkt', 'vorgemerkt', 'pending', 'ausstehend', 'in behandeling', 'en attente', 'pendiente', 'nicht gebucht']);
const CURRENCY_WORDS: Record<string, string> = { eur: 'EUR', euro: 'EUR', euros: 'EUR', gbp: 'GBP', usd: 'USD', chf: 'CHF', sek: 'SEK', nok: 'NOK', dkk: 'DKK', pln: 'PLN', czk: 'CZK' };

interface ColumnFacts {
  index: number;
  label: string;
  /** The header's name, normalised; "" without a header. */
  key: string;
  /** A currency the header names ("Bedrag (EUR)", "Débit euros"). */
  headerCurrency: string | null;
  values: string[];
  /** Every value reads as a number. */
  numeric: boolean;
  /** Some value has a decimal part or a sign: an amount rather than a count or an id. */
  amountLike: boolean;
  /** Date formats every value fits, in order of preference. */
  dateFormats: Candidate[];
}

/**
 * Guesses the settings and a mapping for a CSV sample (the head of a file, already decoded)
 * and reads its first rows with that mapping.
 */
export async function previewCsv(sample: string, options: CsvPreviewOptions): Promise<CsvPreview> {
  const warnings: CsvPreview['warnings'] = [];
  const problems: string[] = [];
  let text = sample.charCodeAt(0) === 0xfeff ? sample.slice(1) : sample;
  if (!options.complete) {
    const lastBreak = Math.max(text.lastIndexOf('\n'), text.lastIndexOf('\r'));
    if (lastBreak > 0 && lastBreak < text.length - 1) text = text.slice(0, lastBreak + 1);
  }
  const encoding = options.encoding ?? 'utf-8';
  let quote: string | null = '"';
  let layout = detectLayout(text, quote);
  if (layout !== null && quotesAreText(layout.block)) {
    // Quotes inside unquoted fields: this export never quotes, and a quote is just a character.
    quote = null;
    layout = detectLayout(text, quote);
  }
  if (layout === null) {
    return {
      encoding,
      delimiter: ',',
      quote,
      header: false,
      skipRows: 0,
      decimalSeparator: '.',
      thousandsSeparator: '',
      dateFormat: null,
      dateFormatAmbiguous: false,
      columns: [],
      mapping: null,
      standardHeader: false,
      problems: [text.trim() === '' ? 'the file is empty' : 'no delimiter (";", ",", tab or "|") cuts the rows into the same number of fields; is this a CSV file?'],
      rows: [],
      warnings,
    };
  }
  const { delimiter, block, after } = layout;
  const first = block[0] as SampleRecord;
  const width = first.fields.length;
  const header = block.length === 1 ? isHeaderRow(first.fields, []) : isHeaderRow(first.fields, block.slice(1, 30).map((record) => record.fields));
  const skipRows = first.line - 1;
  const data = header ? block.slice(1) : block;
  const columns = header ? first.fields.map((field) => field.trim()) : Array.from({ length: width }, (_, index) => `column ${index + 1}`);
  for (const record of after.slice(0, 5)) {
    warnings.push({
      line: record.line,
      message: `line ${record.line} has ${record.fields.length} field${record.fields.length === 1 ? '' : 's'} where the ${header ? 'header has' : 'rows have'} ${width}: the import will refuse it; remove it if it is a balance or total line`,
    });
  }

  const facts = columns.map((label, index) => examineColumn(index, label, header, data.slice(0, CSV_PREVIEW_LIMITS.examinedRowLimit)));
  const separators = detectSeparators(facts, delimiter);
  const base: CsvMapping = {
    ...(options.encoding ? { encoding: options.encoding } : {}),
    delimiter,
    quote,
    skipRows,
    header,
    decimalSeparator: separators.decimalSeparator,
    thousandsSeparator: separators.thousandsSeparator,
    columns: {},
  };

  let mapping: CsvMapping | null = null;
  let standardHeader = false;
  let dateFormat: string | null = null;
  let dateFormatAmbiguous = false;
  const standard = header ? mappingFromHeader(first.fields, options.customColumns) : null;
  if (standard !== null) {
    standardHeader = true;
    mapping = { ...base, ...standard, delimiter, quote, skipRows };
    dateFormat = 'ISO';
  } else {
    const proposal = proposeMapping(facts, header, options.customColumns, problems, warnings);
    if (proposal !== null) {
      const chosen = chooseDateFormat(proposal.dateColumns.map((index) => facts[index] as ColumnFacts), columns);
      dateFormat = chosen.format;
      dateFormatAmbiguous = chosen.ambiguous;
      if (chosen.ambiguous) {
        warnings.push({
          line: null,
          message: `the dates fit both ${chosen.format} and ${chosen.swapped}; ${chosen.format} is proposed: check a date whose day is above 12, or set dateFormat`,
        });
      }
      if (dateFormat === null) {
        problems.push(`the values of ${JSON.stringify(columns[proposal.dateColumns[0] as number])} fit no known date format; set dateFormat, e.g. "DD.MM.YYYY"`);
      } else {
        // A date-only format gains the time of a separate time column; the date-only values of
        // other date columns still read, as a format with a time accepts its date part alone.
        if (proposal.timeSuffix !== '' && dateFormat !== 'ISO') dateFormat += proposal.timeSuffix;
        mapping = { ...base, dateFormat, ...proposal.mapping, columns: proposal.mapping.columns };
        const bookingFacts = facts[proposal.dateColumns[0] as number] as ColumnFacts;
        const hasTimes = proposal.timeSuffix !== '' || bookingFacts.values.some((text) => /\d:\d{2}/.test(text) && !/(Z|[+-]\d{2}:?\d{2})$/.test(text));
        if (hasTimes) {
          warnings.push({ line: null, message: 'the booking times carry no time zone: they are read as UTC unless the mapping\'s "timezone" names the zone of the export, e.g. "Europe/Berlin"' });
        }
      }
    }
  }

  if (mapping !== null) {
    try {
      mapping = checkCsvMapping(mapping, options.customColumns);
    } catch (error) {
      if (!(error instanceof MappingError)) throw error;
      problems.push(`the proposed mapping is not valid: ${error.message}`);
      mapping = null;
    }
  }

  let rows: StatementEntry[] | string[][];
  if (mapping !== null) {
    rows = await readRows(cutAfter(text, after[0]?.line ?? null), mapping, options.customColumns, warnings);
  } else {
    rows = data.slice(0, CSV_PREVIEW_LIMITS.rowLimit).map((record) => record.fields);
  }

  return {
    encoding,
    delimiter,
    quote,
    header,
    skipRows,
    decimalSeparator: mapping?.decimalSeparator ?? separators.decimalSeparator,
    thousandsSeparator: mapping?.thousandsSeparator ?? separators.thousandsSeparator,
    dateFormat,
    dateFormatAmbiguous,
    columns,
    mapping,
    standardHeader,
    problems,
    rows,
    warnings,
  };
}

// ---------------------------------------------------------------------------------------------
// Layout: delimiter, lines before the header, the block of rows
// ---------------------------------------------------------------------------------------------

interface Layout {
  delimiter: string;
  /** The run of records of one width: the header (if any) and the rows. */
  block: SampleRecord[];
  /** Records after the block (a closing balance line, a second table). */
  after: SampleRecord[];
}

/**
 * A record fits a width when it has that many fields, or more whose extra ones are all empty
 * (a delimiter at the end of each data row, as Chase writes).
 */
function fitsWidth(record: SampleRecord, width: number): boolean {
  if (record.fields.length === width) return true;
  if (record.fields.length < width) return false;
  for (let index = width; index < record.fields.length; index++) if ((record.fields[index] as string).trim() !== '') return false;
  return true;
}

/**
 * The delimiter and the block: for each candidate delimiter, the longest runs of consecutive
 * records of one width (two fields or more); the run that covers the most fields (rows times
 * fields) wins. Lines of account details before the header rarely have the width of the table,
 * so the block's first record is the header, and what precedes it is skipRows.
 */
function detectLayout(text: string, quote: string | null): Layout | null {
  let best: { delimiter: string; start: number; end: number; score: number; records: SampleRecord[] } | null = null;
  for (const delimiter of DELIMITERS) {
    const records = splitSample(text, delimiter, quote, CSV_PREVIEW_LIMITS.sampleRecordLimit);
    for (let start = 0; start < records.length; ) {
      const width = (records[start] as SampleRecord).fields.length;
      let end = start + 1;
      while (end < records.length && fitsWidth(records[end] as SampleRecord, width)) end += 1;
      const length = end - start;
      if (width >= 2 && (length >= 2 || records.length === 1)) {
        const score = length * (width - 1);
        if (best === null || score > best.score) best = { delimiter, start, end, score, records };
      }
      start = end;
    }
  }
  if (best === null) return null;
  return { delimiter: best.delimiter, block: best.records.slice(best.start, best.end), after: best.records.slice(best.end) };
}

/** Whether the rows have a double quote inside a field rather than around it. */
function quotesAreText(block: readonly SampleRecord[]): boolean {
  return block.some((record) => record.strayQuote);
}

/** The text up to the line where the block's trailing records begin, so that rows read cleanly. */
function cutAfter(text: string, line: number | null): string {
  if (line === null) return text;
  let current = 1;
  for (let index = 0; index < text.length; index++) {
    const code = text.charCodeAt(index);
    if (code !== 10 && code !== 13) continue;
    if (code === 13 && text.charCodeAt(index + 1) === 10) index += 1;
    current += 1;
    if (current === line) return text.slice(0, index + 1);
  }
  return text;
}

function isNumberLike(value: string): boolean {
  return NUMBER_LIKE.test(value);
}

function isDateLike(value: string): boolean {
  return DATE_LIKE.test(value) && CANDIDATES.some((candidate) => candidate.compiled.read(value) !== null);
}

/**
 * A first row is a header when its fields are texts (not numbers, not dates), and where it has
 * a text the rows below have numbers or dates, or when the rows are alike and it is not.
 */
function isHeaderRow(first: readonly string[], rows: readonly string[][]): boolean {
  const filled = first.map((field) => field.trim()).filter((field) => field !== '');
  if (filled.length === 0) return false;
  if (filled.some((field) => isNumberLike(field) || isDateLike(field))) return false;
  if (rows.length === 0) return true;
  for (let index = 0; index < first.length; index++) {
    const values = rows.map((row) => (row[index] ?? '').trim()).filter((value) => value !== '');
    if (values.length > 0 && values.every((value) => isNumberLike(value) || isDateLike(value))) return true;
  }
  // No column of numbers or dates: a header still differs from every row below it.
  return rows.every((row) => row.some((value, index) => value.trim() !== (first[index] ?? '').trim()));
}

// ---------------------------------------------------------------------------------------------
// Columns
// ---------------------------------------------------------------------------------------------

function normaliseHeader(label: string): { key: string; currency: string | null } {
  let currency: string | null = null;
  if (label.includes('€')) currency = 'EUR';
  else if (label.includes('£')) currency = 'GBP';
  let text = label.trim().toLowerCase().normalize('NFD').replace(/\p{M}/gu, '');
  const parenthesis = /\(([^)]*)\)/.exec(text);
  if (parenthesis) {
    const inner = (parenthesis[1] as string).trim();
    if (/^[a-z]{3}$/.test(inner) && CURRENCY_WORDS[inner]) currency = CURRENCY_WORDS[inner] as string;
    else if (/^[a-z]{3}$/.test(inner) && !['nr', 'no'].includes(inner)) currency ??= inner.toUpperCase();
  }
  text = text.replace(/\([^)]*\)/g, ' ').replace(/[^a-z0-9]+/g, ' ').trim();
  const words = text.split(' ');
  const last = words[words.length - 1] as string;
  if (words.length > 1 && CURRENCY_WORDS[last]) {
    currency ??= CURRENCY_WORDS[last] as string;
    text = words.slice(0, -1).join(' ');
  }
  return { key: text, currency };
}

function examineColumn(index: number, label: string, header: boolean, rows: readonly SampleRecord[]): ColumnFacts {
  const values = rows.map((record) => (record.fields[index] ?? '').trim()).filter((value) => value !== '');
  const numeric = values.length > 0 && values.every(isNumberLike);
  const amountLike = numeric && values.some((value) => /[.,]\d{1,2}\s*[-+)]?\s*(?:[€$£¥]|[A-Z]{3})?$|^[(+\-−]|[-+]$/.test(value));
  const dateFormats = values.length > 0 && values.every((value) => DATE_LIKE.test(value)) ? CANDIDATES.filter((candidate) => values.every((value) => candidate.compiled.read(value) !== null)) : [];
  const { key, currency } = header ? normaliseHeader(label) : { key: '', currency: null };
  return { index, label, key, headerCurrency: currency, values, numeric, amountLike, dateFormats };
}

/**
 * The decimal and thousands separators, from the values of amount columns: a value with both
 * "." and "," has its decimal separator last; one separator followed by one or two digits is a
 * decimal separator; groups of three after several separators are thousands. When nothing
 * settles it, a ";" file is taken to be European (decimal comma).
 */
function detectSeparators(facts: readonly ColumnFacts[], delimiter: string): { decimalSeparator: '.' | ','; thousandsSeparator: string } {
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
  return { decimalSeparator, thousandsSeparator };
}

/**
 * The date format for the date columns of the mapping: the first candidate (in order of
 * preference) that every value of every one of them fits. DD/MM and MM/DD both fitting is
 * ambiguous unless a header names the order ("Date (MM/DD/YYYY)").
 */
function chooseDateFormat(
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

// ---------------------------------------------------------------------------------------------
// Proposing a mapping
// ---------------------------------------------------------------------------------------------

interface Proposal {
  mapping: Omit<CsvMapping, 'columns'> & { columns: Record<string, CsvColumnSource> };
  /** " HH:mm:ss" or " HH:mm" when a time column joins the booking date, else "". */
  timeSuffix: string;
  /** Columns whose values must fit the date format: the booking date first. */
  dateColumns: number[];
}

function proposeMapping(
  facts: readonly ColumnFacts[],
  header: boolean,
  customColumns: readonly CsvCustomColumn[],
  problems: string[],
  warnings: CsvPreview['warnings'],
): Proposal | null {
  const reference = (column: ColumnFacts): CsvColumnReference => (header ? column.label : column.index);
  const byTarget = new Map<string, ColumnFacts[]>();
  // Custom columns match without regard to spaces too: "Cost centre" is costCentre.
  const compact = (key: string) => key.replace(/ /g, '');
  const customByKey = new Map(customColumns.map((column) => [compact(normaliseHeader(column.name).key), column]));
  const columns: Record<string, CsvColumnSource> = {};
  for (const column of facts) {
    if (!header) continue;
    const custom = customByKey.get(compact(column.key));
    if (custom && columns[custom.name] === undefined) {
      columns[custom.name] = reference(column);
      continue;
    }
    const target = HEADER_TARGETS.get(column.key);
    if (target === undefined) continue;
    const list = byTarget.get(target) ?? [];
    list.push(column);
    byTarget.set(target, list);
  }
  // Where several columns name one target, the more specific name wins: "Reference" before
  // "Document number", "Booking date" before "Date". Descriptions keep the header's order.
  for (const [target, list] of byTarget) {
    if (target === 'description') continue;
    const names = HEADER_NAMES[target] as readonly string[];
    list.sort((left, right) => names.indexOf(left.key) - names.indexOf(right.key) || left.index - right.index);
  }
  const firstOf = (target: string) => byTarget.get(target)?.[0];

  // Dates: named columns whose values are dates, else the first column of dates.
  const datesByName = (target: string) => (byTarget.get(target) ?? []).find((column) => column.dateFormats.length > 0);
  const dateColumns = facts.filter((column) => column.dateFormats.length > 0);
  const booking = datesByName('timestamp') ?? dateColumns[0];
  const value = datesByName('valueDate') ?? (header ? undefined : dateColumns.find((column) => column !== booking));

  // Amounts: one signed column, one with an indicator, or debit and credit columns.
  const amountByName = (byTarget.get('amount') ?? []).find((column) => column.numeric);
  const debit = (byTarget.get('debit') ?? []).find((column) => column.numeric || column.values.length === 0);
  const credit = (byTarget.get('credit') ?? []).find((column) => column.numeric || column.values.length === 0);
  const balanceKeys = new Set(HEADER_NAMES.balance);
  const taken = new Set<ColumnFacts>([booking, value].filter((column): column is ColumnFacts => column !== undefined));
  const amountByValues = amountByName || (debit && credit) ? undefined : facts.find((column) => column.amountLike && !taken.has(column) && !balanceKeys.has(column.key) && column.dateFormats.length === 0);
  const signedAmount = amountByName ?? amountByValues;

  if (!booking) problems.push('no column of dates was found: name the booking date\'s column in "columns.timestamp" and set "dateFormat"');
  if (!signedAmount && !(debit && credit)) {
    problems.push('no amount column was found: name it in "columns.amount", or give "amount": {"debit": column, "credit": column} for separate columns');
  }
  if (!booking || (!signedAmount && !(debit && credit))) return null;

  const mapping: Proposal['mapping'] = { columns };
  columns.timestamp = reference(booking);
  // A time in a column of its own joins the date: "Datum" + "Uhrzeit" read as "DD.MM.YYYY HH:mm:ss".
  const time = (byTarget.get('time') ?? []).find((column) => column.values.length > 0 && column.values.every((text) => TIME_OF_DAY.test(text)));
  let timeSuffix = '';
  if (time && booking.dateFormats.some((candidate) => !candidate.compiled.hasTime || candidate.format === 'ISO')) {
    columns.timestamp = [reference(booking), reference(time)];
    timeSuffix = time.values.every((text) => /:\d{2}:\d{2}$/.test(text)) ? ' HH:mm:ss' : ' HH:mm';
  }
  if (value) columns.valueDate = reference(value);

  if (signedAmount) {
    columns.amount = reference(signedAmount);
    const indicator = firstOf('indicator');
    const unsigned = signedAmount.values.every((text) => !/^[(\-−]|[-)]$/.test(text));
    if (indicator && unsigned) {
      const marks = indicatorMarks(indicator);
      if (marks) {
        delete columns.amount;
        mapping.amount = { column: reference(signedAmount), indicator: { column: reference(indicator), debit: marks.debit, credit: marks.credit } };
      } else {
        warnings.push({ line: null, message: `the values of ${JSON.stringify(indicator.label)} are not all debit or credit marks; the amount is read as signed` });
      }
    }
  } else if (debit && credit) {
    mapping.amount = { debit: reference(debit), credit: reference(credit) };
  }

  // Texts.
  const descriptions = byTarget.get('description') ?? [];
  const bookingText = descriptions.find((column) => column.key === 'buchungstext');
  if (bookingText && descriptions.length > 1 && !firstOf('type')) {
    // Sparkasse and Postbank write the kind of booking in "Buchungstext", the purpose in "Verwendungszweck".
    descriptions.splice(descriptions.indexOf(bookingText), 1);
    columns.type = reference(bookingText);
  }
  if (descriptions.length > 0) {
    columns.description = descriptions.length === 1 ? reference(descriptions[0] as ColumnFacts) : descriptions.map(reference);
  } else if (!header) {
    const texts = facts.filter((column) => !column.numeric && column.dateFormats.length === 0 && column.values.length > 0);
    const longest = texts.sort((left, right) => averageLength(right) - averageLength(left))[0];
    if (longest) columns.description = reference(longest);
  }
  for (const target of ['type', 'reference', 'endToEndId', 'bankReference', 'counterpartyName', 'counterpartyAccount', 'accountId', 'statementId', 'bankTransactionCode']) {
    const column = firstOf(target);
    if (column && columns[target] === undefined) columns[target] = reference(column);
  }

  // Currency: a column, else the header's or the amounts' own.
  const currencyColumn = firstOf('currency');
  if (currencyColumn) columns.currency = reference(currencyColumn);
  else {
    const amountColumns = [signedAmount, debit, credit].filter((column): column is ColumnFacts => column !== undefined);
    const named = amountColumns.map((column) => column.headerCurrency).find((currency) => currency !== null);
    const reader = compileAmountReader({ decimalSeparator: '.', thousandsSeparator: '' });
    const symbol = amountColumns.flatMap((column) => column.values.slice(0, 20)).map((text) => reader.read(text.replace(/[\d.,' \u00a0\u202f]+/, '0'))?.currency ?? null).find((currency) => currency !== null);
    const currency = named ?? symbol;
    if (currency) mapping.currency = currency;
    else warnings.push({ line: null, message: 'no currency was found in the file: set the mapping\'s "currency", e.g. "EUR"' });
  }

  // A unique id the bank gives each row.
  const identifier = firstOf('identifier');
  if (identifier && identifier.values.length > 0 && new Set(identifier.values).size === identifier.values.length) {
    mapping.externalId = [reference(identifier)];
    if (columns.bankReference === undefined) columns.bankReference = reference(identifier);
  }

  // Pending rows: left out by a skip rule.
  for (const column of facts) {
    const pending = [...new Set(column.values.filter((text) => PENDING_VALUES.has(text.toLowerCase())))];
    if (pending.length > 0) {
      mapping.skip = [{ column: reference(column), equals: pending }];
      break;
    }
  }

  return { mapping, timeSuffix, dateColumns: [booking, value].filter((column): column is ColumnFacts => column !== undefined).map((column) => column.index) };
}

function averageLength(column: ColumnFacts): number {
  return column.values.reduce((total, value) => total + value.length, 0) / Math.max(1, column.values.length);
}

/** The indicator's values sorted into debit and credit marks, or null when one is neither. */
function indicatorMarks(column: ColumnFacts): { debit: string[]; credit: string[] } | null {
  const distinct = [...new Set(column.values)];
  if (distinct.length === 0 || distinct.length > CSV_PREVIEW_LIMITS.indicatorValueLimit) return null;
  const debit: string[] = [];
  const credit: string[] = [];
  for (const value of distinct) {
    const key = value.toLowerCase();
    if (DEBIT_MARKS.has(key)) debit.push(value);
    else if (CREDIT_MARKS.has(key)) credit.push(value);
    else return null;
  }
  // A mark the sample lacks is added in its usual spelling, so that the file's other rows read.
  if (debit.length === 0) debit.push(credit.some((value) => value.toLowerCase() === 'bij') ? 'Af' : 'D');
  if (credit.length === 0) credit.push(debit.some((value) => value.toLowerCase() === 'af') ? 'Bij' : 'C');
  return { debit, credit };
}

// ---------------------------------------------------------------------------------------------
// Rows
// ---------------------------------------------------------------------------------------------

async function readRows(text: string, mapping: CsvMapping, customColumns: readonly CsvCustomColumn[], warnings: CsvPreview['warnings']): Promise<StatementEntry[]> {
  const rows: StatementEntry[] = [];
  try {
    for await (const event of parseCsv(textChunks(text), { mapping, customColumns })) {
      if (event.kind === 'entry') {
        rows.push(event.entry);
        if (rows.length >= CSV_PREVIEW_LIMITS.rowLimit) break;
      } else if (event.kind === 'warning' && event.line !== null) warnings.push({ line: event.line, message: event.message });
    }
  } catch (error) {
    if (!(error instanceof ImportFormatError)) throw error;
    warnings.push({ line: error.line, message: `the proposed mapping fails: ${error.message}` });
  }
  return rows;
}
