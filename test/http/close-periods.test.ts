import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { seedCloseMonth, type SeededCloseMonth } from '../../support/close-month.ts';
import { api, createTestClient, createTestOrganization, startTestServer, storeKinds, type TestOrganization, type TestServer } from '../../support/harness.ts';
import { createDataset } from '../../support/recon-fixtures.ts';

/**
 * The periods of a reconciliation as GET /periods lists them (their open exceptions, none ending
 * on the ledger's opening date), and what a change of the reconciliation may do to a signed period.
 */
for (const kind of storeKinds()) {
  describe(`close periods (${kind})`, () => {
    let server: TestServer;
    let organization: TestOrganization;
    let month: SeededCloseMonth;
    before(async () => {
      server = await startTestServer(kind);
      organization = await createTestOrganization(server);
      month = await seedCloseMonth(server, organization);
    });
    after(() => server.close());

    const path = () => `${month.base}/reconciliations/${month.reconciliationId}`;
    const periodsOf = async (reconciliationPath: string) => {
      const answer = await api(server, organization.token, 'GET', `${reconciliationPath}/periods`);
      assert.equal(answer.status, 200, JSON.stringify(answer.body));
      return answer.body.periods as any[];
    };

    it('counts the open exceptions of each period, as the exceptions queue of that period lists them', async () => {
      const openOf = async (periodEnd: string) => {
        const answer = await api(server, organization.token, 'GET', `${path()}/exceptions?periodEnd=${periodEnd}`);
        assert.equal(answer.status, 200, JSON.stringify(answer.body));
        return answer.body.items as any[];
      };
      const march = (await periodsOf(path())).find((period) => period.periodEnd === '2026-03-31');
      const marchItems = await openOf('2026-03-31');
      assert.ok(marchItems.length > 0);
      assert.equal(march.openExceptions, marchItems.length);
      const april = (await periodsOf(path())).find((period) => period.periodEnd === '2026-04-30');
      assert.equal(april.openExceptions, (await openOf('2026-04-30')).length);

      // Resolving one by a note takes it out of the count.
      const resolved = await api(server, organization.token, 'POST', `${month.base}/exceptions/${marchItems[0].transactionId}/resolve`, {
        resolution: 'note',
        note: 'Booked next month',
      });
      assert.equal(resolved.status, 200, JSON.stringify(resolved.body));
      const after = (await periodsOf(path())).find((period) => period.periodEnd === '2026-03-31');
      assert.equal(after.openExceptions, marchItems.length - 1);
    });

    it('lists no period ending on the ledger opening date, and states none', async () => {
      const { datasetId: bank } = await createDataset(server, organization, { name: 'Savings account' });
      const { datasetId: ledger } = await createDataset(server, organization, { name: 'GL 1210' });
      const created = await api(server, organization.token, 'POST', `${month.base}/reconciliations`, {
        name: 'Savings EUR ↔ GL 1210',
        currency: 'EUR',
        bankDatasetIds: [bank],
        ledgerDatasetIds: [ledger],
        ledgerOpeningBalance: '500.00',
        ledgerOpeningDate: '2026-02-28',
      });
      assert.equal(created.status, 201, JSON.stringify(created.body));
      const savings = `${month.base}/reconciliations/${created.body.id}`;
      const ends = (await periodsOf(savings)).map((period) => period.periodEnd);
      assert.ok(ends.includes('2026-03-31'), ends.join());
      assert.ok(!ends.some((end) => end <= '2026-02-28'), ends.join());
      assert.equal(ends.at(-1), '2026-03-31');

      const statement = await api(server, organization.token, 'GET', `${savings}/statement?periodEnd=2026-02-28`);
      assert.equal(statement.status, 400, JSON.stringify(statement.body));
      assert.equal(statement.body.error.messageId, 'close.periodEndsOnOpening');
      assert.match(statement.body.error.message, /the first period ends 2026-03-31/);
      const prepare = await api(server, organization.token, 'POST', `${savings}/periods/2026-02-28/prepare`, { note: 'x' });
      assert.equal(prepare.status, 400, JSON.stringify(prepare.body));

      // An opening date inside a month keeps that month as the first period.
      const moved = await api(server, organization.token, 'PATCH', savings, { ledgerOpeningDate: '2026-02-27' });
      assert.equal(moved.status, 200, JSON.stringify(moved.body));
      assert.equal((await periodsOf(savings)).at(-1).periodEnd, '2026-02-28');
    });

    it('refuses a change to what an approved period is made of, naming it, and lets the name and the accounts change', async () => {
      const other = await createTestOrganization(server);
      const seeded = await seedCloseMonth(server, other);
      const reconciliation = `${seeded.base}/reconciliations/${seeded.reconciliationId}`;
      const otherReviewer = await createTestClient(server, other.orgId, 'Reviewer');
      const { datasetId: extra } = await createDataset(server, other, { name: 'GL 1200 second ledger' });
      assert.equal((await api(server, other.token, 'POST', `${reconciliation}/periods/2026-03-31/prepare`, { note: 'March done' })).status, 200);
      // Prepared only: still free to change (the statement it stored stays).
      assert.equal((await api(server, other.token, 'PATCH', reconciliation, { periodMonths: 1 })).status, 200);
      assert.equal((await api(server, otherReviewer.token, 'POST', `${reconciliation}/periods/2026-03-31/approve`, {})).status, 200);

      for (const change of [
        { ledgerOpeningBalance: '9000.00' },
        { ledgerOpeningDate: '2026-02-01' },
        { periodMonths: 3 },
        { currency: 'USD' },
        { ledgerDatasetIds: [seeded.ledgerDatasetId, extra] },
        { bankDatasetIds: [seeded.ledgerDatasetId], ledgerDatasetIds: [seeded.bankDatasetId] },
      ]) {
        const refused = await api(server, other.token, 'PATCH', reconciliation, change);
        assert.equal(refused.status, 409, `${JSON.stringify(change)}: ${JSON.stringify(refused.body)}`);
        assert.equal(refused.body.error.messageId, 'close.signedFiguresWouldChange');
        assert.match(refused.body.error.message, /March 2026, which is approved and closed/);
        assert.match(refused.body.error.message, /reopen it first/);
      }
      const opening = await api(server, other.token, 'PATCH', reconciliation, { ledgerOpeningBalance: '9000.00' });
      assert.match(opening.body.error.message, /^changing the ledger's opening balance would alter/);

      // The same figures written differently, the name, the accounts: allowed.
      const harmless = await api(server, other.token, 'PATCH', reconciliation, {
        name: 'Operating account (renamed)',
        ledgerOpeningBalance: '10000.0',
        adjustmentAccounts: { fee: '6510' },
        cashAccount: '1200',
      });
      assert.equal(harmless.status, 200, JSON.stringify(harmless.body));
      assert.equal(harmless.body.name, 'Operating account (renamed)');

      // Reopened, the period no longer holds the change back.
      assert.equal((await api(server, other.token, 'POST', `${reconciliation}/periods/2026-03-31/reopen`, { reason: 'Wrong opening balance' })).status, 200);
      assert.equal((await api(server, other.token, 'PATCH', reconciliation, { ledgerOpeningBalance: '9000.00' })).status, 200);
    });
  });
}
