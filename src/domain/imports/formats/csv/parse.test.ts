import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import { addDecimals } from '../../../money.ts';
import { ImportFormatError, type ParseEvent, type StatementEntry, type StatementSummary } from '../../statement-entries.ts';
import { textChunks } from '../../text.ts';
import {
  checkCsvMapping,
  compileAmountReader,
  compileDateFormat,
  mappingFromHeader,
  MappingError,
  parseCsv,
  sniffCsv,
  zonedTimeToEpochMs,
  type CompiledDateFormat,
  type CsvCustomColumn,
  type CsvMapping,
} from './index.ts';

const FIXTURES = new URL('../../../../../test/fixtures/imports/csv/', import.meta.url);

async function collect(events: AsyncIterable<ParseEvent>): Promise<ParseEvent[]> {
  const out: ParseEvent[] = [];
  for await (const event of events) out.push(event);
  return out;
}

const entriesOf = (events: readonly ParseEvent[]): StatementEntry[] => events.flatMap((event) => (event.kind === 'entry' ? [event.entry] : []));
const statementsOf = (events: readonly ParseEvent[]): StatementSummary[] => events.flatMap((event) => (event.kind === 'statement' ? [event.statement] : []));
const warningsOf = (events: readonly ParseEvent[]): string[] => events.flatMap((event) => (event.kind === 'warning' ? [event.message] : []));

/**
 * Decodes a fixture as the importer does, chunk-wise. The streaming path matters: Node 20's
 * one-shot TextDecoder reads windows-1252 as latin1 (0x80 becomes U+0080, not €), while its
 * streaming path, which decodeText uses, follows the WHATWG table.
 */
function decode(bytes: Uint8Array, encoding: string): string {
  const decoder = new TextDecoder(encoding);
  return decoder.decode(bytes, { stream: true }) + decoder.decode();
}

function loadFixture(file: string): { text: string; mapping: CsvMapping } {
  const mapping = JSON.parse(readFileSync(new URL(`${file}.mapping.json`, FIXTURES), 'utf8')) as CsvMapping;
  return { text: decode(readFileSync(new URL(file, FIXTURES)), mapping.encoding ?? 'utf-8'), mapping };
}

function parse(text: string, mapping: unknown, options: { chunkSize?: number; customColumns?: CsvCustomColumn[] } = {}): Promise<ParseEvent[]> {
  return collect(parseCsv(textChunks(text, options.chunkSize ?? 64 * 1024), { mapping: mapping as CsvMapping, customColumns: options.customColumns ?? [] }));
}

async function rejectsWith(promise: Promise<unknown>, line: number | null, pattern: RegExp): Promise<void> {
  await assert.rejects(promise, (error: unknown) => {
    assert.ok(error instanceof ImportFormatError, `expected an ImportFormatError, got ${String(error)}`);
    assert.equal(error.line, line, error.message);
    assert.match(error.message, pattern);
    return true;
  });
}

const SAP_CUSTOM_COLUMNS: CsvCustomColumn[] = [
  { name: 'documentNumber', type: 'string' },
  { name: 'documentDate', type: 'date' },
  { name: 'lineItem', type: 'number' },
  { name: 'clearingDocument', type: 'string' },
];

interface Golden {
  file: string;
  customColumns?: CsvCustomColumn[];
  entries: number;
  sum: string;
  statement: StatementSummary;
  warnings: string[];
  first: StatementEntry;
  last: StatementEntry;
}

