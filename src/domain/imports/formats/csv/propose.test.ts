import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import { addDecimals } from '../../../money.ts';
import { detectFormat, HEAD_BYTES } from '../../detect.ts';
import { ImportFormatError, type StatementEntry } from '../../statement-entries.ts';
import { textChunks } from '../../text.ts';
import { parseCsv, splitSample, type CsvMapping } from './index.ts';
import { previewCsv } from './preview.ts';
import { findHeaderRow } from './propose-header.ts';
import { detectSeparators, examineColumn, indicatorMarks } from './propose-values.ts';

/**
 * The mapping the preview proposes, tried on real bank exports (test/fixtures/imports/csv/real,
 * with their sources in the README there): each file is imported whole with the proposal alone,
 * and must come out as the file says (entries, sum, first and last entry, checked by hand against
 * the file), or the proposal must say what it could not decide.
 */

const REAL = new URL('../../../../../test/fixtures/imports/csv/real/', import.meta.url);

interface Expected {
  /** What the proposal must ask, exactly; [] when it decides everything. */
  questions: string[];
  /** The proposal's shape, in part. */
  settings: Partial<Pick<CsvMapping, 'header' | 'skipRows' | 'delimiter' | 'decimalSeparator' | 'thousandsSeparator' | 'dateFormat' | 'amount' | 'skip'>> & {
    columns?: Partial<CsvMapping['columns']>;
  };
  /** What importing the whole file with the proposal gives; a line number when the import refuses it. */
  imported: { entries: number; sum: string; first: Partial<StatementEntry>; last: Partial<StatementEntry> } | { refusedAt: number };
}

const NO_CURRENCY = 'no currency was found in the file: set the mapping\'s "currency" to the account\'s, e.g. "EUR"';
const midnight = (date: string) => Date.parse(`${date}T00:00:00Z`);

