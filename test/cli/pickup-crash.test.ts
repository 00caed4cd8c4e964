import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, it } from 'node:test';
import { storeKinds } from '../../support/harness.ts';
import { startKillableServer } from '../../support/processes.ts';
import { camt053Statement } from '../../support/statement-files.ts';
import { waitFor } from '../../support/wait.ts';

/**
 * A server killed (SIGKILL) while a pickup imports a file: after a restart the run is taken up
 * again and the file is imported once, whole. On PostgreSQL, where the test can see the import
 * running from outside (the embedded store answers other requests only once the import's
 * transaction ends, so the moment to kill cannot be seen).
 */
for (const kind of storeKinds().filter((candidate) => candidate === 'postgres')) {
  describe(`a pickup survives a killed server (${kind})`, () => {
    it('imports the file once after a kill -9 during its import', async () => {
      const root = mkdtempSync(path.join(tmpdir(), 'pickup-crash-'));
      mkdirSync(path.join(root, 'drop'));
      const server = await startKillableServer(kind, { CONNECTOR_FOLDER_ROOT: root, CONNECTOR_SETTLE_SECONDS: '0' });
      try {
        const source = await server.api('POST', '/sources', { name: 'Crash bank' });
        const dataset = await server.api('POST', `/sources/${source.body.id}/datasets`, { name: 'Crash account', columns: [] });
        const connection = await server.api('POST', '/connections', { name: 'Drop', kind: 'folder', folderPath: 'drop' });
        assert.equal(connection.status, 201, JSON.stringify(connection.body));
        const pickup = await server.api('POST', `/connections/${connection.body.id}/pickups`, {
          path: '/',
          pattern: '*.xml',
          intervalMinutes: 600,
          datasetId: dataset.body.id,
          afterImport: 'delete',
        });
        const entries = 15_000;
        writeFileSync(
          path.join(root, 'drop', 'big.xml'),
          camt053Statement({
            id: 'BIG-1',
            iban: 'DE89370400440532013000',
            currency: 'EUR',
            opening: { amount: '0.00', date: '2026-01-01' },
            closingDate: '2026-01-31',
            entries: Array.from({ length: entries }, (_, index) => ({ reference: `B${index}`, amount: '1.00', date: '2026-01-15', text: `Entry ${index}` })),
          }),
        );
        const runOf = async (runId: string) => (await server.api('GET', `/connections/${connection.body.id}/pickups/${pickup.body.id}/runs/${runId}`)).body;
        const look = await server.api('POST', `/connections/${connection.body.id}/pickups/${pickup.body.id}/run`);
        await waitFor(async () => (await runOf(look.body.id)).status === 'completed', 'the first look');
        const taking = await server.api('POST', `/connections/${connection.body.id}/pickups/${pickup.body.id}/run`);
        await waitFor(async () => {
          const imports = (await server.api('GET', '/imports?limit=200')).body?.imports ?? [];
          return imports.some((record: { fileName: string; status: string }) => record.fileName === 'big.xml' && record.status === 'running');
        }, 'the import to start');
        await server.kill();
        await server.restart();
        const run = await waitFor(
          async () => {
            const current = await runOf(taking.body.id);
            return current && !['queued', 'running'].includes(current.status) ? current : null;
          },
          'the run to be taken up again and end',
          60_000,
        );
        assert.equal(run.status, 'completed', JSON.stringify(run));
        assert.deepEqual(
          run.files.map((file: { outcome: string; afterImport: string }) => [file.outcome, file.afterImport]),
          [['imported', 'deleted']],
        );
        const imports = (await server.api('GET', `/imports?datasetId=${dataset.body.id}&limit=200`)).body.imports;
        const completed = imports.filter((record: { status: string }) => record.status === 'completed');
        assert.equal(completed.length, 1, JSON.stringify(imports));
        assert.equal(completed[0].inserted, entries);
      } finally {
        await server.close();
        rmSync(root, { recursive: true, force: true });
      }
    });
  });
}
