import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import { addDecimals } from '../../money.ts';
import { ImportFormatError, type ParseEvent, type StatementBalance, type StatementEntry } from '../statement-entries.ts';
import { textChunks } from '../text.ts';
import { BAI2_LIMITS, directionOfTypeCode, parseBai2, sniffBai2, typeNameOfCode } from './bai2.ts';

const FIXTURES = new URL('../../../../test/fixtures/imports/bai2/', import.meta.url);

function fixture(name: string): string {
  // BAI2 files are plain ASCII; latin1 reads any byte without failing.
  return readFileSync(new URL(name, FIXTURES), 'latin1');
}

async function collect(text: AsyncIterable<string>): Promise<ParseEvent[]> {
  const events: ParseEvent[] = [];
  for await (const event of parseBai2(text, {})) events.push(event);
  return events;
}

function parse(text: string, chunkSize?: number): Promise<ParseEvent[]> {
  return collect(textChunks(text, chunkSize));
}

function entriesOf(events: ParseEvent[]): StatementEntry[] {
  return events.flatMap((event) => (event.kind === 'entry' ? [event.entry] : []));
}

function statementsOf(events: ParseEvent[]) {
  return events.flatMap((event) => (event.kind === 'statement' ? [event.statement] : []));
}

function warningsOf(events: ParseEvent[]) {
  return events.flatMap((event) => (event.kind === 'warning' ? [{ line: event.line, message: event.message }] : []));
}

/** Asserts that parsing fails with an ImportFormatError on `line` whose message matches `pattern`. */
async function assertRefused(text: string, line: number | null, pattern: RegExp): Promise<void> {
  await assert.rejects(parse(text, 7), (error: unknown) => {
    assert.ok(error instanceof ImportFormatError, `expected an ImportFormatError, got ${String(error)}`);
    assert.equal(error.line, line, error.message);
    assert.match(error.message, pattern);
    return true;
  });
}

/** A small valid file around the given account records, with its trailers added up. */
function fileAround(accountLines: string[], options: { groupCurrency?: string } = {}): string {
  return [
    '01,SENDER,RECEIVER,240301,0800,T1,,,2/',
    `02,RECEIVER,SENDER,1,240229,2400,${options.groupCurrency ?? 'USD'},2/`,
    ...accountLines,
    '98,TOTAL,1,GROUPRECORDS/',
    '99,TOTAL,1,FILERECORDS/',
  ].join('\n');
}

/** Fills the control totals and record counts of a file made by fileAround (one account). */
function withTrailers(text: string, total: string): string {
  const lines = text.split('\n');
  const accountRecords = lines.length - 4;
  return text
    .replace('49,TOTAL,ACCOUNTRECORDS/', `49,${total},${accountRecords}/`)
    .replace('98,TOTAL,1,GROUPRECORDS/', `98,${total},1,${accountRecords + 2}/`)
    .replace('99,TOTAL,1,FILERECORDS/', `99,${total},1,${accountRecords + 4}/`);
}

interface Golden {
  file: string;
  statements: number;
  entries: number;
  sum: string;
  balances: Array<{ opening: StatementBalance | null; closing: StatementBalance | null }>;
  first: StatementEntry;
  last: StatementEntry;
  warnings: Array<{ line: number | null; message: RegExp }>;
}