const EXPECTED: Record<string, Expected> = {
  'amex-uk.csv': {
    // Charges are written as positive amounts, payments with "CR" in a column without a name.
    questions: ['the rows without a mark in column 4 are read as money out, since only "CR" is written there: check a row of each kind'],
    settings: {
      dateFormat: 'DD-MMM-YYYY',
      amount: { column: 'Amount', indicator: { column: 3, debit: [''], credit: ['CR'] } },
      skip: [{ column: 'Date Processed', equals: ['Pending'] }],
    },
    imported: {
      entries: 10,
      sum: '-285.80',
      first: { line: 5, bookingDate: '2019-12-12', amount: '-1183.23', currency: 'GBP', description: 'ROYAL LONDON INSURANCE        01222 61234  GBR' },
      last: { line: 14, bookingDate: '2019-12-02', amount: '1100.00', currency: 'GBP', description: 'PAYMENT RECEIVED - THANK YOU' },
    },
  },
  'boi-current-account.csv': {
    questions: [NO_CURRENCY],
    settings: { header: true, dateFormat: 'DD/MM/YYYY', amount: { debit: 'Debit', credit: 'Credit' } },
    imported: {
      entries: 27,
      sum: '-419.61',
      first: { line: 2, bookingDate: '2017-09-01', amount: '428.03' },
      last: { line: 28, bookingDate: '2017-09-28', amount: '-818.00' },
    },
  },
  'bunq-nl.csv': {
    // Dutch, comma-separated and fully quoted, signed amounts with a decimal comma, no currency.
    questions: [NO_CURRENCY],
    settings: {
      delimiter: ',',
      decimalSeparator: ',',
      dateFormat: 'YYYY-MM-DD',
      columns: { amount: 'Bedrag', counterpartyAccount: 'Tegenrekening', accountId: 'Rekening' },
    },
    imported: {
      entries: 3,
      sum: '728.54',
      first: {
        line: 2,
        bookingDate: '2018-03-01',
        amount: '-2.56',
        description: 'invoice 410408',
        counterpartyName: 'bunq',
        counterpartyAccount: 'NL89BUNQ2025105584',
      },
      last: {
        line: 4,
        bookingDate: '2018-03-09',
        amount: '-18.90',
        description: 'Quality Nuts (EEMDIJK, NL)',
        counterpartyName: 'Quality Nuts',
        counterpartyAccount: null,
      },
    },
  },
  'capitalone-card.csv': {
    questions: [NO_CURRENCY],
    settings: {
      dateFormat: 'YYYY-MM-DD',
      columns: { timestamp: 'Transaction Date', bookingDate: 'Posted Date' },
      amount: { debit: 'Debit', credit: 'Credit' },
    },
    imported: {
      entries: 2,
      sum: '0.00',
      first: { bookingDate: '2016-01-02', bookingTimeMs: midnight('2015-12-31'), amount: '-1000.00', description: 'Airplanes R Us' },
      last: { bookingDate: '2016-01-02', bookingTimeMs: midnight('2015-12-31'), amount: '1000.00', description: 'CAPITAL ONE AUTOPAY PYMT' },
    },
  },
  'dbs-sg.csv': {
    // Eleven empty lines, account lines, then the header; dates with month names.
    questions: [NO_CURRENCY],
    settings: { skipRows: 17, dateFormat: 'DD MMM YYYY', amount: { debit: 'Debit Amount', credit: 'Credit Amount' } },
    imported: {
      entries: 9,
      sum: '-16880.26',
      first: { line: 21, bookingDate: '2020-05-06', amount: '-34.65' },
      last: { line: 29, bookingDate: '2020-05-01', amount: '-4100.00' },
    },
  },
  'gls-de.csv': {
    // Booking and value dates, fourteen purpose columns, a balance column with '.' thousands, no line break at the end.
    questions: [],
    settings: {
      delimiter: ';',
      decimalSeparator: ',',
      thousandsSeparator: '.',
      dateFormat: 'DD.MM.YYYY',
      columns: { timestamp: 'Buchungstag', valueDate: 'Wertstellung', amount: 'Betrag', currency: 'Währung' },
    },
    imported: {
      entries: 1,
      sum: '-98.76',
      first: { line: 2, bookingDate: '2017-10-10', valueDate: '2017-10-10', amount: '-98.76', currency: 'EUR', counterpartyName: 'Drillisch Online AG' },
      last: { line: 2, bookingDate: '2017-10-10', valueDate: '2017-10-10', amount: '-98.76', currency: 'EUR', counterpartyName: 'Drillisch Online AG' },
    },
  },
  'kbc-mastercard-be.csv': {
    // A card export: the transaction's day and the day it was settled.
    questions: [],
    settings: { dateFormat: 'DD/MM/YYYY', columns: { timestamp: 'datum verrichting', bookingDate: 'Datum verrekening', amount: 'bedrag', currency: 'munt' } },
    imported: {
      entries: 3,
      sum: '2.73',
      first: { line: 2, bookingDate: '2020-02-03', bookingTimeMs: midnight('2020-02-01'), amount: '-16.52', currency: 'EUR', counterpartyName: 'More info' },
      last: { line: 4, bookingDate: '2020-01-02', bookingTimeMs: midnight('2020-01-01'), amount: '-16.52', currency: 'EUR' },
    },
  },
  'ocbc-sg.csv': {
    // Each card payment's details are on a line of their own, which no mapping can join to its row.
    questions: [
      'lines 8, 10, 12, 14, 16 and 3 more have fewer fields than the header (5) and begin with empty ones: they seem to continue the text of the row above, which the import cannot join; the import will refuse the file as it is',
    ],
    settings: { skipRows: 5, dateFormat: 'DD/MM/YYYY', amount: { debit: 'Withdrawals (SGD)', credit: 'Deposits (SGD)' } },
    imported: { refusedAt: 8 },
  },
  'outbank-de.csv': {
    // Month first (2/20/19) with a decimal comma.
    questions: [],
    settings: { dateFormat: 'M/D/YY', decimalSeparator: ',', columns: { amount: 'Amount', currency: 'Currency' } },
    imported: {
      entries: 4,
      sum: '-35.89',
      first: { line: 2, bookingDate: '2019-02-20', amount: '100.00', currency: 'EUR', counterpartyName: 'Jane Doe' },
      last: { line: 5, bookingDate: '2019-01-05', amount: '-25.00', currency: 'EUR' },
    },
  },
  'raiffeisen-at.csv': {
    // No header: dates, the amount and the currency known by their values.
    questions: [],
    settings: { header: false, dateFormat: 'DD.MM.YYYY', columns: { timestamp: 0, valueDate: 2, amount: 3, description: 1, currency: 4 } },
    imported: {
      entries: 73,
      sum: '-4580.70',
      first: {
        line: 1,
        bookingDate: '2017-09-18',
        valueDate: '2017-09-18',
        amount: '-33.87',
        currency: 'EUR',
        description: 'HOFER DANKT  0527  K2   18.09. 17:20',
      },
      last: {
        line: 73,
        bookingDate: '2017-10-19',
        valueDate: '2017-10-19',
        amount: '-81.99',
        currency: 'EUR',
        description: 'HOFER DANKT  0527  K2   19.10. 17:36',
      },
    },
  },
  'schwab-checking.csv': {
    questions: [NO_CURRENCY],
    settings: { dateFormat: 'MM/DD/YYYY', amount: { debit: 'Withdrawal', credit: 'Deposit' } },
    imported: {
      entries: 4,
      sum: '-215.27',
      first: { line: 2, bookingDate: '2022-08-17', amount: '20.00', description: 'Deposit Mobile Banking' },
      last: { line: 5, bookingDate: '2022-08-04', amount: '-57.27', description: 'PAYPAL INST XFER 220803~ Tran: ACHDW' },
    },
  },
  'sparkasse-de.csv': {
    // German SEPA subfields (EREF+, MREF+, SVWZ+) run together in one purpose column; two-digit years.
    questions: [],
    settings: {
      delimiter: ';',
      decimalSeparator: ',',
      dateFormat: 'DD.MM.YY',
      columns: { timestamp: 'Buchungstag', valueDate: 'Valutadatum', amount: 'Betrag', currency: 'Waehrung', type: 'Buchungstext' },
    },
    imported: {
      entries: 1,
      sum: '-24.14',
      first: {
        line: 2,
        bookingDate: '2020-11-04',
        valueDate: '2020-11-04',
        amount: '-24.14',
        currency: 'EUR',
        type: 'FOLGELASTSCHRIFT',
        counterpartyName: 'PayPal (Europe) S.a.r.l. et Cie., S.C.A.',
      },
      last: {
        line: 2,
        bookingDate: '2020-11-04',
        valueDate: '2020-11-04',
        amount: '-24.14',
        currency: 'EUR',
        type: 'FOLGELASTSCHRIFT',
        accountId: 'DE11111100100100100100',
      },
    },
  },
  'ubs-ch-fr.csv': {
    questions: [],
    settings: { decimalSeparator: '.', thousandsSeparator: "'", dateFormat: 'DD.MM.YYYY', amount: { debit: 'Débit', credit: 'Crédit' } },
    imported: {
      entries: 3,
      sum: '30.00',
      first: { line: 2, bookingDate: '2019-03-31', amount: '-10.00', currency: 'CHF', bankReference: 'A01234BC01234567' },
      last: { line: 4, bookingDate: '2019-04-27', amount: '-200.00', currency: 'CHF', bankReference: '9979360TI2115087' },
    },
  },
  'volksbank-rhein-wehra.csv': {
    // Anfangssaldo 0,00 + the entries = Endsaldo 2.729,50: the signs come from the unnamed S/H column.
    questions: [],
    settings: {
      skipRows: 12,
      decimalSeparator: ',',
      thousandsSeparator: '.',
      amount: { column: 'Umsatz', indicator: { column: 9, debit: ['S'], credit: ['H'] } },
      skip: [{ column: 'Währung', equals: ['Anfangssaldo', 'Endsaldo'] }],
    },
    imported: {
      entries: 7,
      sum: '2729.50',
      first: {
        line: 14,
        bookingDate: '2012-08-08',
        amount: '-7.50',
        currency: 'EUR',
        description: 'Bankcard-Gebühr FOLGE-NR.   0 VERFALL 12.15 PREIS BEZAHLT BIS 12.2012',
      },
      last: { line: 28, bookingDate: '2012-07-17', amount: '170.00', currency: 'EUR', description: 'Vergütung INVOICE 2264' },
    },
  },
};

