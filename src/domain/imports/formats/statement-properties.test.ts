import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { addDecimals, compareDecimals, placeImpliedDecimals } from '../../money.ts';
import { ImportFormatError, type ParseEvent } from '../statement-entries.ts';
import { textChunks } from '../text.ts';
import { parseBai2 } from './bai2.ts';
import { parseCamt } from './camt.ts';

/**
 * Properties of the camt and BAI2 parsers over generated files (fast-check): a file built from
 * valid entries reads back exactly (entries, sum, balances); an amount whose syntax is broken
 * refuses the file; a changed digit shows up where the format can show it (an unbalanced camt
 * statement, a BAI2 control total that no longer adds up); and no input whatever makes a parser
 * throw anything but its own ImportFormatError.
 */

const RUNS = 150;

interface GeneratedEntry {
  /** Amount in cents, never zero. */
  cents: number;
  credit: boolean;
  day: number;
  text: string;
}

const entryArbitrary: fc.Arbitrary<GeneratedEntry> = fc.record({
  cents: fc.integer({ min: 1, max: 99_999_999_99 }),
  credit: fc.boolean(),
  day: fc.integer({ min: 1, max: 28 }),
  // Words without markup or separators, as remittance texts are.
  text: fc.stringMatching(/^[A-Za-z0-9 ]{1,30}$/).map((value) => value.trim() || 'x'),
});

const entriesArbitrary = fc.array(entryArbitrary, { minLength: 1, maxLength: 25 });

const decimal = (cents: number) => placeImpliedDecimals(String(cents), 2);
const signed = (entry: GeneratedEntry) => (entry.credit ? decimal(entry.cents) : `-${decimal(entry.cents)}`);
const sumOf = (entries: GeneratedEntry[]) => entries.reduce((total, entry) => addDecimals(total, signed(entry)), '0');

async function collect(parser: AsyncGenerator<ParseEvent>): Promise<ParseEvent[]> {
  const events: ParseEvent[] = [];
  for await (const event of parser) events.push(event);
  return events;
}

const readCamt = (text: string, chunk = 4096) => collect(parseCamt(textChunks(text, chunk), {}));
const readBai2 = (text: string, chunk = 4096) => collect(parseBai2(textChunks(text, chunk), {}));

/** Whether reading throws, and then only an ImportFormatError (anything else fails the property). */
async function refused(read: () => Promise<unknown>): Promise<boolean> {
  try {
    await read();
    return false;
  } catch (error) {
    if (error instanceof ImportFormatError) return true;
    throw error;
  }
}

function camtFile(
  entries: GeneratedEntry[],
  openingCents: number,
  amountOf: (entry: GeneratedEntry, index: number) => string = (entry) => decimal(entry.cents),
): string {
  const opening = decimal(Math.abs(openingCents));
  const closing = addDecimals(openingCents < 0 ? `-${opening}` : opening, sumOf(entries));
  const balance = (code: string, amount: string) =>
    `<Bal><Tp><CdOrPrtry><Cd>${code}</Cd></CdOrPrtry></Tp><Amt Ccy="EUR">${amount.replace('-', '')}</Amt><CdtDbtInd>${amount.startsWith('-') ? 'DBIT' : 'CRDT'}</CdtDbtInd><Dt><Dt>2024-02-29</Dt></Dt></Bal>`;
  const ntry = (entry: GeneratedEntry, index: number) =>
    `<Ntry><Amt Ccy="EUR">${amountOf(entry, index)}</Amt><CdtDbtInd>${entry.credit ? 'CRDT' : 'DBIT'}</CdtDbtInd><Sts><Cd>BOOK</Cd></Sts>` +
    `<BookgDt><Dt>2024-02-${String(entry.day).padStart(2, '0')}</Dt></BookgDt><AcctSvcrRef>R${index}</AcctSvcrRef>` +
    `<NtryDtls><TxDtls><RmtInf><Ustrd>${entry.text}</Ustrd></RmtInf></TxDtls></NtryDtls></Ntry>`;
  return (
    '<?xml version="1.0" encoding="UTF-8"?>\n<Document xmlns="urn:iso:std:iso:20022:tech:xsd:camt.053.001.08"><BkToCstmrStmt>\n' +
    '<GrpHdr><MsgId>P</MsgId><CreDtTm>2024-02-29T18:00:00Z</CreDtTm></GrpHdr>\n' +
    '<Stmt><Id>S</Id><Acct><Id><IBAN>DE89370400440532013000</IBAN></Id><Ccy>EUR</Ccy></Acct>\n' +
    `${balance('OPBD', openingCents < 0 ? `-${opening}` : opening)}\n${balance('CLBD', closing)}\n` +
    entries.map((entry, index) => `${ntry(entry, index)}\n`).join('') +
    '</Stmt></BkToCstmrStmt></Document>\n'
  );
}

