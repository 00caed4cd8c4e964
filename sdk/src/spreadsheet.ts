/**
 * Cells of the files people open in a spreadsheet (CSV exports now, PDF and XLSX reports
 * later): every export writes its cells through these functions, so that none can run a formula.
 *
 * A spreadsheet runs a cell that starts with "=", "+", "-" or "@" as a formula, and also one that
 * starts with a tab or a carriage return; a bank description such as `=HYPERLINK("http://…")`
 * would run on the machine of whoever opens the export. As OWASP advises (CSV injection), a text
 * cell that starts with one of them is written with a single quote in front, which spreadsheets
 * take as "this is text" and do not show. A number column keeps its numbers as numbers (an amount
 * of -25.00 must add up in the spreadsheet); a value in it that is not a plain number is text.
 */

/** How a column is read: as text (never run), or as numbers. */
export type CellKind = 'text' | 'number';

/** What a spreadsheet takes as a number: an optional minus, digits, an optional decimal part and exponent. */
const PLAIN_NUMBER = /^-?[0-9]+(\.[0-9]+)?([eE][-+]?[0-9]+)?$/;
/** The first characters that make a spreadsheet read a cell as a formula. */
const FORMULA_START = /^[=+\-@\t\r]/;

/** The text of a cell as a spreadsheet must get it: a number as it is, anything else unable to run. */
export function spreadsheetCell(value: string, kind: CellKind = 'text'): string {
  if (kind === 'number' && PLAIN_NUMBER.test(value)) return value;
  return FORMULA_START.test(value) ? `'${value}` : value;
}

/** One field of a CSV line: the cell made safe, then quoted when it holds a comma, a quote or a line break (RFC 4180). */
export function csvField(value: string, kind: CellKind = 'text'): string {
  const cell = spreadsheetCell(value, kind);
  return /[",\r\n]/.test(cell) ? `"${cell.replace(/"/g, '""')}"` : cell;
}
