import { ImportFormatError, type StatementEntry } from '../../statement-entries.ts';
import { textChunks } from '../../text.ts';
import { compileAmountReader } from './amounts.ts';
import { checkCsvMapping } from './check-mapping.ts';
import { mappingFromHeader } from './header-mapping.ts';
import {
  CSV_BANK_TARGETS,
  CSV_STANDARD_TARGETS,
  MappingError,
  type CsvColumnReference,
  type CsvColumnSource,
  type CsvCustomColumn,
  type CsvMapping,
  type CsvSkipRule,
} from './mapping.ts';
import { namedHeaderWidth, parseCsv } from './parse.ts';
import { splitSample, type SampleRecord } from './sniffing.ts';
import { locateHeader } from './propose-header.ts';
import { detectCsvPreset, parseCsvPreset, type CsvPreset, type CsvPresetName } from './presets.ts';
import {
  chooseDateFormat,
  detectSeparators,
  examineColumn,
  indicatorMarks,
  INDICATOR_VALUE_LIMIT,
  isBalanceWord,
  isCurrencyColumn,
  isPendingValue,
  isTimeOfDay,
  type ColumnFacts,
  type IndicatorMarks,
} from './propose-values.ts';

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
  /**
   * The payment provider's settlement report the header is, which imports with its preset and
   * without a mapping (presets.ts); null for any other file.
   */
  preset: { name: CsvPresetName; title: string } | null;
  /** What stops a mapping from being proposed, each with what to do. */
  problems: string[];
  /**
   * What the proposal could not decide, in words, each with what to check or set: empty when
   * the proposed mapping reads the file as it is (the problems are among them).
   */
  questions: string[];
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
  indicatorValueLimit: INDICATOR_VALUE_LIMIT,
  /** Lines of another width listed one by one in the questions; the rest are counted. */
  listedLineLimit: 5,
} as const;

const DELIMITERS = [';', ',', '\t', '|'];

/**
 * Header names by target, normalised (lower case, no accents, no parentheses, words only).
 * English, German, Dutch, French and Spanish bank exports, and common ledger exports.
 */
