import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { inflateRawSync } from 'node:zlib';
import path from 'node:path';
import { after, describe, it } from 'node:test';
import { parse } from 'csv-parse/sync';
import ExcelJS from 'exceljs';
import { AppError } from '../../../errors.ts';
import { addDecimals } from '../../../../sdk/src/money.ts';
import { sampleDraftStatement, sampleStatement } from '../../../../support/close-statement-sample.ts';
import type { ReconciliationStatement, StatementItem } from '../statement-shape.ts';
import { formatAmount, formatInstant, formatLongDate } from './format.ts';
import { renderStatementItemsCsv } from './statement-csv.ts';
import { pdfText, renderStatementPdf } from './statement-pdf.ts';
import { renderStatementXlsx, spreadsheetAmount, type StatementException } from './statement-xlsx.ts';

const work = mkdtempSync(path.join(tmpdir(), 'close-reports-'));
after(() => rmSync(work, { recursive: true, force: true }));

/** The statement's lines as the sample's comment works them out by hand: label, amount. */
const SIGNED_LINES: [string, string][] = [
  ['Balance per bank at 31 March 2026', '1,248,250.75'],
  ['Add: deposits in transit', '3,600.00'],
  ['Less: outstanding payments', '-14,375.40'],
  ['Less: bank receipts not yet in the ledger', '-162.34'],
  ['Add: bank payments not yet in the ledger', '25.00'],
  ['Adjusted bank balance', '1,237,338.01'],
  ['Bank charges (fee)', '6.50'],
  ['Exchange differences (fx)', '-1.85'],
  ['Rounding', '-0.01'],
  ['Write-off', '0.50'],
  ['Adjusted bank balance after adjustments', '1,237,343.15'],
  ['Balance per ledger at 31 March 2026', '1,237,343.15'],
  ['Unexplained difference', '0.00'],
];

