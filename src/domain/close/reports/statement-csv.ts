import { csvField, type CellKind } from '../../../../sdk/src/spreadsheet.ts';
import type { ReconciliationStatement } from '../statement-shape.ts';
import { ADJUSTMENT_REASON_WORDS, itemGroups, reasonInWords } from './statement-lines.ts';

/**
 * The items of a reconciliation statement as CSV: one row per item of every line, with the line's
 * name (the names of the XLSX's Items sheet), then the rows set apart (their counted amount empty:
 * they count on no line) and the adjustments.
 *
 *   Line,Date,Dataset,Description,Reference,Amount,Counted amount,Reason
 *
 * Dates are YYYY-MM-DD as the bank or ledger wrote them, amounts the exact decimal texts with a dot
 * and a minus (no thousands separator), so that a spreadsheet or a program reads them as numbers.
 * Every cell goes through the SDK's csvField (RFC 4180 quoting; a text cell that starts with =, +,
 * -, @, a tab or a carriage return gets a quote in front, so that no spreadsheet runs it as a
 * formula), as every CSV export of the service does. Lines end with CR LF; the text starts with a
 * UTF-8 byte order mark, which spreadsheets need to read accented letters right.
 */

export const STATEMENT_ITEMS_CSV_HEADER = ['Line', 'Date', 'Dataset', 'Description', 'Reference', 'Amount', 'Counted amount', 'Reason'] as const;

const KINDS: CellKind[] = ['text', 'text', 'text', 'text', 'text', 'number', 'number', 'text'];

/** CSV lines (with the BOM in front and CR LF after each) from rows of cells of the given kinds. */
export function csvText(header: readonly string[], rows: readonly (readonly string[])[], kinds: readonly CellKind[]): string {
  const line = (cells: readonly string[], header = false) => cells.map((cell, index) => csvField(cell, header ? 'text' : kinds[index])).join(',') + '\r\n';
  return '\uFEFF' + line(header, true) + rows.map((row) => line(row)).join('');
}

/** Renders the statement's items as CSV text. */
export function renderStatementItemsCsv(statement: ReconciliationStatement): string {
  const rows: string[][] = [];
  for (const group of itemGroups(statement)) {
    for (const item of group.items) {
      rows.push([
        group.name,
        item.date,
        item.datasetName,
        item.description ?? '',
        item.reference ?? '',
        item.amount,
        group.counted ? item.countedAmount : '',
        reasonInWords(item, group.counted),
      ]);
    }
  }
  for (const adjustment of statement.adjustments.items) {
    rows.push([
      `Adjustment: ${ADJUSTMENT_REASON_WORDS[adjustment.reason]}`,
      adjustment.date,
      '',
      adjustment.description,
      adjustment.bankReference ?? '',
      adjustment.amount,
      adjustment.amount,
      'adjustment recorded on a match: what the bank holds more than the ledger',
    ]);
  }
  return csvText(STATEMENT_ITEMS_CSV_HEADER, rows, KINDS);
}
