import { ImportFormatError, type StatementEntry } from '../../statement-entries.ts';
import { textChunks } from '../../text.ts';
import { checkCsvMapping } from './check-mapping.ts';
import { CSV_MAPPING_DEFAULTS, MappingError, type CsvColumnSource, type CsvCustomColumn, type CsvMapping } from './mapping.ts';
import { parseCsv } from './parse.ts';
import { readRecords } from './records.ts';

/**
 * The first rows of a CSV file read with a given mapping, one by one: each row's fields as
 * written, and the entry it becomes or why the import would refuse it. An import stops at the
 * first row it cannot read; here a refused row is set aside and the rows after it are read
 * still, so that a person mapping the file sees every row of the head that would fail.
 */

export interface CheckedRow {
  /** 1-based line of the file where the row starts. */
  line: number;
  /** The row's fields as written. */
  fields: string[];
  /** What the row becomes; null when it is refused or left out. */
  entry: StatementEntry | null;
  /** Why the import would refuse the row, in words; null when it reads. */
  problem: string | null;
  /** Whether a skip rule of the mapping leaves the row out. */
  skipped: boolean;
}

export interface CheckedRows {
  /** The header's texts under the mapping's settings, or "column 1" … without a header. */
  columns: string[];
  rows: CheckedRow[];
  /** What stops the whole file from being read with the mapping (the field of the mapping, the message); null when nothing does. */
  problem: { field: string | null; message: string } | null;
}

/** Rows read at most. */
export const CHECKED_ROW_LIMIT = 20;

interface Layout {
  delimiter: string;
  quote: string | null;
  skipRows: number;
  header: boolean;
}

/** The settings that cut the text into rows, from a mapping that may not be valid as a whole. */
function layoutOf(mapping: unknown): Layout {
  const given = (mapping !== null && typeof mapping === 'object' ? mapping : {}) as Record<string, unknown>;
  const delimiter = typeof given.delimiter === 'string' && given.delimiter !== '' ? given.delimiter : CSV_MAPPING_DEFAULTS.delimiter;
  const quote = given.quote === null ? null : typeof given.quote === 'string' && given.quote !== '' ? given.quote : CSV_MAPPING_DEFAULTS.quote;
  const skipRows =
    typeof given.skipRows === 'number' && Number.isInteger(given.skipRows) && given.skipRows >= 0 && given.skipRows <= 1000
      ? given.skipRows
      : CSV_MAPPING_DEFAULTS.skipRows;
  const header = typeof given.header === 'boolean' ? given.header : CSV_MAPPING_DEFAULTS.header;
  return { delimiter, quote, skipRows, header };
}

/** The problem of a row without "line N" in front: the row is shown beside it. */
function rowProblem(error: ImportFormatError): string {
  return error.message.replace(/^line \d+(, )?/, '').replace(/^: /, '');
}

/** The text with the lines `lines` emptied: the reader skips empty lines and keeps counting the others as before. */
function withoutLines(text: string, lines: ReadonlySet<number>): string {
  const parts = text.split(/(\r\n|\n|\r)/);
  for (const line of lines) {
    const index = (line - 1) * 2;
    if (index < parts.length) parts[index] = '';
  }
  return parts.join('');
}

