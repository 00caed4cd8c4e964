import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { addDecimals, compareDecimals } from '../../../money.ts';
import { ImportFormatError, type StatementEntry } from '../../statement-entries.ts';
import { textChunks } from '../../text.ts';
import { MappingError, parseCsv, type CsvMapping } from './index.ts';
import { previewCsv } from './preview.ts';

/**
 * Properties of the CSV parser read with a mapping: a file written from valid entries, in any of
 * the dialects banks use (delimiters, decimal marks, thousands separators, date formats, signs,
 * debit/credit columns, indicator columns), reads back to the same entries; an amount whose
 * syntax is broken refuses the file at its line; and no input makes the parser throw anything
 * but its own error.
 */

interface Dialect {
  delimiter: string;
  decimalSeparator: '.' | ',';
  thousandsSeparator: string;
  /** Whether whole parts are grouped by the thousands separator when they are long enough. */
  grouped: boolean;
  dateFormat: string;
  amounts: 'signed' | 'split' | 'indicator';
  /** How a signed amount writes money out. */
  negative: 'leading' | 'trailing' | 'parentheses';
  indicator: { debit: string; credit: string };
  lineBreak: string;
}

interface Row {
  date: { year: number; month: number; day: number };
  /** Canonical decimal, e.g. "-1234.5" (never "-0"). */
  amount: string;
  text: string;
}

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

const dialectArbitrary: fc.Arbitrary<Dialect> = fc
  .record({
    delimiter: fc.constantFrom(',', ';', '\t', '|'),
    decimalSeparator: fc.constantFrom<'.' | ','>('.', ','),
    thousandsSeparator: fc.constantFrom('', '.', ',', ' ', "'"),
    grouped: fc.boolean(),
    dateFormat: fc.constantFrom('DD.MM.YYYY', 'MM/DD/YYYY', 'YYYY-MM-DD', 'D.M.YYYY', 'YYYYMMDD', 'DD MMM YYYY', 'DD-MMM-YY', 'ISO'),
    amounts: fc.constantFrom<Dialect['amounts']>('signed', 'split', 'indicator'),
    negative: fc.constantFrom<Dialect['negative']>('leading', 'trailing', 'parentheses'),
    indicator: fc.constantFrom(
      { debit: 'D', credit: 'C' },
      { debit: 'Af', credit: 'Bij' },
      { debit: 'S', credit: 'H' },
      { debit: 'DR', credit: 'CR' },
      { debit: 'Soll', credit: 'Haben' },
    ),
    lineBreak: fc.constantFrom('\n', '\r\n'),
  })
  .filter((dialect) => dialect.thousandsSeparator !== dialect.decimalSeparator);

const rowArbitrary = (nonZero: boolean): fc.Arbitrary<Row> =>
  fc
    .record({
      date: fc.record({ year: fc.integer({ min: 1970, max: 2060 }), month: fc.integer({ min: 1, max: 12 }), day: fc.integer({ min: 1, max: 28 }) }),
      negative: fc.boolean(),
      whole: fc.oneof(fc.constant('0'), fc.bigInt({ min: 1n, max: 999_999_999_999n }).map(String)),
      fraction: fc.oneof(fc.constant(''), fc.stringMatching(/^[0-9]{1,6}$/)),
      // Texts with the characters that need quoting: delimiters, quotes, line breaks.
      text: fc.string({ unit: fc.constantFrom('a', 'Z', 'é', ' ', ',', ';', '|', '\t', '"', '\n', '1', '€'), maxLength: 12 }),
    })
    .map(({ date, negative, whole, fraction, text }) => {
      const magnitude = fraction === '' ? whole : `${whole}.${fraction}`;
      const zero = /^0(\.0*)?$/.test(magnitude);
      return { date, amount: negative && !zero ? `-${magnitude}` : magnitude, text };
    })
    .filter((row) => !nonZero || !/^-?0(\.0*)?$/.test(row.amount));

function formatDate({ year, month, day }: Row['date'], format: string): string {
  const two = (value: number) => String(value).padStart(2, '0');
  switch (format) {
    case 'DD.MM.YYYY':
      return `${two(day)}.${two(month)}.${year}`;
    case 'MM/DD/YYYY':
      return `${two(month)}/${two(day)}/${year}`;
    case 'YYYY-MM-DD':
    case 'ISO':
      return `${year}-${two(month)}-${two(day)}`;
    case 'D.M.YYYY':
      return `${day}.${month}.${year}`;
    case 'YYYYMMDD':
      return `${year}${two(month)}${two(day)}`;
    case 'DD MMM YYYY':
      return `${two(day)} ${MONTHS[month - 1]} ${year}`;
    default:
      return `${two(day)}-${(MONTHS[month - 1] as string).toUpperCase()}-${two(year % 100)}`;
  }
}

/** The magnitude of a canonical decimal as the dialect writes it. */
function formatMagnitude(magnitude: string, dialect: Dialect): string {
  const [whole, fraction] = magnitude.split('.') as [string, string | undefined];
  const grouped = dialect.grouped && dialect.thousandsSeparator !== '' ? whole.replace(/\B(?=(\d{3})+(?!\d))/g, dialect.thousandsSeparator) : whole;
  return fraction === undefined ? grouped : `${grouped}${dialect.decimalSeparator}${fraction}`;
}

