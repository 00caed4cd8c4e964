import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import type { Database } from '../../src/db/database.ts';
import { listSourcesWithDatasets } from '../../src/db/repositories/sources.ts';
import { recomputeReconciliation } from '../../src/db/repositories/transactions.ts';
import { openTestStore, storeKinds } from '../../support/harness.ts';

/**
 * The database keeps every dataset's revision and its counts per reconciliation status current
 * (migration 0003), whoever writes the transactions: these tests write with plain SQL.
 */
for (const kind of storeKinds()) {
  describe(`dataset revision, counts and status derivation in the store (${kind})`, () => {
    let database: Database;
    let drop: () => Promise<void>;
    const organizationId = randomUUID();
    const sourceId = randomUUID();
    before(async () => {
      ({ database, drop } = await openTestStore(kind));
      await database.query("INSERT INTO organizations (id, name) VALUES ($1, 'Tracking')", [organizationId]);
      await database.query("INSERT INTO sources (id, organization_id, name) VALUES ($1, $2, 'Source')", [sourceId, organizationId]);
    });
    after(async () => drop());

    async function newDataset(): Promise<string> {
      const id = randomUUID();
      await database.query("INSERT INTO datasets (id, organization_id, source_id, name) VALUES ($1, $2, $3, 'Dataset')", [id, organizationId, sourceId]);
      return id;
    }
    async function state(datasetId: string) {
      const sources = await listSourcesWithDatasets(database, organizationId, { includeArchived: false });
      const dataset = sources.flatMap((source) => source.datasets).find((entry) => entry.id === datasetId)!;
      return { revision: Number(dataset.revision), counts: dataset.statusCounts };
    }
    async function insert(datasetId: string, rows: { amount?: string | null; status?: string }[]): Promise<string[]> {
      const ids = rows.map(() => randomUUID());
      await database.query(
        `INSERT INTO transactions (id, organization_id, dataset_id, timestamp_ms, amount, reconciliation_status)
         SELECT r.id, $1, $2, 1, r.amount, r.status
           FROM json_to_recordset($3::json) AS r (id uuid, amount numeric, status text)`,
        [organizationId, datasetId, JSON.stringify(rows.map((row, index) => ({ id: ids[index], amount: row.amount ?? null, status: row.status ?? 'none' })))],
      );
      return ids;
    }

    it('bumps the revision once per writing statement and keeps the counts per status', async () => {
      const datasetId = await newDataset();
      assert.deepEqual(await state(datasetId), { revision: 0, counts: {} });
      const ids = await insert(datasetId, [{}, {}, {}]);
      assert.deepEqual(await state(datasetId), { revision: 1, counts: { none: 3 } });
      await database.query("UPDATE transactions SET reconciliation_status = 'full' WHERE id = ANY ($1::uuid[])", [ids.slice(0, 2)]);
      assert.deepEqual(await state(datasetId), { revision: 2, counts: { none: 1, full: 2 } });
      await database.query("UPDATE transactions SET description = 'renamed' WHERE id = $1", [ids[2]]);
      assert.deepEqual(await state(datasetId), { revision: 3, counts: { none: 1, full: 2 } }, 'any change of a row bumps the revision');
      await database.query('DELETE FROM transactions WHERE id = $1', [ids[0]]);
      assert.deepEqual(await state(datasetId), { revision: 4, counts: { none: 1, full: 1 } });
      await database.query('UPDATE transactions SET description = NULL WHERE false');
      assert.equal((await state(datasetId)).revision, 4, 'a statement that changes no row bumps nothing');
    });

    it('tracks each dataset separately when one statement touches several', async () => {
      const left = await newDataset();
      const right = await newDataset();
      const [a] = await insert(left, [{}]);
      const [b] = await insert(right, [{}]);
      await database.query("UPDATE transactions SET reconciliation_status = 'partial' WHERE id IN ($1, $2)", [a, b]);
      assert.deepEqual(await state(left), { revision: 2, counts: { partial: 1 } });
      assert.deepEqual(await state(right), { revision: 2, counts: { partial: 1 } });
    });

    it('derives none, partial and full from the matches, in SQL numeric', async () => {
      const datasetId = await newDataset();
      const [payment, invoice1, invoice2, noAmount, zero, other, setAside] = await insert(datasetId, [
        { amount: '0.30' },
        { amount: '-0.10' },
        { amount: '-0.20' },
        { amount: null },
        { amount: '0' },
        { amount: '5.00' },
        { amount: '1.00' },
      ]);
      const groupId = randomUUID();
      await database.query("INSERT INTO match_groups (id, organization_id, method, created_by) VALUES ($1, $2, 'manual', 'test')", [groupId, organizationId]);
      const link = (origin: string, target: string, amount: string | null) =>
        database.query(
          `INSERT INTO matches (id, organization_id, group_id, origin_id, origin_dataset_id, target_id, target_dataset_id, amount, method, created_by)
           VALUES ($1, $2, $3, $4, $5, $6, $5, $7, 'manual', 'test')`,
          [randomUUID(), organizationId, groupId, origin, datasetId, target, amount],
        );
      await link(payment!, invoice1!, '0.10');
      await link(noAmount!, zero!, null);
      await link(other!, invoice2!, '0.20');
      await database.query("UPDATE transactions SET status_override = 'informative' WHERE id = $1", [setAside]);
      const changes = await database.transaction((transaction) =>
        recomputeReconciliation(transaction, organizationId, [payment!, invoice1!, invoice2!, noAmount!, zero!, other!, setAside!]),
      );
      const after = Object.fromEntries(changes.map((change) => [change.id, change.after]));
      assert.deepEqual(after[payment!], { reconciliationStatus: 'partial', allocatedAmount: '0.10', matchCount: 1 });
      assert.deepEqual(after[invoice1!], { reconciliationStatus: 'full', allocatedAmount: '0.10', matchCount: 1 });
      assert.deepEqual(after[invoice2!], { reconciliationStatus: 'full', allocatedAmount: '0.20', matchCount: 1 });
      assert.deepEqual(after[noAmount!], { reconciliationStatus: 'full', allocatedAmount: '0', matchCount: 1 });
      assert.deepEqual(after[zero!], { reconciliationStatus: 'full', allocatedAmount: '0', matchCount: 1 });
      assert.deepEqual(after[other!], { reconciliationStatus: 'partial', allocatedAmount: '0.20', matchCount: 1 });
      assert.deepEqual(after[setAside!], { reconciliationStatus: 'informative', allocatedAmount: '0', matchCount: 0 });
      assert.deepEqual(
        changes.map((change) => change.id),
        [payment, invoice1, invoice2, noAmount, zero, other, setAside],
        'changes come back in the order asked',
      );
      assert.ok(changes.every((change) => change.changed));

      await link(payment!, invoice2!, '0.20');
      const [second] = await database.transaction((transaction) => recomputeReconciliation(transaction, organizationId, [payment!]));
      assert.deepEqual(second!.before, { reconciliationStatus: 'partial', allocatedAmount: '0.10', matchCount: 1 });
      assert.deepEqual(second!.after, { reconciliationStatus: 'full', allocatedAmount: '0.30', matchCount: 2 });
      const [unchanged] = await database.transaction((transaction) => recomputeReconciliation(transaction, organizationId, [payment!]));
      assert.equal(unchanged!.changed, false);
      const counts = (await state(datasetId)).counts;
      assert.deepEqual(counts, { full: 5, partial: 1, informative: 1 });
    });

    it("never touches another organization's rows", async () => {
      const datasetId = await newDataset();
      const [id] = await insert(datasetId, [{ amount: '1.00', status: 'full' }]);
      const changes = await database.transaction((transaction) => recomputeReconciliation(transaction, randomUUID(), [id!]));
      assert.deepEqual(changes, []);
      assert.equal((await database.query<{ s: string }>('SELECT reconciliation_status AS s FROM transactions WHERE id = $1', [id]))[0]!.s, 'full');
    });
  });
}