const GOLDEN: Golden[] = [
  {
    file: 'spec-section3.bai2',
    statements: 1,
    entries: 1,
    sum: '15000.00',
    balances: [{ opening: { amount: '5000.00', date: '2004-06-20' }, closing: null }],
    first: {
      line: 4,
      statementIndex: 0,
      bookingDate: '2004-06-20',
      bookingTimeMs: null,
      valueDate: null,
      amount: '15000.00',
      currency: 'USD',
      description: 'DEALER PAYMENTS',
      type: 'ACH credit',
      reference: null,
      bankReference: 'DD1620',
      endToEndId: null,
      counterpartyName: null,
      counterpartyAccount: null,
      bankTransactionCode: '165',
      accountId: '0975312468',
      statementId: '1/2004-06-20/0975312468',
      reversal: false,
      uniqueId: 'DD1620',
      extra: {},
    },
    last: {
      line: 4,
      statementIndex: 0,
      bookingDate: '2004-06-20',
      bookingTimeMs: null,
      valueDate: null,
      amount: '15000.00',
      currency: 'USD',
      description: 'DEALER PAYMENTS',
      type: 'ACH credit',
      reference: null,
      bankReference: 'DD1620',
      endToEndId: null,
      counterpartyName: null,
      counterpartyAccount: null,
      bankTransactionCode: '165',
      accountId: '0975312468',
      statementId: '1/2004-06-20/0975312468',
      reversal: false,
      uniqueId: 'DD1620',
      extra: {},
    },
    warnings: [],
  },
  {
    file: 'spec-examples-four-groups.bai2',
    statements: 5,
    entries: 4,
    sum: '309500.00',
    balances: [
      { opening: { amount: '43500.00', date: '2004-06-20' }, closing: null },
      { opening: { amount: '-5000.00', date: '2004-06-20' }, closing: null },
      { opening: { amount: '100000.00', date: '2004-06-20' }, closing: null },
      { opening: { amount: '5000.00', date: '2004-06-20' }, closing: null },
      { opening: { amount: '8000.00', date: '2004-06-20' }, closing: null },
    ],
    first: {
      line: 5,
      statementIndex: 0,
      bookingDate: '2004-06-20',
      bookingTimeMs: null,
      valueDate: null,
      amount: '4500.00',
      currency: 'USD',
      description: null,
      type: 'lockbox deposit',
      reference: null,
      bankReference: null,
      endToEndId: null,
      counterpartyName: null,
      counterpartyAccount: null,
      bankTransactionCode: '115',
      accountId: '0123456789',
      statementId: '1/2004-06-20/0123456789',
      reversal: false,
      uniqueId: null,
      extra: {},
    },
    last: {
      line: 18,
      statementIndex: 2,
      bookingDate: '2004-06-20',
      bookingTimeMs: null,
      valueDate: null,
      amount: '100000.00',
      currency: 'USD',
      description: null,
      type: 'wire transfer in',
      reference: null,
      bankReference: null,
      endToEndId: null,
      counterpartyName: null,
      counterpartyAccount: null,
      bankTransactionCode: '195',
      accountId: '4589761203',
      statementId: '1/2004-06-20/4589761203',
      reversal: false,
      uniqueId: null,
      extra: {},
    },
    warnings: [{ line: 26, message: /correction \(group status 3\)/ }],
  },
  {
    file: 'td-bank-cad.bai2',
    statements: 2,
    entries: 17,
    sum: '0.00',
    balances: [
      { opening: null, closing: null },
      { opening: null, closing: null },
    ],
    first: {
      line: 5,
      statementIndex: 0,
      bookingDate: '2006-03-17',
      bookingTimeMs: null,
      valueDate: '2006-03-16',
      amount: '-25.00',
      currency: 'CAD',
      description: 'RETURNED CHEQUE',
      type: 'debit',
      reference: null,
      bankReference: null,
      endToEndId: null,
      counterpartyName: null,
      counterpartyAccount: null,
      bankTransactionCode: '409',
      accountId: '10200123456',
      statementId: '001/2006-03-17/10200123456',
      reversal: false,
      uniqueId: null,
      extra: {},
    },
    last: {
      line: 24,
      statementIndex: 1,
      bookingDate: '2006-03-17',
      bookingTimeMs: null,
      valueDate: '2006-03-17',
      amount: '-5.00',
      currency: 'CAD',
      description: 'GALERIES RICHELIEU',
      type: 'debit',
      reference: null,
      bankReference: null,
      endToEndId: null,
      counterpartyName: null,
      counterpartyAccount: null,
      bankTransactionCode: '409',
      accountId: '10200123456',
      statementId: '001/2006-03-17/10200123456',
      reversal: false,
      uniqueId: null,
      extra: {},
    },
    warnings: [],
  },
  {
    file: 'svb-two-days.bai2',
    statements: 2,
    entries: 2,
    sum: '13959.96',
    balances: [
      { opening: { amount: '347269.79', date: '2022-02-01' }, closing: { amount: '352171.75', date: '2022-02-01' } },
      { opening: { amount: '352171.75', date: '2022-02-02' }, closing: { amount: '361229.75', date: '2022-02-02' } },
    ],
    first: {
      line: 7,
      statementIndex: 0,
      bookingDate: '2022-02-01',
      bookingTimeMs: null,
      valueDate: null,
      amount: '4901.96',
      currency: 'USD',
      description: 'SOME PAYMENT ACH OFFSET',
      type: 'ACH credit',
      reference: null,
      bankReference: '172629',
      endToEndId: null,
      counterpartyName: null,
      counterpartyAccount: null,
      bankTransactionCode: '142',
      accountId: '1234567890',
      statementId: '1/2022-02-01/1234567890',
      reversal: false,
      uniqueId: '172629',
      extra: {},
    },
    last: {
      line: 16,
      statementIndex: 1,
      bookingDate: '2022-02-02',
      bookingTimeMs: null,
      valueDate: null,
      amount: '9058.00',
      currency: 'USD',
      description: 'SOME PAYMENT ACH OFFSET',
      type: 'ACH credit',
      reference: null,
      bankReference: '150675',
      endToEndId: null,
      counterpartyName: null,
      counterpartyAccount: null,
      bankTransactionCode: '142',
      accountId: '1234567890',
      statementId: '1/2022-02-02/1234567890',
      reversal: false,
      uniqueId: '150675',
      extra: {},
    },
    warnings: [],
  },
  {
    file: 'citidirect-gbp.bai2',
    statements: 1,
    entries: 1,
    sum: '0.01',
    balances: [{ opening: { amount: '100.00', date: '2015-07-15' }, closing: { amount: '100.00', date: '2015-07-15' } }],
    first: {
      line: 4,
      statementIndex: 0,
      bookingDate: '2015-07-15',
      bookingTimeMs: null,
      valueDate: '2015-07-15',
      amount: '0.01',
      currency: 'GBP',
      description:
        'FR:FP SIP INCOMING ENDT:20150715 TRID:RP12312312312312 PY:RP1231231231231200                 A1234BC 22/03/66 BI:22222222 ' +
        'OB:111111 BUCKINGHAM PALACE OB3:BARCLAYS BANK PLC BO:11111111 BO1:DOE JO',
      type: 'internal transfer in',
      reference: 'RP12312312312312',
      bankReference: '1234567890',
      endToEndId: null,
      counterpartyName: null,
      counterpartyAccount: null,
      bankTransactionCode: '191',
      accountId: '77777777',
      statementId: '00131100/2015-07-15/77777777',
      reversal: false,
      uniqueId: '1234567890',
      extra: {},
    },
    last: {
      line: 4,
      statementIndex: 0,
      bookingDate: '2015-07-15',
      bookingTimeMs: null,
      valueDate: '2015-07-15',
      amount: '0.01',
      currency: 'GBP',
      description:
        'FR:FP SIP INCOMING ENDT:20150715 TRID:RP12312312312312 PY:RP1231231231231200                 A1234BC 22/03/66 BI:22222222 ' +
        'OB:111111 BUCKINGHAM PALACE OB3:BARCLAYS BANK PLC BO:11111111 BO1:DOE JO',
      type: 'internal transfer in',
      reference: 'RP12312312312312',
      bankReference: '1234567890',
      endToEndId: null,
      counterpartyName: null,
      counterpartyAccount: null,
      bankTransactionCode: '191',
      accountId: '77777777',
      statementId: '00131100/2015-07-15/77777777',
      reversal: false,
      uniqueId: '1234567890',
      extra: {},
    },
    warnings: [],
  },
  {
    file: 'natwest-gbp.bai2',
    statements: 1,
    entries: 5,
    sum: '-26.76',
    balances: [{ opening: { amount: '365.21', date: '2009-12-16' }, closing: { amount: '338.45', date: '2009-12-16' } }],
    first: {
      line: 5,
      statementIndex: 0,
      bookingDate: '2009-12-16',
      bookingTimeMs: null,
      valueDate: null,
      amount: '-9.71',
      currency: 'GBP',
      description: 'LVP XBANKGO24007664SJ LVP INT 2 USAXBANKGO24007664SJ LVP INT 2 USARELAY TFR',
      type: 'debit',
      reference: null,
      bankReference: null,
      endToEndId: null,
      counterpartyName: null,
      counterpartyAccount: null,
      bankTransactionCode: '699',
      accountId: '88888888 600004',
      statementId: '2215/2009-12-16/88888888 600004',
      reversal: false,
      uniqueId: null,
      extra: {},
    },
    last: {
      line: 13,
      statementIndex: 0,
      bookingDate: '2009-12-16',
      bookingTimeMs: null,
      valueDate: null,
      amount: '0.89',
      currency: 'GBP',
      description: 'TFR XBANKGO24007680SJ CAT JPY 2 GBPXBANKGO24007680BGC INTERNATIONAL-5373 CLIE NT SECCY AC TFR',
      type: 'credit',
      reference: null,
      bankReference: null,
      endToEndId: null,
      counterpartyName: null,
      counterpartyAccount: null,
      bankTransactionCode: '399',
      accountId: '88888888 600004',
      statementId: '2215/2009-12-16/88888888 600004',
      reversal: false,
      uniqueId: null,
      extra: {},
    },
    warnings: [],
  },
  {
    file: 'written-funds-types-crlf.bai2',
    statements: 1,
    entries: 9,
    sum: '2558.21',
    balances: [{ opening: { amount: '10000.00', date: '2024-02-29' }, closing: { amount: '12558.21', date: '2024-02-29' } }],
    first: {
      line: 4,
      statementIndex: 0,
      bookingDate: '2024-02-29',
      bookingTimeMs: null,
      valueDate: null,
      amount: '1000.00',
      currency: 'USD',
      description: 'Wire from ACME, Inc. / March invoice 1001',
      type: 'wire transfer in',
      reference: 'INV-1001',
      bankReference: 'WIRE001',
      endToEndId: null,
      counterpartyName: null,
      counterpartyAccount: null,
      bankTransactionCode: '195',
      accountId: '111222333',
      statementId: 'FT240301/2024-02-29/111222333',
      reversal: false,
      uniqueId: 'WIRE001',
      extra: {},
    },
    last: {
      line: 13,
      statementIndex: 0,
      bookingDate: '2024-02-29',
      bookingTimeMs: null,
      valueDate: null,
      amount: '-1000.00',
      currency: 'USD',
      description: 'ACH debit payroll',
      type: 'ACH debit',
      reference: 'PAYROLL-0324',
      bankReference: 'ACH008',
      endToEndId: null,
      counterpartyName: null,
      counterpartyAccount: null,
      bankTransactionCode: '451',
      accountId: '111222333',
      statementId: 'FT240301/2024-02-29/111222333',
      reversal: false,
      uniqueId: 'ACH008',
      extra: {},
    },
    warnings: [{ line: 14, message: /type code 890 carries information, not money.*"Detail reports will be delayed until 11:00 AM\."/i }],
  },
  {
    file: 'written-currencies.bai2',
    statements: 3,
    entries: 7,
    sum: '-123997.000',
    balances: [
      { opening: { amount: '-2500.00', date: '2024-03-01' }, closing: { amount: '-1500.00', date: '2024-03-01' } },
      { opening: { amount: '5000000', date: '2024-03-01' }, closing: { amount: '4875000', date: '2024-03-01' } },
      { opening: { amount: '1234.567', date: '2024-03-01' }, closing: { amount: '1237.567', date: '2024-03-01' } },
    ],
    first: {
      line: 4,
      statementIndex: 0,
      bookingDate: '2024-03-01',
      bookingTimeMs: null,
      valueDate: null,
      amount: '1000.00',
      currency: 'EUR',
      description: 'SEPA credit from Muster GmbH',
      type: 'wire transfer in',
      reference: 'RF18539007547034',
      bankReference: 'EUR001',
      endToEndId: null,
      counterpartyName: null,
      counterpartyAccount: null,
      bankTransactionCode: '195',
      accountId: 'DE44500105175407324931',
      statementId: 'FX240302/2024-03-01/DE44500105175407324931',
      reversal: false,
      uniqueId: 'EUR001',
      extra: {},
    },
    last: {
      line: 17,
      statementIndex: 2,
      bookingDate: '2024-03-01',
      bookingTimeMs: null,
      valueDate: null,
      amount: '3.000',
      currency: 'KWD',
      description: 'Debit reversal',
      type: 'debit reversal',
      reference: null,
      bankReference: 'REV1',
      endToEndId: null,
      counterpartyName: null,
      counterpartyAccount: null,
      bankTransactionCode: '252',
      accountId: 'KW-ACC-3',
      statementId: 'FX240302/2024-03-01/KW-ACC-3',
      reversal: true,
      uniqueId: 'REV1',
      extra: {},
    },
    warnings: [{ line: 11, message: /correction \(group status 3\)/ }],
  },
];