function quoted(field: string, delimiter: string): string {
  return /["\r\n]/.test(field) || field.includes(delimiter) ? `"${field.replaceAll('"', '""')}"` : field;
}

/** The CSV text of the rows in the dialect, and the mapping that reads it. */
function write(rows: readonly Row[], dialect: Dialect): { text: string; mapping: CsvMapping } {
  const header =
    dialect.amounts === 'split'
      ? ['Date', 'Text', 'Debit', 'Credit']
      : dialect.amounts === 'indicator'
        ? ['Date', 'Text', 'Amount', 'Sign']
        : ['Date', 'Text', 'Amount'];
  const lines = [header.join(dialect.delimiter)];
  for (const row of rows) {
    const negative = row.amount.startsWith('-');
    const magnitude = formatMagnitude(negative ? row.amount.slice(1) : row.amount, dialect);
    const fields = [formatDate(row.date, dialect.dateFormat), row.text];
    if (dialect.amounts === 'split') fields.push(negative ? magnitude : '', negative ? '' : magnitude);
    else if (dialect.amounts === 'indicator') fields.push(magnitude, negative ? dialect.indicator.debit : dialect.indicator.credit);
    else if (!negative) fields.push(magnitude);
    else fields.push(dialect.negative === 'leading' ? `-${magnitude}` : dialect.negative === 'trailing' ? `${magnitude}-` : `(${magnitude})`);
    lines.push(fields.map((field) => quoted(field, dialect.delimiter)).join(dialect.delimiter));
  }
  const mapping: CsvMapping = {
    delimiter: dialect.delimiter,
    decimalSeparator: dialect.decimalSeparator,
    thousandsSeparator: dialect.thousandsSeparator,
    dateFormat: dialect.dateFormat,
    columns: { timestamp: 'Date', description: 'Text', ...(dialect.amounts === 'signed' ? { amount: 'Amount' } : {}) },
    currency: 'EUR',
  };
  if (dialect.amounts === 'split') mapping.amount = { debit: 'Debit', credit: 'Credit' };
  if (dialect.amounts === 'indicator')
    mapping.amount = { column: 'Amount', indicator: { column: 'Sign', debit: [dialect.indicator.debit], credit: [dialect.indicator.credit] } };
  return { text: lines.join(dialect.lineBreak) + dialect.lineBreak, mapping };
}

async function read(text: string, mapping: CsvMapping, chunkSize: number): Promise<StatementEntry[]> {
  const entries: StatementEntry[] = [];
  for await (const event of parseCsv(textChunks(text, chunkSize), { mapping, customColumns: [] })) if (event.kind === 'entry') entries.push(event.entry);
  return entries;
}

/** The 1-based line each row starts on (a quoted line break moves the rows after it down). */
function rowLines(rows: readonly Row[]): number[] {
  let line = 2;
  return rows.map((row) => {
    const start = line;
    line += 1 + (row.text.match(/\n/g)?.length ?? 0);
    return start;
  });
}

const fileArbitrary = dialectArbitrary.chain((dialect) =>
  fc.tuple(fc.constant(dialect), fc.array(rowArbitrary(dialect.amounts === 'split'), { minLength: 1, maxLength: 12 })),
);

describe('parseCsv: properties', () => {
  it('reads a file written from valid entries back to the same entries: count, sum, dates, texts', async () => {
    await fc.assert(
      fc.asyncProperty(fileArbitrary, fc.integer({ min: 1, max: 64 }), async ([dialect, rows], chunkSize) => {
        const { text, mapping } = write(rows, dialect);
        const entries = await read(text, mapping, chunkSize);
        assert.equal(entries.length, rows.length);
        assert.equal(
          compareDecimals(
            entries.reduce((sum, entry) => addDecimals(sum, entry.amount), '0'),
            addDecimals('0', ...rows.map((row) => row.amount)),
          ),
          0,
          text,
        );
        const lines = rowLines(rows);
        rows.forEach((row, index) => {
          const entry = entries[index] as StatementEntry;
          assert.equal(compareDecimals(entry.amount, row.amount), 0, `${row.amount} read as ${entry.amount} in ${JSON.stringify(text)}`);
          assert.equal(entry.bookingDate, formatDate(row.date, 'YYYY-MM-DD'));
          assert.equal(entry.line, lines[index]);
          const cleaned = row.text.trim().replace(/\s*[\r\n]+\s*/g, ' ');
          assert.equal(entry.description, cleaned === '' ? null : cleaned);
        });
      }),
      { numRuns: 300 },
    );
  });

  it('refuses a file with one broken amount, naming its line: a letter, a second decimal mark, a sign in the wrong place', async () => {
    const breakage = fc.constantFrom('letter', 'second decimal mark', 'sign inside');
    await fc.assert(
      fc.asyncProperty(
        fileArbitrary.filter(([, rows]) => rows.some((row) => /\d\d/.test(row.amount.replace(/\D/g, '')))),
        breakage,
        fc.nat(),
        fc.nat(),
        async ([dialect, multiline], how, pick, position) => {
          // One row per line here, so that the broken line is easy to find.
          const rows = multiline.map((row) => ({ ...row, text: row.text.replace(/\n/g, ' ') }));
          // A row whose amount has two digits side by side, for the break to go between them.
          const candidates = rows.map((row, index) => ({ row, index })).filter(({ row }) => /\d\d/.test(row.amount.replace(/\D/g, '')));
          const { index } = candidates[pick % candidates.length] as { index: number };
          const { text, mapping } = write(rows, dialect);
          const lines = text.split(dialect.lineBreak);
          const line = rowLines(rows)[index] as number;
          const written = lines[line - 1] as string;
          // The amount is the third field (debit or credit, the filled one, when split).
          const fields = splitWritten(written, dialect.delimiter);
          const amountField = dialect.amounts === 'split' ? (fields[2] !== '' ? 2 : 3) : 2;
          // (Quoted when it holds the delimiter; it is quoted again below, as its new text needs.)
          const value = (fields[amountField] as string).replace(/^"(.*)"$/, '$1');
          const pairs = [...value.matchAll(/\d(?=\d)/g)].map((match) => (match.index as number) + 1);
          const at = pairs[position % pairs.length] as number;
          const insert = how === 'letter' ? 'x' : how === 'second decimal mark' ? dialect.decimalSeparator + '5' + dialect.decimalSeparator : '-';
          fields[amountField] = quoted(value.slice(0, at) + insert + value.slice(at), dialect.delimiter);
          lines[line - 1] = fields.join(dialect.delimiter);
          await assert.rejects(read(lines.join(dialect.lineBreak), mapping, 4096), (error: unknown) => {
            assert.ok(error instanceof ImportFormatError, String(error));
            assert.equal(error.line, line, error.message);
            assert.match(error.message, new RegExp(`^line ${line}, column "(Amount|Debit|Credit)": found `));
            return true;
          });
        },
      ),
      { numRuns: 300 },
    );
  });

  it('throws nothing but its own error on any input', async () => {
    const mappings: CsvMapping[] = [
      { columns: { timestamp: 'Date', amount: 'Amount' }, currency: 'EUR' },
      {
        delimiter: ';',
        decimalSeparator: ',',
        thousandsSeparator: '.',
        dateFormat: 'DD.MM.YYYY',
        skipRows: 1,
        columns: { timestamp: 0, description: 1 },
        header: false,
        amount: { debit: 2, credit: 3 },
      },
      {
        quote: null,
        delimiter: '\t',
        dateFormat: 'DD MMM YYYY HH:mm',
        timezone: 'Europe/Berlin',
        columns: { timestamp: 'a', bookingDate: 'b', amount: 'c' },
        skip: [{ column: 'a', equals: ['x'] }],
      },
      { header: false, columns: { timestamp: 0, amount: 1 }, externalId: [2] },
      { header: false, columns: { timestamp: 0 }, amount: { column: 1, indicator: { column: 2, debit: ['S'], credit: ['H'] } } },
    ];
    const texts = fc.oneof(
      fc.string({
        unit: fc.constantFrom('a', '1', '2', '.', ',', ';', '\t', '"', '\n', '\r', '-', '(', ')', ' ', '€', 'D', 'S', 'H', 'x', '\u0000', '\ud800'),
        maxLength: 120,
      }),
      fc.string({ unit: 'binary', maxLength: 200 }),
      fc.constantFrom('Date,Amount\n', 'Date,Amount\n2024-01-01,', '"', 'a;b\n1;2;3;4;5\n', '\ufeffDate,Amount\n2024-02-30,1\n'),
    );
    await fc.assert(
      fc.asyncProperty(texts, fc.constantFrom(...mappings), fc.integer({ min: 1, max: 50 }), async (text, mapping, chunkSize) => {
        try {
          await read(text, mapping, chunkSize);
        } catch (error) {
          assert.ok(error instanceof ImportFormatError || error instanceof MappingError, `${String(error)} on ${JSON.stringify(text)}`);
        }
        // The preview never throws: what it cannot read, it says.
        const preview = await previewCsv(text, { customColumns: [], complete: true });
        assert.ok(Array.isArray(preview.questions));
      }),
      { numRuns: 500 },
    );
  });
});

/** The fields of a line this test wrote, quoted ones with their quotes. */
function splitWritten(line: string, delimiter: string): string[] {
  const fields: string[] = [];
  let field = '';
  let quotedField = false;
  for (let index = 0; index < line.length; index++) {
    const character = line[index] as string;
    if (quotedField) {
      if (character === '"' && line[index + 1] === '"') {
        field += '""';
        index += 1;
      } else {
        if (character === '"') quotedField = false;
        field += character;
      }
    } else if (character === '"' && field === '') {
      quotedField = true;
      field += character;
    } else if (line.startsWith(delimiter, index)) {
      fields.push(field);
      field = '';
    } else field += character;
  }
  fields.push(field);
  return fields;
}
