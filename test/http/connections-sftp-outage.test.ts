import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { api, createTestOrganization, startTestServer, storeKinds, type TestOrganization, type TestServer } from '../../support/harness.ts';
import { startSshd, type TestSshd } from '../../support/sshd.ts';
import { camt053Statement } from '../../support/statement-files.ts';
import { startTcpGate, type TcpGate } from '../../support/tcp-gate.ts';
import { waitFor } from '../../support/wait.ts';

const SETTINGS = { secretEncryptionKey: randomBytes(32).toString('base64'), connectorSettleSeconds: 0, connectorTimeoutSeconds: 5 } as const;

/**
 * The SFTP server going away in the middle of a run (its sshd and every session of it killed with
 * SIGKILL): the run fails with the reason in words, the connection records it, nothing of the
 * file is imported, and once the server is back the next run imports the file, once. The service
 * reaches sshd through a relay (support/tcp-gate.ts) that stops what the server sends at a known
 * point, so the test knows the run is listing, or downloading, when the server goes.
 */
for (const kind of storeKinds()) {
  describe(`connections: an SFTP server that goes away during a run (${kind})`, () => {
    let server: TestServer;
    let sshd: TestSshd;
    let gate: TcpGate;
    let organization: TestOrganization;
    let base: string;
    const call = async (method: string, url: string, body?: unknown, expected?: number) => {
      const response = await api(server, organization.token, method, `${base}${url}`, body);
      if (expected !== undefined) assert.equal(response.status, expected, `${method} ${url}: ${JSON.stringify(response.body)}`);
      return response;
    };
    const runOf = async (connectionId: string, pickupId: string, runId: string) =>
      (await call('GET', `/connections/${connectionId}/pickups/${pickupId}/runs/${runId}`, undefined, 200)).body;
    const ended = (connectionId: string, pickupId: string, runId: string) =>
      waitFor(
        async () => {
          const run = await runOf(connectionId, pickupId, runId);
          return ['queued', 'running'].includes(run.status) ? null : run;
        },
        'the pickup run to end',
        60_000,
      );
    const queue = async (connectionId: string, pickupId: string) =>
      (await call('POST', `/connections/${connectionId}/pickups/${pickupId}/run`, undefined, 202)).body.id as string;
    const runPickup = async (connectionId: string, pickupId: string) => ended(connectionId, pickupId, await queue(connectionId, pickupId));
    const outcomes = (run: { files: Array<{ name: string; outcome: string }> }) => Object.fromEntries(run.files.map((file) => [file.name, file.outcome]));

    /** A connection through the relay, with a key the service made and the server's host key confirmed; a dataset of the account. */
    const setUp = async (name: string, iban: string) => {
      const created = await call(
        'POST',
        '/connections',
        { name, kind: 'sftp', host: gate.host, port: gate.port, username: sshd.username, authMethod: 'generated_key' },
        201,
      );
      await sshd.authorize(created.body.publicKey);
      await call('PATCH', `/connections/${created.body.id}`, { hostKeyFingerprint: sshd.fingerprint }, 200);
      const source = await call('POST', '/sources', { name: `${name} bank` }, 201);
      const dataset = await call('POST', `/sources/${source.body.id}/datasets`, { name: `${name} account`, columns: [] }, 201);
      await call('PATCH', `/datasets/${dataset.body.id}`, { accountId: iban }, 200);
      const out = path.join(sshd.root, name);
      await mkdir(out, { recursive: true });
      const pickup = await call(
        'POST',
        `/connections/${created.body.id}/pickups`,
        { path: out, pattern: '*.xml', intervalMinutes: 600, routeByAccount: true, afterImport: 'leave' },
        201,
      );
      return { connectionId: created.body.id as string, datasetId: dataset.body.id as string, pickupId: pickup.body.id as string, out };
    };
    const statement = (id: string, iban: string, entries: number) =>
      camt053Statement({
        id,
        iban,
        currency: 'EUR',
        opening: { amount: '0.00', date: '2026-06-01' },
        closingDate: '2026-06-30',
        entries: Array.from({ length: entries }, (_, index) => ({ reference: `${id}-${index}`, amount: '2.50', date: '2026-06-10', text: `Entry ${index}` })),
      });
    /** The imports of a file, and the entries of the dataset. */
    const importsOf = async (fileName: string) =>
      (await call('GET', '/imports?limit=200', undefined, 200)).body.imports.filter((record: { fileName: string }) => record.fileName === fileName);
    const entriesOf = async (datasetId: string) =>
      Number((await server.database.query<{ count: string }>('SELECT count(*) AS count FROM transactions WHERE dataset_id = $1', [datasetId]))[0]!.count);

    /**
     * The run failed for the server going away: the reason in words (no stack, no code alone), the
     * connection's last error and failures; then, the server back, a run imports the file once.
     */
    const assertOutageThenRecovery = async (
      setup: Awaited<ReturnType<typeof setUp>>,
      failed: { status: string; error: string | null; files: unknown[] },
      fileName: string,
      entries: number,
      doing: RegExp,
    ) => {
      assert.equal(failed.status, 'failed', JSON.stringify(failed));
      assert.match(failed.error ?? '', /^the server could not be reached: the connection was lost while /, JSON.stringify(failed));
      assert.match(failed.error ?? '', doing);
      const connection = (await call('GET', `/connections/${setup.connectionId}`, undefined, 200)).body;
      assert.equal(connection.lastError, failed.error);
      assert.equal(connection.consecutiveFailures, 1);
      assert.ok(connection.failingSince);
      assert.deepEqual(await importsOf(fileName), [], 'nothing of the file was imported');
      assert.equal(await entriesOf(setup.datasetId), 0);

      gate.release();
      await sshd.restart();
      const recovered = await runPickup(setup.connectionId, setup.pickupId);
      assert.equal(recovered.status, 'completed', JSON.stringify(recovered));
      assert.deepEqual(outcomes(recovered), { [fileName]: 'imported' });
      const again = await runPickup(setup.connectionId, setup.pickupId);
      assert.deepEqual(outcomes(again), { [fileName]: 'already_imported' });
      const imports = await importsOf(fileName);
      assert.equal(imports.length, 1, JSON.stringify(imports));
      assert.deepEqual([imports[0].status, imports[0].inserted], ['completed', entries]);
      assert.equal(await entriesOf(setup.datasetId), entries);
      const after = (await call('GET', `/connections/${setup.connectionId}`, undefined, 200)).body;
      assert.deepEqual([after.consecutiveFailures, after.failingSince], [0, null]);
    };

    /** The server up and the relay open, whatever an earlier test left. */
    const recover = async () => {
      gate.release();
      await sshd.restart();
    };

    before(async () => {
      sshd = await startSshd();
      gate = await startTcpGate(sshd);
      server = await startTestServer(kind, SETTINGS);
      organization = await createTestOrganization(server);
      base = `/v1/api/${organization.orgId}`;
    });
    after(async () => {
      await server?.close();
      await gate?.close();
      await sshd?.stop();
    });

    it('fails a run whose server goes away during a download, imports nothing of the file, and imports it once when the server is back', async () => {
      await recover();
      const iban = 'DE89370400440532013000';
      const setup = await setUp('download', iban);
      const entries = 8_000;
      const text = statement('OUTAGE-DL', iban, entries);
      assert.ok(text.length > 3_000_000, `the file is large enough to be held in the middle (${text.length} bytes)`);
      await writeFile(path.join(setup.out, 'big.xml'), text);
      assert.deepEqual(outcomes(await runPickup(setup.connectionId, setup.pickupId)), { 'big.xml': 'waiting' }, 'the first look');

      // The listing is a few kilobytes; past a megabyte the server is sending the file.
      gate.holdAfter(1_000_000);
      const runId = await queue(setup.connectionId, setup.pickupId);
      await waitFor(() => gate.held() > 0, 'the download to be under way');
      assert.equal((await runOf(setup.connectionId, setup.pickupId, runId)).status, 'running');
      await sshd.kill();
      await assertOutageThenRecovery(setup, await ended(setup.connectionId, setup.pickupId, runId), 'big.xml', entries, /while downloading \/.*\/big\.xml;/);
    });

    it('fails a run whose server goes away while it lists the folder, and imports the file once when the server is back', async () => {
      await recover();
      const iban = 'NL91ABNA0417164300';
      const setup = await setUp('listing', iban);
      await writeFile(path.join(setup.out, 'statement.xml'), statement('OUTAGE-LS', iban, 20));
      // Many other files make the listing long (the pattern keeps only the statement).
      const padding = 'x'.repeat(120);
      await Promise.all(Array.from({ length: 3_000 }, (_, index) => writeFile(path.join(setup.out, `other-${padding}-${index}.txt`), '')));
      assert.deepEqual(outcomes(await runPickup(setup.connectionId, setup.pickupId)), { 'statement.xml': 'waiting' }, 'the first look');

      // Logging in takes a few kilobytes; past 100 kB the server is sending the listing (over 400 kB).
      gate.holdAfter(100_000);
      const runId = await queue(setup.connectionId, setup.pickupId);
      await waitFor(() => gate.held() > 0, 'the listing to be under way');
      await sshd.kill();
      const failed = await ended(setup.connectionId, setup.pickupId, runId);
      assert.deepEqual(failed.files, [], 'no file was seen');
      await assertOutageThenRecovery(setup, failed, 'statement.xml', 20, /while listing \/.*\/listing;/);
    });
  });
}
