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
      // The organization's creation (its first client) and the datasets' are recorded too; this test reads the matching.
      const list = response.body.events.filter((event: { action: string }) => /^(match|transaction)\./.test(event.action));
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
      assert.deepEqual(
        foreign.body.events.map((event: { action: string; actor: string }) => `${event.action} ${event.actor}`),
        ['client.created test'],
      );
      assert.equal((await events('?action=dataset.painted')).status, 400);
      assert.equal((await events('?object=planet')).status, 400);
      assert.equal((await events('?order=sideways')).status, 400);
      const foreignFilter = await api(server, other.token, 'GET', `/v1/api/${other.orgId}/audit-events?transactionId=${ids.payment}`);
      assert.equal(foreignFilter.status, 404);
      const viewer = await createTestClient(server, organization.orgId, 'View-only');
      assert.equal((await events('', viewer.token)).status, 200);
    });

    it('records sources, datasets (creation, rename, account, archive), imports and clients, each with the change it made', async () => {
      const startSequence = (await events()).body.nextCursor as string;
      const member = await createTestClient(server, organization.orgId, 'Full member');
      const source = await api(server, member.token, 'POST', `${base()}/sources`, { name: 'Northwind' });
      assert.equal(source.status, 201);
      const renamedSource = await api(server, member.token, 'PATCH', `${base()}/sources/${source.body.id}`, { name: 'Northwind Bank' });
      assert.equal(renamedSource.status, 200);
      assert.equal(renamedSource.body.name, 'Northwind Bank');
      const dataset = await api(server, member.token, 'POST', `${base()}/sources/${source.body.id}/datasets`, {
        name: 'Current account',
        columns: [{ name: 'invoiceNumber', type: 'string' }],
      });
      assert.equal(dataset.status, 201);
      const datasetUrl = `${base()}/datasets/${dataset.body.id}`;
      const renamed = await api(server, member.token, 'PATCH', datasetUrl, { name: 'Operating account' });
      assert.equal(renamed.status, 200);
      assert.equal(renamed.body.name, 'Operating account');
      assert.equal((await api(server, member.token, 'PATCH', datasetUrl, { accountId: 'DE89 3704 0044 0532 0130 00', currency: 'EUR' })).status, 200);
      // A refused change records nothing.
      assert.equal((await api(server, member.token, 'PATCH', datasetUrl, { name: '   ' })).status, 400);
      const imported = await api(
        server,
        member.token,
        'POST',
        `${datasetUrl}/imports?fileName=january.csv`,
        'timestamp,description,amount\n2024-01-31,Rent,-12.50\n',
        {
          'content-type': 'text/csv',
        },
      );
      assert.equal(imported.status, 201, JSON.stringify(imported.body));
      const refused = await api(
        server,
        member.token,
        'POST',
        `${datasetUrl}/imports?fileName=broken.csv`,
        'timestamp,description,amount\nyesterday,Rent,abc\n',
        {
          'content-type': 'text/csv',
        },
      );
      assert.ok(refused.status >= 400);
      const archived = await api(server, member.token, 'PATCH', datasetUrl, { archived: true });
      assert.equal(archived.status, 200);
      assert.equal(archived.body.status, 'archived');
      const created = await api(server, member.token, 'POST', `${base()}/clients`, { name: 'Nightly export', role: 'View-only' });

      const listed = (await api(server, member.token, 'GET', `${base()}/sources`)).body;
      assert.deepEqual(listed.find((row: { id: string }) => row.id === source.body.id).datasets, []);
      const withArchived = (await api(server, member.token, 'GET', `${base()}/sources?includeArchived=true`)).body;
      const kept = withArchived.find((row: { id: string }) => row.id === source.body.id).datasets[0];
      assert.equal(kept.status, 'archived');
      assert.equal(kept.transactionCount, 1);

      const trail = (await events(`?cursor=${encodeURIComponent(startSequence)}`)).body.events;
      const actionsOf = (list: { action: string }[]) => list.map((event) => event.action);
      assert.deepEqual(actionsOf(trail), [
        'client.created',
        'source.created',
        'source.updated',
        'dataset.created',
        'dataset.updated',
        'dataset.updated',
        'import.started',
        'import.completed',
        'import.started',
        'import.failed',
        'dataset.archived',
        ...(created.status === 201 ? ['client.created'] : []),
      ]);
      const [memberCreated, sourceCreated, sourceRenamed, datasetCreated, datasetRenamed, accountSet, started, completed, , failed, archivedEvent] = trail;
      assert.deepEqual(memberCreated.after.name, 'Full member client');
      assert.equal(sourceCreated.actor, `client:${member.clientId}`);
      assert.equal(sourceCreated.actorName, 'Full member client');
      assert.deepEqual(sourceRenamed.before, { sourceId: source.body.id, name: 'Northwind' });
      assert.deepEqual(sourceRenamed.after, { sourceId: source.body.id, name: 'Northwind Bank' });
      assert.deepEqual(datasetCreated.after, {
        datasetId: dataset.body.id,
        sourceId: source.body.id,
        sourceName: 'Northwind Bank',
        name: 'Current account',
        columns: [{ name: 'invoiceNumber', type: 'string' }],
      });
      assert.deepEqual(datasetRenamed.before, { datasetId: dataset.body.id, sourceId: source.body.id, name: 'Current account' });
      assert.deepEqual(datasetRenamed.after, { datasetId: dataset.body.id, sourceId: source.body.id, name: 'Operating account' });
      assert.deepEqual(accountSet.before, { datasetId: dataset.body.id, sourceId: source.body.id, name: 'Operating account', accountId: null, currency: null });
      assert.deepEqual(accountSet.after, {
        datasetId: dataset.body.id,
        sourceId: source.body.id,
        name: 'Operating account',
        accountId: 'DE89370400440532013000',
        currency: 'EUR',
      });
      assert.equal(started.after.fileName, 'january.csv');
      assert.equal(started.after.importId, imported.body.id);
      assert.deepEqual(
        { fileName: completed.after.fileName, status: completed.after.status, rowsRead: completed.after.rowsRead, inserted: completed.after.inserted },
        { fileName: 'january.csv', status: 'completed', rowsRead: 1, inserted: 1 },
      );
      assert.equal(failed.after.fileName, 'broken.csv');
      assert.equal(failed.after.status, 'failed');
      assert.equal(typeof failed.after.error, 'string');
      assert.deepEqual(archivedEvent.before.status, 'active');
      assert.deepEqual(archivedEvent.after.status, 'archived');

      const restored = await api(server, member.token, 'PATCH', datasetUrl, { archived: false });
      assert.equal(restored.body.status, 'active');
      const latest = (await events('?order=newest&limit=1')).body.events[0];
      assert.equal(latest.action, 'dataset.restored');
    });

    it('filters by actor, action and object, and reads newest first with cursors of its own', async () => {
      const all = (await events('?limit=1000')).body.events as { id: string; action: string; actor: string }[];
      const member = all.filter((event) => event.action === 'source.created').at(-1)!.actor;
      const byMember = (await events(`?actor=${encodeURIComponent(member)}`)).body.events as typeof all;
      assert.ok(byMember.length > 5);
      assert.ok(byMember.every((event) => event.actor === member));
      assert.deepEqual(
        byMember.map((event) => event.id),
        all.filter((event) => event.actor === member).map((event) => event.id),
      );
      const renames = (await events('?action=dataset.updated')).body.events as typeof all;
      assert.deepEqual(
        renames.map((event) => event.id),
        all.filter((event) => event.action === 'dataset.updated').map((event) => event.id),
      );
      const datasetEvents = (await events('?object=dataset')).body.events as typeof all;
      assert.deepEqual([...new Set(datasetEvents.map((event) => event.action))].sort(), [
        'dataset.archived',
        'dataset.created',
        'dataset.restored',
        'dataset.updated',
      ]);
      assert.deepEqual((await events('?object=import&action=dataset.updated')).body.events, []);
      assert.equal((await events('?object=dataset&action=dataset.updated')).body.events.length, renames.length);

      const newest: string[] = [];
      let cursor: string | null = null;
      for (let page = 0; page < 50; page += 1) {
        const response = await events(`?order=newest&limit=3${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`);
        assert.equal(response.status, 200);
        newest.push(...response.body.events.map((event: { id: string }) => event.id));
        cursor = response.body.nextCursor;
        if (!response.body.hasMore) break;
      }
      assert.equal(cursor, null);
      assert.deepEqual(newest, all.map((event) => event.id).reverse());
      const oldestCursor = (await events('?limit=1')).body.nextCursor;
      const newestCursor = (await events('?order=newest&limit=1')).body.nextCursor;
      assert.equal((await events(`?order=newest&cursor=${encodeURIComponent(oldestCursor)}`)).status, 400);
      assert.equal((await events(`?cursor=${encodeURIComponent(newestCursor)}`)).status, 400);
      const sinceMember = (await events(`?order=newest&actor=${encodeURIComponent(member)}&object=source`)).body.events as typeof all;
      assert.deepEqual(
        sinceMember.map((event) => event.action),
        ['source.updated', 'source.created'],
      );
    });
  });
}
