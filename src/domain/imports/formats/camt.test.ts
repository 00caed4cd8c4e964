import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { addDecimals } from '../../money.ts';
import { emptyEntry, ImportFormatError, type ParseEvent, type StatementEntry, type StatementSummary } from '../statement-entries.ts';
import { textChunks } from '../text.ts';
import { CAMT_LIMITS, declaredXmlEncoding, parseCamt, sniffCamt, type CamtFormat, type CamtOptions } from './camt.ts';

const FIXTURES = fileURLToPath(new URL('../../../../test/fixtures/imports/', import.meta.url));

function fixture(format: CamtFormat, file: string): string {
  return readFileSync(path.join(FIXTURES, format, file), 'utf8');
}

async function collect(text: AsyncIterable<string>, options: CamtOptions = {}): Promise<ParseEvent[]> {
  const events: ParseEvent[] = [];
  for await (const event of parseCamt(text, options)) events.push(event);
  return events;
}

function parse(text: string, options: CamtOptions = {}, chunkSize = 64 * 1024): Promise<ParseEvent[]> {
  return collect(textChunks(text, chunkSize), options);
}

function entriesOf(events: ParseEvent[]): StatementEntry[] {
  return events.flatMap((event) => (event.kind === 'entry' ? [event.entry] : []));
}

function statementsOf(events: ParseEvent[]): StatementSummary[] {
  return events.flatMap((event) => (event.kind === 'statement' ? [event.statement] : []));
}

function warningsOf(events: ParseEvent[]): Array<{ line: number | null; message: string }> {
  return events.flatMap((event) => (event.kind === 'warning' ? [{ line: event.line, message: event.message }] : []));
}

/** An expected entry: the fields given, every other field empty, so that deepEqual checks them all. */
function entry(fields: Partial<StatementEntry> & Pick<StatementEntry, 'line' | 'amount'>): StatementEntry {
  return { ...emptyEntry(fields.line, fields.statementIndex ?? 0, fields.amount), ...fields };
}

async function parseError(text: string | AsyncIterable<string>, options: CamtOptions = {}, chunkSize = 64 * 1024): Promise<ImportFormatError> {
  try {
    await collect(typeof text === 'string' ? textChunks(text, chunkSize) : text, options);
  } catch (error) {
    if (error instanceof ImportFormatError) return error;
    throw error;
  }
  assert.fail('expected an ImportFormatError');
}

/** The three messages' element names, for documents built in the tests. */
const MESSAGE_OF: Record<CamtFormat, { message: string; statement: string }> = {
  'camt.053': { message: 'BkToCstmrStmt', statement: 'Stmt' },
  'camt.052': { message: 'BkToCstmrAcctRpt', statement: 'Rpt' },
  'camt.054': { message: 'BkToCstmrDbtCdtNtfctn', statement: 'Ntfctn' },
};

/**
 * A small document whose entries start on line 8, one line per entry argument, so that tests
 * can name the line of an error.
 */
function camtDocument(entries: string[], options: { format?: CamtFormat; version?: string; statements?: number } = {}): string {
  const format = options.format ?? 'camt.053';
  const { message, statement } = MESSAGE_OF[format];
  const statementText = (index: number) =>
    `    <${statement}>\n` +
    `      <Id>S${index + 1}</Id>\n` +
    `      <Acct><Id><IBAN>DE89370400440532013000</IBAN></Id><Ccy>EUR</Ccy></Acct>\n` +
    entries.map((line) => `      ${line}\n`).join('') +
    `    </${statement}>\n`;
  return (
    `<?xml version="1.0" encoding="UTF-8"?>\n` +
    `<Document xmlns="urn:iso:std:iso:20022:tech:xsd:${format}.001.${options.version ?? '08'}">\n` +
    `  <${message}>\n` +
    `    <GrpHdr><MsgId>M1</MsgId><CreDtTm>2024-01-31T18:00:00+01:00</CreDtTm></GrpHdr>\n` +
    Array.from({ length: options.statements ?? 1 }, (_, index) => statementText(index)).join('') +
    `  </${message}>\n` +
    `</Document>\n`
  );
}

function ntry(options: { amount?: string; indicator?: string | null; status?: string; booking?: string | null; inner?: string; before?: string } = {}): string {
  const indicator = options.indicator === undefined ? 'CRDT' : options.indicator;
  const booking = options.booking === undefined ? '<Dt>2024-01-31</Dt>' : options.booking;
  return (
    `<Ntry>${options.before ?? ''}<Amt Ccy="EUR">${options.amount ?? '10.00'}</Amt>` +
    (indicator === null ? '' : `<CdtDbtInd>${indicator}</CdtDbtInd>`) +
    `<Sts><Cd>${options.status ?? 'BOOK'}</Cd></Sts>` +
    (booking === null ? '' : `<BookgDt>${booking}</BookgDt>`) +
    `${options.inner ?? ''}</Ntry>`
  );
}

interface Golden {
  format: CamtFormat;
  file: string;
  entryCount: number;
  /** The exact sum of each statement's entries, in statement order. */
  sums: string[];
  warningLines: Array<number | null>;
  statements: StatementSummary[];
  first: StatementEntry | null;
  last: StatementEntry | null;
}

function statement(fields: Omit<StatementSummary, 'openingBalance' | 'closingBalance'> & Partial<StatementSummary>): StatementSummary {
  return { openingBalance: null, closingBalance: null, ...fields };
}

