import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { api, createTestClient, createTestOrganization, startTestServer, storeKinds, type TestOrganization, type TestServer } from '../../support/harness.ts';
import { addTransactions, createDataset } from '../../support/recon-fixtures.ts';
import { backdateDueDate, insertReconciliation, insertUser } from '../../support/exception-fixtures.ts';

/**
 * The exceptions queue of the month-end close through the real server: the open items of a
 * reconciliation's datasets in a period, each view and age bucket, assignment (one by one and in
 * bulk, all or nothing), due dates, holds, the comment thread, resolution by a note and reopening,
 * View-only callers, tenant isolation, and the audit trail and events every change writes.
 * Reconciliations are written with SQL: their own operations are not what is tested here.
 */

const PERIOD_END = '2026-10-31';
const DAY = 86_400_000;
const dayMs = (date: string) => Date.parse(`${date}T12:00:00Z`);

/** An access token of a person: signs in with the organization's first user and asks for a session token. */
async function personToken(server: TestServer, email: string, password: string): Promise<string> {
  const signIn = await fetch(`${server.baseUrl}/auth/sign-in`, {
    method: 'POST',
    headers: { origin: server.baseUrl, 'content-type': 'application/json' },
    body: JSON.stringify({ email, password }),
  });
  assert.equal(signIn.status, 200);
  const cookie = signIn.headers.get('set-cookie')!.split(';')[0]!;
  const token = await fetch(`${server.baseUrl}/auth/token`, { method: 'POST', headers: { origin: server.baseUrl, cookie } });
  assert.equal(token.status, 200);
  return ((await token.json()) as { access_token: string }).access_token;
}