const HEADER_NAMES: Record<string, readonly string[]> = {
  timestamp: [
    'date',
    'booking date',
    'bookingdate',
    'posting date',
    'posted date',
    'post date',
    'transaction date',
    'trans date',
    'txn date',
    'buchungstag',
    'buchungsdatum',
    'buchung',
    'datum',
    'fecha',
    'fecha operacion',
    'fecha contable',
    'f operacion',
    'date operation',
    'date de l operation',
    'date comptable',
    'dateop',
    'boekdatum',
    'transactiedatum',
    'data',
    'data operazione',
    'completed date',
    'date processed',
    'date de comptabilisation',
    'datum verrichting',
    'datum verrekening',
  ],
  valueDate: [
    'value date',
    'valuta',
    'valutadatum',
    'wert',
    'wertstellung',
    'wertstellungstag',
    'rentedatum',
    'date de valeur',
    'date valeur',
    'fecha valor',
    'f valor',
    'dateval',
    'data valuta',
  ],
  amount: [
    'amount',
    'betrag',
    'bedrag',
    'montant',
    'importe',
    'transaction amount',
    'umsatz',
    'amount in local currency',
    'local amount',
    'transactiebedrag',
    'brutto',
    'importo',
    'net amount',
    'amount local currency',
  ],
  debit: [
    'debit',
    'debit amount',
    'debits',
    'soll',
    'sollbetrag',
    'sollumsatz',
    'af',
    'debet',
    'cargo',
    'cargos',
    'paid out',
    'money out',
    'withdrawal',
    'withdrawals',
    'withdrawal amount',
    'ausgang',
    'ausgaben',
    'debit amt',
    'uitgaven',
    'out',
  ],
  credit: [
    'credit',
    'credit amount',
    'credits',
    'haben',
    'habenbetrag',
    'habenumsatz',
    'bij',
    'abono',
    'abonos',
    'paid in',
    'money in',
    'deposit',
    'deposits',
    'deposit amount',
    'eingang',
    'einnahmen',
    'credit amt',
    'inkomsten',
    'in',
  ],
  indicator: [
    'af bij',
    'debit credit',
    'credit debit',
    'soll haben',
    's h',
    'd c',
    'c d',
    'dr cr',
    'cr dr',
    'debit credit indicator',
    'cd indicator',
    'sign',
    'creditdebet',
    'credit debet',
    'debet credit',
  ],
  description: [
    'description',
    'verwendungszweck',
    'omschrijving',
    'omschrijving 1',
    'omschrijving 2',
    'omschrijving 3',
    'libelle',
    'libelle operation',
    'concepto',
    'memo',
    'narrative',
    'transaction description',
    'mededelingen',
    'text',
    'beschreibung',
    'communication',
    'communications',
    'observaciones',
    'detail',
    'remittance information',
    'payment details',
    'transaction details',
    'particulars',
    'original description',
    'details de l operation',
    'descripcion',
    'causale',
    'buchungstext',
    'vorgang verwendungszweck',
    'toelichting',
    'description 1',
    'description 2',
    'description 3',
    'transaction ref1',
    'transaction ref3',
  ],
  type: [
    'type',
    'transaction type',
    'umsatzart',
    'mutatiesoort',
    'tipo',
    'nature',
    'type operation',
    'buchungsart',
    'vorgang',
    'typ',
    'document type',
    'trans type',
    'transaktionstyp',
    'categorie operation',
    'type de transaction',
    'betaalwijze',
  ],
  bankTransactionCode: [
    'code',
    'transaction code',
    'gvc',
    'bank transaction code',
    'btc',
    'txn code',
    'transaction type code',
    'textschluessel',
    'textschlussel',
  ],
  reference: [
    'reference',
    'referenz',
    'kundenreferenz',
    'referentie',
    'referencia',
    'ref',
    'customer reference',
    'betalingskenmerk',
    'check number',
    'check or slip',
    'cheque number',
    'check',
    'invoice',
    'invoice number',
    'document no',
    'document number',
    'belegnummer',
    'beleg',
    'reference number',
    'payment reference',
    'zahlungsreferenz',
    'numero de reference',
    'your reference',
  ],
  endToEndId: ['end to end', 'end to end id', 'endtoendid', 'end to end reference', 'eref', 'transactiereferentie', 'ende zu ende referenz'],
  bankReference: ['bank reference', 'bankreferenz', 'bank ref', 'primanota'],
  identifier: [
    'transaction id',
    'transaktionscode',
    'transaktions id',
    'transaction number',
    'unique id',
    'fitid',
    'id',
    'volgnr',
    'entry no',
    'entry number',
    'n de transaction',
  ],
  counterpartyName: [
    'counterparty',
    'counterparty name',
    'counter party',
    'auftraggeber',
    'empfanger',
    'auftraggeber empfanger',
    'begunstigter',
    'beguenstigter',
    'begunstigter auftraggeber',
    'beguenstigter auftraggeber',
    'begunstigter zahlungspflichtiger',
    'beguenstigter zahlungspflichtiger',
    'auftraggeber zahlungsempfanger',
    'empfanger zahlungspflichtiger',
    'zahlungsempfanger',
    'zahlungspflichtiger',
    'name',
    'naam',
    'naam omschrijving',
    'naam tegenpartij',
    'payee',
    'payer',
    'beneficiary',
    'beneficiario',
    'ordenante',
    'tiers',
    'nom',
    'merchant',
    'name zahlungsbeteiligter',
    'zahlungsbeteiligter',
    'nom du tiers',
    'counterparty account name',
    'tegenrekeninghouder',
    'handelaar',
  ],
  counterpartyAccount: [
    'iban',
    'tegenrekening',
    'tegenrekening iban bban',
    'kontonummer iban',
    'iban kontonummer',
    'counterparty account',
    'counterparty iban',
    'iban zahlungsbeteiligter',
    'gegenkonto',
    'compte',
    'cuenta',
    'iban tegenpartij',
    'compte contrepartie',
    'tegenrekeningnummer',
  ],
  accountId: [
    'account',
    'account number',
    'auftragskonto',
    'rekening',
    'iban bban',
    'konto',
    'g l account',
    'gl account',
    'account no',
    'sachkonto',
    'iban auftragskonto',
    'own account',
    'rekeningnummer',
    'numero de compte',
    'account iban',
  ],
  time: ['time', 'uhrzeit', 'zeit', 'heure', 'hora', 'tijd', 'tijdstip', 'transaction time', 'booking time', 'ora'],
  statementId: ['statement', 'statement number', 'statement id', 'auszugsnummer', 'kontoauszug', 'auszug', 'afschriftnummer'],
  currency: [
    'currency',
    'wahrung',
    'waehrung',
    'munt',
    'muntsoort',
    'devise',
    'moneda',
    'ccy',
    'cur',
    'currency code',
    'local currency',
    'valuta code',
    'valutacode',
    'monn',
  ],
  balance: [
    'balance',
    'saldo',
    'kontostand',
    'saldo na mutatie',
    'saldo na trn',
    'guthaben',
    'saldo nach buchung',
    'solde',
    'running balance',
    'available balance',
  ],
};

