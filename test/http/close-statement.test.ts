import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { CLOSE_MONTH, seedCloseMonth, type SeededCloseMonth } from '../../support/close-month.ts';
import { api, createTestOrganization, startTestServer, storeKinds, type TestOrganization, type TestServer } from '../../support/harness.ts';
import { addTransactions, createDataset } from '../../support/recon-fixtures.ts';

/** The reconciliation statement (SPEC §14, docs/CLOSE.md) against hand-computed months, on both stores. */
for (const kind of storeKinds()) {
  describe(`reconciliation statement (${kind})`, () => {
    let server: TestServer;
    let organization: TestOrganization;
    let month: SeededCloseMonth;
    before(async () => {
      server = await startTestServer(kind);
      organization = await createTestOrganization(server);
      month = await seedCloseMonth(server, organization);
    });
    after(() => server.close());

    it('states March to the cent: every kind of item on its line, the fee as an adjustment, the memo set apart, nothing unexplained', async () => {
      const answer = await api(server, organization.token, 'GET', `${month.base}/reconciliations/${month.reconciliationId}/statement?periodEnd=2026-03-31`);
      assert.equal(answer.status, 200, JSON.stringify(answer.body));
      const statement = answer.body;
      assert.equal(statement.periodStart, '2026-03-01');
      assert.equal(statement.periodEnd, '2026-03-31');
      assert.deepEqual(statement.reconciliation.bankDatasetNames, ['Operating account']);
      assert.deepEqual(statement.bankBalance, { amount: CLOSE_MONTH.bankBalance, source: 'statement', statementDate: '2026-03-31' });
      const items = (line: { items: { description: string; countedAmount: string; reason: string; date: string }[] }) =>
        line.items.map((item) => [item.date, item.description, item.countedAmount, item.reason]);
      assert.deepEqual(items(statement.ledgerNotInBank), [
        ['2026-03-22', 'Invoice 3 Customer C', '300.00', 'partial'],
        ['2026-03-29', 'Cheque 1042', '-320.00', 'open'],
        ['2026-03-30', 'Supplier Y bill', '-800.00', 'matched-after-period-end'],
        ['2026-03-31', 'Cash deposit', '2000.00', 'open'],
      ]);
      assert.equal(statement.ledgerNotInBank.total, CLOSE_MONTH.ledgerNotInBank);
      assert.equal(statement.ledgerNotInBank.items[0].amount, '800.00');
      assert.deepEqual(items(statement.bankNotInLedger), [
        ['2026-03-15', 'Bank fee March', '-12.50', 'open'],
        ['2026-03-31', 'Customer D', '150.00', 'matched-after-period-end'],
        ['2026-03-31', 'Interest March', '3.20', 'open'],
      ]);
      assert.equal(statement.bankNotInLedger.total, CLOSE_MONTH.bankNotInLedger);
      assert.equal(statement.adjustedBankBalance, CLOSE_MONTH.adjustedBankBalance);
      assert.equal(statement.adjustments.total, CLOSE_MONTH.adjustments);
      assert.deepEqual(
        statement.adjustments.items.map((item: any) => [item.reason, item.amount, item.date, item.description, item.bankReference]),
        [['fee', '-3.00', '2026-03-20', 'Customer B', 'INV-2']],
      );
      assert.deepEqual(statement.ledgerBalance, { amount: CLOSE_MONTH.ledgerBalance, openingBalance: '10000.00', openingDate: '2026-03-01' });
      assert.equal(statement.unexplainedDifference, CLOSE_MONTH.unexplainedDifference);
      assert.deepEqual(
        statement.setApart.informative.map((item: any) => item.description),
        ['Memo: March accruals'],
      );
      assert.deepEqual(statement.setApart.outOfScope, []);
      assert.equal(statement.signOff.state, 'open');
    });

    it("lists a line's items a page at a time, with how many it holds, by the list recipe's limit and cursor", async () => {
      const path = `${month.base}/reconciliations/${month.reconciliationId}/statement-items?periodEnd=2026-03-31`;
      const get = (query: string) => api(server, organization.token, 'GET', `${path}${query}`);
      const first = await get('&line=outstanding-payments&limit=1');
      assert.equal(first.status, 200, JSON.stringify(first.body));
      assert.deepEqual(
        first.body.items.map((item: any) => [item.date, item.description, item.countedAmount]),
        [['2026-03-29', 'Cheque 1042', '-320.00']],
      );
      assert.deepEqual([first.body.total, first.body.hasMore], [2, true]);
      const second = await get(`&line=outstanding-payments&limit=1&cursor=${encodeURIComponent(first.body.nextCursor)}`);
      assert.equal(second.status, 200, JSON.stringify(second.body));
      assert.deepEqual(
        second.body.items.map((item: any) => item.description),
        ['Supplier Y bill'],
      );
      assert.deepEqual([second.body.total, second.body.hasMore, second.body.nextCursor], [2, false, null]);
      // Every line of the statement, as the statement holds it.
      const lines: Record<string, string[]> = {
        'deposits-in-transit': ['Invoice 3 Customer C', 'Cash deposit'],
        'bank-receipts': ['Customer D', 'Interest March'],
        'bank-payments': ['Bank fee March'],
        informative: ['Memo: March accruals'],
        'out-of-scope': [],
      };
      for (const [line, descriptions] of Object.entries(lines)) {
        const page = await get(`&line=${line}`);
        assert.equal(page.status, 200, JSON.stringify(page.body));
        // Oldest first; the order of items of one day is the server's own.
        assert.deepEqual(page.body.items.map((item: any) => item.description).sort(), [...descriptions].sort(), line);
        assert.equal(page.body.total, descriptions.length);
      }
      // A cursor of another line, a line the statement has not, a page too large: refused, naming what.
      const otherLine = await get(`&line=deposits-in-transit&cursor=${encodeURIComponent(first.body.nextCursor)}`);
      assert.equal(otherLine.status, 400, JSON.stringify(otherLine.body));
      assert.equal(otherLine.body.error.messageId, 'lists.cursorNotOurs');
      const unknown = await get('&line=everything');
      assert.equal(unknown.status, 400, JSON.stringify(unknown.body));
      assert.equal(unknown.body.error.details[0].path, '/querystring/line');
      const tooMany = await get('&line=bank-payments&limit=501');
      assert.equal(tooMany.status, 400, JSON.stringify(tooMany.body));
    });

    it('states April from the rows after the statement, and says when there is no statement to start from', async () => {
      const april = await api(server, organization.token, 'GET', `${month.base}/reconciliations/${month.reconciliationId}/statement?periodEnd=2026-04-30`);
      assert.equal(april.status, 200, JSON.stringify(april.body));
      // The March closing balance plus Supplier Y's -800.00 on 2 April.
      assert.deepEqual(april.body.bankBalance, { amount: '11587.70', source: 'statement', statementDate: '2026-03-31' });
      assert.equal(april.body.ledgerBalance.amount, '13580.00');
      assert.equal(april.body.unexplainedDifference, '0.00');

      const other = await createTestOrganization(server);
      const { datasetId: bank, sourceId } = await createDataset(server, other, { name: 'Petty cash bank' });
      const { datasetId: ledger } = await createDataset(server, other, { name: 'GL 1000', sourceId });
      await addTransactions(server, other, bank, [{ externalId: 'b1', timestamp: Date.UTC(2026, 4, 3), amount: '40.00', currency: 'EUR' }]);
      const base = `/v1/api/${other.orgId}`;
      const created = await api(server, other.token, 'POST', `${base}/reconciliations`, {
        name: 'Petty cash',
        currency: 'EUR',
        bankDatasetIds: [bank],
        ledgerDatasetIds: [ledger],
        ledgerOpeningDate: '2026-05-01',
      });
      assert.equal(created.status, 201, JSON.stringify(created.body));
      const statement = await api(server, other.token, 'GET', `${base}/reconciliations/${created.body.id}/statement?periodEnd=2026-05-31`);
      assert.deepEqual(statement.body.bankBalance, { amount: '40.00', source: 'computed', statementDate: null });
      // The deposit is in no ledger: it is explained as an item in the bank not yet in the ledger.
      assert.equal(statement.body.bankNotInLedger.total, '40.00');
      assert.equal(statement.body.unexplainedDifference, '0.00');
    });

    it('refuses a statement over transactions of another currency, naming how many and where', async () => {
      const other = await createTestOrganization(server);
      const { datasetId: bank, sourceId } = await createDataset(server, other, { name: 'Bank' });
      const { datasetId: ledger } = await createDataset(server, other, { name: 'Ledger' });
      void sourceId;
      await addTransactions(server, other, ledger, [
        { externalId: 'l1', timestamp: Date.UTC(2026, 2, 3), amount: '10.00', currency: 'EUR' },
        { externalId: 'l2', timestamp: Date.UTC(2026, 2, 4), amount: '11.00', currency: 'USD' },
        { externalId: 'l3', timestamp: Date.UTC(2026, 2, 5), amount: '12.00', currency: 'USD' },
      ]);
      const base = `/v1/api/${other.orgId}`;
      const created = await api(server, other.token, 'POST', `${base}/reconciliations`, {
        name: 'Mixed',
        currency: 'EUR',
        bankDatasetIds: [bank],
        ledgerDatasetIds: [ledger],
        ledgerOpeningDate: '2026-03-01',
      });
      assert.equal(created.status, 201, JSON.stringify(created.body));
      const refused = await api(server, other.token, 'GET', `${base}/reconciliations/${created.body.id}/statement?periodEnd=2026-03-31`);
      assert.equal(refused.status, 422, JSON.stringify(refused.body));
      assert.equal(refused.body.error.messageId, 'close.otherCurrencyRows');
      assert.match(refused.body.error.message, /2 transactions .* not in EUR: 2 in USD in the dataset "Ledger"/);
    });

    it('checks a reconciliation: datasets of the organization, on one side, of its currency, in no other; period ends that end a period', async () => {
      const base = month.base;
      const body = {
        name: 'Another',
        currency: 'EUR',
        bankDatasetIds: [month.bankDatasetId],
        ledgerDatasetIds: [month.ledgerDatasetId],
        ledgerOpeningDate: '2026-03-01',
      };
      const taken = await api(server, organization.token, 'POST', `${base}/reconciliations`, body);
      assert.equal(taken.status, 409, JSON.stringify(taken.body));
      assert.equal(taken.body.error.messageId, 'close.datasetInOtherReconciliation');
      const { datasetId: fresh } = await createDataset(server, organization, { name: 'Fresh' });
      const both = await api(server, organization.token, 'POST', `${base}/reconciliations`, { ...body, bankDatasetIds: [fresh], ledgerDatasetIds: [fresh] });
      assert.equal(both.status, 400, JSON.stringify(both.body));
      assert.equal(both.body.error.messageId, 'close.datasetOnBothSides');
      const unknown = await api(server, organization.token, 'POST', `${base}/reconciliations`, {
        ...body,
        bankDatasetIds: [fresh],
        ledgerDatasetIds: ['00000000-0000-4000-8000-000000000000'],
      });
      assert.equal(unknown.status, 400, JSON.stringify(unknown.body));
      assert.equal(unknown.body.error.details[0].path, '/ledgerDatasetIds/0');
      // The imported statement declared the bank dataset's currency: EUR.
      const currency = await api(server, organization.token, 'PATCH', `${base}/reconciliations/${month.reconciliationId}`, { currency: 'USD' });
      assert.equal(currency.status, 400, JSON.stringify(currency.body));
      assert.equal(currency.body.error.messageId, 'close.datasetCurrencyDiffers');
      const notEnd = await api(server, organization.token, 'GET', `${base}/reconciliations/${month.reconciliationId}/statement?periodEnd=2026-03-30`);
      assert.equal(notEnd.status, 400, JSON.stringify(notEnd.body));
      assert.match(notEnd.body.error.message, /the nearest is 2026-03-31/);
      const early = await api(server, organization.token, 'GET', `${base}/reconciliations/${month.reconciliationId}/statement?periodEnd=2026-02-28`);
      assert.equal(early.status, 400, JSON.stringify(early.body));

      const listed = await api(server, organization.token, 'GET', `${base}/reconciliations`);
      assert.equal(listed.status, 200, JSON.stringify(listed.body));
      assert.deepEqual(
        listed.body.reconciliations.map((row: any) => [row.name, row.periodMonths, row.ledgerOpeningBalance, row.adjustmentAccounts]),
        [['Operating account EUR ↔ GL 1200', 1, '10000.00', { fee: '6500' }]],
      );
    });
  });
}
