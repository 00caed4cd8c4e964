import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startTestServer, storeKinds, type TestServer } from '../../support/harness.ts';
import { workspace } from '../../support/event-workspace.ts';
import { eventually, startReceiver, verify, type TestReceiver } from '../../support/receiver.ts';
import { deliverStatusChangeBurst } from '../../support/webhook-burst.ts';
import { camt053Statement } from '../../support/statement-files.ts';

/** Settings that make retries quick enough to watch in a test; everything else is as in production. */
const QUICK_RETRIES = { webhookAllowPrivateTargets: true, webhookRetryBaseMilliseconds: 100, webhookTimeoutSeconds: 2 } as const;

for (const kind of storeKinds()) {
  describe(`events and webhooks (${kind})`, () => {
    let server: TestServer;
    const receivers: TestReceiver[] = [];
    const receiver = async () => {
      const started = await startReceiver();
      receivers.push(started);
      return started;
    };

    before(async () => {
      server = await startTestServer(kind, QUICK_RETRIES);
    });
    after(async () => {
      await server.close();
      for (const started of receivers) await started.close();
    });

    it("writes a match's events in its transaction: the group and both status changes with before and after, in order", async () => {
      const space = await workspace(server);
      const pair = await space.matchPair();
      const feed = await space.allEvents();
      assert.deepEqual(
        feed.map((event) => event.type),
        ['match_group.created', 'transaction.status_changed', 'transaction.status_changed'],
      );
      assert.equal(feed[0].data.matchGroupId, pair.groupId);
      const changes = feed.slice(1).sort((left, right) => (left.data.externalId < right.data.externalId ? -1 : 1));
      assert.deepEqual(changes[0].data, {
        transactionId: pair.originId,
        datasetId: space.bank,
        externalId: 'bank-1',
        before: { reconciliationStatus: 'none', allocatedAmount: '0', matchCount: 0 },
        after: { reconciliationStatus: 'full', allocatedAmount: '42.10', matchCount: 1 },
      });
      assert.equal(changes[1].data.transactionId, pair.targetId);

      // A consumer that keeps its cursor gets what happened since, and nothing twice.
      const first = await space.events('?limit=2');
      assert.equal(first.events.length, 2);
      assert.equal(first.hasMore, true);
      const rest = await space.events(`?cursor=${first.nextCursor}`);
      assert.deepEqual(
        [...first.events, ...rest.events].map((event: any) => event.id),
        feed.map((event) => event.id),
      );
      assert.equal(rest.hasMore, false);
      const later = await space.events(`?cursor=${rest.nextCursor}`);
      assert.deepEqual(later.events, []);
      assert.equal(later.nextCursor, rest.nextCursor, 'the last page gives its cursor back, to ask again later');
      await space.call('DELETE', `/matches/${(await space.call('GET', `/match-groups/${pair.groupId}`, undefined, 200)).body.matches[0].id}`, undefined, 204);
      const afterUnmatch = await space.events(`?cursor=${rest.nextCursor}`);
      assert.deepEqual(afterUnmatch.events.map((event: any) => event.type).sort(), [
        'match_group.deleted',
        'transaction.status_changed',
        'transaction.status_changed',
      ]);
      const undone = afterUnmatch.events.find((event: any) => event.data.transactionId === pair.originId);
      assert.deepEqual([undone.data.before.reconciliationStatus, undone.data.after.reconciliationStatus], ['full', 'none']);

      // Paging one at a time while new changes commit between the pages: every event comes once,
      // in feed order, the ones committed later after the ones already placed.
      let cursor = afterUnmatch.nextCursor as string;
      const paged: any[] = [];
      const secondPair = await space.matchPair();
      for (let page = 0; page < 20; page += 1) {
        const next = await space.events(`?limit=1&cursor=${cursor}`);
        paged.push(...next.events);
        cursor = next.nextCursor;
        if (page === 0) await space.matchPair();
        if (!next.hasMore && page > 0) break;
      }
      assert.equal(paged.length, 6, JSON.stringify(paged.map((event) => event.type)));
      assert.equal(new Set(paged.map((event) => event.id)).size, 6);
      assert.equal(paged[0].data.matchGroupId, secondPair.groupId);
      assert.deepEqual((await space.events(`?cursor=${cursor}`)).events, []);
    });

    it('emits nothing for a change that was refused and rolled back', async () => {
      const space = await workspace(server);
      const pair = await space.matchPair();
      const before = await space.events('?limit=1000');
      // The same two transactions again: both are fully allocated, so the match is refused.
      const refused = await space.call('POST', '/matches', { links: [{ originId: pair.originId, targetId: pair.targetId }] });
      assert.ok(refused.status >= 400 && refused.status < 500, JSON.stringify(refused.body));
      assert.deepEqual((await space.events(`?cursor=${before.nextCursor}`)).events, []);
    });

    it('filters by type and refuses an unknown type naming the field', async () => {
      const space = await workspace(server);
      await space.matchPair();
      const groups = await space.events('?type=match_group.created');
      assert.deepEqual(
        groups.events.map((event: any) => event.type),
        ['match_group.created'],
      );
      const both = await space.events('?type=match_group.created,transaction.status_changed');
      assert.equal(both.events.length, 3);
      const bad = await space.call('GET', '/events?type=match.made', undefined, 400);
      assert.match(bad.body.error.message, /\/querystring\/type: "match\.made" is not an event type; use one or more of transaction\.status_changed/);
      const badCursor = await space.call('GET', '/events?cursor=nonsense', undefined, 400);
      assert.match(badCursor.body.error.message, /cursor/);
    });

    it('says in import.completed which run the file queued, and in run.completed what that run did, in counts', async () => {
      const space = await workspace(server);
      await space.call(
        'POST',
        '/rules',
        {
          name: 'Same amount, ±3 days',
          priority: 10,
          enabled: true,
          origin: { datasetIds: [space.bank] },
          target: { datasetIds: [space.ledger] },
          cardinality: '1:1',
          conditions: [
            { type: 'amount', sign: 'same' },
            { type: 'date', path: 'timestamp', min: '-P3D', max: 'P3D' },
          ],
          outcome: 'match',
          runOnIngest: true,
        },
        201,
      );
      const day = (date: string) => Date.parse(`${date}T12:00:00Z`);
      const ledger = [
        { externalId: 'L1', timestamp: day('2026-03-03'), amount: '1200.00', currency: 'EUR', description: 'Invoice 1' },
        { externalId: 'L2', timestamp: day('2026-03-10'), amount: '-450.00', currency: 'EUR', description: 'Supplier X' },
      ];
      await space.call('POST', `/datasets/${space.ledger}/transactions`, { records: ledger }, 200);
      // The ledger's own run (nothing to match yet) ends first, so that the file's run is the one that matches.
      await eventually(async () => (await space.events('?type=run.completed')).events.length === 1, "the ledger ingest's run");
      const statement = camt053Statement({
        id: 'EVENTS-2026-03',
        iban: 'DE89370400440532013000',
        currency: 'EUR',
        opening: { amount: '1000.00', date: '2026-02-28' },
        closingDate: '2026-03-31',
        entries: [
          { reference: 'R1', amount: '1200.00', date: '2026-03-03', text: 'Customer A' },
          { reference: 'R2', amount: '-450.00', date: '2026-03-10', text: 'Supplier X' },
          { reference: 'R3', amount: '-12.50', date: '2026-03-15', text: 'Bank fee' },
        ],
      });
      const imported = await fetch(`${server.baseUrl}/v1/api/${space.organization.orgId}/datasets/${space.bank}/imports`, {
        method: 'POST',
        headers: { authorization: `Bearer ${space.organization.token}`, 'content-type': 'application/octet-stream' },
        body: statement,
      });
      assert.equal(imported.status, 201, await imported.text());
      const completedImport = await eventually(async () => (await space.events('?type=import.completed')).events[0], 'the import.completed event');
      assert.equal(completedImport.data.inserted, 3);
      assert.equal(completedImport.data.rowsRead, 3);
      assert.equal(completedImport.data.duplicates, 0);
      assert.match(String(completedImport.data.runId), /^[0-9a-f-]{36}$/);
      const completedRun = await eventually(
        async () => (await space.events('?type=run.completed')).events.find((event: any) => event.data.runId === completedImport.data.runId),
        'the run.completed event of the run the import queued',
      );
      assert.deepEqual(completedRun.data, {
        runId: completedImport.data.runId,
        mode: 'commit',
        trigger: 'ingest',
        status: 'completed',
        error: null,
        examined: 3,
        totals: { matched: 2, suggested: 0, ambiguous: 0, classified: 0, boundsHit: 0, closedPeriodSkipped: 0 },
      });
    });

    it('creates endpoints whose secret is shown once, and refuses bad targets naming the field and the fix', async () => {
      const space = await workspace(server);
      const target = await receiver();
      const created = await space.createEndpoint(`${target.url}/hooks`, { description: 'ERP', eventTypes: ['run.completed', 'match_group.created'] });
      assert.match(created.secret, /^whsec_[A-Za-z0-9+/]{32}$/);
      assert.deepEqual(created.eventTypes, ['match_group.created', 'run.completed']);
      assert.equal(created.enabled, true);
      const listed = (await space.call('GET', '/webhook-endpoints', undefined, 200)).body;
      assert.equal(listed.length, 1);
      assert.ok(!JSON.stringify(listed).includes(created.secret), 'the secret is never listed');
      assert.ok(!JSON.stringify((await space.call('GET', `/webhook-endpoints/${created.id}`, undefined, 200)).body).includes(created.secret));

      const notUrl = await space.call('POST', '/webhook-endpoints', { url: 'example.com/hooks' }, 400);
      assert.match(notUrl.body.error.message, /^\/body\/url: is not an absolute URL; give the full address/);
      const ftp = await space.call('POST', '/webhook-endpoints', { url: 'ftp://example.com/hooks' }, 400);
      assert.match(ftp.body.error.message, /^\/body\/url: must be an https:\/\/ URL/);
      const withPassword = await space.call('POST', '/webhook-endpoints', { url: 'https://user:secret@example.com/hooks' }, 400);
      assert.match(withPassword.body.error.message, /must not carry a user name or password/);
      const badType = await space.call('POST', '/webhook-endpoints', { url: target.url, eventTypes: ['everything'] }, 400);
      assert.match(badType.body.error.message, /eventTypes\/0/);

      const changed = (await space.call('PATCH', `/webhook-endpoints/${created.id}`, { enabled: false, description: 'ERP sync' }, 200)).body;
      assert.deepEqual([changed.enabled, changed.disabledReason, changed.description], [false, 'requested', 'ERP sync']);
      const test = await space.call('POST', `/webhook-endpoints/${created.id}/test`, undefined, 409);
      assert.match(test.body.error.message, /is disabled; enable it/);
      await space.call('DELETE', `/webhook-endpoints/${created.id}`, undefined, 204);
      await space.call('GET', `/webhook-endpoints/${created.id}`, undefined, 404);
    });

    it('delivers every event signed as Standard Webhooks says (checked with its library), and both signatures during a rotation', async () => {
      const space = await workspace(server);
      const target = await receiver();
      const endpoint = await space.createEndpoint(`${target.url}/ledger`);
      const pair = await space.matchPair();
      await eventually(() => target.accepted.size === 3, 'three deliveries');
      const feed = await space.allEvents();
      const bodies = target.received.map((message) => verify(endpoint.secret, message));
      assert.deepEqual(new Set(target.received.map((message) => message.id)), new Set(feed.map((event) => event.id)), 'webhook-id is the event id');
      const group = bodies.find((body) => body.type === 'match_group.created')!;
      assert.equal(group.data.matchGroupId, pair.groupId);
      assert.equal(target.received[0]!.path, '/ledger');
      assert.equal(target.received[0]!.headers['content-type'], 'application/json');
      assert.throws(() => verify('whsec_' + Buffer.alloc(24, 1).toString('base64'), target.received[0]!), /signature/i, 'another secret does not verify');

      const rotated = (await space.call('POST', `/webhook-endpoints/${endpoint.id}/rotate-secret`, undefined, 201)).body;
      assert.notEqual(rotated.secret, endpoint.secret);
      assert.ok(Date.parse(rotated.previousSecretExpiresAt) > Date.now() + 23 * 3600 * 1000);
      await space.matchPair();
      await eventually(() => target.accepted.size === 6, 'three more deliveries');
      const latest = target.received.at(-1)!;
      assert.equal(latest.signature.split(' ').length, 2, 'two signatures during the overlap');
      verify(rotated.secret, latest);
      verify(endpoint.secret, latest);
    });

    it('sends a test message, lists deliveries with their attempts, and redelivers with the same webhook-id', async () => {
      const space = await workspace(server);
      const target = await receiver();
      let answer = 503;
      target.respond = (_message, response) => {
        response.writeHead(answer).end();
      };
      const endpoint = await space.createEndpoint(target.url);
      const queued = (await space.call('POST', `/webhook-endpoints/${endpoint.id}/test`, undefined, 202)).body;
      assert.equal(queued.status, 'pending');
      assert.equal(queued.eventType, 'webhook.test');
      // It fails, is retried with backoff, and succeeds once the receiver is back.
      await eventually(() => target.received.length >= 2, 'a retry');
      answer = 200;
      const delivered = await eventually(async () => {
        const delivery = (await space.call('GET', `/webhook-endpoints/${endpoint.id}/deliveries/${queued.id}`, undefined, 200)).body;
        return delivery.status === 'succeeded' ? delivery : null;
      }, 'the test delivery to succeed');
      assert.ok(delivered.attempts >= 3);
      assert.equal(delivered.attemptList.length, delivered.attempts);
      assert.equal(delivered.attemptList[0].responseStatus, 503);
      assert.equal(delivered.attemptList.at(-1).responseStatus, 200);
      assert.equal(delivered.lastResponseStatus, 200);
      assert.equal(typeof delivered.lastDurationMilliseconds, 'number');
      assert.equal(verify(endpoint.secret, target.received.at(-1)!).type, 'webhook.test');

      const page = (await space.call('GET', `/webhook-endpoints/${endpoint.id}/deliveries?status=succeeded`, undefined, 200)).body;
      assert.deepEqual(
        page.deliveries.map((delivery: any) => delivery.id),
        [queued.id],
      );
      const count = target.received.length;
      const again = (await space.call('POST', `/webhook-endpoints/${endpoint.id}/deliveries/${queued.id}/redeliver`, undefined, 202)).body;
      assert.equal(again.status, 'pending');
      await eventually(() => target.received.length === count + 1, 'the redelivery');
      assert.equal(target.received.at(-1)!.id, queued.messageId, 'a redelivery has the same webhook-id');
      const pending = await space.createEndpoint(`${target.url}/other`);
      answer = 500;
      const stuck = (await space.call('POST', `/webhook-endpoints/${pending.id}/test`, undefined, 202)).body;
      const refused = await space.call('POST', `/webhook-endpoints/${pending.id}/deliveries/${stuck.id}/redeliver`, undefined, 409);
      assert.match(refused.body.error.message, /still pending/);
    });

    it('loses nothing while the receiver is down: every event arrives, each once after de-duplication', async () => {
      const space = await workspace(server);
      const target = await receiver();
      let down = true;
      target.respond = (_message, response) => {
        response.writeHead(down ? 503 : 200).end();
      };
      await space.createEndpoint(target.url);
      for (let index = 0; index < 5; index += 1) await space.matchPair();
      // Three failures in a row pause the endpoint, which is then tried one delivery at a time:
      // attempts go on while it is down, ever more slowly.
      await eventually(() => target.received.length >= 8, 'attempts while the receiver is down');
      assert.equal(target.accepted.size, 0);
      down = false;
      const feed = await space.allEvents();
      assert.equal(feed.length, 15);
      await eventually(() => target.accepted.size === 15, 'every event once the receiver is back');
      assert.deepEqual(new Set(target.accepted), new Set(feed.map((event) => event.id)));
    });

    // The same burst with 1,000 events is in the bench (npm run bench -- webhooks), timed
    // against a receiver that never fails.
    it('delivers 100 events to a receiver that answers 500 to one request in three, logging every attempt', async () => {
      const burst = await deliverStatusChangeBurst(server, { pairs: 50, failEvery: 3 });
      assert.equal(burst.feedIds.length, 100);
      assert.deepEqual(burst.acceptedIds, new Set(burst.feedIds));
      const failed = burst.requests - 100;
      assert.ok(failed >= 30, `about a third of ${burst.requests} requests were answered 500 (${failed})`);
      assert.ok(burst.allSucceeded, 'every delivery ends as succeeded');
      assert.equal(burst.loggedAttempts, burst.requests);
    });

    it("a receiver that never answers holds back neither the API nor another endpoint's deliveries", async () => {
      const space = await workspace(server);
      const slow = await receiver();
      slow.respond = () => new Promise(() => {});
      const fast = await receiver();
      await space.createEndpoint(slow.url);
      await space.createEndpoint(fast.url);
      await space.matchPair();
      await eventually(() => slow.open() > 0, 'the slow receiver to be waited on');
      await eventually(() => fast.accepted.size === 3, "the fast endpoint's deliveries");
      assert.ok(slow.open() > 0, 'the fast endpoint got everything while the slow one was still being waited on');
      const answered = await space.call('GET', '/events', undefined, 200);
      assert.equal(answered.body.events.length, 3);
      assert.ok(slow.open() > 0, 'the API answered while the slow receiver was being waited on');
      // Each attempt has a timeout: the slow endpoint's deliveries fail and are retried.
      const endpoints = (await space.call('GET', '/webhook-endpoints', undefined, 200)).body;
      const slowEndpoint = endpoints.find((endpoint: any) => endpoint.url.startsWith(slow.url));
      const timedOut = await eventually(async () => {
        const page = (await space.call('GET', `/webhook-endpoints/${slowEndpoint.id}/deliveries`, undefined, 200)).body;
        return page.deliveries.find((delivery: any) => delivery.attempts > 0);
      }, 'a timed-out attempt');
      assert.match(timedOut.lastError, /no answer within 2 s/);
      assert.equal(timedOut.lastResponseStatus, null);
    });

    it('does not follow redirects', async () => {
      const space = await workspace(server);
      const elsewhere = await receiver();
      const target = await receiver();
      target.respond = (_message, response) => {
        response.writeHead(307, { location: `${elsewhere.url}/stolen` }).end();
      };
      const endpoint = await space.createEndpoint(target.url);
      const queued = (await space.call('POST', `/webhook-endpoints/${endpoint.id}/test`, undefined, 202)).body;
      const delivery = await eventually(async () => {
        const found = (await space.call('GET', `/webhook-endpoints/${endpoint.id}/deliveries/${queued.id}`, undefined, 200)).body;
        return found.attempts > 0 ? found : null;
      }, 'an attempt');
      assert.equal(delivery.lastResponseStatus, 307);
      assert.match(delivery.lastError, /redirects are not followed/);
      assert.equal(elsewhere.received.length, 0);
    });
  });

  describe(`webhook endpoints that keep failing (${kind})`, () => {
    let server: TestServer;
    let target: TestReceiver;
    before(async () => {
      server = await startTestServer(kind, { ...QUICK_RETRIES, webhookGiveUpSeconds: 1 });
      target = await startReceiver();
      target.respond = (_message, response) => {
        response.writeHead(500).end();
      };
    });
    after(async () => {
      await server.close();
      await target.close();
    });

    it('are disabled once every attempt failed for the give-up period, and their deliveries marked failed', async () => {
      const space = await workspace(server);
      const endpoint = await space.createEndpoint(target.url);
      await space.matchPair();
      const disabled = await eventually(
        async () => {
          const found = (await space.call('GET', `/webhook-endpoints/${endpoint.id}`, undefined, 200)).body;
          return found.enabled ? null : found;
        },
        'the endpoint to be disabled',
        60_000,
      );
      assert.equal(disabled.disabledReason, 'failing');
      assert.ok(disabled.failingSince);
      const settled = await eventually(async () => {
        const page = (await space.call('GET', `/webhook-endpoints/${endpoint.id}/deliveries`, undefined, 200)).body;
        return page.deliveries.every((delivery: any) => delivery.status === 'failed') ? page : null;
      }, 'every delivery to be failed');
      assert.equal(settled.deliveries.length, 3);
      // Enabling it again clears the failure record.
      const enabled = (await space.call('PATCH', `/webhook-endpoints/${endpoint.id}`, { enabled: true }, 200)).body;
      assert.deepEqual([enabled.enabled, enabled.disabledReason, enabled.failingSince], [true, null, null]);
    });
  });

  describe(`webhook targets in production mode (${kind})`, () => {
    let server: TestServer;
    before(async () => {
      server = await startTestServer(kind);
    });
    after(async () => server.close());

    it('refuses http:// and addresses that are private, loopback, link-local or metadata', async () => {
      const space = await workspace(server);
      const plain = await space.call('POST', '/webhook-endpoints', { url: 'http://example.com/hooks' }, 400);
      assert.match(plain.body.error.message, /must use https:\/\/.*WEBHOOK_ALLOW_PRIVATE_TARGETS=true/);
      for (const url of [
        'https://127.0.0.1/hooks',
        'https://localhost:8443/hooks',
        'https://10.1.2.3/',
        'https://169.254.169.254/latest/meta-data',
        'https://[::1]/',
        'https://[fd00:ec2::254]/',
      ]) {
        const refused = await space.call('POST', '/webhook-endpoints', { url }, 400);
        assert.match(refused.body.error.message, /private, loopback, link-local or metadata address/, url);
      }
      const published = await space.call('POST', '/webhook-endpoints', { url: 'https://93.184.215.14/hooks' }, 201);
      assert.equal(published.body.url, 'https://93.184.215.14/hooks');
    });

    it('checks the URL again when an endpoint is turned back on, and refuses one that is no longer allowed', async () => {
      const space = await workspace(server);
      // Endpoints saved while the server allowed private targets (WEBHOOK_ALLOW_PRIVATE_TARGETS=true
      // then), since disabled: the setting is off now.
      const context = { organizationId: space.organization.orgId, actor: 'test', requestId: null };
      const saved = async (url: string) =>
        server.database.transaction((transaction) => server.services.webhookEndpoints.create(transaction, context, { url, enabled: false }));
      const plain = await saved('http://127.0.0.1:9/hooks');
      const refused = await space.call('PATCH', `/webhook-endpoints/${plain.id}`, { enabled: true }, 409);
      assert.match(
        refused.body.error.message,
        /^this webhook endpoint cannot be enabled while its URL is refused: the URL must use https:\/\/.*WEBHOOK_ALLOW_PRIVATE_TARGETS=true/,
      );
      assert.deepEqual(
        refused.body.error.details.map((detail: { path: string }) => detail.path),
        ['/body/enabled'],
      );
      // Shown as it is in the web app: no ids, no field paths.
      assert.doesNotMatch(refused.body.error.message, /[0-9a-f]{8}-[0-9a-f]{4}-|\/body/);
      assert.equal((await space.call('GET', `/webhook-endpoints/${plain.id}`, undefined, 200)).body.enabled, false);

      const loopback = await saved('https://[::ffff:127.0.0.1]:9/hooks');
      const alsoRefused = await space.call('PATCH', `/webhook-endpoints/${loopback.id}`, { enabled: true, description: 'old receiver' }, 409);
      assert.match(
        alsoRefused.body.error.message,
        /the URL has for its host ::ffff:7f00:1 \(the IPv4 address 127\.0\.0\.1\), a private, loopback, link-local or metadata address/,
      );
      assert.equal((await space.call('GET', `/webhook-endpoints/${loopback.id}`, undefined, 200)).body.description, '', 'nothing of a refused change is kept');

      // Other changes are not refused, and an allowed URL in the same change turns it back on.
      await space.call('PATCH', `/webhook-endpoints/${loopback.id}`, { description: 'old receiver' }, 200);
      const moved = (await space.call('PATCH', `/webhook-endpoints/${loopback.id}`, { enabled: true, url: 'https://93.184.215.14/hooks' }, 200)).body;
      assert.deepEqual([moved.enabled, moved.url, moved.description], [true, 'https://93.184.215.14/hooks', 'old receiver']);
      await space.call('PATCH', `/webhook-endpoints/${moved.id}`, { enabled: true }, 200);
    });
  });
}