/** Names of the day a transaction took place, on exports that also give the day it was booked. */
const TRANSACTION_DATE_NAMES: ReadonlySet<string> = new Set([
  'transaction date',
  'trans date',
  'txn date',
  'transactiedatum',
  'datum verrichting',
  'belegdatum',
  'purchase date',
  'date operation',
  'date de l operation',
  'fecha operacion',
  'f operacion',
  'data operazione',
]);
/** Names of the day a transaction was booked (posted, settled), on exports that also give the transaction date. */
const POSTING_DATE_NAMES: ReadonlySet<string> = new Set([
  'booking date',
  'bookingdate',
  'posting date',
  'posted date',
  'post date',
  'buchungstag',
  'buchungsdatum',
  'boekdatum',
  'datum verrekening',
  'date comptable',
  'date de comptabilisation',
  'fecha contable',
  'date processed',
  'settlement date',
]);
/** Marks that a card export writes beside one kind of row only, leaving the other empty. */
const ONE_SIDED_MARKS: ReadonlySet<string> = new Set(['cr', 'dr']);
/** The dataset's standard and bank columns, compared without spaces: a header naming them is known. */
const STANDARD_NAMES: ReadonlySet<string> = new Set([...CSV_STANDARD_TARGETS, ...CSV_BANK_TARGETS, 'externalId'].map((name) => name.toLowerCase()));

const HEADER_TARGETS = new Map<string, string>();
for (const [target, names] of Object.entries(HEADER_NAMES)) for (const name of names) if (!HEADER_TARGETS.has(name)) HEADER_TARGETS.set(name, target);

const CURRENCY_WORDS: Record<string, string> = {
  eur: 'EUR',
  euro: 'EUR',
  euros: 'EUR',
  gbp: 'GBP',
  usd: 'USD',
  chf: 'CHF',
  sek: 'SEK',
  nok: 'NOK',
  dkk: 'DKK',
  pln: 'PLN',
  czk: 'CZK',
};

/**
 * Guesses the settings and a mapping for a CSV sample (the head of a file, already decoded)
 * and reads its first rows with that mapping.
 */
