import ExcelJS from 'exceljs';
import { closeReportErrors } from '../../../errors.ts';
import { CALENDAR_DATE_PATTERN } from '../../../../sdk/src/dates.ts';
import type { ReconciliationStatement } from '../statement-shape.ts';
import { decimalsOf, formatInstant, formatLongDate, trimmedDecimal } from './format.ts';
import {
  ADJUSTMENT_REASON_WORDS,
  ADJUSTMENT_REASONS,
  itemGroups,
  namesInWords,
  reasonInWords,
  signOffInWords,
  statementRows,
  type StatementRowKey,
} from './statement-lines.ts';

/**
 * The reconciliation statement as an XLSX workbook, for the accountant who checks it in a
 * spreadsheet:
 *
 * - "Statement": the lines of the PDF, figure for figure (statement-lines.ts). Each line that
 *   sums items is a SUMIFS over the Items sheet (a "Less" line with a minus in front), and each
 *   total is a formula over the lines above it (=B11+B12+…, and =B24-B25 for the unexplained
 *   difference), so that the sheet adds up in front of the reader. Every formula also carries its
 *   result, computed exactly from the decimal texts, so that a reader that does not calculate
 *   (a preview, a library) sees the figures too; Excel and LibreOffice recalculate on opening.
 * - "Items": every item of every line, with the line's name (the name the SUMIFS look for), then
 *   the rows set apart (which count on no line: their counted amount is empty) and the adjustments.
 * - "Exceptions": the open items as the exceptions queue follows them (owner, age, due date, hold,
 *   comments), when the caller passes them.
 *
 * Amounts are numbers in their cells, so that they add up: the one place an amount becomes a
 * JavaScript number. A double holds a decimal of up to 15 significant digits exactly enough to
 * print back the same decimal (Excel's own precision is 15 digits): every amount up to
 * 9,999,999,999,999.99 with its cents. An amount with more digits cannot be a number in a
 * spreadsheet without changing, and the workbook is refused (closeReports.amountTooLongForSpreadsheet)
 * rather than written wrong; the PDF and the CSV write it exactly. An amount with more than two
 * decimals that are not zero gets a number format with as many. Text cells are strings (a
 * description that starts with "=" is text, never a formula).
 */

/** One open item as the exceptions queue hands it to the workbook. */
export interface StatementException {
  /** The row's calendar date, YYYY-MM-DD. */
  date: string;
  description: string | null;
  reference: string | null;
  /** A decimal text. */
  amount: string;
  datasetName: string;
  /** The assignee's name, or null when unassigned. */
  assignee: string | null;
  ageDays: number;
  /** YYYY-MM-DD, or null. */
  dueDate: string | null;
  /** Why it is on hold, or null when it is not. */
  holdReason: string | null;
  /** The thread, oldest first; `at` is an ISO 8601 instant. */
  comments: { author: string; at: string; body: string }[];
}

/** The most significant digits an amount may have to be a number in a spreadsheet cell. */
export const SPREADSHEET_SIGNIFICANT_DIGITS_MAX = 15;

const DATE_FORMAT = 'd mmmm yyyy';
const HEADER_FILL: ExcelJS.Fill = { type: 'pattern', pattern: 'solid', fgColor: { argb: 'FFEDEDED' } };

/** The number a spreadsheet cell holds for a decimal text, and the number format that shows all its decimals. */
export function spreadsheetAmount(decimal: string): { value: number; numFmt: string } {
  const text = trimmedDecimal(decimal);
  const significant = text.replace(/[-.]/g, '').replace(/^0+/, '');
  if (significant.length > SPREADSHEET_SIGNIFICANT_DIGITS_MAX) throw closeReportErrors.amountTooLongForSpreadsheet(decimal);
  const decimals = decimalsOf(text);
  const zeros = '0'.repeat(decimals);
  return { value: Number(text), numFmt: `#,##0.${zeros};-#,##0.${zeros}` };
}

/** A calendar date as a spreadsheet date (midnight UTC, which is how exceljs writes a date's serial number). */
function spreadsheetDate(date: string): Date | string {
  const match = CALENDAR_DATE_PATTERN.exec(date);
  return match === null ? date : new Date(Date.UTC(Number(match[1]), Number(match[2]) - 1, Number(match[3])));
}

function setAmount(cell: ExcelJS.Cell, decimal: string, formula?: string): void {
  const { value, numFmt } = spreadsheetAmount(decimal);
  cell.value = formula === undefined ? value : { formula, result: value };
  cell.numFmt = numFmt;
  cell.alignment = { horizontal: 'right' };
}