const GOLDEN: Golden[] = [
  {
    file: 'sparkasse-camt.csv',
    entries: 4,
    sum: '-155.70',
    statement: {
      statementIndex: 0,
      line: 1,
      accountId: 'DE89370400440532013000',
      statementId: null,
      currency: 'EUR',
      openingBalance: null,
      closingBalance: null,
    },
    warnings: ["1 row was left out by the mapping's skip rules (the first at line 5)"],
    first: {
      line: 2,
      statementIndex: 0,
      bookingDate: '2026-09-24',
      bookingTimeMs: null,
      valueDate: '2026-09-24',
      amount: '-89.90',
      currency: 'EUR',
      description: 'Abschlag 09/2026 Vertragskonto 123456',
      type: 'FOLGELASTSCHRIFT',
      reference: 'E2E-0924-1',
      bankReference: null,
      endToEndId: null,
      counterpartyName: 'Stadtwerke Musterstadt GmbH',
      counterpartyAccount: 'DE45120300001234567890',
      bankTransactionCode: null,
      accountId: 'DE89370400440532013000',
      statementId: null,
      reversal: false,
      uniqueId: null,
      extra: {},
    },
    last: {
      line: 6,
      statementIndex: 0,
      bookingDate: '2026-09-21',
      bookingTimeMs: null,
      valueDate: '2026-09-22',
      amount: '-1250.00',
      currency: 'EUR',
      description: 'Miete Oktober Whg. 3 "Süd"',
      type: 'DAUERAUFTRAG',
      reference: null,
      bankReference: null,
      endToEndId: null,
      counterpartyName: 'Hausverwaltung Schröder',
      counterpartyAccount: 'DE02300209000106531065',
      bankTransactionCode: null,
      accountId: 'DE89370400440532013000',
      statementId: null,
      reversal: false,
      uniqueId: null,
      extra: {},
    },
  },
  {
    file: 'deutsche-bank.csv',
    entries: 4,
    sum: '2859.65',
    statement: { statementIndex: 0, line: 1, accountId: null, statementId: null, currency: 'EUR', openingBalance: null, closingBalance: null },
    warnings: [],
    first: {
      line: 9,
      statementIndex: 0,
      bookingDate: '2026-06-30',
      bookingTimeMs: null,
      valueDate: '2026-06-30',
      amount: '-1000.00',
      currency: 'EUR',
      description: 'Kreditrate Juni Vertrag 4711',
      type: 'SEPA Lastschrift',
      reference: '12345678901234',
      bankReference: null,
      endToEndId: null,
      counterpartyName: 'Bank AG',
      counterpartyAccount: 'DE12500105170648489890',
      bankTransactionCode: null,
      accountId: null,
      statementId: null,
      reversal: false,
      uniqueId: null,
      extra: {},
    },
    last: {
      line: 12,
      statementIndex: 0,
      bookingDate: '2026-06-02',
      bookingTimeMs: null,
      valueDate: '2026-06-01',
      amount: '3210.45',
      currency: 'EUR',
      description: 'Gehalt Juni 2026',
      type: 'SEPA Überweisung',
      reference: 'LOHN-2026-06',
      bankReference: null,
      endToEndId: null,
      counterpartyName: 'Arbeitgeber GmbH',
      counterpartyAccount: 'DE91100000000123456789',
      bankTransactionCode: null,
      accountId: null,
      statementId: null,
      reversal: false,
      uniqueId: null,
      extra: {},
    },
  },
  {
    file: 'ing-nl.csv',
    entries: 4,
    sum: '2108.30',
    statement: { statementIndex: 0, line: 1, accountId: 'NL54INGB0671255150', statementId: null, currency: 'EUR', openingBalance: null, closingBalance: null },
    warnings: [],
    first: {
      line: 2,
      statementIndex: 0,
      bookingDate: '2024-01-15',
      bookingTimeMs: null,
      valueDate: null,
      amount: '-25.50',
      currency: 'EUR',
      description: 'Pasvolgnr: 001 15-01-2024 17:02 Transactie: 12A3B4 Term: AB1234',
      type: 'Betaalautomaat',
      reference: null,
      bankReference: null,
      endToEndId: null,
      counterpartyName: 'Albert Heijn 1234 AMSTERDAM',
      counterpartyAccount: null,
      bankTransactionCode: 'BA',
      accountId: 'NL54INGB0671255150',
      statementId: null,
      reversal: false,
      uniqueId: null,
      extra: {},
    },
    last: {
      line: 5,
      statementIndex: 0,
      bookingDate: '2024-01-26',
      bookingTimeMs: null,
      valueDate: null,
      amount: '-312.00',
      currency: 'EUR',
      description: 'Naam: Belastingdienst Omschrijving: Motorrijtuigenbelasting IBAN: NL86INGB0002445588 Kenmerk: 1234567890123456',
      type: 'Incasso',
      reference: null,
      bankReference: null,
      endToEndId: null,
      counterpartyName: 'Belastingdienst',
      counterpartyAccount: 'NL86INGB0002445588',
      bankTransactionCode: 'IC',
      accountId: 'NL54INGB0671255150',
      statementId: null,
      reversal: false,
      uniqueId: null,
      extra: {},
    },
  },
  {
    file: 'rabobank.csv',
    entries: 3,
    sum: '2453.91',
    statement: { statementIndex: 0, line: 1, accountId: 'NL05RABO0123456789', statementId: null, currency: 'EUR', openingBalance: null, closingBalance: null },
    warnings: [],
    first: {
      line: 2,
      statementIndex: 0,
      bookingDate: '2024-01-31',
      bookingTimeMs: null,
      valueDate: '2024-01-31',
      amount: '-45.00',
      currency: 'EUR',
      description: 'Factuur 123 Mobiel abonnement',
      type: null,
      reference: null,
      bankReference: null,
      endToEndId: 'E2E-KPN-240131',
      counterpartyName: 'KPN B.V.',
      counterpartyAccount: 'NL06INGB0007654321',
      bankTransactionCode: 'ei',
      accountId: 'NL05RABO0123456789',
      statementId: null,
      reversal: false,
      uniqueId: 'NL05RABO0123456789|000000000000001234',
      extra: {},
    },
    last: {
      line: 4,
      statementIndex: 0,
      bookingDate: '2024-02-05',
      bookingTimeMs: null,
      valueDate: '2024-02-03',
      amount: '-1.09',
      currency: 'EUR',
      description: 'Tol A4 Koers 1,000000',
      type: null,
      reference: null,
      bankReference: null,
      endToEndId: null,
      counterpartyName: 'Passaggio Free Flow',
      counterpartyAccount: null,
      bankTransactionCode: 'bc',
      accountId: 'NL05RABO0123456789',
      statementId: null,
      reversal: false,
      uniqueId: 'NL05RABO0123456789|000000000000001236',
      extra: {},
    },
  },
  {
    file: 'chase-checking.csv',
    entries: 4,
    sum: '580.00',
    statement: { statementIndex: 0, line: 1, accountId: null, statementId: null, currency: 'USD', openingBalance: null, closingBalance: null },
    warnings: ['rows end with empty fields that the header does not have (a delimiter at the end of each row, first at line 2); they are ignored'],
    first: {
      line: 2,
      statementIndex: 0,
      bookingDate: '2026-09-25',
      bookingTimeMs: null,
      valueDate: null,
      amount: '-500.00',
      currency: 'USD',
      description: 'Online Transfer to SAV ...1234 transaction#: 987',
      type: 'DEBIT',
      reference: null,
      bankReference: null,
      endToEndId: null,
      counterpartyName: null,
      counterpartyAccount: null,
      bankTransactionCode: 'ACCT_XFER',
      accountId: null,
      statementId: null,
      reversal: false,
      uniqueId: null,
      extra: {},
    },
    last: {
      line: 5,
      statementIndex: 0,
      bookingDate: '2026-09-30',
      bookingTimeMs: null,
      valueDate: null,
      amount: '1250.00',
      currency: 'USD',
      description: 'REMOTE ONLINE DEPOSIT # 1',
      type: 'CREDIT',
      reference: null,
      bankReference: null,
      endToEndId: null,
      counterpartyName: null,
      counterpartyAccount: null,
      bankTransactionCode: 'CHECK_DEPOSIT',
      accountId: null,
      statementId: null,
      reversal: false,
      uniqueId: null,
      extra: {},
    },
  },
  {
    file: 'lloyds.csv',
    entries: 4,
    sum: '2362.25',
    statement: { statementIndex: 0, line: 1, accountId: '12345678', statementId: null, currency: 'GBP', openingBalance: null, closingBalance: null },
    warnings: [],
    first: {
      line: 2,
      statementIndex: 0,
      bookingDate: '2026-08-03',
      bookingTimeMs: null,
      valueDate: null,
      amount: '-10.99',
      currency: 'GBP',
      description: 'NETFLIX.COM',
      type: null,
      reference: null,
      bankReference: null,
      endToEndId: null,
      counterpartyName: null,
      counterpartyAccount: null,
      bankTransactionCode: 'DEB',
      accountId: '12345678',
      statementId: null,
      reversal: false,
      uniqueId: null,
      extra: {},
    },
    last: {
      line: 5,
      statementIndex: 0,
      bookingDate: '2026-07-01',
      bookingTimeMs: null,
      valueDate: null,
      amount: '-31.15',
      currency: 'GBP',
      description: 'THAMES WATER',
      type: null,
      reference: null,
      bankReference: null,
      endToEndId: null,
      counterpartyName: null,
      counterpartyAccount: null,
      bankTransactionCode: 'DD',
      accountId: '12345678',
      statementId: null,
      reversal: false,
      uniqueId: null,
      extra: {},
    },
  },
  {
    file: 'credit-agricole.csv',
    entries: 5,
    sum: '1029.08',
    statement: { statementIndex: 0, line: 1, accountId: null, statementId: null, currency: 'EUR', openingBalance: null, closingBalance: null },
    warnings: [],
    first: {
      line: 10,
      statementIndex: 0,
      bookingDate: '2026-04-30',
      bookingTimeMs: null,
      valueDate: null,
      amount: '-150.00',
      currency: 'EUR',
      description: 'VIREMENT EMIS WEB M. DUPONT JEAN',
      type: null,
      reference: null,
      bankReference: null,
      endToEndId: null,
      counterpartyName: null,
      counterpartyAccount: null,
      bankTransactionCode: null,
      accountId: null,
      statementId: null,
      reversal: false,
      uniqueId: null,
      extra: {},
    },
    last: {
      line: 30,
      statementIndex: 0,
      bookingDate: '2026-04-01',
      bookingTimeMs: null,
      valueDate: null,
      amount: '-1212.02',
      currency: 'EUR',
      description: 'REMBOURSEMENT DE PRET 00006808334 ECHEANCE 01/04/26',
      type: null,
      reference: null,
      bankReference: null,
      endToEndId: null,
      counterpartyName: null,
      counterpartyAccount: null,
      bankTransactionCode: null,
      accountId: null,
      statementId: null,
      reversal: false,
      uniqueId: null,
      extra: {},
    },
  },
  {
    file: 'sap-gl-line-items.csv',
    customColumns: SAP_CUSTOM_COLUMNS,
    entries: 4,
    sum: '13884.66',
    statement: { statementIndex: 0, line: 1, accountId: '400000', statementId: null, currency: 'EUR', openingBalance: null, closingBalance: null },
    warnings: [],
    first: {
      line: 2,
      statementIndex: 0,
      bookingDate: '2024-01-02',
      bookingTimeMs: null,
      valueDate: null,
      amount: '1234.56',
      currency: 'EUR',
      description: 'Office supplies "Paper A4"',
      type: 'KR',
      reference: 'INV-88121',
      bankReference: null,
      endToEndId: null,
      counterpartyName: null,
      counterpartyAccount: null,
      bankTransactionCode: null,
      accountId: '400000',
      statementId: null,
      reversal: false,
      uniqueId: '5100000123|1',
      extra: { documentNumber: '5100000123', documentDate: '2023-12-29', lineItem: 1 },
    },
    last: {
      line: 5,
      statementIndex: 0,
      bookingDate: '2024-01-31',
      bookingTimeMs: null,
      valueDate: null,
      amount: '12500.00',
      currency: 'EUR',
      description: 'Consulting January',
      type: 'KR',
      reference: 'INV-88203',
      bankReference: null,
      endToEndId: null,
      counterpartyName: null,
      counterpartyAccount: null,
      bankTransactionCode: null,
      accountId: '400000',
      statementId: null,
      reversal: false,
      uniqueId: '5100000130|1',
      extra: { documentNumber: '5100000130', documentDate: '2024-01-31', lineItem: 1 },
    },
  },
  {
    file: 'hsbc-no-header.csv',
    entries: 4,
    sum: '3.79',
    statement: { statementIndex: 0, line: 1, accountId: null, statementId: null, currency: 'GBP', openingBalance: null, closingBalance: null },
    warnings: [],
    first: {
      line: 1,
      statementIndex: 0,
      bookingDate: '2026-03-01',
      bookingTimeMs: null,
      valueDate: null,
      amount: '-3.50',
      currency: 'GBP',
      description: 'SYNTHETIC COFFEE',
      type: null,
      reference: null,
      bankReference: null,
      endToEndId: null,
      counterpartyName: null,
      counterpartyAccount: null,
      bankTransactionCode: null,
      accountId: null,
      statementId: null,
      reversal: false,
      uniqueId: null,
      extra: {},
    },
    last: {
      line: 4,
      statementIndex: 0,
      bookingDate: '2026-03-05',
      bookingTimeMs: null,
      valueDate: null,
      amount: '0.04',
      currency: 'GBP',
      description: 'INTEREST',
      type: null,
      reference: null,
      bankReference: null,
      endToEndId: null,
      counterpartyName: null,
      counterpartyAccount: null,
      bankTransactionCode: null,
      accountId: null,
      statementId: null,
      reversal: false,
      uniqueId: null,
      extra: {},
    },
  },
  {
    file: 'standard-columns.csv',
    entries: 3,
    sum: '1174.51',
    statement: { statementIndex: 0, line: 1, accountId: null, statementId: null, currency: 'EUR', openingBalance: null, closingBalance: null },
    warnings: [],
    first: {
      line: 2,
      statementIndex: 0,
      bookingDate: '2024-03-30',
      bookingTimeMs: Date.parse('2024-03-30T22:10:00Z'),
      valueDate: '2024-03-31',
      amount: '-19.99',
      currency: 'EUR',
      description: 'Streaming subscription',
      type: null,
      reference: 'SUB-0330',
      bankReference: null,
      endToEndId: null,
      counterpartyName: null,
      counterpartyAccount: null,
      bankTransactionCode: null,
      accountId: null,
      statementId: null,
      reversal: false,
      uniqueId: 'TX-1001',
      extra: {},
    },
    last: {
      line: 4,
      statementIndex: 0,
      bookingDate: '2024-04-02',
      bookingTimeMs: null,
      valueDate: '2024-04-02',
      amount: '-5.50',
      currency: 'EUR',
      description: 'Bank fee, March',
      type: null,
      reference: null,
      bankReference: null,
      endToEndId: null,
      counterpartyName: null,
      counterpartyAccount: null,
      bankTransactionCode: null,
      accountId: null,
      statementId: null,
      reversal: false,
      uniqueId: 'TX-1003',
      extra: {},
    },
  },
  {
    file: 'paypal-de.csv',
    customColumns: [{ name: 'fee', type: 'money' }],
    entries: 4,
    sum: '1186.90',
    statement: { statementIndex: 0, line: 1, accountId: null, statementId: null, currency: 'EUR', openingBalance: null, closingBalance: null },
    warnings: ["1 row was left out by the mapping's skip rules (the first at line 5)"],
    first: {
      line: 2,
      statementIndex: 0,
      bookingDate: '2024-03-30',
      bookingTimeMs: Date.parse('2024-03-30T22:10:00Z'),
      valueDate: null,
      amount: '-49.90',
      currency: 'EUR',
      description: null,
      type: 'Handyzahlung',
      reference: null,
      bankReference: null,
      endToEndId: null,
      counterpartyName: 'Beispiel Shop GmbH',
      counterpartyAccount: null,
      bankTransactionCode: null,
      accountId: null,
      statementId: null,
      reversal: false,
      uniqueId: '1AB23456CD789012E',
      extra: { fee: '0.00' },
    },
    last: {
      line: 6,
      statementIndex: 0,
      bookingDate: '2024-10-27',
      bookingTimeMs: Date.parse('2024-10-27T00:30:00Z'),
      valueDate: null,
      amount: '-3.20',
      currency: 'EUR',
      description: null,
      type: 'Handyzahlung',
      reference: null,
      bankReference: null,
      endToEndId: null,
      counterpartyName: 'Nachtcafé',
      counterpartyAccount: null,
      bankTransactionCode: null,
      accountId: null,
      statementId: null,
      reversal: false,
      uniqueId: '5EF67890GH123456I',
      extra: { fee: '0.00' },
    },
  },
];

