import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { api, createTestClient, createTestOrganization, startTestServer, storeKinds, type TestOrganization, type TestServer } from '../../support/harness.ts';
import { addTransactions, createDataset, reconciliationOf, revisionOf } from '../../support/recon-fixtures.ts';

const PUBLISHED_FIELDS = ['id', 'datasetId', 'reconciliationStatus', 'incomingMatches', 'outgoingMatches', 'description', 'type', 'timestamp'];

for (const kind of storeKinds()) {
  describe(`transactions by id (${kind})`, () => {
    let server: TestServer;
    let organization: TestOrganization;
    let datasetId: string;
    let ids: Record<string, string>;
    before(async () => {
      server = await startTestServer(kind);
      organization = await createTestOrganization(server);
      ({ datasetId } = await createDataset(server, organization, { columns: [{ name: 'vat', type: 'money' }] }));
      ids = await addTransactions(server, organization, datasetId, [
        { externalId: 'plain', timestamp: 1_700_000_000_000, description: 'Coffee', type: 'card', amount: '-3.20', vat: '-0.50' },
        { externalId: 'matched', timestamp: 1_700_000_000_001, amount: '3.20' },
        { externalId: 'counterpart', timestamp: 1_700_000_000_002, amount: '-3.20' },
        { externalId: 'toggled', timestamp: 1_700_000_000_003, amount: '1.00' },
      ]);
    });
    after(async () => server.close());

    const path = (id: string) => `/v1/api/${organization.orgId}/transactions/${id}`;
    const patch = (id: string, body: unknown, token = organization.token) => api(server, token, 'PATCH', path(id), body);

    it('answers one record with exactly the published fields', async () => {
      const response = await api(server, organization.token, 'GET', path(ids.plain!));
      assert.equal(response.status, 200);
      assert.deepEqual(Object.keys(response.body), PUBLISHED_FIELDS);
      assert.deepEqual(response.body, {
        id: ids.plain,
        datasetId,
        reconciliationStatus: 'none',
        incomingMatches: [],
        outgoingMatches: [],
        description: 'Coffee',
        type: 'card',
        timestamp: 1_700_000_000_000,
      });
    });

    it('adds requested columns, as the query does, and names an unknown one with the valid paths', async () => {
      const response = await api(server, organization.token, 'GET', `${path(ids.plain!)}?columns=amount,%20VAT,currency`);
      assert.equal(response.status, 200, JSON.stringify(response.body));
      assert.deepEqual(Object.keys(response.body), [...PUBLISHED_FIELDS, 'amount', 'vat', 'currency']);
      assert.equal(response.body.amount, '-3.20');
      assert.equal(response.body.vat, '-0.50');
      assert.equal(response.body.currency, null);
      const unknown = await api(server, organization.token, 'GET', `${path(ids.plain!)}?columns=colour`);
      assert.equal(unknown.status, 400);
      assert.match(unknown.body.error.message, /unknown path "colour".*Valid paths: .*vat \(money\)/);
      const missing = await api(server, organization.token, 'GET', `${path('00000000-0000-4000-8000-000000000000')}?columns=amount`);
      assert.equal(missing.status, 404);
    });

    it('answers 404 for an unknown id and for a transaction of another organization, 400 for a malformed id', async () => {
      assert.equal((await api(server, organization.token, 'GET', path('00000000-0000-4000-8000-000000000000'))).status, 404);
      const other = await createTestOrganization(server);
      const { datasetId: foreignDataset } = await createDataset(server, other);
      const foreign = await addTransactions(server, other, foreignDataset, [{ externalId: 'f', timestamp: 1 }]);
      const read = await api(server, organization.token, 'GET', path(foreign.f!));
      assert.equal(read.status, 404);
      assert.ok(!JSON.stringify(read.body).includes(foreignDataset));
      assert.equal((await patch(foreign.f!, { reconciliationStatus: 'informative' })).status, 404);
      assert.equal((await reconciliationOf(server, foreign.f!)).status, 'none');
      assert.equal((await api(server, organization.token, 'GET', path('nope'))).status, 400);
    });

    it('sets informative and out of scope on a transaction without matches, and "none" returns it to the derived status', async () => {
      const revision = await revisionOf(server, datasetId);
      const informative = await patch(ids.toggled!, { reconciliationStatus: 'informative', note: 'opening balance' });
      assert.equal(informative.status, 200);
      assert.deepEqual(Object.keys(informative.body), PUBLISHED_FIELDS);
      assert.equal(informative.body.reconciliationStatus, 'informative');
      assert.ok((await revisionOf(server, datasetId)) > revision, 'a status change bumps the revision');
      const outOfScope = await patch(ids.toggled!, { reconciliationStatus: 'out of scope' });
      assert.equal(outOfScope.body.reconciliationStatus, 'out of scope');
      assert.equal((await api(server, organization.token, 'GET', path(ids.toggled!))).body.reconciliationStatus, 'out of scope');
      const cleared = await patch(ids.toggled!, { reconciliationStatus: 'none' });
      assert.equal(cleared.status, 200);
      assert.equal(cleared.body.reconciliationStatus, 'none');
      assert.deepEqual(await reconciliationOf(server, ids.toggled!), { status: 'none', allocated: '0', match_count: 0, override: null });
      // Clearing what is not set changes nothing and records nothing.
      const before = await revisionOf(server, datasetId);
      const again = await patch(ids.toggled!, { reconciliationStatus: 'none' });
      assert.equal(again.status, 200);
      assert.equal(await revisionOf(server, datasetId), before);
    });

    it('refuses a set status on a matched transaction (409); "none" on it keeps the derived status', async () => {
      const created = await api(server, organization.token, 'POST', `/v1/api/${organization.orgId}/matches`, {
        links: [{ originId: ids.matched, targetId: ids.counterpart, amount: '1.20' }],
      });
      assert.equal(created.status, 201);
      for (const status of ['informative', 'out of scope']) {
        const refused = await patch(ids.matched!, { reconciliationStatus: status });
        assert.equal(refused.status, 409);
        assert.equal(refused.body.error.details[0].path, '/reconciliationStatus');
        assert.match(refused.body.error.message, /has matches/);
      }
      const none = await patch(ids.matched!, { reconciliationStatus: 'none' });
      assert.equal(none.status, 200);
      assert.equal(none.body.reconciliationStatus, 'partial');
      assert.equal(none.body.incomingMatches.length, 1);
    });

    it('validates the body strictly and needs the write scope', async () => {
      const unknownStatus = await patch(ids.plain!, { reconciliationStatus: 'full' });
      assert.equal(unknownStatus.status, 400);
      assert.equal(unknownStatus.body.error.details[0].path, '/reconciliationStatus');
      const unknownProperty = await patch(ids.plain!, { reconciliationStatus: 'none', comment: 'x' });
      assert.equal(unknownProperty.status, 400);
      assert.equal(unknownProperty.body.error.details[0].path, '/comment');
      const longNote = await patch(ids.plain!, { reconciliationStatus: 'informative', note: 'x'.repeat(1001) });
      assert.equal(longNote.status, 400);
      assert.equal(longNote.body.error.details[0].path, '/note');
      const viewer = await createTestClient(server, organization.orgId, 'View-only');
      assert.equal((await api(server, viewer.token, 'GET', path(ids.plain!))).status, 200);
      assert.equal((await patch(ids.plain!, { reconciliationStatus: 'informative' }, viewer.token)).status, 403);
      assert.equal((await reconciliationOf(server, ids.plain!)).status, 'none');
    });
  });
}