export async function previewCsv(sample: string, options: CsvPreviewOptions): Promise<CsvPreview> {
  const warnings: CsvPreview['warnings'] = [];
  const problems: string[] = [];
  const questions: string[] = [];
  let text = sample.charCodeAt(0) === 0xfeff ? sample.slice(1) : sample;
  if (!options.complete) {
    const lastBreak = Math.max(text.lastIndexOf('\n'), text.lastIndexOf('\r'));
    if (lastBreak > 0 && lastBreak < text.length - 1) text = text.slice(0, lastBreak + 1);
  }
  const encoding = options.encoding ?? 'utf-8';
  const recognised = await detectCsvPreset(text);
  if (recognised !== null) return presetPreview(text, recognised, encoding);
  let quote: string | null = '"';
  let layout = detectLayout(text, quote);
  if (layout !== null && quotesAreText(layout.block)) {
    // Quotes inside unquoted fields: this export never quotes, and a quote is just a character.
    quote = null;
    layout = detectLayout(text, quote);
  }
  if (layout === null) {
    problems.push(
      text.trim() === '' ? 'the file is empty' : 'no delimiter (";", ",", tab or "|") cuts the rows into the same number of fields; is this a CSV file?',
    );
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
      preset: null,
      problems,
      questions: [...problems],
      rows: [],
      warnings,
    };
  }
  const { delimiter, block, before, after } = layout;
  const located = locateHeader(block, before, (field) => isKnownHeader(field, options.customColumns));
  const header = located.header !== null;
  const first = located.header ?? (block[0] as SampleRecord);
  const width = first.fields.length;
  // Rows may lack the empty names at the end of the header.
  const required = header ? namedHeaderWidth(first.fields) : width;
  const fits = (record: SampleRecord) => record.fields.length >= required && (record.fields.length <= width || fitsWidth(record, width));
  const skipRows = first.line - 1;
  const columns = header ? first.fields.map((field) => field.trim()) : Array.from({ length: width }, (_, index) => `column ${index + 1}`);
  const reference = referenceOf(columns, header);
  // The rows of the table: the block's, and those further on that have its width (a row whose
  // text goes on in a line of its own breaks the block, not the table).
  const tableRows = [...block.slice(located.rowsFrom), ...after.filter(fits)];
  const balanceLines = tableRows.concat(after.filter((record) => !fits(record))).filter((record) => record.fields.slice(0, width).some(isBalanceWord));
  const data = tableRows.filter((record) => !balanceLines.includes(record));

  const facts = columns.map((label, index) =>
    examineColumn(index, label, header ? normaliseHeader(label) : null, data.slice(0, CSV_PREVIEW_LIMITS.examinedRowLimit)),
  );
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
    const proposal = proposeMapping(facts, header, reference, options.customColumns, problems, questions, warnings);
    if (proposal !== null) {
      const chosen = chooseDateFormat(
        proposal.dateColumns.map((index) => facts[index] as ColumnFacts),
        columns,
      );
      dateFormat = chosen.format;
      dateFormatAmbiguous = chosen.ambiguous;
      if (chosen.ambiguous) {
        const message = `the dates fit both ${chosen.format} and ${chosen.swapped}; ${chosen.format} is proposed: check a date whose day is above 12, or set dateFormat`;
        warnings.push({ line: null, message });
        questions.push(message);
      }
      if (dateFormat === null) {
        problems.push(
          `the values of ${JSON.stringify(columns[proposal.dateColumns[0] as number])} fit no known date format; set dateFormat, e.g. "DD.MM.YYYY"`,
        );
      } else {
        // A date-only format gains the time of a separate time column; the date-only values of
        // other date columns still read, as a format with a time accepts its date part alone.
        if (proposal.timeSuffix !== '' && dateFormat !== 'ISO') dateFormat += proposal.timeSuffix;
        const skip = skipRules(facts, balanceLines, width, reference);
        mapping = { ...base, dateFormat, ...proposal.mapping, columns: proposal.mapping.columns, ...(skip.length > 0 ? { skip } : {}) };
        const bookingFacts = facts[proposal.dateColumns[0] as number] as ColumnFacts;
        const hasTimes = proposal.timeSuffix !== '' || bookingFacts.values.some((text) => /\d:\d{2}/.test(text) && !/(Z|[+-]\d{2}:?\d{2})$/.test(text));
        if (hasTimes) {
          warnings.push({
            line: null,
            message:
              'the booking times carry no time zone: they are read as UTC unless the mapping\'s "timezone" names the zone of the export, e.g. "Europe/Berlin"',
          });
          questions.push(
            'the booking times carry no time zone: they are read as UTC; set the mapping\'s "timezone" to the zone of the export, e.g. "Europe/Berlin"',
          );
        }
      }
    }
  }
  if (separators.conflicting && mapping !== null && !standardHeader) {
    questions.push(
      `some amounts read as having a decimal comma and others a decimal point; "${separators.decimalSeparator}" is proposed: check the amounts of the first rows, or set decimalSeparator and thousandsSeparator`,
    );
  }

  // Lines of another width that no skip rule leaves out: the import refuses them.
  const skipping = mapping?.skip ?? [];
  const refused = after.filter((record) => !fits(record) && !leftOutBy(skipping, record, columns, header));
  for (const record of refused.slice(0, CSV_PREVIEW_LIMITS.listedLineLimit)) {
    warnings.push({
      line: record.line,
      message: `line ${record.line} has ${record.fields.length} field${record.fields.length === 1 ? '' : 's'} where the ${header ? 'header has' : 'rows have'} ${width}: the import will refuse it; remove it if it is a balance or total line`,
    });
  }
  if (refused.length > 0) questions.push(refusedLinesQuestion(refused, width, header));

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
    rows = await readRows(cutAfter(text, refused[0]?.line ?? null), mapping, options.customColumns, warnings, questions);
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
    preset: null,
    problems,
    questions: [...problems, ...questions],
    rows,
    warnings,
  };
}

