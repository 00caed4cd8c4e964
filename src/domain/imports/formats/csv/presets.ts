import { CURRENCY_PATTERN } from '../../../catalog/columns.ts';
import { addDecimals, compareDecimals, minorUnitDigits, negateDecimal, placeImpliedDecimals, withCurrencyScale } from '../../../money.ts';
import { textChunks } from '../../text.ts';
import { emptyEntry, ImportFormatError, isCalendarDate, quoteFound, type ParseEvent, type StatementEntry } from '../../statement-entries.ts';
import { readRecords } from './records.ts';

/**
 * Presets: the settlement (payout) reports of payment providers, read without a mapping. A
 * report is recognised by its header; each of its rows that moves money becomes one entry whose
 * `amount` is the row's net (what it adds to or takes from the payout, signed), with the payout
 * it belongs to in `payoutId`, its kind in `type`, and its gross and fee in columns of their own.
 * Rows that are not transactions of a payout (the payout itself, a report's header and footer
 * records) are left out and counted in the import's report, so that what was read adds up to
 * what the file holds. docs/IMPORTS.md lists the presets and the documentation each follows.
 */

export const CSV_PRESET_NAMES = ['stripe-payout-reconciliation', 'adyen-settlement-details', 'paypal-settlement'] as const;
export type CsvPresetName = (typeof CSV_PRESET_NAMES)[number];

/** The columns a preset fills besides the standard ones; an import adds them to the dataset the first time (as bank columns are). */
export const PRESET_COLUMNS = [
  { name: 'payoutId', type: 'string' },
  { name: 'gross', type: 'money' },
  { name: 'fee', type: 'money' },
  { name: 'originalAmount', type: 'money' },
  { name: 'originalCurrency', type: 'string' },
] as const;

export interface CsvPreset {
  name: CsvPresetName;
  /** The report, in the provider's words. */
  title: string;
  /** Whether a record is this report's header. */
  isHeader(fields: readonly string[]): boolean;
  /** A reader of one file of the report. */
  reader(): PresetReader;
}

/** What a reader makes of one record: an entry, a row left out (and what kind of row it is), or nothing (a header). */
type RecordOutcome = { entry: StatementEntry } | { leftOut: string } | null;

interface PresetReader {
  read(fields: readonly string[], line: number): RecordOutcome;
}

/** Header names compared without regard to case, surrounding spaces or runs of spaces ("Transaction  Debit or Credit"). */
function headerKey(name: string): string {
  return name
    .replace(/^\ufeff/, '')
    .trim()
    .replace(/\s+/g, ' ')
    .toLowerCase();
}

/** The columns of a header by their key; the first of a repeated name wins. */
class HeaderIndex {
  readonly #index = new Map<string, number>();