function allItems(statement: ReconciliationStatement): StatementItem[] {
  return [...statement.ledgerNotInBank.items, ...statement.bankNotInLedger.items, ...statement.setApart.informative, ...statement.setApart.outOfScope];
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

describe('the formats of the close reports', () => {
  it('write amounts from their decimal text, grouped, with two decimals and a minus', () => {
    assert.equal(formatAmount('1248250.75'), '1,248,250.75');
    assert.equal(formatAmount('-14375.4'), '-14,375.40');
    assert.equal(formatAmount('0'), '0.00');
    assert.equal(formatAmount('-0.00'), '0.00');
    assert.equal(formatAmount('999'), '999.00');
    assert.equal(formatAmount('0.125'), '0.125');
    assert.equal(formatAmount('1.2300'), '1.23');
    // Beyond a double's precision, every digit stays.
    assert.equal(formatAmount('123456789012345678.99'), '123,456,789,012,345,678.99');
  });

  it('write dates and instants for reading', () => {
    assert.equal(formatLongDate('2026-03-31'), '31 March 2026');
    assert.equal(formatLongDate('2026-01-01'), '1 January 2026');
    assert.equal(formatInstant('2026-04-02T09:15:00Z'), '2 April 2026 at 09:15 UTC');
    assert.equal(formatInstant('2026-04-02T23:30:00-02:00'), '3 April 2026 at 01:30 UTC');
  });
});

describe('the statement as PDF', () => {
  const pdftotext = ['/usr/bin/pdftotext', '/usr/local/bin/pdftotext'].find((candidate) => existsSync(candidate));

  function textOf(pdf: Buffer, name: string, pages?: [number, number]): string {
    assert.ok(pdftotext, 'pdftotext is missing: install poppler-utils (apt-get install -y poppler-utils); .ci/run installs it');
    const file = path.join(work, `${name}.pdf`);
    writeFileSync(file, pdf);
    const range = pages ? ['-f', String(pages[0]), '-l', String(pages[1])] : [];
    return execFileSync(pdftotext, ['-layout', ...range, file, '-'], { encoding: 'utf8' });
  }

  it('writes the signed statement on its first page: names, period, every line with its amount, the sign-off', async () => {
    const statement = sampleStatement();
    const pdf = await renderStatementPdf(statement);
    assert.equal(pdf.subarray(0, 5).toString(), '%PDF-');
    const first = textOf(pdf, 'signed', [1, 1]);
    for (const words of [
      'Northwind Trading GmbH',
      'Bank reconciliation statement: Operating account EUR <-> GL 1200',
      'Approved',
      'Sparkasse operating account',
      'General ledger 1200',
      'EUR',
      '1 March 2026 to 31 March 2026',
      'from the statement of 31 March 2026',
      'opening balance 1,200,000.00 on 1 January 2026',
      'Anna Schmidt, 2 April 2026 at 09:15 UTC',
      'All items explained; payroll cleared on 1 April.',
      'Jonas Weber, 3 April 2026 at 16:40 UTC',
      'Page 1 of 2',
    ]) {
      assert.ok(first.includes(words), `page 1 says ${words}:\n${first}`);
    }
    // Each line and its amount on one line of the page, in order.
    let from = 0;
    for (const [label, amount] of SIGNED_LINES) {
      const match = new RegExp(`${escapeRegExp(label)} +${escapeRegExp(amount)}\\n`).exec(first.slice(from));
      assert.ok(match, `"${label}" then ${amount} on one line, after the lines before it:\n${first}`);
      from += match.index + match[0].length;
    }
    assert.doesNotMatch(first, /DRAFT|Not yet/);
  });

  it('lists every item, adjustment and row set apart in the appendix', async () => {
    const statement = sampleStatement();
    const appendix = textOf(await renderStatementPdf(statement), 'appendix', [2, 2]);
    for (const item of allItems(statement)) {
      const row = appendix.split('\n').find((line) => line.includes(formatLongDate(item.date)) && line.includes(formatAmount(item.amount)));
      assert.ok(row, `a row of ${item.date} for ${item.amount}:\n${appendix}`);
      if (item.reference) assert.ok(row.includes(item.reference), `${item.reference} in ${row}`);
    }
    for (const words of [
      'Deposits in transit: 2 items, counted 3,600.00',
      'Outstanding payments: 2 items, counted -14,375.40',
      'Bank receipts not yet in the ledger: 2 items, counted 162.34',
      'Bank payments not yet in the ledger: 1 item, counted -25.00',
      'Set apart: informative: 1 row',
      'Set apart: out of scope: 1 row',
      'Adjustments recorded on matches: 5 adjustments, -5.14',
      'Customer receipt Müller & Söhne',
      'partly matched: the open remainder counts',
      'matched after the period end',
      '=HYPERLINK(',
    ]) {
      assert.ok(appendix.includes(words), `the appendix says ${words}:\n${appendix}`);
    }
    assert.match(appendix, /INV-1038 +1,200\.00 +200\.00/);
    for (const adjustment of statement.adjustments.items) {
      assert.match(appendix, new RegExp(`${escapeRegExp(formatLongDate(adjustment.date))} .*${escapeRegExp(formatAmount(adjustment.amount))}\\n`));
      if (adjustment.bankReference) assert.ok(appendix.includes(adjustment.bankReference));
    }
  });

  it('marks an open period as a draft, says who has not signed, and shows the difference left', async () => {
    const text = textOf(await renderStatementPdf(sampleDraftStatement()), 'draft');
    assert.ok(text.includes('DRAFT — not signed'), text);
    assert.ok(text.includes('Not yet prepared'));
    assert.ok(text.includes('Not yet approved'));
    assert.match(text, /Balance per ledger at 31 March 2026 +1,237,300\.00\n/);
    assert.match(text, /Unexplained difference +43\.15\n/);
    assert.ok(text.includes('must be 0.00 before the period can be prepared'));
    // The watermark is on every page.
    assert.equal(text.split('\f').filter((page) => page.includes('DRAFT')).length, 2);
  });

  it('says when the bank balance is computed, and takes many items over several pages', async () => {
    const many = Array.from({ length: 90 }, (_, index) => ({
      transactionId: `00000000-0000-4000-9000-${String(index).padStart(12, '0')}`,
      datasetName: 'General ledger 1200',
      date: '2026-03-20',
      description: `Cheque ${1000 + index} to a supplier with a rather long name that wraps onto a second line of its cell`,
      reference: `CHQ-${1000 + index}`,
      amount: '-10.00',
      countedAmount: '-10.00',
      reason: 'open' as const,
    }));
    const statement = sampleStatement({
      bankBalance: { amount: '1249150.75', source: 'computed', statementDate: null },
      ledgerNotInBank: { total: '-11675.40', items: [...sampleStatement().ledgerNotInBank.items, ...many] },
    });
    const pdf = await renderStatementPdf(statement);
    const text = textOf(pdf, 'many');
    assert.ok(text.includes('computed from the opening balance and entries: no statement balance on or before 31 March 2026'), text);
    assert.match(text, /Less: outstanding payments +-15,275\.40\n/);
    const pages = text.split('\f').filter((page) => page.trim() !== '');
    assert.ok(pages.length >= 4, `${pages.length} pages`);
    assert.ok(text.includes(`Page 1 of ${pages.length}`));
    for (const item of many) assert.ok(text.includes(item.reference), item.reference);
  });

  it('renders to an image that can be looked at', async () => {
    const pdftoppm = ['/usr/bin/pdftoppm', '/usr/local/bin/pdftoppm'].find((candidate) => existsSync(candidate));
    assert.ok(pdftoppm, 'pdftoppm is missing: install poppler-utils (apt-get install -y poppler-utils)');
    const file = path.join(work, 'look.pdf');
    writeFileSync(file, await renderStatementPdf(sampleDraftStatement()));
    execFileSync(pdftoppm, ['-r', '80', '-png', file, path.join(work, 'look')]);
    for (const page of ['look-1.png', 'look-2.png']) {
      const png = readFileSync(path.join(work, page));
      assert.equal(png.subarray(1, 4).toString(), 'PNG');
      assert.ok(statSync(path.join(work, page)).size > 10_000, `${page} has something drawn on it`);
    }
  });

  it('writes what the standard fonts lack in letters they have', () => {
    assert.equal(pdfText('Zürich ↔ Łódź −5 Ωmega €'), 'Zürich <-> ?ódz -5 ?mega €');
    assert.equal(pdfText('tab\there'), 'tab here');
  });

  it('refuses a statement that does not add up', async () => {
    await assert.rejects(renderStatementPdf(sampleStatement({ adjustedBankBalance: '1237338.02' })), /does not add up: the adjusted bank balance/);
    await assert.rejects(renderStatementPdf(sampleStatement({ unexplainedDifference: '0.01' })), /does not add up: the unexplained difference/);
  });
});

/** A file of a ZIP archive (an XLSX), read through its central directory. */
function zipEntry(archive: Buffer, name: string): string {
  let end = archive.length - 22;
  while (end >= 0 && archive.readUInt32LE(end) !== 0x06054b50) end -= 1;
  let at = archive.readUInt32LE(end + 16);
  for (let entry = 0; entry < archive.readUInt16LE(end + 10); entry += 1) {
    const method = archive.readUInt16LE(at + 10);
    const size = archive.readUInt32LE(at + 20);
    const nameLength = archive.readUInt16LE(at + 28);
    const extra = archive.readUInt16LE(at + 30);
    const comment = archive.readUInt16LE(at + 32);
    const local = archive.readUInt32LE(at + 42);
    if (archive.subarray(at + 46, at + 46 + nameLength).toString() === name) {
      const start = local + 30 + archive.readUInt16LE(local + 26) + archive.readUInt16LE(local + 28);
      const data = archive.subarray(start, start + size);
      return (method === 8 ? inflateRawSync(data) : data).toString('utf8');
    }
    at += 46 + nameLength + extra + comment;
  }
  assert.fail(`no ${name} in the archive`);
}

/** The cached results of the formulas of a sheet's XML, by cell address, as the file holds them. */
function cachedResults(sheetXml: string): Map<string, string> {
  return new Map([...sheetXml.matchAll(/<c r="([A-Z]+\d+)"[^>]*><f>[^<]*<\/f><v>([^<]*)<\/v><\/c>/g)].map((match) => [match[1]!, match[2]!]));
}

/**
 * A cell's number, or a formula's cached result. exceljs reads a cached result of 0 as none, so
 * the file's own <v> is the witness (`cached`, from the sheet's XML).
 */
function numberOf(cell: ExcelJS.Cell, cached?: Map<string, string>): number {
  const value = cell.value;
  if (typeof value === 'number') return value;
  if (value !== null && typeof value === 'object' && 'formula' in value && cached?.has(cell.address)) return Number(cached.get(cell.address));
  if (value !== null && typeof value === 'object' && 'result' in value && typeof value.result === 'number') return value.result;
  assert.fail(`${cell.address} holds no number: ${JSON.stringify(value)}`);
}

function cents(value: number): number {
  return Math.round(value * 100);
}

/**
 * Evaluates the formulas the Statement sheet uses, in cents: sums and differences of cells of the
 * sheet, and [-]SUMIFS(Items!$X$a:$X$b,Items!$A$a:$A$b,"line").
 */
function evaluate(formula: string, sheet: ExcelJS.Worksheet, items: ExcelJS.Worksheet, cached: Map<string, string>): number {
  let total = 0;
  const terms = formula.match(/[+-]?(SUMIFS\((?:"[^"]*"|[^)"])*\)|[A-Z]+\d+)/g);
  assert.ok(terms && terms.join('') === formula, `a formula of sums and SUMIFS: ${formula}`);
  for (const term of terms) {
    const sign = term.startsWith('-') ? -1 : 1;
    const body = term.replace(/^[+-]/, '');
    const sumIfs = /^SUMIFS\(Items!\$([A-Z])\$(\d+):\$\1\$(\d+),Items!\$A\$\2:\$A\$\3,"(.*)"\)$/.exec(body);
    if (sumIfs) {
      const [, column, first, last, line] = sumIfs;
      let sum = 0;
      for (let row = Number(first); row <= Number(last); row += 1) {
        if (items.getCell(`A${row}`).value === line!.replace(/""/g, '"')) {
          const value = items.getCell(`${column}${row}`).value;
          if (typeof value === 'number') sum += cents(value);
        }
      }
      total += sign * sum;
    } else {
      total += sign * cents(numberOf(sheet.getCell(body), cached));
    }
  }
  return total;
}

