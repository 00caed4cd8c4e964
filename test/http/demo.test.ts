import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { seedDemoIntoEmptyStore, type DemoCredentials } from '../../src/domain/demo-seed.ts';
import { api, requestToken, startTestServer, storeKinds, type TestServer } from '../support/harness.ts';

/**
 * The first-start demo loads its two sides through the importer: the bank statement as a
 * camt.053 file, the ledger as a CSV export. A new user sees both paths work, so they are
 * checked here through the API as that user would look at them.
 */
for (const kind of storeKinds()) {
  describe(`demo organization (${kind})`, () => {
    let server: TestServer;
    let demo: DemoCredentials;
    let token: string;

    before(async () => {
      server = await startTestServer(kind);
      demo = (await seedDemoIntoEmptyStore(server.services))!;
      token = await requestToken(server, demo.clientId, demo.clientSecret);
    });
    after(() => server.close());

    const page = async (datasetId: string, columns: string[]) => {
      const answer = await api(server, token, 'POST', `/v1/api/${demo.orgId}/transactions`, { datasetId, limit: 100, columns: columns.map((path) => ({ path })) });
      assert.equal(answer.status, 200, JSON.stringify(answer.body));
      return answer.body as Array<Record<string, any>>;
    };

    it('lists the bank statement (camt.053) and the ledger export (CSV) as completed imports', async () => {
      const answer = await api(server, token, 'GET', `/v1/api/${demo.orgId}/imports`);
      assert.equal(answer.status, 200);
      const byFormat = new Map<string, any>(answer.body.imports.map((record: any) => [record.format, record]));
      const statement = byFormat.get('camt.053');
      assert.equal(statement.status, 'completed');
      assert.equal(statement.datasetId, demo.bankDatasetId);
      assert.equal(statement.inserted, 26);
      assert.deepEqual(
        { entries: statement.statements[0].entries, sumOfEntries: statement.statements[0].sumOfEntries, balanced: statement.statements[0].balanced },
        { entries: 26, sumOfEntries: '49924.40', balanced: true },
      );
      const ledger = byFormat.get('csv');
      assert.equal(ledger.status, 'completed');
      assert.equal(ledger.datasetId, demo.ledgerDatasetId);
      assert.equal(ledger.inserted, 25);
      assert.equal(ledger.statements[0].sumOfEntries, '54956.90');
    });

    it('fills the bank columns from the statement and leaves the month part reconciled', async () => {
      const bank = await page(demo.bankDatasetId, ['valueDate', 'counterpartyName', 'bankReference', 'amount']);
      assert.equal(bank.length, 26);
      const fee = bank.find((record) => record.bankReference === 'NWB-2026-10-FEE')!;
      assert.deepEqual(
        { amount: fee.amount, type: fee.type, counterpartyName: fee.counterpartyName, status: fee.reconciliationStatus, valueDate: fee.valueDate },
        { amount: '-12.50', type: 'fee', counterpartyName: 'Northwind Bank', status: 'informative', valueDate: Date.UTC(2026, 9, 28) },
      );
      const statuses = bank.map((record) => record.reconciliationStatus);
      assert.equal(statuses.filter((status) => status === 'out of scope').length, 1);
      assert.equal(statuses.filter((status) => status === 'full').length, 18, JSON.stringify(statuses));
      assert.equal(statuses.filter((status) => status === 'none').length, 6, 'six receipts of the month are still open');

      const ledger = await page(demo.ledgerDatasetId, ['documentNumber', 'account', 'amount']);
      assert.equal(ledger.length, 25);
      assert.ok(ledger.every((record) => record.account === '1200 Cash at bank' && /^DOC-3\d{4}$/.test(record.documentNumber)));
      const shortPaid = ledger.filter((record) => record.reconciliationStatus === 'partial');
      assert.deepEqual(shortPaid.map((record) => record.amount), ['1000.00'], 'the invoice paid short (980.00 of 1000.00) stays partial');
      assert.deepEqual(ledger.filter((record) => record.reconciliationStatus === 'none').map((record) => record.documentNumber).sort(), [
        'DOC-30018', 'DOC-30019', 'DOC-30020', 'DOC-30021', 'DOC-30022', 'DOC-30023',
      ]);
    });

    it('is made once: a store that holds an organization is not seeded again', async () => {
      assert.equal(await seedDemoIntoEmptyStore(server.services), null);
    });
  });
}
