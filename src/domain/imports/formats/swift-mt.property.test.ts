import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { addDecimals, compareDecimals, negateDecimal } from '../../money.ts';
import { ImportFormatError, type ParseEvent, type StatementEntry, type StatementSummary } from '../statement-entries.ts';
import { textChunks } from '../text.ts';
import { parseSwiftMt, type SwiftMtFormat } from './swift-mt.ts';

/**
 * Properties of the MT940/MT942 parser over generated files: whatever valid entries a file is
 * built from come back with their amounts, sum and balances; a broken amount refuses the file;
 * a changed digit shows as an unbalanced statement (MT940) or a refused report (MT942, by its
 * control totals); and no input makes the parser throw anything but its own ImportFormatError.
 */

const RUNS = 150;

interface GeneratedEntry {
  /** Whole cents, positive; the mark gives the sign. */
  cents: bigint;
  mark: 'C' | 'D' | 'RC' | 'RD';
  fundsCode: string;
  day: number;
  entryDate: 'written' | 'blank' | 'none';
  typeCode: string;
  reference: string;
  bankReference: string;
  text: string;
}

const entryArbitrary: fc.Arbitrary<GeneratedEntry> = fc
  .record({
    cents: fc.bigInt({ min: 0n, max: 99_999_999_999n }),
    mark: fc.constantFrom('C', 'D', 'RC', 'RD'),
    fundsCode: fc.constantFrom('', 'R', 'D', 'N', 'F'),
    day: fc.integer({ min: 1, max: 28 }),
    entryDate: fc.constantFrom('written', 'blank', 'none'),
    typeCode: fc.constantFrom('NTRF', 'NMSC', 'FCHG', 'S103', 'N192', 'MCI0', ''),
    reference: fc.constantFrom('NONREF', 'INV-2024-7', 'NL47INGB9999999999', 'KREF+', ''),
    bankReference: fc.constantFrom('', '//B4K0015', '//', '//005z001210960373'),
    text: fc.constantFrom('', 'Invoice 42', '166?00GUTSCHRIFT?20EREF+E-1?21SVWZ+Rechnung 7', '/EREF/E-2//REMI/USTD//Order 5/', '020~00152~20PRZELEW~32ANNA'),
  })
  .map((entry) => (entry.typeCode === '' ? { ...entry, reference: '' } : entry)); // a line without a type code has no reference either

/** The signed amount of a generated entry: C and RD are money in, D and RC money out. */
function signed(entry: GeneratedEntry): string {
  const magnitude = centsText(entry.cents);
  return entry.mark === 'D' || entry.mark === 'RC' ? negateDecimal(magnitude) : magnitude;
}

function centsText(cents: bigint): string {
  const digits = cents.toString().padStart(3, '0');
  return `${digits.slice(0, -2)}.${digits.slice(-2)}`;
}

/** An amount as SWIFT writes it: decimal comma, no thousands separator, "0,5" style kept simple. */
function swiftAmount(cents: bigint): string {
  return centsText(cents).replace('.', ',');
}

function statementLine(entry: GeneratedEntry): string {
  const day = String(entry.day).padStart(2, '0');
  const entryDate = entry.entryDate === 'written' ? `01${day}` : entry.entryDate === 'blank' ? '    ' : '';
  return `:61:2401${day}${entryDate}${entry.mark}${entry.fundsCode}${swiftAmount(entry.cents)}${entry.typeCode}${entry.reference}${entry.bankReference}`;
}

function balance(cents: bigint, date: string): string {
  return `${cents < 0n ? 'D' : 'C'}${date}EUR${swiftAmount(cents < 0n ? -cents : cents)}`;
}

function entryCents(entry: GeneratedEntry): bigint {
  return entry.mark === 'D' || entry.mark === 'RC' ? -entry.cents : entry.cents;
}

/** An MT940 statement whose closing balance is the opening balance plus its entries. */
function mt940(entries: GeneratedEntry[], openingCents: bigint, number: number): string {
  const closingCents = entries.reduce((total, entry) => total + entryCents(entry), openingCents);
  const lines = [`:20:STMT-${number}`, ':25:DE89370400440532013000', `:28C:${number}/1`, `:60F:${balance(openingCents, '240101')}`];
  for (const entry of entries) {
    lines.push(statementLine(entry));
    if (entry.text !== '') lines.push(`:86:${entry.text}`);
  }
  lines.push(`:62F:${balance(closingCents, '240131')}`, '-');
  return lines.join('\r\n') + '\r\n';
}