describe('parseCsv: fixtures', () => {
  for (const golden of GOLDEN) {
    it(`reads ${golden.file}`, async () => {
      const { text, mapping } = loadFixture(golden.file);
      const events = await parse(text, mapping, { customColumns: golden.customColumns });
      const entries = entriesOf(events);
      const statements = statementsOf(events);
      assert.equal(statements.length, 1);
      assert.deepEqual(statements[0], golden.statement);
      assert.equal(statements[0]?.openingBalance, null);
      assert.equal(statements[0]?.closingBalance, null);
      assert.equal(entries.length, golden.entries);
      assert.equal(addDecimals(...entries.map((entry) => entry.amount)), golden.sum);
      assert.deepEqual(entries[0], golden.first);
      assert.deepEqual(entries[entries.length - 1], golden.last);
      assert.deepEqual(warningsOf(events), golden.warnings);
      assert.equal(events[events.length - 1]?.kind, 'statement', 'the statement comes last');
    });

    it(`reads ${golden.file} the same in chunks of 7 characters`, async () => {
      const { text, mapping } = loadFixture(golden.file);
      const whole = await parse(text, mapping, { customColumns: golden.customColumns });
      assert.deepEqual(await parse(text, mapping, { chunkSize: 7, customColumns: golden.customColumns }), whole);
    });
  }

  for (const file of ['credit-agricole.csv', 'paypal-de.csv', 'deutsche-bank.csv']) {
    it(`reads ${file} the same one character at a time`, async () => {
      const { text, mapping } = loadFixture(file);
      const customColumns = file === 'paypal-de.csv' ? [{ name: 'fee', type: 'money' as const }] : [];
      assert.deepEqual(await parse(text, mapping, { chunkSize: 1, customColumns }), await parse(text, mapping, { customColumns }));
    });
  }

  it('keeps the characters of Windows-1252 and ISO-8859-1 files', async () => {
    const sparkasse = loadFixture('sparkasse-camt.csv');
    const entries = entriesOf(await parse(sparkasse.text, sparkasse.mapping));
    assert.equal(entries[2]?.description, 'Bäckerei Müller Frühstück 5,80 € 2026-09-21T08:14');
    const ing = loadFixture('ing-nl.csv');
    assert.equal(entriesOf(await parse(ing.text, ing.mapping))[1]?.counterpartyName, 'Café de Zon');
    const agricole = loadFixture('credit-agricole.csv');
    assert.match(agricole.text, /Libellé;Débit euros;Crédit euros/);
  });

  it('numbers the rows of a file with quoted line breaks (CRLF inside quotes) by the line they start on', async () => {
    const { text, mapping } = loadFixture('credit-agricole.csv');
    const entries = entriesOf(await parse(text, mapping));
    assert.deepEqual(
      entries.map((entry) => entry.line),
      [10, 15, 20, 25, 30],
    );
    // A bad amount in the last row is reported at the line the row starts on.
    const broken = text.replace('1\u00a0212,02', '1\u00a0212,0x');
    await rejectsWith(parse(broken, mapping), 30, /line 30, column "Débit euros": found "1\u00a0212,0x"; expected an amount with decimal separator ","/);
  });
});

describe('parseCsv: a header that names the standard columns', () => {
  it('needs no mapping: mappingFromHeader gives it', async () => {
    const { text, mapping: saved } = loadFixture('standard-columns.csv');
    const header = (text.split('\n')[0] as string).split(',');
    const derived = mappingFromHeader(header);
    assert.ok(derived);
    assert.deepEqual({ ...derived, delimiter: ',' }, saved);
    const entries = entriesOf(await parse(text, { ...derived, delimiter: ',' }));
    assert.equal(entries.length, 3);
    assert.equal(entries[0]?.uniqueId, 'TX-1001');
  });

  it('matches names without regard to case, takes bank and custom columns, and refuses a header without date or amount', () => {
    assert.deepEqual(mappingFromHeader([' Timestamp ', 'AMOUNT', 'counterpartyname', 'vat', 'other'], [{ name: 'vat', type: 'money' }])?.columns, {
      timestamp: ' Timestamp ',
      amount: 'AMOUNT',
      counterpartyName: 'counterpartyname',
      vat: 'vat',
    });
    assert.equal(mappingFromHeader(['timestamp', 'description']), null);
    assert.equal(mappingFromHeader(['Datum', 'Betrag']), null);
    assert.deepEqual(mappingFromHeader(['bookingDate', 'amount'])?.columns, { bookingDate: 'bookingDate', amount: 'amount' });
    assert.deepEqual(mappingFromHeader(['timestamp', 'bookingDate', 'amount'])?.columns, {
      timestamp: 'timestamp',
      bookingDate: 'bookingDate',
      amount: 'amount',
    });
  });
});

