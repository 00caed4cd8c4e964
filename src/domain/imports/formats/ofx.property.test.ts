import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { addDecimals } from '../../money.ts';
import { ImportFormatError, type ParseEvent, type StatementEntry, type StatementSummary } from '../statement-entries.ts';
import { textChunks } from '../text.ts';
import { parseOfx } from './ofx.ts';

/**
 * Properties of the OFX parser over generated files: the transactions and the closing balance
 * of any file built from valid entries come back exactly (1.x SGML and 2.x XML, any chunking); a
 * broken amount refuses the file; no input makes the parser throw anything but its own
 * ImportFormatError. OFX carries a closing balance but no opening one, so a changed digit
 * cannot show as an unbalanced statement; it shows in the sum, which the report gives.
 */

const RUNS = 150;

interface GeneratedTransaction {
  /** Signed whole cents. */
  cents: bigint;
  day: number;
  fitId: string;
  name: string;
  style: 'plain' | 'plus' | 'comma' | 'no-leading-zero';
}

const transactionArbitrary: fc.Arbitrary<GeneratedTransaction> = fc.record({
  cents: fc.bigInt({ min: -99_999_999_999n, max: 99_999_999_999n }),
  day: fc.integer({ min: 1, max: 28 }),
  fitId: fc.stringMatching(/^[A-Z0-9]{1,12}$/),
  name: fc.constantFrom('Coffee', 'Rent & rates', 'SALARY', 'Café', ''),
  style: fc.constantFrom('plain', 'plus', 'comma', 'no-leading-zero'),
});

function decimal(cents: bigint): string {
  const magnitude = (cents < 0n ? -cents : cents).toString().padStart(3, '0');
  return `${cents < 0n ? '-' : ''}${magnitude.slice(0, -2)}.${magnitude.slice(-2)}`;
}

/** TRNAMT as banks write it: "12.50", "+12.50", "12,50", ".50". */
function written(transaction: GeneratedTransaction): string {
  const text = decimal(transaction.cents);
  switch (transaction.style) {
    case 'plus':
      return transaction.cents >= 0n ? `+${text}` : text;
    case 'comma':
      return text.replace('.', ',');
    case 'no-leading-zero':
      return text.replace(/^(-?)0\./, '$1.');
    default:
      return text;
  }
}

function escape(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;');
}

function ofxFile(transactions: GeneratedTransaction[], closingCents: bigint, xml: boolean): string {
  const close = (tag: string) => (xml ? `</${tag}>` : '');
  const leaf = (tag: string, value: string) => `<${tag}>${value}${close(tag)}\n`;
  const body = transactions
    .map(
      (transaction, index) =>
        '<STMTTRN>\n' +
        leaf('TRNTYPE', transaction.cents < 0n ? 'DEBIT' : 'CREDIT') +
        leaf('DTPOSTED', `202401${String(transaction.day).padStart(2, '0')}`) +
        leaf('TRNAMT', written(transaction)) +
        leaf('FITID', `${transaction.fitId}-${index}`) +
        (transaction.name === '' ? '' : leaf('NAME', escape(transaction.name))) +
        '</STMTTRN>\n',
    )
    .join('');
  const header = xml
    ? '<?xml version="1.0" encoding="UTF-8"?>\n<?OFX OFXHEADER="200" VERSION="220" SECURITY="NONE" OLDFILEUID="NONE" NEWFILEUID="NONE"?>\n'
    : 'OFXHEADER:100\nDATA:OFXSGML\nVERSION:102\nSECURITY:NONE\nENCODING:UTF-8\nCHARSET:NONE\n\n';
  return (
    `${header}<OFX>\n<BANKMSGSRSV1>\n<STMTTRNRS>\n${leaf('TRNUID', 'T-1')}<STMTRS>\n${leaf('CURDEF', 'USD')}` +
    `<BANKACCTFROM>\n${leaf('BANKID', '121000358')}${leaf('ACCTID', '0001')}${leaf('ACCTTYPE', 'CHECKING')}</BANKACCTFROM>\n` +
    `<BANKTRANLIST>\n${leaf('DTSTART', '20240101')}${leaf('DTEND', '20240131')}${body}</BANKTRANLIST>\n` +
    `<LEDGERBAL>\n${leaf('BALAMT', decimal(closingCents))}${leaf('DTASOF', '20240131')}</LEDGERBAL>\n</STMTRS>\n</STMTTRNRS>\n</BANKMSGSRSV1>\n</OFX>\n`
  );
}

