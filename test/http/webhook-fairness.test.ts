import assert from 'node:assert/strict';
import type { ServerResponse } from 'node:http';
import { after, before, describe, it, type TestContext } from 'node:test';
import { openDatabase, type Database } from '../../src/db/database.ts';
import { createServices, type Services } from '../../src/domain/services.ts';
import type { Config } from '../../src/config.ts';
import { startTestServer, storeKinds, type StoreKind, type TestServer } from '../../support/harness.ts';
import { workspace } from '../../support/event-workspace.ts';
import { eventually, startReceiver, type TestReceiver } from '../../support/receiver.ts';

/**
 * One organization's dead receivers must not delay another organization's deliveries (docs/WEBHOOKS.md,
 * "Who waits for whom"). The scenario of the outside trial: organization X has 6 endpoints whose
 * receivers accept the connection and never answer, and a backlog of events for each; organization
 * Y has one healthy endpoint.
 *
 * The timeout is lowered to WEBHOOK_TIMEOUT_SECONDS = 5 so that the difference is stark: a
 * delivery of Y that had to wait for one of X's attempts to end would come at least 5 s late,
 * whatever the machine's load, while a fair queue sends it at once. So the test checks, without
 * depending on speed, that no attempt of X had ended when Y's deliveries arrived, and bounds Y's
 * extra delay against Y alone, measured in the same run: at most 2 s, well under one timeout.
 */

const TIMEOUT_SECONDS = 5;
const EXTRA_DELAY_BOUND_MILLISECONDS = 2000;
const CONCURRENCY = 16;
const RETRY_BASE_MILLISECONDS = 1000;
const SETTINGS = {
  webhookAllowPrivateTargets: true,
  webhookTimeoutSeconds: TIMEOUT_SECONDS,
  webhookRetryBaseMilliseconds: RETRY_BASE_MILLISECONDS,
  webhookConcurrency: CONCURRENCY,
} as const;

/**
 * The trial: X's dead endpoints and their backlog, Y's healthy one; Y's deliveries are timed alone,
 * while X's first attempts hang, and once X's endpoints are failing. `processes` deliver, each with
 * CONCURRENCY slots, and X has endpoints enough to want every slot of all of them (4 each).
 */
async function playTrial(t: TestContext, server: TestServer, receivers: TestReceiver[], processes: number) {
  const y = await workspace(server);
  const healthy = await startReceiver();
  receivers.push(healthy);
  await y.createEndpoint(healthy.url);
  /** Y makes a change (3 events) and waits for its 3 deliveries; the time from the change to the last one. */
  const yDelivers = async (what: string) => {
    const before = healthy.accepted.size;
    const started = performance.now();
    await y.matchPair();
    await eventually(() => healthy.accepted.size === before + 3, `Y's deliveries ${what}`, 120_000);
    const arrived = Math.max(...healthy.received.slice(-3).map((entry) => entry.at));
    return { delay: arrived - started, arrived };
  };
  // Y alone, twice: the first delivery of a fresh server is slower than the others.
  const alone = [await yDelivers('alone'), await yDelivers('alone again')].reduce((least, next) => (next.delay < least.delay ? next : least));

  // X: receivers that take the request and never answer, each attempt held until the timeout.
  const x = await workspace(server);
  let xOpen = 0;
  let xOpenMost = 0;
  const xEnded: number[] = [];
  const hang = (_message: unknown, response: ServerResponse) => {
    xOpen += 1;
    xOpenMost = Math.max(xOpenMost, xOpen);
    response.on('close', () => {
      xOpen -= 1;
      xEnded.push(performance.now());
    });
    return new Promise<void>(() => {});
  };
  const xEndpoints = Math.max(6, Math.ceil((processes * CONCURRENCY) / 4) + 1);
  for (let index = 0; index < xEndpoints; index += 1) {
    const dead = await startReceiver();
    receivers.push(dead);
    dead.respond = hang;
    await x.createEndpoint(dead.url);
  }
  // 4 changes, 12 events for each endpoint: far more deliveries waiting than there are slots.
  for (let change = 0; change < 4; change += 1) await x.matchPair();
  await eventually(() => xOpen > 0, "X's first attempts to be under way");
  const xShare = (processes * CONCURRENCY) / 2;

  const first = await yDelivers('while X waits on its receivers');
  assert.equal(
    xEnded.filter((at) => at <= first.arrived).length,
    0,
    `Y's deliveries came only after one of X's attempts had timed out (${Math.round(first.delay)} ms, alone ${Math.round(alone.delay)} ms)`,
  );
  assert.ok(first.delay - alone.delay <= EXTRA_DELAY_BOUND_MILLISECONDS, `Y waited ${Math.round(first.delay)} ms, alone ${Math.round(alone.delay)} ms`);
  assert.ok(xOpenMost <= xShare, `X held ${xOpenMost} of the ${processes * CONCURRENCY} slots at once; an organization takes at most half`);

  // Once X's attempts have timed out its endpoints are failing: X keeps adding events, and Y
  // is still served at once.
  await eventually(() => xEnded.length >= 4, "X's first attempts to time out", 60_000);
  await x.matchPair();
  const second = await yDelivers("while X's endpoints are failing");
  assert.ok(second.delay - alone.delay <= EXTRA_DELAY_BOUND_MILLISECONDS, `Y waited ${Math.round(second.delay)} ms, alone ${Math.round(alone.delay)} ms`);
  assert.ok(xOpenMost <= xShare, `X held ${xOpenMost} of the ${processes * CONCURRENCY} slots at once`);
  t.diagnostic(
    `Y's deliveries: alone ${Math.round(alone.delay)} ms, while X waits ${Math.round(first.delay)} ms, while X fails ${Math.round(second.delay)} ms; ` +
      `X (${xEndpoints} endpoints) held at most ${xOpenMost} of ${processes * CONCURRENCY} slots`,
  );
}