async function importWith(text: string, mapping: CsvMapping): Promise<StatementEntry[]> {
  const entries: StatementEntry[] = [];
  for await (const event of parseCsv(textChunks(text, 97), { mapping, customColumns: [] })) if (event.kind === 'entry') entries.push(event.entry);
  return entries;
}

function pick(entry: StatementEntry | undefined, keys: Partial<StatementEntry>): Partial<StatementEntry> {
  return Object.fromEntries(Object.keys(keys).map((key) => [key, entry?.[key as keyof StatementEntry]]));
}

describe('previewCsv: real exports imported with the proposed mapping alone', () => {
  it('has an expectation for every file of the corpus, and at least ten files', () => {
    const files = readdirSync(REAL)
      .filter((file) => file.endsWith('.csv'))
      .sort();
    assert.deepEqual(files, Object.keys(EXPECTED).sort());
    assert.ok(files.length >= 10);
  });

  for (const [file, expected] of Object.entries(EXPECTED)) {
    it(file, async () => {
      const bytes = readFileSync(new URL(file, REAL));
      // Sent without a format, it is recognised as CSV.
      assert.equal(detectFormat(bytes.subarray(0, HEAD_BYTES), null), 'csv');
      const text = bytes.toString('utf8');
      const preview = await previewCsv(text, { customColumns: [], complete: true });
      assert.deepEqual(preview.questions, expected.questions);
      assert.ok(preview.mapping, JSON.stringify(preview.problems));
      const mapping = preview.mapping;
      const { columns: columnSettings, ...settings } = expected.settings;
      assert.deepEqual(Object.fromEntries(Object.keys(settings).map((key) => [key, mapping[key as keyof CsvMapping]])), settings);
      if (columnSettings) assert.deepEqual(Object.fromEntries(Object.keys(columnSettings).map((key) => [key, mapping.columns[key]])), columnSettings);
      if ('refusedAt' in expected.imported) {
        const line = expected.imported.refusedAt;
        await assert.rejects(importWith(text, mapping), (error: unknown) => error instanceof ImportFormatError && error.line === line);
        return;
      }
      const entries = await importWith(text, mapping);
      assert.equal(entries.length, expected.imported.entries);
      assert.equal(
        entries.reduce((sum, entry) => addDecimals(sum, entry.amount), '0'),
        expected.imported.sum,
      );
      assert.deepEqual(pick(entries[0], expected.imported.first), expected.imported.first);
      assert.deepEqual(pick(entries.at(-1), expected.imported.last), expected.imported.last);
    });
  }
});