describe('parseCsv: amounts', () => {
  const base = { columns: { timestamp: 'date', amount: 'amount' }, currency: 'EUR' };

  it('reads a decimal comma with "." thousands and a decimal point with "," thousands', async () => {
    const european = await parse('date;amount\n2024-01-02;1.234,56\n2024-01-03;-1.234.567,8\n2024-01-04;0,5\n', {
      ...base,
      delimiter: ';',
      decimalSeparator: ',',
      thousandsSeparator: '.',
    });
    assert.deepEqual(
      entriesOf(european).map((entry) => entry.amount),
      ['1234.56', '-1234567.80', '0.50'],
    );
    const american = await parse('date,amount\n2024-01-02,"1,234.56"\n2024-01-03,"-1,234,567.8"\n2024-01-04,12\n', {
      ...base,
      decimalSeparator: '.',
      thousandsSeparator: ',',
    });
    assert.deepEqual(
      entriesOf(american).map((entry) => entry.amount),
      ['1234.56', '-1234567.80', '12.00'],
    );
  });

  it('removes a thousands separator only where it groups digits by three', () => {
    const reader = compileAmountReader({ decimalSeparator: ',', thousandsSeparator: '.' });
    assert.equal(reader.read('1.234')?.decimal, '1234');
    assert.equal(reader.read('1.5'), null);
    assert.equal(reader.read('12.34'), null);
    assert.equal(reader.read('1234.567,00'), null);
    assert.equal(reader.read('1,2,3'), null);
    const swiss = compileAmountReader({ decimalSeparator: '.', thousandsSeparator: "'" });
    assert.equal(swiss.read("1'234'567.05")?.decimal, '1234567.05');
    const french = compileAmountReader({ decimalSeparator: ',', thousandsSeparator: ' ' });
    assert.equal(french.read('1 234,56')?.decimal, '1234.56');
    assert.equal(french.read('1\u00a0234,56')?.decimal, '1234.56');
    assert.equal(french.read('1\u202f234,56')?.decimal, '1234.56');
  });

  it('reads signs as banks write them: leading or trailing minus, parentheses, a leading plus, currency symbols and codes', () => {
    const reader = compileAmountReader({ decimalSeparator: '.', thousandsSeparator: ',' });
    const read = (text: string) => reader.read(text);
    assert.deepEqual(read('-12.50'), { decimal: '-12.50', currency: null });
    assert.deepEqual(read('12.50-'), { decimal: '-12.50', currency: null });
    assert.deepEqual(read('(1,234.50)'), { decimal: '-1234.50', currency: null });
    assert.deepEqual(read('+7'), { decimal: '7', currency: null });
    assert.deepEqual(read('−3.10'), { decimal: '-3.10', currency: null });
    assert.deepEqual(read('-$12.00'), { decimal: '-12.00', currency: null });
    assert.deepEqual(read('$-12.00'), { decimal: '-12.00', currency: null });
    assert.deepEqual(read('£1,234.56'), { decimal: '1234.56', currency: 'GBP' });
    assert.deepEqual(read('12.00 EUR'), { decimal: '12.00', currency: 'EUR' });
    assert.deepEqual(read('USD -5'), { decimal: '-5', currency: 'USD' });
    assert.deepEqual(read('-0.00'), { decimal: '0.00', currency: null });
    assert.deepEqual(read('007.10'), { decimal: '7.10', currency: null });
    for (const bad of ['--5', '(-5)', '5-+', '1e3', '12.3x', 'abc', '€', '12 34', '1.2.3', '1234567890123456789', '0.1234567', '€12 EUR']) {
      assert.equal(read(bad), null, bad);
    }
    assert.equal(read('   '), null);
  });

  it('never goes through a JavaScript number', async () => {
    const events = await parse('date,amount\n2024-01-02,123456789012345678.99\n2024-01-03,-0.000001\n', base);
    assert.deepEqual(
      entriesOf(events).map((entry) => entry.amount),
      ['123456789012345678.99', '-0.000001'],
    );
  });

  it('uses the currency of a symbol or code on the amount when no column or constant gives one', async () => {
    const events = await parse('date,amount\n2024-01-02,£10.00\n2024-01-03,"1,000 JPY"\n', {
      columns: { timestamp: 'date', amount: 'amount' },
      thousandsSeparator: ',',
    });
    assert.deepEqual(
      entriesOf(events).map((entry) => [entry.amount, entry.currency]),
      [
        ['10.00', 'GBP'],
        ['1000', 'JPY'],
      ],
    );
    assert.match(warningsOf(events)[0] ?? '', /no currency column and no constant/);
  });

  it("refuses an amount whose code contradicts the row's currency column", async () => {
    await rejectsWith(
      parse('date,amount,currency\n2024-01-02,10.00 USD,EUR\n', { columns: { timestamp: 'date', amount: 'amount', currency: 'currency' } }),
      2,
      /line 2, column "amount": found an amount in USD on a row whose currency is EUR/,
    );
  });

  it('reads separate debit and credit columns as absolute amounts', async () => {
    const events = await parse('date;Soll;Haben\n2024-01-02;-12,50;\n2024-01-03;;7,00\n2024-01-04;3,00;0,00\n', {
      delimiter: ';',
      decimalSeparator: ',',
      columns: { timestamp: 'date' },
      amount: { debit: 'Soll', credit: 'Haben' },
      currency: 'EUR',
    });
    assert.deepEqual(
      entriesOf(events).map((entry) => entry.amount),
      ['-12.50', '7.00', '-3.00'],
    );
  });

  it('refuses a row with both debit and credit, or neither, unless a skip rule leaves it out', async () => {
    const mapping = { columns: { timestamp: 'date', type: 'kind' }, amount: { debit: 'out', credit: 'in' }, currency: 'GBP' };
    await rejectsWith(
      parse('date,kind,out,in\n2024-01-02,x,1.00,2.00\n', mapping),
      2,
      /line 2, column "out": found "1.00" in "out" and "2.00" in "in"; expected an amount in only one of the two columns/,
    );
    await rejectsWith(
      parse('date,kind,out,in\n2024-01-02,x,1.00,\n2024-01-03,x,,\n', mapping),
      3,
      /line 3, column "out": found no amount in "out" nor in "in"; expected an amount in one of them, or a skip rule/,
    );
    await rejectsWith(parse('date,kind,out,in\n2024-01-03,x,0.00,0.00\n', mapping), 2, /found no amount in "out" nor in "in"/);
    const skipped = await parse('date,kind,out,in\n2024-01-02,Balance brought forward,,\n2024-01-03,x,,5.00\n', {
      ...mapping,
      skip: [{ column: 'kind', equals: ['Balance brought forward'] }],
    });
    assert.deepEqual(
      entriesOf(skipped).map((entry) => entry.amount),
      ['5.00'],
    );
  });

  it('reads an Af/Bij indicator column and refuses a value it does not list', async () => {
    const mapping = {
      delimiter: ';',
      decimalSeparator: ',',
      columns: { timestamp: 'Datum' },
      amount: { column: 'Bedrag', indicator: { column: 'Af Bij', debit: ['Af'], credit: ['Bij'] } },
      currency: 'EUR',
      dateFormat: 'YYYYMMDD',
    };
    const events = await parse('Datum;Af Bij;Bedrag\n20240101;Af;12,50\n20240102;bij;3,00\n20240103;AF;-1,00\n', mapping);
    assert.deepEqual(
      entriesOf(events).map((entry) => entry.amount),
      ['-12.50', '3.00', '-1.00'],
    );
    await rejectsWith(
      parse('Datum;Af Bij;Bedrag\n20240101;Af;12,50\n20240102;Credit;3,00\n', mapping),
      3,
      /line 3, column "Af Bij": found "Credit"; expected one of "Af" \(money out\) or "Bij" \(money in\)/,
    );
  });

  it('turns every sign with invertSign (a credit card export where charges are positive)', async () => {
    const events = await parse('date,amount\n2024-01-02,25.00\n2024-01-03,-100.00\n2024-01-04,0.00\n', { ...base, invertSign: true });
    assert.deepEqual(
      entriesOf(events).map((entry) => entry.amount),
      ['-25.00', '100.00', '0.00'],
    );
  });

  it("writes amounts with the currency's minor unit digits, from a constant currency or the row's", async () => {
    const events = await parse('date,amount,ccy\n2024-01-02,5,JPY\n2024-01-03,5,kwd\n2024-01-04,5,\n2024-01-05,5,€\n', {
      columns: { timestamp: 'date', amount: 'amount', currency: 'ccy' },
      currency: 'USD',
    });
    assert.deepEqual(
      entriesOf(events).map((entry) => [entry.amount, entry.currency]),
      [
        ['5', 'JPY'],
        ['5.000', 'KWD'],
        ['5.00', 'USD'],
        ['5.00', 'EUR'],
      ],
    );
    assert.equal(statementsOf(events)[0]?.currency, 'USD', "the constant names the statement's currency");
  });
});