const GOLDEN: Golden[] = [
  {
    format: 'camt.053',
    file: 'genkgo-v02-multi-statement.xml',
    entryCount: 2,
    sums: ['8.85', '-7.00'],
    warningLines: [],
    statements: [
      statement({
        statementIndex: 0,
        line: 26,
        accountId: 'NL26VAYB8060476890',
        statementId: '253EURNL26VAYB8060476890',
        currency: 'EUR',
        openingBalance: { amount: '18.15', date: '2014-12-30' },
        closingBalance: { amount: '27.00', date: '2014-12-31' },
      }),
      statement({
        statementIndex: 1,
        line: 112,
        accountId: 'NL26VAYB8060476890',
        statementId: '254EURNL26VAYB8060476890',
        currency: 'EUR',
        openingBalance: { amount: '27.00', date: '2014-12-30' },
        closingBalance: { amount: '20.00', date: '2014-12-31' },
      }),
    ],
    // Money in, but the file names only the creditor (the account holder): no counterparty.
    first: entry({
      line: 66,
      bookingDate: '2014-12-31',
      valueDate: '2015-01-02',
      amount: '8.85',
      currency: 'EUR',
      description: 'Transaction Description 1',
      type: '544',
      reference: '000000001',
      endToEndId: '000000001',
      bankTransactionCode: '544',
      accountId: 'NL26VAYB8060476890',
      statementId: '253EURNL26VAYB8060476890',
    }),
    last: entry({
      line: 145,
      statementIndex: 1,
      bookingDate: '2014-12-31',
      valueDate: '2015-01-02',
      amount: '-7.00',
      currency: 'EUR',
      description: 'Transaction Description 2',
      type: '544',
      reference: '000000002',
      endToEndId: '000000002',
      counterpartyName: 'Company Name 2',
      counterpartyAccount: 'NL56AGDH9619008421',
      bankTransactionCode: '544',
      accountId: 'NL26VAYB8060476890',
      statementId: '254EURNL26VAYB8060476890',
    }),
  },
  {
    format: 'camt.053',
    file: 'genkgo-v04.xml',
    entryCount: 1,
    sums: ['8.85'],
    warningLines: [],
    statements: [
      statement({
        statementIndex: 0,
        line: 30,
        accountId: 'NL26VAYB8060476890',
        statementId: '253EURNL26VAYB8060476890',
        // No Acct/Ccy: the currency of the first balance.
        currency: 'EUR',
        openingBalance: { amount: '18.15', date: '2014-12-30' },
        closingBalance: { amount: '-27.00', date: '2014-12-30' },
      }),
    ],
    first: entry({
      line: 110,
      bookingDate: '2014-12-31',
      valueDate: '2015-01-02',
      amount: '8.85',
      currency: 'EUR',
      type: 'PAYM/0001/0005',
      reference: '4654654654654654',
      bankReference: 'AAAASESS-FP-CN_98765/01',
      counterpartyName: 'NAME NAME',
      counterpartyAccount: 'NL56AGDH9619008421',
      bankTransactionCode: 'PAYM/0001/0005',
      accountId: 'NL26VAYB8060476890',
      statementId: '253EURNL26VAYB8060476890',
      uniqueId: 'AAAASESS-FP-CN_98765/01',
    }),
    last: null,
  },
  {
    format: 'camt.053',
    file: 'genkgo-v08.xml',
    entryCount: 1,
    sums: ['8.85'],
    warningLines: [],
    statements: [
      statement({
        statementIndex: 0,
        line: 30,
        accountId: 'NL26VAYB8060476890',
        statementId: '253EURNL26VAYB8060476890',
        currency: 'EUR',
        openingBalance: { amount: '18.15', date: '2014-12-30' },
        closingBalance: { amount: '-27.00', date: '2014-12-30' },
      }),
    ],
    first: entry({
      line: 110,
      bookingDate: '2014-12-31',
      // 2014-12-31T13:15:00+01:00
      bookingTimeMs: Date.UTC(2014, 11, 31, 12, 15),
      valueDate: '2015-01-02',
      amount: '8.85',
      currency: 'EUR',
      type: 'credit transfer',
      reference: '4654654654654654',
      bankReference: 'AAAASESS-FP-CN_98765/01',
      endToEndId: 'MUELL/FINP/RA12345',
      counterpartyName: 'NAME NAME',
      counterpartyAccount: 'NL56AGDH9619008421',
      bankTransactionCode: 'PMNT/RCDT/BOOK',
      accountId: 'NL26VAYB8060476890',
      statementId: '253EURNL26VAYB8060476890',
      uniqueId: 'AAAASESS-FP-CN_98765/01',
    }),
    last: null,
  },
  {
    format: 'camt.053',
    file: 'gs-envelope-v11.xml',
    entryCount: 2,
    sums: ['0.00'],
    warningLines: [139],
    statements: [
      statement({
        statementIndex: 0,
        line: 37,
        accountId: 'DD01100056869',
        statementId: '258158850',
        currency: 'USD',
        openingBalance: { amount: '-843686.20', date: '2023-09-30' },
        closingBalance: { amount: '-846665.15', date: '2023-09-30' },
      }),
    ],
    first: entry({
      line: 130,
      bookingDate: '2023-10-01',
      valueDate: '2023-10-01',
      amount: '10.00',
      currency: 'USD',
      description: 'Sample Unstructured Remittance 123',
      type: 'ACHP',
      reference: 'GSGWGDNCTAHQM8',
      bankReference: 'B20092800002225',
      endToEndId: 'GSGWGDNCTAHQM8',
      bankTransactionCode: 'ACHP',
      accountId: 'DD01100056869',
      statementId: '258158850',
      reversal: true,
      uniqueId: '52198201',
    }),
    last: entry({
      line: 179,
      bookingDate: '2023-10-01',
      valueDate: '2023-10-01',
      amount: '-10.00',
      currency: 'USD',
      type: 'ACHB',
      bankReference: 'SPB20092845886394',
      counterpartyName: 'GS Bank USA',
      counterpartyAccount: 'ACHCONTROLOUTUSD01',
      bankTransactionCode: 'ACHB',
      accountId: 'DD01100056869',
      statementId: '258158850',
      uniqueId: '52198251',
    }),
  },
  {
    format: 'camt.053',
    file: 'iso-example-v02.xml',
    entryCount: 3,
    sums: ['-64321.50'],
    warningLines: [],
    statements: [
      statement({
        statementIndex: 0,
        line: 12,
        accountId: '50000000054910000003',
        statementId: 'AAAASESS-FP-STAT001',
        currency: 'SEK',
        openingBalance: { amount: '500000.00', date: '2010-10-18' },
        closingBalance: { amount: '435678.50', date: '2010-10-18' },
      }),
    ],
    first: entry({
      line: 70,
      bookingDate: '2010-10-18',
      bookingTimeMs: Date.UTC(2010, 9, 18, 12, 15),
      valueDate: '2010-10-18',
      amount: '105678.50',
      currency: 'SEK',
      type: 'PAYM/0001/0005',
      // The number of the invoice paid (RmtInf/Strd/RfrdDocInf/Nb) is the reference.
      reference: '4562',
      bankReference: 'AAAASESS-FP-CN_98765/01',
      endToEndId: 'MUELL/FINP/RA12345',
      counterpartyName: 'MUELLER',
      bankTransactionCode: 'PAYM/0001/0005',
      accountId: '50000000054910000003',
      statementId: 'AAAASESS-FP-STAT001',
      uniqueId: 'AAAASESS-FP-CN_98765/01',
    }),
    last: entry({
      line: 149,
      bookingDate: '2010-10-18',
      bookingTimeMs: Date.UTC(2010, 9, 18, 14, 15),
      valueDate: '2010-10-18',
      amount: '30000.00',
      currency: 'SEK',
      description: 'SPOT FX SETTLEMENT EUR/SEK',
      type: 'TREA/0002/0000',
      reference: 'AAAASS1085FINPSS',
      bankReference: 'AAAASESS-FP-CONF-FX',
      endToEndId: 'AAAASS1085FINPSS',
      bankTransactionCode: 'TREA/0002/0000',
      accountId: '50000000054910000003',
      statementId: 'AAAASESS-FP-STAT001',
      uniqueId: 'AAAASESS-FP-CONF-FX',
    }),
  },
  {
    format: 'camt.053',
    file: 'written-v02-dk-crlf.xml',
    entryCount: 6,
    sums: ['-662.21'],
    warningLines: [234],
    statements: [
      statement({
        statementIndex: 0,
        line: 12,
        accountId: 'DE58700202700015005000',
        statementId: 'camt53_20240301_0001_1',
        currency: 'EUR',
        // No OPBD: the previous closing balance (PRCD) opens the statement.
        openingBalance: { amount: '10000.00', date: '2024-02-28' },
        closingBalance: { amount: '9337.79', date: '2024-02-29' },
      }),
    ],
    first: entry({
      line: 58,
      bookingDate: '2024-02-29',
      valueDate: '2024-02-29',
      amount: '150.00',
      currency: 'EUR',
      description:
        'SEPA-SAMMLER-GUTSCHRIFT LASTSCHRIFT / Hans Mustermann: Mitgliedsbeitrag Februar LS-2024-02-0001 / Erika Gabler: Mitgliedsbeitrag Februar LS-2024-02-0002',
      type: 'direct debit',
      bankReference: '2024022900101',
      bankTransactionCode: 'PMNT/IDDT/ESDD',
      accountId: 'DE58700202700015005000',
      statementId: 'camt53_20240301_0001_1',
      uniqueId: '2024022900101',
    }),
    last: entry({
      line: 291,
      bookingDate: '2024-02-29',
      valueDate: '2024-02-29',
      amount: '-200.00',
      currency: 'EUR',
      description: 'BARGELDAUSZAHLUNG GA 29.02. 12:03',
      type: 'cash withdrawal',
      bankReference: '2024022900106',
      bankTransactionCode: 'PMNT/CCRD/CWDL',
      accountId: 'DE58700202700015005000',
      statementId: 'camt53_20240301_0001_1',
      uniqueId: '2024022900106',
    }),
  },
  {
    format: 'camt.053',
    file: 'written-v13-batches.xml',
    entryCount: 9,
    sums: ['-2586.90'],
    warningLines: [11],
    statements: [
      statement({
        statementIndex: 0,
        line: 11,
        accountId: 'DE89370400440532013000',
        statementId: 'LR-STMT-2024-01-31',
        currency: 'EUR',
        openingBalance: { amount: '5000.00', date: '2024-01-30' },
        closingBalance: { amount: '2413.10', date: '2024-01-31' },
      }),
    ],
    first: entry({
      line: 48,
      bookingDate: '2024-01-31',
      // 2024-01-31T10:15:00+01:00
      bookingTimeMs: Date.UTC(2024, 0, 31, 9, 15),
      valueDate: '2024-01-31',
      amount: '250.00',
      currency: 'EUR',
      description: 'Rechnung 2024-0042 Kunde 4711 & Co',
      type: 'credit transfer',
      reference: 'RF18539007547034',
      bankReference: '2024013100001',
      endToEndId: 'INV-2024-0042',
      counterpartyName: 'Müller & Söhne GmbH',
      counterpartyAccount: 'DE02120300000000202051',
      bankTransactionCode: 'PMNT/RCDT/ESCT',
      accountId: 'DE89370400440532013000',
      statementId: 'LR-STMT-2024-01-31',
      uniqueId: '2024013100001',
    }),
    last: entry({
      line: 431,
      bookingDate: '2024-01-31',
      valueDate: '2024-01-31',
      amount: '-4.50',
      currency: 'EUR',
      description: 'Kontoführungsgebühr Januar',
      type: 'fee',
      bankReference: '2024013100007',
      bankTransactionCode: 'ACMT/MDOP/CHRG',
      accountId: 'DE89370400440532013000',
      statementId: 'LR-STMT-2024-01-31',
      uniqueId: '2024013100007',
    }),
  },
  {
    format: 'camt.052',
    file: 'genkgo-v02.xml',
    entryCount: 1,
    sums: ['-200000.00'],
    warningLines: [],
    statements: [
      // No account currency and no balance: the currency of the first entry.
      statement({ statementIndex: 0, line: 30, accountId: 'CH2801234000123456789', statementId: 'AAAASESS-FP-ACCR001', currency: 'SEK' }),
    ],
    first: entry({
      line: 58,
      bookingDate: '2007-10-18',
      bookingTimeMs: Date.UTC(2007, 9, 18, 9, 15),
      valueDate: '2007-10-18',
      amount: '-200000.00',
      currency: 'SEK',
      description: 'Credit',
      type: 'PAYM/0001/0003',
      bankReference: 'AAAASESS-FP-ACCR-01',
      counterpartyName: 'Company Name',
      counterpartyAccount: 'NL56AGDH9619008421',
      bankTransactionCode: 'PAYM/0001/0003',
      accountId: 'CH2801234000123456789',
      statementId: 'AAAASESS-FP-ACCR001',
      uniqueId: 'AAAASESS-FP-ACCR-01',
    }),
    last: null,
  },
  {
    format: 'camt.052',
    file: 'genkgo-v04-pending.xml',
    entryCount: 0,
    sums: ['0'],
    warningLines: [30],
    statements: [
      statement({
        statementIndex: 0,
        line: 30,
        accountId: 'CH2801234000123456789',
        statementId: 'AAAASESS-FP-ACCR001',
        currency: 'CHF',
        closingBalance: { amount: '10022.15', date: '2016-06-14' },
      }),
    ],
    first: null,
    last: null,
  },
  {
    format: 'camt.052',
    file: 'genkgo-v08.xml',
    entryCount: 1,
    sums: ['-200000.00'],
    warningLines: [],
    statements: [statement({ statementIndex: 0, line: 30, accountId: 'CH2801234000123456789', statementId: 'AAAASESS-FP-ACCR001', currency: 'SEK' })],
    first: entry({
      line: 58,
      bookingDate: '2007-10-18',
      bookingTimeMs: Date.UTC(2007, 9, 18, 9, 15),
      valueDate: '2007-10-18',
      amount: '-200000.00',
      currency: 'SEK',
      description: 'Credit',
      type: 'credit transfer',
      bankReference: 'AAAASESS-FP-ACCR-01',
      bankTransactionCode: 'PMNT/ICDT/XBCT',
      accountId: 'CH2801234000123456789',
      statementId: 'AAAASESS-FP-ACCR001',
      uniqueId: 'AAAASESS-FP-ACCR-01',
    }),
    last: null,
  },
  {
    format: 'camt.052',
    file: 'written-v02-no-zone.xml',
    entryCount: 2,
    sums: ['510.25'],
    warningLines: [47],
    statements: [
      statement({
        statementIndex: 0,
        line: 8,
        accountId: 'NL91ABNA0417164300',
        statementId: 'LR-RPT-20240514-1630',
        currency: 'EUR',
        openingBalance: { amount: '-150.00', date: '2024-05-13' },
        closingBalance: { amount: '360.25', date: '2024-05-14' },
      }),
    ],
    first: entry({
      line: 41,
      bookingDate: '2024-05-14',
      valueDate: '2024-05-14',
      amount: '600.00',
      currency: 'EUR',
      description: 'Factuur F-2024-311',
      type: 'credit transfer',
      reference: 'F-2024-311',
      bankReference: 'NL-0514-0001',
      endToEndId: 'F-2024-311',
      counterpartyName: 'De Vries & Zn B.V.',
      counterpartyAccount: 'NL02ABNA0123456789',
      bankTransactionCode: 'PMNT/RCDT/ESCT',
      accountId: 'NL91ABNA0417164300',
      statementId: 'LR-RPT-20240514-1630',
      uniqueId: 'NL-0514-0001',
    }),
    last: entry({
      line: 83,
      bookingDate: '2024-05-14',
      valueDate: '2024-05-14',
      amount: '-89.75',
      currency: 'EUR',
      description: 'Termijn mei',
      type: 'credit transfer',
      bankReference: 'NL-0514-0002',
      counterpartyName: 'Energie Noord',
      counterpartyAccount: 'NL44RABO0123456789',
      bankTransactionCode: 'PMNT/ICDT/ESCT',
      accountId: 'NL91ABNA0417164300',
      statementId: 'LR-RPT-20240514-1630',
      uniqueId: 'NL-0514-0002',
    }),
  },
  {
    format: 'camt.052',
    file: 'written-v08-two-reports.xml',
    entryCount: 3,
    sums: ['150.00', '-1250.00'],
    warningLines: [8, 161],
    statements: [
      statement({
        statementIndex: 0,
        line: 8,
        accountId: 'DE89370400440532013000',
        statementId: 'LR-RPT-EUR-20240301-1200',
        currency: 'EUR',
        openingBalance: { amount: '2000.00', date: '2024-03-01' },
        closingBalance: { amount: '2150.00', date: '2024-03-01' },
      }),
      statement({
        statementIndex: 1,
        line: 161,
        accountId: 'CH9300762011623852957',
        statementId: 'LR-RPT-CHF-20240301-1200',
        currency: 'CHF',
        closingBalance: { amount: '8750.00', date: '2024-03-01' },
      }),
    ],
    first: entry({
      line: 41,
      bookingDate: '2024-03-01',
      bookingTimeMs: Date.UTC(2024, 2, 1, 9, 30),
      valueDate: '2024-03-01',
      amount: '200.00',
      currency: 'EUR',
      description: 'Bestellung 5521',
      type: 'credit transfer',
      reference: 'ORDER-5521',
      bankReference: 'EUR-20240301-0001',
      endToEndId: 'ORDER-5521',
      counterpartyName: 'Café Zur Börse',
      counterpartyAccount: 'DE12500105170648489890',
      bankTransactionCode: 'PMNT/RCDT/ESCT',
      accountId: 'DE89370400440532013000',
      statementId: 'LR-RPT-EUR-20240301-1200',
      uniqueId: 'EUR-20240301-0001',
    }),
    last: entry({
      line: 182,
      statementIndex: 1,
      bookingDate: '2024-03-01',
      valueDate: '2024-03-01',
      amount: '-1250.00',
      currency: 'CHF',
      description: 'Miete März 2024',
      type: 'credit transfer',
      reference: 'MIETE-2024-03',
      bankReference: 'CHF-20240301-0001',
      endToEndId: 'MIETE-2024-03',
      counterpartyName: 'Immobilien Zürich AG',
      counterpartyAccount: 'CH5604835012345678009',
      bankTransactionCode: 'PMNT/ICDT/DMCT',
      accountId: 'CH9300762011623852957',
      statementId: 'LR-RPT-CHF-20240301-1200',
      uniqueId: 'CHF-20240301-0001',
    }),
  },
  {
    format: 'camt.052',
    file: 'written-v13-jpy-batch.xml',
    entryCount: 4,
    sums: ['145000'],
    warningLines: [],
    statements: [
      statement({
        statementIndex: 0,
        line: 8,
        accountId: '0012345678',
        statementId: 'LR-RPT-JPY-20240405-1500',
        currency: 'JPY',
        openingBalance: { amount: '1000000', date: '2024-04-04' },
        // Two interim balances and no closing one: the later interim balance closes the report.
        closingBalance: { amount: '1145000', date: '2024-04-05' },
      }),
    ],
    first: entry({
      line: 84,
      bookingDate: '2024-04-05',
      // 2024-04-05T09:15:00+09:00
      bookingTimeMs: Date.UTC(2024, 3, 5, 0, 15),
      valueDate: '2024-04-05',
      amount: '50000',
      currency: 'JPY',
      type: 'credit transfer',
      reference: 'INV-7001',
      bankReference: 'JP-0405-001-A',
      endToEndId: 'INV-7001',
      counterpartyName: 'Yamada Shoji K.K.',
      bankTransactionCode: 'PMNT/RCDT/DMCT',
      accountId: '0012345678',
      statementId: 'LR-RPT-JPY-20240405-1500',
      uniqueId: 'JP-0405-001-A',
    }),
    last: entry({
      line: 131,
      bookingDate: '2024-04-05',
      bookingTimeMs: Date.UTC(2024, 3, 5, 5, 40),
      valueDate: '2024-04-05',
      amount: '-5000',
      currency: 'JPY',
      description: 'Wire fee <domestic> & handling',
      type: 'FEE-WIRE',
      bankTransactionCode: 'FEE-WIRE',
      accountId: '0012345678',
      statementId: 'LR-RPT-JPY-20240405-1500',
      uniqueId: 'JP-0405-002',
    }),
  },
  {
    // Every entry's AcctSvcrRef is NONREF, as German savings banks write them; two card payments
    // look the same in every field. All five entries are read, each with the placeholder as its
    // bank id (the importer does not use it as an id; import-identity.test.ts imports the file).
    format: 'camt.052',
    file: 'written-v02-savings-bank-nonref.xml',
    entryCount: 5,
    sums: ['1441.01'],
    warningLines: [],
    statements: [
      statement({
        statementIndex: 0,
        line: 12,
        accountId: 'DE75512108001245126199',
        statementId: 'camt052_ONLINEBA',
        currency: 'EUR',
        openingBalance: { amount: '1250.00', date: '2024-03-01' },
        closingBalance: { amount: '2691.01', date: '2024-03-04' },
      }),
    ],
    first: entry({
      line: 52,
      bookingDate: '2024-03-04',
      valueDate: '2024-03-04',
      amount: '-49.99',
      currency: 'EUR',
      description: 'Rechnung 03/2024 Kundennr. 448120 / FOLGELASTSCHRIFT',
      type: 'NDDT+105+9248+992',
      reference: 'RG-2024-0301-7781',
      bankReference: 'NONREF',
      endToEndId: 'RG-2024-0301-7781',
      counterpartyName: 'Mobilfunk Nord GmbH',
      counterpartyAccount: 'DE02100100100006820101',
      bankTransactionCode: 'NDDT+105+9248+992',
      accountId: 'DE75512108001245126199',
      statementId: 'camt052_ONLINEBA',
      uniqueId: 'NONREF',
    }),
    last: entry({
      line: 233,
      bookingDate: '2024-03-04',
      valueDate: '2024-03-04',
      amount: '-850.00',
      currency: 'EUR',
      description: 'Miete Maerz Whg. 3 links / DAUERAUFTRAG',
      type: 'NSTO+152+9201+000',
      bankReference: 'NONREF',
      counterpartyName: 'Hausverwaltung Nord',
      counterpartyAccount: 'DE44500105175407324931',
      bankTransactionCode: 'NSTO+152+9201+000',
      accountId: 'DE75512108001245126199',
      statementId: 'camt052_ONLINEBA',
      uniqueId: 'NONREF',
    }),
  },
  {
    format: 'camt.054',
    file: 'genkgo-v02.xml',
    entryCount: 1,
    sums: ['-200000.00'],
    warningLines: [],
    statements: [statement({ statementIndex: 0, line: 30, accountId: 'CH2801234000123456789', statementId: 'AAAASESS-FP-ACCR001', currency: 'SEK' })],
    // Four details without amounts of their own: one entry, whose description holds what each detail says.
    first: entry({
      line: 58,
      description:
        'Unstructured Remittance Information V1 Additional Remittance Information V1 ISR ref number V1 / ISR ref number V2 / Additional Remittance Information V2 ISR ref number V2 / ' +
        'Unstructured Remittance Information V3 block 1 Unstructured Remittance Information V3 block 2 Additional Remittance Information V3 block 1 Additional Remittance Information V3 block 2 Ref number V3 block 2 Ref number V3 block 1',
      bookingDate: '2007-10-18',
      bookingTimeMs: Date.UTC(2007, 9, 18, 12, 15),
      valueDate: '2007-10-18',
      amount: '-200000.00',
      currency: 'SEK',
      type: 'credit transfer',
      bankReference: 'AAAASESS-FP-ACCR001',
      bankTransactionCode: 'PMNT/ICDT/DMCT',
      accountId: 'CH2801234000123456789',
      statementId: 'AAAASESS-FP-ACCR001',
      uniqueId: 'AAAASESS-FP-ACCR001',
    }),
    last: null,
  },
  {
    format: 'camt.054',
    file: 'genkgo-v04.xml',
    entryCount: 1,
    sums: ['-200000.00'],
    warningLines: [63],
    statements: [statement({ statementIndex: 0, line: 35, accountId: 'CH2801234000123456789', statementId: 'AAAASESS-FP-ACCR001', currency: 'SEK' })],
    first: entry({
      line: 63,
      bookingDate: '2007-10-18',
      valueDate: '2007-10-18',
      amount: '-200000.00',
      currency: 'SEK',
      description:
        'Order / Example Creditor 3 - V1: Example Remittance Information 3 - V1 UXC06170000006PI00001EE00001 / Example Creditor 3 - V2: Example Remittance Information 3 - V2 UXC06170000006PI00001EE00002',
      type: 'credit transfer',
      bankReference: 'ACSR160617103200001',
      bankTransactionCode: 'PMNT/ICDT/DMCT',
      accountId: 'CH2801234000123456789',
      statementId: 'AAAASESS-FP-ACCR001',
      uniqueId: 'ACSR160617103200001',
    }),
    last: null,
  },
  {
    format: 'camt.054',
    file: 'genkgo-v08.xml',
    entryCount: 1,
    sums: ['-200000.00'],
    warningLines: [63],
    statements: [statement({ statementIndex: 0, line: 35, accountId: 'CH2801234000123456789', statementId: 'AAAASESS-FP-ACCR001', currency: 'SEK' })],
    first: entry({
      line: 63,
      bookingDate: '2007-10-18',
      valueDate: '2007-10-18',
      amount: '-200000.00',
      currency: 'SEK',
      description:
        'Order / Example Creditor 3 - V1: Unstructured Remittance Information V1 Additional Remittance Information V1 ISR ref number V1 / Example Creditor 3 - V2: Additional Remittance Information V2 ISR ref number V2 / ' +
        'Example Creditor 3 - V3: Unstructured Remittance Information V3 block 1 Unstructured Remittance Information V3 block 2 Additional Remittance Information V3 block 1 Additional Remittance Information V3 block 2 Ref number V3 block 2 Ref number V3 block 1',
      type: 'credit transfer',
      bankReference: 'ACSR160617103200001',
      bankTransactionCode: 'PMNT/ICDT/DMCT',
      accountId: 'CH2801234000123456789',
      statementId: 'AAAASESS-FP-ACCR001',
      uniqueId: 'ACSR160617103200001',
    }),
    last: null,
  },
  {
    format: 'camt.054',
    file: 'written-v04-swiss-qr-batch.xml',
    entryCount: 3,
    sums: ['1234.50'],
    warningLines: [],
    statements: [statement({ statementIndex: 0, line: 12, accountId: 'CH4431999123000889012', statementId: 'LR054CH20240715001-1', currency: 'CHF' })],
    first: entry({
      line: 50,
      bookingDate: '2024-07-12',
      valueDate: '2024-07-12',
      amount: '500.00',
      currency: 'CHF',
      description: 'Sammelgutschrift QR-Rechnungen',
      type: 'credit transfer',
      reference: '210000000003139471430009017',
      bankReference: '240712CH0A1B2C3D-001',
      counterpartyName: 'Pia-Maria Rutschmann-Schnyder',
      counterpartyAccount: 'CH5800791123000889012',
      bankTransactionCode: 'PMNT/RCDT/VCOM',
      accountId: 'CH4431999123000889012',
      statementId: 'LR054CH20240715001-1',
      uniqueId: '240712CH0A1B2C3D-001',
    }),
    last: entry({
      line: 129,
      bookingDate: '2024-07-12',
      valueDate: '2024-07-12',
      amount: '34.50',
      currency: 'CHF',
      description: 'Sammelgutschrift QR-Rechnungen',
      type: 'credit transfer',
      reference: '210000000003139471430009033',
      bankReference: '240712CH0A1B2C3D-003',
      counterpartyName: 'Lüthi Béatrice',
      bankTransactionCode: 'PMNT/RCDT/VCOM',
      accountId: 'CH4431999123000889012',
      statementId: 'LR054CH20240715001-1',
      uniqueId: '240712CH0A1B2C3D-003',
    }),
  },
  {
    format: 'camt.054',
    file: 'written-v08-three-notifications.xml',
    entryCount: 3,
    sums: ['1520.40', '-310.00', '-0.99'],
    warningLines: [],
    statements: [
      statement({ statementIndex: 0, line: 8, accountId: 'FR7630006000011234567890189', statementId: 'LR-NTF-20240610-001', currency: 'EUR' }),
      statement({ statementIndex: 1, line: 65, accountId: 'FR7630006000011234567890189', statementId: 'LR-NTF-20240610-002', currency: 'EUR' }),
      statement({ statementIndex: 2, line: 123, accountId: 'FR7630006000011234567890189', statementId: 'LR-NTF-20240610-003', currency: 'EUR' }),
    ],
    first: entry({
      line: 17,
      bookingDate: '2024-06-10',
      bookingTimeMs: Date.UTC(2024, 5, 10, 6, 55),
      valueDate: '2024-06-10',
      amount: '1520.40',
      currency: 'EUR',
      description: 'Facture 2024-0601',
      type: 'credit transfer',
      reference: 'FAC-2024-0601',
      bankReference: 'FR-0610-000871',
      endToEndId: 'FAC-2024-0601',
      counterpartyName: "Société Générale d'Équipement",
      counterpartyAccount: 'FR7610107001011234567890129',
      bankTransactionCode: 'PMNT/RCDT/ESCT',
      accountId: 'FR7630006000011234567890189',
      statementId: 'LR-NTF-20240610-001',
      uniqueId: 'FR-0610-000871',
    }),
    last: entry({
      line: 132,
      statementIndex: 2,
      bookingDate: '2024-06-10',
      bookingTimeMs: Date.UTC(2024, 5, 10, 17, 29, 59),
      valueDate: '2024-06-10',
      amount: '-0.99',
      currency: 'EUR',
      description: 'Frais virement instantané',
      type: 'fee',
      bankReference: 'FR-0610-000955',
      bankTransactionCode: 'PMNT/ICDT/COMM',
      accountId: 'FR7630006000011234567890189',
      statementId: 'LR-NTF-20240610-003',
      uniqueId: 'FR-0610-000955',
    }),
  },
  {
    format: 'camt.054',
    file: 'written-v13-reversals.xml',
    entryCount: 3,
    sums: ['1167.00'],
    warningLines: [],
    statements: [statement({ statementIndex: 0, line: 8, accountId: 'GB33BUKB20201555555555', statementId: 'LR-NTF-V13-0001', currency: 'GBP' })],
    first: entry({
      line: 17,
      bookingDate: '2024-08-20',
      bookingTimeMs: Date.UTC(2024, 7, 20, 8, 0),
      valueDate: '2024-08-19',
      amount: '-75.00',
      currency: 'GBP',
      description: 'Payment recalled by sender',
      type: 'return',
      reference: 'INV-GB-4410',
      endToEndId: 'INV-GB-4410',
      counterpartyName: "O'Brien & Daughters Ltd",
      counterpartyAccount: '40-47-84 70872490',
      bankTransactionCode: 'PMNT/RCDT/RRTN',
      accountId: 'GB33BUKB20201555555555',
      statementId: 'LR-NTF-V13-0001',
      reversal: true,
      uniqueId: 'GB-REV-0001',
    }),
    last: entry({
      line: 113,
      bookingDate: '2024-08-20',
      valueDate: '2024-08-20',
      amount: '42.00',
      currency: 'GBP',
      description: 'Cheque deposit 000123',
      type: 'cheque',
      bankTransactionCode: 'PMNT/RCHQ/CCHQ',
      accountId: 'GB33BUKB20201555555555',
      statementId: 'LR-NTF-V13-0001',
      uniqueId: 'GB-0003',
    }),
  },
];

