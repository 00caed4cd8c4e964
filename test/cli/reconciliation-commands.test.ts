import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { CLOSE_MONTH, seedCloseMonth, type SeededCloseMonth } from '../../support/close-month.ts';
import { createTestClient, createTestOrganization, startTestServer, type TestOrganization, type TestServer } from '../../support/harness.ts';
import { BIN } from '../../support/processes.ts';
import { createDataset } from '../../support/recon-fixtures.ts';

/** `ledger-recon reconciliations ...` through the real binary against the real server (docs/CLOSE.md). */
describe('command line reconciliation commands', () => {
  let server: TestServer;
  let organization: TestOrganization;
  let reviewer: TestOrganization;
  let month: SeededCloseMonth;
  let home: string;

  function cli(args: string[], input = ''): Promise<{ status: number | null; stdout: string; stderr: string }> {
    const { DATABASE_URL: _ignored, LEDGER_RECON_PROFILE: _profile, ...inherited } = process.env;
    const child = spawn(process.execPath, [BIN, ...args], { env: { ...inherited, XDG_CONFIG_HOME: home } });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.stdin.end(input);
    return new Promise((resolve) => child.on('close', (status) => resolve({ status, stdout, stderr })));
  }

  async function ok(args: string[], input = ''): Promise<string> {
    const outcome = await cli(args, input);
    assert.equal(outcome.status, 0, `${args.join(' ')}\n${outcome.stderr}\n${outcome.stdout}`);
    return outcome.stdout;
  }

  before(async () => {
    server = await startTestServer('pglite');
    organization = await createTestOrganization(server);
    reviewer = await createTestClient(server, organization.orgId, 'Reviewer');
    month = await seedCloseMonth(server, organization);
    home = mkdtempSync(path.join(tmpdir(), 'ledger-recon-cli-close-'));
    await ok(['login', '--server', server.baseUrl, '--client-id', organization.clientId], `${organization.clientSecret}\n`);
    await ok(['login', '--profile', 'reviewer', '--server', server.baseUrl, '--client-id', reviewer.clientId], `${reviewer.clientSecret}\n`);
  });
  after(async () => {
    await server.close();
    rmSync(home, { recursive: true, force: true });
  });

  it('lists, creates, prints a statement as a form and as JSON, prepares, approves and reopens', async () => {
    const listed = JSON.parse(await ok(['reconciliations', 'list', '--format', 'json']));
    assert.deepEqual(
      listed.map((row: any) => row.name),
      ['Operating account EUR ↔ GL 1200'],
    );

    const { datasetId: bank, sourceId } = await createDataset(server, organization, { name: 'Savings' });
    const { datasetId: ledger } = await createDataset(server, organization, { name: 'GL 1210', sourceId });
    const created = JSON.parse(
      await ok([
        'reconciliations',
        'create',
        'Savings EUR',
        '--currency',
        'EUR',
        '--bank',
        bank,
        '--ledger',
        ledger,
        '--opening-date',
        '2026-01-01',
        '--format',
        'json',
      ]),
    );
    assert.equal(created.name, 'Savings EUR');
    assert.equal(created.ledgerOpeningBalance, '0');

    const form = await ok(['reconciliations', 'statement', month.reconciliationId, '2026-03-31']);
    assert.match(form, /Bank reconciliation statement: Operating account EUR ↔ GL 1200/);
    assert.match(form, new RegExp(`Balance per bank at 2026-03-31 \\(statement of 2026-03-31\\) +${CLOSE_MONTH.bankBalance} EUR`));
    assert.match(form, /2026-03-29 Cheque 1042 \(CHQ-1042\) +-320\.00 EUR/);
    assert.match(form, /2026-03-30 Supplier Y bill \(PO-9\) \[matched after\] +-800\.00 EUR/);
    assert.match(form, new RegExp(`Adjusted bank balance +${CLOSE_MONTH.adjustedBankBalance} EUR`));
    assert.match(form, /Unexplained difference +0\.00 EUR/);
    assert.match(form, /State: open/);
    const json = JSON.parse(await ok(['reconciliations', 'statement', month.reconciliationId, '2026-03-31', '--json']));
    assert.equal(json.ledgerBalance.amount, CLOSE_MONTH.ledgerBalance);

    const badDate = await cli(['reconciliations', 'statement', month.reconciliationId, 'March']);
    assert.equal(badDate.status, 2, badDate.stderr);

    const prepared = JSON.parse(await ok(['reconciliations', 'prepare', month.reconciliationId, '2026-03-31', '--note', 'March done', '--format', 'json']));
    assert.equal(prepared.state, 'prepared');
    const self = await cli(['reconciliations', 'approve', month.reconciliationId, '2026-03-31']);
    assert.notEqual(self.status, 0);
    assert.match(self.stderr, /another person/);
    const approved = JSON.parse(await ok(['reconciliations', 'approve', month.reconciliationId, '2026-03-31', '--profile', 'reviewer', '--format', 'json']));
    assert.deepEqual([approved.state, approved.approvedBy], ['approved', 'Reviewer client']);
    const signed = await ok(['reconciliations', 'statement', month.reconciliationId, '2026-03-31']);
    assert.match(signed, /State: approved/);
    assert.match(signed, /Prepared by .* March done/);
    assert.match(signed, /Approved by Reviewer client/);
    const periods = await ok(['reconciliations', 'periods', month.reconciliationId, '--format', 'csv']);
    assert.match(periods, /2026-03-31,approved,0\.00/);
    const reopened = JSON.parse(
      await ok(['reconciliations', 'reopen', month.reconciliationId, '2026-03-31', '--reason', 'A late invoice', '--format', 'json']),
    );
    assert.equal(reopened.state, 'open');
  });

  it('changes many exceptions at once: a due date and a hold, all or nothing', async () => {
    const open = JSON.parse(await ok(['exceptions', 'list', month.reconciliationId, '--period-end', '2026-03-31', '--format', 'json']));
    const chosen = open.slice(0, 2).map((item: any) => item.transactionId as string);
    assert.equal(chosen.length, 2);
    // A due date ahead of today (one before today is refused).
    const due = new Date(server.clock.now() + 7 * 86_400_000).toISOString().slice(0, 10);
    const changed = JSON.parse(
      await ok([
        'exceptions',
        'update-many',
        '--transaction',
        chosen[0],
        '--transaction',
        chosen[1],
        '--due',
        due,
        '--hold',
        'waiting for the bank letter',
        '--format',
        'json',
      ]),
    );
    assert.deepEqual(changed, { assigned: 0, updated: 2, unchanged: 0 });
    const shown = JSON.parse(await ok(['exceptions', 'show', chosen[1], '--format', 'json']));
    assert.deepEqual([shown.dueDate, shown.holdReason], [due, 'waiting for the bank letter']);
    const nothing = await cli(['exceptions', 'update-many', '--transaction', chosen[0]]);
    assert.notEqual(nothing.status, 0);
    assert.match(`${nothing.stderr}${nothing.stdout}`, /say what to change/);
    const released = JSON.parse(
      await ok(['exceptions', 'update-many', '--transaction', chosen[0], '--transaction', chosen[1], '--release', '--due', 'none', '--format', 'json']),
    );
    assert.deepEqual(released, { assigned: 0, updated: 2, unchanged: 0 });
  });

  it('downloads the statement as PDF, XLSX and CSV, and the journal entries as CSV', async () => {
    const id = month.reconciliationId;
    for (const format of ['pdf', 'xlsx', 'csv']) {
      const target = path.join(home, `march.${format}`);
      await ok(['reconciliations', 'statement', id, '2026-03-31', '--format', format, '--output', target]);
      const bytes = readFileSync(target);
      if (format === 'pdf') assert.equal(bytes.subarray(0, 5).toString('latin1'), '%PDF-');
      if (format === 'xlsx') assert.equal(bytes.subarray(0, 2).toString('latin1'), 'PK');
      if (format === 'csv') assert.match(bytes.toString('utf8'), /^\uFEFFLine,Date,Dataset/);
    }
    const refused = await cli(['reconciliations', 'statement', id, '2026-03-31', '--format', 'docx']);
    assert.notEqual(refused.status, 0);
    assert.match(refused.stderr, /--format must be pdf, xlsx or csv/);

    await ok(['reconciliations', 'journal-entries', id, '2026-03-31', '--format', 'json']).then(
      () => assert.fail('no cash account: refused'),
      (error: Error) => assert.match(error.message, /names no ledger account for its bank account/),
    );
    const patched = await fetch(`${server.baseUrl}${month.base}/reconciliations/${id}`, {
      method: 'PATCH',
      headers: { authorization: `Bearer ${organization.token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ cashAccount: '1200' }),
    });
    assert.equal(patched.status, 200);
    const entries = JSON.parse(await ok(['reconciliations', 'journal-entries', id, '2026-03-31', '--format', 'json']));
    assert.deepEqual(
      entries.map((entry: any) => [entry.debitAccount, entry.creditAccount, entry.amount]),
      [['6500', '1200', '3.00']],
    );
    const target = path.join(home, 'journal.csv');
    await ok(['reconciliations', 'journal-entries', id, '2026-03-31', '--output', target]);
    assert.match(readFileSync(target, 'utf8'), /ADJ-20260331-001,2026-03-20,6500,3\.00,/);
  });
});