/** A server with these settings and one receiver for a suite's tests: started before them, closed after. */
function serverAndReceiver(kind: StoreKind, settings: Partial<Config>): { server: TestServer; target: TestReceiver } {
  const suite = {} as { server: TestServer; target: TestReceiver };
  before(async () => {
    suite.server = await startTestServer(kind, settings);
    suite.target = await startReceiver();
  });
  after(async () => {
    await suite.server.close();
    await suite.target.close();
  });
  return suite;
}

for (const kind of storeKinds()) {
  describe(`webhook deliveries shared fairly between organizations (${kind})`, () => {
    let server: TestServer;
    const receivers: TestReceiver[] = [];
    before(async () => {
      server = await startTestServer(kind, SETTINGS);
    });
    after(async () => {
      await server.close();
      for (const receiver of receivers) await receiver.close();
    });

    it("one organization's receivers that never answer do not delay another organization's deliveries", async (t) => {
      await playTrial(t, server, receivers, 1);
    });
  });

  describe(
    `webhook deliveries shared fairly between organizations, two processes sharing PostgreSQL (${kind})`,
    { skip: kind === 'pglite' && 'the embedded store is opened by one process' },
    () => {
      let server: TestServer;
      let second: { services: Services; database: Database } | undefined;
      const receivers: TestReceiver[] = [];
      before(async () => {
        server = await startTestServer(kind, SETTINGS);
        // A second process's delivery queue over the same database: its own slots, the same jobs.
        const database = openDatabase({ databaseUrl: server.config.databaseUrl, dataDirectory: null, poolSize: 5 });
        second = { database, services: createServices(server.config, database) };
        await second.services.webhookJobs.start();
      });
      after(async () => {
        await second?.services.webhookJobs.stop();
        await second?.database.close();
        await server.close();
        for (const receiver of receivers) await receiver.close();
      });

      it("one organization's receivers that never answer do not delay another organization's deliveries", async (t) => {
        await playTrial(t, server, receivers, 2);
      });
    },
  );

  describe(`an endpoint that keeps failing (${kind})`, () => {
    const suite = serverAndReceiver(kind, { webhookAllowPrivateTargets: true, webhookRetryBaseMilliseconds: RETRY_BASE_MILLISECONDS });

    it('is paused after three failures in a row, and sends everything once its receiver is back', async () => {
      const { server, target } = suite;
      const space = await workspace(server);
      target.respond = (_message, response) => {
        // The receiver is down for six requests, then back.
        response.writeHead(target.received.length <= 6 ? 503 : 204).end();
      };
      const endpoint = await space.createEndpoint(target.url);
      // Ten messages waiting together, as after a burst of events.
      await server.services.webhookJobs.stop();
      const queued: string[] = [];
      for (let index = 0; index < 10; index += 1)
        queued.push((await space.call('POST', `/webhook-endpoints/${endpoint.id}/test`, undefined, 202)).body.messageId);
      await server.services.webhookJobs.start();
      await eventually(() => queued.every((messageId) => target.accepted.has(messageId)), 'every message once the receiver is back', 60_000);
      // Four requests at once, at most two more in the slots the first two failures free; the
      // third failure pauses the endpoint for at least half the retry base, so the seventh request
      // comes after a pause whatever happened before. A lower bound: a loaded machine only adds to it.
      const at = target.received.map((entry) => entry.at);
      assert.ok(at[6]! - at[2]! >= 0.5 * RETRY_BASE_MILLISECONDS, `the seventh request came ${Math.round(at[6]! - at[2]!)} ms after the third`);
    });
  });

  describe(`an endpoint paused after failures, and a person trying it (${kind})`, () => {
    // Pauses of at least half a minute: a message that waited for one could not arrive in the time allowed below.
    const suite = serverAndReceiver(kind, { webhookAllowPrivateTargets: true, webhookRetryBaseMilliseconds: 60_000 });

    it('sends the test message a person asks for at once, though the endpoint is paused', async () => {
      const { server, target } = suite;
      const space = await workspace(server);
      let down = true;
      target.respond = (_message, response) => {
        response.writeHead(down ? 503 : 204).end();
      };
      const endpoint = await space.createEndpoint(target.url);
      await space.matchPair();
      await space.matchPair();
      // Six deliveries; the third failure in a row pauses the endpoint.
      await eventually(() => target.received.length >= 3, 'three failed attempts');
      await eventually(
        async () => (await server.database.query('SELECT 1 FROM job_key_states WHERE concurrency_key = $1 AND resume_at > now()', [endpoint.id])).length > 0,
        'the endpoint to be paused',
      );
      // The receiver is mended, and its owner sends a test message.
      down = false;
      const test = (await space.call('POST', `/webhook-endpoints/${endpoint.id}/test`, undefined, 202)).body;
      await eventually(() => target.accepted.has(test.messageId), 'the test message, before the pause would have ended', 20_000);
      assert.equal(
        (await server.database.query('SELECT 1 FROM job_key_states WHERE concurrency_key = $1', [endpoint.id])).length,
        0,
        'its success forgot the failures',
      );
    });
  });
}