async function parse(text: string, chunkSize = 64 * 1024): Promise<ParseEvent[]> {
  const events: ParseEvent[] = [];
  for await (const event of parseOfx(textChunks(text, chunkSize), {})) events.push(event);
  return events;
}

const entriesOf = (events: ParseEvent[]): StatementEntry[] => events.flatMap((event) => (event.kind === 'entry' ? [event.entry] : []));
const statementsOf = (events: ParseEvent[]): StatementSummary[] => events.flatMap((event) => (event.kind === 'statement' ? [event.statement] : []));

async function refused(text: string): Promise<boolean> {
  try {
    await parse(text);
    return false;
  } catch (error) {
    if (error instanceof ImportFormatError) return true;
    throw error;
  }
}

describe('OFX parser properties', () => {
  it('gives back the transactions, their sum and the closing balance of any file built from valid entries, SGML or XML, in any chunking', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(transactionArbitrary, { maxLength: 10 }),
        fc.bigInt({ min: -10_000_000n, max: 10_000_000n }),
        fc.boolean(),
        fc.integer({ min: 1, max: 97 }),
        async (transactions, closing, xml, chunkSize) => {
          const events = await parse(ofxFile(transactions, closing, xml), chunkSize);
          const found = entriesOf(events);
          assert.deepEqual(
            found.map((entry) => entry.amount),
            transactions.map((transaction) => decimal(transaction.cents)),
          );
          assert.equal(
            addDecimals('0', ...found.map((entry) => entry.amount)),
            addDecimals('0', ...transactions.map((transaction) => decimal(transaction.cents))),
          );
          assert.deepEqual(
            found.map((entry) => entry.counterpartyName),
            transactions.map((transaction) => (transaction.name === '' ? null : transaction.name)),
          );
          const [statement] = statementsOf(events);
          assert.deepEqual(statement!.closingBalance, { amount: decimal(closing), date: '2024-01-31' });
        },
      ),
      { numRuns: RUNS },
    );
  });

  it('refuses a file with a broken amount: a letter, a second separator, or a sign in the wrong place', async () => {
    const breakages = fc.constantFrom(
      (amount: string) => amount.replace(/\d(?=\d*[.,]?\d*$)/, (digit) => `${digit}O`),
      (amount: string) => `${amount}.5`,
      (amount: string) => amount.replace(/^-?/, (sign) => `${sign}1,`),
      (amount: string) => `${amount.replace(/^[-+]/, '')}-`,
      (amount: string) => `${amount}e2`,
      (amount: string) => `$${amount}`,
    );
    await fc.assert(
      fc.asyncProperty(
        fc.array(transactionArbitrary, { minLength: 1, maxLength: 5 }),
        fc.nat(),
        breakages,
        fc.boolean(),
        async (transactions, pick, breakage, xml) => {
          const victim = transactions[pick % transactions.length]!;
          const text = ofxFile(transactions, 0n, xml);
          const original = `<TRNAMT>${written(victim)}`;
          const broken = `<TRNAMT>${breakage(written(victim))}`;
          assert.ok(await refused(text.replace(original, broken)), `${original} -> ${broken}`);
        },
      ),
      { numRuns: RUNS },
    );
  });

  it('throws nothing but its own ImportFormatError, whatever the input', async () => {
    const valid = ofxFile(
      [
        { cents: -1250n, day: 3, fitId: 'A1', name: 'Rent & rates', style: 'plain' },
        { cents: 99n, day: 4, fitId: 'B2', name: 'Café', style: 'comma' },
      ],
      100n,
      false,
    );
    const mutation = fc.record({
      at: fc.nat(),
      cut: fc.nat({ max: 6 }),
      insert: fc.string({ unit: fc.constantFrom('<', '>', '/', '&', ';', '#', '\n', '!', '-', '?', 'A', '1', '.', ',', ' ', '\u0000'), maxLength: 6 }),
    });
    const inputs = fc.oneof(
      fc.string({ unit: 'binary', maxLength: 300 }),
      fc.array(mutation, { minLength: 1, maxLength: 5 }).map((mutations) =>
        mutations.reduce((text, { at, cut, insert }) => {
          const position = at % (text.length + 1);
          return text.slice(0, position) + insert + text.slice(position + cut);
        }, valid),
      ),
    );
    await fc.assert(
      fc.asyncProperty(inputs, async (text) => {
        try {
          await parse(text, 13);
        } catch (error) {
          assert.ok(error instanceof ImportFormatError, `a ${(error as Error).name}: ${(error as Error).message}`);
        }
      }),
      { numRuns: 400 },
    );
  });
});