describe('parseCamt on the sample files', () => {
  for (const format of ['camt.053', 'camt.052', 'camt.054'] as const) {
    it(`has at least six samples of ${format}`, () => {
      assert.ok(GOLDEN.filter((golden) => golden.format === format).length >= 6);
    });
  }

  for (const golden of GOLDEN) {
    it(`reads ${golden.format}/${golden.file}`, async () => {
      const text = fixture(golden.format, golden.file);
      assert.equal(sniffCamt(text.slice(0, 4096)), golden.format);
      const events = await parse(text, { format: golden.format });
      const entries = entriesOf(events);
      const statements = statementsOf(events);
      assert.equal(entries.length, golden.entryCount);
      assert.deepEqual(statements, golden.statements);
      assert.deepEqual(
        statements.map((summary) => addDecimals(...entries.filter((item) => item.statementIndex === summary.statementIndex).map((item) => item.amount))),
        golden.sums,
      );
      assert.deepEqual(
        warningsOf(events).map((warning) => warning.line),
        golden.warningLines,
      );
      assert.deepEqual(entries[0] ?? null, golden.first);
      assert.deepEqual(entries.at(-1) ?? null, golden.last ?? golden.first);
      // Events come in file order: each statement after its own entries.
      let statementsSeen = 0;
      for (const event of events) {
        if (event.kind === 'statement') statementsSeen += 1;
        if (event.kind === 'entry') assert.equal(event.entry.statementIndex, statementsSeen);
      }
    });

    it(`reads ${golden.format}/${golden.file} identically in chunks of 7 characters`, async () => {
      const text = fixture(golden.format, golden.file);
      assert.deepEqual(await parse(text, {}, 7), await parse(text));
    });
  }

  it('reads files identically one character at a time', async () => {
    for (const [format, file] of [
      ['camt.053', 'written-v13-batches.xml'],
      ['camt.052', 'written-v08-two-reports.xml'],
      ['camt.054', 'written-v04-swiss-qr-batch.xml'],
    ] as const) {
      const text = fixture(format, file);
      assert.deepEqual(await parse(text, {}, 1), await parse(text), file);
    }
  });

  it('ignores a byte-order mark left at the start of the text', async () => {
    const text = fixture('camt.053', 'genkgo-v08.xml');
    assert.deepEqual(await parse(`\ufeff${text}`), await parse(text));
  });
});

