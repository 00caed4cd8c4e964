import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { api, createTestOrganization, startTestServer, storeKinds, type TestOrganization, type TestServer } from '../../support/harness.ts';
import { addTransactions, createDataset } from '../../support/recon-fixtures.ts';
import { DOLLAR_STATEMENT, EURO_STATEMENT } from '../../support/statement-files.ts';

/** GET /dataset-overview: every bank account at a glance, open amounts signed, on both stores. */
for (const kind of storeKinds()) {
  describe(`dataset overview (${kind})`, () => {
    let server: TestServer;
    let organization: TestOrganization;
    let base: string;
    before(async () => {
      server = await startTestServer(kind);
      organization = await createTestOrganization(server);
      base = `/v1/api/${organization.orgId}`;
    });
    after(() => server.close());

    async function importStatement(datasetId: string, file: string): Promise<void> {
      const response = await fetch(`${server.baseUrl}${base}/datasets/${datasetId}/imports`, {
        method: 'POST',
        headers: { authorization: `Bearer ${organization.token}`, 'content-type': 'application/octet-stream' },
        body: file,
      });
      assert.equal(response.status, 201, await response.text());
    }

    it('lists every bank dataset with its shares, open money in and out with currency, months and latest closing balance', async () => {
      const { datasetId: eurId, sourceId } = await createDataset(server, organization, { name: 'Current account' });
      const { datasetId: usdId } = await createDataset(server, organization, { name: 'Dollar account', sourceId });
      const { datasetId: ledgerId } = await createDataset(server, organization, { name: 'Ledger', sourceId });
      await importStatement(eurId, EURO_STATEMENT);
      await importStatement(usdId, DOLLAR_STATEMENT);
      const eurRows = (await api(server, organization.token, 'POST', `${base}/transactions`, { datasetId: eurId })).body as {
        id: string;
        description: string;
      }[];
      assert.equal(eurRows.length, 3);
      const invoice = eurRows.find((row) => row.description === 'Invoice 7')!.id;
      const ledger = await addTransactions(server, organization, ledgerId, [
        { externalId: 'x', timestamp: Date.UTC(2026, 0, 20), amount: '100.00', currency: 'EUR' },
      ]);
      const matched = await api(server, organization.token, 'POST', `${base}/matches`, {
        links: [{ originId: invoice, targetId: ledger.x, amount: '100.00' }],
      });
      assert.equal(matched.status, 201, JSON.stringify(matched.body));

      const overview = await api(server, organization.token, 'GET', `${base}/dataset-overview?from=2026-01&to=2026-03`);
      assert.equal(overview.status, 200, JSON.stringify(overview.body));
      assert.deepEqual(overview.body.months, ['2026-01', '2026-02', '2026-03']);
      // The ledger has no account and no statement: not a bank dataset.
      assert.deepEqual(
        overview.body.datasets.map((dataset: any) => dataset.name),
        ['Current account', 'Dollar account'],
      );
      const [eur, usd] = overview.body.datasets;
      assert.equal(eur.currency, 'EUR');
      assert.deepEqual([eur.count, eur.reconciledCount, eur.excludedCount], [3, 1, 0]);
      // 350.00 in and 25.50 out are open: they net to 324.50, as the statement sums them (not 375.50).
      assert.deepEqual(eur.open, [{ currency: 'EUR', count: 2, moneyIn: '350.00', moneyOut: '-25.50', net: '324.50' }]);
      assert.deepEqual(
        eur.months.map((month: any) => [month.month, month.count, month.reconciledCount]),
        [
          ['2026-01', 2, 1],
          ['2026-03', 1, 0],
        ],
      );
      assert.deepEqual(eur.closingBalance, { amount: '1424.50', currency: 'EUR', date: '2026-03-31' });
      assert.deepEqual(usd.open, [{ currency: 'USD', count: 2, moneyIn: '20.00', moneyOut: '-80.00', net: '-60.00' }]);
      assert.deepEqual(usd.closingBalance, { amount: '-50.00', currency: 'USD', date: '2026-03-30' });

      // A period before the statements: nothing open, no balance yet; one month only.
      const january = await api(server, organization.token, 'GET', `${base}/dataset-overview?from=2025-12&to=2025-12`);
      assert.deepEqual(january.body.months, ['2025-12']);
      assert.deepEqual(
        january.body.datasets.map((dataset: any) => [dataset.count, dataset.open, dataset.closingBalance]),
        [
          [0, [], null],
          [0, [], null],
        ],
      );
      // The default period is the last twelve months.
      assert.equal((await api(server, organization.token, 'GET', `${base}/dataset-overview`)).body.months.length, 12);
      assert.equal((await api(server, organization.token, 'GET', `${base}/dataset-overview?from=2026-04&to=2026-03`)).status, 400);
      assert.equal((await api(server, organization.token, 'GET', `${base}/dataset-overview?from=2023-01&to=2026-03`)).status, 400);
      assert.equal((await api(server, organization.token, 'GET', `${base}/dataset-overview?from=2026-13`)).status, 400);
    });
  });
}