/**
 * The preview of a provider's settlement report: nothing to propose, the file imports with its
 * preset; its first rows as the preset reads them. A row the preset cannot read is a warning
 * naming it (the import would refuse the file).
 */
async function presetPreview(text: string, recognised: { preset: CsvPreset; header: string[]; line: number }, encoding: string): Promise<CsvPreview> {
  const rows: StatementEntry[] = [];
  const warnings: CsvPreview['warnings'] = [];
  try {
    for await (const event of parseCsvPreset(textChunks(text), recognised.preset)) {
      if (event.kind !== 'entry') continue;
      rows.push(event.entry);
      if (rows.length >= CSV_PREVIEW_LIMITS.rowLimit) break;
    }
  } catch (error) {
    if (!(error instanceof ImportFormatError)) throw error;
    warnings.push({ line: error.line, message: `the import would refuse the file: ${error.message}` });
  }
  return {
    encoding,
    delimiter: ',',
    quote: '"',
    header: true,
    skipRows: recognised.line - 1,
    decimalSeparator: '.',
    thousandsSeparator: '',
    // As the provider writes its dates (the preset reads them so; a mapping could not be given one).
    dateFormat: recognised.preset.name === 'paypal-settlement' ? 'YYYY/MM/DD HH:mm:ss' : 'YYYY-MM-DD HH:mm:ss',
    dateFormatAmbiguous: false,
    columns: recognised.header.map((field) => field.trim()),
    mapping: null,
    standardHeader: false,
    preset: { name: recognised.preset.name, title: recognised.preset.title },
    problems: [],
    questions: [],
    rows,
    warnings,
  };
}

/** Whether a header text is a name the proposal knows: a bank export's, a dataset column's. */
function isKnownHeader(field: string, customColumns: readonly CsvCustomColumn[]): boolean {
  const { key } = normaliseHeader(field);
  if (key === '') return false;
  if (HEADER_TARGETS.has(key) || STANDARD_NAMES.has(key.replace(/ /g, ''))) return true;
  return customColumns.some((column) => normaliseHeader(column.name).key.replace(/ /g, '') === key.replace(/ /g, ''));
}

/**
 * How the mapping names a column: by its header text, or by its index when it has none, shares
 * it with another column, or the file has no header (Volksbank calls its debit/credit column
 * " ", and Amex leaves the name of its "CR" column empty).
 */
function referenceOf(labels: readonly string[], header: boolean): (column: ColumnFacts | number) => CsvColumnReference {
  const counts = new Map<string, number>();
  for (const label of labels) counts.set(label.toLowerCase(), (counts.get(label.toLowerCase()) ?? 0) + 1);
  return (column) => {
    const index = typeof column === 'number' ? column : column.index;
    const label = labels[index] as string;
    return header && label !== '' && counts.get(label.toLowerCase()) === 1 ? label : index;
  };
}

/**
 * Skip rules for rows that are not entries: rows not yet booked (a pending mark, in any column)
 * and balance or total lines (a cell naming a balance), each by the first column that says so.
 */
function skipRules(
  facts: readonly ColumnFacts[],
  balanceLines: readonly SampleRecord[],
  width: number,
  reference: (column: number) => CsvColumnReference,
): CsvSkipRule[] {
  const byColumn = new Map<number, Set<string>>();
  const add = (column: number, value: string) => {
    const values = byColumn.get(column) ?? new Set<string>();
    values.add(value);
    byColumn.set(column, values);
  };
  for (const column of facts) {
    const pending = column.pending.length > 0 ? column.pending : [...new Set(column.values.filter(isPendingValue))];
    for (const value of pending) add(column.index, value);
    if (pending.length > 0) break;
  }
  for (const record of balanceLines) {
    const column = record.fields.slice(0, width).findIndex(isBalanceWord);
    add(column, (record.fields[column] as string).trim());
  }
  return [...byColumn].map(([column, values]) => ({ column: reference(column), equals: [...values] }));
}

