import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { api, createTestOrganization, startTestServer, storeKinds, type TestOrganization, type TestServer } from '../../support/harness.ts';
import { addTransactions, createDataset } from '../../support/recon-fixtures.ts';

/** GET /datasets/{id}/summary: the dashboard's figures, exact to the cent, on both stores. */
for (const kind of storeKinds()) {
  describe(`dataset summary (${kind})`, () => {
    let server: TestServer;
    let organization: TestOrganization;
    before(async () => {
      server = await startTestServer(kind);
      organization = await createTestOrganization(server);
    });
    after(() => server.close());

    it('gives the reconciled share by month, open amounts by age and rule hits', async () => {
      const { datasetId, sourceId } = await createDataset(server, organization, { name: 'Bank' });
      const { datasetId: ledgerId } = await createDataset(server, organization, { name: 'Ledger', sourceId });
      const day = 86_400_000;
      const now = Date.now();
      const ids = await addTransactions(server, organization, datasetId, [
        { externalId: 'a', timestamp: now - 3 * day, amount: '100.10', currency: 'EUR' },
        { externalId: 'b', timestamp: now - 20 * day, amount: '-40.05', currency: 'EUR' },
        { externalId: 'c', timestamp: now - 60 * day, amount: '7.00', currency: 'EUR' },
        { externalId: 'd', timestamp: now - 200 * day, amount: '0.01', currency: 'EUR' },
        { externalId: 'e', timestamp: now - 200 * day, amount: '5.00', currency: 'EUR' },
      ]);
      const ledger = await addTransactions(server, organization, ledgerId, [{ externalId: 'x', timestamp: now - 3 * day, amount: '60.00', currency: 'EUR' }]);
      const base = `/v1/api/${organization.orgId}`;
      // a: 60.00 of 100.10 matched (partial, 40.10 open); e: out of scope.
      assert.equal(
        (await api(server, organization.token, 'POST', `${base}/matches`, { links: [{ originId: ids.a, targetId: ledger.x, amount: '60.00' }] })).status,
        201,
      );
      assert.equal((await api(server, organization.token, 'PATCH', `${base}/transactions/${ids.e}`, { reconciliationStatus: 'out of scope' })).status, 200);

      const summary = await api(server, organization.token, 'GET', `${base}/datasets/${datasetId}/summary`);
      assert.equal(summary.status, 200, JSON.stringify(summary.body));
      assert.deepEqual(summary.body.openByAge, [
        { bucket: '0-7', count: 1, amount: '40.10' },
        // Money out stays negative: open amounts net as the statement sums them.
        { bucket: '8-30', count: 1, amount: '-40.05' },
        { bucket: '31-90', count: 1, amount: '7.00' },
        { bucket: '>90', count: 1, amount: '0.01' },
      ]);
      const months = summary.body.months;
      assert.equal(
        months.reduce((total: number, month: any) => total + month.count, 0),
        5,
      );
      assert.equal(
        months.reduce((total: number, month: any) => total + month.excludedCount, 0),
        1,
      );
      assert.ok(
        months.every((month: any, index: number) => index === 0 || months[index - 1].month < month.month),
        'oldest first',
      );
      assert.deepEqual(summary.body.ruleHits, []);

      const ledgerSummary = await api(server, organization.token, 'GET', `${base}/datasets/${ledgerId}/summary`);
      assert.deepEqual(
        ledgerSummary.body.months.map((month: any) => [month.reconciledCount, month.reconciledAmount]),
        [[1, '60.00']],
      );
      assert.equal((await api(server, organization.token, 'GET', `${base}/datasets/00000000-0000-4000-8000-000000000000/summary`)).status, 404);
    });
  });
}