describe('parseCsv: dates', () => {
  it('reads European (DD.MM.YYYY) and US (MM/DD/YYYY) dates, and two-digit years', async () => {
    const european = await parse('d;a\n31.01.2024;1\n01.02.2024;1\n', {
      delimiter: ';',
      dateFormat: 'DD.MM.YYYY',
      columns: { timestamp: 'd', amount: 'a' },
      currency: 'EUR',
    });
    assert.deepEqual(
      entriesOf(european).map((entry) => entry.bookingDate),
      ['2024-01-31', '2024-02-01'],
    );
    const american = await parse('d,a\n01/31/2024,1\n02/01/2024,1\n', { dateFormat: 'MM/DD/YYYY', columns: { timestamp: 'd', amount: 'a' }, currency: 'USD' });
    assert.deepEqual(
      entriesOf(american).map((entry) => entry.bookingDate),
      ['2024-01-31', '2024-02-01'],
    );
    const format = compileDateFormat('DD.MM.YY') as CompiledDateFormat;
    assert.equal(format.read('01.02.69')?.date, '2069-02-01');
    assert.equal(format.read('01.02.70')?.date, '1970-02-01');
    const loose = compileDateFormat('D.M.YYYY') as CompiledDateFormat;
    assert.equal(loose.read('1.6.2026')?.date, '2026-06-01');
    assert.equal(loose.read('30.06.2026')?.date, '2026-06-30');
  });

  it('reads English month abbreviations (MMM) in any case, as DBS and Amex write them', async () => {
    const dbs = compileDateFormat('DD MMM YYYY') as CompiledDateFormat;
    assert.equal(dbs.read('06 May 2020')?.date, '2020-05-06');
    assert.equal(dbs.read('06 MAY 2020')?.date, '2020-05-06');
    assert.equal(dbs.read('06  may  2020')?.date, '2020-05-06');
    for (const bad of ['06 Mai 2020', '06 05 2020', '31 Feb 2020', '06 May 20']) assert.equal(dbs.read(bad), null, bad);
    assert.equal((compileDateFormat('DD-MMM-YY') as CompiledDateFormat).read('12-Dec-19')?.date, '2019-12-12');
    assert.equal((compileDateFormat('MMM D, YYYY HH:mm') as CompiledDateFormat).read('Jan 5, 2024 13:45')?.time?.hour, 13);
    assert.match(compileDateFormat('DD MMMM YYYY') as string, /exactly one a month \(MMM, MM or M\)/);
    const events = await parse('Date Processed,Amount\n12-Dec-2019,£18.89\n', {
      dateFormat: 'DD-MMM-YYYY',
      columns: { timestamp: 'Date Processed', amount: 'Amount' },
    });
    assert.deepEqual(
      entriesOf(events).map((entry) => [entry.bookingDate, entry.amount, entry.currency]),
      [['2019-12-12', '18.89', 'GBP']],
    );
  });

  it('refuses dates that do not exist and values in another format', () => {
    const format = compileDateFormat('DD.MM.YYYY') as CompiledDateFormat;
    for (const bad of ['31.02.2024', '2024-01-31', '1.1.2024', '31.01.24', '00.01.2024', '31.01.1969', '']) assert.equal(format.read(bad), null, bad);
  });

  it('puts the date part of a date-time in bookingDate and the instant in bookingTimeMs; value dates may lack the time', async () => {
    const events = await parse('when,value,amount\n2024-01-31 13:45:30,2024-02-01,1\n', {
      dateFormat: 'YYYY-MM-DD HH:mm:ss',
      timezone: 'America/New_York',
      columns: { timestamp: 'when', valueDate: 'value', amount: 'amount' },
      currency: 'USD',
    });
    const entry = entriesOf(events)[0];
    assert.equal(entry?.bookingDate, '2024-01-31');
    assert.equal(entry?.bookingTimeMs, Date.parse('2024-01-31T18:45:30Z'));
    assert.equal(entry?.valueDate, '2024-02-01');
  });

  it('reads wall-clock times in Europe/Berlin across both changes of daylight saving time', () => {
    const at = (date: string, hour: number, minute: number) =>
      new Date(zonedTimeToEpochMs(date, { hour, minute, second: 0, millisecond: 0 }, 'Europe/Berlin')).toISOString();
    assert.equal(at('2024-03-31', 1, 59), '2024-03-31T00:59:00.000Z', 'winter time, UTC+1');
    assert.equal(at('2024-03-31', 2, 30), '2024-03-31T01:30:00.000Z', 'a time in the spring gap is moved forward by the gap');
    assert.equal(at('2024-03-31', 3, 0), '2024-03-31T01:00:00.000Z', 'summer time, UTC+2');
    assert.equal(at('2024-10-27', 2, 30), '2024-10-27T00:30:00.000Z', 'a time that occurs twice is taken at its first occurrence');
    assert.equal(at('2024-10-27', 3, 30), '2024-10-27T02:30:00.000Z', 'winter time again');
    assert.equal(at('2024-07-01', 12, 0), '2024-07-01T10:00:00.000Z');
  });

  it("reads ISO dates with and without a zone; a time without a zone is in the mapping's timezone", async () => {
    const events = await parse('t,a\n2024-03-31T03:30:00+02:00,1\n2024-03-31T03:30:00Z,1\n2024-03-31T03:30:00,1\n2024-03-31,1\n2024-03-31 03:30:00.250,1\n', {
      timezone: 'Europe/Berlin',
      columns: { timestamp: 't', amount: 'a' },
      currency: 'EUR',
    });
    assert.deepEqual(
      entriesOf(events).map((entry) => entry.bookingTimeMs),
      [
        Date.parse('2024-03-31T01:30:00Z'),
        Date.parse('2024-03-31T03:30:00Z'),
        Date.parse('2024-03-31T01:30:00Z'),
        null,
        Date.parse('2024-03-31T01:30:00.250Z'),
      ],
    );
    assert.deepEqual(
      entriesOf(events).map((entry) => entry.bookingDate),
      Array(5).fill('2024-03-31'),
    );
  });

  it('reads a transaction date and a booking date named both, as card exports carry them', async () => {
    // Capital One's card export: the purchase on the 31st, posted on the 2nd.
    const card = await parse('Transaction Date,Posted Date,Debit,Credit\n2015-12-31,2016-01-02,1000.00,\n2015-12-30,,12.00,\n,2016-01-03,,5.00\n', {
      dateFormat: 'YYYY-MM-DD',
      columns: { timestamp: 'Transaction Date', bookingDate: 'Posted Date' },
      amount: { debit: 'Debit', credit: 'Credit' },
      currency: 'USD',
    });
    assert.deepEqual(
      entriesOf(card).map((entry) => [entry.bookingDate, entry.bookingTimeMs === null ? null : new Date(entry.bookingTimeMs).toISOString(), entry.amount]),
      [
        ['2016-01-02', '2015-12-31T00:00:00.000Z', '-1000.00'],
        // Not posted yet: the transaction date alone.
        [null, '2015-12-30T00:00:00.000Z', '-12.00'],
        // No transaction date: the booking date is the moment.
        ['2016-01-03', null, '5.00'],
      ],
    );
    await rejectsWith(
      parse('Transaction Date,Posted Date,Amount\n,,1\n', {
        columns: { timestamp: 'Transaction Date', bookingDate: 'Posted Date', amount: 'Amount' },
        currency: 'USD',
      }),
      2,
      /column "Transaction Date": found no date in "Transaction Date" nor in "Posted Date"; expected an ISO 8601 date .* in at least one of them/,
    );
    await rejectsWith(
      parse('T,P,A\n2024-01-31,31.01.2024,1\n', { columns: { timestamp: 'T', bookingDate: 'P', amount: 'A' }, currency: 'USD' }),
      2,
      /column "P": found "31.01.2024"/,
    );

    // One column named twice: a date-time gives the booking time, its date the booking date.
    const ledger = await parse('Posted,Amount\n2024-03-31 03:30:00,1\n', {
      dateFormat: 'YYYY-MM-DD HH:mm:ss',
      timezone: 'Europe/Berlin',
      columns: { timestamp: 'Posted', bookingDate: 'Posted', amount: 'Amount' },
      currency: 'EUR',
    });
    assert.deepEqual(
      entriesOf(ledger).map((entry) => [entry.bookingDate, entry.bookingTimeMs]),
      [['2024-03-31', Date.parse('2024-03-31T01:30:00Z')]],
    );
    assert.deepEqual(checkCsvMapping({ columns: { timestamp: 'D', bookingDate: 'D', amount: 'A' } }).columns, {
      timestamp: 'D',
      bookingDate: 'D',
      amount: 'A',
    });
  });

  it('joins a date column and a time column named as a list', async () => {
    const events = await parse('Datum;Uhrzeit;Betrag\n27.10.2024;03:15:00;1\n', {
      delimiter: ';',
      dateFormat: 'DD.MM.YYYY HH:mm:ss',
      timezone: 'Europe/Berlin',
      columns: { timestamp: ['Datum', 'Uhrzeit'], amount: 'Betrag' },
      currency: 'EUR',
    });
    assert.equal(entriesOf(events)[0]?.bookingTimeMs, Date.parse('2024-10-27T02:15:00Z'));
  });
});

