import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import iconv from 'iconv-lite';
import { addDecimals } from '../../money.ts';
import { ImportFormatError, type ParseEvent, type StatementEntry, type StatementSummary } from '../statement-entries.ts';
import { textChunks } from '../text.ts';
import { SWIFT_MT_GOLDEN as GOLDEN } from '../../../../test/fixtures/imports/swift-mt-golden.ts';
import { parseSwiftMt, sniffSwiftMt, SWIFT_MT_LIMITS, type SwiftMtOptions } from './swift-mt.ts';

const FIXTURES = fileURLToPath(new URL('../../../../test/fixtures/imports/', import.meta.url));

function fixture(file: string, encoding = 'utf8'): string {
  return iconv.decode(readFileSync(`${FIXTURES}${file}`), encoding);
}

async function collect(text: string | AsyncIterable<string>, options: SwiftMtOptions = {}, chunkSize = 64 * 1024): Promise<ParseEvent[]> {
  const events: ParseEvent[] = [];
  for await (const event of parseSwiftMt(typeof text === 'string' ? textChunks(text, chunkSize) : text, options)) events.push(event);
  return events;
}

function entriesOf(events: ParseEvent[]): StatementEntry[] {
  return events.flatMap((event) => (event.kind === 'entry' ? [event.entry] : []));
}

function statementsOf(events: ParseEvent[]): StatementSummary[] {
  return events.flatMap((event) => (event.kind === 'statement' ? [event.statement] : []));
}

function warningsOf(events: ParseEvent[]): string[] {
  return events.flatMap((event) => (event.kind === 'warning' ? [event.message] : []));
}

async function entries(text: string, options: SwiftMtOptions = {}): Promise<StatementEntry[]> {
  return entriesOf(await collect(text, options));
}

/** Asserts that parsing fails with an ImportFormatError on `line` whose message matches every pattern. */
async function rejects(text: string | AsyncIterable<string>, line: number | null, patterns: RegExp[], options: SwiftMtOptions = {}): Promise<void> {
  await assert.rejects(collect(text, options), (error: unknown) => {
    assert.ok(error instanceof ImportFormatError, `expected an ImportFormatError, got ${String(error)}`);
    assert.equal(error.line, line, error.message);
    for (const pattern of patterns) assert.match(error.message, pattern);
    return true;
  });
}

/** A minimal MT940 statement around the given entry lines. */
function mt940(body: string, { opening = 'C240101EUR1000,00', closing = 'C240131EUR1000,00', account = 'DE89370400440532013000' } = {}): string {
  return `:20:STMT-1\n:25:${account}\n:28C:00001/001\n:60F:${opening}\n${body}${body === '' ? '' : '\n'}:62F:${closing}\n-\n`;
}

/** A minimal MT942 report around the given entry lines. */
function mt942(body: string, totals = ''): string {
  return `:20:REPORT-1\n:25:DE89370400440532013000\n:28C:00001/001\n:34F:EUR0,\n:13D:2401021200+0100\n${body}${body === '' ? '' : '\n'}${totals}${totals === '' ? '' : '\n'}-\n`;
}

describe('SWIFT MT940/MT942 fixtures', () => {
  for (const golden of GOLDEN) {
    const format = golden.file.startsWith('mt942/') ? 'mt942' : 'mt940';

    it(`reads ${golden.file}`, async () => {
      const events = await collect(fixture(golden.file, golden.encoding), { format });
      const found = entriesOf(events);
      const statements = statementsOf(events);
      assert.deepEqual(warningsOf(events), golden.warnings ?? []);
      assert.equal(statements.length, golden.statements);
      assert.equal(found.length, golden.entries);
      assert.equal(addDecimals(...found.map((entry) => entry.amount)), golden.sum);
      assert.deepEqual(
        statements.map((statement) => [statement.openingBalance, statement.closingBalance]),
        golden.balances,
      );
      if (golden.first) assert.deepEqual(found[0], golden.first);
      if (golden.last) assert.deepEqual(found.at(-1), golden.last);
      // Each statement comes right after its own entries, and every entry carries its statement's identity.
      let statementsSeen = 0;
      for (const event of events) {
        if (event.kind === 'statement') {
          assert.equal(event.statement.statementIndex, statementsSeen);
          statementsSeen += 1;
        } else if (event.kind === 'entry') {
          const statement = statements[event.entry.statementIndex]!;
          assert.equal(event.entry.statementIndex, statementsSeen);
          assert.equal(event.entry.accountId, statement.accountId);
          assert.equal(event.entry.statementId, statement.statementId);
          assert.equal(event.entry.currency, statement.currency);
          assert.equal(event.entry.uniqueId, null);
          assert.equal(event.entry.bookingTimeMs, null);
        }
      }
    });

    it(`reads ${golden.file} the same in chunks of 7 characters and of 1`, async () => {
      const text = fixture(golden.file, golden.encoding);
      const whole = await collect(text, { format });
      assert.deepEqual(await collect(text, { format }, 7), whole);
      assert.deepEqual(await collect(text, { format }, 1), whole);
    });

    it(`sniffs ${golden.file} as ${format}`, () => {
      const head = readFileSync(`${FIXTURES}${golden.file}`, 'latin1').slice(0, 4096);
      assert.equal(sniffSwiftMt(head), format);
    });
  }
});

describe('amounts and marks', () => {
  it('reads the decimal comma: "1250," is 1250.00 and "0,5" is 0.50, with the currency\'s minor-unit digits', async () => {
    const found = await entries(
      mt940([':61:240115D1250,NTRFNONREF', ':61:240115C0,5NMSCNONREF', ':61:240115C000000000025,00NMSCNONREF', ':61:240115C7,125NMSCNONREF'].join('\n')),
    );
    assert.deepEqual(
      found.map((entry) => entry.amount),
      ['-1250.00', '0.50', '25.00', '7.125'],
    );
    const events = await collect(mt940(':61:240115C1250,NTRFNONREF', { opening: 'C240101JPY0,', closing: 'C240131JPY1250,' }));
    assert.equal(entriesOf(events)[0]!.amount, '1250');
    assert.equal(entriesOf(events)[0]!.currency, 'JPY');
    assert.deepEqual(statementsOf(events)[0]!.openingBalance, { amount: '0', date: '2024-01-01' });
    assert.deepEqual(statementsOf(events)[0]!.closingBalance, { amount: '1250', date: '2024-01-31' });
  });

  it('signs debit balances negative', async () => {
    const [statement] = statementsOf(await collect(mt940('', { opening: 'D240101EUR0,5', closing: 'D240131EUR1250,' })));
    assert.deepEqual(statement!.openingBalance, { amount: '-0.50', date: '2024-01-01' });
    assert.deepEqual(statement!.closingBalance, { amount: '-1250.00', date: '2024-01-31' });
  });

  it('reads RC as a reversed credit (money out) and RD as a reversed debit (money in)', async () => {
    const found = await entries(
      mt940([':61:240115RC100,00NTRFNONREF', ':61:240115RD40,NTRFNONREF', ':61:240115D1,NTRFNONREF', ':61:240115C2,NTRFNONREF'].join('\n')),
    );
    assert.deepEqual(
      found.map((entry) => entry.amount),
      ['-100.00', '40.00', '-1.00', '2.00'],
    );
    assert.deepEqual(
      found.map((entry) => entry.reversal),
      [true, true, false, false],
    );
  });

  it('reads the funds code letter after the mark, also after RC and RD', async () => {
    const found = await entries(
      mt940([':61:2401150115CR300,NTRFNONREF', ':61:2401150115RCR204,88NRTINONREF', ':61:240115DR20,00N037NONREF', ':61:240115RDR5,NRTINONREF'].join('\n')),
    );
    assert.deepEqual(
      found.map((entry) => [entry.amount, entry.reversal]),
      [
        ['300.00', false],
        ['-204.88', true],
        ['-20.00', false],
        ['5.00', true],
      ],
    );
  });

  it('tolerates the space some banks write between amount and transaction type', async () => {
    const [entry] = await entries(mt940(':61:2006080608D12,35 NRTIKREF+//2016021783252833'));
    assert.equal(entry!.amount, '-12.35');
    assert.equal(entry!.bankTransactionCode, 'NRTI');
    assert.equal(entry!.bankReference, '2016021783252833');
  });

  it('yields the balances as written when the entries do not add up: the importer flags it', async () => {
    const events = await collect(mt940(':61:240115C1,NTRFNONREF', { opening: 'C240101EUR1000,00', closing: 'C240131EUR5000,00' }));
    assert.deepEqual(warningsOf(events), []);
    assert.deepEqual(statementsOf(events)[0]!.openingBalance, { amount: '1000.00', date: '2024-01-01' });
    assert.deepEqual(statementsOf(events)[0]!.closingBalance, { amount: '5000.00', date: '2024-01-31' });
  });
});

