import assert from 'node:assert/strict';
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { describe, it } from 'node:test';
import { storeKinds } from '../../support/harness.ts';
import { startKillableServer } from '../../support/processes.ts';
import { startSshd } from '../../support/sshd.ts';
import { camt053Statement } from '../../support/statement-files.ts';
import { startTcpGate } from '../../support/tcp-gate.ts';
import { waitFor } from '../../support/wait.ts';

/**
 * A server killed (SIGKILL) while a pickup downloads a file from a real OpenSSH server: after a
 * restart the run is taken up again and the file is imported once, whole. The service reaches
 * sshd through a relay (support/tcp-gate.ts) that holds the transfer once a megabyte of the file
 * has passed, so the test knows the download is under way when it kills, without timing it.
 */
for (const kind of storeKinds()) {
  describe(`an SFTP pickup survives a server killed during the download (${kind})`, () => {
    it('imports the file once, whole, after a kill -9 during its download', async () => {
      const sshd = await startSshd();
      const gate = await startTcpGate(sshd);
      const server = await startKillableServer(kind, { CONNECTOR_SETTLE_SECONDS: '0', SECRET_ENCRYPTION_KEY: randomBytes(32).toString('base64') });
      try {
        const iban = 'BE68539007547034';
        const source = await server.api('POST', '/sources', { name: 'Download bank' });
        const dataset = await server.api('POST', `/sources/${source.body.id}/datasets`, { name: 'Download account', columns: [] });
        assert.equal((await server.api('PATCH', `/datasets/${dataset.body.id}`, { accountId: iban })).status, 200);
        const connection = await server.api('POST', '/connections', {
          name: 'Bank SFTP',
          kind: 'sftp',
          host: gate.host,
          port: gate.port,
          username: sshd.username,
          authMethod: 'generated_key',
        });
        assert.equal(connection.status, 201, JSON.stringify(connection.body));
        await sshd.authorize(connection.body.publicKey);
        assert.equal((await server.api('PATCH', `/connections/${connection.body.id}`, { hostKeyFingerprint: sshd.fingerprint })).status, 200);
        const out = path.join(sshd.root, 'out');
        await mkdir(out);
        const pickup = await server.api('POST', `/connections/${connection.body.id}/pickups`, {
          path: out,
          pattern: '*.xml',
          intervalMinutes: 600,
          routeByAccount: true,
          afterImport: 'delete',
        });
        assert.equal(pickup.status, 201, JSON.stringify(pickup.body));
        const entries = 8_000;
        const text = camt053Statement({
          id: 'DOWNLOAD-1',
          iban,
          currency: 'EUR',
          opening: { amount: '0.00', date: '2026-02-01' },
          closingDate: '2026-02-28',
          entries: Array.from({ length: entries }, (_, index) => ({ reference: `D${index}`, amount: '3.10', date: '2026-02-10', text: `Entry ${index}` })),
        });
        assert.ok(text.length > 3_000_000, `the file is large enough to be held in the middle (${text.length} bytes)`);
        await writeFile(path.join(out, 'big.xml'), text);

        const runs = `/connections/${connection.body.id}/pickups/${pickup.body.id}/runs`;
        const runOf = async (runId: string) => (await server.api('GET', `${runs}/${runId}`)).body;
        const ended = (runId: string) =>
          waitFor(
            async () => {
              const current = await runOf(runId);
              return current && !['queued', 'running'].includes(current.status) ? current : null;
            },
            'the run to end',
            90_000,
          );
        const look = await server.api('POST', `/connections/${connection.body.id}/pickups/${pickup.body.id}/run`);
        const first = await ended(look.body.id);
        assert.deepEqual(
          first.files.map((file: { outcome: string }) => file.outcome),
          ['waiting'],
          JSON.stringify(first),
        );

        // The listing is a few kilobytes; past a megabyte the server is sending the file.
        gate.holdAfter(1_000_000);
        const taking = await server.api('POST', `/connections/${connection.body.id}/pickups/${pickup.body.id}/run`);
        await waitFor(() => gate.held() > 0, 'the download to be under way');
        assert.equal((await runOf(taking.body.id)).status, 'running');
        await server.kill();
        gate.release();
        await server.restart();

        const run = await ended(taking.body.id);
        assert.equal(run.status, 'completed', JSON.stringify(run));
        assert.deepEqual(
          run.files.map((file: { name: string; outcome: string; afterImport: string }) => [file.name, file.outcome, file.afterImport]),
          [['big.xml', 'imported', 'deleted']],
          JSON.stringify(run),
        );
        const imports = (await server.api('GET', '/imports?limit=200')).body.imports.filter((record: { fileName: string }) => record.fileName === 'big.xml');
        assert.equal(imports.length, 1, JSON.stringify(imports));
        assert.deepEqual([imports[0].status, imports[0].inserted, imports[0].datasetId], ['completed', entries, dataset.body.id]);
      } finally {
        await server.close();
        await gate.close();
        await sshd.stop();
      }
    });
  });
}