describe('parseBai2 golden files', () => {
  for (const golden of GOLDEN) {
    it(`reads ${golden.file}`, async () => {
      const events = await parse(fixture(golden.file), 7);
      const entries = entriesOf(events);
      const statements = statementsOf(events);
      assert.equal(statements.length, golden.statements);
      assert.equal(entries.length, golden.entries);
      assert.equal(addDecimals(...entries.map((entry) => entry.amount)), golden.sum);
      assert.deepEqual(
        statements.map((statement) => ({ opening: statement.openingBalance, closing: statement.closingBalance })),
        golden.balances,
      );
      assert.deepEqual(entries[0], golden.first);
      assert.deepEqual(entries.at(-1), golden.last);
      const warnings = warningsOf(events);
      assert.equal(warnings.length, golden.warnings.length, JSON.stringify(warnings));
      golden.warnings.forEach((expected, index) => {
        assert.equal(warnings[index]!.line, expected.line);
        assert.match(warnings[index]!.message, expected.message);
      });
      // Every entry names its statement, account and currency, and follows its statement's index.
      for (const entry of entries) {
        const statement = statements[entry.statementIndex]!;
        assert.equal(entry.accountId, statement.accountId);
        assert.equal(entry.statementId, statement.statementId);
        assert.equal(entry.currency, statement.currency);
      }
    });

    it(`reads ${golden.file} the same whatever the chunk size`, async () => {
      const text = fixture(golden.file);
      const whole = await parse(text);
      assert.deepEqual(await parse(text, 7), whole);
      assert.deepEqual(await parse(text, 1), whole);
    });
  }

  it('yields each statement after its last entry, in file order', async () => {
    const events = await parse(fixture('spec-examples-four-groups.bai2'));
    const order = events.flatMap((event) =>
      event.kind === 'entry' ? [`entry ${event.entry.line}`] : event.kind === 'statement' ? [`statement ${event.statement.line}`] : [],
    );
    assert.deepEqual(order, ['entry 5', 'statement 3', 'entry 10', 'statement 7', 'entry 16', 'entry 18', 'statement 14', 'statement 22', 'statement 27']);
  });
});