describe('dates', () => {
  it('books an entry date across the year boundary in the year closest to the value date, both ways', async () => {
    const found = await entries(
      mt940([':61:2312310102C10,NTRFNONREF', ':61:2401021231D10,NTRFNONREF', ':61:2403010229C1,NMSCNONREF', ':61:2401150116C1,NMSCNONREF'].join('\n')),
    );
    assert.deepEqual(
      found.map((entry) => [entry.valueDate, entry.bookingDate]),
      [
        ['2023-12-31', '2024-01-02'],
        ['2024-01-02', '2023-12-31'],
        ['2024-03-01', '2024-02-29'],
        ['2024-01-15', '2024-01-16'],
      ],
    );
  });

  it('books an entry without entry date on its value date', async () => {
    const [entry] = await entries(mt940(':61:240115C10,NTRFNONREF'));
    assert.equal(entry!.valueDate, '2024-01-15');
    assert.equal(entry!.bookingDate, '2024-01-15');
    assert.equal(entry!.bookingTimeMs, null);
  });

  it('reads two-digit years 00–79 as 20YY and 80–99 as 19YY', async () => {
    const found = await entries(
      mt940([':61:991231C1,NMSCNONREF', ':61:000101C1,NMSCNONREF', ':61:791231C1,NMSCNONREF', ':61:800101C1,NMSCNONREF'].join('\n'), {
        opening: 'C991230EUR0,',
      }),
    );
    assert.deepEqual(
      found.map((entry) => entry.valueDate),
      ['1999-12-31', '2000-01-01', '2079-12-31', '1980-01-01'],
    );
  });

  it('ignores the MT942 date-time :13D: for entries: it is the report time', async () => {
    const [entry] = await entries(mt942(':61:2401020102C10,NTRFNONREF'));
    assert.equal(entry!.bookingDate, '2024-01-02');
    assert.equal(entry!.bookingTimeMs, null);
  });
});

describe('references and types', () => {
  it('takes the :61: reference unless it is NONREF, and the bank reference after //', async () => {
    const found = await entries(
      mt940([':61:240115C10,NTRFINV-2024-7//BANK-1', ':61:240115C10,NTRFNONREF//BANK-2', ':61:240115C10,FMSC01916//NONREF'].join('\n')),
    );
    assert.deepEqual(
      found.map((entry) => [entry.reference, entry.bankReference]),
      [
        ['INV-2024-7', 'BANK-1'],
        [null, 'BANK-2'],
        ['01916', null],
      ],
    );
  });

  it('puts the :61: type code in words into type and as written into bankTransactionCode when :86: has none', async () => {
    const found = await entries(
      mt940([':61:240115C10,NTRFNONREF', ':61:240115D10,NCHGNONREF', ':61:240115D10,S103NONREF', ':61:240115D10,N192NONREF'].join('\n')),
    );
    assert.deepEqual(
      found.map((entry) => [entry.type, entry.bankTransactionCode]),
      [
        ['transfer', 'NTRF'],
        ['charges and other expenses', 'NCHG'],
        ['SWIFT MT103', 'S103'],
        [null, 'N192'],
      ],
    );
  });

  it('follows a :61: reference that only names a keyword (KREF+, EREF, PREF) to its value in :86:', async () => {
    const found = await entries(
      mt940(
        [
          ':61:240115D10,NTRFKREF+//B1',
          ':86:116?00SEPA-UEBERWEISUNG?20EREF+NOTPROVIDED?21KREF+BATCH-0315?22SVWZ+Salaries',
          ':61:240115D10,NTRFPREF//B2',
          ':86:/PREF/SEPA-20240115-P1//REMI/USTD//TOTAAL 5 POSTEN/',
          ':61:240115D10,NTRFKREF+//B3',
        ].join('\n'),
      ),
    );
    assert.deepEqual(
      found.map((entry) => [entry.reference, entry.endToEndId]),
      [
        ['BATCH-0315', null],
        ['SEPA-20240115-P1', null],
        [null, null],
      ],
    );
  });

  it('keeps the account of :25: as written, without a trailing currency, and uses that currency when nothing else gives one', async () => {
    const accounts: Array<string | null> = [];
    for (const account of ['51210600/9223382012EUR', 'NL91ABNA0417164300EUR', 'NL91ABNA0417164300', 'TRIODOSBANK/0390123456']) {
      accounts.push(statementsOf(await collect(mt940('', { account })))[0]!.accountId);
    }
    assert.deepEqual(accounts, ['51210600/9223382012', 'NL91ABNA0417164300', 'NL91ABNA0417164300', 'TRIODOSBANK/0390123456']);
    const report = `{1:F01BANKDEFFAXXX0000000000}{2:I942BANKDEFFXXXXN}{4:\n:20:R1\n:25:51210600/9223382012EUR\n:28C:1/1\n:61:240115C10,NTRFNONREF\n-}\n`;
    const events = await collect(report);
    assert.equal(entriesOf(events)[0]!.currency, 'EUR');
    assert.equal(statementsOf(events)[0]!.currency, 'EUR');
  });

  it('uses the :20: reference as statement id when :28C: is missing', async () => {
    const [statement] = statementsOf(await collect(':20:STMT-20\n:25:DE89370400440532013000\n:60F:C240101EUR1,\n:62F:C240101EUR1,\n'));
    assert.equal(statement!.statementId, 'STMT-20');
  });
});