function rowByLabel(sheet: ExcelJS.Worksheet, label: string): ExcelJS.Row {
  let found: ExcelJS.Row | undefined;
  sheet.eachRow((row) => {
    if (typeof row.getCell(1).value === 'string' && (row.getCell(1).value as string).trim() === label) found = row;
  });
  assert.ok(found, `a row "${label}"`);
  return found;
}

const EXCEPTIONS: StatementException[] = [
  {
    date: '2026-03-15',
    description: '=HYPERLINK("http://example.test/x","Refund")',
    reference: '+REF-99',
    amount: '150.00',
    datasetName: 'Sparkasse operating account',
    assignee: 'Anna Schmidt',
    ageDays: 16,
    dueDate: '2026-04-10',
    holdReason: 'waiting for the invoice',
    comments: [
      { author: 'Anna Schmidt', at: '2026-03-20T10:00:00Z', body: 'Asked the customer for the remittance advice.' },
      { author: 'Jonas Weber', at: '2026-03-21T08:30:00Z', body: 'Reminder sent.' },
    ],
  },
  {
    date: '2026-03-31',
    description: 'Account maintenance fee',
    reference: 'FEE-03',
    amount: '-25.00',
    datasetName: 'Sparkasse operating account',
    assignee: null,
    ageDays: 0,
    dueDate: null,
    holdReason: null,
    comments: [],
  },
];

