import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { api, createTestClient, createTestOrganization, startTestServer, storeKinds, type TestOrganization, type TestServer } from '../../support/harness.ts';
import { createDataset, revisionOf } from '../../support/recon-fixtures.ts';

for (const kind of storeKinds()) {
  describe(`ingest (${kind})`, () => {
    let server: TestServer;
    let organization: TestOrganization;
    before(async () => {
      server = await startTestServer(kind);
      organization = await createTestOrganization(server);
    });
    after(async () => server.close());

    const ingest = (datasetId: string, records: unknown[], token = organization.token, orgId = organization.orgId) =>
      api(server, token, 'POST', `/v1/api/${orgId}/datasets/${datasetId}/transactions`, { records });
    const rowsOf = (datasetId: string) =>
      server.database.query<Record<string, any>>(
        `SELECT external_id, timestamp_ms, description, type, reference, currency, amount::text AS amount, custom, reconciliation_status
           FROM transactions WHERE dataset_id = $1 ORDER BY timestamp_ms, external_id`,
        [datasetId],
      );

    it('stores standard and custom values with their types, money exactly', async () => {
      const { datasetId } = await createDataset(server, organization, {
        columns: [
          { name: 'vat', type: 'money' },
          { name: 'valueDate', type: 'date' },
          { name: 'booked', type: 'boolean' },
          { name: 'quantity', type: 'number' },
          { name: 'counterparty', type: 'string' },
        ],
      });
      const response = await ingest(datasetId, [
        {
          externalId: 'x-1',
          timestamp: 1_700_000_000_000,
          description: 'Card payment',
          type: 'debit',
          reference: 'INV-1',
          currency: 'EUR',
          amount: '-1250.10',
          vat: '-217.00',
          valueDate: '2024-01-31',
          booked: true,
          quantity: 2.5,
          counterparty: 'ACME',
        },
        // A numeric-string timestamp, a 20-digit amount, a number sent as a string, a date as epoch ms.
        { externalId: 'x-2', timestamp: '1700000000001', amount: '123456789012345678.12', quantity: '7', valueDate: 1_706_659_200_000 },
        // Optional values may be null or absent.
        { timestamp: 1_700_000_000_002, amount: null, description: null },
      ]);
      assert.equal(response.status, 200, JSON.stringify(response.body));
      assert.deepEqual(response.body, { inserted: 3, duplicates: 0 });
      const rows = await rowsOf(datasetId);
      assert.equal(rows.length, 3);
      assert.deepEqual(
        { ...rows[0], custom: rows[0]!.custom },
        {
          external_id: 'x-1',
          timestamp_ms: 1_700_000_000_000,
          description: 'Card payment',
          type: 'debit',
          reference: 'INV-1',
          currency: 'EUR',
          amount: '-1250.10',
          custom: { vat: '-217.00', valueDate: 1_706_659_200_000, booked: true, quantity: 2.5, counterparty: 'ACME' },
          reconciliation_status: 'none',
        },
      );
      assert.equal(rows[1]!.amount, '123456789012345678.12');
      assert.deepEqual(rows[1]!.custom, { quantity: 7, valueDate: 1_706_659_200_000 });
      assert.equal(rows[2]!.amount, null);
      assert.equal(rows[2]!.description, null);
      assert.equal(rows[2]!.external_id, null);
    });

    it('is all or nothing: one bad value refuses the batch, naming the record and the column', async () => {
      const { datasetId } = await createDataset(server, organization, { columns: [{ name: 'booked', type: 'boolean' }] });
      const records = Array.from({ length: 20 }, (_, index) => ({ externalId: `r${index}`, timestamp: 1_700_000_000_000 + index, amount: '1.00' }));
      (records[17] as Record<string, unknown>).amount = '12,50';
      const response = await ingest(datasetId, records);
      assert.equal(response.status, 400);
      assert.deepEqual(
        response.body.error.details.map((detail: { path: string }) => detail.path),
        ['/records/17/amount'],
      );
      assert.match(response.body.error.message, /\/records\/17\/amount/);
      assert.match(response.body.error.message, /nothing was stored/);
      assert.equal((await rowsOf(datasetId)).length, 0);
      assert.equal(await revisionOf(server, datasetId), 0);

      const several = await ingest(datasetId, [
        { timestamp: 1, booked: 'yes' },
        { amount: '1.00' },
        { timestamp: 'yesterday' },
        { timestamp: 2, amount: 1.005e-10 },
        { timestamp: 3, currency: 'EURO DOLLAR' },
        { timestamp: 4, description: 12 },
        { timestamp: null },
        { timestamp: 5, externalId: '' },
        { timestamp: '2024-02-30' },
      ]);
      assert.equal(several.status, 400);
      assert.deepEqual(
        several.body.error.details.map((detail: { path: string }) => detail.path),
        [
          '/records/0/booked',
          '/records/1/timestamp',
          '/records/2/timestamp',
          '/records/3/amount',
          '/records/4/currency',
          '/records/5/description',
          '/records/6/timestamp',
          '/records/7/externalId',
          '/records/8/timestamp',
        ],
      );
      assert.match(several.body.error.details[0].message, /boolean column "booked" must be true or false/);
      assert.match(several.body.error.details[1].message, /is required/);
      assert.equal((await rowsOf(datasetId)).length, 0);
    });

    it('refuses unknown keys, naming them and hinting at a column that differs in case', async () => {
      const { datasetId } = await createDataset(server, organization);
      const response = await ingest(datasetId, [{ timestamp: 1, Amount: '1.00', colour: 'red' }]);
      assert.equal(response.status, 400);
      const paths = response.body.error.details.map((detail: { path: string }) => detail.path);
      assert.deepEqual(paths, ['/records/0/Amount', '/records/0/colour']);
      assert.match(response.body.error.details[0].message, /did you mean "amount"/);
      assert.match(response.body.error.details[1].message, /"colour" is not a column of this dataset/);
    });

    it('is idempotent on externalId: a retry inserts nothing and reports duplicates; records without one are always inserted', async () => {
      const { datasetId } = await createDataset(server, organization);
      const batch = [
        { externalId: 'a', timestamp: 1_700_000_000_000, amount: '5.00' },
        { externalId: 'b', timestamp: 1_700_000_000_001, amount: '6.00' },
        { externalId: 'a', timestamp: 1_700_000_000_002, amount: '7.00' },
        { timestamp: 1_700_000_000_003, amount: '8.00', description: 'same' },
        { timestamp: 1_700_000_000_003, amount: '8.00', description: 'same' },
      ];
      const first = await ingest(datasetId, batch);
      assert.deepEqual(first.body, { inserted: 4, duplicates: 1 });
      const rows = await rowsOf(datasetId);
      // Within a batch the first record with an externalId wins.
      assert.deepEqual(
        rows.map((row) => [row.external_id, row.amount]),
        [
          ['a', '5.00'],
          ['b', '6.00'],
          [null, '8.00'],
          [null, '8.00'],
        ],
      );
      const revision = await revisionOf(server, datasetId);
      const retry = await ingest(datasetId, batch.slice(0, 3));
      assert.deepEqual(retry.body, { inserted: 0, duplicates: 3 });
      assert.equal((await rowsOf(datasetId)).length, 4);
      assert.equal(await revisionOf(server, datasetId), revision, 'a retry that adds nothing does not change the revision');
      const mixed = await ingest(datasetId, [
        { externalId: 'b', timestamp: 1, amount: '999.00' },
        { externalId: 'c', timestamp: 1_700_000_000_009, amount: '9.00' },
      ]);
      assert.deepEqual(mixed.body, { inserted: 1, duplicates: 1 });
      const stored = await rowsOf(datasetId);
      assert.equal(stored.find((row) => row.external_id === 'b')!.amount, '6.00', 'a duplicate never rewrites the stored transaction');
      // The same externalId in another dataset is another transaction.
      const { datasetId: otherDataset } = await createDataset(server, organization);
      assert.deepEqual((await ingest(otherDataset, batch.slice(0, 1))).body, { inserted: 1, duplicates: 0 });
    });

    it('bumps the revision and records who sent what and when', async () => {
      const { datasetId } = await createDataset(server, organization);
      await ingest(datasetId, [{ timestamp: 1_700_000_000_500 }]);
      assert.equal(await revisionOf(server, datasetId), 1);
      await ingest(datasetId, [{ timestamp: 1_600_000_000_000 }, { timestamp: 1_650_000_000_000 }]);
      assert.equal(await revisionOf(server, datasetId), 2);
      const writer = await createTestClient(server, organization.orgId, 'Full member');
      await ingest(datasetId, [{ timestamp: 1_700_000_000_900 }], writer.token);
      const sources = await api(server, organization.token, 'GET', `/v1/api/${organization.orgId}/sources`);
      const dataset = sources.body.flatMap((source: { datasets: any[] }) => source.datasets).find((entry: { id: string }) => entry.id === datasetId);
      assert.equal(dataset.revision, 3);
      assert.equal(dataset.latestTimestamp, 1_700_000_000_900);
      assert.equal(dataset.lastUpdatedBy, `client:${writer.clientId}`);
      assert.notEqual(dataset.lastReceived, null);
      assert.equal(dataset.transactionCount, 4);
    });

    it('takes 10,000 records in one request and refuses 10,001', async () => {
      const { datasetId } = await createDataset(server, organization, { columns: [{ name: 'note', type: 'string' }] });
      const records = Array.from({ length: 10_000 }, (_, index) => ({
        externalId: `bulk-${index}`,
        timestamp: 1_700_000_000_000 + index,
        description: `Payment ${index} with a description long enough to make the body realistic`,
        amount: `${index}.${String(index % 100).padStart(2, '0')}`,
        currency: 'EUR',
        note: 'x'.repeat(100),
      }));
      const accepted = await ingest(datasetId, records);
      assert.equal(accepted.status, 200, JSON.stringify(accepted.body).slice(0, 300));
      assert.deepEqual(accepted.body, { inserted: 10_000, duplicates: 0 });
      const sum = await server.database.query<{ total: string }>('SELECT sum(amount)::text AS total FROM transactions WHERE dataset_id = $1', [datasetId]);
      assert.equal(sum[0]!.total, '49999950.00');
      const refused = await ingest(datasetId, [...records, { timestamp: 1 }]);
      assert.equal(refused.status, 400);
      assert.equal(refused.body.error.details[0].path, '/records');
    });

    it('answers 404 for an unknown dataset or one of another organization, 403 to a view-only client', async () => {
      const unknown = await ingest('00000000-0000-4000-8000-000000000000', [{ timestamp: 1 }]);
      assert.equal(unknown.status, 404);
      const other = await createTestOrganization(server);
      const { datasetId: foreign } = await createDataset(server, other);
      const response = await ingest(foreign, [{ timestamp: 1 }]);
      assert.equal(response.status, 404);
      assert.equal((await rowsOf(foreign)).length, 0);
      const viewer = await createTestClient(server, organization.orgId, 'View-only');
      const { datasetId } = await createDataset(server, organization);
      assert.equal((await ingest(datasetId, [{ timestamp: 1 }], viewer.token)).status, 403);
      const notAnArray = await api(server, organization.token, 'POST', `/v1/api/${organization.orgId}/datasets/${datasetId}/transactions`, { records: {} });
      assert.equal(notAnArray.status, 400);
      const notObjects = await ingest(datasetId, [1, 'two']);
      assert.equal(notObjects.status, 400);
      assert.equal(notObjects.body.error.details[0].path, '/records/0');
    });
  });
}