/** Whether a skip rule of the proposal leaves out a line of another width, as the import would. */
function leftOutBy(rules: readonly CsvSkipRule[], record: SampleRecord, labels: readonly string[], header: boolean): boolean {
  return rules.some((rule) => {
    const index = typeof rule.column === 'number' ? rule.column : header ? labels.indexOf(rule.column) : -1;
    const value = index < 0 ? undefined : record.fields[index];
    return value !== undefined && rule.equals.includes(value.trim());
  });
}

function refusedLinesQuestion(refused: readonly SampleRecord[], width: number, header: boolean): string {
  const shown = refused.slice(0, CSV_PREVIEW_LIMITS.listedLineLimit).map((record) => String(record.line));
  const lines =
    refused.length > shown.length
      ? `lines ${shown.join(', ')} and ${refused.length - shown.length} more`
      : shown.length === 1
        ? `line ${shown[0]}`
        : `lines ${shown.slice(0, -1).join(', ')} and ${shown.at(-1)}`;
  // A line whose first fields are empty continues the text of the row above (OCBC writes a
  // card payment's details on a line of their own).
  const continuing = refused.every((record) => record.fields.length < width && (record.fields[0] as string).trim() === '');
  return continuing
    ? `${lines} ${refused.length === 1 ? 'has' : 'have'} fewer fields than the ${header ? 'header' : 'rows'} (${width}) and begin${refused.length === 1 ? 's' : ''} with empty ones: ${refused.length === 1 ? 'it seems' : 'they seem'} to continue the text of the row above, which the import cannot join; the import will refuse the file as it is`
    : `${lines} ${refused.length === 1 ? 'does' : 'do'} not have the ${width} fields of the ${header ? 'header' : 'rows'}: the import will refuse ${refused.length === 1 ? 'it' : 'them'}; if ${refused.length === 1 ? 'it is a balance or total line' : 'they are balance or total lines'}, remove ${refused.length === 1 ? 'it' : 'them'} or add a skip rule`;
}

// ---------------------------------------------------------------------------------------------
// Layout: delimiter, lines before the header, the block of rows
// ---------------------------------------------------------------------------------------------

interface Layout {
  delimiter: string;
  /** The run of records of one width: the header (if any) and the rows. */
  block: SampleRecord[];
  /** The record just before the block (a header wider than its rows, a title), or null. */
  before: SampleRecord | null;
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
    for (let start = 0; start < records.length;) {
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
  return {
    delimiter: best.delimiter,
    block: best.records.slice(best.start, best.end),
    before: best.records[best.start - 1] ?? null,
    after: best.records.slice(best.end),
  };
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
  text = text
    .replace(/\([^)]*\)/g, ' ')
    .replace(/[^a-z0-9]+/g, ' ')
    .trim();
  const words = text.split(' ');
  const last = words[words.length - 1] as string;
  if (words.length > 1 && CURRENCY_WORDS[last]) {
    currency ??= CURRENCY_WORDS[last] as string;
    text = words.slice(0, -1).join(' ');
  }
  return { key: text, currency };
}

// ---------------------------------------------------------------------------------------------
// Proposing a mapping
// ---------------------------------------------------------------------------------------------

interface Proposal {
  mapping: Omit<CsvMapping, 'columns'> & { columns: Record<string, CsvColumnSource> };
  /** " HH:mm:ss" or " HH:mm" when a time column joins the booking date, else "". */
  timeSuffix: string;
  /** Columns whose values must fit the date format: the timestamp's first. */
  dateColumns: number[];
}