describe('the statement as XLSX', () => {
  async function read(buffer: Buffer): Promise<ExcelJS.Workbook> {
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(buffer as unknown as ArrayBuffer);
    return workbook;
  }

  it('has a Statement sheet whose lines are the statement’s, whose totals are formulas that add up to their cached figures', async () => {
    const file = await renderStatementXlsx(sampleStatement(), EXCEPTIONS);
    const workbook = await read(file);
    const cached = cachedResults(zipEntry(file, 'xl/worksheets/sheet1.xml'));
    assert.deepEqual(
      workbook.worksheets.map((sheet) => sheet.name),
      ['Statement', 'Items', 'Exceptions'],
    );
    const sheet = workbook.getWorksheet('Statement')!;
    const items = workbook.getWorksheet('Items')!;
    assert.equal(sheet.getCell('A1').value, 'Northwind Trading GmbH');
    assert.equal(sheet.getCell('A2').value, 'Bank reconciliation statement: Operating account EUR ↔ GL 1200');
    assert.equal(sheet.getCell('A3').value, 'Approved');
    assert.equal(rowByLabel(sheet, 'Period').getCell(2).value, '1 March 2026 to 31 March 2026');
    assert.equal(rowByLabel(sheet, 'Currency').getCell(2).value, 'EUR');
    assert.equal(rowByLabel(sheet, 'Prepared by').getCell(2).value, 'Anna Schmidt, 2 April 2026 at 09:15 UTC');
    assert.equal(rowByLabel(sheet, 'Approved by').getCell(2).value, 'Jonas Weber, 3 April 2026 at 16:40 UTC');

    const formulas: string[] = [];
    for (const [label, amount] of SIGNED_LINES) {
      const cell = rowByLabel(sheet, label).getCell(2);
      const expected = Number(amount.replace(/,/g, ''));
      assert.equal(numberOf(cell, cached), expected, label);
      assert.equal(cell.numFmt, '#,##0.00;-#,##0.00', label);
      const value = cell.value;
      if (value !== null && typeof value === 'object' && 'formula' in value) {
        formulas.push(`${label}: ${value.formula}`);
        assert.equal(evaluate(value.formula as string, sheet, items, cached), cents(expected), `${label}: ${value.formula}`);
        assert.equal(cents(Number(cached.get(cell.address))), cents(expected), `${label}: the cached result`);
      }
    }
    // The balances are figures; every other line and every total is a formula.
    assert.equal(formulas.length, SIGNED_LINES.length - 2, formulas.join('\n'));
    const adjusted = rowByLabel(sheet, 'Adjusted bank balance').getCell(2).value as ExcelJS.CellFormulaValue;
    const bankRow = rowByLabel(sheet, 'Balance per bank at 31 March 2026').number;
    assert.equal(adjusted.formula, [0, 1, 2, 3, 4].map((offset) => `B${bankRow + offset}`).join('+'));
    const difference = rowByLabel(sheet, 'Unexplained difference').getCell(2).value as ExcelJS.CellFormulaValue;
    assert.match(difference.formula, /^B\d+-B\d+$/);
    // Spreadsheets recalculate the formulas on opening.
    assert.match(zipEntry(file, 'xl/workbook.xml'), /<calcPr [^>]*fullCalcOnLoad="1"/);
  });

  it('adds up to the difference left in a draft', async () => {
    const file = await renderStatementXlsx(sampleDraftStatement());
    const workbook = await read(file);
    const cached = cachedResults(zipEntry(file, 'xl/worksheets/sheet1.xml'));
    const sheet = workbook.getWorksheet('Statement')!;
    assert.equal(sheet.getCell('A3').value, 'DRAFT — not signed');
    const cell = rowByLabel(sheet, 'Unexplained difference').getCell(2);
    assert.equal(numberOf(cell), 43.15);
    assert.equal(cached.get(cell.address), '43.15');
    assert.equal(evaluate((cell.value as ExcelJS.CellFormulaValue).formula, sheet, workbook.getWorksheet('Items')!, cached), 4315);
    assert.equal(rowByLabel(sheet, 'Prepared by').getCell(2).value, 'Not yet prepared');
    assert.equal(rowByLabel(sheet, 'Approved by').getCell(2).value, 'Not yet approved');
    assert.equal(workbook.getWorksheet('Exceptions')!.getCell('A2').value, 'The exceptions were not included in this export.');
  });

  it('lists every item with its line on the Items sheet, then the rows set apart and the adjustments', async () => {
    const statement = sampleStatement();
    const workbook = await read(await renderStatementXlsx(statement));
    const items = workbook.getWorksheet('Items')!;
    const read_ = (row: ExcelJS.Row) =>
      [1, 2, 3, 4, 5, 6, 7, 8].map((column) => {
        const value = row.getCell(column).value;
        return value instanceof Date ? value.toISOString().slice(0, 10) : value;
      });
    assert.deepEqual(read_(items.getRow(1)), ['Line', 'Date', 'Dataset', 'Description', 'Reference', 'Amount', 'Counted amount', 'Reason']);
    const rows: unknown[][] = [];
    items.eachRow((row, number) => {
      if (number > 1) rows.push(read_(row));
    });
    const [receipt, partial, payment, payroll] = statement.ledgerNotInBank.items;
    const [interest, fee, unknown] = statement.bankNotInLedger.items;
    const line = (name: string, item: StatementItem, counted: number | null, reason: string) => [
      name,
      item.date,
      item.datasetName,
      item.description ?? '',
      item.reference ?? '',
      Number(item.amount),
      counted,
      reason,
    ];
    assert.deepEqual(rows, [
      line('Deposits in transit', receipt!, 3400, 'open'),
      line('Deposits in transit', partial!, 200, 'partly matched: the open remainder counts'),
      line('Outstanding payments', payment!, -1875.4, 'open'),
      line('Outstanding payments', payroll!, -12500, 'matched after the period end'),
      line('Bank receipts not yet in the ledger', interest!, 12.34, 'open'),
      line('Bank receipts not yet in the ledger', unknown!, 150, 'open'),
      line('Bank payments not yet in the ledger', fee!, -25, 'open'),
      line('Set apart: informative', statement.setApart.informative[0]!, null, 'set apart: counts on no line'),
      line('Set apart: out of scope', statement.setApart.outOfScope[0]!, null, 'set apart: counts on no line'),
      ...statement.adjustments.items.map((adjustment) => [
        `Adjustment: ${{ fee: 'Bank charges (fee)', fx: 'Exchange differences (fx)', rounding: 'Rounding', 'write-off': 'Write-off' }[adjustment.reason]}`,
        adjustment.date,
        '',
        adjustment.description,
        adjustment.bankReference ?? '',
        Number(adjustment.amount),
        Number(adjustment.amount),
        'adjustment recorded on a match: what the bank holds more than the ledger',
      ]),
    ]);
    // A description that looks like a formula is text.
    const hyperlink = items.getRow(7).getCell(4);
    assert.equal(hyperlink.type, ExcelJS.ValueType.String);
    assert.equal(items.getRow(2).getCell(2).numFmt, 'd mmmm yyyy');
  });

  it('has the exceptions with their owner, age, due date, hold and comments', async () => {
    const workbook = await read(await renderStatementXlsx(sampleStatement(), EXCEPTIONS));
    const sheet = workbook.getWorksheet('Exceptions')!;
    const values = (number: number) =>
      [1, 2, 3, 4, 5, 6, 7, 8, 9, 10].map((column) => {
        const value = sheet.getRow(number).getCell(column).value;
        return value instanceof Date ? value.toISOString().slice(0, 10) : value;
      });
    assert.deepEqual(values(1), [
      'Date',
      'Dataset',
      'Description',
      'Reference',
      'Amount',
      'Assigned to',
      'Age (days)',
      'Due date',
      'On hold because',
      'Comments',
    ]);
    assert.deepEqual(values(2), [
      '2026-03-15',
      'Sparkasse operating account',
      '=HYPERLINK("http://example.test/x","Refund")',
      '+REF-99',
      150,
      'Anna Schmidt',
      16,
      '2026-04-10',
      'waiting for the invoice',
      'Anna Schmidt, 20 March 2026 at 10:00 UTC: Asked the customer for the remittance advice.\nJonas Weber, 21 March 2026 at 08:30 UTC: Reminder sent.',
    ]);
    assert.deepEqual(values(3), ['2026-03-31', 'Sparkasse operating account', 'Account maintenance fee', 'FEE-03', -25, 'Unassigned', 0, null, null, null]);
    const empty = await read(await renderStatementXlsx(sampleStatement(), []));
    assert.equal(empty.getWorksheet('Exceptions')!.getCell('A2').value, 'There are no open exceptions.');
  });

  it('makes an amount a number only while it stays exact, with as many decimals as it has', () => {
    assert.deepEqual(spreadsheetAmount('9999999999999.99'), { value: 9999999999999.99, numFmt: '#,##0.00;-#,##0.00' });
    assert.equal(String(spreadsheetAmount('-9999999999999.99').value), '-9999999999999.99');
    assert.deepEqual(spreadsheetAmount('0.125'), { value: 0.125, numFmt: '#,##0.000;-#,##0.000' });
    assert.deepEqual(spreadsheetAmount('7.5'), { value: 7.5, numFmt: '#,##0.00;-#,##0.00' });
    for (const amount of ['99999999999999.99', '12345678901234567.50', '1234567890.123456']) {
      assert.throws(
        () => spreadsheetAmount(amount),
        (error: unknown) => error instanceof AppError && error.messageId === 'closeReports.amountTooLongForSpreadsheet' && error.message.includes(amount),
        amount,
      );
    }
  });

  it('refuses a statement with an amount too long for a spreadsheet, which the PDF and the CSV write exactly', async () => {
    const bank = '12345678901234567.50';
    const adjusted = addDecimals(bank, '-10775.40', '-137.34');
    const statement = sampleStatement({
      bankBalance: { amount: bank, source: 'statement', statementDate: '2026-03-31' },
      adjustedBankBalance: adjusted,
      ledgerBalance: { amount: addDecimals(adjusted, '5.14'), openingBalance: '1200000.00', openingDate: '2026-01-01' },
      setApart: {
        informative: [{ ...sampleStatement().setApart.informative[0]!, amount: '-98765432109876543.21', countedAmount: '-98765432109876543.21' }],
        outOfScope: [],
      },
    });
    await assert.rejects(
      renderStatementXlsx(statement),
      (error: unknown) => error instanceof AppError && error.messageId === 'closeReports.amountTooLongForSpreadsheet',
    );
    const pdf = await renderStatementPdf(statement);
    const file = path.join(work, 'long.pdf');
    writeFileSync(file, pdf);
    const text = execFileSync('pdftotext', ['-layout', file, '-'], { encoding: 'utf8' });
    assert.match(text, /Balance per bank at 31 March 2026 +12,345,678,901,234,567\.50\n/);
    assert.match(text, /Balance per ledger at 31 March 2026 +12,345,678,901,223,659\.90\n/);
    // In the appendix too, an amount is never cut, however long.
    assert.match(text, /Card authorisation hold +-98,765,432,109,876,543\.21\n/);
  });
});

