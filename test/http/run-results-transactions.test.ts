import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { api, createTestOrganization, startTestServer, storeKinds, type TestServer } from '../../support/harness.ts';
import { addTransactions, createDataset } from '../../support/recon-fixtures.ts';

const DAY = 86_400_000;
const START = Date.UTC(2026, 9, 1);

for (const kind of storeKinds()) {
  describe(`a run's results with their transactions (${kind})`, () => {
    let server: TestServer;
    before(async () => {
      server = await startTestServer(kind);
    });
    after(async () => server.close());

    it('names both sides of a match and each open transaction by date, description, reference and amount on request', async () => {
      const organization = await createTestOrganization(server);
      const { datasetId: bank } = await createDataset(server, organization, { name: 'Bank' });
      const { datasetId: ledger } = await createDataset(server, organization, { name: 'Ledger' });
      const base = `/v1/api/${organization.orgId}`;
      const ids = {
        ...(await addTransactions(server, organization, bank, [
          { externalId: 'b1', timestamp: START, amount: '950.00', currency: 'EUR', reference: 'INV-1', description: 'Kestrel Aviation INV-1' },
          { externalId: 'b2', timestamp: START + DAY, amount: '12.00', currency: 'EUR', description: 'Card fee' },
        ])),
        ...(await addTransactions(server, organization, ledger, [
          { externalId: 'l1', timestamp: START + DAY, amount: '950.00', currency: 'EUR', reference: 'inv-1', description: 'Invoice 1 Kestrel' },
        ])),
      };
      const rule = await api(server, organization.token, 'POST', `${base}/rules`, {
        name: 'Same reference',
        origin: { datasetIds: [bank] },
        target: { datasetIds: [ledger] },
        conditions: [
          { type: 'amount', sign: 'same' },
          { type: 'equals', origin: { path: 'reference', normalize: ['casefold'] }, target: { path: 'reference', normalize: ['casefold'] } },
        ],
      });
      assert.equal(rule.status, 201, JSON.stringify(rule.body));
      const started = await api(server, organization.token, 'POST', `${base}/runs`, { mode: 'dry-run' });
      assert.equal(started.status, 202);
      for (let attempt = 0; attempt < 300; attempt += 1) {
        const run = await api(server, organization.token, 'GET', `${base}/runs/${started.body.id}`);
        if (!['queued', 'running'].includes(run.body.status)) break;
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      const plain = await api(server, organization.token, 'GET', `${base}/runs/${started.body.id}/results?kind=matches`);
      assert.equal(plain.status, 200);
      assert.equal(plain.body.results[0].transactions, undefined, 'without include, results stay as they were');

      const matches = await api(server, organization.token, 'GET', `${base}/runs/${started.body.id}/results?kind=matches&include=transactions`);
      assert.equal(matches.status, 200, JSON.stringify(matches.body));
      const [match] = matches.body.results;
      assert.deepEqual(
        match.transactions.map((transaction: Record<string, unknown>) => [
          transaction.id,
          transaction.datasetName,
          transaction.timestamp,
          transaction.description,
          transaction.reference,
          transaction.amount,
          transaction.currency,
        ]),
        [
          [ids.b1, 'Bank', START, 'Kestrel Aviation INV-1', 'INV-1', '950.00', 'EUR'],
          [ids.l1, 'Ledger', START + DAY, 'Invoice 1 Kestrel', 'inv-1', '950.00', 'EUR'],
        ],
      );

      const open = await api(server, organization.token, 'GET', `${base}/runs/${started.body.id}/results?kind=unmatched&include=transactions`);
      assert.equal(open.status, 200);
      assert.deepEqual(
        open.body.results.map((result: { id: string; transactions: { description: string; amount: string }[] }) => [
          result.id,
          result.transactions[0]!.description,
        ]),
        [[ids.b2, 'Card fee']],
      );

      const wrong = await api(server, organization.token, 'GET', `${base}/runs/${started.body.id}/results?kind=matches&include=everything`);
      assert.equal(wrong.status, 400);
    });
  });
}