describe(':86: information to account owner', () => {
  it('reads German subfields: ?00 type, ?20–?29 purpose with EREF+ and SVWZ+, ?30/?31 account, ?32/?33 name, GVC code', async () => {
    const [entry] = await entries(
      mt940(
        [
          ':61:2401150115C1250,NTRFNONREF//BANKREF-1',
          ':86:166?00SEPA-GUTSCHRIFT?109310?20EREF+INV-2024-0042?21KREF+ORDER-77?22SVWZ+Invoice 2024-0042, th',
          '?23ank you?24ABWA+Muster Holding?30COBADEFFXXX?31DE44500105175407324931?32Muster Handel Gesellschaf',
          '?33t mbH?34997',
        ].join('\n'),
      ),
    );
    assert.deepEqual(
      {
        type: entry!.type,
        bankTransactionCode: entry!.bankTransactionCode,
        endToEndId: entry!.endToEndId,
        reference: entry!.reference,
        description: entry!.description,
        counterpartyName: entry!.counterpartyName,
        counterpartyAccount: entry!.counterpartyAccount,
        ultimateDebtorName: entry!.ultimateDebtorName,
        bankReference: entry!.bankReference,
      },
      {
        type: 'SEPA-GUTSCHRIFT',
        bankTransactionCode: '166',
        endToEndId: 'INV-2024-0042',
        reference: 'INV-2024-0042',
        description: 'Invoice 2024-0042, thank you',
        counterpartyName: 'Muster Handel Gesellschaft mbH',
        counterpartyAccount: 'DE44500105175407324931',
        // A credit transfer's ABWA+ is the party on whose behalf the payer paid.
        ultimateDebtorName: 'Muster Holding',
        bankReference: 'BANKREF-1',
      },
    );
  });

  it('joins German lines without a separator, even when a subfield code is cut by the line break, and reads ?60–?63', async () => {
    const [entry] = await entries(
      mt940(
        [
          ':61:240115D10,NDDTNONREF',
          ':86:105?00FOLGELASTSCHRIFT?20EREF+124565?21MREF+124565?22C',
          'RED+DE20ZZZ00000013480?23SVWZ+Rechnung 4711 vom Ja?6',
          '0nuar 2024?61, Kundennummer 8',
          '15',
        ].join('\n'),
      ),
    );
    assert.equal(entry!.description, 'Rechnung 4711 vom Januar 2024, Kundennummer 815');
    assert.equal(entry!.endToEndId, '124565');
  });

  it('combines a bank code ?30 and an account number ?31 that is no IBAN as bank/account', async () => {
    const [entry] = await entries(
      mt940([':61:240115D10,NTRFNONREF', ':86:116?00UEBERWEISUNG?20SVWZ+Miete Januar?3037040044?310532013000?32Hausverwaltung Nord'].join('\n')),
    );
    assert.equal(entry!.counterpartyAccount, '37040044/0532013000');
    assert.equal(entry!.counterpartyName, 'Hausverwaltung Nord');
  });

  it('takes the purpose lines as they are when they hold no SEPA keyword, and the booking text when there are none', async () => {
    const found = await entries(
      mt940(
        [
          ':61:240115D10,NMSCNONREF',
          ':86:106?00KARTENZAHLUNG?20Referenz 6542049848?21Terminal 65420498',
          ':61:240115D10,NMSCNONREF',
          ':86:116?00SEPA-UEBERW/STORNO?100399',
        ].join('\n'),
      ),
    );
    assert.deepEqual(
      found.map((entry) => [entry.description, entry.type]),
      [
        ['Referenz 6542049848Terminal 65420498', 'KARTENZAHLUNG'],
        ['SEPA-UEBERW/STORNO', 'SEPA-UEBERW/STORNO'],
      ],
    );
  });

  it('ends a keyword value at a purpose subfield that opens with a bank marker such as MTLG:', async () => {
    const [entry] = await entries(
      mt940([':61:240115C10,NTRFNONREF', ':86:159?00RETOURE?20EREF+TFNR 40005 00005?21MTLG:Grund nicht s', 'pezifiziert?34914'].join('\n')),
    );
    assert.equal(entry!.endToEndId, 'TFNR 40005 00005');
    assert.equal(entry!.description, 'MTLG:Grund nicht spezifiziert');
  });

  it('reads Triodos subfields written with > instead of ?', async () => {
    const [entry] = await entries(
      mt940([':61:110101D15,70N000NONREF', ':86:000>100987654321', '>20ALGEMENE TUSSENREKENING KOS>21TEN VAN 01-10-2010>310390123456'].join('\n')),
    );
    assert.equal(entry!.description, 'ALGEMENE TUSSENREKENING KOSTEN VAN 01-10-2010');
    assert.equal(entry!.counterpartyAccount, '0390123456');
    assert.equal(entry!.bankTransactionCode, '000');
  });

  it('reads the slash keywords /EREF/ /REMI/ /NAME/ /IBAN/ /TRTP/ (ABN AMRO style)', async () => {
    const [entry] = await entries(
      mt940(
        [
          ':61:2401150115D89,95N658NONREF',
          ':86:/TRTP/SEPA Incasso algemeen doorlopend/CSID/NL71ZZZ345678900000/',
          'NAME/Energiebedrijf BV/MARF/KLANT-7788/REMI/Termijn januari/IBAN/NL2',
          '0INGB0001234567/BIC/INGBNL2A/EREF/INC-2024-01',
        ].join('\n'),
      ),
    );
    assert.deepEqual(
      [entry!.type, entry!.counterpartyName, entry!.counterpartyAccount, entry!.description, entry!.endToEndId, entry!.reference, entry!.bankTransactionCode],
      ['SEPA Incasso algemeen doorlopend', 'Energiebedrijf BV', 'NL20INGB0001234567', 'Termijn januari', 'INC-2024-01', 'INC-2024-01', 'N658'],
    );
  });

  it('reads /ORDP//NAME/, /BENM//NAME/ and /REMI/USTD// (Rabobank and ING style), and NOTPROVIDED as no reference', async () => {
    const found = await entries(
      mt940(
        [
          ':61:240115C480,NTRFNONREF',
          ':86:/EREF/NOTPROVIDED/ORDP//NAME/Fietsenmaker de Wit/ADDR/Dorpsstraat 1//REMI/USTD//Order 55120/',
          ':61:240115D99,NTRFEREF',
          ':86:/EREF/PO-7//BENM//NAME/Kantoor Oost BV/IBAN/NL39RABO0300065264/REMI/USTD//Bureaus/',
          ':61:240115C5,NTRFNONREF',
          ':86:/CNTP/NL71ABNA0841238999/ABNANL2A/GREENFLUX BV///REMI/USTD//Nr. 57 / 21.2.2023/',
        ].join('\n'),
      ),
    );
    assert.deepEqual(
      found.map((entry) => [entry.counterpartyName, entry.counterpartyAccount, entry.description, entry.reference]),
      [
        ['Fietsenmaker de Wit', null, 'Order 55120', null],
        ['Kantoor Oost BV', 'NL39RABO0300065264', 'Bureaus', 'PO-7'],
        ['GREENFLUX BV', 'NL71ABNA0841238999', 'Nr. 57 / 21.2.2023', null],
      ],
    );
  });

  it('joins slash-keyword lines without a separator, since banks cut them inside words', async () => {
    const [entry] = await entries(mt940([':61:240115D25,N102NONREF', ':86:/EREF/E-1/BENM//NAME/CONTRA ACCOUN', 'T HOLDER/REMI/Invoice 1'].join('\n')));
    assert.equal(entry!.counterpartyName, 'CONTRA ACCOUNT HOLDER');
  });

  it('joins free-text lines with a space and keeps the text as written', async () => {
    const [entry] = await entries(
      mt940([':61:240115D9,N192NONREF', ':86:GIRO   428428 KPN - DIGITENNE', '   BETREFT FACTUUR 20-05-2011  ', '', 'INCL. 1,44 BTW'].join('\n')),
    );
    assert.equal(entry!.description, 'GIRO   428428 KPN - DIGITENNE BETREFT FACTUUR 20-05-2011 INCL. 1,44 BTW');
  });

  it('uses the second :61: line as description only when there is no :86:, and a Rabobank IBAN there as counterparty account', async () => {
    const found = await entries(
      mt940(
        [
          ':61:240115D10,NTRFNONREF',
          '911-TRANSAKCJA IPH',
          ':61:240115D25,N102EREF            ',
          'NL70ABNA0987654321',
          ':86:/EREF/E-9/BENM//NAME/JOHN DOE',
        ].join('\n'),
      ),
    );
    assert.deepEqual(
      found.map((entry) => [entry.description, entry.counterpartyAccount]),
      [
        ['911-TRANSAKCJA IPH', null],
        [null, 'NL70ABNA0987654321'],
      ],
    );
  });

  it('ignores a :86: that follows no :61: (statement information after :62F:)', async () => {
    const events = await collect(':20:S\n:25:X1\n:28C:1\n:60F:C240101EUR0,\n:61:240115C1,NMSCNONREF\n:62F:C240115EUR1,\n:86:D000000C000001D0,C1,\n-\n');
    assert.equal(entriesOf(events).length, 1);
    assert.equal(entriesOf(events)[0]!.description, null);
    assert.deepEqual(warningsOf(events), []);
  });
});