describe('the statement’s items as CSV', () => {
  it('writes every item with its line, exact amounts, and no cell a spreadsheet would run', () => {
    const statement = sampleStatement();
    const csv = renderStatementItemsCsv(statement);
    assert.ok(csv.startsWith('\uFEFFLine,Date,Dataset,Description,Reference,Amount,Counted amount,Reason\r\n'));
    const records = parse(csv, { bom: true, columns: true }) as Record<string, string>[];
    assert.equal(records.length, allItems(statement).length + statement.adjustments.items.length);
    assert.deepEqual(records[1], {
      Line: 'Deposits in transit',
      Date: '2026-03-28',
      Dataset: 'General ledger 1200',
      Description: 'Receipt Fabrikam, second instalment',
      Reference: 'INV-1038',
      Amount: '1200.00',
      'Counted amount': '200.00',
      Reason: 'partly matched: the open remainder counts',
    });
    const unknown = records.find((record) => record.Reference === "'+REF-99");
    assert.ok(unknown, 'the reference that starts with + is quoted as text');
    assert.equal(unknown.Description, `'=HYPERLINK("http://example.test/x","Refund")`);
    assert.equal(records.find((record) => record.Reference === 'PO-7781')!.Amount, '-1875.40');
    assert.ok(csv.includes(',-1875.40,-1875.40,'), 'negative amounts stay numbers');
    const setApart = records.filter((record) => record.Line!.startsWith('Set apart'));
    assert.deepEqual(
      setApart.map((record) => [record.Amount, record['Counted amount']]),
      [
        ['-89.99', ''],
        ['-5000.00', ''],
      ],
    );
    assert.deepEqual(
      records.filter((record) => record.Line!.startsWith('Adjustment: ')).map((record) => record.Amount),
      statement.adjustments.items.map((adjustment) => adjustment.amount),
    );
    // Every item's amount, exactly as the statement has it.
    for (const item of allItems(statement))
      assert.ok(
        records.some((record) => record.Date === item.date && record.Amount === item.amount),
        item.amount,
      );
  });
});