describe('previewCsv: the header among the first lines', () => {
  const records = (text: string) => splitSample(text, ';', '"', 100);
  const known = (field: string) => ['datum', 'bedrag', 'omschrijving'].includes(field.trim().toLowerCase());

  it("skips a title line that has the table's width, and lines of texts that name nothing", () => {
    assert.equal(findHeaderRow(records('KNAB EXPORT;;\nDatum;Bedrag;Omschrijving\n01-02-2024;1,00;x\n'), known), 1);
    assert.equal(findHeaderRow(records('Rekening;NL01;\nDatum;Bedrag;Omschrijving\n01-02-2024;1,00;x\n'), known), 1);
    // Without a known name, the row above the dates and numbers still wins over a line of texts.
    assert.equal(
      findHeaderRow(records('Account;Current;\nWhen;How much;What\n01-02-2024;1,00;x\n'), () => false),
      1,
    );
    assert.equal(findHeaderRow(records('01-02-2024;1,00;x\n02-02-2024;2,00;y\n'), known), null);
  });

  it('takes a header that ends with a delimiter its rows lack for the header, where debits once read as credits', async () => {
    const text = 'Date,Description,Debit,Credit,\n31/01/2024,Coffee,8.99,\n01/02/2024,Salary,,1000.00\n';
    const preview = await previewCsv(text, { customColumns: [], complete: true });
    assert.equal(preview.header, true);
    assert.equal(preview.skipRows, 0);
    assert.deepEqual(preview.mapping?.amount, { debit: 'Debit', credit: 'Credit' });
    assert.deepEqual(
      (preview.rows as StatementEntry[]).map((row) => [row.bookingDate, row.amount]),
      [
        ['2024-01-31', '-8.99'],
        ['2024-02-01', '1000.00'],
      ],
    );
    assert.equal((await importWith(text, preview.mapping as CsvMapping)).length, 2);
  });

  it('reads a title line before the header in the preview, where it once found no column of dates', async () => {
    const preview = await previewCsv('Transactions of account 123;;;\nDate;Description;Debit;Credit\n31/01/2024;Coffee;8.99;\n01/02/2024;Salary;;1000.00\n', {
      customColumns: [],
      complete: true,
    });
    assert.deepEqual(preview.problems, []);
    assert.equal(preview.header, true);
    assert.equal(preview.skipRows, 1);
    assert.deepEqual(preview.mapping?.amount, { debit: 'Debit', credit: 'Credit' });
    assert.deepEqual(
      (preview.rows as StatementEntry[]).map((row) => row.amount),
      ['-8.99', '1000.00'],
    );
  });
});

