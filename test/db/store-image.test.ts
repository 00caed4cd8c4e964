import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { dumpEmbeddedImage, openDatabase } from '../../src/db/database.ts';
import { listMigrations } from '../../src/db/migrate.ts';
import { storeImageFile } from '../../support/store-image.ts';
import { openTestStore } from '../../support/harness.ts';

/**
 * The suites load a migrated embedded store from an image instead of migrating each their own:
 * the image must be the store the migrations make, and a changed migration must never load an
 * image made before it.
 */
describe('the migrated store image of the tests', () => {
  it('opens a store with every migration applied and no rows of any organization', async () => {
    const store = await openTestStore('pglite');
    try {
      const applied = await store.database.query<{ name: string }>('SELECT name FROM schema_migrations ORDER BY version');
      assert.deepEqual(
        applied.map((row) => row.name),
        listMigrations().map((migration) => migration.name),
      );
      assert.deepEqual(await store.database.query('SELECT id FROM organizations'), []);
      // The trigram extension of "similar" rule conditions works on a loaded store too.
      const [similar] = await store.database.query<{ score: number }>("SELECT similarity('Invoice 1042', 'invoice 1042') AS score");
      assert.equal(similar!.score, 1);
    } finally {
      await store.drop();
    }
  });

  it('is another file when a migration is added or edited, so a stale image is never loaded', () => {
    const migrations = listMigrations();
    const last = migrations.at(-1)!;
    const current = storeImageFile(migrations);
    assert.equal(storeImageFile(migrations), current);
    assert.notEqual(storeImageFile([...migrations, { version: last.version + 1, name: `${last.version + 1}_more`, sql: 'SELECT 1;' }]), current);
    assert.notEqual(storeImageFile([...migrations.slice(0, -1), { ...last, sql: `${last.sql}\n-- edited` }]), current);
  });

  it('keeps what was written before the dump: a loaded store is that store, not a fresh one', async () => {
    const store = await openTestStore('pglite');
    let image: Uint8Array;
    try {
      await store.database.query("INSERT INTO organizations (id, name) VALUES ('6a1f1a56-0a4e-4b43-9a4f-3d0f5e7e2c11', 'Imaged')");
      image = await dumpEmbeddedImage(store.database);
    } finally {
      await store.drop();
    }
    const loaded = openDatabase({ databaseUrl: null, dataDirectory: null, image });
    try {
      assert.deepEqual(await loaded.query('SELECT name FROM organizations'), [{ name: 'Imaged' }]);
    } finally {
      await loaded.close();
    }
  });
});