describe('statement lines as banks write them', () => {
  it('keeps a reference for the account owner longer than 16 characters (a Dutch bank writes an IBAN there), with one warning', async () => {
    const events = await collect(
      mt940([':61:2001010101D65,00NOVBNL47INGB9999999999', ':61:2001010101D1,00NOVBNL47INGB9999999999//BANKREFERENCE-0000017'].join('\n')),
    );
    const found = entriesOf(events);
    assert.deepEqual(
      found.map((entry) => [entry.amount, entry.reference, entry.bankReference, entry.counterpartyAccount]),
      [
        ['-65.00', 'NL47INGB9999999999', null, 'NL47INGB9999999999'],
        ['-1.00', 'NL47INGB9999999999', 'BANKREFERENCE-0000017', 'NL47INGB9999999999'],
      ],
    );
    assert.deepEqual(warningsOf(events), [
      'Line 5: a :61: reference is longer than the 16 characters SWIFT allows; it was kept whole. The same holds for 1 more line.',
    ]);
  });

  it('reads a funds-code letter after the mark with the entry date left blank, and books the entry on its value date', async () => {
    const events = await collect(
      mt940([':61:240312    DD212,39NMSCNONREF//', ':61:240312 CD0,00NDEFNONREF//', ':61:2403120313DD5,NMSCNONREF'].join('\n'), {
        opening: 'C240311USD1000,00',
        closing: 'C240312USD782,61',
      }),
    );
    const found = entriesOf(events);
    assert.deepEqual(
      found.map((entry) => [entry.amount, entry.valueDate, entry.bookingDate, entry.reference, entry.bankReference]),
      [
        ['-212.39', '2024-03-12', '2024-03-12', null, null],
        ['0.00', '2024-03-12', '2024-03-12', null, null],
        ['-5.00', '2024-03-12', '2024-03-13', null, null],
      ],
    );
    assert.deepEqual(warningsOf(events), [
      'Line 5: the :61: statement line leaves its entry date blank; the entry is booked on its value date. The same holds for 1 more line.',
    ]);
  });

  it('keeps a transaction type code that is not N, F or S and three characters, and reads a line without any', async () => {
    const events = await collect(
      mt940([':61:2403120312D0,42MCI0NONREF//B-1', ':61:1710111011DF2402,00S   X', ':61:2011301130CN220000,00//19239782213'].join('\n')),
    );
    const found = entriesOf(events);
    assert.deepEqual(
      found.map((entry) => [entry.amount, entry.bankTransactionCode, entry.type, entry.reference, entry.bankReference]),
      [
        ['-0.42', 'MCI0', null, null, 'B-1'],
        ['-2402.00', 'S', null, 'X', null],
        ['220000.00', null, null, null, '19239782213'],
      ],
    );
    assert.deepEqual(warningsOf(events), [
      'Line 5: the :61: transaction type "MCI0" is not N, F or S followed by three characters; it was kept as written. The same holds for 1 more line.',
      'Line 7: the :61: statement line has no transaction type code (such as NTRF) after the amount; the entry was read without one.',
    ]);
  });

  it('reads a :61: broken after its mark, with the amount on the next line (Sparkassen)', async () => {
    const events = await collect(mt940([':61:1803050305DR', '1337,00N062NONREF', 'SUPPLEMENTARY', ':86:999PN5477SCHECK-NR. 0000016703074'].join('\n')));
    assert.deepEqual(
      entriesOf(events).map((entry) => [entry.amount, entry.bookingDate, entry.bankTransactionCode, entry.description]),
      [['-1337.00', '2018-03-05', 'N062', '999PN5477SCHECK-NR. 0000016703074 SUPPLEMENTARY']],
    );
    assert.deepEqual(warningsOf(events), ['Line 5: the :61: statement line breaks after its mark, before the amount; the two lines were read as one.']);
  });

  it('keeps the supplementary details (the second :61: line) in the description, after the text of :86:', async () => {
    const found = await entries(
      mt940(
        [
          ':61:240115D12,35NDDTNONREF',
          '/OCMT/EUR11,85//CHGS/EUR0,50/',
          ':86:105?00LASTSCHRIFT?20SVWZ+Strom Januar',
          ':61:240115D1,NMSCNONREF',
          'hr gjlm paulissen',
          ':86:NL47INGB9999999999 hr gjlm paulissen',
        ].join('\n'),
      ),
    );
    assert.deepEqual(
      found.map((entry) => entry.description),
      ['Strom Januar /OCMT/EUR11,85//CHGS/EUR0,50/', 'NL47INGB9999999999 hr gjlm paulissen'],
    );
  });

  it('keeps the text of a second :86: for the same entry', async () => {
    const events = await collect(
      mt940([':61:2104060406C418,37FTRFNONREF//005z001210960481', ':86:Card 5299-2132 RRN 005481324613', ':86:transf in ct.crt', 'Transfer intern'].join('\n')),
    );
    assert.equal(entriesOf(events)[0]!.description, 'Card 5299-2132 RRN 005481324613 transf in ct.crt Transfer intern');
    assert.deepEqual(warningsOf(events), ['Line 7: a second :86: follows the same :61: statement line; its text was added to the description of the entry.']);
  });

  it('reads a balance written without a currency in the statement currency, with a warning', async () => {
    const events = await collect(mt940(':61:020322CM20000,00S051', { opening: 'C020315DEM0,00', closing: 'C02032220000,00' }));
    assert.deepEqual(statementsOf(events)[0]!.closingBalance, { amount: '20000.00', date: '2002-03-22' });
    assert.equal(entriesOf(events)[0]!.currency, 'DEM');
    assert.deepEqual(warningsOf(events), ["Line 6: the balance :62F: has no currency code; it was read in DEM, the statement's currency."]);
  });
});

