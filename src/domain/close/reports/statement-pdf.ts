import PDFDocument from 'pdfkit';
import type { ReconciliationStatement, StatementAdjustment } from '../statement-shape.ts';
import { formatAmount, formatInstant, formatLongDate, sum } from './format.ts';
import {
  ADJUSTMENT_REASON_WORDS,
  itemGroups,
  namesInWords,
  reasonInWords,
  signOffInWords,
  statementRows,
  type ItemGroup,
  type StatementRow,
} from './statement-lines.ts';

/**
 * The reconciliation statement as a PDF an auditor files: A4, the statement on the first page
 * (organization, reconciliation, accounts, currency, period, the lines in the accountant's form
 * with their amounts right-aligned, who prepared and approved it and when), then the items behind
 * each line as an appendix, the adjustments and the rows set apart. An open period's statement
 * carries "DRAFT — not signed" as its heading and as a watermark on every page.
 *
 * The text is set in Helvetica, one of the 14 fonts every PDF reader has, whose metrics pdfkit
 * bundles: nothing is fetched and no font file is embedded. Those fonts write the Windows-1252
 * characters (Western European letters, €, dashes, quotes); a character beyond them is written
 * without its accent when that makes it one of them ("ő" as "o"), else as "?" (a Greek or
 * Cyrillic letter, a symbol). The XLSX and the CSV keep every character.
 */

const PAGE_MARGIN = 48;
const FONT = 'Helvetica';
const BOLD = 'Helvetica-Bold';
const INK = '#1a1a1a';
const MUTED = '#5a5a5a';
const RULE = '#9a9a9a';
const DRAFT_RED = '#b3261e';

/** The characters Windows-1252 holds beyond Latin-1 (0x80-0x9F), which the standard fonts write. */
const WIN_ANSI_EXTRA = new Set('€‚ƒ„…†‡ˆ‰Š‹ŒŽ‘’“”•–—˜™š›œžŸ');

/** Characters people put in names that the standard fonts lack, and what stands for them. */
const STAND_INS: Record<string, string> = {
  '\u2212': '-',
  '\u2194': '<->',
  '\u2192': '->',
  '\u2190': '<-',
  '\u21c4': '<->',
  '\u2260': '!=',
  '\u2264': '<=',
  '\u2265': '>=',
};

/** Text the standard fonts can write: see the module's comment. */
export function pdfText(text: string): string {
  let written = '';
  for (const character of text.normalize('NFC').replace(/[\u2212\u2194\u2192\u2190\u21c4\u2260\u2264\u2265]/g, (found) => STAND_INS[found]!)) {
    const code = character.codePointAt(0)!;
    if (code < 0x20 || (code >= 0x7f && code < 0xa0)) written += ' ';
    else if (code <= 0xff || WIN_ANSI_EXTRA.has(character)) written += character;
    else {
      const bare = character.normalize('NFKD').replace(/[\u0300-\u036f]/g, '');
      written += [...bare].every((part) => (part.codePointAt(0) ?? 0) <= 0xff) && bare !== '' ? bare : '?';
    }
  }
  return written;
}

/** Renders the statement as a PDF document. */
export async function renderStatementPdf(statement: ReconciliationStatement): Promise<Buffer> {
  const rows = statementRows(statement);
  const groups = itemGroups(statement);
  const signOff = signOffInWords(statement, formatInstant);
  const title = `Bank reconciliation statement: ${statement.reconciliation.name}`;
  const document = new PDFDocument({
    size: 'A4',
    margins: { top: PAGE_MARGIN, bottom: PAGE_MARGIN, left: PAGE_MARGIN, right: PAGE_MARGIN },
    bufferPages: true,
    info: {
      Title: pdfText(`${title}, ${formatLongDate(statement.periodEnd)}`),
      Author: pdfText(statement.organizationName),
      Subject: pdfText(`Period ${formatLongDate(statement.periodStart)} to ${formatLongDate(statement.periodEnd)}`),
    },
  });
  const chunks: Buffer[] = [];
  document.on('data', (chunk: Buffer) => chunks.push(chunk));
  const finished = new Promise<Buffer>((resolve, reject) => {
    document.on('end', () => resolve(Buffer.concat(chunks)));
    document.on('error', reject);
  });

  const page = new Page(document);
  page.header(statement, title, signOff.state, signOff.draft);
  page.statementLines(rows, statement.reconciliation.currency);
  page.signOff(signOff, statement);

  document.addPage();
  page.appendixTitle(statement);
  for (const group of groups) page.itemGroup(group);
  page.adjustments(statement.adjustments.items);

  page.finish(statement, signOff.draft);
  document.end();
  return finished;
}

