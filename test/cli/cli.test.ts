import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { once } from 'node:events';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, describe, it } from 'node:test';
import { demoFromBanner, demoToken, exitCode, freePort, run, serve } from '../../support/processes.ts';

describe('ledger-recon command line (embedded store)', () => {
  const directories: string[] = [];
  const dataDirectory = () => {
    const directory = mkdtempSync(path.join(tmpdir(), 'ledger-recon-cli-'));
    directories.push(directory);
    return directory;
  };
  after(() => {
    for (const directory of directories) rmSync(directory, { recursive: true, force: true });
  });

  it('init --json prints the machine-readable bootstrap, one more organization per call', async () => {
    const environment = { DATA_DIR: dataDirectory(), PUBLIC_URL: 'http://127.0.0.1:4010' };
    const first = run(['init', '--org', 'Acme', '--admin-email', 'ops@acme.example', '--json'], environment);
    assert.equal(first.status, 0, first.stderr);
    const created = JSON.parse(first.stdout);
    assert.deepEqual(Object.keys(created).sort(), ['apiBaseUrl', 'audience', 'client', 'orgId', 'tokenUrl', 'user']);
    assert.match(created.orgId, /^[0-9a-f-]{36}$/);
    assert.equal(created.user.email, 'ops@acme.example');
    assert.ok(created.user.password.length >= 12);
    assert.match(created.client.clientSecret, /^lrs_[A-Za-z0-9_-]{43,}$/);
    assert.equal(created.audience, 'http://127.0.0.1:4010/v1/api');
    assert.equal(created.tokenUrl, 'http://127.0.0.1:4010/oauth/token');
    assert.equal(created.apiBaseUrl, `http://127.0.0.1:4010/v1/api/${created.orgId}`);
    const second = JSON.parse(run(['init', '--org', 'Beta', '--admin-email', 'ops@beta.example', '--json'], environment).stdout);
    assert.notEqual(second.orgId, created.orgId);

    const rotated = run(['keys', 'rotate', '--activate-in', '60'], environment);
    assert.equal(rotated.status, 0, rotated.stderr);
    assert.match(rotated.stdout, /new signing key \S+ is published in the JWKS now and signs tokens from \d{4}-/);
    const badDelay = run(['keys', 'rotate', '--activate-in', 'soon'], environment);
    assert.equal(badDelay.status, 2);
    assert.match(badDelay.stderr, /--activate-in takes a whole number of seconds/);
  });

  it('refuses bad arguments with a usage message and exit code 2', () => {
    const result = run(['init', '--org', 'Acme'], { DATA_DIR: dataDirectory() });
    assert.equal(result.status, 2);
    assert.match(result.stderr, /--admin-email/);
    const unknown = run(['frobnicate'], { DATA_DIR: dataDirectory() });
    assert.equal(unknown.status, 2);
    assert.match(unknown.stderr, /unknown command "frobnicate"/);
  });

  it('first start seeds a demo whose printed curl pair works; commands refuse to open a store in use; SIGTERM exits 0', async () => {
    const port = await freePort();
    const environment = { DATA_DIR: dataDirectory(), PORT: String(port) };
    const { child, output } = await serve(environment);
    const exited = exitCode(child);
    try {
      const banner = output();
      const clientId = /API client id:\s+(\S+)/.exec(banner)?.[1];
      const clientSecret = /client secret:\s+(\S+)/.exec(banner)?.[1];
      const datasetId = /"datasetId": "([0-9a-f-]{36})"/.exec(banner)?.[1];
      const orgId = /organization id:\s+(\S+)/.exec(banner)?.[1];
      assert.ok(clientId && clientSecret && datasetId && orgId, banner);
      assert.match(banner, /user \(web app\):\s+\S+@\S+ \/ \S+/);

      // The printed curl pair, run as printed.
      const tokenLine = /TOKEN=\$\((.*)\)$/m.exec(banner)?.[1];
      const queryLine = /^\s+(curl -s -X POST \S+\/transactions .*)$/m.exec(banner)?.[1];
      assert.ok(tokenLine && queryLine, banner);
      const shell = spawnSync('bash', ['-c', `TOKEN=$(${tokenLine}); ${queryLine}`], { encoding: 'utf8', timeout: 30_000 });
      assert.equal(shell.status, 0, shell.stderr);
      const transactions = JSON.parse(shell.stdout);
      assert.ok(Array.isArray(transactions) && transactions.length === 5, shell.stdout);
      assert.deepEqual(Object.keys(transactions[0]), [
        'id',
        'datasetId',
        'reconciliationStatus',
        'incomingMatches',
        'outgoingMatches',
        'description',
        'type',
        'timestamp',
      ]);

      const locked = run(['migrate'], environment);
      assert.equal(locked.status, 1);
      assert.match(locked.stderr, /in use by a running ledger-recon \(pid \d+\); stop that server first/);

      // Requests in flight when SIGTERM arrives are answered before the process exits.
      // The printed token command already extracts access_token.
      const token = spawnSync('bash', ['-c', tokenLine], { encoding: 'utf8' }).stdout.trim();
      assert.match(token, /^[\w-]+\.[\w-]+\.[\w-]+$/);
      const inFlight = Array.from({ length: 10 }, () =>
        fetch(`http://127.0.0.1:${port}/v1/api/${orgId}/transactions`, {
          method: 'POST',
          headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
          body: JSON.stringify({ datasetId, limit: 1000 }),
        }).then((response) => response.status),
      );
      await new Promise((resolve) => setTimeout(resolve, 20));
      child.kill('SIGTERM');
      const statuses = await Promise.allSettled(inFlight);
      for (const status of statuses) {
        // A request either completed or was never accepted; none is cut off with a 5xx.
        if (status.status === 'fulfilled') assert.ok(status.value === 200 || status.value === 503, String(status.value));
      }
      assert.equal(await exited, 0);
    } finally {
      child.kill('SIGKILL');
    }
    // The lock was released: the store opens again.
    const migrate = run(['migrate'], environment);
    assert.equal(migrate.status, 0, migrate.stderr);
    assert.match(migrate.stdout, /up to date/);
  });

  it('refuses a taken port in one line naming PORT, before creating anything', async () => {
    const port = await freePort();
    const occupant = createServer().listen(port, '127.0.0.1');
    await once(occupant, 'listening');
    try {
      const store = dataDirectory();
      const result = run(['serve'], { DATA_DIR: store, PORT: String(port) });
      assert.equal(result.status, 1, result.stdout + result.stderr);
      const lines = result.stderr.trim().split('\n');
      assert.equal(lines.length, 1, result.stderr);
      assert.match(lines[0]!, new RegExp(`port ${port} on 127.0.0.1 is already in use .*PORT`));
      assert.ok(!existsSync(path.join(store, 'pgdata')), 'the store was created although the server could not listen');
    } finally {
      occupant.close();
    }
  });

  it('says what the first start is doing, and "demo" gives working credentials again', async () => {
    const port = await freePort();
    const environment = { DATA_DIR: dataDirectory(), PORT: String(port) };
    const first = await serve(environment);
    assert.match(first.output(), /creating the embedded database in .* \(first start only/);
    assert.match(first.output(), /created the demo organization/);
    const lost = demoFromBanner(first.output());
    first.child.kill('SIGTERM');
    assert.equal(await exitCode(first.child), 0);

    const renewed = run(['demo'], environment);
    assert.equal(renewed.status, 0, renewed.stderr);
    assert.match(renewed.stdout, /new credentials/);
    const fresh = demoFromBanner(renewed.stdout);
    assert.equal(fresh.orgId, lost.orgId);
    assert.equal(fresh.clientId, lost.clientId);
    assert.notEqual(fresh.clientSecret, lost.clientSecret);
    assert.notEqual(fresh.password, lost.password);

    const second = await serve(environment);
    try {
      assert.doesNotMatch(second.output(), /client secret/, 'a later start prints no credentials');
      const baseUrl = `http://127.0.0.1:${port}`;
      assert.match(await demoToken(baseUrl, fresh), /^[\w-]+\.[\w-]+\.[\w-]+$/);
      await assert.rejects(demoToken(baseUrl, lost), /401/);
    } finally {
      second.child.kill('SIGTERM');
      await exitCode(second.child);
    }
  });
});