describe('parseBai2 control totals', () => {
  const refusals: Array<{ file: string; line: number; message: RegExp }> = [
    {
      file: 'malformed-account-total.bai2',
      line: 5,
      message:
        /found account control total 72000100 \(720001\.00 USD\) in the account trailer \(49\); expected 72000000 \(720000\.00 USD\), the sum of the amounts of the 03 and 16 records/,
    },
    {
      file: 'malformed-group-total.bai2',
      line: 20,
      message: /found group control total 180000001 in the group trailer \(98\); expected 180000000, the sum of the account control totals \(49\)/,
    },
    {
      file: 'malformed-file-total.bai2',
      line: 31,
      message: /found file control total 345450100 in the file trailer \(99\); expected 345450000, the sum of the group control totals \(98\)/,
    },
    {
      file: 'malformed-account-record-count.bai2',
      line: 12,
      message: /found number of records 3 in the account trailer \(49\); expected 10, .*continuations \(88\) included/,
    },
    { file: 'malformed-group-account-count.bai2', line: 12, message: /found number of accounts 3 in the group trailer \(98\); expected 2/ },
    { file: 'malformed-group-record-count.bai2', line: 10, message: /found number of records 6 in the group trailer \(98\); expected 9/ },
    { file: 'malformed-file-group-count.bai2', line: 20, message: /found number of groups 3 in the file trailer \(99\); expected 2/ },
    { file: 'malformed-file-record-count.bai2', line: 18, message: /found number of records 12 in the file trailer \(99\); expected 18/ },
    { file: 'goldman-sachs-wrong-totals.bai2', line: 22, message: /found account control total -1260161341762 .*; expected 7999960 \(79999\.60 USD\)/ },
  ];
  for (const refusal of refusals) {
    it(`refuses ${refusal.file}`, async () => {
      await assertRefused(fixture(refusal.file), refusal.line, refusal.message);
    });
  }

  it('adds status and summary amounts of the 03 as signed, and 16 amounts as written', async () => {
    // 010 is negative and 040 positive: the account total is -1000 + 2500 + 300 = 1800.
    const text = withTrailers(fileAround(['03,55,,010,-1000,,,040,+2500,,/', '16,495,300,0,REF,,Wire out/', '49,TOTAL,ACCOUNTRECORDS/']), '1800');
    const events = await parse(text);
    assert.equal(entriesOf(events)[0]!.amount, '-3.00');
    await assertRefused(text.replace('49,1800,', '49,1200,'), 5, /account control total 1200 .*expected 1800/);
  });

  it('counts continuations in the record counts of all three trailers', async () => {
    const text = fixture('citidirect-gbp.bai2');
    assert.equal(statementsOf(await parse(text)).length, 1);
    await assertRefused(text.replace('98,20001,1,12/', '98,20001,1,5/'), 13, /number of records 5 in the group trailer \(98\); expected 12/);
    await assertRefused(text.replace('99,20001,1,14', '99,20001,1,7'), 14, /number of records 7 in the file trailer \(99\); expected 14/);
  });
});

