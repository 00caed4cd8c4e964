import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { describe, it } from 'node:test';
import { migrate } from '../../src/db/migrate.ts';
import { openTestStore, storeKinds } from '../../support/harness.ts';

/**
 * Migration 0019 repairs what was stored before it: a dataset that lost its latest rows to an
 * undo reported their timestamp still, and the stored files of imports settled by a failed job
 * were kept. The triggers it changes are tested over the server (test/http/import-undo.test.ts).
 */
const UNDO_TRACKING_MIGRATION = 19;

for (const kind of storeKinds()) {
  describe(`the dataset tracking of undone and failed imports in the store (${kind})`, () => {
    it("gives datasets with undone imports the latest timestamp of their rows, and removes settled imports' files", async () => {
      const { database, drop } = await openTestStore(kind, { migrateThrough: UNDO_TRACKING_MIGRATION - 1 });
      try {
        const organizationId = randomUUID();
        const sourceId = randomUUID();
        await database.query("INSERT INTO organizations (id, name) VALUES ($1, 'Repair')", [organizationId]);
        await database.query("INSERT INTO sources (id, organization_id, name) VALUES ($1, $2, 'Source')", [sourceId, organizationId]);
        const dataset = async (latest: number) => {
          const id = randomUUID();
          await database.query('INSERT INTO datasets (id, organization_id, source_id, name, latest_timestamp_ms) VALUES ($1, $2, $3, $4, $5)', [
            id,
            organizationId,
            sourceId,
            `Dataset ${id}`,
            latest,
          ]);
          return id;
        };
        const importOf = async (datasetId: string, status: string) => {
          const id = randomUUID();
          await database.query(
            `INSERT INTO imports (id, organization_id, dataset_id, status, created_by, error)
             VALUES ($1, $2, $3, $4, 'test', CASE WHEN $4 = 'failed' THEN import_failure('interrupted', 'stopped', NULL, NULL, NULL) END)`,
            [id, organizationId, datasetId, status],
          );
          await database.query('INSERT INTO import_file_chunks (organization_id, import_id, ordinal, data) VALUES ($1, $2, 0, $3)', [
            organizationId,
            id,
            Buffer.from('file'),
          ]);
          return id;
        };
        const row = (datasetId: string, timestamp: number) =>
          database.query('INSERT INTO transactions (id, organization_id, dataset_id, timestamp_ms) VALUES ($1, $2, $3, $4)', [
            randomUUID(),
            organizationId,
            datasetId,
            timestamp,
          ]);

        const undone = await dataset(5_000);
        await importOf(undone, 'undone');
        await row(undone, 3_000);
        const emptied = await dataset(7_000);
        await importOf(emptied, 'undone');
        const untouched = await dataset(9_000);
        await row(untouched, 1_000);
        const failed = await importOf(untouched, 'failed');
        const queued = await importOf(untouched, 'running');

        await migrate(database);

        const latest = async (id: string) =>
          (await database.query<{ latest: string | null }>('SELECT latest_timestamp_ms::text AS latest FROM datasets WHERE id = $1', [id]))[0]!.latest;
        assert.deepEqual([await latest(undone), await latest(emptied), await latest(untouched)], ['3000', null, '9000']);
        const chunks = await database.query<{ import_id: string }>('SELECT import_id FROM import_file_chunks WHERE import_id = ANY ($1::uuid[])', [
          [failed, queued],
        ]);
        assert.deepEqual(
          chunks.map((chunk) => chunk.import_id),
          [queued],
          'the file of an import still to run stays',
        );
      } finally {
        await drop();
      }
    });
  });
}