/** An MT942 report with its :90D:/:90C: control totals. */
function mt942(entries: GeneratedEntry[], number: number): string {
  const debits = entries.filter((entry) => entry.mark === 'D' || entry.mark === 'RC');
  const credits = entries.filter((entry) => entry.mark === 'C' || entry.mark === 'RD');
  const total = (list: GeneratedEntry[]) => swiftAmount(list.reduce((sum, entry) => sum + entry.cents, 0n));
  const lines = [`:20:REPORT-${number}`, ':25:DE89370400440532013000', `:28C:${number}/1`, ':34F:EUR0,', ':13D:2401021200+0100'];
  for (const entry of entries) {
    lines.push(statementLine(entry));
    if (entry.text !== '') lines.push(`:86:${entry.text}`);
  }
  lines.push(`:90D:${debits.length}EUR${total(debits)}`, `:90C:${credits.length}EUR${total(credits)}`, '-');
  return lines.join('\n') + '\n';
}

async function parse(text: string, format: SwiftMtFormat, chunkSize = 64 * 1024): Promise<ParseEvent[]> {
  const events: ParseEvent[] = [];
  for await (const event of parseSwiftMt(textChunks(text, chunkSize), { format })) events.push(event);
  return events;
}

const entriesOf = (events: ParseEvent[]): StatementEntry[] => events.flatMap((event) => (event.kind === 'entry' ? [event.entry] : []));
const statementsOf = (events: ParseEvent[]): StatementSummary[] => events.flatMap((event) => (event.kind === 'statement' ? [event.statement] : []));

/** Whether opening + sum of the statement's entries = closing, as the importer works it out. */
function balanced(statement: StatementSummary, entries: StatementEntry[]): boolean {
  const sum = addDecimals('0', ...entries.filter((entry) => entry.statementIndex === statement.statementIndex).map((entry) => entry.amount));
  return compareDecimals(addDecimals(statement.openingBalance!.amount, sum), statement.closingBalance!.amount) === 0;
}

/** Parses and expects the parser's own refusal, nothing else. */
async function refused(text: string, format: SwiftMtFormat): Promise<boolean> {
  try {
    await parse(text, format);
    return false;
  } catch (error) {
    if (error instanceof ImportFormatError) return true;
    throw error;
  }
}

const statementsArbitrary = fc.array(fc.tuple(fc.array(entryArbitrary, { minLength: 0, maxLength: 8 }), fc.bigInt({ min: -10_000_000n, max: 10_000_000n })), {
  minLength: 1,
  maxLength: 4,
});