for (const kind of storeKinds()) {
  describe(`exceptions queue (${kind})`, () => {
    let server: TestServer;
    let organization: TestOrganization;
    let reconciliationId: string;
    let ids: Record<string, string>;
    let ann: string;
    let bob: string;
    let adminUserId: string;
    let bankId: string;
    let ledgerId: string;

    const base = () => `/v1/api/${organization.orgId}`;
    const call = (method: string, path: string, body?: unknown, token = organization.token) => api(server, token, method, `${base()}${path}`, body);
    const list = async (query: string, token = organization.token) => {
      const answer = await call('GET', `/reconciliations/${reconciliationId}/exceptions?periodEnd=${PERIOD_END}${query}`, undefined, token);
      assert.equal(answer.status, 200, JSON.stringify(answer.body));
      return answer.body.items as any[];
    };
    const names = (items: any[]) => items.map((item) => item.transaction.description).sort();

    before(async () => {
      server = await startTestServer(kind);
      organization = await createTestOrganization(server);
      ({ datasetId: bankId } = await createDataset(server, organization, { name: 'Operating account' }));
      ({ datasetId: ledgerId } = await createDataset(server, organization, { name: 'GL 1200' }));
      const { datasetId: elsewhereId } = await createDataset(server, organization, { name: 'Other account' });
      const end = dayMs(PERIOD_END);
      ids = {
        ...(await addTransactions(server, organization, bankId, [
          { externalId: 'fresh', timestamp: end - 3 * DAY, description: 'fresh', reference: 'R1', amount: '-12.50', currency: 'EUR' },
          { externalId: 'week', timestamp: end - 7 * DAY, description: 'week', amount: '40.00', currency: 'EUR' },
          { externalId: 'month', timestamp: end - 20 * DAY, description: 'month', amount: '-3.20', currency: 'EUR' },
          { externalId: 'quarter', timestamp: end - 60 * DAY, description: 'quarter', amount: '100.00', currency: 'EUR' },
          { externalId: 'old', timestamp: end - 200 * DAY, description: 'old', amount: '7.00', currency: 'EUR' },
          { externalId: 'later', timestamp: end + 2 * DAY, description: 'later', amount: '1.00', currency: 'EUR' },
        ])),
        ...(await addTransactions(server, organization, ledgerId, [
          { externalId: 'ledger-a', timestamp: end - 10 * DAY, description: 'ledger a', amount: '55.00', currency: 'EUR' },
          { externalId: 'ledger-b', timestamp: end - 10 * DAY + 1000, description: 'ledger b', amount: '-55.00', currency: 'EUR' },
        ])),
        ...(await addTransactions(server, organization, elsewhereId, [
          { externalId: 'elsewhere', timestamp: end - DAY, description: 'elsewhere', amount: '1.00' },
        ])),
      };
      reconciliationId = await insertReconciliation(server, organization.orgId, 'Operating account EUR ↔ GL 1200', [bankId], [ledgerId]);
      ann = await insertUser(server, organization.orgId, 'ann@example.com');
      bob = await insertUser(server, organization.orgId, 'bob@example.com');
      const rows = await server.database.query<{ id: string }>('SELECT id FROM users WHERE organization_id = $1 AND email = $2', [
        organization.orgId,
        organization.user!.email,
      ]);
      adminUserId = rows[0]!.id;
    });
    after(async () => server.close());

    it("lists the open items of the reconciliation's datasets on or before the period end, oldest first, with their age", async () => {
      const items = await list('');
      assert.deepEqual(
        items.map((item) => item.transaction.description),
        ['old', 'quarter', 'month', 'ledger a', 'ledger b', 'week', 'fresh'],
      );
      const fresh = items.find((item) => item.transaction.description === 'fresh');
      assert.deepEqual(fresh.transaction, {
        date: '2026-10-28',
        description: 'fresh',
        reference: 'R1',
        amount: '-12.50',
        openAmount: '-12.50',
        currency: 'EUR',
        datasetId: bankId,
        datasetName: 'Operating account',
        side: 'bank',
        reconciliationStatus: 'none',
      });
      assert.equal(fresh.ageDays, 3);
      assert.equal(fresh.assignee, null);
      assert.equal(fresh.commentCount, 0);
      assert.equal(fresh.latestComment, null);
      assert.equal(items.find((item) => item.transaction.description === 'ledger a').transaction.side, 'ledger');
    });

    it('filters by age bucket', async () => {
      assert.deepEqual(names(await list('&age=0-7')), ['fresh', 'week']);
      assert.deepEqual(names(await list('&age=8-30')), ['ledger a', 'ledger b', 'month']);
      assert.deepEqual(names(await list('&age=31-90')), ['quarter']);
      assert.deepEqual(names(await list('&age=over-90')), ['old']);
    });

    it('pages with a cursor', async () => {
      const first = await call('GET', `/reconciliations/${reconciliationId}/exceptions?periodEnd=${PERIOD_END}&limit=4`);
      assert.equal(first.body.items.length, 4);
      assert.equal(first.body.hasMore, true);
      const second = await call(
        'GET',
        `/reconciliations/${reconciliationId}/exceptions?periodEnd=${PERIOD_END}&limit=4&cursor=${encodeURIComponent(first.body.nextCursor)}`,
      );
      assert.deepEqual(
        second.body.items.map((item: any) => item.transaction.description),
        ['ledger b', 'week', 'fresh'],
      );
      assert.equal(second.body.nextCursor, null);
    });

    it('assigns, sets a due date and a hold; filters by view; writes the audit trail and events', async () => {
      const today = new Date(server.clock.now()).toISOString().slice(0, 10);
      const assigned = await call('PATCH', `/exceptions/${ids.month}`, { assigneeUserId: ann, dueDate: today });
      assert.equal(assigned.status, 200, JSON.stringify(assigned.body));
      assert.deepEqual(assigned.body.assignee, { id: ann, email: 'ann@example.com' });
      assert.equal(assigned.body.dueDate, today);
      assert.equal(assigned.body.overdue, false, 'due today is not overdue yet');
      // Weeks later, the day has passed.
      await backdateDueDate(server, ids.month!, '2026-10-15');
      const later = await call('GET', `/exceptions/${ids.month}`);
      assert.deepEqual([later.body.dueDate, later.body.overdue], ['2026-10-15', true]);
      // Changing something else keeps the date it has, though it is past.
      const kept = await call('PATCH', `/exceptions/${ids.month}`, { assigneeUserId: ann, dueDate: '2026-10-15' });
      assert.equal(kept.status, 200, JSON.stringify(kept.body));
      const held = await call('PATCH', `/exceptions/${ids.quarter}`, { holdReason: 'waiting for the invoice', assigneeUserId: adminUserId });
      assert.equal(held.status, 200, JSON.stringify(held.body));
      assert.equal(held.body.holdReason, 'waiting for the invoice');

      assert.deepEqual(names(await list('&view=overdue')), ['month']);
      assert.deepEqual(names(await list('&view=on-hold')), ['quarter']);
      assert.deepEqual(names(await list(`&assignee=${ann}`)), ['month']);
      assert.deepEqual(names(await list('&view=unassigned')), ['fresh', 'ledger a', 'ledger b', 'old', 'week']);
      const person = await personToken(server, organization.user!.email, organization.user!.password);
      assert.deepEqual(names(await list('&view=mine', person)), ['quarter']);
      const mineByClient = await call('GET', `/reconciliations/${reconciliationId}/exceptions?view=mine`);
      assert.equal(mineByClient.status, 400);
      assert.equal(mineByClient.body.error.messageId, 'exceptions.mineNeedsPerson');

      const audit = await call('GET', `/audit-events?object=exception&limit=1000`);
      assert.equal(audit.status, 200, JSON.stringify(audit.body));
      const actions = audit.body.events.map((event: any) => `${event.action}:${event.transactionId}`);
      assert.ok(actions.includes(`exception.assigned:${ids.month}`));
      assert.ok(actions.includes(`exception.updated:${ids.month}`));
      assert.ok(actions.includes(`exception.updated:${ids.quarter}`));
      const events = await call('GET', '/events?type=exception.assigned,exception.updated&limit=1000');
      assert.equal(events.status, 200, JSON.stringify(events.body));
      const assignedEvent = events.body.events.find((event: any) => event.type === 'exception.assigned' && event.data.transactionId === ids.month);
      assert.equal(assignedEvent.data.assigneeUserId, ann);
      assert.equal(assignedEvent.data.previousAssigneeUserId, null);
      const holdEvent = events.body.events.find((event: any) => event.type === 'exception.updated' && event.data.transactionId === ids.quarter);
      assert.equal(holdEvent.data.holdReason, 'waiting for the invoice');
    });

    it('refuses an assignee who is not an active user of the organization', async () => {
      const gone = await insertUser(server, organization.orgId, 'gone@example.com', true);
      for (const userId of [gone, randomUUID()]) {
        const answer = await call('PATCH', `/exceptions/${ids.week}`, { assigneeUserId: userId });
        assert.equal(answer.status, 400, JSON.stringify(answer.body));
        assert.equal(answer.body.error.messageId, 'exceptions.assigneeNotActive');
        assert.equal(answer.body.error.details[0].path, '/assigneeUserId');
      }
      const answer = await call('PATCH', `/exceptions/${ids.week}`, { dueDate: '2026-02-30' });
      assert.equal(answer.status, 400);
    });

    it('refuses a due date before today or more than five years ahead, naming the field and the days it may be', async () => {
      const now = server.clock.now();
      const day = (offsetDays: number) => new Date(now + offsetDays * DAY).toISOString().slice(0, 10);
      // The UTC day before today is still today west of Greenwich: two days back is refused.
      const yesterday = await call('PATCH', `/exceptions/${ids.month}`, { dueDate: day(-2) });
      assert.equal(yesterday.status, 400, JSON.stringify(yesterday.body));
      assert.equal(yesterday.body.error.messageId, 'exceptions.dueDateBeforeToday');
      assert.equal(yesterday.body.error.details[0].path, '/dueDate');
      assert.match(yesterday.body.error.details[0].message, new RegExp(`is before today \\(${day(0)}\\); give today or a later day`));
      const farOff = await call('PATCH', `/exceptions/${ids.month}`, { dueDate: '9999-12-31' });
      assert.equal(farOff.status, 400, JSON.stringify(farOff.body));
      assert.equal(farOff.body.error.messageId, 'exceptions.dueDateTooFar');
      assert.equal(farOff.body.error.details[0].path, '/dueDate');
      assert.match(farOff.body.error.details[0].message, /is more than 5 years ahead; give a day on or before \d{4}-\d{2}-\d{2}/);
      const inBulk = await call('POST', '/exceptions/assign', { transactionIds: [ids.month, ids.old], dueDate: day(-30) });
      assert.equal(inBulk.status, 400, JSON.stringify(inBulk.body));
      assert.equal(inBulk.body.error.messageId, 'exceptions.dueDateBeforeToday');
      const unchanged = await call('GET', `/exceptions/${ids.month}`);
      assert.notEqual(unchanged.body.dueDate, day(-2));
      // The day before (today in the Americas), today and a day four years on are fine.
      for (const dueDate of [day(-1), day(0), day(4 * 365)]) {
        const fine = await call('PATCH', `/exceptions/${ids.month}`, { dueDate });
        assert.equal(fine.status, 200, JSON.stringify(fine.body));
      }
      assert.equal((await call('PATCH', `/exceptions/${ids.month}`, { dueDate: null })).status, 200);
    });

    it('assigns in bulk, all or nothing', async () => {
      const refusedUser = await call('POST', '/exceptions/assign', { transactionIds: [ids.fresh, ids.week], assigneeUserId: randomUUID() });
      assert.equal(refusedUser.status, 400, JSON.stringify(refusedUser.body));
      const missing = randomUUID();
      const refusedId = await call('POST', '/exceptions/assign', { transactionIds: [ids.fresh, missing, ids.week], assigneeUserId: bob });
      assert.equal(refusedId.status, 404, JSON.stringify(refusedId.body));
      assert.equal(refusedId.body.error.details[0].path, '/transactionIds/1');
      assert.deepEqual(names(await list(`&assignee=${bob}`)), []);

      const done = await call('POST', '/exceptions/assign', { transactionIds: [ids.fresh, ids.week, ids['ledger-a']], assigneeUserId: bob });
      assert.equal(done.status, 200, JSON.stringify(done.body));
      assert.deepEqual(done.body, { assigned: 3, updated: 0, unchanged: 0 });
      assert.deepEqual(names(await list(`&assignee=${bob}`)), ['fresh', 'ledger a', 'week']);
      const again = await call('POST', '/exceptions/assign', { transactionIds: [ids.fresh, ids.old], assigneeUserId: bob });
      assert.deepEqual(again.body, { assigned: 1, updated: 0, unchanged: 1 });
    });

    it('gives many exceptions a due date and a hold at once, all or nothing, audited and emitted one by one', async () => {
      const chosen = [ids.old, ids.week];
      const dueDate = new Date(server.clock.now() + 20 * DAY).toISOString().slice(0, 10);
      const nothing = await call('POST', '/exceptions/assign', { transactionIds: chosen });
      assert.equal(nothing.status, 400, JSON.stringify(nothing.body));
      assert.equal(nothing.body.error.messageId, 'exceptions.bulkChangeEmpty');
      const badDate = await call('POST', '/exceptions/assign', { transactionIds: chosen, dueDate: '2026-02-30' });
      assert.equal(badDate.status, 400, JSON.stringify(badDate.body));
      const tooMany = await call('POST', '/exceptions/assign', { transactionIds: Array.from({ length: 501 }, () => randomUUID()), dueDate });
      assert.equal(tooMany.status, 400, JSON.stringify(tooMany.body));
      // One transaction that is not the organization's, and nothing changes.
      const refused = await call('POST', '/exceptions/assign', { transactionIds: [...chosen, randomUUID()], dueDate, holdReason: 'bank letter' });
      assert.equal(refused.status, 404, JSON.stringify(refused.body));
      assert.deepEqual(
        names(await list('&view=on-hold')).filter((name) => name === 'old' || name === 'week'),
        [],
      );

      const done = await call('POST', '/exceptions/assign', { transactionIds: chosen, dueDate, holdReason: 'waiting for the bank letter' });
      assert.equal(done.status, 200, JSON.stringify(done.body));
      assert.deepEqual(done.body, { assigned: 0, updated: 2, unchanged: 0 });
      for (const id of chosen) {
        const one = await call('GET', `/exceptions/${id}`);
        assert.equal(one.body.dueDate, dueDate);
        assert.equal(one.body.holdReason, 'waiting for the bank letter');
        assert.equal(one.body.assignee?.id, bob, 'the assignee is left as it was');
      }
      const again = await call('POST', '/exceptions/assign', { transactionIds: chosen, holdReason: 'waiting for the bank letter' });
      assert.deepEqual(again.body, { assigned: 0, updated: 0, unchanged: 2 });

      const audit = await call('GET', '/audit-events?object=exception&limit=1000');
      const updates = audit.body.events.filter(
        (event: any) =>
          event.action === 'exception.updated' && chosen.includes(event.transactionId) && event.after?.holdReason === 'waiting for the bank letter',
      );
      assert.equal(updates.length, 2, JSON.stringify(audit.body.events.slice(-3)));
      const events = await call('GET', '/events?type=exception.updated&limit=1000');
      assert.equal(events.status, 200, JSON.stringify(events.body));
      const emitted = events.body.events.filter((event: any) => chosen.includes(event.data.transactionId));
      assert.equal(emitted.length, 2, JSON.stringify(emitted));

      const cleared = await call('POST', '/exceptions/assign', { transactionIds: chosen, dueDate: null, holdReason: null });
      assert.deepEqual(cleared.body, { assigned: 0, updated: 2, unchanged: 0 });
      assert.equal((await call('GET', `/exceptions/${ids.old}`)).body.holdReason, null);
    });

    it('names the people an exception can be given to, to any member, and nothing more of them', async () => {
      const viewer = await createTestClient(server, organization.orgId, 'View-only');
      assert.equal((await call('GET', '/users', undefined, viewer.token)).status, 403);
      const carol = await insertUser(server, organization.orgId, 'carol@example.com', true);
      const answer = await call('GET', '/assignees', undefined, viewer.token);
      assert.equal(answer.status, 200, JSON.stringify(answer.body));
      const people = answer.body.people as { id: string; name: string }[];
      assert.ok(
        people.every((person) => Object.keys(person).sort().join() === 'id,name'),
        JSON.stringify(people),
      );
      const byName = new Map(people.map((person) => [person.name, person.id]));
      assert.equal(byName.get('ann@example.com'), ann);
      assert.equal(byName.get('bob@example.com'), bob);
      assert.equal(byName.get(organization.user!.email), adminUserId);
      assert.ok(!people.some((person) => person.id === carol), 'a deactivated user is not offered');
    });

    it('keeps a comment thread in order, with its author and time', async () => {
      for (const body of ['Asked the bank for the advice.', 'The advice says it is a card fee.', 'Booking it as a fee.']) {
        const answer = await call('POST', `/exceptions/${ids['ledger-b']}/comments`, { body });
        assert.equal(answer.status, 201, JSON.stringify(answer.body));
        assert.equal(answer.body.body, body);
        assert.equal(answer.body.authorName, 'Default API client');
      }
      const detail = await call('GET', `/exceptions/${ids['ledger-b']}`);
      assert.equal(detail.status, 200);
      assert.deepEqual(
        detail.body.comments.map((comment: any) => comment.body),
        ['Asked the bank for the advice.', 'The advice says it is a card fee.', 'Booking it as a fee.'],
      );
      assert.ok(
        detail.body.comments.every((comment: any) => comment.author === `client:${organization.clientId}` && !Number.isNaN(Date.parse(comment.createdAt))),
      );
      const item = (await list('')).find((entry) => entry.transactionId === ids['ledger-b']);
      assert.equal(item.commentCount, 3);
      assert.equal(item.latestComment.body, 'Booking it as a fee.');
      const events = await call('GET', '/events?type=exception.commented&limit=1000');
      assert.equal(events.body.events.filter((event: any) => event.data.transactionId === ids['ledger-b']).length, 3);
    });

    it('resolves by a note and reopens', async () => {
      const resolved = await call('POST', `/exceptions/${ids.quarter}/resolve`, { resolution: 'note', note: 'Duplicate of the September entry' });
      assert.equal(resolved.status, 200, JSON.stringify(resolved.body));
      assert.equal(resolved.body.resolution, 'note');
      assert.equal(resolved.body.resolutionNote, 'Duplicate of the September entry');
      assert.equal(resolved.body.holdReason, null);
      assert.ok(!names(await list('')).includes('quarter'));
      assert.deepEqual(names(await list('&view=resolved')), ['quarter']);
      const twice = await call('POST', `/exceptions/${ids.quarter}/resolve`, { resolution: 'note', note: 'again' });
      assert.equal(twice.status, 409);
      assert.equal(twice.body.error.messageId, 'exceptions.alreadyResolved');

      const reopened = await call('POST', `/exceptions/${ids.quarter}/reopen`, { note: 'not a duplicate after all' });
      assert.equal(reopened.status, 200, JSON.stringify(reopened.body));
      assert.equal(reopened.body.resolution, null);
      assert.ok(names(await list('')).includes('quarter'));
      const notResolved = await call('POST', `/exceptions/${ids.quarter}/reopen`, {});
      assert.equal(notResolved.status, 409);

      const events = await call('GET', '/events?type=exception.resolved,exception.reopened&limit=1000');
      assert.deepEqual(
        events.body.events.filter((event: any) => event.data.transactionId === ids.quarter).map((event: any) => event.type),
        ['exception.resolved', 'exception.reopened'],
      );
      const audit = await call('GET', `/audit-events?transactionId=${ids.quarter}&limit=1000`);
      const reopenEvent = audit.body.events.find((event: any) => event.action === 'exception.reopened');
      assert.equal(reopenEvent.note, 'not a duplicate after all');
    });

    it('shows a matched exception as resolved by the match', async () => {
      const matched = await call('POST', '/matches', { links: [{ originId: ids['ledger-a'], targetId: ids['ledger-b'] }] });
      assert.ok(matched.status === 201 || matched.status === 200, JSON.stringify(matched.body));
      const items = await list('');
      assert.ok(!names(items).includes('ledger a'));
      const resolved = await list('&view=resolved');
      assert.ok(names(resolved).includes('ledger a'));
      assert.equal(resolved.find((item) => item.transaction.description === 'ledger a').resolution, 'matched');
      const refused = await call('POST', `/exceptions/${ids['ledger-a']}/resolve`, { resolution: 'note', note: 'x' });
      assert.equal(refused.status, 409);
    });

    it('lets View-only read and refuses its changes', async () => {
      const viewer = await createTestClient(server, organization.orgId, 'View-only');
      assert.equal((await call('GET', `/reconciliations/${reconciliationId}/exceptions`, undefined, viewer.token)).status, 200);
      assert.equal((await call('GET', `/exceptions/${ids.fresh}`, undefined, viewer.token)).status, 200);
      for (const [method, path, body] of [
        ['PATCH', `/exceptions/${ids.fresh}`, { holdReason: 'x' }],
        ['POST', `/exceptions/${ids.fresh}/comments`, { body: 'x' }],
        ['POST', `/exceptions/${ids.fresh}/resolve`, { resolution: 'note', note: 'x' }],
        ['POST', `/exceptions/${ids.fresh}/reopen`, {}],
        ['POST', '/exceptions/assign', { transactionIds: [ids.fresh], assigneeUserId: null }],
      ] as const) {
        const answer = await call(method, path, body, viewer.token);
        assert.equal(answer.status, 403, `${method} ${path}: ${JSON.stringify(answer.body)}`);
      }
    });

    it("answers 404 for another organization's transaction and reconciliation", async () => {
      const other = await createTestOrganization(server);
      const { datasetId } = await createDataset(server, other, { name: 'Theirs' });
      const theirs = await addTransactions(server, other, datasetId, [{ externalId: 'theirs', timestamp: dayMs(PERIOD_END), amount: '5.00' }]);
      const theirReconciliation = await insertReconciliation(server, other.orgId, 'Theirs', [datasetId], []);
      assert.equal((await call('GET', `/exceptions/${theirs.theirs}`)).status, 404);
      assert.equal((await call('PATCH', `/exceptions/${theirs.theirs}`, { holdReason: 'x' })).status, 404);
      assert.equal((await call('POST', `/exceptions/${theirs.theirs}/comments`, { body: 'x' })).status, 404);
      assert.equal((await call('POST', `/exceptions/${theirs.theirs}/resolve`, { resolution: 'note', note: 'x' })).status, 404);
      assert.equal((await call('POST', '/exceptions/assign', { transactionIds: [theirs.theirs], assigneeUserId: null })).status, 404);
      assert.equal((await call('GET', `/reconciliations/${theirReconciliation}/exceptions`)).status, 404);
      const rows = await server.database.query('SELECT 1 FROM exception_followups WHERE transaction_id = $1', [theirs.theirs]);
      assert.equal(rows.length, 0);
    });
  });
}
