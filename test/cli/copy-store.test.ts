import assert from 'node:assert/strict';
import { rmSync } from 'node:fs';
import { describe, it } from 'node:test';
import { COPIED_TABLES, listTables, NOT_COPIED } from '../../src/db/store-copy.ts';
import { openTestStore, postgresSkipReason } from '../../support/harness.ts';
import { demoFromBanner, demoToken, exitCode, freePort, migratedDataDirectory, run, serve } from '../../support/processes.ts';

describe('copy-store: from the embedded demo to PostgreSQL', () => {
  it('names every table of the schema as copied or left out, with the reason', async () => {
    const store = await openTestStore('pglite');
    try {
      const tables = await listTables(store.database);
      const named = new Set<string>([...COPIED_TABLES, ...Object.keys(NOT_COPIED)]);
      assert.deepEqual(
        tables.filter((table) => !named.has(table)),
        [],
        'a table is neither copied nor explicitly left out',
      );
    } finally {
      await store.drop();
    }
  });

  it('copies every row in one transaction; the server then runs on PostgreSQL with the same credentials and data', { skip: postgresSkipReason }, async () => {
    const dataDirectory = await migratedDataDirectory('ledger-recon-copy-');
    const target = await openTestStore('postgres');
    // The target must be empty and migrated by the command itself: start from a bare database.
    await target.database.executeScript('DROP SCHEMA public CASCADE; CREATE SCHEMA public;');
    try {
      const port = await freePort();
      const embedded = await serve({ DATA_DIR: dataDirectory, PORT: String(port) });
      const demo = demoFromBanner(embedded.output());
      const baseUrl = `http://127.0.0.1:${port}`;
      // The demo queues a run of its rules at the first start: the copy is compared once it is done.
      const runsToken = await demoToken(baseUrl, demo);
      for (let attempt = 0; ; attempt += 1) {
        const { runs } = (await fetch(`${baseUrl}/v1/api/${demo.orgId}/runs`, { headers: { authorization: `Bearer ${runsToken}` } }).then((response) =>
          response.json(),
        )) as {
          runs: { status: string }[];
        };
        if (runs.length > 0 && runs.every((run) => !['queued', 'running'].includes(run.status))) break;
        assert.ok(attempt < 300, `the demo run did not finish: ${JSON.stringify(runs)}`);
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      const before = await fetch(`${baseUrl}/v1/api/${demo.orgId}/transactions`, {
        method: 'POST',
        headers: { authorization: `Bearer ${await demoToken(baseUrl, demo)}`, 'content-type': 'application/json' },
        body: JSON.stringify({ datasetId: demo.datasetId, limit: 1000, columns: [{ path: 'amount' }] }),
      }).then((response) => response.json());
      embedded.child.kill('SIGTERM');
      assert.equal(await exitCode(embedded.child), 0);

      const copied = run(['copy-store', '--to', target.databaseUrl!], { DATA_DIR: dataDirectory });
      assert.equal(copied.status, 0, copied.stderr);
      assert.match(copied.stdout, /transactions: \d+ rows/);
      const again = run(['copy-store', '--to', target.databaseUrl!], { DATA_DIR: dataDirectory });
      assert.equal(again.status, 2);
      assert.match(again.stderr, /only copies into an empty database/);

      const onPostgres = await serve({ DATA_DIR: dataDirectory, PORT: String(port), DATABASE_URL: target.databaseUrl! });
      try {
        assert.doesNotMatch(onPostgres.output(), /client secret/, 'the copied store is not seeded again');
        const after = await fetch(`${baseUrl}/v1/api/${demo.orgId}/transactions`, {
          method: 'POST',
          headers: { authorization: `Bearer ${await demoToken(baseUrl, demo)}`, 'content-type': 'application/json' },
          body: JSON.stringify({ datasetId: demo.datasetId, limit: 1000, columns: [{ path: 'amount' }] }),
        }).then((response) => response.json());
        // Every record, match, status and amount, to the last digit of its scale.
        assert.deepEqual(after, before);
        const audit = await fetch(`${baseUrl}/v1/api/${demo.orgId}/audit-events?limit=5`, {
          headers: { authorization: `Bearer ${await demoToken(baseUrl, demo)}` },
        });
        assert.equal(audit.status, 200);
      } finally {
        onPostgres.child.kill('SIGTERM');
        await exitCode(onPostgres.child);
      }
    } finally {
      await target.drop();
      rmSync(dataDirectory, { recursive: true, force: true });
    }
  });
});