/** The writing of one document: where the pen is, and how each part is laid out. */
class Page {
  private readonly left: number;
  private readonly right: number;
  private readonly width: number;
  constructor(private readonly document: PDFKit.PDFDocument) {
    this.left = document.page.margins.left;
    this.right = document.page.width - document.page.margins.right;
    this.width = this.right - this.left;
  }

  private get y(): number {
    return this.document.y;
  }

  private text(text: string, x: number, y: number, options: PDFKit.Mixins.TextOptions & { font?: string; size?: number; color?: string } = {}): void {
    const { font = FONT, size = 9.5, color = INK, ...rest } = options;
    this.document.font(font).fontSize(size).fillColor(color).text(pdfText(text), x, y, rest);
  }

  /** One line of text cut with an ellipsis to its width. */
  private cell(
    text: string,
    x: number,
    y: number,
    width: number,
    options: { font?: string; size?: number; color?: string; align?: 'left' | 'right' } = {},
  ): void {
    this.text(text, x, y, { ...options, width, height: (options.size ?? 8.5) * 1.25, lineBreak: false, ellipsis: true });
  }

  private rule(y: number, from = this.left, to = this.right, weight = 0.6): void {
    this.document.moveTo(from, y).lineTo(to, y).lineWidth(weight).strokeColor(RULE).stroke();
  }

  /** Starts a new page when fewer than `needed` points are left on this one. */
  private room(needed: number, onNewPage?: () => void): void {
    if (this.y + needed > this.document.page.height - this.document.page.margins.bottom - 18) {
      this.document.addPage();
      onNewPage?.();
    }
  }

  header(statement: ReconciliationStatement, title: string, state: string, draft: boolean): void {
    const reconciliation = statement.reconciliation;
    this.text(statement.organizationName, this.left, this.left, { size: 10, color: MUTED });
    this.text(title, this.left, this.y + 2, { font: BOLD, size: 15 });
    this.text(state, this.left, this.y + 2, { font: BOLD, size: draft ? 13 : 10, color: draft ? DRAFT_RED : MUTED });
    const facts: [string, string][] = [
      ['Bank account', namesInWords(reconciliation.bankDatasetNames)],
      ['Ledger', namesInWords(reconciliation.ledgerDatasetNames)],
      ['Currency', reconciliation.currency],
      ['Period', `${formatLongDate(statement.periodStart)} to ${formatLongDate(statement.periodEnd)}`],
    ];
    let y = this.y + 10;
    for (const [name, value] of facts) {
      this.text(name, this.left, y, { size: 9.5, color: MUTED, width: 90 });
      this.text(value, this.left + 90, y, { size: 9.5, width: this.width - 90 });
      y = this.y + 3;
    }
    this.document.y = y + 10;
  }

  statementLines(rows: readonly StatementRow[], currency: string): void {
    const amountWidth = 150;
    const amountX = this.right - amountWidth;
    this.rule(this.y);
    this.text(`Amounts in ${currency}`, amountX, this.y + 6, { width: amountWidth, align: 'right', size: 8.5, color: MUTED });
    this.document.y += 6;
    for (const row of rows) {
      if (row.heading !== null) {
        this.text(row.heading, this.left, this.y + 6, { font: BOLD, size: 10 });
      }
      const isTotal = row.total !== null;
      const indent = row.key.startsWith('adjustment:') ? 14 : 0;
      let top = this.y + (isTotal ? 10 : 6);
      if (isTotal) {
        this.rule(top - 4, amountX + 20, this.right);
      }
      const font = isTotal || row.key === 'bankBalance' || row.key === 'ledgerBalance' ? BOLD : FONT;
      const size = row.key === 'unexplainedDifference' ? 11 : 10;
      this.text(formatAmount(row.amount), amountX, top, { font, size, width: amountWidth, align: 'right', lineBreak: false });
      this.text(row.label, this.left + indent, top, { font, size, width: amountX - this.left - indent - 10 });
      if (row.note !== null) {
        top = this.y + 1;
        this.text(row.note, this.left + indent + 10, top, { size: 8.5, color: MUTED, width: this.width - indent - 10 });
      }
      if (row.key === 'unexplainedDifference') {
        this.rule(this.y + 3, amountX + 20, this.right);
        this.rule(this.y + 5, amountX + 20, this.right);
      }
    }
    this.document.y += 18;
  }