describe('parseBai2 details', () => {
  it('places implied decimals by currency: two for USD and EUR, none for JPY, three for KWD', async () => {
    const entries = entriesOf(await parse(fixture('written-currencies.bai2')));
    assert.deepEqual(
      entries.map((entry) => [entry.currency, entry.amount]),
      [
        ['EUR', '1000.00'],
        ['JPY', '-125000'],
        ['KWD', '-2.500'],
        ['KWD', '2.500'],
        ['KWD', '100.000'],
        ['KWD', '-100.000'],
        ['KWD', '3.000'],
      ],
    );
    const citi = entriesOf(await parse(fixture('citidirect-gbp.bai2')));
    assert.equal(citi[0]!.amount, '0.01');
  });

  it('signs amounts by the type code ranges and names the common codes', async () => {
    const codes = ['100', '399', '400', '699', '720', '759', '760', '799', '900', '919', '920', '999'];
    const lines = codes.map((code) => `16,${code},100,0,R${code},,code ${code}/`);
    const text = withTrailers(fileAround(['03,77,/', ...lines, '49,TOTAL,ACCOUNTRECORDS/']), String(100 * codes.length));
    const entries = entriesOf(await parse(text));
    assert.deepEqual(
      entries.map((entry) => [entry.bankTransactionCode, entry.amount, entry.type]),
      [
        ['100', '1.00', 'other credit'],
        ['399', '1.00', 'credit'],
        ['400', '-1.00', 'other debit'],
        ['699', '-1.00', 'debit'],
        ['720', '1.00', 'loan payment'],
        ['759', '1.00', 'loan payment'],
        ['760', '-1.00', 'loan disbursement'],
        ['799', '-1.00', 'loan disbursement'],
        ['900', '1.00', 'bank-defined credit'],
        ['919', '1.00', 'bank-defined credit'],
        ['920', '-1.00', 'bank-defined debit'],
        ['999', '-1.00', 'bank-defined debit'],
      ],
    );
    assert.equal(directionOfTypeCode(705), 'none');
    assert.equal(directionOfTypeCode(890), 'none');
    assert.equal(typeNameOfCode(475), 'check paid');
    assert.equal(typeNameOfCode(195), 'wire transfer in');
    assert.equal(typeNameOfCode(115), 'lockbox deposit');
    assert.equal(typeNameOfCode(142), 'ACH credit');
    assert.equal(typeNameOfCode(698), 'fee');
  });

  it('refuses a detail type code outside 100–999, and an amount on a code that carries no money', async () => {
    const base = (line: string) => withTrailers(fileAround(['03,77,/', line, '49,TOTAL,ACCOUNTRECORDS/']), '100');
    await assertRefused(
      base('16,050,100,0,,,Status code/'),
      4,
      /type code "050" in the transaction detail \(16\); expected a detail type code from 100 to 999/,
    );
    await assertRefused(
      base('16,1000,100,0,,,Four digits/'),
      4,
      /type code "1000" in the transaction detail \(16\); expected a three-digit detail type code from 100 to 999/,
    );
    await assertRefused(base('16,,100,0,,,No code/'), 4, /type code "" in the transaction detail \(16\)/);
    await assertRefused(
      base('16,890,100,0,,,Information with money/'),
      4,
      /type code 890 with amount "100" in a transaction detail \(16\); expected a credit .* or debit .* type code/,
    );
    await assertRefused(base('16,705,100,0,,,Loan status/'), 4, /type code 705 with amount "100"/);
  });

  it('joins 88 continuations of a 16 text, and reads fields a 16 left to its continuation', async () => {
    // The specification's example: the 16 ends after its funds type, the first 88 carries both
    // references and the start of the text, the second continues the text.
    const text = withTrailers(
      fileAround([
        '03,77,/',
        '16,115,10000000,S,5000000,4000000,1000000/',
        '88,AX13612,B096132,AMALGAMATED CORP. LOCKBOX',
        '88,DEPOSIT-MISC. RECEIVABLES',
        '49,TOTAL,ACCOUNTRECORDS/',
      ]),
      '10000000',
    );
    const [entry] = entriesOf(await parse(text));
    assert.equal(entry!.bankReference, 'AX13612');
    assert.equal(entry!.reference, 'B096132');
    assert.equal(entry!.description, 'AMALGAMATED CORP. LOCKBOX DEPOSIT-MISC. RECEIVABLES');
    assert.equal(entry!.amount, '100000.00');
    assert.equal(entry!.line, 4);
  });

  it('reads an 03 summary continued in 88 records exactly as the same summary on one line', async () => {
    const oneLine = withTrailers(fileAround(['03,77,,010,-500000,,,100,1000000,,,015,500000,,,190,700000,4,0/', '49,TOTAL,ACCOUNTRECORDS/']), '1700000');
    // Broken in the middle of a group (after the type code 100) and between groups.
    const continued = withTrailers(
      fileAround(['03,77,,010,-500000,,,100/', '88,1000000,,,015,500000,,/', '88,190,700000,4,0/', '49,TOTAL,ACCOUNTRECORDS/']),
      '1700000',
    );
    const single = statementsOf(await parse(oneLine));
    const split = statementsOf(await parse(continued));
    assert.deepEqual(split, single);
    assert.deepEqual(split[0]!.openingBalance, { amount: '-5000.00', date: '2024-02-29' });
    assert.deepEqual(split[0]!.closingBalance, { amount: '5000.00', date: '2024-02-29' });
  });

  it('drops the empty type code some banks leave before a continuation of the 03', async () => {
    // "015,35217175,,,/" has one field too many: the next 88 starts its own group with 040.
    const statements = statementsOf(await parse(fixture('svb-two-days.bai2')));
    assert.deepEqual(statements[0]!.closingBalance, { amount: '352171.75', date: '2022-02-01' });
  });

  it('reads several groups and several accounts, one statement per account', async () => {
    const statements = statementsOf(await parse(fixture('spec-examples-four-groups.bai2')));
    assert.deepEqual(
      statements.map((statement) => [statement.statementIndex, statement.line, statement.accountId, statement.statementId, statement.currency]),
      [
        [0, 3, '0123456789', '1/2004-06-20/0123456789', 'USD'],
        [1, 7, '9876543210', '1/2004-06-20/9876543210', 'USD'],
        [2, 14, '4589761203', '1/2004-06-20/4589761203', 'USD'],
        [3, 22, '0975312468', '1/2004-06-20/0975312468', 'USD'],
        [4, 27, '7890654321', '1/2004-06-20/7890654321', 'USD'],
      ],
    );
  });

  it('reads the fields of every funds type: 0, 1, 2, V, S, D, Z and none', async () => {
    const entries = entriesOf(await parse(fixture('written-funds-types-crlf.bai2')));
    // The references come out right only when the extra fields of each funds type were skipped.
    assert.deepEqual(
      entries.map((entry) => [entry.bankTransactionCode, entry.bankReference, entry.reference, entry.valueDate]),
      [
        ['195', 'WIRE001', 'INV-1001', null],
        ['142', 'ACH002', null, null],
        ['115', 'LBX003', 'BOX 7/2024', null],
        ['175', 'CHK004', 'DEP-77', '2024-03-01'],
        ['206', 'BOOK005', null, null],
        ['301', 'DEP006', 'CUST6', null],
        ['399', null, null, null],
        ['475', 'CHK007', '1042', null],
        ['451', 'ACH008', 'PAYROLL-0324', null],
      ],
    );
    assert.equal(entries[5]!.description, 'Deposit with distributed availability');
  });

  it('reads funds type D with no distributions and refuses malformed funds types', async () => {
    const base = (line: string, total = '500') => withTrailers(fileAround(['03,77,/', line, '49,TOTAL,ACCOUNTRECORDS/']), total);
    const [entry] = entriesOf(await parse(base('16,195,500,D,0,BANKREF,CUSTREF,Text/')));
    assert.equal(entry!.bankReference, 'BANKREF');
    assert.equal(entry!.description, 'Text');
    await assertRefused(
      base('16,195,500,X,BANKREF,,Text/'),
      4,
      /funds type "X" of type code 195 in the transaction detail \(16\); expected a funds type 0, 1, 2/,
    );
    await assertRefused(base('16,195,500,D,two,1,500,BANKREF,,Text/'), 4, /number of distributions of funds type D "two" in the transaction detail \(16\)/);
    await assertRefused(base('16,195,500,D,100,BANKREF/'), 4, new RegExp(`100 distributions of funds type D.*at most ${BAI2_LIMITS.maxDistributionCount}`));
    await assertRefused(
      base('16,195,500,V,240230,,BANKREF,,Text/'),
      4,
      /value date of funds type V "240230" in the transaction detail \(16\); expected a real calendar date written YYMMDD/,
    );
    await assertRefused(base('16,195,500,V,240301,2561,BANKREF,,Text/'), 4, /value time of funds type V "2561"/);
    await assertRefused(base('16,195,500,S,1O0,200,200,BANKREF,,Text/'), 4, /immediate availability amount of funds type S "1O0"/);
  });

  it("takes the group's currency when the 03 leaves it empty, and USD when the group does too", async () => {
    const statements = statementsOf(await parse(fixture('written-currencies.bai2')));
    assert.equal(statements[0]!.currency, 'EUR');
    assert.equal(statements[2]!.currency, 'KWD');
    assert.equal(statementsOf(await parse(fixture('spec-section3.bai2')))[0]!.currency, 'USD');
    // The NatWest group gives no currency, its account says GBP.
    assert.equal(statementsOf(await parse(fixture('natwest-gbp.bai2')))[0]!.currency, 'GBP');
  });

  it('keeps commas and slashes inside the text, references and account text', async () => {
    const entries = entriesOf(await parse(fixture('written-funds-types-crlf.bai2')));
    assert.equal(entries[0]!.description, 'Wire from ACME, Inc. / March invoice 1001');
    assert.equal(entries[2]!.reference, 'BOX 7/2024');
    assert.equal(entries[2]!.description, 'LOCKBOX 12/2024, BATCH 3');
    const yen = entriesOf(await parse(fixture('written-currencies.bai2'))).find((entry) => entry.currency === 'JPY');
    assert.equal(yen!.reference, 'PO-88/7');
  });

  it('reads records that end early with "/": the remaining fields take their defaults', async () => {
    const entries = entriesOf(await parse(fixture('written-funds-types-crlf.bai2')));
    const early = entries.find((entry) => entry.line === 11)!;
    assert.deepEqual([early.amount, early.bankReference, early.reference, early.description, early.uniqueId], ['15.00', null, null, null, null]);
    const noText = entries.find((entry) => entry.line === 12)!;
    assert.deepEqual([noText.amount, noText.bankReference, noText.reference, noText.description], ['-456.79', 'CHK007', '1042', null]);
    // The 03 on line 3 ends after the item count of its last group: the funds type defaults.
    assert.deepEqual(statementsOf(await parse(fixture('written-funds-types-crlf.bai2')))[0]!.closingBalance, { amount: '12558.21', date: '2024-02-29' });
  });

  it('reads CRLF, LF and CR line ends alike', async () => {
    const crlf = fixture('written-funds-types-crlf.bai2');
    assert.ok(crlf.includes('\r\n'));
    const expected = await parse(crlf, 1);
    assert.deepEqual(await parse(crlf.replaceAll('\r\n', '\n'), 7), expected);
    assert.deepEqual(await parse(crlf.replaceAll('\r\n', '\r'), 3), expected);
  });

  it('warns about correction and test groups, and about information-only details', async () => {
    const test = fixture('spec-section3.bai2').replace('02,031001234,122099999,1,', '02,031001234,122099999,4,');
    const warnings = warningsOf(await parse(test));
    assert.equal(warnings.length, 1);
    assert.equal(warnings[0]!.line, 2);
    assert.match(warnings[0]!.message, /test only \(group status 4\)/);
  });

  it('reads a file with padding after the "/", a byte-order mark and blank lines', async () => {
    const text = fixture('spec-section3.bai2')
      .split('\n')
      .map((line) => line.padEnd(80, ' '))
      .join('\n\n');
    const padded = await parse(`\ufeff${text}`);
    const plain = await parse(fixture('spec-section3.bai2'));
    assert.deepEqual(
      entriesOf(padded).map(({ line, ...rest }) => rest),
      entriesOf(plain).map(({ line, ...rest }) => rest),
    );
  });

  it('reads a second file after the first file trailer', async () => {
    const one = fixture('spec-section3.bai2').trimEnd();
    const events = await parse(`${one}\n${one.replace('040621,0200,1,', '040621,0300,2,')}\n`);
    assert.deepEqual(
      statementsOf(events).map((statement) => [statement.statementIndex, statement.statementId]),
      [
        [0, '1/2004-06-20/0975312468'],
        [1, '2/2004-06-20/0975312468'],
      ],
    );
  });
});

