import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { api, createTestClient, createTestOrganization, startTestServer, storeKinds, type TestOrganization, type TestServer } from '../../support/harness.ts';
import { addTransactions, createDataset } from '../../support/recon-fixtures.ts';

for (const kind of storeKinds()) {
  describe(`audit events (${kind})`, () => {
    let server: TestServer;
    let organization: TestOrganization;
    let ids: Record<string, string>;
    before(async () => {
      server = await startTestServer(kind);
      organization = await createTestOrganization(server);
      const { datasetId: bank } = await createDataset(server, organization, { name: 'Bank' });
      const { datasetId: ledger } = await createDataset(server, organization, { name: 'Ledger' });
      ids = {
        ...(await addTransactions(server, organization, bank, [
          { externalId: 'payment', timestamp: 1, amount: '30.00' },
          { externalId: 'interest', timestamp: 2, amount: '0.01' },
        ])),
        ...(await addTransactions(server, organization, ledger, [
          { externalId: 'invoice1', timestamp: 1, amount: '-10.00' },
          { externalId: 'invoice2', timestamp: 2, amount: '-20.00' },
        ])),
      };
    });
    after(async () => server.close());

    const base = () => `/v1/api/${organization.orgId}`;
    const events = (query = '', token = organization.token) => api(server, token, 'GET', `${base()}/audit-events${query}`);

    it('records who, when, what, before, after, the request id and the note of every change, oldest first', async () => {
      const requestId = randomUUID();
      const startedAt = Date.now();
      const created = await api(
        server,
        organization.token,
        'POST',
        `${base()}/matches`,
        {
          links: [
            { originId: ids.payment, targetId: ids.invoice1 },
            { originId: ids.payment, targetId: ids.invoice2 },
          ],
          note: 'January run',
        },
        { 'x-request-id': requestId },
      );
      assert.equal(created.status, 201);
      assert.equal(created.headers.get('x-request-id'), requestId);
      const [first] = created.body.matches;
      const deleted = await api(server, organization.token, 'DELETE', `${base()}/matches/${first.id}?note=wrong`);
      assert.equal(deleted.status, 204);
      const patched = await api(server, organization.token, 'PATCH', `${base()}/transactions/${ids.interest}`, {
        reconciliationStatus: 'informative',
        note: 'interest',
      });
      assert.equal(patched.status, 200);

      const response = await events();
      assert.equal(response.status, 200);
      assert.equal(response.body.hasMore, false);
      const list = response.body.events;
      assert.deepEqual(
        list.map(
          (event: { action: string; transactionId: string }) => `${event.action} ${Object.entries(ids).find(([, id]) => id === event.transactionId)?.[0]}`,
        ),
        [
          'match.created payment',
          'match.created payment',
          'transaction.status_changed payment',
          'transaction.status_changed invoice1',
          'transaction.status_changed invoice2',
          'match.deleted payment',
          'transaction.status_changed payment',
          'transaction.status_changed invoice1',
          'transaction.status_changed interest',
        ],
      );
      const [matchCreated] = list;
      assert.equal(matchCreated.actor, `client:${organization.clientId}`);
      assert.equal(matchCreated.requestId, requestId);
      assert.equal(matchCreated.note, 'January run');
      assert.equal(matchCreated.relatedTransactionId, ids.invoice1);
      assert.equal(matchCreated.matchId, first.id);
      assert.equal(matchCreated.groupId, created.body.groupId);
      assert.equal(matchCreated.before, null);
      assert.equal(matchCreated.after.amount, '10.00');
      assert.equal(matchCreated.after.forced, false);
      assert.ok(Date.parse(matchCreated.occurredAt) >= startedAt - 1000);
      assert.deepEqual(list[2].before, { reconciliationStatus: 'none', allocatedAmount: '0', matchCount: 0 });
      assert.deepEqual(list[2].after, { reconciliationStatus: 'full', allocatedAmount: '30.00', matchCount: 2 });
      assert.equal(list[5].note, 'wrong');
      assert.deepEqual(list[5].after, null);
      assert.equal(list[5].before.id, first.id);
      assert.deepEqual(list[6].after, { reconciliationStatus: 'partial', allocatedAmount: '20.00', matchCount: 1 });
      assert.deepEqual(list[8].before.reconciliationStatus, 'none');
      assert.deepEqual(list[8].after.reconciliationStatus, 'informative');
      assert.equal(list[8].note, 'interest');
    });

    it('filters by transaction (either side of a match) and by time, inclusive', async () => {
      const invoice = await events(`?transactionId=${ids.invoice1}`);
      assert.deepEqual(
        invoice.body.events.map((event: { action: string }) => event.action),
        ['match.created', 'transaction.status_changed', 'match.deleted', 'transaction.status_changed'],
      );
      const all = (await events()).body.events;
      const firstTime = Date.parse(all[0].occurredAt);
      const lastTime = Date.parse(all.at(-1).occurredAt);
      assert.equal((await events(`?from=${firstTime}&to=${lastTime}`)).body.events.length, all.length);
      assert.equal((await events(`?from=${lastTime + 1}`)).body.events.length, 0);
      assert.equal((await events(`?to=${firstTime - 1}`)).body.events.length, 0);
      const tooEarly = await events(`?from=${lastTime}&to=${firstTime - 1}`);
      assert.equal(tooEarly.status, 400);
    });

    it('pages with a cursor without skipping or repeating, and gives a cursor to follow the trail', async () => {
      const all = (await events()).body.events.map((event: { id: string }) => event.id);
      const seen: string[] = [];
      let cursor: string | null = null;
      for (let page = 0; page < 20; page += 1) {
        const response = await events(`?limit=2${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`);
        assert.equal(response.status, 200);
        seen.push(...response.body.events.map((event: { id: string }) => event.id));
        cursor = response.body.nextCursor;
        if (!response.body.hasMore) break;
      }
      assert.deepEqual(seen, all);
      assert.ok(cursor);
      const tail = await events(`?cursor=${encodeURIComponent(cursor!)}`);
      assert.deepEqual(tail.body, { events: [], nextCursor: cursor, hasMore: false });
      await api(server, organization.token, 'PATCH', `${base()}/transactions/${ids.interest}`, { reconciliationStatus: 'none' });
      const followed = await events(`?cursor=${encodeURIComponent(cursor!)}`);
      assert.deepEqual(
        followed.body.events.map((event: { action: string }) => event.action),
        ['transaction.status_changed'],
      );
    });

    it('validates the query and keeps other organizations out', async () => {
      assert.equal((await events('?limit=0')).status, 400);
      assert.equal((await events('?limit=1001')).status, 400);
      assert.equal((await events('?limit=1000')).status, 200);
      const badCursor = await events('?cursor=abc');
      assert.equal(badCursor.status, 400);
      assert.equal(badCursor.body.error.details[0].path, '/querystring/cursor');
      assert.equal((await events('?transactionId=00000000-0000-4000-8000-000000000000')).status, 404);
      assert.equal((await events('?transactionId=nope')).status, 400);
      assert.equal((await events('?colour=red')).status, 400);
      const other = await createTestOrganization(server);
      const foreign = await api(server, other.token, 'GET', `/v1/api/${other.orgId}/audit-events`);
      assert.deepEqual(foreign.body.events, []);
      const foreignFilter = await api(server, other.token, 'GET', `/v1/api/${other.orgId}/audit-events?transactionId=${ids.payment}`);
      assert.equal(foreignFilter.status, 404);
      const viewer = await createTestClient(server, organization.orgId, 'View-only');
      assert.equal((await events('', viewer.token)).status, 200);
    });
  });
}