describe('parseCamt: amounts, signs and reversals', () => {
  it('signs amounts by CdtDbtInd: CRDT is money in, DBIT money out, with the currency scale', async () => {
    const events = await parse(
      camtDocument([ntry({ amount: '12.5', indicator: 'CRDT' }), ntry({ amount: '7', indicator: 'DBIT' }), ntry({ amount: '0', indicator: 'DBIT' })]),
    );
    assert.deepEqual(
      entriesOf(events).map((item) => item.amount),
      ['12.50', '-7.00', '0.00'],
    );
  });

  it('marks a reversal on a debit and on a credit; the sign follows CdtDbtInd, the counterparty the original payment', async () => {
    const entries = entriesOf(await parse(fixture('camt.054', 'written-v13-reversals.xml')));
    // DBIT + RvslInd: an earlier credit from O'Brien taken back; the debtor of that credit is the counterparty.
    assert.deepEqual([entries[0]!.amount, entries[0]!.reversal, entries[0]!.counterpartyName], ['-75.00', true, "O'Brien & Daughters Ltd"]);
    // CRDT + RvslInd: an earlier payment to Smith & Jones came back; its creditor is the counterparty.
    assert.deepEqual([entries[1]!.amount, entries[1]!.reversal, entries[1]!.counterpartyName], ['1200.00', true, 'Smith & Jones Plumbing']);
    assert.equal(entries[2]!.reversal, false);
    const statementEntries = entriesOf(await parse(fixture('camt.053', 'written-v13-batches.xml')));
    const debitReversal = statementEntries.find((item) => item.uniqueId === '2024013100004')!;
    assert.deepEqual([debitReversal.amount, debitReversal.reversal, debitReversal.counterpartyName], ['-49.90', true, 'Björn Weiß']);
    const creditReversal = statementEntries.find((item) => item.uniqueId === '2024013100005')!;
    assert.deepEqual([creditReversal.amount, creditReversal.reversal, creditReversal.counterpartyName], ['120.00', true, 'Ölmühle Straße KG']);
  });

  it('splits a batch whose details carry amounts that add up to the entry, one entry per detail', async () => {
    const entries = entriesOf(await parse(fixture('camt.053', 'written-v13-batches.xml')));
    const salaries = entries.filter((item) => item.bankTransactionCode === 'PMNT/ICDT/SALA');
    assert.deepEqual(
      salaries.map((item) => [item.line, item.amount, item.counterpartyName, item.endToEndId, item.bankReference, item.uniqueId]),
      [
        [141, '-1200.00', 'Jürgen Groß', 'SAL-2024-01-001', '2024013100002', '2024013100002/1'],
        // The detail's own account servicer reference is its unique id.
        [171, '-1000.00', 'Zoë Ångström', 'SAL-2024-01-002', '2024013100002-B', '2024013100002-B'],
        // AmtDtls/TxAmt/Amt counts as the detail's amount when Amt is absent.
        [202, '-800.00', 'François Dupont', 'SAL-2024-01-003', '2024013100002', '2024013100002/3'],
      ],
    );
    // Each payment keeps its own text, followed by the batch's.
    assert.ok(
      salaries.every(
        (item) => item.type === 'salary' && item.description === 'Gehalt Januar 2024 / SEPA-Sammelüberweisung Gehälter' && item.bookingDate === '2024-01-31',
      ),
    );
  });

  it('keeps a batch whose details carry no amounts as one entry, without a warning, with what each detail says in its description', async () => {
    const events = await parse(fixture('camt.053', 'written-v02-dk-crlf.xml'));
    const first = entriesOf(events)[0]!;
    assert.deepEqual(
      [first.amount, first.description, first.counterpartyName, first.endToEndId],
      [
        '150.00',
        'SEPA-SAMMLER-GUTSCHRIFT LASTSCHRIFT / Hans Mustermann: Mitgliedsbeitrag Februar LS-2024-02-0001 / Erika Gabler: Mitgliedsbeitrag Februar LS-2024-02-0002',
        null,
        null,
      ],
    );
    assert.ok(!warningsOf(events).some((warning) => warning.line === 58));
  });

  it('keeps a batch whose detail amounts do not add up as one entry, with a warning', async () => {
    const events = await parse(fixture('camt.053', 'written-v02-dk-crlf.xml'));
    const whole = entriesOf(events).find((item) => item.uniqueId === '2024022900105')!;
    assert.equal(whole.amount, '-500.00');
    assert.deepEqual(warningsOf(events), [
      {
        line: 234,
        message:
          "the 2 transaction details of the entry at /Document/BkToCstmrStmt/Stmt[1]/Ntry[5] (line 234) add up to -450.00, not to the entry's amount -500.00; it is imported as one entry",
      },
    ]);
  });

  it('keeps a batch whose details are in another currency than the entry as one entry, with a warning', async () => {
    const events = await parse(fixture('camt.054', 'genkgo-v08.xml'));
    assert.equal(entriesOf(events).length, 1);
    assert.match(warningsOf(events)[0]!.message, /are in CHF, not in the entry's currency SEK; it is imported as one entry/);
  });

  it('keeps a batch as one entry when only some details give an amount', async () => {
    const details = '<NtryDtls><TxDtls><Amt Ccy="EUR">4.00</Amt></TxDtls><TxDtls><Refs><EndToEndId>E2</EndToEndId></Refs></TxDtls></NtryDtls>';
    const events = await parse(camtDocument([ntry({ amount: '10.00', inner: details })]));
    assert.equal(entriesOf(events).length, 1);
    assert.match(warningsOf(events)[0]!.message, /has 2 transaction details but only 1 of them give an amount; it is imported as one entry/);
  });

  it('signs each detail of a batch by its own CdtDbtInd when it has one', async () => {
    const entries = entriesOf(await parse(fixture('camt.053', 'written-v13-batches.xml')));
    const card = entries.filter((item) => item.uniqueId?.startsWith('NREF-0003/'));
    assert.deepEqual(
      card.map((item) => [item.amount, item.type, item.counterpartyName, item.description]),
      [
        ['100.00', 'card payment', 'Kartenumsätze 30.01.', 'Kartenumsätze Terminal 0815'],
        ['-2.50', 'fee', 'Acquiring Services S.A.', 'Disagio 2,5 %'],
      ],
    );
  });

  it('keeps a batch with more details than can be held as one entry, with a warning', async () => {
    const count = CAMT_LIMITS.detailsPerEntryLimit + 1;
    const details = `<NtryDtls>${'<TxDtls><Amt Ccy="EUR">1.00</Amt></TxDtls>'.repeat(count)}</NtryDtls>`;
    const events = await parse(camtDocument([ntry({ amount: `${count}.00`, inner: details })]));
    assert.deepEqual(
      entriesOf(events).map((item) => item.amount),
      [`${count}.00`],
    );
    assert.match(
      warningsOf(events)[0]!.message,
      new RegExp(`has ${count} transaction details, more than the ${CAMT_LIMITS.detailsPerEntryLimit} that can be split`),
    );
  });
});

describe('parseCamt: dates, references and text', () => {
  it('reads BookgDt as a date, or as a date-time with its zone, keeping the date as written', async () => {
    const events = await parse(
      camtDocument([
        ntry({ booking: '<Dt>2024-01-31</Dt>' }),
        ntry({ booking: '<DtTm>2024-01-31T10:15:00+01:00</DtTm>' }),
        // Late in the evening west of Greenwich: the instant is the next day in UTC, the date is not shifted.
        ntry({ booking: '<DtTm>2024-01-31T23:30:00.125-05:00</DtTm>' }),
        ntry({ booking: '<DtTm>2024-01-31T08:00:00Z</DtTm>' }),
      ]),
    );
    assert.deepEqual(
      entriesOf(events).map((item) => [item.bookingDate, item.bookingTimeMs]),
      [
        ['2024-01-31', null],
        ['2024-01-31', Date.UTC(2024, 0, 31, 9, 15)],
        ['2024-01-31', Date.UTC(2024, 1, 1, 4, 30, 0, 125)],
        ['2024-01-31', Date.UTC(2024, 0, 31, 8, 0)],
      ],
    );
    assert.deepEqual(warningsOf(events), []);
  });

  it('keeps only the date of a booking date-time without a zone, and warns once per file', async () => {
    const events = await parse(camtDocument([ntry({ booking: '<DtTm>2024-01-31T10:15:00</DtTm>' }), ntry({ booking: '<DtTm>2024-01-31T11:00:00</DtTm>' })]));
    assert.deepEqual(
      entriesOf(events).map((item) => [item.bookingDate, item.bookingTimeMs]),
      [
        ['2024-01-31', null],
        ['2024-01-31', null],
      ],
    );
    assert.deepEqual(warningsOf(events), [
      {
        line: 8,
        message:
          'the booking date-time "2024-01-31T10:15:00" has no time zone, so only its date is kept as the booking date; the same holds for every booking date-time without a zone in this file',
      },
    ]);
  });

  it('reads ValDt as a date or a date-time', async () => {
    const events = await parse(
      camtDocument([ntry({ inner: '<ValDt><Dt>2024-02-01</Dt></ValDt>' }), ntry({ inner: '<ValDt><DtTm>2024-02-02T00:00:00+01:00</DtTm></ValDt>' })]),
    );
    assert.deepEqual(
      entriesOf(events).map((item) => item.valueDate),
      ['2024-02-01', '2024-02-02'],
    );
  });

  it('uses NtryRef as the unique id when the entry has no AcctSvcrRef', async () => {
    const entries = entriesOf(await parse(fixture('camt.054', 'written-v13-reversals.xml')));
    assert.deepEqual(
      entries.map((item) => [item.bankReference, item.uniqueId]),
      [
        [null, 'GB-REV-0001'],
        [null, 'GB-REV-0002'],
        [null, 'GB-0003'],
      ],
    );
    const withBoth = entriesOf(await parse(camtDocument([ntry({ before: '<NtryRef>N-1</NtryRef>', inner: '<AcctSvcrRef>A-1</AcctSvcrRef>' })])));
    assert.deepEqual([withBoth[0]!.bankReference, withBoth[0]!.uniqueId], ['A-1', 'A-1']);
    const withNeither = entriesOf(await parse(camtDocument([ntry()])));
    assert.equal(withNeither[0]!.uniqueId, null);
  });

  it('prefers the structured creditor reference, else the end-to-end id, and ignores NOTPROVIDED', async () => {
    const detail = (refs: string, remittance: string) => `<NtryDtls><TxDtls><Refs>${refs}</Refs>${remittance}</TxDtls></NtryDtls>`;
    const entries = entriesOf(
      await parse(
        camtDocument([
          ntry({ inner: detail('<EndToEndId>E2E-1</EndToEndId>', '<RmtInf><Strd><CdtrRefInf><Ref>RF712348231</Ref></CdtrRefInf></Strd></RmtInf>') }),
          ntry({ inner: detail('<EndToEndId>E2E-2</EndToEndId>', '') }),
          ntry({ inner: detail('<EndToEndId>NOTPROVIDED</EndToEndId>', '') }),
        ]),
      ),
    );
    assert.deepEqual(
      entries.map((item) => [item.reference, item.endToEndId]),
      [
        ['RF712348231', 'E2E-1'],
        ['E2E-2', 'E2E-2'],
        [null, null],
      ],
    );
  });

  it('builds the description from the Ustrd lines, AddtlTxInf and AddtlNtryInf, each once', async () => {
    const entries = entriesOf(
      await parse(
        camtDocument([
          ntry({
            inner:
              '<NtryDtls><TxDtls><RmtInf><Ustrd>first</Ustrd><Ustrd>second</Ustrd></RmtInf><AddtlTxInf>tx</AddtlTxInf></TxDtls></NtryDtls><AddtlNtryInf>entry</AddtlNtryInf>',
          }),
          ntry({ inner: '<NtryDtls><TxDtls><AddtlTxInf>tx</AddtlTxInf></TxDtls></NtryDtls><AddtlNtryInf>entry</AddtlNtryInf>' }),
          ntry({ inner: '<AddtlNtryInf>entry</AddtlNtryInf>' }),
          ntry({ inner: '<NtryDtls><TxDtls><RmtInf><Ustrd>SEPA GUTSCHRIFT Miete</Ustrd></RmtInf></TxDtls></NtryDtls><AddtlNtryInf>GUTSCHRIFT</AddtlNtryInf>' }),
        ]),
      ),
    );
    assert.deepEqual(
      entries.map((item) => item.description),
      ['first second tx / entry', 'tx / entry', 'entry', 'SEPA GUTSCHRIFT Miete'],
    );
  });

  it('keeps the ultimate parties, and names the counterparty by its ultimate party when it has no name of its own', async () => {
    const parties = (inner: string) => `<NtryDtls><TxDtls><RltdPties>${inner}</RltdPties><RmtInf><Ustrd>Order 12</Ustrd></RmtInf></TxDtls></NtryDtls>`;
    const entries = entriesOf(
      await parse(
        camtDocument([
          ntry({
            inner: parties(
              '<Dbtr><Pty><Nm>PayCo Ltd</Nm></Pty></Dbtr><UltmtDbtr><Pty><Nm>Jane Buyer</Nm></Pty></UltmtDbtr><Cdtr><Pty><Nm>Our Shop</Nm></Pty></Cdtr><UltmtCdtr><Nm>Our Shop Berlin</Nm></UltmtCdtr>',
            ),
          }),
          ntry({ indicator: 'DBIT', inner: parties('<Cdtr><Nm>Landlord GmbH</Nm></Cdtr><UltmtCdtr><Nm>Property Fund II</Nm></UltmtCdtr>') }),
          ntry({ inner: parties('<UltmtDbtr><Nm>Only Ultimate</Nm></UltmtDbtr>') }),
        ]),
      ),
    );
    assert.deepEqual(
      entries.map((item) => [item.counterpartyName, item.ultimateDebtorName, item.ultimateCreditorName]),
      [
        ['PayCo Ltd', 'Jane Buyer', 'Our Shop Berlin'],
        ['Landlord GmbH', undefined, 'Property Fund II'],
        ['Only Ultimate', 'Only Ultimate', undefined],
      ],
    );
  });

  it('keeps structured remittance: the invoice number as reference when there is no creditor reference, every other number in the description', async () => {
    const strd = (inner: string) => `<Strd>${inner}</Strd>`;
    const entries = entriesOf(
      await parse(
        camtDocument([
          ntry({
            inner:
              '<NtryDtls><TxDtls><Refs><EndToEndId>E2E-9</EndToEndId></Refs><RmtInf>' +
              strd('<RfrdDocInf><Tp><CdOrPrtry><Cd>CINV</Cd></CdOrPrtry></Tp><Nb>INV-1001</Nb></RfrdDocInf>') +
              strd('<RfrdDocInf><Nb>INV-1002</Nb></RfrdDocInf><AddtlRmtInf>two invoices</AddtlRmtInf>') +
              '</RmtInf><AddtlTxInf>SEPA Credit Transfer</AddtlTxInf></TxDtls></NtryDtls><AddtlNtryInf>GUTSCHRIFT</AddtlNtryInf>',
          }),
          ntry({
            inner:
              '<NtryDtls><TxDtls><RmtInf><Ustrd>Rechnung INV-7</Ustrd>' +
              strd('<RfrdDocInf><Nb>INV-7</Nb></RfrdDocInf><CdtrRefInf><Ref>RF18539007547034</Ref></CdtrRefInf>') +
              '</RmtInf></TxDtls></NtryDtls>',
          }),
        ]),
      ),
    );
    assert.deepEqual(
      entries.map((item) => [item.reference, item.endToEndId, item.description]),
      [
        ['INV-1001', 'E2E-9', 'two invoices INV-1002 SEPA Credit Transfer / GUTSCHRIFT'],
        // The number already written in the text is not repeated.
        ['RF18539007547034', null, 'Rechnung INV-7'],
      ],
    );
  });

  it("keeps a batch's texts within the length of a description, and says how many did not fit", async () => {
    const details = Array.from({ length: 60 }, (_, index) => `<TxDtls><RmtInf><Ustrd>Payment ${index} ${'x'.repeat(90)}</Ustrd></RmtInf></TxDtls>`).join('');
    const events = await parse(camtDocument([ntry({ inner: `<NtryDtls>${details}</NtryDtls><AddtlNtryInf>COLLECTIVE</AddtlNtryInf>` })]));
    const [whole] = entriesOf(events);
    assert.ok(whole!.description!.length <= CAMT_LIMITS.descriptionLength);
    assert.ok(whole!.description!.startsWith('COLLECTIVE / Payment 0 '));
    assert.match(
      warningsOf(events)
        .map((warning) => warning.message)
        .join('\n'),
      /texts of the entry on line 8 are longer than the 4000 characters a description holds; 22 of its 60 transactions' texts did not fit/,
    );
  });

  it('keeps at most the limit of remittance lines, with a warning', async () => {
    const lines = Array.from({ length: CAMT_LIMITS.remittanceLinesLimit + 5 }, (_, index) => `<Ustrd>L${index}</Ustrd>`).join('');
    const events = await parse(camtDocument([ntry({ inner: `<NtryDtls><TxDtls><RmtInf>${lines}</RmtInf></TxDtls></NtryDtls>` })]));
    assert.equal(entriesOf(events)[0]!.description!.split(' ').length, CAMT_LIMITS.remittanceLinesLimit);
    assert.match(warningsOf(events)[0]!.message, /more than 100 remittance lines/);
  });

  it('reads UTF-8 names with umlauts and entities in text', async () => {
    const entries = entriesOf(await parse(fixture('camt.053', 'written-v13-batches.xml')));
    assert.equal(entries[0]!.counterpartyName, 'Müller & Söhne GmbH');
    assert.equal(entries[0]!.description, 'Rechnung 2024-0042 Kunde 4711 & Co');
    const jpy = entriesOf(await parse(fixture('camt.052', 'written-v13-jpy-batch.xml')));
    assert.equal(jpy[2]!.counterpartyName, 'Tanaka <Osaka> Ltd.');
    assert.equal(jpy[3]!.description, 'Wire fee <domestic> & handling');
  });

  it('names a readable type from the bank transaction code, else keeps the code', async () => {
    const code = (domain: string, family: string, subFamily: string) =>
      `<BkTxCd><Domn><Cd>${domain}</Cd><Fmly><Cd>${family}</Cd><SubFmlyCd>${subFamily}</SubFmlyCd></Fmly></Domn></BkTxCd>`;
    const entries = entriesOf(
      await parse(
        camtDocument([
          ntry({ inner: code('PMNT', 'RCDT', 'ESCT') }),
          ntry({ inner: code('PMNT', 'RDDT', 'ESDD') }),
          ntry({ inner: code('PMNT', 'CCRD', 'POSD') }),
          ntry({ inner: code('ACMT', 'MDOP', 'CHRG') }),
          ntry({ inner: code('ACMT', 'MCOP', 'INTR') }),
          ntry({ inner: code('XTND', 'NTAV', 'NTAV') }),
          ntry({ inner: '<BkTxCd><Prtry><Cd>NTRF+166</Cd><Issr>ZKA</Issr></Prtry></BkTxCd>' }),
        ]),
      ),
    );
    assert.deepEqual(
      entries.map((item) => [item.bankTransactionCode, item.type]),
      [
        ['PMNT/RCDT/ESCT', 'credit transfer'],
        ['PMNT/RDDT/ESDD', 'direct debit'],
        ['PMNT/CCRD/POSD', 'card payment'],
        ['ACMT/MDOP/CHRG', 'fee'],
        ['ACMT/MCOP/INTR', 'interest'],
        ['XTND/NTAV/NTAV', 'XTND/NTAV/NTAV'],
        ['NTRF+166', 'NTRF+166'],
      ],
    );
  });
});

describe('parseCamt: statements, versions and messages', () => {
  it('yields one statement per Stmt, Rpt and Ntfctn, each after its entries', async () => {
    for (const format of ['camt.053', 'camt.052', 'camt.054'] as const) {
      const events = await parse(camtDocument([ntry(), ntry({ indicator: 'DBIT' })], { format, statements: 3 }), { format });
      assert.deepEqual(
        events.map((event) =>
          event.kind === 'statement' ? `statement ${event.statement.statementId}` : event.kind === 'entry' ? `entry ${event.entry.statementId}` : event.kind,
        ),
        ['entry S1', 'entry S1', 'statement S1', 'entry S2', 'entry S2', 'statement S2', 'entry S3', 'entry S3', 'statement S3'],
        format,
      );
    }
  });

  it('reads versions .001.02, .001.04, .001.08 and .001.13 alike, in their older and newer shapes', async () => {
    const results = new Map<string, StatementEntry[]>();
    for (const format of ['camt.053', 'camt.052', 'camt.054'] as const) {
      for (const version of ['02', '04', '08', '13']) {
        const newer = Number(version) >= 8;
        const status = newer ? '<Sts><Cd>BOOK</Cd></Sts>' : '<Sts>BOOK</Sts>';
        const debtor = newer ? '<Dbtr><Pty><Nm>Anna Åberg</Nm></Pty></Dbtr>' : '<Dbtr><Nm>Anna Åberg</Nm></Dbtr>';
        const text = camtDocument(
          [
            `<Ntry><Amt Ccy="EUR">99.95</Amt><CdtDbtInd>CRDT</CdtDbtInd>${status}<BookgDt><Dt>2024-01-31</Dt></BookgDt>` +
              `<AcctSvcrRef>R-1</AcctSvcrRef><NtryDtls><TxDtls><RltdPties>${debtor}<DbtrAcct><Id><IBAN>SE4550000000058398257466</IBAN></Id></DbtrAcct></RltdPties></TxDtls></NtryDtls></Ntry>`,
          ],
          { format, version },
        );
        results.set(`${format}.001.${version}`, entriesOf(await parse(text, { format })));
      }
    }
    const expected = [
      entry({
        line: 8,
        bookingDate: '2024-01-31',
        amount: '99.95',
        currency: 'EUR',
        bankReference: 'R-1',
        counterpartyName: 'Anna Åberg',
        counterpartyAccount: 'SE4550000000058398257466',
        accountId: 'DE89370400440532013000',
        statementId: 'S1',
        uniqueId: 'R-1',
      }),
    ];
    assert.equal(results.size, 12);
    for (const [version, entries] of results) assert.deepEqual(entries, expected, version);
  });

  it('skips pending and information-only entries, warning once per statement with their count', async () => {
    const events = await parse(
      camtDocument([ntry({ status: 'PDNG', booking: null }), ntry(), ntry({ status: 'PDNG', booking: null }), ntry({ status: 'INFO', booking: null })], {
        statements: 2,
      }),
    );
    assert.equal(entriesOf(events).length, 2);
    assert.deepEqual(warningsOf(events), [
      { line: 5, message: 'statement 1 (S1): 3 entries are not booked yet (PDNG: 2, INFO: 1) and were not imported; a later statement books them' },
      { line: 13, message: 'statement 2 (S2): 3 entries are not booked yet (PDNG: 2, INFO: 1) and were not imported; a later statement books them' },
    ]);
  });

  it('finds the Document inside an envelope with an application header', async () => {
    const events = await parse(fixture('camt.053', 'gs-envelope-v11.xml'));
    assert.equal(statementsOf(events).length, 1);
  });

  it('matches elements by local name whatever their prefix', async () => {
    const events = await parse(fixture('camt.052', 'written-v08-two-reports.xml'));
    assert.equal(statementsOf(events).length, 2);
  });

  it('refuses a document in a namespace that is not camt, naming the namespace it found', async () => {
    const error = await parseError(camtDocument([ntry()]).replace('urn:iso:std:iso:20022:tech:xsd:camt.053.001.08', 'urn:example:statements:1'));
    assert.equal(error.line, 3);
    assert.match(error.message, /found <BkToCstmrStmt> in the namespace "urn:example:statements:1"; expected the ISO 20022 namespace of camt\.053/);
    // A prefixed Document whose prefix names another message's namespace, declared on an envelope.
    const prefixed =
      '<Envelope xmlns:d="urn:iso:std:iso:20022:tech:xsd:pacs.008.001.08"><d:Document><d:BkToCstmrStmt><d:Stmt/></d:BkToCstmrStmt></d:Document></Envelope>';
    assert.match((await parseError(prefixed)).message, /in the namespace "urn:iso:std:iso:20022:tech:xsd:pacs\.008\.001\.08"/);
    // A national variant that names the message in its namespace is camt (Austrian banks).
    assert.equal(
      entriesOf(await parse(camtDocument([ntry()]).replace('urn:iso:std:iso:20022:tech:xsd:camt.053.001.08', 'ISO:camt.053.001.02:APC:STUZZA:payments:003')))
        .length,
      1,
    );
    // Without any namespace declaration the element names decide, as before.
    assert.equal(entriesOf(await parse(camtDocument([ntry()]).replace(' xmlns="urn:iso:std:iso:20022:tech:xsd:camt.053.001.08"', ''))).length, 1);
  });

  it('refuses a message without any statement, report or notification, but reads an empty day with its balances', async () => {
    const empty =
      '<?xml version="1.0"?>\n<Document xmlns="urn:iso:std:iso:20022:tech:xsd:camt.054.001.08">\n<BkToCstmrDbtCdtNtfctn><GrpHdr><MsgId>M</MsgId></GrpHdr></BkToCstmrDbtCdtNtfctn></Document>';
    const error = await parseError(empty);
    assert.equal(error.line, 3);
    assert.match(error.message, /found <BkToCstmrDbtCdtNtfctn> without any <Ntfctn>; expected at least one <Ntfctn> in the message/);
    const emptyDay = camtDocument([
      '<Bal><Tp><CdOrPrtry><Cd>OPBD</Cd></CdOrPrtry></Tp><Amt Ccy="EUR">10.00</Amt><CdtDbtInd>CRDT</CdtDbtInd><Dt><Dt>2024-01-31</Dt></Dt></Bal>',
      '<Bal><Tp><CdOrPrtry><Cd>CLBD</Cd></CdOrPrtry></Tp><Amt Ccy="EUR">10.00</Amt><CdtDbtInd>CRDT</CdtDbtInd><Dt><Dt>2024-01-31</Dt></Dt></Bal>',
    ]);
    const events = await parse(emptyDay);
    assert.equal(entriesOf(events).length, 0);
    assert.deepEqual(
      statementsOf(events).map((item) => [item.openingBalance, item.closingBalance]),
      [
        [
          { amount: '10.00', date: '2024-01-31' },
          { amount: '10.00', date: '2024-01-31' },
        ],
      ],
    );
  });

  it('refuses a message other than the format asked for', async () => {
    const error = await parseError(camtDocument([ntry()], { format: 'camt.052' }), { format: 'camt.053' });
    assert.equal(error.line, 3);
    assert.match(
      error.message,
      /line 3, at \/Document\/BkToCstmrAcctRpt: found <BkToCstmrAcctRpt> \(camt\.052\); expected <BkToCstmrStmt> \(camt\.053\), as the format of the import says/,
    );
  });
});

describe('parseCamt: malformed files', () => {
  it('refuses a DOCTYPE with entity declarations before reading it, whatever the chunking', async () => {
    const text =
      '<?xml version="1.0"?>\n<!DOCTYPE Document [\n  <!ENTITY lol "lol">\n  <!ENTITY lol2 "&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;">\n]>\n' +
      '<Document>&lol2;</Document>\n';
    for (const chunkSize of [1, 3, 7, 1024]) {
      const error = await parseError(text, {}, chunkSize);
      assert.equal(error.line, 2, `chunk size ${chunkSize}`);
      assert.match(
        error.message,
        /^line 2: found a document type declaration \(<!DOCTYPE \.\.\.>\); expected a camt document without DTD or entity declarations/,
      );
    }
  });

  it('refuses an external entity declaration without fetching anything', async () => {
    const text = '<?xml version="1.0"?><!DOCTYPE d [<!ENTITY xxe SYSTEM "file:///etc/passwd">]><Document>&xxe;</Document>';
    const error = await parseError(text);
    assert.match(error.message, /document type declaration/);
  });

  it('refuses a DOCTYPE after a comment, and one inside the document', async () => {
    const afterComment = await parseError(
      '<?xml version="1.0"?>\n<!-- exported -->\n<!DOCTYPE Document SYSTEM "http://example.invalid/camt.dtd">\n<Document/>\n',
    );
    assert.equal(afterComment.line, 3);
    assert.match(afterComment.message, /document type declaration/);
    // Read at once, the prolog check sees the declaration; read in small chunks, the root has
    // opened before it and the XML parser refuses it. Either way it is never read as a DTD.
    const text = '<?xml version="1.0"?>\n<Document>\n<!DOCTYPE Document>\n</Document>\n';
    const atOnce = await parseError(text);
    assert.equal(atOnce.line, 3);
    assert.match(atOnce.message, /found a document type declaration/);
    const inChunks = await parseError(text, {}, 1);
    assert.equal(inChunks.line, 3);
    assert.match(inChunks.message, /found XML that is not well-formed \(inappropriately located doctype declaration\.\)/);
  });

  it('refuses an envelope that holds no Document among its first elements', async () => {
    const text = `<Envelope>${'<Header><Item>x</Item></Header>'.repeat(CAMT_LIMITS.envelopeElementLimit)}<Document/></Envelope>`;
    const error = await parseError(text);
    assert.match(error.message, /found the root element <Envelope> without a camt <Document> in its first 1000 elements/);
  });

  it('refuses nesting deeper than the limit', async () => {
    const deep = '<NtryDtls>'.repeat(100);
    const text = `<Document><BkToCstmrStmt><Stmt><Ntry>${deep}`;
    const error = await parseError(text);
    assert.equal(error.line, 1);
    assert.match(error.message, /found elements nested more than 64 levels deep \(<NtryDtls>\); expected at most 64 levels of nesting/);
  });

  it('refuses an element text longer than the limit, naming the element', async () => {
    const text = camtDocument([ntry({ inner: `<AddtlNtryInf>${'x'.repeat(CAMT_LIMITS.textLengthLimit + 10)}</AddtlNtryInf>` })]);
    const error = await parseError(text);
    assert.equal(error.line, 8);
    assert.equal(error.xmlPath, '/Document/BkToCstmrStmt/Stmt[1]/Ntry[1]/AddtlNtryInf');
    // Which of the two checks fires first depends on where the slices fall; both name the element.
    assert.match(
      error.message,
      /found (a text of more than 65536 characters in <AddtlNtryInf>|more than 65536 characters of text or markup without a break, inside <AddtlNtryInf>)/,
    );
  });

  it('refuses a file whose root is not a camt message, saying what was found and expected', async () => {
    const ofx =
      '<?xml version="1.0"?>\n<?OFX OFXHEADER="200" VERSION="220"?>\n<OFX><SIGNONMSGSRSV1><SONRS><STATUS><CODE>0</CODE></STATUS></SONRS></SIGNONMSGSRSV1></OFX>\n';
    const ofxError = await parseError(ofx);
    assert.match(
      ofxError.message,
      /found the root element <OFX> without a camt message; expected <Document> holding <BkToCstmrStmt> \(camt\.053\), <BkToCstmrAcctRpt> \(camt\.052\) or <BkToCstmrDbtCdtNtfctn> \(camt\.054\)/,
    );
    const pain = '<?xml version="1.0"?>\n<Document xmlns="urn:iso:std:iso:20022:tech:xsd:pain.001.001.03">\n  <CstmrCdtTrfInitn>\n';
    const painError = await parseError(pain);
    assert.equal(painError.line, 3);
    assert.match(
      painError.message,
      /line 3, at \/Document\/CstmrCdtTrfInitn: found <CstmrCdtTrfInitn> inside <Document>; expected <Document> holding <BkToCstmrStmt>/,
    );
  });

  it('refuses truncated XML, naming the element path and the line', async () => {
    const text = fixture('camt.053', 'written-v13-batches.xml');
    const cutInAmount = text.slice(0, text.indexOf('250.00') + 4);
    const amountError = await parseError(cutInAmount);
    assert.equal(amountError.line, 49);
    assert.equal(amountError.xmlPath, '/Document/BkToCstmrStmt/Stmt[1]/Ntry[1]/Amt');
    assert.match(amountError.message, /found the end of the file inside <Amt>; expected the closing tag <\/Amt>; the file is cut short/);
    const cutBetweenEntries = text.slice(0, text.indexOf('</Ntry>') + '</Ntry>'.length);
    const statementError = await parseError(cutBetweenEntries, {}, 7);
    assert.equal(statementError.line, 111);
    assert.equal(statementError.xmlPath, '/Document/BkToCstmrStmt/Stmt[1]');
  });

  it('refuses an amount that is not a decimal', async () => {
    for (const amount of ['12,50', '-5.00', '1e3', '']) {
      const error = await parseError(camtDocument([ntry(), ntry({ amount })]));
      assert.equal(error.line, 9, amount);
      assert.equal(error.xmlPath, '/Document/BkToCstmrStmt/Stmt[1]/Ntry[2]/Amt');
      assert.match(error.message, new RegExp(`found the amount ${JSON.stringify(amount)}; expected a decimal amount without sign`));
    }
  });

  it('reads the short xs:decimal forms ".6" and "6." as the amounts they are, in entries, details and balances', async () => {
    const balance = `<Bal><Tp><CdOrPrtry><Cd>OPBD</Cd></CdOrPrtry></Tp><Amt Ccy="EUR">.5</Amt><CdtDbtInd>CRDT</CdtDbtInd><Dt><Dt>2024-01-30</Dt></Dt></Bal>`;
    const detail = `<NtryDtls><TxDtls><AmtDtls><TxAmt><Amt Ccy="EUR">.6</Amt></TxAmt></AmtDtls></TxDtls><TxDtls><AmtDtls><TxAmt><Amt Ccy="EUR">6.</Amt></TxAmt></AmtDtls></TxDtls></NtryDtls>`;
    const events = await parse(
      camtDocument([balance, ntry({ amount: '.6', indicator: 'DBIT' }), ntry({ amount: '6.' }), ntry({ amount: '6.60', inner: detail })]),
    );
    assert.deepEqual(
      entriesOf(events).map((found) => found.amount),
      ['-0.60', '6.00', '0.60', '6.00'],
    );
    assert.equal(statementsOf(events)[0]!.openingBalance!.amount, '0.50');
  });

  it('names the statement and entry positions in the XML path', async () => {
    const text = camtDocument([ntry(), ntry()], { statements: 2 });
    const last = text.lastIndexOf('>10.00<');
    const error = await parseError(`${text.slice(0, last)}>ten<${text.slice(last + '>10.00<'.length)}`);
    assert.equal(error.xmlPath, '/Document/BkToCstmrStmt/Stmt[2]/Ntry[2]/Amt');
    assert.equal(error.line, 15);
  });

  it('refuses an entry without CdtDbtInd, or with another value', async () => {
    const missing = await parseError(camtDocument([ntry({ indicator: null })]));
    assert.equal(missing.line, 8);
    assert.equal(missing.xmlPath, '/Document/BkToCstmrStmt/Stmt[1]/Ntry[1]');
    assert.match(missing.message, /found an entry without <CdtDbtInd>; expected every <Ntry> to say CRDT \(money in\) or DBIT \(money out\)/);
    const wrong = await parseError(camtDocument([ntry({ indicator: 'CREDIT' })]));
    assert.match(wrong.message, /found the credit\/debit indicator "CREDIT"; expected "CRDT" \(money in\) or "DBIT" \(money out\)/);
  });

  it('refuses a booked entry without a booking date or a value date', async () => {
    const error = await parseError(camtDocument([ntry(), ntry(), ntry({ booking: null })]));
    assert.equal(error.line, 10);
    assert.equal(error.xmlPath, '/Document/BkToCstmrStmt/Stmt[1]/Ntry[3]');
    assert.match(
      error.message,
      /found a booked entry without a booking date or a value date; expected every booked <Ntry> to carry <BookgDt> \(or at least <ValDt>\)/,
    );
  });

  it('dates a booked entry without a booking date by its value date, leaving the booking date empty, with one warning', async () => {
    const events = await parse(
      camtDocument([
        ntry({ booking: null, inner: '<ValDt><Dt>2019-07-19</Dt></ValDt>' }),
        ntry({ booking: null, inner: '<ValDt><Dt>2019-07-20</Dt></ValDt>' }),
      ]),
    );
    assert.deepEqual(
      entriesOf(events).map((item) => [item.bookingDate, item.valueDate]),
      [
        [null, '2019-07-19'],
        [null, '2019-07-20'],
      ],
    );
    const warnings = warningsOf(events);
    assert.equal(warnings.length, 1);
    assert.match(warnings[0]!.message, /has no booking date \(<BookgDt>\); it is dated by its value date 2019-07-19/);
  });

  it('refuses dates that are not calendar dates', async () => {
    const date = await parseError(camtDocument([ntry({ booking: '<Dt>2024-02-30</Dt>' })]));
    assert.match(
      date.message,
      /at \/Document\/BkToCstmrStmt\/Stmt\[1\]\/Ntry\[1\]\/BookgDt\/Dt: found the date "2024-02-30"; expected a calendar date YYYY-MM-DD/,
    );
    const dateTime = await parseError(camtDocument([ntry({ booking: '<DtTm>2024-01-31 10:15</DtTm>' })]));
    assert.match(dateTime.message, /found the date-time "2024-01-31 10:15"; expected a date-time YYYY-MM-DDThh:mm:ss/);
  });

  it('leaves out a balance without its credit/debit indicator, with a warning, rather than guess its sign', async () => {
    const balance = '<Bal><Tp><CdOrPrtry><Cd>OPBD</Cd></CdOrPrtry></Tp><Amt Ccy="EUR">1.00</Amt><Dt><Dt>2024-01-30</Dt></Dt></Bal>';
    const events = await parse(camtDocument([balance, ntry()]));
    assert.deepEqual(
      statementsOf(events).map((item) => item.openingBalance),
      [null],
    );
    assert.equal(entriesOf(events).length, 1);
    const [warning] = warningsOf(events);
    assert.equal(warning!.line, 8);
    assert.match(warning!.message, /a balance \(OPBD\) gives no <CdtDbtInd>, so whether it is in credit or overdrawn is not known; it is not reported/);
  });

  it('refuses XML that is not well-formed, naming the line', async () => {
    const mismatched = await parseError('<?xml version="1.0"?>\n<Document>\n  <BkToCstmrStmt>\n  </Stmt>\n</Document>\n');
    assert.equal(mismatched.line, 4);
    assert.match(mismatched.message, /found XML that is not well-formed \(unexpected close tag\.\); expected a well-formed ISO 20022 camt XML document/);
    const entity = await parseError(camtDocument([ntry({ inner: '<AddtlNtryInf>a&nbsp;b</AddtlNtryInf>' })]));
    assert.equal(entity.line, 8);
    assert.match(entity.message, /found XML that is not well-formed \(undefined entity\.\)/);
  });
});

describe('parseCamt: hostile input', () => {
  /** Yields `chunks` chunks of text, counting how many were asked for. */
  function counted(first: string, chunk: string, chunks: number, counter: { read: number }): AsyncIterable<string> {
    return (async function* () {
      counter.read += 1;
      yield first;
      for (let index = 0; index < chunks; index++) {
        counter.read += 1;
        yield chunk;
      }
    })();
  }

  it('stops a several-megabyte text without a break quickly, without reading on', async () => {
    const counter = { read: 0 };
    const text = counted('<Document><BkToCstmrStmt><Stmt><Ntry><AddtlNtryInf>', 'A'.repeat(64 * 1024), 80, counter);
    const error = await parseError(text);
    assert.match(error.message, /more than 65536 characters of text or markup without a break, inside <AddtlNtryInf>/);
    assert.ok(counter.read <= 3, `read ${counter.read} chunks`);
  });

  it('stops a several-megabyte line of junk or blanks at once', async () => {
    const junk = await parseError('x'.repeat(5 * 1024 * 1024));
    assert.equal(junk.line, 1);
    assert.match(junk.message, /XML that is not well-formed \(text data outside of root node\.\)/);
    const counter = { read: 0 };
    const blanks = await parseError(counted('', ' '.repeat(64 * 1024), 80, counter));
    assert.match(blanks.message, /more than 65536 characters of text or markup without a break, before the first element/);
    assert.ok(counter.read <= 4, `read ${counter.read} chunks`);
  });

  it('stops a tag with a several-megabyte attribute', async () => {
    const counter = { read: 0 };
    const error = await parseError(counted('<Document xmlns="', 'a'.repeat(64 * 1024), 80, counter));
    assert.match(error.message, /more than 65536 characters of text or markup without a break/);
    assert.ok(counter.read <= 3, `read ${counter.read} chunks`);
  });

  it('refuses binary junk', async () => {
    let junk = '';
    for (let index = 0; index < 4096; index++) junk += String.fromCharCode((index * 131 + 7) % 256);
    const error = await parseError(junk);
    assert.equal(error.line, 1);
    assert.match(error.message, /XML that is not well-formed/);
  });

  it('refuses an empty file and a file of blanks', async () => {
    for (const text of ['', '   \r\n\t\n']) {
      const error = await parseError(text);
      assert.equal(error.line, 1);
      assert.match(error.message, /^line 1: found an empty file; expected a camt XML document/);
    }
  });

  it('refuses a file that ends before its first element is complete', async () => {
    const error = await parseError('<?xml version="1.0"?>\n<Docu');
    assert.match(error.message, /found the end of the file before the first XML element was complete/);
  });
});

describe('parseCamt: a large statement', () => {
  it('reads 50,000 entries streamed in chunks', async () => {
    const count = 50_000;
    async function* large(): AsyncGenerator<string> {
      yield (
        '<?xml version="1.0" encoding="UTF-8"?>\n<Document xmlns="urn:iso:std:iso:20022:tech:xsd:camt.053.001.08"><BkToCstmrStmt>' +
        '<GrpHdr><MsgId>BIG</MsgId><CreDtTm>2024-01-31T18:00:00Z</CreDtTm></GrpHdr><Stmt><Id>BIG-1</Id>' +
        '<Acct><Id><IBAN>DE89370400440532013000</IBAN></Id><Ccy>EUR</Ccy></Acct>\n'
      );
      let batch = '';
      for (let index = 0; index < count; index++) {
        const cents = (index % 100_000) + 1;
        batch +=
          `<Ntry><Amt Ccy="EUR">${Math.floor(cents / 100)}.${String(cents % 100).padStart(2, '0')}</Amt>` +
          `<CdtDbtInd>${index % 3 === 0 ? 'DBIT' : 'CRDT'}</CdtDbtInd><Sts><Cd>BOOK</Cd></Sts>` +
          `<BookgDt><DtTm>2024-01-31T10:${String(index % 60).padStart(2, '0')}:00+01:00</DtTm></BookgDt><AcctSvcrRef>R${index}</AcctSvcrRef>` +
          `<BkTxCd><Domn><Cd>PMNT</Cd><Fmly><Cd>RCDT</Cd><SubFmlyCd>ESCT</SubFmlyCd></Fmly></Domn></BkTxCd>` +
          `<NtryDtls><TxDtls><Refs><EndToEndId>E${index}</EndToEndId></Refs><RltdPties><Dbtr><Pty><Nm>Payer ${index}</Nm></Pty></Dbtr></RltdPties>` +
          `<RmtInf><Ustrd>Invoice ${index}</Ustrd></RmtInf></TxDtls></NtryDtls></Ntry>\n`;
        if (batch.length > 60_000) {
          yield batch;
          batch = '';
        }
      }
      yield `${batch}</Stmt></BkToCstmrStmt></Document>\n`;
    }
    let entries = 0;
    let totalCents = 0n;
    let expectedCents = 0n;
    let last: StatementEntry | null = null;
    for (let index = 0; index < count; index++) {
      const cents = BigInt((index % 100_000) + 1);
      expectedCents += index % 3 === 0 ? -cents : cents;
    }
    for await (const event of parseCamt(large(), { format: 'camt.053' })) {
      if (event.kind !== 'entry') continue;
      entries += 1;
      totalCents += BigInt(event.entry.amount.replace('.', ''));
      last = event.entry;
    }
    assert.equal(entries, count);
    assert.equal(totalCents, expectedCents);
    assert.equal(last?.uniqueId, `R${count - 1}`);
    assert.equal(last?.line, count + 2);
  });
});

describe('sniffCamt', () => {
  it('recognises the three messages from the first characters', () => {
    for (const golden of GOLDEN) assert.equal(sniffCamt(fixture(golden.format, golden.file).slice(0, 4096)), golden.format, golden.file);
  });

  it('recognises a message by its namespace when the element lies beyond the first characters', () => {
    const head = `<?xml version="1.0"?><Document xmlns="urn:iso:std:iso:20022:tech:xsd:camt.054.001.08">${' '.repeat(5000)}`.slice(0, 4096);
    assert.equal(sniffCamt(head), 'camt.054');
  });

  it('reads heads decoded as latin1 from UTF-8 with a BOM and from UTF-16', () => {
    const text = fixture('camt.052', 'genkgo-v08.xml');
    assert.equal(sniffCamt(`\u00ef\u00bb\u00bf${text}`.slice(0, 4096)), 'camt.052');
    const utf16 = `\u00ff\u00fe${[...text].map((character) => `${character}\u0000`).join('')}`;
    assert.equal(sniffCamt(utf16.slice(0, 4096)), 'camt.052');
  });

  it('claims none of the other formats', () => {
    const others = [
      'OFXHEADER:100\nDATA:OFXSGML\nVERSION:102\n\n<OFX><BANKMSGSRSV1><STMTTRNRS><STMTRS><BANKTRANLIST><STMTTRN><TRNAMT>-10.00',
      '<?xml version="1.0" encoding="UTF-8"?>\n<?OFX OFXHEADER="200" VERSION="220" SECURITY="NONE"?>\n<OFX><BANKMSGSRSV1></BANKMSGSRSV1></OFX>',
      '{1:F01BANKDEFFXXXX0000000000}{2:O9401200240131BANKDEFFXXXX00000000002401311200N}{4:\n:20:STARTUMSE\n:25:DE89370400440532013000\n:28C:00001/001\n:60F:C240130EUR5000,00\n',
      ':20:STARTUMSE\r\n:25:DE89370400440532013000\r\n:28C:00001/001\r\n:60F:C240130EUR5000,00\r\n:61:2401310131CR250,00NTRFNONREF\r\n',
      '01,BANKUS33,CUST01,240131,1800,1,80,,2/\n02,CUST01,BANKUS33,1,240131,1800,USD,2/\n03,123456789,USD,010,500000,,/\n',
      'Buchungstag;Valuta;Auftraggeber/Empfaenger;Verwendungszweck;Betrag\n31.01.2024;31.01.2024;Muster;BkToCstmrStmt;250,00\n',
      '<?xml version="1.0"?>\n<Document xmlns="urn:iso:std:iso:20022:tech:xsd:pain.001.001.09"><CstmrCdtTrfInitn>',
      '<?xml version="1.0"?>\n<Document xmlns="urn:iso:std:iso:20022:tech:xsd:camt.056.001.08"><FIToFIPmtCxlReq>',
      '',
    ];
    for (const head of others) assert.equal(sniffCamt(head), null, head.slice(0, 40));
  });
});

describe('declaredXmlEncoding', () => {
  it('reads the encoding of an XML declaration', () => {
    assert.equal(declaredXmlEncoding('<?xml version="1.0" encoding="ISO-8859-1"?>\n<Document/>'), 'ISO-8859-1');
    assert.equal(declaredXmlEncoding("<?xml version='1.0' encoding='windows-1252' standalone='yes'?><Document/>"), 'windows-1252');
    assert.equal(declaredXmlEncoding('\u00ef\u00bb\u00bf<?xml version="1.0" encoding="UTF-8"?>'), 'UTF-8');
    assert.equal(
      declaredXmlEncoding(
        '\u00ff\u00fe<\u0000?\u0000x\u0000m\u0000l\u0000 \u0000v\u0000e\u0000r\u0000s\u0000i\u0000o\u0000n\u0000=\u0000"\u00001\u0000.\u00000\u0000"\u0000 \u0000e\u0000n\u0000c\u0000o\u0000d\u0000i\u0000n\u0000g\u0000=\u0000"\u0000U\u0000T\u0000F\u0000-\u00001\u00006\u0000"\u0000?\u0000>\u0000',
      ),
      'UTF-16',
    );
  });

  it('answers null without a declaration or without an encoding in it', () => {
    assert.equal(declaredXmlEncoding('<?xml version="1.0"?><Document/>'), null);
    assert.equal(declaredXmlEncoding('<Document/>'), null);
    assert.equal(declaredXmlEncoding('OFXHEADER:100\nENCODING:USASCII\n'), null);
    assert.equal(declaredXmlEncoding('<Document><?xml version="1.0" encoding="UTF-8"?>'), null);
    assert.equal(declaredXmlEncoding(''), null);
  });
});