describe("banks' own fields and envelopes", () => {
  it('reads statements that start at the account :25: without a :20: (ABN AMRO day statements), with one warning', async () => {
    const statement = (day: string, opening: string, closing: string) =>
      `:25:NL62ABNA0123456789\n:28:${day}/1\n:60F:C2411${day}EUR${opening}\n:61:2411${day}11${day}C10,00N654NONREF\n:86:/TRTP/SEPA OVERBOEKING/NAME/J. JANSEN/REMI/Factuur ${day}/\n:62F:C2411${day}EUR${closing}\n`;
    const text = `ABNANL2A\n940\nABNANL2A\n${statement('14', '100,00', '110,00')}-\n${statement('15', '110,00', '120,00')}${statement('16', '120,00', '130,00')}-\n`;
    const events = await collect(text);
    assert.deepEqual(
      statementsOf(events).map((found) => [found.accountId, found.statementId, found.line]),
      [
        ['NL62ABNA0123456789', '14/1', 4],
        ['NL62ABNA0123456789', '15/1', 11],
        ['NL62ABNA0123456789', '16/1', 17],
      ],
    );
    assert.deepEqual(
      entriesOf(events).map((entry) => entry.description),
      ['Factuur 14', 'Factuur 15', 'Factuur 16'],
    );
    assert.deepEqual(warningsOf(events), [
      'Line 4: a statement starts with its account :25: instead of a transaction reference :20:; it was read from there. The same holds for 2 more lines.',
    ]);
  });

  it('recognises a file of statements without :20: as MT940 by the account and its opening balance', () => {
    assert.equal(sniffSwiftMt('ABNANL2A\n940\nABNANL2A\n:25:NL62ABNA0123456789\n:28:14/1\n:60F:C241114EUR100,00\n'), 'mt940');
    assert.equal(sniffSwiftMt(':25:NL62ABNA0123456789\n:28:14/1\n'), null);
  });

  it('reads :NS: fields between standard fields: left out before the balances, kept in the description after an entry', async () => {
    const text = [
      ':20:STARTUMS',
      ':25:1966315302010001',
      ':28:00046',
      ':NS:22JOHN DOE',
      '23John Doe',
      '',
      ':60F:C171011HUF627311,30',
      ':61:1710111011DF2402,00S   X',
      ':NS:01526715',
      '09Tranzakciós Illeték:7.21HUF',
      '15ERGO Versicherung AG',
      ':62F:C171011HUF624909,30',
      '',
    ].join('\n');
    const events = await collect(text);
    assert.equal(entriesOf(events)[0]!.description, '526715 Tranzakciós Illeték:7.21HUF ERGO Versicherung AG');
    assert.equal(entriesOf(events)[0]!.amount, '-2402.00');
    assert.deepEqual(warningsOf(events), [
      'Line 4: the field :NS: is not part of MT940 or MT942; it was left out.',
      'Line 8: the :61: transaction type "S   " is not N, F or S followed by three characters; it was kept as written.',
      "Line 9: the field :NS: is not part of MT940 or MT942 (a bank's own field); its text was kept in the description of the entry before it.",
    ]);
  });

  it('reads a file that begins with SOH (0x01) and ends each message with ETX (0x03), as transmission envelopes do', async () => {
    const message = (number: string) =>
      `\u0001{1:F01BANKDEFFAXXX0000000000}{2:I940BANKDEFFXXXXN}{4:\r\n:20:S${number}\r\n:25:DE89370400440532013000\r\n:28C:${number}/1\r\n:60F:C240101EUR0,\r\n:61:240115C1,NMSCNONREF\r\n:62F:C240115EUR1,\r\n-}\u0003`;
    const events = await collect(`${message('1')}\r\n${message('2')}${message('3')}`);
    assert.deepEqual(
      statementsOf(events).map((statement) => statement.statementId),
      ['1/1', '2/1', '3/1'],
    );
    assert.equal(entriesOf(events).length, 3);
    assert.deepEqual(warningsOf(events), []);
    assert.equal(sniffSwiftMt(`${message('1')}${message('2')}`), 'mt940');
  });

  it('reads the account of :25: written after a slash (Polish banks) or as BIC/account/currency (Hungarian banks)', async () => {
    const accounts: Array<[string | null, string | null]> = [];
    for (const account of ['/PL27114020040000300201355387', 'UBRTHUHB/123456789150ABCDEF002/HUF']) {
      const [statement] = statementsOf(await collect(`:20:S\n:25:${account}\n:28C:1\n:60F:C240101PLN0,\n:62F:C240101PLN0,\n`));
      accounts.push([statement!.accountId, statement!.currency]);
    }
    assert.deepEqual(accounts, [
      ['PL27114020040000300201355387', 'PLN'],
      ['UBRTHUHB/123456789150ABCDEF002', 'PLN'],
    ]);
    const [report] = statementsOf(
      await collect(
        `{1:F01BANKDEFFAXXX0000000000}{2:I942BANKDEFFXXXXN}{4:\n:20:R\n:25:UBRTHUHB/123456789150ABCDEF002/HUF\n:28C:1\n:61:240115C10,NTRFNONREF\n-}\n`,
      ),
    );
    assert.equal(report!.currency, 'HUF');
  });
});