export async function checkRows(text: string, mapping: unknown, customColumns: readonly CsvCustomColumn[], limit = CHECKED_ROW_LIMIT): Promise<CheckedRows> {
  const layout = layoutOf(mapping);
  let columns: string[] = [];
  const rows: CheckedRow[] = [];
  try {
    for await (const record of readRecords(textChunks(text), layout, { skippedLines: 0 })) {
      if (columns.length === 0) {
        columns = layout.header ? record.fields.map((field) => field.trim()) : record.fields.map((_, index) => `column ${index + 1}`);
        if (layout.header) continue;
      }
      rows.push({ line: record.line, fields: record.fields, entry: null, problem: null, skipped: false });
      if (rows.length >= limit) break;
    }
  } catch (error) {
    if (!(error instanceof ImportFormatError)) throw error;
    if (rows.length === 0) return { columns, rows, problem: { field: null, message: error.message } };
  }

  let checked: CsvMapping;
  try {
    checked = checkCsvMapping(mapping, customColumns);
  } catch (error) {
    if (!(error instanceof MappingError)) throw error;
    const field = error.path.split('/')[1] ?? null;
    return { columns, rows, problem: { field: field === '' ? null : field, message: error.message.replace(/^[^:]*: /, '') } };
  }

  const byLine = new Map(rows.map((row) => [row.line, row]));
  const lastLine = rows.at(-1)?.line ?? 0;
  const refused = new Set<number>();
  // Each refused row is emptied and the head read again, at most once per row shown.
  for (let attempt = 0; attempt <= rows.length; attempt++) {
    try {
      for await (const event of parseCsv(textChunks(withoutLines(text, refused)), { mapping: checked, customColumns })) {
        if (event.kind !== 'entry') continue;
        const row = byLine.get(event.entry.line);
        if (row) row.entry = event.entry;
        if (event.entry.line >= lastLine) break;
      }
      break;
    } catch (error) {
      if (!(error instanceof ImportFormatError)) throw error;
      const row = error.line === null ? undefined : byLine.get(error.line);
      if (!row) {
        // Before the rows: the header, or the text itself, which no row can be read without.
        if (error.line === null || error.line < (rows[0]?.line ?? Infinity)) return { columns, rows, problem: { field: null, message: error.message } };
        // After them, or inside a refused row that spans lines: the rows shown are read.
        break;
      }
      row.problem = rowProblem(error);
      refused.add(row.line);
    }
  }
  for (const row of rows) row.skipped = row.entry === null && row.problem === null && matchesSkip(checked, columns, row.fields);
  return { columns, rows, problem: null };
}

/** Whether a skip rule of the mapping names the row (the parser left it out without a word). */
function matchesSkip(mapping: CsvMapping, columns: readonly string[], fields: readonly string[]): boolean {
  return (mapping.skip ?? []).some((rule) => {
    const index =
      typeof rule.column === 'number' ? rule.column : columns.findIndex((column) => column.trim().toLowerCase() === String(rule.column).trim().toLowerCase());
    const value = (fields[index] ?? '').trim();
    return index >= 0 && rule.equals.some((text) => text.trim() === value);
  });
}

/** The header texts a mapping names (not the indexes). */
export function namedSources(mapping: CsvMapping): string[] {
  const names: string[] = [];
  const add = (source: CsvColumnSource | undefined) => {
    for (const reference of Array.isArray(source) ? source : source === undefined ? [] : [source]) if (typeof reference === 'string') names.push(reference);
  };
  for (const source of Object.values(mapping.columns)) add(source);
  if (mapping.amount && 'debit' in mapping.amount) {
    add(mapping.amount.debit);
    add(mapping.amount.credit);
  } else if (mapping.amount) {
    add(mapping.amount.column);
    add(mapping.amount.indicator.column);
  }
  for (const reference of mapping.externalId ?? []) add(reference);
  return names;
}

/**
 * Whether a saved mapping was made for a file with this header: read with the mapping's own
 * settings, the file has a header, and every column the mapping names by its text is in it.
 */
export async function headerFits(text: string, mapping: CsvMapping): Promise<boolean> {
  const layout = layoutOf(mapping);
  if (!layout.header) return false;
  let header: string[] | null = null;
  try {
    for await (const record of readRecords(textChunks(text), layout, { skippedLines: 0 })) {
      header = record.fields.map((field) => field.trim().toLowerCase());
      break;
    }
  } catch (error) {
    if (error instanceof ImportFormatError) return false;
    throw error;
  }
  if (header === null) return false;
  const names = namedSources(mapping);
  return names.length > 0 && names.every((name) => header.includes(name.trim().toLowerCase()));
}