function setDate(cell: ExcelJS.Cell, date: string | null): void {
  if (date === null) return;
  cell.value = spreadsheetDate(date);
  cell.numFmt = DATE_FORMAT;
  cell.alignment = { horizontal: 'left' };
}

function headerRow(sheet: ExcelJS.Worksheet, names: readonly string[]): void {
  const row = sheet.addRow([...names]);
  row.font = { bold: true };
  row.eachCell((cell) => (cell.fill = HEADER_FILL));
  sheet.views = [{ state: 'frozen', ySplit: row.number }];
}

/** The name the Items sheet gives an adjustment's line. */
function adjustmentLine(reason: keyof typeof ADJUSTMENT_REASON_WORDS): string {
  return `Adjustment: ${ADJUSTMENT_REASON_WORDS[reason]}`;
}

/** Renders the statement (and, when given, its exceptions) as an XLSX workbook. */
export async function renderStatementXlsx(statement: ReconciliationStatement, exceptions?: readonly StatementException[]): Promise<Buffer> {
  const rows = statementRows(statement);
  const signOff = signOffInWords(statement, formatInstant);
  const workbook = new ExcelJS.Workbook();
  workbook.creator = statement.organizationName;
  workbook.title = `Bank reconciliation statement: ${statement.reconciliation.name}, ${formatLongDate(statement.periodEnd)}`;
  workbook.created = new Date(statement.computedAt);
  workbook.modified = new Date(statement.computedAt);
  workbook.calcProperties.fullCalcOnLoad = true;

  // Items first (the statement's SUMIFS name their rows), though the Statement sheet comes first in the workbook.
  const statementSheet = workbook.addWorksheet('Statement', { pageSetup: { paperSize: 9, orientation: 'portrait', fitToPage: true, fitToWidth: 1 } });
  const itemsSheet = workbook.addWorksheet('Items');
  const exceptionsSheet = workbook.addWorksheet('Exceptions');

  // --- Items ---------------------------------------------------------------------------------
  itemsSheet.columns = [
    { key: 'line', width: 40 },
    { key: 'date', width: 16 },
    { key: 'dataset', width: 28 },
    { key: 'description', width: 48 },
    { key: 'reference', width: 18 },
    { key: 'amount', width: 16 },
    { key: 'counted', width: 16 },
    { key: 'reason', width: 40 },
  ];
  headerRow(itemsSheet, ['Line', 'Date', 'Dataset', 'Description', 'Reference', 'Amount', 'Counted amount', 'Reason']);
  for (const group of itemGroups(statement)) {
    for (const item of group.items) {
      const row = itemsSheet.addRow([group.name, null, item.datasetName, item.description ?? '', item.reference ?? '']);
      setDate(row.getCell('date'), item.date);
      setAmount(row.getCell('amount'), item.amount);
      if (group.counted) setAmount(row.getCell('counted'), item.countedAmount);
      row.getCell('reason').value = reasonInWords(item, group.counted);
    }
  }
  for (const adjustment of statement.adjustments.items) {
    const row = itemsSheet.addRow([adjustmentLine(adjustment.reason), null, '', adjustment.description, adjustment.bankReference ?? '']);
    setDate(row.getCell('date'), adjustment.date);
    setAmount(row.getCell('amount'), adjustment.amount);
    setAmount(row.getCell('counted'), adjustment.amount);
    row.getCell('reason').value = 'adjustment recorded on a match: what the bank holds more than the ledger';
  }
  const lastItemRow = Math.max(2, itemsSheet.rowCount);
  itemsSheet.autoFilter = { from: { row: 1, column: 1 }, to: { row: lastItemRow, column: 8 } };
  const sumIfs = (line: string, column: 'F' | 'G') =>
    `SUMIFS(Items!$${column}$2:$${column}$${lastItemRow},Items!$A$2:$A$${lastItemRow},"${line.replace(/"/g, '""')}")`;
  const formulaOfLine: Partial<Record<StatementRowKey, string>> = {
    depositsInTransit: sumIfs('Deposits in transit', 'G'),
    outstandingPayments: sumIfs('Outstanding payments', 'G'),
    bankReceiptsNotInLedger: `-${sumIfs('Bank receipts not yet in the ledger', 'G')}`,
    bankPaymentsNotInLedger: `-${sumIfs('Bank payments not yet in the ledger', 'G')}`,
    ...Object.fromEntries(ADJUSTMENT_REASONS.map((reason) => [`adjustment:${reason}`, `-${sumIfs(adjustmentLine(reason), 'F')}`])),
  };

  // --- Statement -----------------------------------------------------------------------------
  const sheet = statementSheet;
  sheet.columns = [{ width: 52 }, { width: 20 }, { width: 80 }];
  sheet.addRow([statement.organizationName]).font = { bold: true };
  sheet.addRow([`Bank reconciliation statement: ${statement.reconciliation.name}`]).font = { bold: true, size: 14 };
  sheet.addRow([signOff.state]).font = { bold: true, color: { argb: signOff.draft ? 'FFB3261E' : 'FF5A5A5A' } };
  sheet.addRow(['Bank account', namesInWords(statement.reconciliation.bankDatasetNames)]);
  sheet.addRow(['Ledger', namesInWords(statement.reconciliation.ledgerDatasetNames)]);
  sheet.addRow(['Currency', statement.reconciliation.currency]);
  sheet.addRow(['Period', `${formatLongDate(statement.periodStart)} to ${formatLongDate(statement.periodEnd)}`]);
  sheet.addRow([]);
  const header = sheet.addRow(['Line', `Amount (${statement.reconciliation.currency})`, 'Note']);
  header.font = { bold: true };
  header.eachCell((cell) => (cell.fill = HEADER_FILL));
  header.getCell(2).alignment = { horizontal: 'right' };
  const rowOf = new Map<StatementRowKey, number>();
  for (const line of rows) {
    if (line.heading !== null) sheet.addRow([line.heading]).font = { bold: true };
    const row = sheet.addRow([line.key.startsWith('adjustment:') ? `    ${line.label}` : line.label, null, line.note ?? '']);
    rowOf.set(line.key, row.number);
    let formula = formulaOfLine[line.key];
    if (line.total !== null) {
      const added = line.total.sumOf.map((key) => `B${rowOf.get(key)}`).join('+');
      formula = line.total.less === undefined ? added : `${added}-B${rowOf.get(line.total.less)}`;
      row.font = { bold: true };
      row.getCell(2).border = { top: { style: 'thin' }, ...(line.key === 'unexplainedDifference' ? { bottom: { style: 'double' } } : {}) };
    }
    if (line.key === 'bankBalance' || line.key === 'ledgerBalance') row.font = { bold: true };
    setAmount(row.getCell(2), line.amount, formula);
    row.getCell(3).font = { italic: true, color: { argb: 'FF5A5A5A' } };
  }
  sheet.addRow([]);
  sheet.addRow(['Sign-off']).font = { bold: true };
  sheet.addRow(['Prepared by', signOff.prepared]);
  if (signOff.preparerNote) sheet.addRow(["Preparer's note", signOff.preparerNote]);
  sheet.addRow(['Approved by', signOff.approved]);
  sheet.addRow(['Computed', formatInstant(statement.computedAt)]);
  // Words in the amount column (the facts above the lines, the sign-off below) read from the left.
  sheet.getColumn(2).eachCell((cell, rowNumber) => {
    if (typeof cell.value === 'string' && rowNumber !== header.number) cell.alignment = { horizontal: 'left' };
  });

  // --- Exceptions ----------------------------------------------------------------------------
  exceptionsSheet.columns = [
    { key: 'date', width: 16 },
    { key: 'dataset', width: 28 },
    { key: 'description', width: 44 },
    { key: 'reference', width: 18 },
    { key: 'amount', width: 16 },
    { key: 'assignee', width: 22 },
    { key: 'age', width: 12 },
    { key: 'due', width: 16 },
    { key: 'hold', width: 30 },
    { key: 'comments', width: 70 },
  ];
  headerRow(exceptionsSheet, ['Date', 'Dataset', 'Description', 'Reference', 'Amount', 'Assigned to', 'Age (days)', 'Due date', 'On hold because', 'Comments']);
  if (exceptions === undefined) {
    exceptionsSheet.addRow(['The exceptions were not included in this export.']);
  } else if (exceptions.length === 0) {
    exceptionsSheet.addRow(['There are no open exceptions.']);
  } else {
    for (const exception of exceptions) {
      const row = exceptionsSheet.addRow([
        null,
        exception.datasetName,
        exception.description ?? '',
        exception.reference ?? '',
        null,
        exception.assignee ?? 'Unassigned',
        exception.ageDays,
        null,
        exception.holdReason,
        exception.comments.length === 0
          ? null
          : exception.comments.map((comment) => `${comment.author}, ${formatInstant(comment.at)}: ${comment.body}`).join('\n'),
      ]);
      row.alignment = { vertical: 'top' };
      setDate(row.getCell('date'), exception.date);
      setAmount(row.getCell('amount'), exception.amount);
      setDate(row.getCell('due'), exception.dueDate);
      row.getCell('comments').alignment = { wrapText: true, vertical: 'top' };
    }
    exceptionsSheet.autoFilter = { from: { row: 1, column: 1 }, to: { row: exceptionsSheet.rowCount, column: 10 } };
  }

  return Buffer.from(await workbook.xlsx.writeBuffer());
}