describe('parseBai2 refusals', () => {
  const section3 = fixture('spec-section3.bai2');

  it('refuses a 16 before any 03', async () => {
    const text = section3.replace('03,0975312468,,010,500000,,,190,70000000,4,0/\n', '');
    await assertRefused(
      text,
      3,
      /found a transaction detail \(16\) outside any account; expected an account identifier \(03\) before the account's transaction details/,
    );
  });

  it('refuses a 49 without an open account', async () => {
    const text = section3.replace('49,72000000,3/', '49,72000000,3/\n49,0,1/');
    await assertRefused(text, 6, /found an account trailer \(49\) outside any account; expected an account identifier \(03\)/);
  });

  it('refuses records out of their place', async () => {
    await assertRefused(section3.replace('98,72000000,1,5/\n', ''), 6, /file trailer \(99\) inside the group begun at line 2; expected .*group trailer \(98\)/);
    await assertRefused(
      section3.replace('49,72000000,3/\n', ''),
      5,
      /group trailer \(98\) inside the account begun at line 3; expected .*account trailer \(49\)/,
    );
    await assertRefused(`${section3}16,165,1,1,,,x/\n`, 8, /transaction detail \(16\) after the file trailer \(99\) at line 7/);
    await assertRefused(
      '02,031001234,122099999,1,040620,2359,,2/\n',
      1,
      /group header \(02\) before the file header; expected a BAI2 file starting with its file header record "01"/,
    );
  });

  it('refuses a file without 99, naming the last line read', async () => {
    const text = section3.replace('99,72000000,1,7/\n', '');
    await assertRefused(text, 6, /found the end of the file after line 6 \("98,72000000,1,5\/"\); expected the file trailer record "99"/);
    await assertRefused(
      fixture('truncated-td-bank.bai2'),
      20,
      /end of the file after line 20 .*expected the file trailer record "99"; the file looks cut short/,
    );
  });

  it('refuses a record of unknown type and a line that is no record', async () => {
    await assertRefused(
      section3.replace('49,72000000,3/', '17,72000000,3/'),
      5,
      /found record type "17" .*; expected one of the BAI2 record types 01, 02, 03, 16, 88, 49, 98, 99/,
    );
    // (After a record that ended with "/": after one that did not, the line would be more of its text.)
    await assertRefused(
      section3.replace(', DEALER PAYMENTS', ', DEALER PAYMENTS/').replace('49,72000000,3/', '88:EREF: 07370568132'),
      5,
      /found "88:EREF: 07370568132"; expected a BAI2 record: a two-digit record code followed by a comma/,
    );
  });

  it('refuses a non-numeric amount', async () => {
    await assertRefused(
      section3.replace('16,165,1500000,', '16,165,15000.00,'),
      4,
      /found amount "15000\.00" in the transaction detail \(16\); expected an unsigned whole number in the smallest unit/,
    );
    await assertRefused(section3.replace('16,165,1500000,', '16,165,-1500000,'), 4, /found amount "-1500000" in the transaction detail \(16\)/);
    await assertRefused(section3.replace('010,500000,', '010,5O0000,'), 3, /found amount of type code 010 "5O0000" in the account identifier \(03\)/);
    await assertRefused(
      section3.replace('49,72000000,', '49,72O00000,'),
      5,
      /found account control total "72O00000" in the account trailer \(49\); expected a whole number/,
    );
    await assertRefused(section3.replace('16,165,1500000,', `16,165,${'9'.repeat(19)},`), 4, /at most 18 digits/);
    await assertRefused(section3.replace('16,165,1500000,', '16,165,,'), 4, /transaction detail \(16\) of type code 165 without an amount/);
  });

  it('refuses a bad date and a time that is no time', async () => {
    await assertRefused(
      section3.replace(',040620,2359,', ',240230,2359,'),
      2,
      /found as-of date "240230" in the group header \(02\); expected a real calendar date written YYMMDD/,
    );
    await assertRefused(section3.replace('040621,0200,', '041321,0200,'), 1, /file creation date "041321" in the file header \(01\)/);
    await assertRefused(section3.replace('040621,0200,', '040621,14:61,'), 1, /file creation time "14:61" in the file header \(01\); expected a time HHMM/);
    await assertRefused(section3.replace(',040620,2359,', ',,2359,'), 2, /as-of date "" in the group header \(02\)/);
  });

  it('refuses what it cannot read: another version, a deletion group, a bad currency, an empty account number', async () => {
    await assertRefused(section3.replace('0200,1,,,2/', '0200,1,,,3/'), 1, /version number "3" in the file header \(01\); expected version number "2"/);
    await assertRefused(section3.replace('02,031001234,122099999,1,', '02,031001234,122099999,2,'), 2, /group status 2 \(deletion\)/);
    await assertRefused(section3.replace('2359,,2/', '2359,usd,2/'), 2, /currency code "usd" in the group header \(02\)/);
    await assertRefused(section3.replace('03,0975312468,,', '03,0975312468,DOLLARS,'), 3, /currency code "DOLLARS" in the account identifier \(03\)/);
    await assertRefused(section3.replace('03,0975312468,,', '03,,,'), 3, /an empty account number in the account identifier \(03\)/);
    await assertRefused(section3.replace('2359,,2/', '2359,,7/'), 2, /as-of-date modifier "7"/);
  });

  it('refuses a transaction text beyond its limit', async () => {
    const continuation = `88,${'x'.repeat(1000)}`;
    const lines = Array.from({ length: Math.ceil(BAI2_LIMITS.maxTextLength / 1000) + 1 }, () => continuation);
    const text = withTrailers(fileAround(['03,77,/', '16,195,100,0,REF,,Start', ...lines, '49,TOTAL,ACCOUNTRECORDS/']), '100');
    await assert.rejects(parse(text), /a transaction text longer than 65536 characters in the transaction detail \(16\) begun at line 4/);
  });
});