function proposeMapping(
  facts: readonly ColumnFacts[],
  header: boolean,
  reference: (column: ColumnFacts) => CsvColumnReference,
  customColumns: readonly CsvCustomColumn[],
  problems: string[],
  questions: string[],
  warnings: CsvPreview['warnings'],
): Proposal | null {
  const byTarget = new Map<string, ColumnFacts[]>();
  // Custom columns match without regard to spaces too: "Cost centre" is costCentre.
  const compact = (key: string) => key.replace(/ /g, '');
  const customByKey = new Map(customColumns.map((column) => [compact(normaliseHeader(column.name).key), column]));
  const columns: Record<string, CsvColumnSource> = {};
  for (const column of facts) {
    if (!header || column.key === '') continue;
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

  // Dates: named columns whose values are dates, else the first column of dates. A card or
  // ledger export that names both the transaction date and the booking date gives both.
  const datesByName = (target: string) => (byTarget.get(target) ?? []).find((column) => column.dateFormats.length > 0);
  const dateColumns = facts.filter((column) => column.dateFormats.length > 0);
  const named = (names: ReadonlySet<string>) => dateColumns.find((column) => names.has(column.key));
  const transactionDate = named(TRANSACTION_DATE_NAMES);
  const postingDate = named(POSTING_DATE_NAMES);
  const moment = transactionDate && postingDate ? transactionDate : undefined;
  const booking = moment ? postingDate : (datesByName('timestamp') ?? dateColumns[0]);
  const value = datesByName('valueDate') ?? (header ? undefined : dateColumns.find((column) => column !== booking));

  // Amounts: one signed column, one with an indicator, or debit and credit columns.
  const amountByName = (byTarget.get('amount') ?? []).find((column) => column.numeric);
  const debit = (byTarget.get('debit') ?? []).find((column) => column.numeric || column.values.length === 0);
  const credit = (byTarget.get('credit') ?? []).find((column) => column.numeric || column.values.length === 0);
  const balanceKeys = new Set(HEADER_NAMES.balance);
  const taken = new Set<ColumnFacts>([moment, booking, value].filter((column): column is ColumnFacts => column !== undefined));
  const amountByValues =
    amountByName || (debit && credit)
      ? undefined
      : facts.find((column) => column.amountLike && !taken.has(column) && !balanceKeys.has(column.key) && column.dateFormats.length === 0);
  const signedAmount = amountByName ?? amountByValues;

  if (!booking) problems.push('no column of dates was found: name the booking date\'s column in "columns.timestamp" and set "dateFormat"');
  if (!signedAmount && !(debit && credit)) {
    problems.push('no amount column was found: name it in "columns.amount", or give "amount": {"debit": column, "credit": column} for separate columns');
  }
  if (!booking || (!signedAmount && !(debit && credit))) return null;

  const mapping: Proposal['mapping'] = { columns };
  let timeSuffix = '';
  if (moment) {
    columns.timestamp = reference(moment);
    columns.bookingDate = reference(booking);
  } else {
    columns.timestamp = reference(booking);
    // A time in a column of its own joins the date: "Datum" + "Uhrzeit" read as "DD.MM.YYYY HH:mm:ss".
    const time = (byTarget.get('time') ?? []).find((column) => column.values.length > 0 && column.values.every(isTimeOfDay));
    if (time && booking.dateFormats.some((candidate) => !candidate.compiled.hasTime || candidate.format === 'ISO')) {
      columns.timestamp = [reference(booking), reference(time)];
      timeSuffix = time.values.every((text) => /:\d{2}:\d{2}$/.test(text)) ? ' HH:mm:ss' : ' HH:mm';
    }
  }
  if (value && value !== moment && value !== booking) columns.valueDate = reference(value);

  if (signedAmount) {
    columns.amount = reference(signedAmount);
    const unsigned = signedAmount.values.every((text) => !/^[(\-−]|[-)]$/.test(text));
    const indicator = unsigned ? findIndicator(facts, firstOf('indicator'), signedAmount, taken, warnings) : null;
    if (indicator) {
      delete columns.amount;
      const { debit: debitMarks, credit: creditMarks, emptyMeans } = indicator.marks;
      mapping.amount = { column: reference(signedAmount), indicator: { column: reference(indicator.column), debit: debitMarks, credit: creditMarks } };
      if (emptyMeans !== null) {
        const written = (emptyMeans === 'debit' ? creditMarks : debitMarks).map((mark) => JSON.stringify(mark)).join(', ');
        questions.push(
          `the rows without a mark in ${describeColumn(indicator.column)} are read as money ${emptyMeans === 'debit' ? 'out' : 'in'}, since only ${written} is written there: check a row of each kind`,
        );
      }
    } else if (unsigned && signedAmount.values.length > 0) {
      questions.push(
        `every amount in ${describeColumn(signedAmount)} is positive and no column says which are money out: if charges are written as positive (a card statement), set "invertSign" to true, or name the column that marks debits and credits in "amount": {"column": ..., "indicator": ...}`,
      );
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
    const texts = facts.filter((column) => !column.numeric && column.dateFormats.length === 0 && column.values.length > 0 && !isCurrencyColumn(column));
    const longest = texts.sort((left, right) => averageLength(right) - averageLength(left))[0];
    if (longest) columns.description = reference(longest);
  }
  for (const target of [
    'type',
    'reference',
    'endToEndId',
    'bankReference',
    'counterpartyName',
    'counterpartyAccount',
    'accountId',
    'statementId',
    'bankTransactionCode',
  ]) {
    const column = firstOf(target);
    if (column && columns[target] === undefined) columns[target] = reference(column);
  }

  // Currency: a column named so or holding only currency codes, else the header's or the amounts' own.
  const currencyColumn = firstOf('currency') ?? facts.find((column) => !taken.has(column) && isCurrencyColumn(column));
  if (currencyColumn) columns.currency = reference(currencyColumn);
  else {
    const amountColumns = [signedAmount, debit, credit].filter((column): column is ColumnFacts => column !== undefined);
    const named = amountColumns.map((column) => column.headerCurrency).find((currency) => currency !== null);
    const reader = compileAmountReader({ decimalSeparator: '.', thousandsSeparator: '' });
    const symbol = amountColumns
      .flatMap((column) => column.values.slice(0, 20))
      .map((text) => reader.read(text.replace(/[\d.,' \u00a0\u202f]+/, '0'))?.currency ?? null)
      .find((currency) => currency !== null);
    const currency = named ?? symbol;
    if (currency) mapping.currency = currency;
    else {
      warnings.push({ line: null, message: 'no currency was found in the file: set the mapping\'s "currency", e.g. "EUR"' });
      questions.push('no currency was found in the file: set the mapping\'s "currency" to the account\'s, e.g. "EUR"');
    }
  }

  // A unique id the bank gives each row.
  const identifier = firstOf('identifier');
  if (identifier && identifier.values.length > 0 && new Set(identifier.values).size === identifier.values.length) {
    mapping.externalId = [reference(identifier)];
    if (columns.bankReference === undefined) columns.bankReference = reference(identifier);
  }

  const dates = [moment, booking, value].filter((column, index, all): column is ColumnFacts => column !== undefined && all.indexOf(column) === index);
  return { mapping, timeSuffix, dateColumns: dates.map((column) => column.index) };
}

/** A column as the questions name it: its header text, or its position. */
function describeColumn(column: ColumnFacts): string {
  return column.key === '' || column.label === '' ? `column ${column.index + 1}` : JSON.stringify(column.label);
}

/**
 * The column that says whether an unsigned amount is money out or in: the one the header names
 * so (Af Bij, Soll/Haben), else one whose values are all debit and credit marks wherever it
 * stands (Volksbank's unnamed "S"/"H" column, Knab's "CreditDebet"), or, on a card export, a
 * column that writes "CR" beside payments and nothing beside charges.
 */
function findIndicator(
  facts: readonly ColumnFacts[],
  named: ColumnFacts | undefined,
  amount: ColumnFacts,
  taken: ReadonlySet<ColumnFacts>,
  warnings: CsvPreview['warnings'],
): { column: ColumnFacts; marks: IndicatorMarks } | null {
  if (named) {
    const marks = indicatorMarks(named);
    if (marks) return { column: named, marks };
    warnings.push({ line: null, message: `the values of ${JSON.stringify(named.label)} are not all debit or credit marks; the amount is read as signed` });
    return null;
  }
  for (const column of facts) {
    if (column === amount || taken.has(column) || column.numeric || column.dateFormats.length > 0) continue;
    const marks = indicatorMarks(column);
    if (marks === null) continue;
    // One side written and the other left empty is read as marks only for the card convention
    // (CR or DR): an empty column with a stray "-" or "D" says nothing.
    if (marks.emptyMeans !== null && ![...marks.debit, ...marks.credit].every((mark) => mark === '' || ONE_SIDED_MARKS.has(mark.toLowerCase()))) continue;
    return { column, marks };
  }
  return null;
}

function averageLength(column: ColumnFacts): number {
  return column.values.reduce((total, value) => total + value.length, 0) / Math.max(1, column.values.length);
}

// ---------------------------------------------------------------------------------------------
// Rows
// ---------------------------------------------------------------------------------------------

async function readRows(
  text: string,
  mapping: CsvMapping,
  customColumns: readonly CsvCustomColumn[],
  warnings: CsvPreview['warnings'],
  questions: string[],
): Promise<StatementEntry[]> {
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
    questions.push(`the proposed mapping does not read the file: ${error.message}`);
  }
  return rows;
}
