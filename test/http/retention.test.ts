import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { queueRecurringJob } from '../../src/db/repositories/jobs.ts';
import { deleteFinishedDeliveriesBefore } from '../../src/db/repositories/webhooks.ts';
import { RETENTION_BATCH_ROWS, RETENTION_SWEEP_JOB } from '../../src/domain/retention.ts';
import { startTestServer, storeKinds, type TestServer } from '../../support/harness.ts';
import { workspace } from '../../support/event-workspace.ts';
import { eventually, startReceiver, type TestReceiver } from '../../support/receiver.ts';

/** Quick retries, so that a failing receiver's delivery stays pending and is retried while the test runs. */
const QUICK_RETRIES = { webhookAllowPrivateTargets: true, webhookRetryBaseMilliseconds: 100, webhookTimeoutSeconds: 2 } as const;

for (const kind of storeKinds()) {
  describe(`retention of events and webhook deliveries (${kind})`, () => {
    let server: TestServer;
    const receivers: TestReceiver[] = [];

    before(async () => {
      server = await startTestServer(kind, QUICK_RETRIES);
    });
    after(async () => {
      await server.close();
      for (const receiver of receivers) await receiver.close();
    });

    /** Moves an organization's events and deliveries back in time, as if they were that many days old. */
    const age = async (organizationId: string, days: number, options: { exceptDeliveryIds?: string[] } = {}) => {
      await server.database.query(`UPDATE events SET occurred_at = occurred_at - make_interval(days => $2) WHERE organization_id = $1`, [organizationId, days]);
      await server.database.query(
        `UPDATE webhook_deliveries SET created_at = created_at - make_interval(days => $2), last_attempt_at = last_attempt_at - make_interval(days => $2)
          WHERE organization_id = $1 AND NOT (id = ANY ($3::uuid[]))`,
        [organizationId, days, options.exceptDeliveryIds ?? []],
      );
      await server.database.query(
        `UPDATE jobs SET finished_at = finished_at - make_interval(days => $2)
          WHERE organization_id = $1 AND kind = 'webhook-delivery' AND finished_at IS NOT NULL AND NOT (payload ->> 'deliveryId' = ANY ($3::text[]))`,
        [organizationId, days, options.exceptDeliveryIds ?? []],
      );
    };
    /**
     * The organization's finished delivery jobs, old (past the retention) and recent, by id:
     * deliveries still being tried finish more jobs meanwhile, so the recent ones are compared
     * by id, not counted.
     */
    const deliveryJobs = async (organizationId: string) =>
      (
        await server.database.query<{ old: number; recent: string[] }>(
          `SELECT count(*) FILTER (WHERE finished_at < now() - interval '30 days')::integer AS old,
                  coalesce(array_agg(id::text) FILTER (WHERE finished_at >= now() - interval '30 days'), '{}') AS recent
             FROM jobs WHERE organization_id = $1 AND kind = 'webhook-delivery' AND finished_at IS NOT NULL`,
          [organizationId],
        )
      )[0]!;

    it('removes old events and finished deliveries with their attempts; keeps recent ones, pending ones and the events they will send', async () => {
      const space = await workspace(server);
      const healthy = await startReceiver();
      const down = await startReceiver();
      receivers.push(healthy, down);
      down.respond = (_message, response) => {
        response.writeHead(503).end();
      };
      const delivered = (await space.call('POST', '/webhook-endpoints', { url: healthy.url }, 201)).body;
      const failing = (await space.call('POST', '/webhook-endpoints', { url: down.url, eventTypes: ['match_group.created'] }, 201)).body;

      await space.matchPair();
      const oldFeed = (await space.events('?limit=1000')).events as any[];
      assert.deepEqual(
        oldFeed.map((event) => event.type),
        ['match_group.created', 'transaction.status_changed', 'transaction.status_changed'],
      );
      const [oldGroup, oldChange, otherOldChange] = oldFeed;
      const cursorAtOldGroup = (await space.events('?limit=1')).nextCursor as string;
      await eventually(
        async () => (await space.deliveries(delivered.id)).filter((delivery) => delivery.status === 'succeeded').length === 3,
        'three deliveries to succeed',
      );
      await eventually(async () => (await space.deliveries(failing.id))[0]?.attempts >= 1, 'a failed attempt to the failing endpoint');
      // One delivered message stays recent while its event grows old: it is kept, its event is not.
      const recentDelivery = (await space.deliveries(delivered.id)).find((delivery) => delivery.messageId === oldChange.id)!;
      await age(space.organization.orgId, 40, { exceptDeliveryIds: [recentDelivery.id] });

      const cursorBeforeRecent = (await space.events('?limit=1000')).nextCursor as string;
      await space.matchPair();
      const recentFeed = (await space.events(`?cursor=${cursorBeforeRecent}`)).events as any[];
      assert.equal(recentFeed.length, 3);
      await eventually(
        async () => (await space.deliveries(delivered.id)).filter((delivery) => delivery.status === 'succeeded').length === 6,
        'three more deliveries to succeed',
      );
      const latestCursor = (await space.events('?limit=1000')).nextCursor as string;
      assert.equal((await space.events(`?cursor=${latestCursor}`)).eventsRemovedAfterCursor, false, 'nothing was removed yet');

      const jobsBefore = await deliveryJobs(space.organization.orgId);
      assert.ok(jobsBefore.old >= 2 && jobsBefore.recent.length >= 1, JSON.stringify(jobsBefore));
      const result = await server.services.retention.sweep();
      assert.ok(result.eventsRemoved >= 2 && result.deliveriesRemoved >= 2, JSON.stringify(result));
      // The queue's rows of the old finished deliveries went with them; the recent ones stay.
      const jobsAfter = await deliveryJobs(space.organization.orgId);
      assert.equal(jobsAfter.old, 0);
      const recentAfter = new Set(jobsAfter.recent);
      assert.deepEqual(
        jobsBefore.recent.filter((id) => !recentAfter.has(id)),
        [],
        'no recent job was removed',
      );
      assert.ok(result.deliveryJobsRemoved >= jobsBefore.old, JSON.stringify(result));

      // The two old status changes are gone; the old group event stays, as a pending delivery will still send it.
      const kept = (await space.events('?limit=1000')) as { events: any[]; eventsRemovedAfterCursor: boolean };
      assert.deepEqual(
        kept.events.map((event) => event.id),
        [oldGroup.id, ...recentFeed.map((event) => event.id)],
      );
      assert.equal(kept.eventsRemovedAfterCursor, true, 'the start of the feed was removed');
      const pending = (await space.deliveries(failing.id)).find((delivery) => delivery.messageId === oldGroup.id)!;
      assert.equal(pending.status, 'pending');

      // Deliveries: the old finished ones went with their attempts; the recent one, the new ones and the pending one stay.
      const remaining = await space.deliveries(delivered.id);
      const remainingMessages = new Set(remaining.map((delivery) => delivery.messageId));
      assert.ok(!remainingMessages.has(oldGroup.id) && !remainingMessages.has(otherOldChange.id), 'the old finished deliveries are removed');
      assert.ok(remainingMessages.has(oldChange.id), 'a delivery within its retention is kept, though its event is gone');
      for (const event of recentFeed) assert.ok(remainingMessages.has(event.id));
      const orphanAttempts = await server.database.query<{ count: number }>(
        'SELECT count(*)::integer AS count FROM webhook_delivery_attempts a WHERE a.organization_id = $1 AND NOT EXISTS (SELECT 1 FROM webhook_deliveries d WHERE d.id = a.delivery_id)',
        [space.organization.orgId],
      );
      assert.equal(orphanAttempts[0]!.count, 0);
      const attemptsLeft = await server.database.query<{ count: number }>(
        'SELECT count(*)::integer AS count FROM webhook_delivery_attempts WHERE organization_id = $1 AND delivery_id = $2',
        [space.organization.orgId, recentDelivery.id],
      );
      assert.equal(attemptsLeft[0]!.count, 1, 'the kept delivery keeps its attempt');

      // A consumer whose cursor is older than the retention goes on from the oldest event kept, and is told what it missed.
      const stale = await space.events(`?cursor=${cursorAtOldGroup}`);
      assert.deepEqual(
        stale.events.map((event: any) => event.id),
        recentFeed.map((event) => event.id),
      );
      assert.equal(stale.eventsRemovedAfterCursor, true);
      const current = await space.events(`?cursor=${latestCursor}`);
      assert.deepEqual([current.events, current.eventsRemovedAfterCursor], [[], false]);

      // The kept delivery of a removed event cannot be sent again: its body was the event.
      const refused = await space.call('POST', `/webhook-endpoints/${delivered.id}/deliveries/${recentDelivery.id}/redeliver`, undefined, 409);
      assert.match(refused.body.error.message, /was removed after the event retention period \(EVENT_RETENTION_DAYS\); it can no longer be redelivered/);

      // A second sweep finds nothing more to remove.
      assert.deepEqual(await server.services.retention.sweepOrganization(space.organization.orgId), { eventsRemoved: 0, deliveriesRemoved: 0 });
    });

    it('leaves other organizations alone, and removes in batches, sweeps at the same time not conflicting', async () => {
      const busy = await workspace(server);
      const quiet = await workspace(server);
      await quiet.matchPair();
      const count = RETENTION_BATCH_ROWS * 2 + 500;
      await server.database.query(
        `INSERT INTO events (organization_id, type, data, occurred_at, position)
         SELECT $1, 'run.completed', '{}'::jsonb, now() - interval '60 days', nextval('events_position_seq') FROM generate_series(1, $2)`,
        [busy.organization.orgId, count],
      );
      await busy.matchPair();
      const results = await Promise.all([
        server.services.retention.sweepOrganization(busy.organization.orgId),
        server.services.retention.sweepOrganization(busy.organization.orgId),
      ]);
      assert.equal(results[0]!.eventsRemoved + results[1]!.eventsRemoved, count);
      assert.equal((await busy.events('?limit=1000')).events.length, 3, 'the recent events stay');
      assert.equal((await quiet.events('?limit=1000')).events.length, 3);
      assert.equal((await quiet.events()).eventsRemovedAfterCursor, false);

      // Time passing is a `now` given to the sweep: 31 days on, the recent events are old too.
      const later = new Date(Date.now() + 31 * 86_400_000);
      assert.equal((await server.services.retention.sweepOrganization(quiet.organization.orgId, { now: later })).eventsRemoved, 3);
      const empty = await quiet.events();
      assert.deepEqual([empty.events, empty.eventsRemovedAfterCursor], [[], true]);
    });

    it('bounds a batch of deliveries by their attempts too, a delivery with more attempts than the bound going alone', async () => {
      const space = await workspace(server);
      const orgId = space.organization.orgId;
      const endpoint = (await space.call('POST', '/webhook-endpoints', { url: 'http://127.0.0.1:9/unused', enabled: false }, 201)).body;
      await server.database.query(
        `WITH made AS (
           INSERT INTO webhook_deliveries (id, organization_id, endpoint_id, message_id, event_type, status, attempts, created_at, last_attempt_at)
           SELECT gen_random_uuid(), $1, $2, gen_random_uuid(), 'run.completed', 'failed', 2, now() - make_interval(days => 50 - n), now() - make_interval(days => 50 - n)
             FROM generate_series(1, 3) n
           RETURNING id)
         INSERT INTO webhook_delivery_attempts (delivery_id, organization_id, duration_milliseconds, process_id)
         SELECT made.id, $1, 5, 'test' FROM made CROSS JOIN generate_series(1, 2)`,
        [orgId, endpoint.id],
      );
      const before = new Date(Date.now() - 30 * 86_400_000);
      assert.equal(
        await deleteFinishedDeliveriesBefore(server.database, orgId, before, { deliveryLimit: 10, attemptLimit: 3 }),
        1,
        'two attempts fit, four do not',
      );
      assert.equal(
        await deleteFinishedDeliveriesBefore(server.database, orgId, before, { deliveryLimit: 10, attemptLimit: 1 }),
        1,
        'more attempts than the bound: alone',
      );
      assert.equal(await deleteFinishedDeliveriesBefore(server.database, orgId, before, { deliveryLimit: 10, attemptLimit: 4 }), 1);
      assert.equal(await deleteFinishedDeliveriesBefore(server.database, orgId, before, { deliveryLimit: 10, attemptLimit: 4 }), 0);
      const attempts = await server.database.query<{ count: number }>(
        'SELECT count(*)::integer AS count FROM webhook_delivery_attempts WHERE organization_id = $1',
        [orgId],
      );
      assert.equal(attempts[0]!.count, 0);
    });

    it('runs as one recurring job, queued again by one process only once its interval has passed', async () => {
      const rows = async () => server.database.query<{ id: string; status: string }>(`SELECT id, status FROM jobs WHERE kind = $1`, [RETENTION_SWEEP_JOB]);
      await eventually(async () => (await rows())[0]?.status === 'completed', 'the sweep queued at start to run');
      const [job] = await rows();
      assert.equal((await rows()).length, 1);
      const recurring = { id: job!.id, kind: RETENTION_SWEEP_JOB, maxAttempts: 3, intervalSeconds: 3600 };
      assert.equal(await queueRecurringJob(server.database, recurring), false, 'not again within the interval');
      await server.database.query(`UPDATE jobs SET finished_at = finished_at - interval '2 hours' WHERE id = $1`, [job!.id]);
      // Several processes check at once: one queues it.
      const queued = await Promise.all([
        queueRecurringJob(server.database, recurring),
        queueRecurringJob(server.database, recurring),
        queueRecurringJob(server.database, recurring),
      ]);
      assert.equal(queued.filter(Boolean).length, 1);
      assert.equal((await rows()).length, 1);
      server.services.jobs.wake();
      await eventually(async () => (await rows())[0]?.status === 'completed', 'the sweep to run again');
    });
  });
}