describe(':86: subfields as banks write them', () => {
  it('reads Polish subfields separated by ~ (and ^ or <), the IBAN in ~38, and leaves out the placeholder of an empty subfield', async () => {
    const found = await entries(
      mt940(
        [
          ':61:2105260526D25,00N152NONREF//6460500500000513',
          '152 0',
          ':86:020~00152',
          '~20PRZELEW SRODKÓW',
          '~21˙',
          '~3010205561',
          '~319000361245650140',
          '~32FSDFSFDSF',
          '~33˙',
          '~38PL50102055619000361245650240',
          '~60˙',
          ':61:2105260526D10,00N073NONREF',
          ':86:073^00MD02^20Platnosc karta^32FACEBK *ABC Dublin ^33D04',
          ':61:2105260526C5,00N062NONREF',
          ':86:062<00B062<20CZYNSZ LOKAL<21 15A<32ANNA KOWALSKA<38PL61109010140000071219812874',
        ].join('\n'),
        { opening: 'D210525PLN2671,79', closing: 'D210526PLN2701,79', account: '/PL44102055610000380209739045' },
      ),
    );
    assert.deepEqual(
      found.map((entry) => [entry.description, entry.type, entry.counterpartyName, entry.counterpartyAccount, entry.bankTransactionCode, entry.accountId]),
      [
        ['PRZELEW SRODKÓW 152 0', '152', 'FSDFSFDSF', 'PL50102055619000361245650240', '020', 'PL44102055610000380209739045'],
        ['Platnosc karta', 'MD02', 'FACEBK *ABC Dublin D04', null, '073', 'PL44102055610000380209739045'],
        ['CZYNSZ LOKAL 15A', 'B062', 'ANNA KOWALSKA', 'PL61109010140000071219812874', '062', 'PL44102055610000380209739045'],
      ],
    );
  });

  it('reads subfields written without the business transaction code in front', async () => {
    const [entry] = await entries(mt940([':61:240115D10,NMSCNONREF', ':86:?00UEBERWEISUNG?20SVWZ+Miete Januar?32Hausverwaltung Nord'].join('\n')));
    assert.deepEqual(
      [entry!.description, entry!.type, entry!.counterpartyName, entry!.bankTransactionCode],
      ['Miete Januar', 'UEBERWEISUNG', 'Hausverwaltung Nord', 'NMSC'],
    );
  });

  it('fills the mandate from MREF+ and the creditor id from CRED+; in a direct debit ABWE+ is the ultimate debtor', async () => {
    const [entry] = await entries(
      mt940(
        [
          ':61:2401150115D99,00NDDTNONREF',
          ':86:105?00FOLGELASTSCHRIFT?20EREF+R0012345678?21MREF+M-K12',
          '34567890-0001?22CRED+DE63ZZZ00000012345?23SVWZ+Rechnung R001?24ABWE+Cloud Holding',
          '?25DEBT+DE98ZZZ09999999999?32Dein Cloud Provider',
        ].join('\n'),
      ),
    );
    assert.deepEqual(
      [entry!.endToEndId, entry!.mandateId, entry!.creditorId, entry!.description, entry!.reference, entry!.ultimateDebtorName, entry!.ultimateCreditorName],
      ['R0012345678', 'M-K1234567890-0001', 'DE63ZZZ00000012345', 'Rechnung R001 DEBT+DE98ZZZ09999999999', 'R0012345678', 'Cloud Holding', undefined],
    );
  });

  it('puts ABWA+ in the ultimate party of its side, never in the description: the ultimate debtor of a credit transfer, the ultimate creditor of a direct debit', async () => {
    // As a German savings bank writes a rent payment made by a property manager for the tenant:
    // the purpose cut at 27 characters, ABWA+ running over two subfields.
    const [transfer, debit] = await entries(
      mt940(
        [
          ':61:2404030403C1450,00NTRFNONREF//2024040300123',
          ':86:166?00GUTSCHR. UEBERWEISUNG?109251?20EREF+MIETE-2024-04-0815?21SVWZ+Miete April 2024 Whg.',
          ' 3 OG links?22ABWA+Erika Mustermann und Max ?23Mustermann?30DEUTDEFFXXX?31DE02100100109307118603?32Schmidt Hausverwaltung GmbH',
          '?34997',
          ':61:2404050405D39,99NDDTNONREF//2024040500456',
          ':86:105?00FOLGELASTSCHRIFT?109248?20EREF+4711-0424?21MREF+KD-4711?22CRED+DE98ZZZ09999999999?23SVWZ+Mobilfunk April?24ABWA+Netz Telekom Service',
          '?25 GmbH?30COBADEFFXXX?31DE89370400440532013000?32Netz Telekom AG',
        ].join('\n'),
      ),
    );
    const parties = (entry: typeof transfer) => ({
      description: entry!.description,
      counterpartyName: entry!.counterpartyName,
      ultimateDebtorName: entry!.ultimateDebtorName,
      ultimateCreditorName: entry!.ultimateCreditorName,
    });
    assert.deepEqual(parties(transfer), {
      description: 'Miete April 2024 Whg. 3 OG links',
      counterpartyName: 'Schmidt Hausverwaltung GmbH',
      ultimateDebtorName: 'Erika Mustermann und Max Mustermann',
      ultimateCreditorName: undefined,
    });
    assert.deepEqual(parties(debit), {
      description: 'Mobilfunk April',
      counterpartyName: 'Netz Telekom AG',
      ultimateDebtorName: undefined,
      ultimateCreditorName: 'Netz Telekom Service GmbH',
    });
  });

  it('fills the mandate from /MARF/ and the creditor id from /CSID/ in the Dutch layout', async () => {
    const [entry] = await entries(
      mt940(
        [
          ':61:2401150115D89,95N658NONREF',
          ':86:/TRTP/SEPA Incasso algemeen doorlopend/CSID/NL71ZZZ345678900000/',
          'NAME/Energiebedrijf BV/MARF/KLANT-7788/REMI/Termijn januari/EREF/INC-2024-01',
        ].join('\n'),
      ),
    );
    assert.deepEqual(
      [entry!.mandateId, entry!.creditorId, entry!.endToEndId, entry!.description],
      ['KLANT-7788', 'NL71ZZZ345678900000', 'INC-2024-01', 'Termijn januari'],
    );
  });

  it('keeps the text of a /BENM/ or /ORDP/ line layout when there is no /REMI/', async () => {
    const [entry] = await entries(
      mt940([':61:2010091009DD3245,NMSC21038855', ':86:/BENM/300000003998473', '/MAKEDONSKI TELEKOM AD - SKOPJE', '/Pl.po osnov na izvr.uslugi'].join('\n')),
    );
    assert.equal(entry!.description, '300000003998473/MAKEDONSKI TELEKOM AD - SKOPJE/Pl.po osnov na izvr.uslugi');
    assert.equal(entry!.amount, '-3245.00');
  });
});

describe('files, envelopes and line ends', () => {
  it('reads several statements per file, each after its own entries', async () => {
    const text = mt940(':61:240115C1,NMSCNONREF') + mt940(':61:240116C2,NMSCNONREF\n:61:240116D3,NMSCNONREF');
    const events = await collect(text);
    assert.deepEqual(
      events.map((event) => event.kind),
      ['entry', 'statement', 'entry', 'entry', 'statement'],
    );
    assert.deepEqual(
      entriesOf(events).map((entry) => entry.statementIndex),
      [0, 1, 1],
    );
    assert.deepEqual(
      statementsOf(events).map((statement) => statement.line),
      [1, 8],
    );
  });

  it('reads bare statements with and without a "-" line between them', async () => {
    const withSeparator = mt940(':61:240115C1,NMSCNONREF') + mt940(':61:240116C2,NMSCNONREF');
    const withoutSeparator = withSeparator.replace(/^-\n/gm, '');
    assert.equal(statementsOf(await collect(withSeparator)).length, 2);
    assert.equal(statementsOf(await collect(withoutSeparator)).length, 2);
    assert.deepEqual(
      entriesOf(await collect(withoutSeparator)).map((entry) => entry.amount),
      ['1.00', '2.00'],
    );
  });

  it('reads the envelope {1:}{2:}{3:}{4: on one line, the -} end with a {5:} trailer, and a next message on the same line', async () => {
    const text = [
      '{1:F01BANKDEFFAXXX0000000000}{2:I940BANKDEFFXXXXN}{3:{108:REF1}}{4:',
      ':20:S1',
      ':25:DE89370400440532013000',
      ':28C:1/1',
      ':60F:C240101EUR0,',
      ':61:240115C1,NMSCNONREF',
      ':62F:C240115EUR1,',
      '-}{1:F01BANKDEFFAXXX0000000000}{2:O9401200240115BANKDEFFXXXX00000000002401151200N}{4::20:S2',
      ':25:DE89370400440532013000',
      ':28C:2/1',
      ':60F:C240115EUR1,',
      ':62F:C240116EUR1,',
      '-}{5:{MAC:00000000}{CHK:000000000000}}',
      '',
    ].join('\n');
    const events = await collect(text);
    assert.deepEqual(
      statementsOf(events).map((statement) => [statement.line, statement.statementId]),
      [
        [2, '1/1'],
        [8, '2/1'],
      ],
    );
    assert.equal(entriesOf(events).length, 1);
  });

  it('reads the envelope blocks on lines of their own (ING)', async () => {
    const text =
      '{1:F01INGBNL2AXXXX00001}\n{2:I940INGBNL2AXXXN}\n{4:\n:20:MPBZ\n:25:0001234567\n:28C:000\n:60F:C100722EUR0,00\n:61:100722D25,03NOV NONREF\n:62F:C100723EUR-25,03\n-}\n';
    await rejects(text, 9, [/:62F: "C100723EUR-25,03"/]);
    const events = await collect(text.replace('EUR-25,03', 'EUR25,03'));
    assert.equal(entriesOf(events)[0]!.amount, '-25.03');
  });

  it('reads the same events with LF, CRLF and CR line ends', async () => {
    const text = mt940(':61:240115C1,NMSCNONREF\n:86:166?00GUTSCHRIFT?20EREF+E-1?21SVWZ+Invoice\n 42') + mt940(':61:240116D2,NMSCNONREF');
    const lf = await collect(text);
    assert.deepEqual(await collect(text.replace(/\n/g, '\r\n')), lf);
    assert.deepEqual(await collect(text.replace(/\n/g, '\r')), lf);
    assert.deepEqual(await collect(text.replace(/\n/g, '\r\n'), {}, 1), lf);
    assert.equal(entriesOf(lf)[0]!.description, 'Invoice 42');
  });

  it('skips the file header lines of ABN AMRO, Rabobank and ING between statements', async () => {
    const text = `ABNANL2A\n940\nABNANL2A\n${mt940('')}:940:\n${mt940('')}0000 01INGBNL2AXXXX00001\n940 00\n${mt940('')}-XXX\n`;
    assert.equal(statementsOf(await collect(text)).length, 3);
  });
});