  constructor(fields: readonly string[], from = 0) {
    for (let position = from; position < fields.length; position++) {
      const key = headerKey(fields[position] as string);
      if (!this.#index.has(key)) this.#index.set(key, position);
    }
  }

  has(name: string): boolean {
    return this.#index.has(headerKey(name));
  }

  /** The trimmed value of a column in a row; "" when the header or the row lacks it. */
  value(fields: readonly string[], name: string): string {
    const position = this.#index.get(headerKey(name));
    return position === undefined ? '' : (fields[position] ?? '').trim();
  }
}

function hasAll(fields: readonly string[], names: readonly string[], from = 0): boolean {
  const header = new HeaderIndex(fields, from);
  return names.every((name) => header.has(name));
}

// --- values ------------------------------------------------------------------------------------

const DECIMAL = /^-?\d+(\.\d+)?$/;

/** A decimal of a report written with a point ("-12.50", "0.04"); "" is zero when `emptyIsZero`. */
function decimalOf(value: string, line: number, column: string, emptyIsZero: boolean): string {
  if (value === '' && emptyIsZero) return '0';
  const text = value.startsWith('+') ? value.slice(1) : value;
  if (!DECIMAL.test(text))
    throw new ImportFormatError({ line, column }, quoteFound(value), 'a decimal amount written with a point, such as "12.50" or "-3.20"');
  return text.replace(/^(-?)0+(?=\d)/, '$1');
}

function currencyOf(value: string, line: number, column: string): string {
  const code = value.toUpperCase();
  if (!CURRENCY_PATTERN.test(code)) throw new ImportFormatError({ line, column }, quoteFound(value), 'a currency code such as "EUR" or "usd"');
  return code;
}

const DATE_TIME = /^(\d{4})[-/](\d{2})[-/](\d{2})(?:[ T](\d{2}):(\d{2})(?::(\d{2}))?)?(?:\s*(Z|[+-]\d{2}:?\d{2}))?$/;

/** A report's date and time ("2026-10-02 09:15:00", "2026/10/24 08:05:47 -0700"): the calendar date as written and the instant. */
function dateTimeOf(value: string, line: number, column: string, zoneOffsetMinutes: number | null): { date: string; instantMs: number | null } {
  const match = DATE_TIME.exec(value);
  const date = match ? `${match[1]}-${match[2]}-${match[3]}` : null;
  if (match === null || date === null || !isCalendarDate(date) || Number(match[4] ?? 0) > 23 || Number(match[5] ?? 0) > 59 || Number(match[6] ?? 0) > 59) {
    throw new ImportFormatError({ line, column }, quoteFound(value), 'a date and time such as "2026-10-02 09:15:00" or "2026/10/02 09:15:00 -0700"');
  }
  if (match[4] === undefined) return { date, instantMs: null };
  let offset = zoneOffsetMinutes;
  const zone = match[7];
  if (zone !== undefined) {
    if (zone === 'Z') offset = 0;
    else {
      const digits = zone.replace(':', '');
      offset = (digits.startsWith('-') ? -1 : 1) * (Number(digits.slice(1, 3)) * 60 + Number(digits.slice(3, 5)));
    }
  }
  if (offset === null) return { date, instantMs: null };
  const local = Date.UTC(Number(match[1]), Number(match[2]) - 1, Number(match[3]), Number(match[4]), Number(match[5]), Number(match[6] ?? '0'));
  return { date, instantMs: local - offset * 60_000 };
}

function subtract(left: string, right: string): string {
  return addDecimals(left, negateDecimal(right));
}

/** An entry of a preset: the standard fields, the preset's columns, and the amount (net) in the currency's scale. */
function presetEntry(
  line: number,
  values: {
    date: { date: string; instantMs: number | null };
    net: string;
    currency: string;
    type: string;
    description: string | null;
    reference: string | null;
    providerReference: string | null;
    uniqueId: string | null;
    payoutId: string | null;
    gross: string | null;
    fee: string;
    original: { amount: string; currency: string } | null;
  },
): StatementEntry {
  const entry = emptyEntry(line, 0, withCurrencyScale(values.net, values.currency));
  entry.bookingDate = values.date.date;
  entry.bookingTimeMs = values.date.instantMs;
  entry.currency = values.currency;
  entry.type = values.type;
  entry.description = values.description === '' ? null : values.description;
  entry.reference = values.reference === '' ? null : values.reference;
  entry.bankReference = values.providerReference === '' ? null : values.providerReference;
  entry.uniqueId = values.uniqueId;
  if (values.payoutId !== null && values.payoutId !== '') entry.extra.payoutId = values.payoutId;
  if (values.gross !== null) entry.extra.gross = withCurrencyScale(values.gross, values.currency);
  entry.extra.fee = withCurrencyScale(values.fee, values.currency);
  if (values.original !== null) {
    entry.extra.originalAmount = values.original.amount;
    entry.extra.originalCurrency = values.original.currency;
  }
  return entry;
}

// --- Stripe ------------------------------------------------------------------------------------

/**
 * Stripe's itemized payout reconciliation report (payout_reconciliation.itemized.N), and the
 * itemized balance reports of the same columns: one row per balance transaction, amounts in
 * major units. `net` = `gross` − `fee`, checked on every row.
 */
const STRIPE_REQUIRED = ['balance_transaction_id', 'currency', 'gross', 'fee', 'net', 'reporting_category', 'automatic_payout_id'];

const stripe: CsvPreset = {
  name: 'stripe-payout-reconciliation',
  title: 'Stripe payout reconciliation report (itemized)',
  isHeader: (fields) => hasAll(fields, STRIPE_REQUIRED) && (hasAll(fields, ['created_utc']) || hasAll(fields, ['created'])),
  reader(): PresetReader {
    let header: HeaderIndex | null = null;
    return {
      read(fields, line) {
        if (header === null) {
          header = new HeaderIndex(fields);
          return null;
        }
        const value = (name: string) => (header as HeaderIndex).value(fields, name);
        const category = value('reporting_category');
        // The payout itself (in the balance reports): its counterpart is the bank deposit.
        if (category === 'payout') return { leftOut: 'payout (the payout itself)' };
        const currency = currencyOf(value('currency'), line, 'currency');
        const gross = decimalOf(value('gross'), line, 'gross', false);
        const fee = decimalOf(value('fee'), line, 'fee', true);
        const net = decimalOf(value('net'), line, 'net', false);
        if (compareDecimals(subtract(gross, fee), net) !== 0) {
          throw new ImportFormatError({ line, column: 'net' }, quoteFound(value('net')), `gross less fee, ${subtract(gross, fee)}, as Stripe writes it`);
        }
        const created = value('created_utc') !== '' ? { column: 'created_utc', offset: 0 } : { column: 'created', offset: 0 };
        const facingCurrency = value('customer_facing_currency');
        const facingAmount = value('customer_facing_amount');
        const original =
          facingCurrency !== '' && facingAmount !== '' && facingCurrency.toUpperCase() !== currency
            ? {
                amount: decimalOf(facingAmount, line, 'customer_facing_amount', false),
                currency: currencyOf(facingCurrency, line, 'customer_facing_currency'),
              }
            : null;
        const id = value('balance_transaction_id');
        if (id === '') throw new ImportFormatError({ line, column: 'balance_transaction_id' }, '""', "the balance transaction's id (txn_...)");
        return {
          entry: presetEntry(line, {
            date: dateTimeOf(value(created.column), line, created.column, created.offset),
            net,
            currency,
            type: category === '' ? 'other' : category,
            description: value('description'),
            reference: value('source_id'),
            providerReference: id,
            uniqueId: id,
            payoutId: value('automatic_payout_id'),
            gross,
            fee,
            original,
          }),
        };
      },
    };
  },
};

// --- Adyen -------------------------------------------------------------------------------------

/**
 * Adyen's Settlement details report: one row per journal entry of a settlement batch. Amounts in
 * major units, split into debit and credit columns, gross in the gross currency (GC) and net and
 * costs in the net currency (NC).
 */
const ADYEN_REQUIRED = [
  'Merchant Account',
  'Psp Reference',
  'Creation Date',
  'Type',
  'Gross Currency',
  'Gross Debit (GC)',
  'Gross Credit (GC)',
  'Net Currency',
  'Net Debit (NC)',
  'Net Credit (NC)',
  'Batch Number',
];
const ADYEN_COSTS = ['Commission (NC)', 'Markup (NC)', 'Scheme Fees (NC)', 'Interchange (NC)'];

/** Time zone abbreviations Adyen writes beside a creation date (the account's time zone setting), as offsets in minutes. */
const ZONE_ABBREVIATIONS: Record<string, number> = {
  UTC: 0,
  GMT: 0,
  WET: 0,
  WEST: 60,
  BST: 60,
  CET: 60,
  CEST: 120,
  EET: 120,
  EEST: 180,
  EST: -300,
  EDT: -240,
  CST: -360,
  CDT: -300,
  MST: -420,
  MDT: -360,
  PST: -480,
  PDT: -420,
  AEST: 600,
  AEDT: 660,
  SGT: 480,
  JST: 540,
};

const adyen: CsvPreset = {
  name: 'adyen-settlement-details',
  title: 'Adyen Settlement details report',
  isHeader: (fields) => hasAll(fields, ADYEN_REQUIRED),
  reader(): PresetReader {
    let header: HeaderIndex | null = null;
    return {
      read(fields, line) {
        if (header === null) {
          header = new HeaderIndex(fields);
          return null;
        }
        const value = (name: string) => (header as HeaderIndex).value(fields, name);
        const type = value('Type');
        if (type === '') throw new ImportFormatError({ line, column: 'Type' }, '""', 'the journal type of the row ("Settled", "Refunded", "Fee", ...)');
        // The payout itself: its counterpart is the bank deposit.
        if (type === 'MerchantPayout') return { leftOut: 'MerchantPayout (the payout itself)' };
        const netCurrency = currencyOf(value('Net Currency'), line, 'Net Currency');
        const net = subtract(
          decimalOf(value('Net Credit (NC)'), line, 'Net Credit (NC)', true),
          decimalOf(value('Net Debit (NC)'), line, 'Net Debit (NC)', true),
        );
        const grossCurrencyText = value('Gross Currency');
        const gross = subtract(
          decimalOf(value('Gross Credit (GC)'), line, 'Gross Credit (GC)', true),
          decimalOf(value('Gross Debit (GC)'), line, 'Gross Debit (GC)', true),
        );
        let fee = '0';
        for (const column of ADYEN_COSTS) fee = addDecimals(fee, decimalOf(value(column), line, column, true));
        const grossCurrency = grossCurrencyText === '' ? netCurrency : currencyOf(grossCurrencyText, line, 'Gross Currency');
        const converted = grossCurrency !== netCurrency;
        const zone = value('TimeZone');
        const pspReference = value('Psp Reference');
        const modification = value('Modification Reference');
        const batch = value('Batch Number');
        const description = [
          type,
          value('Payment Method Variant') || value('Payment Method'),
          value('Merchant Reference'),
          pspReference === '' ? modification : '',
        ]
          .filter((part) => part !== '')
          .join(' ');
        return {
          entry: presetEntry(line, {
            date: dateTimeOf(value('Creation Date'), line, 'Creation Date', ZONE_ABBREVIATIONS[zone.toUpperCase()] ?? null),
            net,
            currency: netCurrency,
            type,
            description,
            reference: value('Merchant Reference'),
            providerReference: pspReference,
            // A payment's rows (settled, refunded, chargeback...) share its PSP reference; each has a modification reference of its own.
            uniqueId: pspReference !== '' && modification !== '' ? [value('Merchant Account'), type, pspReference, modification, batch].join('|') : null,
            payoutId: batch === '' ? null : `${value('Merchant Account')} batch ${batch}`,
            gross: converted ? null : gross,
            fee,
            original: converted ? { amount: withCurrencyScale(gross, grossCurrency), currency: grossCurrency } : null,
          }),
        };
      },
    };
  },
};

// --- PayPal ------------------------------------------------------------------------------------

/**
 * PayPal's Settlement Report (STL): records whose first field names their kind. RH, FH, SH, SF,
 * SC, RF, RC and FF are the report's, file's and sections' headers, footers and counts; CH is
 * the column header of the section body rows, SB, one per balance-affecting event. Amounts are
 * unsigned, in the currency's smallest unit, with a debit/credit indicator of their own for the
 * gross and for the fee.
 */
const PAYPAL_REQUIRED = [
  'Transaction ID',
  'Transaction Event Code',
  'Transaction Initiation Date',
  'Transaction Debit or Credit',
  'Gross Transaction Amount',
  'Gross Transaction Currency',
  'Fee Debit or Credit',
  'Fee Amount',
];

const PAYPAL_RECORDS: Record<string, string> = {
  RH: 'RH (report header)',
  FH: 'FH (file header)',
  SH: 'SH (section header)',
  CH: 'CH (column header)',
  SF: 'SF (section footer)',
  SC: 'SC (section count)',
  RF: 'RF (report footer)',
  RC: 'RC (report count)',
  FF: 'FF (file footer)',
};

/** The kind of a PayPal transaction event code, by its group (T00nn, T01nn...) or, for a few, by the code itself. */
const PAYPAL_CODES: Record<string, string> = { T1107: 'refund', T1106: 'chargeback', T1201: 'chargeback', T1202: 'chargeback reversal' };
const PAYPAL_GROUPS: Record<string, string> = {
  T00: 'payment',
  T01: 'fee',
  T02: 'currency conversion',
  T03: 'bank deposit',
  T04: 'withdrawal',
  T05: 'debit card',
  T06: 'credit card withdrawal',
  T07: 'credit card deposit',
  T08: 'bonus',
  T09: 'incentive',
  T10: 'bill pay',
  T11: 'reversal',
  T12: 'adjustment',
  T13: 'authorization',
  T14: 'dividend',
  T15: 'hold',
  T16: 'buyer credit',
  T17: 'loan',
  T18: 'buyer credit',
  T19: 'account correction',
  T20: 'transfer',
  T21: 'reserve',
  T22: 'transfer',
  T30: 'collection',
  T50: 'order',
  T97: 'donation',
  T98: 'other',
  T99: 'other',
};

function indicatorOf(value: string, line: number, column: string): 1 | -1 {
  const key = value.toUpperCase();
  if (key === 'CR') return 1;
  if (key === 'DR') return -1;
  throw new ImportFormatError({ line, column }, quoteFound(value), '"CR" (credit) or "DR" (debit)');
}

function minorUnitsOf(value: string, currency: string, line: number, column: string): string {
  if (!/^\d+$/.test(value)) {
    throw new ImportFormatError(
      { line, column },
      quoteFound(value),
      'an amount in the smallest unit of its currency, unsigned and without a decimal point ("10000" for 100.00)',
    );
  }
  return placeImpliedDecimals(value, minorUnitDigits(currency));
}

const paypal: CsvPreset = {
  name: 'paypal-settlement',
  title: 'PayPal Settlement Report (STL)',
  isHeader: (fields) => (fields[0] ?? '').trim().replace(/^\ufeff/, '') === 'CH' && hasAll(fields, PAYPAL_REQUIRED, 1),
  reader(): PresetReader {
    let header: HeaderIndex | null = null;
    let sectionDate: string | null = null;
    return {
      read(fields, line) {
        const kind = (fields[0] ?? '')
          .replace(/^\ufeff/, '')
          .trim()
          .toUpperCase();
        if (kind === 'CH') {
          header = new HeaderIndex(fields, 1);
          return { leftOut: PAYPAL_RECORDS.CH as string };
        }
        if (kind === 'SH') {
          // The section's start: the day whose activity the section reports.
          sectionDate = dateTimeOf((fields[1] ?? '').trim(), line, 'SH start date', null).date;
          return { leftOut: PAYPAL_RECORDS.SH as string };
        }
        if (kind !== 'SB') {
          const known = PAYPAL_RECORDS[kind];
          if (known === undefined) {
            throw new ImportFormatError(
              { line },
              `a record of kind ${quoteFound(fields[0] ?? '')}`,
              'a record of the Settlement Report: RH, FH, SH, CH, SB, SF, SC, RF, RC or FF',
            );
          }
          return { leftOut: known };
        }
        if (header === null)
          throw new ImportFormatError({ line }, 'a section body record (SB) before any column header (CH)', 'the CH record naming the columns first');
        const value = (name: string) => (header as HeaderIndex).value(fields, name);
        const code = value('Transaction Event Code').toUpperCase();
        if (!/^T\d{4}$/.test(code))
          throw new ImportFormatError({ line, column: 'Transaction Event Code' }, quoteFound(code), 'a transaction event code such as "T0006"');
        // A withdrawal to the bank is the payout itself: its counterpart is the bank deposit.
        if (code.startsWith('T04')) return { leftOut: `${code} (withdrawal to the bank, the payout itself)` };
        const currency = currencyOf(value('Gross Transaction Currency'), line, 'Gross Transaction Currency');
        const gross = minorUnitsOf(value('Gross Transaction Amount'), currency, line, 'Gross Transaction Amount');
        const signedGross = indicatorOf(value('Transaction Debit or Credit'), line, 'Transaction Debit or Credit') === 1 ? gross : negateDecimal(gross);
        const feeText = value('Fee Amount');
        let fee = '0';
        if (feeText !== '' && feeText !== '0') {
          const feeCurrencyText = value('Fee Currency');
          if (feeCurrencyText !== '' && currencyOf(feeCurrencyText, line, 'Fee Currency') !== currency) {
            throw new ImportFormatError(
              { line, column: 'Fee Currency' },
              quoteFound(feeCurrencyText),
              `the fee in the currency of its gross amount (${currency})`,
            );
          }
          const magnitude = minorUnitsOf(feeText, currency, line, 'Fee Amount');
          // A fee debited is charged (positive); a fee credited is one given back.
          fee = indicatorOf(value('Fee Debit or Credit'), line, 'Fee Debit or Credit') === -1 ? magnitude : negateDecimal(magnitude);
        }
        const transactionId = value('Transaction ID');
        const date = dateTimeOf(value('Transaction Initiation Date'), line, 'Transaction Initiation Date', null);
        const day = sectionDate ?? date.date;
        const invoice = value('Invoice ID');
        return {
          entry: presetEntry(line, {
            date,
            net: subtract(signedGross, fee),
            currency,
            type: PAYPAL_CODES[code] ?? PAYPAL_GROUPS[code.slice(0, 3)] ?? 'other',
            description: [code, invoice, value('Custom Field')].filter((part) => part !== '').join(' '),
            reference: invoice,
            providerReference: transactionId,
            uniqueId: transactionId === '' ? null : [transactionId, code, currency, signedGross.startsWith('-') ? 'DR' : 'CR'].join('|'),
            payoutId: `paypal-${day}-${currency}`,
            gross: signedGross,
            fee,
            original: null,
          }),
        };
      },
    };
  },
};

export const CSV_PRESETS: readonly CsvPreset[] = [stripe, adyen, paypal];

/** Records looked at for a preset's header: PayPal's CH comes after its RH, FH and SH records. */
const HEADER_SEARCH_RECORDS = 10;

/** The preset whose header the head of a CSV file has (decoded text), with that header and its line; null when none. */
export async function detectCsvPreset(head: string): Promise<{ preset: CsvPreset; header: string[]; line: number } | null> {
  let looked = 0;
  try {
    for await (const record of readRecords(textChunks(head), { delimiter: ',', quote: '"', skipRows: 0, header: false }, { skippedLines: 0 })) {
      const preset = CSV_PRESETS.find((candidate) => candidate.isHeader(record.fields));
      if (preset) return { preset, header: record.fields, line: record.line };
      if (++looked >= HEADER_SEARCH_RECORDS) return null;
    }
  } catch {
    // The head is cut at an arbitrary byte, or is no CSV: no preset.
  }
  return null;
}

/**
 * Reads a provider's report with its preset: an entry per transaction, a warning that counts the
 * records read and those left out by kind, then the file's one statement.
 */
export async function* parseCsvPreset(text: AsyncIterable<string>, preset: CsvPreset): AsyncGenerator<ParseEvent> {
  const reader = preset.reader();
  let started = false;
  let records = 0;
  let entries = 0;
  const leftOut = new Map<string, number>();
  let currency: string | null | undefined;
  for await (const record of readRecords(text, { delimiter: ',', quote: '"', skipRows: 0, header: true }, { skippedLines: 0 })) {
    records += 1;
    if (!started) {
      // The records before the header are the report's own (PayPal's RH, FH, SH): read, and counted.
      if (!preset.isHeader(record.fields)) {
        if (preset.name !== 'paypal-settlement') {
          throw new ImportFormatError({ line: record.line }, "a first line that is not the report's header", `the header of the ${preset.title}`);
        }
      } else started = true;
    }
    if (record.fields.every((field) => field.trim() === '')) {
      leftOut.set('empty line', (leftOut.get('empty line') ?? 0) + 1);
      continue;
    }
    const outcome = reader.read(record.fields, record.line);
    if (outcome === null) continue;
    if ('leftOut' in outcome) {
      leftOut.set(outcome.leftOut, (leftOut.get(outcome.leftOut) ?? 0) + 1);
      continue;
    }
    entries += 1;
    const entryCurrency = outcome.entry.currency;
    currency = currency === undefined ? entryCurrency : currency === entryCurrency ? currency : null;
    yield { kind: 'entry', entry: outcome.entry };
  }
  if (records === 0) throw new ImportFormatError({ line: 1 }, 'an empty file', `the ${preset.title}`);
  const header = preset.name === 'paypal-settlement' ? 0 : 1;
  const skipped = [...leftOut.values()].reduce((sum, count) => sum + count, 0);
  const kinds = [...leftOut.entries()].map(([kind, count]) => `${count} ${kind}`).join(', ');
  yield {
    kind: 'warning',
    line: null,
    message:
      `read as the ${preset.title} (preset "${preset.name}"; amount is each row's net, with gross and fee in their own columns): ` +
      `${records - header} ${preset.name === 'paypal-settlement' ? 'records' : 'rows below the header'}, ${entries} imported` +
      (skipped > 0 ? ` and ${skipped} left out as no transaction of a payout (${kinds})` : ''),
  };
  yield {
    kind: 'statement',
    statement: { statementIndex: 0, line: 1, accountId: null, statementId: null, currency: currency ?? null, openingBalance: null, closingBalance: null },
  };
}