  signOff(signOff: ReturnType<typeof signOffInWords>, statement: ReconciliationStatement): void {
    this.room(110);
    this.rule(this.y);
    this.text('Sign-off', this.left, this.y + 8, { font: BOLD, size: 11 });
    const entries: [string, string][] = [
      ['Prepared by', signOff.prepared],
      ...(signOff.preparerNote ? ([["Preparer's note", signOff.preparerNote]] as [string, string][]) : []),
      ['Approved by', signOff.approved],
    ];
    let y = this.y + 6;
    for (const [name, value] of entries) {
      this.text(name, this.left, y, { size: 10, color: MUTED, width: 100 });
      this.text(value, this.left + 100, y, { size: 10, width: this.width - 100 });
      y = this.y + 4;
    }
    this.text(`Computed ${formatInstant(statement.computedAt)}. The items behind each line follow in the appendix.`, this.left, y + 10, {
      size: 8.5,
      color: MUTED,
      width: this.width,
    });
  }

  appendixTitle(statement: ReconciliationStatement): void {
    this.text('Appendix: the items behind the statement', this.left, this.document.page.margins.top, { font: BOLD, size: 13 });
    this.text(
      `${statement.reconciliation.name}, ${formatLongDate(statement.periodEnd)}. Amounts in ${statement.reconciliation.currency}.`,
      this.left,
      this.y + 2,
      {
        size: 9,
        color: MUTED,
      },
    );
    this.document.y += 6;
  }

  /** The columns of an item table: date, dataset, description, reference, amount, counted. */
  private columns() {
    const widths = [80, 86, 0, 64, 60, 60];
    widths[2] = this.width - widths.reduce((total, width) => total + width, 0);
    let x = this.left;
    return widths.map((width) => {
      const column = { x, width };
      x += width;
      return column;
    });
  }

  private tableHeader(names: readonly string[]): void {
    const columns = this.columns();
    const y = this.y + 4;
    names.forEach((name, index) => {
      const column = columns[index]!;
      const numeric = index >= 4;
      this.cell(name, column.x + (numeric ? 0 : 2), y, column.width - 4, { font: BOLD, size: 8, color: MUTED, align: numeric ? 'right' : 'left' });
    });
    this.rule(y + 11);
    this.document.y = y + 13;
  }

  /**
   * One row of an item table: the texts wrap within their column (at most three lines, the rest
   * cut with an ellipsis), the amounts are right-aligned, and a note in small type goes under the
   * description. A row that does not fit starts a new page, under the table's header again.
   */
  private tableRow(values: readonly string[], note: string | null, names: readonly string[]): void {
    const columns = this.columns();
    const size = 8.5;
    const lineHeight = size * 1.2;
    this.document.font(FONT).fontSize(size);
    const lines = values.map((value, index) =>
      index >= 4 || value === ''
        ? 1
        : Math.min(3, Math.ceil(this.document.heightOfString(pdfText(value), { width: columns[index]!.width - 4 }) / lineHeight - 0.01)),
    );
    const height = Math.max(1, ...lines) * lineHeight + (note === null ? 0 : 9.5) + 3;
    this.room(height, () => this.tableHeader(names));
    const y = this.y + 2;
    values.forEach((value, index) => {
      const column = columns[index]!;
      const numeric = index >= 4;
      // An amount is never cut: one too wide for its column is set smaller.
      const written = numeric ? Math.min(size, (size * (column.width - 4)) / Math.max(1, this.document.font(FONT).fontSize(size).widthOfString(value))) : size;
      this.text(value, column.x + (numeric ? 0 : 2), y + (size - written), {
        size: written,
        width: column.width - 4,
        align: numeric ? 'right' : 'left',
        height: lines[index]! * lineHeight,
        ellipsis: true,
        lineGap: 0,
      });
    });
    if (note !== null) {
      this.cell(note, columns[2]!.x + 2, y + lines[2]! * lineHeight, columns[2]!.width + columns[3]!.width - 4, { size: 7.5, color: MUTED });
    }
    this.document.y = y + height - 2;
  }