describe('MT942', () => {
  it('checks :90D: and :90C: against the entries, counting RC as a debit and RD as a credit', async () => {
    const body = [':61:2401020102D10,NTRFNONREF', ':61:2401020102RC5,50NTRFNONREF', ':61:2401020102C30,50NTRFNONREF', ':61:2401020102RD1,NTRFNONREF'].join(
      '\n',
    );
    const events = await collect(mt942(body, ':90D:2EUR15,50\n:90C:2EUR31,50'), { format: 'mt942' });
    assert.equal(entriesOf(events).length, 4);
    assert.deepEqual(statementsOf(events)[0], {
      statementIndex: 0,
      line: 1,
      accountId: 'DE89370400440532013000',
      statementId: '00001/001',
      currency: 'EUR',
      openingBalance: null,
      closingBalance: null,
    });
  });

  it('refuses a report whose :90D: count does not match its debit entries, naming the :90D: line', async () => {
    const text = mt942(':61:2401020102D10,NTRFNONREF', ':90D:2EUR10,\n:90C:0EUR0,');
    await rejects(text, 7, [
      /line 7: found :90D: announcing 2 debit entries totalling 10 EUR/,
      /expected the 1 debit entries of the report, totalling 10\.00 EUR, to match it; the file is incomplete/,
    ]);
  });

  it('refuses a report whose :90C: sum does not match its credit entries', async () => {
    const text = mt942(':61:2401020102C10,NTRFNONREF\n:61:2401020102C5,NTRFNONREF', ':90D:0EUR0,\n:90C:2EUR16,');
    await rejects(text, 9, [/found :90C: announcing 2 credit entries totalling 16 EUR/, /totalling 15\.00 EUR/]);
  });

  it('needs no balances and ends a bare report at the end of the file', async () => {
    const text = mt942(':61:2401020102C10,NTRFNONREF').replace(/-\n$/, '');
    const events = await collect(text, { format: 'mt942' });
    assert.deepEqual(statementsOf(events)[0]!.closingBalance, null);
    assert.equal(entriesOf(events)[0]!.currency, 'EUR');
  });

  it('reads an MT942 given as MT940 as what it is, with a warning', async () => {
    const events = await collect(mt942(':61:2401020102C10,NTRFNONREF'), { format: 'mt940' });
    assert.equal(entriesOf(events).length, 1);
    assert.deepEqual(warningsOf(events), [
      'Line 4: the field :34F: shows an MT942 interim report, while the import names the format mt940; the statement was read as MT942.',
    ]);
    const enveloped = await collect(fixture('mt942/envelope-floor-limits.sta'), { format: 'mt940' });
    assert.equal(entriesOf(enveloped).length, 3);
    assert.deepEqual(warningsOf(enveloped), [
      'Line 1: the envelope (block {2:) shows an MT942 interim report, while the import names the format mt940; the statement was read as MT942.',
    ]);
  });
});

