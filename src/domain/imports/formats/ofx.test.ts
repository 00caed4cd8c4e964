import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import { addDecimals } from '../../money.ts';
import { emptyEntry, ImportFormatError, type ParseEvent, type StatementEntry, type StatementSummary } from '../statement-entries.ts';
import { textChunks } from '../text.ts';
import { declaredOfxEncoding, OFX_LIMITS, parseOfx, parseOfxAmount, parseOfxDate, sniffOfx } from './ofx.ts';

const FIXTURES = new URL('../../../../test/fixtures/imports/ofx/', import.meta.url);

async function collect(text: AsyncIterable<string>): Promise<ParseEvent[]> {
  const events: ParseEvent[] = [];
  for await (const event of parseOfx(text, {})) events.push(event);
  return events;
}

/** The fixture's text, decoded as the file declares (as the importer does), else as UTF-8. */
function fixtureText(name: string): string {
  const bytes = readFileSync(new URL(name, FIXTURES));
  const encoding = declaredOfxEncoding(bytes.subarray(0, 4096).toString('latin1'));
  return new TextDecoder(encoding ?? 'utf-8', { fatal: true }).decode(bytes);
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

/** An entry with every field: the given ones, and the empty value for the rest. */
function entry(line: number, statementIndex: number, amount: string, fields: Partial<StatementEntry>): StatementEntry {
  return { ...emptyEntry(line, statementIndex, amount), ...fields };
}

const at = (isoTime: string): number => Date.parse(isoTime);

/** Text that ends in an ImportFormatError; returns it for the caller's own checks. */
async function formatError(text: string | AsyncIterable<string>): Promise<ImportFormatError> {
  try {
    await collect(typeof text === 'string' ? textChunks(text, 7) : text);
  } catch (error) {
    assert.ok(error instanceof ImportFormatError, `expected an ImportFormatError, got ${String(error)}`);
    return error;
  }
  assert.fail('the text was accepted');
}

/** A statement around the given STMTTRN text, in OFX 1.x SGML. */
function sgmlStatement(transactions: string, options: { header?: boolean } = {}): string {
  const header = options.header === false ? '' : 'OFXHEADER:100\nDATA:OFXSGML\nVERSION:102\nSECURITY:NONE\nENCODING:USASCII\nCHARSET:1252\n\n';
  return (
    `${header}<OFX>\n<BANKMSGSRSV1>\n<STMTTRNRS>\n<TRNUID>T-1\n<STMTRS>\n<CURDEF>USD\n` +
    `<BANKACCTFROM>\n<BANKID>121000358\n<ACCTID>0001\n</BANKACCTFROM>\n<BANKTRANLIST>\n<DTSTART>20240101\n<DTEND>20240131\n` +
    `${transactions}</BANKTRANLIST>\n<LEDGERBAL>\n<BALAMT>100.00\n<DTASOF>20240131\n</LEDGERBAL>\n</STMTRS>\n</STMTTRNRS>\n</BANKMSGSRSV1>\n</OFX>\n`
  );
}

interface Golden {
  file: string;
  statements: Array<{
    accountId: string | null;
    statementId: string | null;
    currency: string | null;
    line: number;
    entries: number;
    sum: string;
    closing: { amount: string; date: string | null } | null;
  }>;
  first: StatementEntry | null;
  last: StatementEntry | null;
  warnings: Array<{ line: number | null; message: string }>;
}

const GOLDEN: Golden[] = [
  {
    file: 'bank-medium.ofx',
    statements: [
      {
        accountId: '12300 000012345678',
        statementId: '20090523122017',
        currency: 'CAD',
        line: 13,
        entries: 3,
        sum: '-345.27',
        closing: { amount: '382.34', date: '2009-05-23' },
      },
    ],
    first: entry(15, 0, '-6.60', {
      bookingDate: '2009-04-01',
      bookingTimeMs: at('2009-04-01T17:20:17Z'),
      currency: 'CAD',
      description: "POS MERCHANDISE;MCDONALD'S #112",
      type: 'point of sale',
      bankTransactionCode: 'POS',
      bankReference: '0000123456782009040100001',
      uniqueId: '0000123456782009040100001',
      counterpartyName: "MCDONALD'S #112",
      accountId: '12300 000012345678',
      statementId: '20090523122017',
    }),
    last: entry(17, 0, '-22.00', {
      bookingDate: '2009-04-03',
      bookingTimeMs: at('2009-04-03T17:20:17Z'),
      currency: 'CAD',
      description: "POS MERCHANDISE;CONNIE'S HAIR D",
      type: 'point of sale',
      bankTransactionCode: 'POS',
      bankReference: '0000123456782009040300005',
      uniqueId: '0000123456782009040300005',
      counterpartyName: "CONNIE'S HAIR D",
      accountId: '12300 000012345678',
      statementId: '20090523122017',
    }),
    warnings: [],
  },
  {
    file: 'chase-credit-card.qfx',
    statements: [
      {
        accountId: '0123012301230123',
        statementId: '1',
        currency: 'USD',
        line: 35,
        entries: 1,
        sum: '-10.00',
        closing: { amount: '-10.00', date: '2020-01-02' },
      },
    ],
    first: entry(43, 0, '-10.00', {
      bookingDate: '2020-01-01',
      bookingTimeMs: at('2020-01-01T12:00:00Z'),
      currency: 'USD',
      description: 'SQ *ECCO UN POCO ¦ NATURA',
      type: 'debit',
      bankTransactionCode: 'DEBIT',
      bankReference: '2020010112341234123412341234123',
      uniqueId: '2020010112341234123412341234123',
      counterpartyName: 'SQ *ECCO UN POCO ¦ NATURA',
      accountId: '0123012301230123',
      statementId: '1',
    }),
    last: null,
    warnings: [],
  },
  {
    file: 'multiple-accounts.ofx',
    statements: [
      {
        accountId: '78934567889',
        statementId: '78934567889/20110725-20110810',
        currency: 'EUR',
        line: 28,
        entries: 4,
        sum: '183.13',
        closing: { amount: '123450.00', date: '2011-08-29' },
      },
      {
        accountId: '89273829182',
        statementId: '89273829182/20110725-20110810',
        currency: 'EUR',
        line: 81,
        entries: 1,
        sum: '123.00',
        closing: { amount: '123450.00', date: '2011-08-29' },
      },
    ],
    first: entry(39, 0, '219.33', {
      bookingDate: '2011-08-09',
      currency: 'EUR',
      description: 'qeairunesuiqre',
      type: 'credit',
      bankTransactionCode: 'CREDIT',
      bankReference: '1015000017',
      uniqueId: '1015000017',
      counterpartyName: 'qeairunesuiqre',
      accountId: '78934567889',
      statementId: '78934567889/20110725-20110810',
    }),
    last: entry(92, 1, '123.00', {
      bookingDate: '2011-07-28',
      currency: 'EUR',
      description: 'Virement 78934567889',
      type: 'credit',
      bankTransactionCode: 'CREDIT',
      bankReference: '1107000001',
      uniqueId: '1107000001',
      counterpartyName: 'Virement 78934567889',
      accountId: '89273829182',
      statementId: '89273829182/20110725-20110810',
    }),
    warnings: [],
  },
  {
    file: 'empty-tags-v102.ofx',
    statements: [{ accountId: '12345678', statementId: '12345678/20180506-20180804', currency: null, line: 23, entries: 1, sum: '12.34', closing: null }],
    first: entry(23, 0, '12.34', {
      bookingDate: '2018-05-07',
      currency: 'AUD',
      description: 'CBA:Transfer',
      type: 'credit',
      bankTransactionCode: 'Credit',
      accountId: '12345678',
      statementId: '12345678/20180506-20180804',
    }),
    last: null,
    warnings: [
      {
        line: 23,
        message: 'Transactions without FITID in the statement at /OFX/BANKMSGSRSV1/STMTTRNRS[1]/STMTRS (first on line 23) are identified by their content.',
      },
      {
        line: 23,
        message: "The ledger balance (LEDGERBAL) at /OFX/BANKMSGSRSV1/STMTTRNRS[1]/STMTRS/LEDGERBAL has no amount: the statement's closing balance is unknown.",
      },
      { line: 23, message: 'The statement at /OFX/BANKMSGSRSV1/STMTTRNRS[1]/STMTRS names no currency (CURDEF).' },
    ],
  },
  {
    file: 'empty-balance.ofx',
    statements: [{ accountId: '192639749', statementId: '1', currency: 'CAD', line: 19, entries: 1, sum: '120.00', closing: null }],
    first: entry(29, 0, '120.00', {
      bookingDate: '2011-03-08',
      bookingTimeMs: at('2011-03-08T02:00:00Z'),
      currency: 'CAD',
      description: 'Foobar',
      type: 'other',
      bankTransactionCode: 'OTHER',
      bankReference: '2000957249',
      uniqueId: '2000957249',
      counterpartyName: 'Foobar',
      accountId: '192639749',
      statementId: '1',
    }),
    last: null,
    warnings: [
      {
        line: 37,
        message: "The ledger balance (LEDGERBAL) at /OFX/BANKMSGSRSV1/STMTTRNRS[1]/STMTRS/LEDGERBAL has no amount: the statement's closing balance is unknown.",
      },
    ],
  },
  {
    file: 'bank-error-response.ofx',
    statements: [],
    first: null,
    last: null,
    warnings: [
      {
        line: 20,
        message: 'The bank answered the statement request ending on line 27 with status 2000 (ERROR): General Server Error. This response holds no statement.',
      },
      { line: null, message: 'The file holds no bank or credit-card statement: nothing is imported from it.' },
    ],
  },
  {
    file: 'investment-medium-sgml.ofx',
    statements: [],
    first: null,
    last: null,
    warnings: [
      {
        line: 32,
        message:
          'An investment statement (INVSTMTRS) at /OFX/INVSTMTMSGSRSV1/INVSTMTTRNRS[1]/INVSTMTRS was skipped: only bank and credit-card statements are imported.',
      },
      { line: null, message: 'The file holds no bank or credit-card statement: nothing is imported from it.' },
    ],
  },
  {
    file: 'account-list-no-statement.ofx',
    statements: [],
    first: null,
    last: null,
    warnings: [{ line: null, message: 'The file holds no bank or credit-card statement: nothing is imported from it.' }],
  },
  {
    file: 'signon-failure.ofx',
    statements: [],
    first: null,
    last: null,
    warnings: [{ line: null, message: 'The file holds no bank or credit-card statement: nothing is imported from it.' }],
  },
  {
    file: 'bank-and-card-2x.ofx',
    statements: [
      {
        accountId: '7712340001',
        statementId: '7712340001/20240131-20240205',
        currency: 'USD',
        line: 16,
        entries: 5,
        sum: '2102.27',
        closing: { amount: '10452.77', date: '2024-02-05' },
      },
      {
        accountId: '4111000011112222',
        statementId: 'c7d9e0f1-card-0001',
        currency: 'USD',
        line: 105,
        entries: 2,
        sum: '454.90',
        closing: { amount: '-1204.33', date: '2024-01-31' },
      },
      {
        accountId: '7712340099',
        statementId: 'savings-20240205',
        currency: 'EUR',
        line: 138,
        entries: 0,
        sum: '0',
        closing: { amount: '1000.00', date: '2024-01-31' },
      },
    ],
    first: entry(26, 0, '2500.00', {
      bookingDate: '2024-01-31',
      bookingTimeMs: at('2024-01-31T17:00:00Z'),
      valueDate: '2024-02-01',
      currency: 'USD',
      description: 'Invoice 2024-001 <paid in full>',
      type: 'transfer',
      bankTransactionCode: 'XFER',
      reference: 'INV-2024-001',
      bankReference: '2024013100001',
      uniqueId: '2024013100001',
      counterpartyName: 'Smith & Sons Ltd',
      counterpartyAccount: '5550001234',
      accountId: '7712340001',
      statementId: '7712340001/20240131-20240205',
    }),
    last: entry(118, 1, '500.00', {
      bookingDate: '2024-01-28',
      currency: 'USD',
      description: 'Payment - thank you',
      type: 'payment',
      bankTransactionCode: 'PAYMENT',
      bankReference: 'CC-20240128-02',
      uniqueId: 'CC-20240128-02',
      counterpartyName: 'Payment - thank you',
      counterpartyAccount: '4111000011112222',
      accountId: '4111000011112222',
      statementId: 'c7d9e0f1-card-0001',
    }),
    warnings: [],
  },
  {
    file: 'no-header-sgml.ofx',
    statements: [
      {
        accountId: '00012345678',
        statementId: '20240315083000',
        currency: 'EUR',
        line: 19,
        entries: 3,
        sum: '-996.56',
        closing: { amount: '8765.44', date: '2024-03-14' },
      },
    ],
    first: entry(30, 0, '-1234.56', {
      bookingDate: '2024-03-01',
      bookingTimeMs: at('2024-03-01T14:30:00Z'),
      valueDate: '2024-03-04',
      currency: 'EUR',
      description: 'PRLV SEPA Dupont & Fils',
      type: 'debit',
      bankTransactionCode: 'DEBIT',
      bankReference: 'FR24030100001',
      uniqueId: 'FR24030100001',
      counterpartyName: 'LOYER MARS',
      accountId: '00012345678',
      statementId: '20240315083000',
    }),
    last: entry(45, 0, '-12.00', {
      bookingDate: '2024-03-11',
      currency: 'EUR',
      type: 'check',
      bankTransactionCode: 'CHECK',
      reference: '0004521',
      bankReference: 'FR24031100003',
      uniqueId: 'FR24031100003',
      accountId: '00012345678',
      statementId: '20240315083000',
    }),
    warnings: [
      {
        line: 39,
        message: 'Transactions without FITID in the statement at /OFX/BANKMSGSRSV1/STMTTRNRS[1]/STMTRS (first on line 39) are identified by their content.',
      },
    ],
  },
  {
    file: 'utf8-header-sgml.ofx',
    statements: [
      {
        accountId: 'DE89370400440532013000',
        statementId: 'DE89370400440532013000/20240401-20240430',
        currency: 'EUR',
        line: 29,
        entries: 2,
        sum: '3060.10',
        closing: { amount: '5210.10', date: '2024-04-30' },
      },
    ],
    first: entry(39, 0, '-89.90', {
      bookingDate: '2024-04-02',
      valueDate: '2024-04-02',
      currency: 'EUR',
      description: 'Lastschrift Strom April, Kundennr. 4711 – Zählerstand 10 342 kWh',
      type: 'direct debit',
      bankTransactionCode: 'DIRECTDEBIT',
      bankReference: 'DE-240402-0001',
      uniqueId: 'DE-240402-0001',
      counterpartyName: 'Stadtwerke München',
      accountId: 'DE89370400440532013000',
      statementId: 'DE89370400440532013000/20240401-20240430',
    }),
    last: entry(48, 0, '3150.00', {
      bookingDate: '2024-04-29',
      valueDate: '2024-04-30',
      currency: 'EUR',
      description: 'Gehalt April 2024',
      type: 'direct deposit',
      bankTransactionCode: 'DIRECTDEP',
      bankReference: 'DE-240429-0002',
      uniqueId: 'DE-240429-0002',
      counterpartyName: 'Müller & Söhne GmbH',
      accountId: 'DE89370400440532013000',
      statementId: 'DE89370400440532013000/20240401-20240430',
    }),
    warnings: [],
  },
  {
    file: 'suncorp-2x-cdata.ofx',
    statements: [
      { accountId: '123456789', statementId: '1', currency: 'AUD', line: 25, entries: 1, sum: '-16.85', closing: { amount: '1234.12', date: '2013-12-15' } },
    ],
    first: entry(35, 0, '-16.85', {
      bookingDate: '2013-12-15',
      currency: 'AUD',
      description: 'EFTPOS WDL HANDYWAY ALDI STORE   GEELONG WEST VICAU',
      type: 'debit',
      bankTransactionCode: 'DEBIT',
      reference: '0',
      bankReference: '1',
      uniqueId: '1',
      counterpartyName: 'EFTPOS WDL HANDYWAY ALDI STORE',
      accountId: '123456789',
      statementId: '1',
    }),
    last: null,
    warnings: [],
  },
  {
    file: 'anz-credit-card-2x-unclosed.ofx',
    statements: [
      {
        accountId: '1234123412341234',
        statementId: '1',
        currency: 'AUD',
        line: 21,
        entries: 1,
        sum: '-5.50',
        closing: { amount: '-123.45', date: '2017-05-10' },
      },
    ],
    first: entry(29, 0, '-5.50', {
      bookingDate: '2017-05-08',
      bookingTimeMs: at('2017-05-08T00:00:00Z'),
      currency: 'AUD',
      description: 'SOME MEMO',
      type: 'debit',
      bankTransactionCode: 'DEBIT',
      bankReference: '201705080001',
      uniqueId: '201705080001',
      accountId: '1234123412341234',
      statementId: '1',
    }),
    last: null,
    warnings: [],
  },
  {
    file: 'checking-sgml-tabs.ofx',
    statements: [
      {
        accountId: '1452687~7',
        statementId: '1452687~7/20000101-20130525',
        currency: 'USD',
        line: 36,
        entries: 3,
        sum: '-59.50',
        closing: { amount: '100.99', date: '2013-05-25' },
      },
    ],
    first: entry(46, 0, '0.01', {
      bookingDate: '2011-03-31',
      bookingTimeMs: at('2011-03-31T12:00:00Z'),
      currency: 'USD',
      description: 'DIVIDEND EARNED FOR PERIOD OF 03/01/2011 THROUGH 03/31/2011 ANNUAL PERCENTAGE YIELD EARNED IS 0.05%',
      type: 'credit',
      bankTransactionCode: 'CREDIT',
      bankReference: '0000486',
      uniqueId: '0000486',
      counterpartyName: 'DIVIDEND EARNED FOR PERIOD OF 03',
      accountId: '1452687~7',
      statementId: '1452687~7/20000101-20130525',
    }),
    last: entry(62, 0, '-25.00', {
      bookingDate: '2011-04-07',
      bookingTimeMs: at('2011-04-07T12:00:00Z'),
      currency: 'USD',
      description: 'RETURNED CHECK FEE, CHECK # 319 FOR $45.33 ON 04/07/11',
      type: 'check',
      bankTransactionCode: 'CHECK',
      reference: '319',
      bankReference: '0000488',
      uniqueId: '0000488',
      counterpartyName: 'RETURNED CHECK FEE, CHECK # 319',
      accountId: '1452687~7',
      statementId: '1452687~7/20000101-20130525',
    }),
    warnings: [],
  },
];

describe('OFX golden files', () => {
  for (const golden of GOLDEN) {
    it(`${golden.file}: statements, entries, sums, balances, first and last entry, warnings`, async () => {
      const text = fixtureText(golden.file);
      const events = await collect(textChunks(text));
      const entries = entriesOf(events);
      const statements = statementsOf(events);

      assert.equal(statements.length, golden.statements.length, 'number of statements');
      assert.equal(
        entries.length,
        golden.statements.reduce((total, statement) => total + statement.entries, 0),
        'number of entries',
      );
      golden.statements.forEach((expected, index) => {
        const statement = statements[index]!;
        const own = entries.filter((candidate) => candidate.statementIndex === index);
        assert.deepEqual(statement, {
          statementIndex: index,
          line: expected.line,
          accountId: expected.accountId,
          statementId: expected.statementId,
          currency: expected.currency,
          openingBalance: null,
          closingBalance: expected.closing,
        });
        assert.equal(own.length, expected.entries, `entries of statement ${index}`);
        assert.equal(addDecimals(...own.map((candidate) => candidate.amount)), expected.sum, `sum of statement ${index}`);
        for (const candidate of own) {
          assert.equal(candidate.accountId, statement.accountId);
          assert.equal(candidate.statementId, statement.statementId);
        }
      });
      assert.deepEqual(entries[0] ?? null, golden.first, 'first entry');
      assert.deepEqual(entries.length > 1 ? entries[entries.length - 1]! : null, golden.last, 'last entry');
      assert.deepEqual(warningsOf(events), golden.warnings, 'warnings');

      // Statements come after their entries, in file order.
      let lastStatement = -1;
      for (const event of events) {
        if (event.kind === 'entry') assert.equal(event.entry.statementIndex, lastStatement + 1);
        if (event.kind === 'statement') lastStatement = event.statement.statementIndex;
      }
    });

    it(`${golden.file}: the same events whatever the chunk size`, async () => {
      const text = fixtureText(golden.file);
      const whole = await collect(textChunks(text, text.length + 1));
      assert.deepEqual(await collect(textChunks(text, 7)), whole, 'chunks of 7');
      assert.deepEqual(await collect(textChunks(text, 1)), whole, 'chunks of 1');
    });

    it(`${golden.file}: sniffed as OFX`, () => {
      const head = readFileSync(new URL(golden.file, FIXTURES)).subarray(0, 4096).toString('latin1');
      assert.equal(sniffOfx(head), 'ofx');
    });
  }
});

describe('OFX dates', () => {
  it('reads YYYYMMDD as a date without a time', () => {
    assert.deepEqual(parseOfxDate('20240131'), { date: '2024-01-31', timeMs: null });
  });

  it('reads YYYYMMDDHHMMSS in GMT when no zone is given', () => {
    assert.deepEqual(parseOfxDate('20240131120000'), { date: '2024-01-31', timeMs: at('2024-01-31T12:00:00Z') });
  });

  it('reads YYYYMMDDHHMMSS.XXX with milliseconds', () => {
    assert.deepEqual(parseOfxDate('20240131120000.250'), { date: '2024-01-31', timeMs: at('2024-01-31T12:00:00.250Z') });
  });

  it('reads the zone [-5:EST] without moving the date', () => {
    assert.deepEqual(parseOfxDate('20240131120000.000[-5:EST]'), { date: '2024-01-31', timeMs: at('2024-01-31T17:00:00Z') });
    assert.deepEqual(parseOfxDate('20240131230000[-5:EST]'), { date: '2024-01-31', timeMs: at('2024-02-01T04:00:00Z') });
  });

  it('reads [+5.30:IST] as five and a half hours east', () => {
    assert.deepEqual(parseOfxDate('20240131120000[+5.30:IST]'), { date: '2024-01-31', timeMs: at('2024-01-31T06:30:00Z') });
  });

  it('reads [0:GMT]', () => {
    assert.deepEqual(parseOfxDate('20240131120000[0:GMT]'), { date: '2024-01-31', timeMs: at('2024-01-31T12:00:00Z') });
  });

  it('reads [-3.5] (no zone name) as three and a half hours west', () => {
    assert.deepEqual(parseOfxDate('20240131120000[-3.5]'), { date: '2024-01-31', timeMs: at('2024-01-31T15:30:00Z') });
  });

  it('gives no time for a date with a zone but no time, and reads HHMM without seconds', () => {
    assert.deepEqual(parseOfxDate('20240131[-5:EST]'), { date: '2024-01-31', timeMs: null });
    assert.deepEqual(parseOfxDate('200510291120'), { date: '2005-10-29', timeMs: at('2005-10-29T11:20:00Z') });
  });

  it('refuses dates and times that do not exist, and what is not a date', () => {
    for (const text of [
      '20240230',
      '20230229',
      '20241301',
      '20240131250000',
      '20240131126000',
      '20240131120000[+15:XYZ]',
      '2024-01-31',
      '2024013',
      'tomorrow',
      '',
    ]) {
      assert.equal(parseOfxDate(text), null, text);
    }
    assert.notEqual(parseOfxDate('20240229'), null, 'a leap day exists');
  });

  it('refuses DTPOSTED 20240230 naming the line and the path', async () => {
    const error = await formatError(sgmlStatement('<STMTTRN>\n<TRNTYPE>DEBIT\n<DTPOSTED>20240230\n<TRNAMT>-1.00\n<FITID>1\n</STMTTRN>\n'));
    assert.equal(error.line, 23);
    assert.equal(error.xmlPath, '/OFX/BANKMSGSRSV1/STMTTRNRS[1]/STMTRS/BANKTRANLIST/STMTTRN[1]/DTPOSTED');
    assert.match(error.message, /^line 23, at \/OFX\/.*\/STMTTRN\[1\]\/DTPOSTED: found "20240230"; expected a date YYYYMMDD that exists/);
  });

  it('carries DTPOSTED 20240131120000.000[-5:EST] as booking date 2024-01-31 and time 17:00 GMT', async () => {
    const events = await collect(
      textChunks(sgmlStatement('<STMTTRN>\n<TRNTYPE>DEBIT\n<DTPOSTED>20240131120000.000[-5:EST]\n<DTUSER>20240130\n<TRNAMT>-1.00\n<FITID>1\n</STMTTRN>\n'), 7),
    );
    const [first] = entriesOf(events);
    assert.equal(first?.bookingDate, '2024-01-31');
    assert.equal(first?.bookingTimeMs, at('2024-01-31T17:00:00Z'));
    assert.equal(first?.valueDate, null, 'DTUSER is not the value date');
  });
});

describe('OFX amounts', () => {
  it('keeps the sign as written, with a decimal point or a decimal comma', () => {
    const cases: Array<[string, string]> = [
      ['-12.50', '-12.50'],
      ['12.50', '12.50'],
      ['+12.50', '12.50'],
      ['-12,50', '-12.50'],
      ['1234,5', '1234.5'],
      ['120', '120'],
      ['-.5', '-0.5'],
      ['0007.10', '7.10'],
      ['12.', '12'],
      ['1.123456000', '1.123456'],
    ];
    for (const [text, expected] of cases) assert.equal(parseOfxAmount(text), expected, text);
  });

  it('refuses thousands separators, letters, exponents and empty amounts', () => {
    for (const text of ['1,234.56', '1.234,56', '12.3.4', '12 345', '1e5', 'abc', '-', '', '.', '1.1234567', '$12', '1'.repeat(19)]) {
      assert.equal(parseOfxAmount(text), null, text);
    }
  });

  it('writes negative and positive amounts with the currency minor unit', async () => {
    const events = await collect(
      textChunks(
        sgmlStatement(
          '<STMTTRN>\n<TRNTYPE>DEBIT\n<DTPOSTED>20240102\n<TRNAMT>-7\n<FITID>1\n</STMTTRN>\n' +
            '<STMTTRN>\n<TRNTYPE>CREDIT\n<DTPOSTED>20240103\n<TRNAMT>15,5\n<FITID>2\n</STMTTRN>\n' +
            '<STMTTRN>\n<TRNTYPE>CREDIT\n<DTPOSTED>20240104\n<TRNAMT>1000\n<FITID>3\n<CURRENCY>\n<CURRATE>150\n<CURSYM>JPY\n</CURRENCY>\n</STMTTRN>\n',
        ),
        7,
      ),
    );
    assert.deepEqual(
      entriesOf(events).map((candidate) => [candidate.amount, candidate.currency]),
      [
        ['-7.00', 'USD'],
        ['15.50', 'USD'],
        ['1000', 'JPY'],
      ],
    );
  });

  it('refuses a TRNAMT that is not a number, naming the line and the path', async () => {
    const error = await formatError(sgmlStatement('<STMTTRN>\n<TRNTYPE>DEBIT\n<DTPOSTED>20240102\n<TRNAMT>-1,234.56\n<FITID>1\n</STMTTRN>\n'));
    assert.equal(error.line, 24);
    assert.equal(error.xmlPath, '/OFX/BANKMSGSRSV1/STMTTRNRS[1]/STMTRS/BANKTRANLIST/STMTTRN[1]/TRNAMT');
    assert.equal(error.found, '"-1,234.56"');
    assert.match(error.message, /^line 24, at .*TRNAMT: found "-1,234.56"; expected an amount such as "-12.50".*decimal comma, without thousands separators$/);
  });
});

describe('OFX structure', () => {
  it('reads SGML tags without closing tags, with and without the header block', async () => {
    const transactions = '<STMTTRN><TRNTYPE>DEBIT<DTPOSTED>20240102<TRNAMT>-5.00<FITID>A1<NAME>Shop</STMTTRN>\n';
    const withHeader = entriesOf(await collect(textChunks(sgmlStatement(transactions), 7)));
    const withoutHeader = entriesOf(await collect(textChunks(sgmlStatement(transactions, { header: false }), 7)));
    assert.equal(withHeader.length, 1);
    assert.deepEqual({ ...withoutHeader[0]!, line: 0 }, { ...withHeader[0]!, line: 0 });
    assert.equal(withHeader[0]!.amount, '-5.00');
    assert.equal(withHeader[0]!.counterpartyName, 'Shop');
    assert.equal(withHeader[0]!.line, 21);
    assert.equal(withoutHeader[0]!.line, 14);
  });

  it('accepts closing tags of leaves and whitespace anywhere between tags', async () => {
    const transactions =
      '<STMTTRN>\n\t<TRNTYPE> DEBIT </TRNTYPE>\r\n  <DTPOSTED>20240102</DTPOSTED>\n<TRNAMT>\n-5.00\n</TRNAMT><FITID>A1</FITID>  \n</STMTTRN>\n';
    const [only] = entriesOf(await collect(textChunks(sgmlStatement(transactions), 3)));
    assert.equal(only?.bankTransactionCode, 'DEBIT');
    assert.equal(only?.amount, '-5.00');
  });

  it('decodes &amp; and the other entities in NAME, and keeps a bare & as written', async () => {
    const transactions =
      '<STMTTRN><TRNTYPE>DEBIT<DTPOSTED>20240102<TRNAMT>-5.00<FITID>A1<NAME>AT&amp;T &lt;Wireless&gt; &#38; &#x26;<MEMO>Fish & Chips</STMTTRN>\n';
    const [only] = entriesOf(await collect(textChunks(sgmlStatement(transactions), 7)));
    assert.equal(only?.counterpartyName, 'AT&T <Wireless> & &');
    assert.equal(only?.description, 'Fish & Chips');
  });

  it('takes PAYEE/NAME when NAME is absent, MEMO before NAME as description, CHECKNUM before REFNUM', async () => {
    const transactions =
      '<STMTTRN><TRNTYPE>CHECK<DTPOSTED>20240102<TRNAMT>-5.00<FITID>A1<CHECKNUM>77<REFNUM>R9<PAYEE><NAME>Payee Inc<ADDR1>Street</PAYEE></STMTTRN>\n' +
      '<STMTTRN><TRNTYPE>DEBIT<DTPOSTED>20240102<TRNAMT>-5.00<FITID>A2<REFNUM>R10<NAME>Name<MEMO>Memo</STMTTRN>\n';
    const [first, second] = entriesOf(await collect(textChunks(sgmlStatement(transactions), 7)));
    assert.deepEqual([first?.counterpartyName, first?.description, first?.reference], ['Payee Inc', 'Payee Inc', '77']);
    assert.deepEqual([second?.counterpartyName, second?.description, second?.reference], ['Name', 'Memo', 'R10']);
  });

  it('ignores Intuit extension tags and keeps unknown empty elements out of the way', async () => {
    const transactions = '<STMTTRN><TRNTYPE>DEBIT<INTU.XYZ><DTPOSTED>20240102<TRNAMT>-5.00<FITID>A1<INTU.BID>3000</STMTTRN>\n';
    const events = await collect(textChunks(sgmlStatement(transactions), 7));
    assert.equal(entriesOf(events)[0]?.amount, '-5.00');
    assert.deepEqual(warningsOf(events), []);
  });

  it('reads a bank and a credit-card statement in one file, and an empty BANKTRANLIST', async () => {
    const events = await collect(textChunks(fixtureText('bank-and-card-2x.ofx'), 7));
    const statements = statementsOf(events);
    assert.deepEqual(
      statements.map((statement) => [statement.accountId, statement.closingBalance?.amount]),
      [
        ['7712340001', '10452.77'],
        ['4111000011112222', '-1204.33'],
        ['7712340099', '1000.00'],
      ],
    );
    assert.equal(entriesOf(events).filter((candidate) => candidate.statementIndex === 2).length, 0);
  });

  it('keeps the currency of CURRENCY, and the statement currency under ORIGCURRENCY (TRNAMT is already converted)', async () => {
    const entries = entriesOf(await collect(textChunks(fixtureText('bank-and-card-2x.ofx'), 7)));
    assert.deepEqual(
      entries.slice(2, 4).map((candidate) => [candidate.amount, candidate.currency]),
      [
        ['-84.20', 'GBP'],
        ['-1.50', 'USD'],
      ],
    );
  });

  it('reads comments and CDATA sections', async () => {
    const transactions =
      '<STMTTRN><TRNTYPE>DEBIT</TRNTYPE><!-- a > comment --><DTPOSTED>20240102</DTPOSTED><TRNAMT>-5.00</TRNAMT><FITID>A1</FITID><NAME>Tom <!-- x --><![CDATA[& Jerry <Ltd>]]></NAME></STMTTRN>\n';
    const [only] = entriesOf(await collect(textChunks(sgmlStatement(transactions), 2)));
    assert.equal(only?.counterpartyName, 'Tom & Jerry <Ltd>');
  });

  it('takes a transaction list that is never closed as closed by its statement, with a warning', async () => {
    // As a Brazilian card export does: <BANKTRANLIST> left open until </STMTRS>.
    const text = sgmlStatement('<STMTTRN>\n<TRNTYPE>DEBIT\n<DTPOSTED>20240102\n<TRNAMT>-5.00\n<FITID>A1\n</STMTTRN>\n').replace('</BANKTRANLIST>\n', '');
    const events = await collect(textChunks(text, 7));
    assert.deepEqual(
      entriesOf(events).map((candidate) => candidate.amount),
      ['-5.00'],
    );
    assert.equal(statementsOf(events)[0]?.closingBalance?.amount, '100.00');
    assert.deepEqual(warningsOf(events), [
      {
        line: 18,
        message: '<BANKTRANLIST> at /OFX/BANKMSGSRSV1/STMTTRNRS[1]/STMTRS/BANKTRANLIST has no closing tag; it was taken as closed by </STMTRS> on line 31.',
      },
    ]);
  });

  it('skips investment statements with a warning, and the STMTTRN inside them', async () => {
    const events = await collect(textChunks(fixtureText('investment-medium-sgml.ofx'), 7));
    assert.equal(entriesOf(events).length, 0);
    assert.match(warningsOf(events)[0]!.message, /investment statement \(INVSTMTRS\).*skipped/);
  });

  it('warns about an entry that corrects an earlier one', async () => {
    const transactions = '<STMTTRN><TRNTYPE>DEBIT<DTPOSTED>20240102<TRNAMT>-5.00<FITID>A2<CORRECTFITID>A1<CORRECTACTION>REPLACE</STMTTRN>\n';
    const events = await collect(textChunks(sgmlStatement(transactions), 7));
    assert.deepEqual(warningsOf(events), [
      { line: 21, message: 'The transaction on line 21 asks to replace the earlier transaction A1; it was imported as a transaction of its own.' },
    ]);
  });

  it('caps the number of warnings', async () => {
    const statement = '<STMTTRNRS><TRNUID>0<STMTRS><BANKACCTFROM><ACCTID>1</BANKACCTFROM></STMTRS></STMTTRNRS>\n';
    const events = await collect(textChunks(`<OFX><BANKMSGSRSV1>${statement.repeat(150)}</BANKMSGSRSV1></OFX>`, 1000));
    const warnings = warningsOf(events);
    assert.equal(statementsOf(events).length, 150);
    assert.equal(warnings.length, OFX_LIMITS.warningLimit + 1);
    assert.equal(warnings[warnings.length - 1]!.message, '50 further warnings were left out.');
  });
});

describe('OFX malformed files', () => {
  it('refuses a STMTTRN without DTPOSTED, naming the STMTTRN path and line', async () => {
    const error = await formatError(
      sgmlStatement(
        '<STMTTRN>\n<TRNTYPE>DEBIT\n<DTPOSTED>20240102\n<TRNAMT>-1.00\n<FITID>1\n</STMTTRN>\n' +
          '<STMTTRN>\n<TRNTYPE>DEBIT\n<TRNAMT>-2.00\n<FITID>2\n</STMTTRN>\n',
      ),
    );
    assert.equal(error.line, 27);
    assert.equal(error.xmlPath, '/OFX/BANKMSGSRSV1/STMTTRNRS[1]/STMTRS/BANKTRANLIST/STMTTRN[2]');
    assert.equal(
      error.message,
      'line 27, at /OFX/BANKMSGSRSV1/STMTTRNRS[1]/STMTRS/BANKTRANLIST/STMTTRN[2]: found a STMTTRN without DTPOSTED; expected every STMTTRN to give its posting date in <DTPOSTED>',
    );
  });

  it('refuses a STMTTRN without TRNAMT', async () => {
    const error = await formatError(sgmlStatement('<STMTTRN>\n<TRNTYPE>DEBIT\n<DTPOSTED>20240102\n<TRNAMT>\n<FITID>1\n</STMTTRN>\n'));
    assert.equal(error.line, 21);
    assert.match(error.message, /found a STMTTRN without TRNAMT; expected every STMTTRN to give its amount in <TRNAMT>/);
  });

  it('refuses a file truncated inside STMTTRN', async () => {
    const text = sgmlStatement('<STMTTRN>\n<TRNTYPE>DEBIT\n<DTPOSTED>20240102\n<TRNAMT>-1.00\n<FITID>1\n</STMTTRN>\n');
    const cut = text.slice(0, text.indexOf('<FITID>'));
    const error = await formatError(cut);
    assert.equal(error.line, 25);
    assert.equal(error.xmlPath, '/OFX/BANKMSGSRSV1/STMTTRNRS[1]/STMTRS/BANKTRANLIST/STMTTRN[1]');
    assert.match(
      error.message,
      /found the end of the file inside <STMTTRN> opened on line 21; expected <\/STMTTRN> and the rest of the file up to <\/OFX>: the file seems truncated/,
    );
    const insideTag = await formatError(text.slice(0, text.indexOf('<FITID>') + 3));
    assert.match(insideTag.message, /found the end of the file inside the tag "<FI"; expected the tag to end/);
  });

  it('refuses a file truncated before </OFX>', async () => {
    const text = sgmlStatement('');
    const error = await formatError(text.slice(0, text.lastIndexOf('</BANKMSGSRSV1>')));
    assert.match(error.message, /inside <BANKMSGSRSV1> opened on line 9/);
  });

  it('refuses files that are not OFX', async () => {
    const csv = await formatError('Date;Amount;Text\n2024-01-02;-5,00;Shop\n');
    assert.equal(csv.line, 1);
    assert.match(csv.message, /^line 1: found "Date;Amount;Text\\n2024-01-02;-5,00;Shop"; expected an OFX file: the OFXHEADER:100 header block/);
    const camt = await formatError('<?xml version="1.0"?>\n<Document xmlns="urn:iso:std:iso:20022:tech:xsd:camt.053.001.08"><BkToCstmrStmt/></Document>');
    assert.equal(camt.line, 2);
    assert.match(camt.message, /found <DOCUMENT>; expected an OFX file/);
    const mt940 = await formatError(':20:STARTUMS\n:25:10020030/1234567\n:28C:1/1\n');
    assert.match(mt940.message, /expected an OFX file/);
  });

  it('refuses <!DOCTYPE> and <!ENTITY> declarations', async () => {
    const error = await formatError('<?xml version="1.0"?>\n<!DOCTYPE OFX [<!ENTITY lol "lol">]>\n<OFX></OFX>');
    assert.equal(error.line, 2);
    assert.match(error.message, /found "<!DOCTYPE OFX \[<!ENTITY lol \\"lol\\">"; expected no document type or entity declaration/);
    const inside = await formatError('<OFX>\n<!ENTITY x "y">\n</OFX>');
    assert.equal(inside.line, 2);
  });

  it('refuses nesting deeper than the depth limit', async () => {
    const error = await formatError(`<OFX>${'<A><B>'.repeat(20)}x</OFX>`);
    assert.match(error.message, /nested 33 elements deep; expected OFX aggregates nested at most 32 deep/);
  });

  it('refuses a second TRNAMT in one STMTTRN', async () => {
    const error = await formatError(sgmlStatement('<STMTTRN>\n<TRNTYPE>DEBIT\n<DTPOSTED>20240102\n<TRNAMT>-1.00\n<TRNAMT>-2.00\n</STMTTRN>\n'));
    assert.equal(error.line, 25);
    assert.match(error.message, /found a second <TRNAMT> in the STMTTRN opened on line 21; expected one <TRNAMT> per STMTTRN/);
  });

  it('refuses the account after the transactions', async () => {
    const text =
      '<OFX><BANKMSGSRSV1><STMTTRNRS><STMTRS><CURDEF>USD<BANKTRANLIST><STMTTRN><TRNTYPE>DEBIT<DTPOSTED>20240102<TRNAMT>-1<FITID>1</STMTTRN></BANKTRANLIST>\n<BANKACCTFROM><ACCTID>9</BANKACCTFROM></STMTRS></STMTTRNRS></BANKMSGSRSV1></OFX>';
    const error = await formatError(text);
    assert.equal(error.line, 2);
    assert.match(error.message, /found <ACCTID> after 1 transactions of the statement; expected <ACCTID> before BANKTRANLIST/);
  });

  it('refuses a closing tag that closes nothing, and text directly inside an aggregate', async () => {
    const stray = await formatError(sgmlStatement('<STMTTRN>\n<TRNTYPE>DEBIT\n</TRNAMT>\n</STMTTRN>\n'));
    assert.equal(stray.line, 23);
    assert.match(stray.message, /found <\/TRNAMT>, which closes no open element; expected <\/STMTTRN> or the tags inside <STMTTRN>/);
    const text = await formatError(sgmlStatement('<STMTTRN>oops\n<TRNTYPE>DEBIT\n</STMTTRN>\n'));
    assert.equal(text.line, 21);
    assert.match(text.message, /found the text "oops" directly inside <STMTTRN>/);
  });

  it('refuses a currency that is not an ISO code', async () => {
    const error = await formatError('<OFX><BANKMSGSRSV1><STMTTRNRS><STMTRS><CURDEF>US Dollar</STMTRS></STMTTRNRS></BANKMSGSRSV1></OFX>');
    assert.match(error.message, /found "US Dollar"; expected a three-letter ISO 4217 currency code/);
  });
});

describe('OFX hostile input', () => {
  /** Yields `chunks` chunks of `chunk`, counting how many were read before the parser stopped. */
  function repeated(prefix: string, chunk: string, chunks: number, counter: { read: number }): AsyncGenerator<string> {
    return (async function* () {
      yield prefix;
      for (let index = 0; index < chunks; index++) {
        counter.read += 1;
        yield chunk;
      }
    })();
  }

  it('stops a line of several MB without a break before the header ends, having read little of it', async () => {
    const counter = { read: 0 };
    const error = await formatError(repeated('', 'x'.repeat(64 * 1024), 100, counter));
    assert.match(error.message, /^line 1: found "x{60}"… \(\d+ characters\); expected an OFX file/);
    assert.ok(counter.read <= 2, `read ${counter.read} chunks`);
  });

  it('stops a value of several MB without a break, having read little of it', async () => {
    const counter = { read: 0 };
    const error = await formatError(
      repeated('OFXHEADER:100\n<OFX><BANKMSGSRSV1><STMTTRNRS><STMTRS><BANKTRANLIST><STMTTRN><MEMO>', 'y'.repeat(64 * 1024), 100, counter),
    );
    assert.equal(error.line, 2);
    assert.match(error.message, /found a text longer than 65536 characters; expected values of at most 65536 characters/);
    assert.equal(error.xmlPath, '/OFX/BANKMSGSRSV1/STMTTRNRS[1]/STMTRS/BANKTRANLIST/STMTTRN[1]/MEMO');
    assert.ok(counter.read <= 2, `read ${counter.read} chunks`);
  });

  it('stops a tag that never ends', async () => {
    const counter = { read: 0 };
    const error = await formatError(repeated('<OFX><', 'z'.repeat(64 * 1024), 100, counter));
    assert.match(error.message, /that does not end within 4096 characters/);
    assert.ok(counter.read <= 1);
  });

  it('refuses binary junk', async () => {
    let seed = 12345;
    const random = (): number => {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      return seed;
    };
    for (let attempt = 0; attempt < 20; attempt++) {
      const junk = Buffer.from(Array.from({ length: 20_000 }, () => random() % 256)).toString('latin1');
      await formatError(junk);
      await formatError(`OFXHEADER:100\n<OFX>${junk}`);
    }
  });

  it('refuses an empty file and a file of blank lines', async () => {
    const empty = await formatError('');
    assert.equal(
      empty.message,
      'line 1: found an empty file; expected an OFX file: the OFXHEADER:100 header block of OFX 1.x, or <?xml ...?> and <?OFX ...?> of OFX 2.x, followed by <OFX>',
    );
    const blank = await formatError('\n\n  \r\n');
    assert.match(blank.message, /^line 4: found an empty file/);
    const headerOnly = await formatError('OFXHEADER:100\nDATA:OFXSGML\n');
    assert.match(headerOnly.message, /found the end of the file before <OFX>/);
  });

  it('parses 50,000 generated entries streamed in chunks', async () => {
    const count = 50_000;
    async function* generated(): AsyncGenerator<string> {
      yield 'OFXHEADER:100\nDATA:OFXSGML\n\n<OFX><BANKMSGSRSV1><STMTTRNRS><TRNUID>0<STMTRS><CURDEF>EUR<BANKACCTFROM><BANKID>1<ACCTID>ACC-1</BANKACCTFROM>\n<BANKTRANLIST><DTSTART>20240101<DTEND>20241231\n';
      let batch = '';
      for (let index = 0; index < count; index++) {
        const cents = String(index % 100).padStart(2, '0');
        const sign = index % 2 === 0 ? '-' : '';
        batch += `<STMTTRN>\n<TRNTYPE>${sign ? 'DEBIT' : 'CREDIT'}\n<DTPOSTED>20240315101500.000[+1:CET]\n<TRNAMT>${sign}${index % 1000}.${cents}\n<FITID>F${index}\n<NAME>Counterparty ${index % 97} &amp; Co\n<MEMO>Invoice ${index}\n</STMTTRN>\n`;
        if (batch.length > 60_000) {
          yield batch;
          batch = '';
        }
      }
      yield `${batch}</BANKTRANLIST><LEDGERBAL><BALAMT>0<DTASOF>20241231</LEDGERBAL></STMTRS></STMTTRNRS></BANKMSGSRSV1></OFX>\n`;
    }
    let entries = 0;
    let statements = 0;
    let last: StatementEntry | null = null;
    for await (const event of parseOfx(generated(), {})) {
      if (event.kind === 'entry') {
        entries += 1;
        last = event.entry;
      } else if (event.kind === 'statement') {
        statements += 1;
      }
    }
    assert.equal(entries, count);
    assert.equal(statements, 1);
    assert.equal(last?.uniqueId, `F${count - 1}`);
    assert.equal(last?.amount, '999.99');
    assert.equal(last?.counterpartyName, 'Counterparty 44 & Co');
    assert.equal(last?.line, 6 + (count - 1) * 8);
  });
});

describe('sniffOfx', () => {
  it('claims OFX 1.x headers, OFX 2.x declarations and bare <OFX> documents', () => {
    assert.equal(sniffOfx('OFXHEADER:100\nDATA:OFXSGML\n'), 'ofx');
    assert.equal(sniffOfx('\r\n\r\n  OFXHEADER:100\r\n'), 'ofx');
    assert.equal(sniffOfx('\u00EF\u00BB\u00BFOFXHEADER:100\n'), 'ofx');
    assert.equal(sniffOfx('<?xml version="1.0" encoding="UTF-8"?>\n<?OFX OFXHEADER="200" VERSION="211"?>\n<OFX>'), 'ofx');
    assert.equal(sniffOfx('<?xml version="1.0"?>\n<!-- export -->\n<OFX>\n'), 'ofx');
    assert.equal(sniffOfx('<OFX>\n<SIGNONMSGSRSV1>'), 'ofx');
  });

  it('does not claim camt, MT940, MT942, BAI2 or CSV', () => {
    assert.equal(sniffOfx('<?xml version="1.0" encoding="UTF-8"?>\n<Document xmlns="urn:iso:std:iso:20022:tech:xsd:camt.053.001.08">'), null);
    assert.equal(sniffOfx('{1:F01BANKDEFFXXXX0000000000}{2:I940BANKDEFFXXXXN}{4:\n:20:STARTUMS\n'), null);
    assert.equal(sniffOfx(':20:STARTUMS\n:25:10020030/1234567\n:28C:1/1\n:34F:EURD0,\n'), null);
    assert.equal(sniffOfx('01,121000358,GSBI,240102,0200,1,,,2/\n02,GSBI,121000358,1,240101,,USD,2/\n'), null);
    assert.equal(sniffOfx('Date,Amount,Description\n2024-01-02,-5.00,"<OFX> in a cell"\n'), null);
    assert.equal(sniffOfx(''), null);
  });
});

describe('declaredOfxEncoding', () => {
  it('reads CHARSET:1252 of an OFX 1.x header as windows-1252', () => {
    assert.equal(declaredOfxEncoding('OFXHEADER:100\r\nDATA:OFXSGML\r\nVERSION:102\r\nENCODING:USASCII\r\nCHARSET:1252\r\n\r\n<OFX>'), 'windows-1252');
  });

  it('reads ENCODING:UTF-8 of an OFX 1.x header as utf-8', () => {
    assert.equal(declaredOfxEncoding('OFXHEADER:100\nDATA:OFXSGML\nVERSION:160\nENCODING:UTF-8\nCHARSET:NONE\n\n<OFX>'), 'utf-8');
  });

  it('reads ISO-8859-1 and the XML declaration of OFX 2.x', () => {
    assert.equal(declaredOfxEncoding('OFXHEADER:100\nENCODING:USASCII\nCHARSET:ISO-8859-1\n<OFX>'), 'iso-8859-1');
    assert.equal(declaredOfxEncoding('<?xml version="1.0" encoding="UTF-8" standalone="no"?>\n<?OFX OFXHEADER="200"?>'), 'utf-8');
    assert.equal(declaredOfxEncoding("<?xml version='1.0' encoding='windows-1252'?><OFX>"), 'windows-1252');
  });

  it('answers null when nothing usable is declared', () => {
    assert.equal(declaredOfxEncoding('OFXHEADER:100\nENCODING:USASCII\nCHARSET:NONE\n<OFX>'), null);
    assert.equal(declaredOfxEncoding('OFXHEADER:100\nDATA:OFXSGML\n<OFX>'), null);
    assert.equal(declaredOfxEncoding('OFXHEADER:100\nENCODING:USASCII\nCHARSET:KLINGON\n<OFX>'), null);
    assert.equal(declaredOfxEncoding('<?xml version="1.0"?><OFX>'), null);
    assert.equal(declaredOfxEncoding('<?xml version="1.0" encoding="no-such-thing"?><OFX>'), null);
    assert.equal(declaredOfxEncoding('<OFX><SIGNONMSGSRSV1>'), null);
  });
});