describe('parseCsv: layout', () => {
  it('drops skipRows lines before the header, whatever they contain', async () => {
    const text = 'Account;"DE12 unbalanced quote\r\nPeriod;01.01.2024 - 31.01.2024\r\n\r\nDate;Amount\r\n02.01.2024;-5,00\r\n';
    const mapping = {
      delimiter: ';',
      skipRows: 3,
      decimalSeparator: ',',
      dateFormat: 'DD.MM.YYYY',
      columns: { timestamp: 'Date', amount: 'Amount' },
      currency: 'EUR',
    };
    const entries = entriesOf(await parse(text, mapping, { chunkSize: 3 }));
    assert.equal(entries.length, 1);
    assert.equal(entries[0]?.line, 5);
    await rejectsWith(parse(text, { ...mapping, skipRows: 9 }), 5, /found only 5 lines, all dropped by skipRows \(9\)/);
  });

  it('reads a file with a byte-order mark, the header name matching without it', async () => {
    const events = await parse('\ufeffDate,Amount\n2024-01-02,1.00\n', { columns: { timestamp: 'Date', amount: 'Amount' }, currency: 'EUR' });
    assert.equal(entriesOf(events).length, 1);
  });

  it('reads a file without a header by 0-based indexes', async () => {
    const events = await parse('2024-01-02,Coffee,-3.50\n2024-01-03,Refund,1.00\n', {
      header: false,
      columns: { timestamp: 0, description: 1, amount: 2 },
      currency: 'EUR',
    });
    assert.deepEqual(
      entriesOf(events).map((entry) => [entry.line, entry.description, entry.amount]),
      [
        [1, 'Coffee', '-3.50'],
        [2, 'Refund', '1.00'],
      ],
    );
    await rejectsWith(
      parse('2024-01-02,-3.50\n', { header: false, columns: { timestamp: 0, amount: 5 }, currency: 'EUR' }),
      1,
      /line 1, column "index 5": found rows of 2 fields \(indexes 0 to 1\)/,
    );
  });

  it('joins a list of columns with a space, skipping empty ones, and turns quoted line breaks into spaces', async () => {
    const events = await parse('d,a,one,two,three\n2024-01-02,1,"Invoice\r\n 42", ,paid\n', {
      columns: { timestamp: 'd', amount: 'a', description: ['one', 'two', 'three'] },
      currency: 'EUR',
    });
    assert.equal(entriesOf(events)[0]?.description, 'Invoice 42 paid');
  });

  it('reads fields with quoting turned off, and with another quote character', async () => {
    const off = await parse('d;a;t\n2024-01-02;1;say "hi"\n', {
      delimiter: ';',
      quote: null,
      columns: { timestamp: 'd', amount: 'a', description: 't' },
      currency: 'EUR',
    });
    assert.equal(entriesOf(off)[0]?.description, 'say "hi"');
    const single = await parse("d,a,t\n2024-01-02,1,'a, b and ''c'''\n", {
      quote: "'",
      columns: { timestamp: 'd', amount: 'a', description: 't' },
      currency: 'EUR',
    });
    assert.equal(entriesOf(single)[0]?.description, "a, b and 'c'");
  });

  it('leaves out rows a skip rule matches and says how many', async () => {
    const events = await parse('d,a,status\n2024-01-02,1,booked\n2024-01-03,x,pending\n2024-01-04,2,booked\n', {
      columns: { timestamp: 'd', amount: 'a' },
      currency: 'EUR',
      skip: [{ column: 'status', equals: ['pending', 'cancelled'] }],
    });
    assert.deepEqual(
      entriesOf(events).map((entry) => entry.line),
      [2, 4],
    );
    assert.deepEqual(warningsOf(events), ["1 row was left out by the mapping's skip rules (the first at line 3)"]);
  });

  it('builds the uniqueId from two externalId columns and refuses an empty one', async () => {
    const mapping = { columns: { timestamp: 'd', amount: 'a' }, currency: 'EUR', externalId: ['doc', 'line'] };
    const events = await parse('d,a,doc,line\n2024-01-02,1,5100000123,1\n2024-01-02,1,5100000123,2\n', mapping);
    assert.deepEqual(
      entriesOf(events).map((entry) => entry.uniqueId),
      ['5100000123|1', '5100000123|2'],
    );
    await rejectsWith(
      parse('d,a,doc,line\n2024-01-02,1,5100000123,1\n2024-01-02,1,,2\n', mapping),
      3,
      /line 3, column "doc": found ""; expected a value: the mapping's externalId columns together identify each row/,
    );
    const none = await parse('d,a\n2024-01-02,1\n', { columns: { timestamp: 'd', amount: 'a' }, currency: 'EUR' });
    assert.equal(entriesOf(none)[0]?.uniqueId, null);
  });

  it('gives the statement the account when every row names the same one', async () => {
    const mapping = { columns: { timestamp: 'd', amount: 'a', accountId: 'acct' }, currency: 'EUR' };
    const same = await parse('d,a,acct\n2024-01-02,1,DE01\n2024-01-03,1,DE01\n', mapping);
    assert.equal(statementsOf(same)[0]?.accountId, 'DE01');
    const mixed = await parse('d,a,acct\n2024-01-02,1,DE01\n2024-01-03,1,DE02\n', mapping);
    assert.equal(statementsOf(mixed)[0]?.accountId, null);
    assert.deepEqual(
      entriesOf(mixed).map((entry) => entry.accountId),
      ['DE01', 'DE02'],
    );
  });

  it('converts custom columns to their types', async () => {
    const customColumns: CsvCustomColumn[] = [
      { name: 'vat', type: 'money' },
      { name: 'quantity', type: 'number' },
      { name: 'dueDate', type: 'date' },
      { name: 'approved', type: 'boolean' },
      { name: 'costCentre', type: 'string' },
    ];
    const mapping = {
      delimiter: ';',
      decimalSeparator: ',',
      thousandsSeparator: '.',
      dateFormat: 'DD.MM.YYYY',
      columns: { timestamp: 'd', amount: 'a', vat: 'vat', Quantity: 'qty', dueDate: 'due', approved: 'ok', costCentre: 'cc' },
      currency: 'EUR',
    };
    const events = await parse('d;a;vat;qty;due;ok;cc\n02.01.2024;1;1.234,5;3,5;31.01.2024;ja;  CC-1  \n03.01.2024;1;;;;nein;\n', mapping, { customColumns });
    const [first, second] = entriesOf(events);
    assert.deepEqual(first?.extra, { vat: '1234.5', quantity: 3.5, dueDate: '2024-01-31', approved: true, costCentre: 'CC-1' });
    assert.deepEqual(second?.extra, { approved: false });
    await rejectsWith(
      parse('d;a;vat;qty;due;ok;cc\n02.01.2024;1;;;;maybe;\n', mapping, { customColumns }),
      2,
      /line 2, column "ok": found "maybe"; expected yes or no/,
    );
  });

  it('reads rows without the fields of the empty names a header ends with, but no shorter ones', async () => {
    const mapping = { columns: { timestamp: 'd', amount: 'a', description: 't' }, currency: 'EUR' };
    const events = await parse('d,a,t,,\n2024-01-02,1,x\n2024-01-03,2,y,\n2024-01-04,3,z,,\n', mapping);
    assert.deepEqual(
      entriesOf(events).map((entry) => [entry.amount, entry.description]),
      [
        ['1.00', 'x'],
        ['2.00', 'y'],
        ['3.00', 'z'],
      ],
    );
    await rejectsWith(parse('d,a,t,,\n2024-01-02,1\n', mapping), 2, /^line 2: found 2 fields; expected 3 fields separated by ","/);
    // An empty name between others is a column like any: its field is required.
    await rejectsWith(parse('d,,a\n2024-01-02,x\n', { columns: { timestamp: 'd', amount: 'a' }, currency: 'EUR' }), 2, /found 2 fields; expected 3 fields/);
  });

  it("ignores empty fields after the header's last column, once said, but refuses filled ones", async () => {
    const mapping = { columns: { timestamp: 'd', amount: 'a' }, currency: 'USD' };
    const events = await parse('d,a\n2024-01-02,1,\n2024-01-03,2,,\n', mapping);
    assert.equal(entriesOf(events).length, 2);
    assert.equal(warningsOf(events).filter((message) => message.startsWith('rows end with empty fields')).length, 1);
    await rejectsWith(
      parse('d,a\n2024-01-02,1\n2024-01-03,2,oops\n', mapping),
      3,
      /line 3: found 3 fields, the last ones not empty; expected 2 fields separated by ","/,
    );
  });

  it('warns about a header without rows', async () => {
    const events = await parse('d,a\n', { columns: { timestamp: 'd', amount: 'a' }, currency: 'EUR' });
    assert.deepEqual(warningsOf(events), ['the file has a header but no rows: nothing to import']);
    assert.equal(statementsOf(events).length, 1);
  });
});

