import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { parse } from 'csv-parse/sync';
import ExcelJS from 'exceljs';
import { CLOSE_MONTH, seedCloseMonth, type SeededCloseMonth } from '../../support/close-month.ts';
import { api, createTestClient, createTestOrganization, startTestServer, storeKinds, type TestOrganization, type TestServer } from '../../support/harness.ts';
import { formatAmount } from '../../src/domain/close/reports/format.ts';
import { insertUser } from '../../support/exception-fixtures.ts';

/** The close reports through the server: the statement as PDF, XLSX and CSV, and the adjustments as journal entries (docs/CLOSE.md). */

const pdftotext = ['/usr/bin/pdftotext', '/usr/local/bin/pdftotext'].find((candidate) => existsSync(candidate));

async function download(server: TestServer, token: string, pathAndQuery: string) {
  const response = await fetch(`${server.baseUrl}${pathAndQuery}`, { headers: { authorization: `Bearer ${token}` } });
  const bytes = Buffer.from(await response.arrayBuffer());
  return { status: response.status, headers: response.headers, bytes };
}

function pdfTextOf(bytes: Buffer): string {
  assert.ok(pdftotext, 'pdftotext is missing: install poppler-utils (apt-get install -y poppler-utils)');
  const scratch = mkdtempSync(path.join(tmpdir(), 'close-reports-'));
  try {
    const file = path.join(scratch, 'statement.pdf');
    writeFileSync(file, bytes);
    return execFileSync(pdftotext, ['-layout', file, '-'], { encoding: 'utf8' });
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}

function rowByLabel(sheet: ExcelJS.Worksheet, label: string): ExcelJS.Row {
  let found: ExcelJS.Row | undefined;
  sheet.eachRow((row) => {
    if (typeof row.getCell(1).value === 'string' && (row.getCell(1).value as string).trim() === label) found = row;
  });
  assert.ok(found, `a row "${label}"`);
  return found;
}

/** A cell's number: its value, its formula's stored result, or a sum of cells of the sheet (=B21-B22) worked out. */
function numberIn(cell: ExcelJS.Cell, sheet: ExcelJS.Worksheet): number {
  const value = cell.value;
  if (typeof value === 'number') return value;
  if (value !== null && typeof value === 'object' && 'result' in value && typeof value.result === 'number') return value.result;
  const formula = value !== null && typeof value === 'object' && 'formula' in value ? (value.formula ?? '') : '';
  if (/^-?[A-Z]+\d+([+-][A-Z]+\d+)*$/.test(formula)) {
    return [...formula.matchAll(/([+-]?)([A-Z]+\d+)/g)].reduce(
      (total, [, sign, address]) => total + (sign === '-' ? -1 : 1) * numberIn(sheet.getCell(address!), sheet),
      0,
    );
  }
  assert.fail(`${cell.address} holds no number: ${JSON.stringify(value)}`);
}

const cents = (decimal: string) => Math.round(Number(decimal) * 100);

for (const kind of storeKinds()) {
  describe(`close reports (${kind})`, () => {
    let server: TestServer;
    let organization: TestOrganization;
    let reviewer: TestOrganization;
    let member: TestOrganization;
    let month: SeededCloseMonth;
    let path_: string;
    before(async () => {
      server = await startTestServer(kind);
      organization = await createTestOrganization(server);
      month = await seedCloseMonth(server, organization);
      reviewer = await createTestClient(server, organization.orgId, 'Reviewer');
      member = await createTestClient(server, organization.orgId, 'Full member');
      path_ = `${month.base}/reconciliations/${month.reconciliationId}`;
    });
    after(() => server.close());

    /** Downloads the three files of March and checks each against the statement JSON. */
    async function checkFiles(token: string, state: 'open' | 'prepared') {
      const statement = (await api(server, token, 'GET', `${path_}/statement?periodEnd=2026-03-31`)).body;
      assert.equal(statement.signOff.state, state);
      assert.equal(statement.unexplainedDifference, CLOSE_MONTH.unexplainedDifference);

      const pdf = await download(server, token, `${path_}/statement.pdf?periodEnd=2026-03-31`);
      assert.equal(pdf.status, 200, pdf.bytes.toString('utf8', 0, 400));
      assert.equal(pdf.headers.get('content-type'), 'application/pdf');
      assert.equal(pdf.bytes.subarray(0, 5).toString('latin1'), '%PDF-');
      const disposition = pdf.headers.get('content-disposition')!;
      assert.match(disposition, /^attachment; filename="Operating account EUR _ GL 1200 - March 2026\.pdf"; filename\*=UTF-8''/);
      assert.ok(disposition.includes(`filename*=UTF-8''${encodeURIComponent('Operating account EUR ↔ GL 1200 - March 2026.pdf')}`), disposition);
      const text = pdfTextOf(pdf.bytes);
      for (const figure of [statement.bankBalance.amount, statement.adjustedBankBalance, statement.ledgerBalance.amount, statement.unexplainedDifference]) {
        assert.ok(text.includes(formatAmount(figure)), `the PDF shows ${formatAmount(figure)}`);
      }
      assert.equal(/DRAFT/.test(text), state === 'open', 'an open period is a draft');

      const xlsx = await download(server, token, `${path_}/statement.xlsx?periodEnd=2026-03-31`);
      assert.equal(xlsx.status, 200, xlsx.bytes.toString('utf8', 0, 400));
      assert.equal(xlsx.headers.get('content-type'), 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet');
      assert.match(xlsx.headers.get('content-disposition')!, /filename="Operating account EUR _ GL 1200 - March 2026\.xlsx"/);
      const workbook = new ExcelJS.Workbook();
      await workbook.xlsx.load(xlsx.bytes as unknown as ArrayBuffer);
      const sheet = workbook.getWorksheet('Statement')!;
      assert.equal(cents(String(numberIn(rowByLabel(sheet, 'Adjusted bank balance').getCell(2), sheet))), cents(statement.adjustedBankBalance));
      assert.equal(cents(String(numberIn(rowByLabel(sheet, 'Unexplained difference').getCell(2), sheet))), cents(statement.unexplainedDifference));
      assert.equal(sheet.getCell('A3').value === 'DRAFT — not signed', state === 'open');

      const csv = await download(server, token, `${path_}/statement-items.csv?periodEnd=2026-03-31`);
      assert.equal(csv.status, 200, csv.bytes.toString('utf8'));
      assert.equal(csv.headers.get('content-type'), 'text/csv; charset=utf-8');
      assert.match(csv.headers.get('content-disposition')!, /filename="Operating account EUR _ GL 1200 - March 2026 - items\.csv"/);
      const rows: Record<string, string>[] = parse(csv.bytes, { bom: true, columns: true });
      const countedOn = (line: RegExp) =>
        rows.filter((row) => line.test(row.Line!) && row['Counted amount'] !== '').reduce((total, row) => total + cents(row['Counted amount']!), 0);
      const ledgerItems = statement.ledgerNotInBank.items.length;
      const bankItems = statement.bankNotInLedger.items.length;
      assert.equal(rows.filter((row) => row['Counted amount'] !== '' && !/adjust/i.test(row.Line!)).length >= ledgerItems + bankItems, true);
      assert.equal(
        countedOn(/deposits in transit|outstanding payments/i),
        statement.ledgerNotInBank.items.reduce((total: number, item: any) => total + cents(item.countedAmount), 0),
      );
      assert.equal(cents(statement.ledgerNotInBank.total), cents(CLOSE_MONTH.ledgerNotInBank));
      return statement;
    }

    it('downloads the statement of an open period as a draft, computed from the data', async () => {
      await checkFiles(organization.token, 'open');
      const refused = await download(server, organization.token, `${path_}/statement.pdf?periodEnd=2026-03-30`);
      assert.equal(refused.status, 400);
      assert.equal(JSON.parse(refused.bytes.toString('utf8')).error.messageId, 'close.periodEndInvalid');
    });

    it("lists the period's open exceptions on the workbook's Exceptions sheet, with their owner, due date and hold", async () => {
      const queue = await api(server, organization.token, 'GET', `${path_}/exceptions?periodEnd=2026-03-31`);
      assert.equal(queue.status, 200, JSON.stringify(queue.body));
      const fee = queue.body.items.find((item: any) => item.transaction.description === 'Bank fee March');
      assert.ok(fee, JSON.stringify(queue.body.items.map((item: any) => item.transaction.description)));
      const ann = await insertUser(server, organization.orgId, 'ann@example.com');
      const assigned = await api(server, organization.token, 'PATCH', `${month.base}/exceptions/${fee.transactionId}`, {
        assigneeUserId: ann,
        dueDate: new Date(server.clock.now() + 7 * 86_400_000).toISOString().slice(0, 10),
        holdReason: 'waiting for the fee schedule',
      });
      assert.equal(assigned.status, 200, JSON.stringify(assigned.body));

      const xlsx = await download(server, organization.token, `${path_}/statement.xlsx?periodEnd=2026-03-31`);
      assert.equal(xlsx.status, 200, xlsx.bytes.toString('utf8', 0, 400));
      const workbook = new ExcelJS.Workbook();
      await workbook.xlsx.load(xlsx.bytes as unknown as ArrayBuffer);
      const sheet = workbook.getWorksheet('Exceptions')!;
      const rows: ExcelJS.Row[] = [];
      sheet.eachRow((row, number) => {
        if (number > 1) rows.push(row);
      });
      assert.equal(rows.length, queue.body.items.length, 'one row an open exception');
      const row = rows.find((candidate) => candidate.getCell(3).value === 'Bank fee March');
      assert.ok(row, 'the assigned exception has its row');
      assert.equal(row.getCell(6).value, 'ann@example.com');
      assert.equal(row.getCell(9).value, 'waiting for the fee schedule');
      assert.ok(rows.some((candidate) => candidate.getCell(6).value === 'Unassigned'));
    });

    it('names the unmapped reason (409), then proposes the fee as a journal entry once the cash account is set', async () => {
      const noCash = await api(server, organization.token, 'GET', `${path_}/journal-entries?periodEnd=2026-03-31`);
      assert.equal(noCash.status, 409, JSON.stringify(noCash.body));
      assert.equal(noCash.body.error.messageId, 'journalEntries.cashAccountNotMapped');

      assert.equal((await api(server, organization.token, 'PATCH', path_, { adjustmentAccounts: {} })).status, 200);
      const unmapped = await api(server, organization.token, 'GET', `${path_}/journal-entries?periodEnd=2026-03-31`);
      assert.equal(unmapped.status, 409, JSON.stringify(unmapped.body));
      assert.equal(unmapped.body.error.messageId, 'journalEntries.reasonsNotMapped');
      assert.match(unmapped.body.error.message, /the period has fee adjustments/);
      const unmappedCsv = await download(server, organization.token, `${path_}/journal-entries.csv?periodEnd=2026-03-31`);
      assert.equal(unmappedCsv.status, 409);

      const mapped = await api(server, organization.token, 'PATCH', path_, { adjustmentAccounts: { fee: '6500 Bank charges' }, cashAccount: '1200 Bank' });
      assert.equal(mapped.status, 200, JSON.stringify(mapped.body));
      assert.equal(mapped.body.cashAccount, '1200 Bank');
      assert.deepEqual(mapped.body.adjustmentAccounts, { fee: '6500 Bank charges' });

      const proposed = await api(server, organization.token, 'GET', `${path_}/journal-entries?periodEnd=2026-03-31`);
      assert.equal(proposed.status, 200, JSON.stringify(proposed.body));
      assert.equal(proposed.body.state, 'open');
      assert.equal(proposed.body.entries.length, 1);
      const [entry] = proposed.body.entries;
      assert.deepEqual(
        [entry.journalNumber, entry.debitAccount, entry.creditAccount, entry.amount, entry.currency, entry.reason],
        ['ADJ-20260331-001', '6500 Bank charges', '1200 Bank', '3.00', 'EUR', 'fee'],
      );

      const csv = await download(server, organization.token, `${path_}/journal-entries.csv?periodEnd=2026-03-31`);
      assert.equal(csv.status, 200);
      assert.match(csv.headers.get('content-disposition')!, /filename="Operating account EUR _ GL 1200 - March 2026 - journal entries\.csv"/);
      const lines: Record<string, string>[] = parse(csv.bytes, { bom: true, columns: true });
      assert.deepEqual(
        lines.map((line) => [line['Journal number'], line.Account, line.Debit, line.Credit]),
        [
          ['ADJ-20260331-001', '6500 Bank charges', '3.00', ''],
          ['ADJ-20260331-001', '1200 Bank', '', '3.00'],
        ],
      );
    });

    it('serves the stored statement of a prepared period, and emits journal_entry.proposed when it is prepared', async () => {
      const prepared = await api(server, member.token, 'POST', `${path_}/periods/2026-03-31/prepare`, { note: 'March done' });
      assert.equal(prepared.status, 200, JSON.stringify(prepared.body));
      const statement = await checkFiles(reviewer.token, 'prepared');
      assert.equal(statement.signOff.preparedBy, 'Full member client');

      const events = await api(server, organization.token, 'GET', `${month.base}/events?type=journal_entry.proposed`);
      assert.equal(events.status, 200, JSON.stringify(events.body));
      assert.equal(events.body.events.length, 1);
      const { data } = events.body.events[0];
      assert.deepEqual(
        [data.reconciliationId, data.periodEnd, data.journalNumber, data.debitAccount, data.creditAccount, data.amount, data.reason],
        [month.reconciliationId, '2026-03-31', 'ADJ-20260331-001', '6500 Bank charges', '1200 Bank', '3.00', 'fee'],
      );
      const prepareEvents = await api(server, organization.token, 'GET', `${month.base}/events?type=close_period.prepared`);
      assert.equal(prepareEvents.body.events.length, 1);

      // The accounts change after the sign-off: the stored statement's adjustments, posted against the accounts mapped now.
      assert.equal((await api(server, organization.token, 'PATCH', path_, { cashAccount: '1210 Bank EUR' })).status, 200);
      const proposed = await api(server, reviewer.token, 'GET', `${path_}/journal-entries?periodEnd=2026-03-31`);
      assert.equal(proposed.status, 200, JSON.stringify(proposed.body));
      assert.equal(proposed.body.state, 'prepared');
      assert.equal(proposed.body.entries[0].creditAccount, '1210 Bank EUR');
    });
  });
}