describe('malformed files', () => {
  it('refuses a :61: that does not parse, naming the line, the text and the layout', async () => {
    await rejects(mt940(':61:240115X100,NTRFNONREF'), 5, [
      /^line 5: found :61: "240115X100,NTRFNONREF"; expected a statement line :61: laid out as value date YYMMDD, optional entry date MMDD, mark C, D, RC or RD/,
    ]);
    await rejects(mt940(':61:240115C100NTRFNONREF'), 5, [/amount with a decimal comma/]);
  });

  it('refuses a :61: whose amount is broken: a letter in it, a second separator, a sign, or no digits', async () => {
    for (const broken of [
      'C1O0,00NTRFNONREF',
      'C12,3X5NTRFNONREF',
      'C1,000,00NTRFNONREF',
      'C1.000,00NTRFNONREF',
      'C-100,00NTRFNONREF',
      'C+100,00NTRFNONREF',
      'C,50NTRFNONREF',
      'CNTRFNONREF',
    ]) {
      await rejects(mt940(`:61:240115${broken}`), 5, [/expected a statement line :61:/]);
    }
  });

  it('refuses a :61: whose dates cannot be read: letters in the value date, an entry date of three digits', async () => {
    await rejects(mt940(':61:24O115C1,NTRFNONREF'), 5, [/expected a statement line :61:/]);
    await rejects(mt940(':61:240115011C1,NTRFNONREF'), 5, [/expected a statement line :61:/]);
  });

  it('refuses an opening balance :60F: with a date that does not exist', async () => {
    await rejects(mt940('', { opening: 'C240230EUR1,00' }), 4, [
      /^line 4: found the date "240230" in the opening balance :60F:; expected a real calendar date written YYMMDD/,
    ]);
  });

  it('refuses a balance that is not laid out as mark, date, currency and amount', async () => {
    await rejects(mt940('', { closing: 'C240131EUR9999,99-' }), 5, [/^line 5: found :62F: "C240131EUR9999,99-"; expected a balance laid out as mark C or D/]);
  });

  it('refuses an entry date that does not exist', async () => {
    await rejects(mt940(':61:2401150230C1,NMSCNONREF'), 5, [/found the entry date "0230" in :61:; expected a real month and day written MMDD/]);
  });

  it("refuses a file that ends in the middle of a statement, naming the statement's line", async () => {
    const text = ':20:STMT-9\n:25:DE89370400440532013000\n:28C:1\n:60F:C240101EUR1,00\n:61:240115C1,NTRFNONREF\n:86:text\n';
    await rejects(text, 1, [
      /^line 1: found the statement "STMT-9" that stops at the end of the file without its closing balance :62F:/,
      /the file looks cut off or incomplete/,
    ]);
    await rejects(`${text}-\n${mt940('')}`, 1, [/that ends at line 7 without its closing balance :62F:/]);
  });

  it('refuses a field before any :20: other than the account :25:', async () => {
    await rejects(':28C:1\n:20:S1\n', 1, [
      /^line 1: found the field :28C: before any transaction reference :20:; expected every statement to start with its transaction reference :20:/,
    ]);
  });

  it('refuses a :61: before the opening balance', async () => {
    await rejects(':20:S1\n:25:DE89370400440532013000\n:61:240115C1,NMSCNONREF\n:62F:C240115EUR1,\n', 3, [
      /a statement line :61: before the opening balance :60F:/,
    ]);
  });

  it('refuses a statement without its account :25:', async () => {
    await rejects(':20:S1\n:28C:1\n:60F:C240101EUR1,\n:62F:C240115EUR1,\n', 1, [/without its account identification :25:/]);
  });

  it('refuses a second line in a one-line field', async () => {
    await rejects(':20:S1\n:25:DE89370400440532013000\nsomething else\n', 3, [/found "something else" as a second line of the field :25: \(line 2\)/]);
  });

  it('refuses an envelope that is not closed with -}, and a message type other than MT940 or MT942', async () => {
    const open = `{1:F01BANKDEFFAXXX0000000000}{2:I940BANKDEFFXXXXN}{4:\n${mt940('').replace(/-\n$/, '')}`;
    await rejects(open, 1, [/a message whose text block \{4: is still open at the end of the file/]);
    await rejects(`${open}{1:F01BANKDEFFAXXX0000000000}{2:I940BANKDEFFXXXXN}{4:\n`, 7, [/while the message that starts at line 1 is still open/]);
    await rejects('{1:F01BANKDEFFAXXX0000000000}{2:I950BANKDEFFXXXXN}{4:\n', 1, [/found an MT950 message/]);
    await rejects('{1:F01BANKDEFFAXXX0000000000}{2:I940BANKDEFFXXXXN\n', 1, [/without its closing brace/]);
  });

  it('warns about a field that is not part of MT940 or MT942 and leaves it out', async () => {
    const events = await collect(mt940(':23:SOMETHING\n:61:240115C1,NMSCNONREF'));
    assert.deepEqual(warningsOf(events), ['Line 5: the field :23: is not part of MT940 or MT942; it was left out.']);
    assert.equal(entriesOf(events).length, 1);
  });

  it('stops warning after the warning limit, saying so once', async () => {
    const unknownFields = Array.from({ length: SWIFT_MT_LIMITS.maxWarningCount + 50 }, (_, index) => `:23:FIELD-${index}`).join('\n');
    const warnings = warningsOf(await collect(mt940(unknownFields)));
    assert.equal(warnings.length, SWIFT_MT_LIMITS.maxWarningCount + 1);
    assert.equal(warnings.at(-1), `More than ${SWIFT_MT_LIMITS.maxWarningCount} warnings; the rest are left out.`);
  });

  it('warns when the closing balance is in another currency than the opening balance', async () => {
    const events = await collect(mt940(':61:240115C1,NMSCNONREF', { closing: 'C240131USD1,00' }));
    assert.deepEqual(warningsOf(events), ['Line 6: the closing balance is in USD while the opening balance is in EUR; the entries were read in EUR.']);
    assert.equal(entriesOf(events)[0]!.currency, 'EUR');
  });
});

describe('hostile input', () => {
  it('refuses a line of several megabytes without a break as soon as it passes the line limit', async () => {
    async function* endless(): AsyncGenerator<string> {
      const block = 'A'.repeat(64 * 1024);
      for (let index = 0; index < 80; index++) yield block;
    }
    await rejects(endless(), 1, [new RegExp(`a line longer than ${SWIFT_MT_LIMITS.maxLineLength} characters`)]);
  });

  it('refuses binary junk', async () => {
    let seed = 42;
    let junk = '';
    for (let index = 0; index < 200_000; index++) {
      seed = (seed * 1103515245 + 12345) % 2147483648;
      junk += String.fromCharCode(seed % 256);
    }
    await assert.rejects(collect(junk), ImportFormatError);
    await rejects('\u0000\u0001\u0002PK\u0003\u0004\n:20:', 1, [
      /^line 1: found "\\u0000\\u0001\\u0002PK\\u0003\\u0004"; expected a SWIFT MT940 or MT942 statement/,
    ]);
  });

  it('refuses an empty file and a file of blank lines', async () => {
    await rejects('', null, [/^found an empty file; expected SWIFT MT940 or MT942 statements/]);
    await rejects('\n  \r\n\t\n', null, [/found an empty file/]);
    await rejects('ABNANL2A\n940\n', null, [/found no statement/]);
  });

  it('refuses a field of more lines than any bank writes', async () => {
    const lines = Array.from({ length: SWIFT_MT_LIMITS.maxFieldLineCount + 5 }, (_, index) => `line ${index}`);
    await rejects(mt940(`:61:240115C1,NMSCNONREF\n:86:${lines.join('\n')}`), 6 + SWIFT_MT_LIMITS.maxFieldLineCount, [/longer than 200 lines/]);
  });

  it('refuses envelope blocks nested too deep', async () => {
    await rejects(`{1:F01X}{3:${'{1:'.repeat(20)}${'}'.repeat(20)}}\n`, 1, [/nested more than 8 deep/]);
  });
});

describe('performance', () => {
  it('parses a streamed statement of 50,000 entries', async () => {
    const entryCount = 50_000;
    async function* largeStatement(): AsyncGenerator<string> {
      yield ':20:LARGE\n:25:DE89370400440532013000\n:28C:00001/001\n:60F:C240101EUR0,00\n';
      let batch = '';
      for (let index = 0; index < entryCount; index++) {
        batch += `:61:2401150115C1,25NTRFREF${index}//B${index}\n:86:166?00GUTSCHRIFT?109310?20EREF+E2E-${index}?21SVWZ+Invoice ${index}?32Customer ${index % 100}\n`;
        if (batch.length > 60_000) {
          yield batch;
          batch = '';
        }
      }
      const closing = (BigInt(entryCount) * 125n).toString();
      yield `${batch}:62F:C240131EUR${closing.slice(0, -2)},${closing.slice(-2)}\n-\n`;
    }
    let count = 0;
    let sumOfCents = 0n;
    let last: StatementEntry | null = null;
    let statement: StatementSummary | null = null;
    for await (const event of parseSwiftMt(largeStatement(), { format: 'mt940' })) {
      if (event.kind === 'entry') {
        count += 1;
        sumOfCents += BigInt(event.entry.amount.replace('.', ''));
        last = event.entry;
      } else if (event.kind === 'statement') statement = event.statement;
    }
    assert.equal(count, entryCount);
    assert.equal(sumOfCents, 6_250_000n);
    assert.equal(last!.endToEndId, `E2E-${entryCount - 1}`);
    assert.deepEqual(statement!.closingBalance, { amount: '62500.00', date: '2024-01-31' });
  });
});

describe('sniffSwiftMt', () => {
  it('tells MT940 from MT942, bare or in an envelope', () => {
    assert.equal(sniffSwiftMt(mt940(':61:240115C1,NMSCNONREF')), 'mt940');
    assert.equal(sniffSwiftMt(mt942(':61:240115C1,NMSCNONREF')), 'mt942');
    assert.equal(sniffSwiftMt('{1:F01BANKDEFFAXXX0000000000}{2:I940BANKDEFFXXXXN}{4:\n:20:S1\n'), 'mt940');
    assert.equal(sniffSwiftMt('{1:F01BANKDEFFAXXX0000000000}\n{2:O9421200240102BANKDEFFXXXX00000000002401021200N}\n{4:\n'), 'mt942');
    assert.equal(sniffSwiftMt(`\u00EF\u00BB\u00BF${mt940('')}`), 'mt940');
    assert.equal(sniffSwiftMt(`ABNANL2A\n940\nABNANL2A\n${mt940('')}`), 'mt940');
  });

  it('does not claim camt XML, OFX, BAI2, CSV, other SWIFT messages or an empty file', () => {
    const others = [
      '<?xml version="1.0" encoding="UTF-8"?>\n<Document xmlns="urn:iso:std:iso:20022:tech:xsd:camt.053.001.08">\n:20:S1\n:25:X\n:28C:1\n</Document>',
      'OFXHEADER:100\nDATA:OFXSGML\nVERSION:102\n\n<OFX><BANKMSGSRSV1><STMTTRNRS><STMTRS><CURDEF>EUR',
      '<?xml version="1.0"?>\n<?OFX OFXHEADER="200" VERSION="220"?>\n<OFX></OFX>',
      '01,122099999,123456789,240115,0200,1,,,2/\n02,123456789,122099999,1,240114,,USD,2/\n',
      'Date;Amount;Text\n2024-01-15;12,50;":20: is not a field here"\n',
      `{1:F01BANKDEFFAXXX0000000000}{2:I950BANKDEFFXXXXN}{4:\n${mt940('')}`,
      '',
    ];
    for (const head of others) assert.equal(sniffSwiftMt(head), null, head.slice(0, 30));
  });
});