describe('parseCsv: malformed files', () => {
  const mapping = {
    delimiter: ';',
    decimalSeparator: ',',
    thousandsSeparator: '.',
    dateFormat: 'DD.MM.YYYY',
    columns: { timestamp: 'Buchungstag', amount: 'Betrag' },
    currency: 'EUR',
  };

  it('names the line, the column, the value and the format of an amount that does not parse', async () => {
    const rows = ['Buchungstag;Betrag', ...Array.from({ length: 15 }, () => '02.01.2024;1,00'), '03.01.2024;12,3x'];
    await rejectsWith(
      parse(rows.join('\n'), mapping),
      17,
      /^line 17, column "Betrag": found "12,3x"; expected an amount with decimal separator "," and thousands separator "." such as "1.234,56"$/,
    );
  });

  it('names the line, the column, the value and the format of a date that does not parse', async () => {
    await rejectsWith(
      parse('Buchungstag;Betrag\n02.01.2024;1,00\n2024-01-03;1,00\n', mapping),
      3,
      /^line 3, column "Buchungstag": found "2024-01-03"; expected a date in the format DD.MM.YYYY such as "31.01.2024"$/,
    );
    await rejectsWith(parse('Buchungstag;Betrag\n;1,00\n', mapping), 2, /line 2, column "Buchungstag": found ""; expected a date/);
  });

  it('turns a row with fewer fields into an error naming its line', async () => {
    await rejectsWith(
      parse('Buchungstag;Betrag;Text\n02.01.2024;1,00;a\n"03.01.2024";"2,00";"multi\r\nline"\n04.01.2024;3,00\n', mapping),
      5,
      /^line 5: found 2 fields; expected 3 fields separated by ";", as in the header; a balance or total line/,
    );
    // The closing balance line of a Deutsche Bank export.
    const { text, mapping: bank } = loadFixture('deutsche-bank.csv');
    await rejectsWith(parse(`${text}Kontostand;30.6.2026;;;1.200,00;EUR\n`, bank), 13, /line 13: found 6 fields; expected 18 fields/);
  });

  it('leaves out a shorter or longer row that a skip rule matches, counted with the skipped rows', async () => {
    const { text, mapping: bank } = loadFixture('deutsche-bank.csv');
    const events = await parse(`${text}Kontostand;30.6.2026;;;1.200,00;EUR\n`, { ...bank, skip: [{ column: 'Buchungstag', equals: ['Kontostand'] }] });
    assert.equal(entriesOf(events).length, 4);
    assert.ok(warningsOf(events).includes("1 row was left out by the mapping's skip rules (the first at line 13)"), warningsOf(events).join(' | '));
    // A longer one too, and any row a rule matches, as the preview proposes for balance lines.
    const longer = await parse('d,a\n2024-01-02,1\nTotal,1,1 row\n', {
      columns: { timestamp: 'd', amount: 'a' },
      currency: 'EUR',
      skip: [{ column: 'd', equals: ['Total'] }],
    });
    assert.equal(entriesOf(longer).length, 1);
    // A rule on a column the short row does not reach leaves it to be refused.
    await rejectsWith(
      parse(`${text}Kontostand;30.6.2026;;;1.200,00;EUR\n`, { ...bank, skip: [{ column: 'Währung', equals: [''] }] }),
      13,
      /line 13: found 6 fields; expected 18 fields .* left out by a skip rule/,
    );
  });

  it("names a column the header lacks, listing the header's columns", async () => {
    await rejectsWith(
      parse('Datum;Betrag\n02.01.2024;1,00\n', mapping),
      1,
      /^line 1, column "Buchungstag": found a header without this column \(its columns: "Datum", "Betrag"\); expected a column named "Buchungstag", which the mapping's columns.timestamp names/,
    );
    await rejectsWith(
      parse('x;x;Betrag\n02.01.2024;1;1,00\n', { ...mapping, columns: { timestamp: 'x', amount: 'Betrag' } }),
      1,
      /found 2 header columns named so \(indexes 0, 1\)/,
    );
    // A name the header repeats (ING Germany writes "Währung" twice) is named by its index instead.
    const repeated = await parse('Buchung;Währung;Betrag;Währung\n02.01.2024;EUR;1,00;USD\n', {
      ...mapping,
      columns: { timestamp: 'Buchung', amount: 'Betrag', currency: 3 },
    });
    assert.equal(entriesOf(repeated)[0]?.currency, 'USD');
  });

  it('matches a header name without regard to case or spaces when no column matches exactly', async () => {
    const events = await parse(' buchungstag ;BETRAG\n02.01.2024;1,00\n', mapping);
    assert.equal(entriesOf(events).length, 1);
  });

  it('refuses quotes that are not CSV, naming the line', async () => {
    await rejectsWith(parse('Buchungstag;Betrag\n02.01.2024;"1,00"x\n', mapping), 2, /line 2: found a closing quote "\\"" followed by other characters/);
    await rejectsWith(
      parse('Buchungstag;Betrag\n02.01.2024;1,00\n02.01.2024;1"0\n', mapping),
      3,
      /line 3: found a quote "\\"" inside a field that does not start with one/,
    );
    await rejectsWith(
      parse('Buchungstag;Betrag\n02.01.2024;"1,00\n03.01.2024;2,00\n', mapping),
      2,
      /line 2: found a field opened with the quote "\\"" that is never closed/,
    );
  });

  it('refuses an empty file', async () => {
    await rejectsWith(parse('', mapping), 1, /found an empty file/);
    await rejectsWith(parse('\r\n\r\n\n', mapping), 1, /found an empty file/);
  });
});

describe('parseCsv: hostile input', () => {
  const mapping = { columns: { timestamp: 'date', amount: 'amount' }, currency: 'EUR' };

  it('refuses a line of several megabytes without a break, without holding it', async () => {
    await rejectsWith(parse('x'.repeat(8 * 1024 * 1024), mapping), 1, /found a row longer than 131072 characters/);
    await rejectsWith(
      parse(`date,amount\n2024-01-02,"${'y'.repeat(4 * 1024 * 1024)}`, mapping),
      2,
      /found a row longer than 131072 characters; expected rows of at most 131072 characters; check the delimiter \(","\) and that no quote/,
    );
  });

  it('refuses binary junk with an ImportFormatError', async () => {
    let seed = 7;
    const random = () => {
      seed = (seed * 1103515245 + 12345) % 2147483648;
      return seed % 256;
    };
    for (let attempt = 0; attempt < 20; attempt++) {
      const junk = String.fromCharCode(...Array.from({ length: 4096 }, random));
      await assert.rejects(parse(junk, mapping), ImportFormatError);
    }
    await rejectsWith(parse('date,amount\n2024-01-02,1\u0000\n', mapping), 2, /found a NUL character/);
  });

  it('refuses a too long line among the lines skipRows drops', async () => {
    await rejectsWith(
      parse(`${'z'.repeat(200_000)}\ndate,amount\n`, { ...mapping, skipRows: 1 }),
      1,
      /a line longer than 65536 characters among the 1 lines skipRows drops/,
    );
  });
});

describe('parseCsv: many rows', () => {
  it('streams 50,000 generated rows', async () => {
    const rowCount = 50_000;
    async function* generated(): AsyncGenerator<string> {
      yield 'Buchungstag;Uhrzeit;Betrag;Verwendungszweck;Referenz\n';
      let batch = '';
      for (let index = 0; index < rowCount; index++) {
        const day = String((index % 28) + 1).padStart(2, '0');
        const minute = String(index % 60).padStart(2, '0');
        batch += `${day}.03.2024;10:${minute}:00;${index % 2 === 0 ? '-' : ''}${index},${index % 10}5;"Zahlung ${index}";R-${index}\n`;
        if (batch.length > 60_000) {
          yield batch;
          batch = '';
        }
      }
      yield batch;
    }
    let entries = 0;
    let last: StatementEntry | null = null;
    const mapping: CsvMapping = {
      delimiter: ';',
      decimalSeparator: ',',
      dateFormat: 'DD.MM.YYYY HH:mm:ss',
      timezone: 'Europe/Berlin',
      columns: { timestamp: ['Buchungstag', 'Uhrzeit'], amount: 'Betrag', description: 'Verwendungszweck' },
      externalId: ['Referenz'],
      currency: 'EUR',
    };
    for await (const event of parseCsv(generated(), { mapping, customColumns: [] })) {
      if (event.kind === 'entry') {
        entries += 1;
        last = event.entry;
      }
    }
    assert.equal(entries, rowCount);
    assert.equal(last?.line, rowCount + 1);
    assert.equal(last?.uniqueId, `R-${rowCount - 1}`);
    assert.equal(last?.amount, '49999.95');
  });
});

describe('checkCsvMapping', () => {
  const valid = { columns: { timestamp: 'Date', amount: 'Amount' } };
  const problem = (value: unknown, customColumns: CsvCustomColumn[] = []): string => {
    try {
      checkCsvMapping(value, customColumns);
    } catch (error) {
      assert.ok(error instanceof MappingError, String(error));
      return `${error.path} | ${error.message}`;
    }
    return assert.fail(`the mapping was accepted: ${JSON.stringify(value)}`);
  };

  it('accepts the example of SPEC §7 and returns a clean copy', () => {
    const example = {
      encoding: 'windows-1252',
      delimiter: ';',
      quote: '"',
      skipRows: 14,
      header: true,
      decimalSeparator: ',',
      thousandsSeparator: '.',
      dateFormat: 'DD.MM.YYYY',
      columns: {
        timestamp: 'Buchungstag',
        valueDate: 'Valuta',
        currency: 'Waehrung',
        description: ['Auftraggeber/Empfaenger', 'Verwendungszweck'],
        reference: 'Kundenreferenz',
      },
      amount: { debit: 'Soll', credit: 'Haben' },
      invertSign: false,
      currency: 'eur',
      externalId: ['Referenz'],
      skip: [{ column: 'Status', equals: ['vorgemerkt'] }],
    };
    assert.deepEqual(checkCsvMapping(example), { ...example, currency: 'EUR' });
    assert.deepEqual(checkCsvMapping({ ...valid, externalId: 'Ref' }).externalId, ['Ref']);
  });

  it('names the JSON pointer and the fix of each problem', () => {
    const cases: Array<[unknown, RegExp]> = [
      [null, /^ \| the mapping: must be a JSON object/],
      [{ ...valid, delimeter: ';' }, /^\/delimeter \| \/delimeter: is not a mapping property \(did you mean "delimiter"\?\)/],
      [{ ...valid, skipRows: '3' }, /^\/skipRows \| .*whole number from 0 to 1000, got "3"/],
      [{ ...valid, header: 'yes' }, /^\/header \|/],
      [{ ...valid, decimalSeparator: ';' }, /^\/decimalSeparator \| .*must be "." or ","/],
      [{ ...valid, decimalSeparator: ',', thousandsSeparator: ',' }, /^\/thousandsSeparator \| .*must differ from the decimal separator/],
      [{ ...valid, dateFormat: 'DD.MM.YYYY hh:mm' }, /^\/dateFormat \| .*"h" at position 12/],
      [{ ...valid, dateFormat: 'MM/YYYY' }, /^\/dateFormat \| .*exactly one a day/],
      [{ ...valid, dateFormat: 'DMYYYY' }, /^\/dateFormat \| .*needs a separator next to D/],
      [{ ...valid, timezone: 'Europe/Nowhere' }, /^\/timezone \| .*IANA time zone/],
      [{ ...valid, encoding: 'klingon' }, /^\/encoding \|/],
      [{ ...valid, quote: '""' }, /^\/quote \|/],
      [{ ...valid, delimiter: '"' }, /^\/delimiter \| .*must differ from the quote character/],
      [{ ...valid, delimiter: ';', quote: ';' }, /^\/quote \| .*must differ from the delimiter/],
      [{ ...valid, currency: 12 }, /^\/currency \|/],
      [{ ...valid, invertSign: 'no' }, /^\/invertSign \|/],
      [{}, /^\/columns \| .*is required/],
      [{ columns: [] }, /^\/columns \| .*must be an object/],
      [{ columns: { amount: 'A' } }, /^\/columns\/timestamp \| .*is missing/],
      [{ columns: { timestamp: 'D' } }, /^\/columns\/amount \| .*is missing/],
      [
        { columns: { timestamp: 'D', amount: 'A', descripton: 'T' } },
        /^\/columns\/descripton \| .*is not a column of the dataset \(did you mean "description"\?\)/,
      ],
      [{ columns: { timestamp: 'D', amount: true } }, /^\/columns\/amount \| .*got true/],
      [{ columns: { timestamp: 'D', amount: ['A', 'B'] } }, /^\/columns\/amount \| .*must name one column/],
      [{ columns: { timestamp: 'D', amount: 'A', description: ['x', 1.5] } }, /^\/columns\/description\/1 \|/],
      [{ header: false, columns: { timestamp: 'Date', amount: 1 } }, /^\/columns\/timestamp \| .*"header" is false: name columns by their 0-based index/],
      [{ columns: { timestamp: 'D', amount: 'A' }, amount: { debit: 'S', credit: 'H' } }, /^\/amount \| .*both say where the amount is/],
      [{ columns: { timestamp: 'D' }, amount: { debit: 'S' } }, /^\/amount\/credit \| .*is missing/],
      [{ columns: { timestamp: 'D' }, amount: { debit: 'S', credit: 'H', sign: 1 } }, /^\/amount\/sign \|/],
      [{ columns: { timestamp: 'D' }, amount: { column: 'A', indicator: { column: 'I', debit: 'Af', credit: ['Bij'] } } }, /^\/amount\/indicator\/debit \|/],
      [
        { columns: { timestamp: 'D' }, amount: { column: 'A', indicator: { column: 'I', debit: ['D'], credit: ['d'] } } },
        /^\/amount\/indicator\/credit \| .*debit lists too/,
      ],
      [{ ...valid, externalId: [] }, /^\/externalId \|/],
      [{ ...valid, externalId: ['a', {}] }, /^\/externalId\/1 \|/],
      [{ ...valid, skip: [{ column: 'S', equals: 'x' }] }, /^\/skip\/0\/equals \|/],
      [{ ...valid, skip: [{ column: 'S', equals: ['x'], when: 1 }] }, /^\/skip\/0\/when \|/],
      [{ ...valid, 'a/b': 1 }, /^\/a~1b \|/],
    ];
    for (const [mapping, pattern] of cases) assert.match(problem(mapping), pattern, JSON.stringify(mapping));
  });

  it("knows the dataset's custom columns, without regard to case, under their own spelling", () => {
    const checked = checkCsvMapping({ columns: { timestamp: 'D', amount: 'A', costcentre: 'K' } }, [{ name: 'costCentre', type: 'string' }]);
    assert.deepEqual(checked.columns, { timestamp: 'D', amount: 'A', costCentre: 'K' });
  });

  it('is what parseCsv checks first', async () => {
    await assert.rejects(parse('a,b\n', { columns: { timestamp: 'a' } }), MappingError);
  });
});

describe('sniffCsv', () => {
  it('claims every CSV fixture', () => {
    for (const golden of GOLDEN) {
      const head = readFileSync(new URL(golden.file, FIXTURES)).subarray(0, 4096).toString('latin1');
      assert.equal(sniffCsv(head), 'csv', golden.file);
    }
  });

  it('claims delimited text with tabs, pipes and semicolons, and UTF-16 text', () => {
    assert.equal(sniffCsv('a\tb\tc\n1\t2\t3\n'), 'csv');
    assert.equal(sniffCsv('a|b\n1|2\n'), 'csv');
    const utf16 = Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from('Datum;Betrag\r\n01.01.2024;1,00\r\n', 'utf16le')]).toString('latin1');
    assert.equal(sniffCsv(utf16), 'csv');
  });

  it('leaves the statement formats to their parsers', () => {
    const others: Record<string, string> = {
      'camt.053': '<?xml version="1.0" encoding="UTF-8"?>\n<Document xmlns="urn:iso:std:iso:20022:tech:xsd:camt.053.001.08"><BkToCstmrStmt>',
      'camt without declaration': '\u00ef\u00bb\u00bf<Document xmlns="urn:iso:std:iso:20022:tech:xsd:camt.052.001.02">',
      'OFX 1.x': 'OFXHEADER:100\r\nDATA:OFXSGML\r\nVERSION:102\r\nSECURITY:NONE\r\nENCODING:USASCII\r\n\r\n<OFX>\r\n<SIGNONMSGSRSV1>',
      'OFX 2.x': '<?xml version="1.0"?>\n<?OFX OFXHEADER="200" VERSION="220"?>\n<OFX>',
      'MT940 in a SWIFT envelope':
        '{1:F01BANKDEFFAXXX0000000000}{2:O9400000000000BANKDEFFAXXX00000000000000000000N}{4:\r\n:20:STMT\r\n:25:12345678/1234567890\r\n',
      'bare MT940': ':20:STARTUMSE\r\n:25:10020030/1234567\r\n:28C:00000/001\r\n:60F:C240101EUR1234,56\r\n:61:2401020102D12,50NTRFNONREF\r\n',
      'MT942 after a blank line': '\r\n:20:1234567890\r\n:25:DE12345678901234567890\r\n:28C:1/1\r\n:34F:EURD0,\r\n',
      BAI2: '01,122099999,123456789,240102,0200,1,80,,2/\n02,123456789,122099999,1,240101,2400,USD,2/\n03,0123456789,USD,010,500000,,,015,450000,,/\n',
      binary: 'PK\u0003\u0004\u0014\u0000\u0006\u0000\u0008\u0000\u0000\u0000!\u0000',
      empty: '',
      'one word': 'hello\n',
      'prose without a delimiter': 'Dear customer\nyour statement follows\n',
    };
    for (const [name, head] of Object.entries(others)) assert.equal(sniffCsv(head), null, name);
  });
});