/** A BAI2 file of one account holding the entries, its balances and every trailer total and count right. */
function bai2File(
  entries: GeneratedEntry[],
  openingCents: number,
  amountOf: (entry: GeneratedEntry, index: number) => string = (entry) => String(entry.cents),
): string {
  const closingCents = openingCents + entries.reduce((total, entry) => total + (entry.credit ? entry.cents : -entry.cents), 0);
  const details = entries.map((entry, index) => `16,${entry.credit ? '195' : '495'},${amountOf(entry, index)},0,BR${index},CR${index},${entry.text}/`);
  // The control total adds every amount as written: the 03's signed balances and the 16s' amounts.
  const accountTotal = BigInt(openingCents) + BigInt(closingCents) + entries.reduce((total, entry) => total + BigInt(entry.cents), 0n);
  const accountRecords = 2 + details.length;
  return (
    [
      '01,SENDER,RECEIVER,240229,1200,7,,,2/',
      '02,RECEIVER,SENDER,1,240229,1200,USD,2/',
      `03,123456789,USD,010,${openingCents},,,015,${closingCents},,/`,
      ...details,
      `49,${accountTotal},${accountRecords}/`,
      `98,${accountTotal},1,${accountRecords + 2}/`,
      `99,${accountTotal},1,${accountRecords + 4}/`,
    ].join('\n') + '\n'
  );
}

/**
 * Ways to break an amount's syntax that no reading can take for a number. In BAI2 a comma is the
 * field separator, not part of any amount: "1,1" there is the amount 1 followed by the funds type
 * 1, a record as valid as any, which only the control totals can tell from the file as written;
 * so the thousands separator is tried only where a comma can be part of an amount.
 */
const brokenAmount = (amount: string, commaSeparatesFields = false) =>
  fc.constantFrom(
    `${amount.slice(0, 1)}x${amount.slice(1)}`, // a letter
    `${amount}.5`, // a second separator (or, in BAI2, a separator at all)
    `${amount.slice(0, 1)}-${amount.slice(1)}`, // a sign in the wrong place
    `${amount}-`, // a sign at the end
    ...(commaSeparatesFields ? [] : [`1,${amount}`]), // a thousands separator
  );

/** The same amount with one digit changed (never to the same digit, never to no digits). */
function changedDigit(amount: string, position: number, delta: number): string {
  const digits = [...amount].map((character, index) => ({ character, index })).filter(({ character }) => /\d/.test(character));
  const { index } = digits[position % digits.length]!;
  const digit = (Number(amount[index]) + 1 + (delta % 9)) % 10;
  return `${amount.slice(0, index)}${digit}${amount.slice(index + 1)}`;
}

