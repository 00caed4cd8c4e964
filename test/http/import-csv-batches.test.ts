import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { api, createTestOrganization, startTestServer, storeKinds, type TestOrganization, type TestServer } from '../../support/harness.ts';

/**
 * A CSV of several batches into a dataset that already holds some of its rows, through the real
 * server on both stores: on PostgreSQL each batch is copied straight into the transactions table
 * after the ids the dataset holds are looked up, on the embedded store each batch is an insert
 * that skips them. Either way the report's counts, the stored rows and the dataset's counts are
 * the same.
 */

/** More than two batches of the importer (5,000 rows each). */
const ROWS = 12_001;
/** Rows of the large file that an earlier file already stored: in the first, a middle and the last batch. */
const KNOWN_ORDINALS = [0, 6_000, ROWS - 1];

const header = 'externalId,timestamp,description,amount,currency\n';
const line = (ordinal: number, description: string) =>
  `ROW-${String(ordinal).padStart(6, '0')},2024-03-01T00:00:${String(ordinal % 60).padStart(2, '0')}Z,"${description} ${ordinal}, with a comma",${ordinal % 2 === 0 ? '' : '-'}${ordinal}.05,EUR\n`;

for (const kind of storeKinds()) {
  describe(`CSV import of several batches into a dataset holding some of its rows (${kind})`, () => {
    let server: TestServer;
    let organization: TestOrganization;
    let base: string;
    let sourceId: string;

    before(async () => {
      server = await startTestServer(kind);
      organization = await createTestOrganization(server);
      base = `/v1/api/${organization.orgId}`;
      sourceId = (await api(server, organization.token, 'POST', `${base}/sources`, { name: 'Ledger' })).body.id;
    });
    after(async () => {
      await server.close();
    });

    const call = (method: string, path: string, body?: unknown) => api(server, organization.token, method, `${base}${path}`, body);

    async function importFile(datasetId: string, text: string): Promise<{ status: number; body: any }> {
      const response = await fetch(`${server.baseUrl}${base}/datasets/${datasetId}/imports`, {
        method: 'POST',
        headers: { authorization: `Bearer ${organization.token}`, 'content-type': 'application/octet-stream' },
        body: text,
      });
      return { status: response.status, body: await response.json() };
    }

    async function transactionCount(datasetId: string): Promise<number> {
      const sources = (await call('GET', '/sources')).body as any[];
      const dataset = sources.flatMap((source) => source.datasets).find((candidate) => candidate.id === datasetId);
      return dataset.transactionCount;
    }

    it('stores the rows the dataset lacks, counts the others as duplicates and keeps them as they were', async () => {
      const datasetId = (await call('POST', `/sources/${sourceId}/datasets`, { name: 'Ledger export' })).body.id;
      const earlier = await importFile(datasetId, header + KNOWN_ORDINALS.map((ordinal) => line(ordinal, 'Earlier')).join('') + line(ROWS, 'Earlier only'));
      assert.equal(earlier.status, 201, JSON.stringify(earlier.body));
      assert.equal(earlier.body.inserted, KNOWN_ORDINALS.length + 1);

      let large = header;
      for (let ordinal = 0; ordinal < ROWS; ordinal++) large += line(ordinal, 'Large');
      const imported = await importFile(datasetId, large);
      assert.equal(imported.status, 201, JSON.stringify(imported.body).slice(0, 2000));
      assert.deepEqual([imported.body.rowsRead, imported.body.inserted, imported.body.duplicates], [ROWS, ROWS - KNOWN_ORDINALS.length, KNOWN_ORDINALS.length]);
      assert.deepEqual(
        [imported.body.statements[0].entries, imported.body.statements[0].inserted, imported.body.statements[0].duplicates],
        [ROWS, ROWS - KNOWN_ORDINALS.length, KNOWN_ORDINALS.length],
      );
      assert.equal(await transactionCount(datasetId), ROWS + 1, 'the status counts the database keeps add up');

      const known = await call('POST', '/transactions', {
        datasetId,
        limit: 10,
        search: [{ path: 'description', search: { type: 'string', value: 'Earlier' } }],
        columns: [{ path: 'externalId' }, { path: 'description' }, { path: 'amount' }],
      });
      assert.equal(known.status, 200, JSON.stringify(known.body));
      assert.deepEqual(
        (known.body as any[]).map((row) => row.description).sort(),
        ['Earlier 0, with a comma', 'Earlier 12000, with a comma', 'Earlier 6000, with a comma', `Earlier only ${ROWS}, with a comma`],
        'a row the dataset held is not replaced by the file',
      );
      const stored = await call('POST', '/transactions', {
        datasetId,
        limit: 1,
        search: [{ path: 'externalId', search: { type: 'string', value: 'ROW-005001', exact: true } }],
        columns: [{ path: 'externalId' }, { path: 'description' }, { path: 'amount' }, { path: 'currency' }],
      });
      const [row] = stored.body as any[];
      assert.deepEqual(
        { externalId: row.externalId, timestamp: row.timestamp, description: row.description, amount: row.amount, currency: row.currency },
        {
          externalId: 'ROW-005001',
          timestamp: Date.parse('2024-03-01T00:00:21Z'),
          description: 'Large 5001, with a comma',
          amount: '-5001.05',
          currency: 'EUR',
        },
      );

      const again = await importFile(datasetId, large);
      assert.equal(again.status, 201, JSON.stringify(again.body).slice(0, 2000));
      assert.deepEqual([again.body.inserted, again.body.duplicates], [0, ROWS]);
      assert.equal(await transactionCount(datasetId), ROWS + 1);

      const undone = await call('DELETE', `/imports/${imported.body.id}`);
      assert.equal(undone.status, 200, JSON.stringify(undone.body));
      assert.equal(undone.body.removed, ROWS - KNOWN_ORDINALS.length, 'the undo removes exactly the rows the import stored');
      assert.equal(await transactionCount(datasetId), KNOWN_ORDINALS.length + 1);
    });
  });
}