describe('MT940/MT942 parser properties', () => {
  it('gives back the entries, their sum and the balances of any MT940 file built from valid entries, in any chunking', async () => {
    await fc.assert(
      fc.asyncProperty(statementsArbitrary, fc.integer({ min: 1, max: 97 }), async (statements, chunkSize) => {
        const text = statements.map(([entries, opening], index) => mt940(entries, opening, index + 1)).join('');
        const events = await parse(text, 'mt940', chunkSize);
        const found = entriesOf(events);
        const summaries = statementsOf(events);
        const expected = statements.flatMap(([entries]) => entries);
        assert.equal(found.length, expected.length);
        assert.deepEqual(
          found.map((entry) => entry.amount),
          expected.map(signed),
        );
        assert.deepEqual(
          found.map((entry) => entry.reversal),
          expected.map((entry) => entry.mark.startsWith('R')),
        );
        assert.equal(summaries.length, statements.length);
        for (const [index, [, opening]] of statements.entries()) {
          assert.equal(
            compareDecimals(summaries[index]!.openingBalance!.amount, centsText(opening < 0n ? -opening : opening).replace(/^/, opening < 0n ? '-' : '')),
            0,
          );
          assert.ok(balanced(summaries[index]!, found), `statement ${index + 1} balances`);
        }
      }),
      { numRuns: RUNS },
    );
  });

  it('gives back the entries of any MT942 report built from valid entries, its control totals checked', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(fc.array(entryArbitrary, { maxLength: 8 }), { minLength: 1, maxLength: 3 }), async (reports) => {
        const text = reports.map((entries, index) => mt942(entries, index + 1)).join('');
        const found = entriesOf(await parse(text, 'mt942'));
        assert.deepEqual(
          found.map((entry) => entry.amount),
          reports.flat().map(signed),
        );
      }),
      { numRuns: RUNS },
    );
  });

  it('refuses a file with a broken amount: a letter among its digits, a second separator, or a sign', async () => {
    const breakages = fc.oneof(
      // N, F and S are left out: after the amount's digits they start a transaction type code by SWIFT's own layout.
      fc.record({ kind: fc.constant('letter' as const), letter: fc.constantFrom('O', 'l', 'A', 'x', 'B', 'I'), at: fc.nat() }),
      fc.record({ kind: fc.constant('separator' as const), separator: fc.constantFrom(',', '.', "'"), at: fc.nat() }),
      fc.record({ kind: fc.constant('sign' as const), sign: fc.constantFrom('-', '+'), after: fc.boolean() }),
    );
    await fc.assert(
      fc.asyncProperty(
        fc.array(entryArbitrary, { minLength: 1, maxLength: 5 }),
        fc.nat(),
        breakages,
        fc.constantFrom<SwiftMtFormat>('mt940', 'mt942'),
        async (entries, pick, breakage, format) => {
          const victim = entries[pick % entries.length]!;
          const amount = swiftAmount(victim.cents);
          const whole = amount.slice(0, amount.indexOf(','));
          let broken: string;
          if (breakage.kind === 'letter') {
            // Before a digit, after the first: a letter before the first digit would be a funds code, which SWIFT allows.
            const digitPositions = [...amount].flatMap((character, index) => (index > 0 && character !== ',' ? [index] : []));
            const at = digitPositions.length === 0 ? 1 : digitPositions[breakage.at % digitPositions.length]!;
            broken = amount.slice(0, at) + breakage.letter + amount.slice(at);
          } else if (breakage.kind === 'separator') {
            const at = 1 + (breakage.at % Math.max(1, whole.length));
            broken =
              breakage.separator === ','
                ? `${amount},${String(breakage.at % 100).padStart(2, '0')}`
                : amount.slice(0, at) + breakage.separator + amount.slice(at);
            if (breakage.separator !== ',' && at >= whole.length) broken = `${whole}${breakage.separator}${amount.slice(whole.length)}`;
          } else {
            broken = breakage.after ? `${amount}${breakage.sign}` : `${breakage.sign}${amount}`;
          }
          const text = format === 'mt940' ? mt940(entries, 0n, 1) : mt942(entries, 1);
          const line = statementLine(victim);
          const brokenLine = line.replace(`${victim.mark}${victim.fundsCode}${amount}`, `${victim.mark}${victim.fundsCode}${broken}`);
          const index = text.indexOf(line);
          assert.ok(await refused(text.slice(0, index) + brokenLine + text.slice(index + line.length), format), `${line} -> ${brokenLine}`);
        },
      ),
      { numRuns: RUNS },
    );
  });

  it('shows a changed digit as an unbalanced MT940 statement, and refuses an MT942 whose totals no longer match', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(
          entryArbitrary.filter((entry) => entry.cents > 0n),
          { minLength: 1, maxLength: 6 },
        ),
        fc.nat(),
        fc.nat(),
        fc.integer({ min: 1, max: 9 }),
        async (entries, pick, position, shift) => {
          const victim = entries[pick % entries.length]!;
          const digits = victim.cents.toString();
          const at = position % digits.length;
          const changed = digits.slice(0, at) + String((Number(digits[at]) + shift) % 10) + digits.slice(at + 1);
          const altered = { ...victim, cents: BigInt(changed) };
          const replace = (text: string) => text.replace(statementLine(victim), statementLine(altered));

          const statement = replace(mt940(entries, 1_000n, 1));
          const events = await parse(statement, 'mt940');
          assert.equal(balanced(statementsOf(events)[0]!, entriesOf(events)), false);
          assert.ok(await refused(replace(mt942(entries, 1)), 'mt942'));
        },
      ),
      { numRuns: RUNS },
    );
  });

  it('throws nothing but its own ImportFormatError, whatever the input', async () => {
    const valid = mt940(
      [
        {
          cents: 12_50n,
          mark: 'D',
          fundsCode: 'R',
          day: 3,
          entryDate: 'written',
          typeCode: 'NTRF',
          reference: 'NONREF',
          bankReference: '//B1',
          text: '166?00GUTSCHRIFT?20EREF+E-1?21SVWZ+Rechnung 7?32Max',
        },
        {
          cents: 99n,
          mark: 'RC',
          fundsCode: '',
          day: 4,
          entryDate: 'blank',
          typeCode: 'MCI0',
          reference: 'NL47INGB9999999999',
          bankReference: '',
          text: '/EREF/E-2//REMI/USTD//Order 5/',
        },
      ],
      100n,
      1,
    );
    const mutation = fc.record({
      at: fc.nat(),
      cut: fc.nat({ max: 6 }),
      insert: fc.string({
        unit: fc.constantFrom(':', '?', '/', '{', '}', '-', ',', '\n', '\r', '\u0001', 'C', 'D', '6', '1', '8', '~', ' ', 'ÿ'),
        maxLength: 6,
      }),
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
      fc.asyncProperty(inputs, fc.constantFrom<SwiftMtFormat>('mt940', 'mt942'), async (text, format) => {
        try {
          await parse(text, format, 13);
        } catch (error) {
          assert.ok(error instanceof ImportFormatError, `a ${(error as Error).name}: ${(error as Error).message}`);
        }
      }),
      { numRuns: 400 },
    );
  });
});