describe('previewCsv: what the values say', () => {
  const column = (values: string[], index = 0) =>
    examineColumn(
      index,
      `column ${index + 1}`,
      null,
      values.map((value, line) => ({ fields: [value], line: line + 1, strayQuote: false })),
    );

  it('infers the date format by elimination over every sampled row', () => {
    assert.deepEqual(
      column(['01/02/2024', '03/04/2024', '12/31/2024'])
        .dateFormats.map((candidate) => candidate.format)
        .slice(0, 1),
      ['MM/DD/YYYY'],
    );
    assert.deepEqual(column(['01/02/2024', '31/04/2024']).dateFormats, [], '31 April does not exist, 31 is no month');
    // (A format with a time reads a date alone too.)
    assert.deepEqual(
      column(['2/20/19', '1/5/19'])
        .dateFormats.map((candidate) => candidate.format)
        .filter((format) => !format.includes(':')),
      ['M/D/YY'],
    );
    assert.deepEqual(column(['Pending', '12-Dec-2019']).pending, ['Pending']);
  });

  it('infers the separators from every amount, and says when they disagree', () => {
    const facts = (values: string[]) => [
      examineColumn(
        0,
        'Amount',
        null,
        values.map((value, line) => ({ fields: [value], line, strayQuote: false })),
      ),
    ];
    assert.deepEqual(detectSeparators(facts(['2500', '827,75', '2.023,00']), ','), { decimalSeparator: ',', thousandsSeparator: '.', conflicting: false });
    assert.deepEqual(detectSeparators(facts(['1,036.47', '57.27']), ';'), { decimalSeparator: '.', thousandsSeparator: ',', conflicting: false });
    assert.equal(detectSeparators(facts(['12,50', '12.50']), ',').conflicting, true);
  });

  it('reads debit/credit marks, and a column that marks one side and leaves the other empty', () => {
    const marks = (values: string[]) => {
      const facts = examineColumn(
        0,
        'x',
        null,
        values.map((value, line) => ({ fields: [value], line, strayQuote: false })),
      );
      return indicatorMarks(facts);
    };
    assert.deepEqual(marks(['S', 'H', 'H']), { debit: ['S'], credit: ['H'], emptyMeans: null });
    assert.deepEqual(marks(['Af', 'Af']), { debit: ['Af'], credit: ['Bij'], emptyMeans: null });
    assert.deepEqual(marks(['', 'CR', '']), { debit: [''], credit: ['CR'], emptyMeans: 'debit' });
    assert.equal(marks(['S', 'H', 'X']), null);
  });
});