describe('parseBai2: files as banks write them', () => {
  const section3 = fixture('spec-section3.bai2');

  it('reads a time written with colons or seconds, and warns once', async () => {
    const events = await parse(section3.replace('040621,0200,', '040621,14:59:35,').replace(',040620,2359,', ',040620,235959,'));
    assert.deepEqual(
      entriesOf(events).map((entry) => entry.amount),
      ['15000.00'],
    );
    const warnings = warningsOf(events);
    assert.equal(warnings.length, 1, JSON.stringify(warnings));
    assert.equal(warnings[0]!.line, 1);
    assert.match(warnings[0]!.message, /file creation time "14:59:35" in the file header \(01\) is not written HHMM.*read as 14:59.*changes no entry/);
  });

  it('reads several records on one physical line, each ending with "/", and says so', async () => {
    const oneLine = section3.replace('2/\n02,', '2/   02,').replace('3/\n98,', '3/ 98,').replace('5/\n99,', '5/  99,');
    const events = await parse(oneLine);
    assert.deepEqual(
      entriesOf(events),
      entriesOf(await parse(section3)).map((entry) => ({ ...entry, line: entry.line - 1 })),
    );
    assert.equal(statementsOf(events).length, 1);
    assert.match(warningsOf(events)[0]!.message, /line 1 holds 2 records, each ending with "\/"; they are read one after the other/);
  });

  it('reads the version written with a leading zero', async () => {
    assert.equal(entriesOf(await parse(section3.replace('0200,1,,,2/', '0200,1,,,02/'))).length, 1);
  });

  it('reads a line without a record code as more text of the record before it when that record did not end with "/"', async () => {
    const events = await parse(section3.replace(', DEALER PAYMENTS', ', DEALER PAYMENTS\nFOR JUNE  /'));
    assert.equal(entriesOf(events)[0]!.description, 'DEALER PAYMENTS FOR JUNE');
    assert.match(warningsOf(events)[0]!.message, /line 5 has no record code.*read as more of that record's text/);
    // After a record that ended with "/", such a line is not a record: it is refused.
    await assertRefused(section3.replace(', DEALER PAYMENTS', ', DEALER PAYMENTS/\nFOR JUNE  /'), 5, /a BAI2 record: a two-digit record code/);
  });

  it('takes an empty control total as not given: the amounts are imported as written, and a warning says so', async () => {
    const events = await parse(section3.replace('49,72000000,3/', '49,,3/'));
    assert.deepEqual(
      entriesOf(events).map((entry) => entry.amount),
      ['15000.00'],
    );
    assert.match(warningsOf(events)[0]!.message, /account trailer \(49\) on line 5 gives no control total/);
    // The group's total is still checked against what the account's records add up to.
    await assertRefused(section3.replace('49,72000000,3/', '49,,3/').replace('98,72000000,', '98,72000001,'), 6, /group control total 72000001/);
  });
});

describe('parseBai2 hostile input', () => {
  it('refuses an empty file', async () => {
    await assertRefused('', null, /found an empty file; expected a BAI2 file/);
    await assertRefused('\n\r\n  \n', null, /found an empty file/);
  });

  it('refuses binary junk at its first line', async () => {
    let seed = 12345;
    let junk = '';
    for (let index = 0; index < 200_000; index++) {
      seed = (seed * 1103515245 + 12345) & 0x7fffffff;
      junk += String.fromCharCode(seed % 256);
    }
    await assert.rejects(parse(junk, 4096), (error: unknown) => {
      assert.ok(error instanceof ImportFormatError);
      assert.match(error.message, /is this a BAI2 file\?|line longer than/);
      return true;
    });
  });

  it('refuses a line of several megabytes without buffering it', async () => {
    async function* hugeLine(): AsyncGenerator<string> {
      yield '01,SENDER,RECEIVER,240301,0800,T1,,,2/\n16,';
      const block = 'x'.repeat(64 * 1024);
      for (let index = 0; index < 80; index++) yield block;
    }
    await assert.rejects(collect(hugeLine()), (error: unknown) => {
      assert.ok(error instanceof ImportFormatError);
      assert.equal(error.line, 2);
      assert.match(error.message, /a line longer than 65536 characters; expected lines of at most 65536 characters in BAI2/);
      return true;
    });
  });
});

describe('parseBai2 performance', () => {
  it('streams 50,000 entries from a generated file', async () => {
    const accounts = 50;
    const entriesPerAccount = 1000;
    async function* syntheticFile(): AsyncGenerator<string> {
      yield '01,SYNBANK,RECONCORP,240301,0100,SYN1,,,2/\n02,RECONCORP,SYNBANK,1,240229,2400,USD,2/\n';
      let groupTotal = 0n;
      for (let account = 0; account < accounts; account++) {
        let net = 0n;
        let gross = 0n;
        for (let index = 0; index < entriesPerAccount; index++) {
          const units = BigInt((index % 997) + 1);
          net += index % 2 === 0 ? units : -units;
          gross += units;
        }
        const lines = [`03,${1_000_000 + account},,010,0,,,015,${net},,/`];
        for (let index = 0; index < entriesPerAccount; index++) {
          const code = index % 2 === 0 ? 195 : 495;
          lines.push(`16,${code},${(index % 997) + 1},0,B${account}-${index},C${index},Payment ${index}, invoice ${index}/`);
        }
        const accountTotal = net + gross;
        lines.push(`49,${accountTotal},${entriesPerAccount + 2}/`);
        groupTotal += accountTotal;
        yield `${lines.join('\n')}\n`;
      }
      const groupRecords = accounts * (entriesPerAccount + 2) + 2;
      yield `98,${groupTotal},${accounts},${groupRecords}/\n99,${groupTotal},1,${groupRecords + 2}/\n`;
    }
    let entries = 0;
    let statements = 0;
    let last: StatementEntry | null = null;
    for await (const event of parseBai2(syntheticFile(), {})) {
      if (event.kind === 'entry') {
        entries += 1;
        last = event.entry;
      } else if (event.kind === 'statement') {
        statements += 1;
      }
    }
    assert.equal(entries, accounts * entriesPerAccount);
    assert.equal(statements, accounts);
    // The last entry has index 999: odd, so a debit (495) of (999 % 997) + 1 = 3 cents.
    assert.equal(last!.amount, '-0.03');
    assert.equal(last!.uniqueId, `B${accounts - 1}-${entriesPerAccount - 1}`);
  });
});

describe('sniffBai2', () => {
  it('recognises a file whose first line holds the group header too', () => {
    assert.equal(sniffBai2('01,103100195,103100195,220919,2112,4,,,2/   02,103100195,103100195,1,220919,2400,USD,2/\n03,1111111,,010,-3500,,,/\n'), 'bai2');
  });

  it('recognises every BAI2 fixture, with or without a byte-order mark', () => {
    for (const name of [
      'spec-section3.bai2',
      'td-bank-cad.bai2',
      'svb-two-days.bai2',
      'citidirect-gbp.bai2',
      'natwest-gbp.bai2',
      'written-funds-types-crlf.bai2',
      'goldman-sachs-wrong-totals.bai2',
    ]) {
      assert.equal(sniffBai2(fixture(name).slice(0, 4096)), 'bai2', name);
    }
    assert.equal(sniffBai2(`\u00ef\u00bb\u00bf${fixture('spec-section3.bai2')}`), 'bai2');
    assert.equal(sniffBai2(`\n\r\n${fixture('spec-section3.bai2')}`), 'bai2');
    // A later version is claimed too, so that the parser names the version it cannot read.
    assert.equal(sniffBai2('01,SENDER,RECEIVER,240301,0800,1,,,3/\n'), 'bai2');
  });

  it('claims no other format', () => {
    const others = [
      '',
      '<?xml version="1.0" encoding="UTF-8"?>\n<Document xmlns="urn:iso:std:iso:20022:tech:xsd:camt.053.001.08"><BkToCstmrStmt>',
      'OFXHEADER:100\nDATA:OFXSGML\nVERSION:102\n\n<OFX><SIGNONMSGSRSV1>',
      '<?xml version="1.0"?>\n<?OFX OFXHEADER="200" VERSION="220"?>\n<OFX>',
      ':20:STARTUMSE\n:25:10020030/1234567\n:28C:00001/001\n:60F:C240229EUR1000,00\n',
      '{1:F01BANKDEFFXXXX0000000000}{2:I940BANKDEFFXXXXN}{4:\n:20:REF\n-}',
      'date,amount,description\n2024-03-01,12.50,Coffee\n',
      '01,02,03,04,05,06,07,08,09\n',
      '01,SENDER,RECEIVER,240301,0800,1,,,two/\n',
    ];
    for (const head of others) assert.equal(sniffBai2(head), null, head.slice(0, 30));
  });
});