  itemGroup(group: ItemGroup): void {
    this.room(60);
    const counted = group.counted ? group.items.map((item) => item.countedAmount) : [];
    const heading = group.counted
      ? `${group.name}: ${group.items.length} ${group.items.length === 1 ? 'item' : 'items'}, counted ${formatAmount(sum(counted))}`
      : `${group.name}: ${group.items.length} ${group.items.length === 1 ? 'row' : 'rows'} (they count on no line)`;
    this.text(heading, this.left, this.y + 10, { font: BOLD, size: 10 });
    if (group.items.length === 0) {
      this.text('None.', this.left + 2, this.y + 3, { size: 9, color: MUTED });
      return;
    }
    const names = ['Date', 'Dataset', 'Description', 'Reference', 'Amount', group.counted ? 'Counted' : ''];
    this.tableHeader(names);
    for (const item of group.items) {
      const reason = reasonInWords(item, group.counted);
      this.tableRow(
        [
          formatLongDate(item.date),
          item.datasetName,
          item.description ?? '',
          item.reference ?? '',
          formatAmount(item.amount),
          group.counted ? formatAmount(item.countedAmount) : '',
        ],
        reason === 'open' ? null : reason,
        names,
      );
    }
  }

  adjustments(adjustments: readonly StatementAdjustment[]): void {
    this.room(60);
    this.text(
      `Adjustments recorded on matches: ${adjustments.length} ${adjustments.length === 1 ? 'adjustment' : 'adjustments'}, ${formatAmount(sum(adjustments.map((item) => item.amount)))}`,
      this.left,
      this.y + 10,
      { font: BOLD, size: 10 },
    );
    if (adjustments.length === 0) {
      this.text('None.', this.left + 2, this.y + 3, { size: 9, color: MUTED });
      return;
    }
    const names = ['Date', 'Reason', 'Description', 'Bank reference', 'Amount', ''];
    this.tableHeader(names);
    for (const adjustment of adjustments) {
      this.tableRow(
        [
          formatLongDate(adjustment.date),
          ADJUSTMENT_REASON_WORDS[adjustment.reason],
          adjustment.description,
          adjustment.bankReference ?? '',
          formatAmount(adjustment.amount),
          '',
        ],
        null,
        names,
      );
    }
    this.text('An adjustment is what the bank holds more than the ledger for its match; a bank charge is negative.', this.left, this.y + 6, {
      size: 8,
      color: MUTED,
      width: this.width,
    });
  }

  /** The footer and, for a draft, the watermark of every page. */
  finish(statement: ReconciliationStatement, draft: boolean): void {
    const range = this.document.bufferedPageRange();
    for (let index = range.start; index < range.start + range.count; index += 1) {
      this.document.switchToPage(index);
      const bottom = this.document.page.height - this.document.page.margins.bottom;
      // Writing below the bottom margin would start a new page; the footer is placed with the margin lifted.
      const margin = this.document.page.margins.bottom;
      this.document.page.margins.bottom = 0;
      this.text(
        `${statement.organizationName} · ${statement.reconciliation.name} · ${formatLongDate(statement.periodEnd)}${draft ? ' · DRAFT — not signed' : ''}`,
        this.left,
        bottom + 14,
        { size: 7.5, color: MUTED, width: this.width - 80, lineBreak: false, ellipsis: true, height: 10 },
      );
      this.text(`Page ${index - range.start + 1} of ${range.count}`, this.right - 80, bottom + 14, {
        size: 7.5,
        color: MUTED,
        width: 80,
        align: 'right',
        lineBreak: false,
      });
      if (draft) this.watermark();
      this.document.page.margins.bottom = margin;
    }
  }

  private watermark(): void {
    const { width, height } = this.document.page;
    this.document.save();
    this.document.rotate(-35, { origin: [width / 2, height / 2] });
    this.document.font(BOLD).fontSize(110).fillColor(DRAFT_RED).fillOpacity(0.08);
    this.document.text('DRAFT', 0, height / 2 - 55, { width, align: 'center', lineBreak: false });
    this.document.restore();
    this.document.fillOpacity(1);
  }
}