describe('camt parser properties', () => {
  it('reads back a statement built from valid entries: entries, sum and balances', async () => {
    await fc.assert(
      fc.asyncProperty(
        entriesArbitrary,
        fc.integer({ min: -10_000_000, max: 10_000_000 }),
        fc.integer({ min: 1, max: 5000 }),
        async (entries, openingCents, chunk) => {
          const events = await readCamt(camtFile(entries, openingCents), chunk);
          const read = events.flatMap((event) => (event.kind === 'entry' ? [event.entry] : []));
          assert.deepEqual(
            read.map((entry) => [entry.amount, entry.description, entry.bookingDate]),
            entries.map((entry) => [signed(entry), entry.text, `2024-02-${String(entry.day).padStart(2, '0')}`]),
          );
          const [statement] = events.flatMap((event) => (event.kind === 'statement' ? [event.statement] : []));
          assert.equal(compareDecimals(addDecimals(statement!.openingBalance!.amount, sumOf(entries)), statement!.closingBalance!.amount), 0);
        },
      ),
      { numRuns: RUNS },
    );
  });

  it('refuses a file in which one amount has a letter, a second separator or a misplaced sign', async () => {
    await fc.assert(
      fc.asyncProperty(
        entriesArbitrary.chain((entries) => fc.tuple(fc.constant(entries), fc.nat(entries.length - 1), brokenAmount(decimal(entries[0]!.cents)))),
        async ([entries, target, broken]) => {
          const text = camtFile(entries, 0, (entry, index) => (index === target ? broken : decimal(entry.cents)));
          assert.equal(await refused(() => readCamt(text)), true, broken);
        },
      ),
      { numRuns: RUNS },
    );
  });

  it('shows a changed digit as a statement that no longer balances', async () => {
    await fc.assert(
      fc.asyncProperty(entriesArbitrary, fc.nat(), fc.nat(), fc.nat(), async (entries, which, position, delta) => {
        const target = which % entries.length;
        const text = camtFile(entries, 0, (entry, index) => (index === target ? changedDigit(decimal(entry.cents), position, delta) : decimal(entry.cents)));
        const events = await readCamt(text);
        const read = events.flatMap((event) => (event.kind === 'entry' ? [event.entry.amount] : []));
        const [statement] = events.flatMap((event) => (event.kind === 'statement' ? [event.statement] : []));
        const sum = read.reduce((total, amount) => addDecimals(total, amount), '0');
        assert.notEqual(compareDecimals(addDecimals(statement!.openingBalance!.amount, sum), statement!.closingBalance!.amount), 0);
      }),
      { numRuns: RUNS },
    );
  });

  it('throws nothing but its own error, whatever the input', async () => {
    const valid = camtFile([{ cents: 1250, credit: true, day: 3, text: 'Invoice 7' }], 100);
    await fc.assert(
      fc.asyncProperty(
        fc.oneof(
          fc.string({ unit: 'binary', maxLength: 400 }),
          // A valid file with a random piece cut out and random text put in its place.
          fc
            .tuple(fc.nat(valid.length), fc.nat(60), fc.string({ unit: 'grapheme', maxLength: 20 }))
            .map(([at, cut, insert]) => valid.slice(0, at) + insert + valid.slice(at + cut)),
        ),
        async (text) => {
          await refused(() => readCamt(text, 7));
        },
      ),
      { numRuns: RUNS * 2 },
    );
  });
});

describe('BAI2 parser properties', () => {
  it('reads back an account built from valid entries: entries, sum and balances', async () => {
    await fc.assert(
      fc.asyncProperty(
        entriesArbitrary,
        fc.integer({ min: -10_000_000, max: 10_000_000 }),
        fc.integer({ min: 1, max: 500 }),
        async (entries, openingCents, chunk) => {
          const events = await readBai2(bai2File(entries, openingCents), chunk);
          const read = events.flatMap((event) => (event.kind === 'entry' ? [event.entry] : []));
          assert.deepEqual(
            read.map((entry) => [entry.amount, entry.description, entry.bankReference]),
            entries.map((entry, index) => [signed(entry), entry.text, `BR${index}`]),
          );
          const [statement] = events.flatMap((event) => (event.kind === 'statement' ? [event.statement] : []));
          assert.equal(compareDecimals(addDecimals(statement!.openingBalance!.amount, sumOf(entries)), statement!.closingBalance!.amount), 0);
        },
      ),
      { numRuns: RUNS },
    );
  });

  it('refuses a file in which one amount has a letter, a separator or a sign', async () => {
    await fc.assert(
      fc.asyncProperty(
        entriesArbitrary.chain((entries) => fc.tuple(fc.constant(entries), fc.nat(entries.length - 1), brokenAmount(String(entries[0]!.cents), true))),
        async ([entries, target, broken]) => {
          const text = bai2File(entries, 0, (entry, index) => (index === target ? broken : String(entry.cents)));
          assert.equal(await refused(() => readBai2(text)), true, broken);
        },
      ),
      { numRuns: RUNS },
    );
  });

  it('refuses a file in which one digit of an amount changed: the control totals no longer add up', async () => {
    await fc.assert(
      fc.asyncProperty(entriesArbitrary, fc.nat(), fc.nat(), fc.nat(), async (entries, which, position, delta) => {
        const target = which % entries.length;
        const text = bai2File(entries, 0, (entry, index) => (index === target ? changedDigit(String(entry.cents), position, delta) : String(entry.cents)));
        assert.equal(await refused(() => readBai2(text)), true);
      }),
      { numRuns: RUNS },
    );
  });

  it('throws nothing but its own error, whatever the input', async () => {
    const valid = bai2File([{ cents: 1250, credit: true, day: 3, text: 'Invoice 7' }], 100);
    await fc.assert(
      fc.asyncProperty(
        fc.oneof(
          fc.string({ unit: 'binary', maxLength: 400 }),
          fc
            .tuple(fc.nat(valid.length), fc.nat(30), fc.string({ unit: 'grapheme', maxLength: 20 }))
            .map(([at, cut, insert]) => valid.slice(0, at) + insert + valid.slice(at + cut)),
        ),
        async (text) => {
          await refused(() => readBai2(text, 5));
        },
      ),
      { numRuns: RUNS * 2 },
    );
  });
});
