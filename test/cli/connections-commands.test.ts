import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { api, createTestOrganization, startTestServer, type TestOrganization, type TestServer } from '../../support/harness.ts';
import { BIN } from '../../support/processes.ts';
import { EURO_STATEMENT } from '../../support/statement-files.ts';

/** The connections commands through the real binary: a folder connection, a pickup, runs and their files. */
describe('command line: connections', () => {
  let server: TestServer;
  let organization: TestOrganization;
  let home: string;
  let root: string;

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
  async function ok(args: string[], input?: string): Promise<string> {
    const outcome = await cli(args, input);
    assert.equal(outcome.status, 0, `${args.join(' ')}\n${outcome.stderr}\n${outcome.stdout}`);
    return outcome.stdout;
  }

  before(async () => {
    root = mkdtempSync(path.join(tmpdir(), 'cli-connector-root-'));
    server = await startTestServer('pglite', { connectorFolderRoot: root, connectorSettleSeconds: 0 });
    organization = await createTestOrganization(server);
    home = mkdtempSync(path.join(tmpdir(), 'ledger-recon-cli-'));
    await ok(['login', '--server', server.baseUrl, '--client-id', organization.clientId], `${organization.clientSecret}\n`);
  });
  after(async () => {
    await server.close();
    rmSync(home, { recursive: true, force: true });
    rmSync(root, { recursive: true, force: true });
  });

  it('adds a folder connection and a pickup, runs it, and prints each file with its outcome', async () => {
    mkdirSync(path.join(root, 'drop', 'done'), { recursive: true });
    const base = `/v1/api/${organization.orgId}`;
    const source = await api(server, organization.token, 'POST', `${base}/sources`, { name: 'CLI bank' });
    const dataset = await api(server, organization.token, 'POST', `${base}/sources/${source.body.id}/datasets`, { name: 'CLI account', columns: [] });
    const connection = JSON.parse(await ok(['connections', 'add-folder', 'Drop', 'drop', '--format', 'json']));
    assert.equal(connection.kind, 'folder');
    assert.match(await ok(['connections', 'test', connection.id]), /the connection works/);
    const pickup = JSON.parse(
      await ok([
        'connections',
        'add-pickup',
        connection.id,
        '/',
        '*.xml',
        '--every',
        '15',
        '--dataset',
        dataset.body.id,
        '--archive',
        'done',
        '--output',
        'json',
      ]),
    );
    assert.deepEqual([pickup.afterImport, pickup.archivePath, pickup.intervalMinutes], ['move', 'done', 15]);
    writeFileSync(path.join(root, 'drop', 'statement.xml'), EURO_STATEMENT);
    assert.equal(JSON.parse(await ok(['connections', 'run', connection.id, pickup.id, '--format', 'json']))[0].outcome, 'waiting');
    const taken = JSON.parse(await ok(['connections', 'run', connection.id, pickup.id, '--format', 'json']));
    assert.deepEqual([taken[0].name, taken[0].outcome, taken[0].afterImport], ['statement.xml', 'imported', 'moved']);
    assert.deepEqual(readdirSync(path.join(root, 'drop', 'done')), ['statement.xml']);
    const runs = await ok(['connections', 'runs', connection.id, pickup.id, '--format', 'csv']);
    assert.match(runs, /statement\.xml,imported/);
    const listed = JSON.parse(await ok(['connections', 'list', '--format', 'json']));
    assert.equal(listed[0].consecutiveFailures, 0);
    const mixed = await cli(['connections', 'add-pickup', connection.id, '/', '*', '--every', '5']);
    assert.equal(mixed.status, 2);
    assert.match(mixed.stderr, /--dataset or --route-by-account/);
    // Times of day in a time zone instead of an interval.
    const timed = JSON.parse(
      await ok([
        'connections',
        'add-pickup',
        connection.id,
        '/',
        '*.sta',
        '--times',
        '14:30, 06:00',
        '--time-zone',
        'Europe/Berlin',
        '--ready-marker',
        '.done',
        '--dataset',
        dataset.body.id,
        '--output',
        'json',
      ]),
    );
    assert.deepEqual([timed.intervalMinutes, timed.timesOfDay, timed.timeZone, timed.readyMarker], [null, ['06:00', '14:30'], 'Europe/Berlin', '.done']);
    assert.match(await ok(['connections', 'pickups', connection.id, '--format', 'table']), /at 06:00, 14:30 Europe\/Berlin/);
    const noZone = await cli(['connections', 'add-pickup', connection.id, '/', '*', '--times', '06:00', '--dataset', dataset.body.id]);
    assert.equal(noZone.status, 2);
    assert.match(noZone.stderr, /--time-zone/);
    const bothSchedules = await cli([
      'connections',
      'add-pickup',
      connection.id,
      '/',
      '*',
      '--every',
      '5',
      '--times',
      '06:00',
      '--time-zone',
      'UTC',
      '--dataset',
      dataset.body.id,
    ]);
    assert.equal(bothSchedules.status, 2);
    const unknownZone = await cli([
      'connections',
      'add-pickup',
      connection.id,
      '/',
      '*',
      '--times',
      '06:00',
      '--time-zone',
      'Europe/Atlantis',
      '--dataset',
      dataset.body.id,
    ]);
    assert.notEqual(unknownZone.status, 0);
    assert.match(unknownZone.stderr, /"Europe\/Atlantis" is not a time zone the service knows/);
  });
});
