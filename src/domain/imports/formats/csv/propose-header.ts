import { CSV_LIMITS } from './mapping.ts';
import { isDateLike, isNumberLike } from './propose-values.ts';
import type { SampleRecord } from './sniffing.ts';

/**
 * Which line of a CSV sample is its header. Exports put a title, the account and the period
 * before the header, and some give those lines the table's width ("KNAB EXPORT;;;;…;" has as
 * many fields as Knab's header), so the header is looked for among the first rows of the block
 * of equal width rather than taken to be its first row.
 */

/** Rows at the start of the block looked at for the header. */
export const HEADER_SEARCH_ROWS = 10;
/** Rows below a candidate compared with it. */
const HEADER_COMPARED_ROWS = 30;

/**
 * The header of a block of rows of one width and where its rows begin: a row among the block's
 * first (after title and account lines of the table's own width), or the record just above the
 * block when it is the header of rows that do not repeat the delimiter it ends with; null when
 * the rows have no header.
 */
export function locateHeader(
  block: readonly SampleRecord[],
  before: SampleRecord | null,
  knownName: (field: string) => boolean,
): { header: SampleRecord | null; rowsFrom: number } {
  const index = findHeaderRow(block, knownName);
  if (index !== null) return { header: block[index] as SampleRecord, rowsFrom: index + 1 };
  if (before !== null && isHeaderAbove(before, block, knownName)) return { header: before, rowsFrom: 0 };
  return { header: null, rowsFrom: 0 };
}

/**
 * The index in the block of its header row, or null when the block has none (its first row
 * is data). A header is a row of texts (no number, no date) with at least two of them, since a
 * title fills one cell of a row of empty ones, above rows that differ from it. Among several
 * such rows, the one above columns of numbers or dates wins over one that only differs from the
 * rows below it (a line of texts before the header), then the one with the most names known for
 * bank columns, then the first.
 */
export function findHeaderRow(block: readonly SampleRecord[], knownName: (field: string) => boolean): number | null {
  let best: number | null = null;
  let bestScore = -1;
  const last = Math.min(block.length, HEADER_SEARCH_ROWS);
  for (let index = 0; index < last; index++) {
    const fields = (block[index] as SampleRecord).fields;
    const filled = fields.map((field) => field.trim()).filter((field) => field !== '');
    if (filled.length < 2) continue;
    const below = block.slice(index + 1, index + 1 + HEADER_COMPARED_ROWS).map((record) => record.fields);
    // The last row of a block of several is no header: a header has rows below it.
    if (below.length === 0 && block.length > 1) continue;
    const strength = headerStrength(fields, below);
    if (strength === 0) continue;
    // Known names count within a strength: a strong header always beats a weak one, whatever
    // its names (a row has at most CSV_LIMITS.columnLimit of them).
    const score = strength * (CSV_LIMITS.columnLimit + 1) + filled.filter(knownName).length;
    if (score > bestScore) {
      best = index;
      bestScore = score;
    }
  }
  return best;
}

/**
 * Whether the record just above a block of rows is their header although it is wider: a header
 * that ends with a delimiter (or several) its rows do not repeat ("Date,Description,Debit,Credit,"
 * above "31/01/2024,Coffee,8.99,") has empty names where the rows have no field.
 */
export function isHeaderAbove(record: SampleRecord, block: readonly SampleRecord[], knownName: (field: string) => boolean): boolean {
  const width = (block[0] as SampleRecord).fields.length;
  const fields = record.fields;
  if (fields.length <= width || fields.slice(width).some((field) => field.trim() !== '')) return false;
  const named = fields.slice(0, width);
  if (named.filter((field) => field.trim() !== '').length < 2) return false;
  return (
    headerStrength(
      named,
      block.slice(0, HEADER_COMPARED_ROWS).map((row) => row.fields),
    ) === 2 || named.some(knownName)
  );
}

/**
 * A row is a header when its fields are texts (not numbers, not dates), and where it has a text
 * the rows below have numbers or dates, or when the rows are alike and it is not.
 */
export function isHeaderRow(first: readonly string[], rows: readonly string[][]): boolean {
  return headerStrength(first, rows) > 0;
}

/** 2: texts above a column of numbers or dates; 1: texts that differ from every row below; 0: no header. */
function headerStrength(first: readonly string[], rows: readonly string[][]): 0 | 1 | 2 {
  const filled = first.map((field) => field.trim()).filter((field) => field !== '');
  if (filled.length === 0) return 0;
  if (filled.some((field) => isNumberLike(field) || isDateLike(field))) return 0;
  if (rows.length === 0) return 2;
  for (let index = 0; index < first.length; index++) {
    const values = rows.map((row) => (row[index] ?? '').trim()).filter((value) => value !== '');
    if (values.length > 0 && values.every((value) => isNumberLike(value) || isDateLike(value))) return 2;
  }
  // No column of numbers or dates: a header still differs from every row below it.
  return rows.every((row) => row.some((value, index) => value.trim() !== (first[index] ?? '').trim())) ? 1 : 0;
}
