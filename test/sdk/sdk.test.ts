import assert from 'node:assert/strict';
import { createReadStream, readFileSync } from 'node:fs';
import { after, before, describe, it } from 'node:test';
import { collect, LedgerRecon, LedgerReconError, sessionAccessToken } from '../../sdk/src/index.ts';
import { createTestClient, createTestOrganization, startTestServer, storeKinds, type TestOrganization, type TestServer } from '../../support/harness.ts';
import { freePort } from '../../support/processes.ts';
import { eventually, startReceiver, verify } from '../../support/receiver.ts';
import { countingFetch, publishedInterfaceProxy } from './support.ts';

/**
 * The SDK against the real server (SPEC §10): tokens shared and renewed, paging by cursor and by
 * offset behind a server without cursors, retries of a real 429, idempotent retries of writes,
 * typed errors, uploads of every import format, the event feed and webhook endpoints.
 */

function clientOf(server: TestServer, organization: TestOrganization, options: Partial<ConstructorParameters<typeof LedgerRecon>[0]> = {}) {
  return new LedgerRecon({
    baseUrl: server.baseUrl,
    clientId: organization.clientId,
    clientSecret: organization.clientSecret,
    audience: server.config.audience,
    ...options,
  });
}

async function newDataset(recon: LedgerRecon, name = 'Account'): Promise<string> {
  const source = await recon.sources.create({ name: `Bank ${name}` });
  const dataset = await recon.datasets.create(source.id, { name, columns: [] });
  return dataset.id;
}

function records(count: number, prefix = 'T') {
  const startMs = Date.UTC(2024, 0, 1);
  return Array.from({ length: count }, (_, index) => ({
    externalId: `${prefix}${index}`,
    timestamp: startMs + index * 60_000,
    description: `payment ${index}`,
    amount: `${(index % 997) + 1}.${String(index % 100).padStart(2, '0')}`,
    currency: 'EUR',
  }));
}

for (const kind of storeKinds()) {
  describe(`SDK (${kind})`, () => {
    let server: TestServer;
    let organization: TestOrganization;

    before(async () => {
      // Private targets allowed: the webhook test's receiver listens on loopback.
      server = await startTestServer(kind, { webhookAllowPrivateTargets: true });
      organization = await createTestOrganization(server);
    });
    after(() => server.close());

    it('shares one token request among 50 concurrent calls and finds the organization in the token', async () => {
      const counting = countingFetch();
      const recon = clientOf(server, organization, { fetch: counting.fetch });
      const answers = await Promise.all(Array.from({ length: 50 }, () => recon.sources.list()));
      assert.equal(answers.length, 50);
      assert.equal(counting.tokenRequests(), 1);
      assert.equal(await recon.orgId(), organization.orgId);
    });

    it('renews the token before it expires, and once when the server refuses it', async () => {
      const counting = countingFetch();
      // Tokens live TOKEN_TTL_SECONDS (at least 60 s); renewing 59.5 s early makes one old after half a second.
      const early = clientOf(server, organization, { fetch: counting.fetch, tokenRenewBeforeExpirySeconds: server.config.tokenTtlSeconds - 0.5 });
      await early.sources.list();
      await early.sources.list();
      assert.equal(counting.tokenRequests(), 1);
      await new Promise((resolve) => setTimeout(resolve, 700));
      await early.sources.list();
      assert.equal(counting.tokenRequests(), 2);

      // A token the server does not accept: the SDK renews it once and tries the call once more.
      const tokens = ['not-a-valid-token', organization.token];
      let asked = 0;
      const refused = new LedgerRecon({
        baseUrl: server.baseUrl,
        orgId: organization.orgId,
        getAccessToken: async () => ({ accessToken: tokens[Math.min(asked++, 1)]!, expiresInSeconds: 3600 }),
      });
      assert.ok(Array.isArray(await refused.sources.list()));
      assert.equal(asked, 2);

      // Always refused: renewed once, then the 401 is the answer, typed.
      const hopeless = new LedgerRecon({
        baseUrl: server.baseUrl,
        orgId: organization.orgId,
        getAccessToken: async () => ({ accessToken: 'bad', expiresInSeconds: 3600 }),
      });
      const error = await hopeless.sources.list().catch((caught: unknown) => caught);
      assert.ok(error instanceof LedgerReconError);
      assert.equal(error.code, 401);
    });

    it('pages through 10,000 transactions by cursor, and by offset behind a server that sends no cursor', async () => {
      const recon = clientOf(server, organization);
      const datasetId = await newDataset(recon, 'Ten thousand');
      const all = records(10_000);
      for (let start = 0; start < all.length; start += 2_500) await recon.datasets.ingest(datasetId, { records: all.slice(start, start + 2_500) });

      const counting = countingFetch();
      const byCursor = clientOf(server, organization, { fetch: counting.fetch, pageSize: 1000 });
      const seen: string[] = [];
      for await (const transaction of byCursor.transactions.list({ datasetId })) seen.push(transaction.id);
      assert.equal(seen.length, 10_000);
      assert.equal(new Set(seen).size, 10_000);
      const queries = counting.calls.filter((call) => call.url.endsWith('/transactions'));
      assert.equal(queries.length, 10);

      const proxy = await publishedInterfaceProxy(server.baseUrl);
      try {
        const proxyCounting = countingFetch();
        const published = new LedgerRecon({
          baseUrl: proxy.url,
          tokenUrl: `${proxy.url}/oauth/token`,
          audience: server.config.audience,
          orgId: organization.orgId,
          clientId: organization.clientId,
          clientSecret: organization.clientSecret,
          pageSize: 999,
          fetch: proxyCounting.fetch,
        });
        const byOffset: string[] = [];
        for await (const transaction of published.transactions.list({ datasetId })) byOffset.push(transaction.id);
        assert.deepEqual(byOffset, seen, 'the same transactions in the same order by offset as by cursor');
        // 10,000 / 999: ten full pages and one of 10 records, the last (a short page ends the list).
        assert.equal(proxyCounting.calls.filter((call) => call.url.endsWith('/transactions')).length, 11);
        // A search and a time range go through unchanged.
        const filtered = await collect(
          published.transactions.list({ datasetId, search: [{ path: 'description', search: { type: 'string', value: 'payment 999', exact: true } }] }),
        );
        assert.deepEqual(
          filtered.map((transaction) => transaction.description),
          ['payment 999'],
        );
      } finally {
        await proxy.close();
      }
    });

    it('retries a real 429 after the Retry-After the server gave', async () => {
      const limited = await startTestServer(kind, { apiRequestsPerMinute: 30 });
      try {
        const limitedOrganization = await createTestOrganization(limited);
        const counting = countingFetch();
        const recon = new LedgerRecon({
          baseUrl: limited.baseUrl,
          clientId: limitedOrganization.clientId,
          clientSecret: limitedOrganization.clientSecret,
          fetch: counting.fetch,
        });
        const startedMs = Date.now();
        for (let call = 0; call < 32; call += 1) await recon.sources.list();
        const refusals = counting.calls.filter((entry) => entry.status === 429);
        assert.ok(refusals.length >= 1, 'the server refused at least one call');
        // 30 a minute refills one every 2 s: Retry-After 2, waited, then answered.
        assert.ok(Date.now() - startedMs >= 2_000);
        assert.equal(counting.calls.filter((entry) => entry.url.endsWith('/sources') && entry.status === 200).length, 32);

        // With retries off, the 429 is the answer, typed, with the wait.
        const impatient = new LedgerRecon({
          baseUrl: limited.baseUrl,
          clientId: limitedOrganization.clientId,
          clientSecret: limitedOrganization.clientSecret,
          retry: false,
        });
        let error: unknown;
        for (let call = 0; call < 40 && error === undefined; call += 1)
          error = await impatient.sources.list().then(
            () => undefined,
            (caught: unknown) => caught,
          );
        assert.ok(error instanceof LedgerReconError);
        assert.equal(error.code, 429);
        assert.ok((error.retryAfterSeconds ?? 0) >= 1);
      } finally {
        await limited.close();
      }
    });

    it('retries a write whose answer was lost with the same Idempotency-Key: the server makes it once', async () => {
      const keys: string[] = [];
      let lost = false;
      const losingFetch: typeof fetch = async (input, init) => {
        const response = await fetch(input, init);
        if (String(input).endsWith('/sources') && init?.method === 'POST') {
          keys.push(new Headers(init.headers).get('idempotency-key') ?? '');
          if (!lost) {
            lost = true;
            // The server did the write; the answer never reaches the caller.
            await response.body?.cancel();
            throw new TypeError('fetch failed', { cause: Object.assign(new Error('socket hang up'), { code: 'ECONNRESET' }) });
          }
        }
        return response;
      };
      const recon = clientOf(server, organization, { fetch: losingFetch, retry: { baseDelayMs: 10 } });
      const name = `Once ${Date.now()}`;
      const created = await recon.sources.create({ name });
      assert.equal(keys.length, 2);
      assert.equal(keys[0], keys[1]);
      assert.match(keys[0]!, /^[0-9a-f-]{36}$/);
      const sources = await clientOf(server, organization).sources.list();
      assert.deepEqual(
        sources.filter((source) => source.name === name).map((source) => source.id),
        [created.id],
      );

      // Each logical call has its own key.
      const second = await clientOf(server, organization).sources.create({ name: `${name} again` });
      assert.notEqual(second.id, created.id);
    });

    it('throws typed errors for 400, 401, 403, 404 and 409, and network errors that name the URL and the cause', async () => {
      const recon = clientOf(server, organization);
      const datasetId = await newDataset(recon, 'Errors');
      const failure = (promise: Promise<unknown>) =>
        promise.then(
          () => assert.fail('expected an error'),
          (caught: unknown) => caught as LedgerReconError,
        );

      const badRequest = await failure(collect(recon.transactions.list({ datasetId, search: [{ path: 'nope', search: { type: 'string', value: 'x' } }] })));
      assert.ok(badRequest instanceof LedgerReconError);
      assert.equal(badRequest.code, 400);
      assert.equal(badRequest.status, 'Bad Request');
      assert.match(badRequest.request ?? '', /.+/);
      assert.equal(badRequest.details[0]?.path, '/search/0/path');
      assert.match(badRequest.message, /nope/);

      const unauthorized = await failure(clientOf(server, organization, { clientSecret: 'wrong' }).sources.list());
      assert.equal(unauthorized.code, 401);
      assert.equal(unauthorized.error, 'invalid_client');
      assert.match(unauthorized.url, /\/oauth\/token$/);

      const viewer = await createTestClient(server, organization.orgId, 'View-only');
      const forbidden = await failure(clientOf(server, viewer).sources.create({ name: 'not allowed' }));
      assert.equal(forbidden.code, 403);

      const notFound = await failure(recon.transactions.get('00000000-0000-4000-8000-000000000000'));
      assert.equal(notFound.code, 404);
      assert.ok(notFound.isNotFound);

      // A run with no rule to run is a conflict with the state of the organization.
      const conflict = await failure(recon.runs.start({ mode: 'dry-run' }));
      assert.equal(conflict.code, 409);
      assert.match(conflict.message, /no enabled rule/);
      assert.equal(conflict.method, 'POST');

      // An Idempotency-Key reused for a different write is refused, not replayed.
      const key = `reused-${Date.now()}`;
      await recon.sources.create({ name: `Keyed ${key}` }, { idempotencyKey: key });
      const reused = await failure(recon.sources.create({ name: `Other ${key}` }, { idempotencyKey: key }));
      assert.equal(reused.code, 422);
      assert.match(reused.message, /Idempotency-Key/i);

      const closedPort = await freePort();
      const nowhere = new LedgerRecon({
        baseUrl: `http://127.0.0.1:${closedPort}`,
        clientId: 'x',
        clientSecret: 'y',
        retry: { maxAttempts: 2, baseDelayMs: 1 },
      });
      const network = await failure(nowhere.sources.list());
      assert.equal(network.code, 0);
      assert.ok(network.isNetworkError);
      assert.ok(network.message.includes(`http://127.0.0.1:${closedPort}/oauth/token`), network.message);
      assert.match(network.message, /ECONNREFUSED/);
      assert.ok(network.cause instanceof Error);
      assert.deepEqual(JSON.parse(JSON.stringify(network)).code, 0);
    });

    it('invites a person and acts for them through their session, with their role', async () => {
      const recon = clientOf(server, organization);
      const { invitationUrl } = await recon.users.invite({ email: `person-${Date.now()}@example.com`, role: 'View-only' });
      const secret = new URL(invitationUrl).pathname.split('/').pop()!;
      const accepted = await fetch(`${server.baseUrl}/auth/invitations/${secret}/accept`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', origin: server.baseUrl },
        body: JSON.stringify({ password: 'a long enough passphrase' }),
      });
      assert.equal(accepted.status, 200);
      const cookie = accepted.headers.get('set-cookie')!.split(';')[0]!;
      // What a browser does on the same origin: the cookie goes along by itself.
      const browserFetch: typeof fetch = (input, init) =>
        fetch(input, { ...init, headers: { ...(init?.headers as Record<string, string>), cookie, origin: server.baseUrl } });
      const person = new LedgerRecon({ baseUrl: server.baseUrl, getAccessToken: sessionAccessToken(server.baseUrl, browserFetch) });
      assert.equal(await person.orgId(), organization.orgId);
      assert.ok(Array.isArray(await person.sources.list()));
      const refused = await person.sources.create({ name: 'not for a viewer' }).catch((caught: unknown) => caught);
      assert.ok(refused instanceof LedgerReconError);
      assert.equal(refused.code, 403);
      const listed = await recon.users.list();
      assert.ok(listed.users.some((user) => user.role === 'View-only'));
    });

    it('reads the event feed by cursor: every page until hasMore is false, then only what happened since, by type', async () => {
      const recon = clientOf(server, organization);
      // The end of the feed as it is now (null while it is empty): the checks below see only this test's events.
      let end = await recon.events.page({ limit: 1000 });
      while (end.hasMore) end = await recon.events.page({ cursor: end.nextCursor!, limit: 1000 });
      const kept = end.nextCursor ?? undefined;

      const datasetId = await newDataset(recon, 'Events');
      const otherId = await newDataset(recon, 'Events other side');
      await recon.datasets.ingest(datasetId, { records: records(3, 'E') });
      await recon.datasets.ingest(otherId, { records: records(3, 'F') });
      const [origin] = await collect(recon.transactions.list({ datasetId }), 1);
      const [target] = await collect(recon.transactions.list({ datasetId: otherId }), 1);
      await recon.matches.create({ links: [{ originId: origin!.id, targetId: target!.id }] });

      const counting = countingFetch();
      const paged = clientOf(server, organization, { fetch: counting.fetch, pageSize: 1 });
      const since = await collect(paged.events.list({ cursor: kept }));
      assert.deepEqual(since.map((entry) => entry.type).sort(), ['match_group.created', 'transaction.status_changed', 'transaction.status_changed']);
      // One event a page: three pages with more to come, and the third says there is no more.
      assert.equal(counting.calls.filter((call) => call.url.includes('/events')).length, 3);

      const statusChanges = await collect(recon.events.list({ cursor: kept, type: ['transaction.status_changed'] }));
      assert.deepEqual(new Set(statusChanges.map((entry) => entry.data.transactionId)), new Set([origin!.id, target!.id]));
      const last = await recon.events.page({ cursor: kept, limit: 1000 });
      assert.equal(last.hasMore, false);
      assert.deepEqual((await recon.events.page({ cursor: last.nextCursor! })).events, [], 'nothing new since the last page');

      const refused = await recon.events.page({ type: 'no.such_type' }).catch((caught: unknown) => caught);
      assert.ok(refused instanceof LedgerReconError);
      assert.equal(refused.code, 400);
      assert.equal(refused.details[0]?.path, '/querystring/type');
    });

    it('manages a webhook endpoint: signed test messages verified with the standard library, deliveries with attempts, redelivery, rotation, disabling', async () => {
      const receiver = await startReceiver();
      try {
        const keys: string[] = [];
        const keyRecordingFetch: typeof fetch = (input, init) => {
          if (init?.method !== undefined && init.method !== 'GET' && String(input).includes('/webhook-endpoints'))
            keys.push(new Headers(init.headers).get('idempotency-key') ?? '');
          return fetch(input, init);
        };
        const recon = clientOf(server, organization, { fetch: keyRecordingFetch });
        const created = await recon.webhookEndpoints.create({
          url: `${receiver.url}/hooks`,
          description: 'ERP sync',
          eventTypes: ['run.completed', 'import.failed'],
        });
        assert.match(created.secret, /^whsec_/);
        assert.deepEqual(
          [created.description, created.eventTypes, created.enabled, created.disabledReason],
          ['ERP sync', ['import.failed', 'run.completed'], true, null],
        );
        const listed = await recon.webhookEndpoints.list();
        assert.deepEqual(
          listed.map((entry) => entry.id),
          [created.id],
        );
        assert.ok(!JSON.stringify(listed).includes(created.secret), 'the secret is never listed');
        assert.equal((await recon.webhookEndpoints.get(created.id)).url, `${receiver.url}/hooks`);

        /** The delivery with its attempts once it has succeeded; null before. */
        const succeeded = async (deliveryId: string) => {
          const current = await recon.webhookEndpoints.delivery(created.id, deliveryId);
          return current.status === 'succeeded' ? current : null;
        };
        const test = await recon.webhookEndpoints.sendTest(created.id);
        assert.equal(test.status, 'pending');
        const delivered = await eventually(() => succeeded(test.id), 'the test message delivered');
        assert.equal(delivered.attemptList.length, 1);
        assert.equal(delivered.attemptList[0]!.responseStatus, 204);
        assert.equal(receiver.received.length, 1);
        assert.equal(verify(created.secret, receiver.received[0]!).type, 'webhook.test');
        assert.equal(receiver.received[0]!.id, test.messageId);

        const redelivered = await recon.webhookEndpoints.redeliver(created.id, test.id);
        assert.equal(redelivered.id, test.id);
        await eventually(() => receiver.received.length === 2, 'the redelivery');
        assert.equal(receiver.received[1]!.id, test.messageId, 'the same webhook-id again');
        await eventually(() => succeeded(test.id), 'the redelivery recorded');

        const rotated = await recon.webhookEndpoints.rotateSecret(created.id);
        assert.match(rotated.secret, /^whsec_/);
        assert.notEqual(rotated.secret, created.secret);
        const overlapHours = (Date.parse(rotated.previousSecretExpiresAt) - Date.now()) / 3_600_000;
        assert.ok(overlapHours > 23.9 && overlapHours <= 24, `${overlapHours} hours`);
        const second = await recon.webhookEndpoints.sendTest(created.id);
        await eventually(() => receiver.received.length === 3, 'the test message after the rotation');
        // Both secrets verify it during the overlap.
        assert.equal(verify(rotated.secret, receiver.received[2]!).type, 'webhook.test');
        assert.equal(verify(created.secret, receiver.received[2]!).type, 'webhook.test');

        await eventually(() => succeeded(second.id), 'the second test recorded');
        const all = await collect(clientOf(server, organization, { pageSize: 1 }).webhookEndpoints.deliveries(created.id));
        assert.deepEqual(
          all.map((entry) => entry.id),
          [second.id, test.id],
          'newest first, across pages of one',
        );
        assert.deepEqual(
          (await collect(recon.webhookEndpoints.deliveries(created.id, { status: 'failed' }))).map((entry) => entry.id),
          [],
        );

        const disabled = await recon.webhookEndpoints.update(created.id, { enabled: false, description: 'paused' });
        assert.deepEqual([disabled.enabled, disabled.disabledReason, disabled.description], [false, 'requested', 'paused']);
        assert.equal((await recon.webhookEndpoints.update(created.id, { enabled: true })).disabledReason, null);

        const viewer = await createTestClient(server, organization.orgId, 'View-only');
        const forbidden = await clientOf(server, viewer)
          .webhookEndpoints.list()
          .catch((caught: unknown) => caught);
        assert.ok(forbidden instanceof LedgerReconError);
        assert.equal(forbidden.code, 403);

        const badUrl = await recon.webhookEndpoints.create({ url: 'not a url' }).catch((caught: unknown) => caught);
        assert.ok(badUrl instanceof LedgerReconError);
        assert.equal(badUrl.code, 400);
        assert.equal(badUrl.details[0]?.path, '/body/url');

        await recon.webhookEndpoints.delete(created.id);
        const gone = await recon.webhookEndpoints.get(created.id).catch((caught: unknown) => caught);
        assert.ok(gone instanceof LedgerReconError && gone.isNotFound);
        // create, sendTest, redeliver, rotateSecret, sendTest, update ×2, create (refused), delete: each its own key.
        assert.equal(keys.length, 9);
        assert.ok(keys.every((key) => /^[0-9a-f-]{36}$/.test(key)));
        assert.equal(new Set(keys).size, keys.length);
      } finally {
        await receiver.close();
      }
    });

    it('uploads every import format, from a path, a Blob, bytes and a stream, with an inline mapping and with progress', async () => {
      const recon = clientOf(server, organization);
      const cases: [string, string][] = [
        ['camt.053/genkgo-v02-multi-statement.xml', 'camt.053'],
        ['camt.052/written-v08-two-reports.xml', 'camt.052'],
        ['camt.054/written-v08-three-notifications.xml', 'camt.054'],
        ['mt940/abn-amro-unstructured.sta', 'mt940'],
        ['mt942/two-reports-crlf.sta', 'mt942'],
        ['bai2/spec-section3.bai2', 'bai2'],
        ['ofx/bank-and-card-2x.ofx', 'ofx'],
      ];
      for (const [index, [file, format]] of cases.entries()) {
        const path = `test/fixtures/imports/${file}`;
        const bytes = readFileSync(path);
        const datasetId = await newDataset(recon, `Import ${index}`);
        const inputs = [path, new Blob([bytes]), new Uint8Array(bytes), createReadStream(path)];
        const input = inputs[index % inputs.length]!;
        const progress: number[] = [];
        const report = await recon.imports.upload(datasetId, input, { onUploadProgress: ({ bytesSent }) => progress.push(bytesSent) });
        assert.equal(report.status, 'completed', `${file}: ${JSON.stringify(report.error)}`);
        assert.equal(report.format, format, file);
        assert.ok(report.inserted > 0, file);
        assert.equal(progress.at(-1), bytes.length, `${file}: the progress ends at the file's size`);
        const stored = await collect(recon.transactions.list({ datasetId }));
        assert.equal(stored.length, report.inserted, file);
        // The same file again adds nothing (idempotent by content).
        const again = await recon.imports.upload(datasetId, path);
        assert.equal(again.inserted, 0);
      }

      // CSV with an inline mapping (multipart), asynchronously, followed to the end.
      const datasetId = await newDataset(recon, 'CSV');
      const mapping = JSON.parse(readFileSync('test/fixtures/imports/csv/ing-nl.csv.mapping.json', 'utf8'));
      const started = await recon.imports.upload(datasetId, 'test/fixtures/imports/csv/ing-nl.csv', { mapping, format: 'csv', respondAsync: true });
      const looks: string[] = [];
      const report = await recon.imports.wait(started.id, { intervalMs: 50, onProgress: (current) => looks.push(current.status) });
      assert.equal(report.status, 'completed', JSON.stringify(report.error));
      assert.equal(report.fileName, 'ing-nl.csv');
      assert.ok(report.inserted > 0);
      assert.equal(looks.at(-1), 'completed');
      const listed = await collect(recon.imports.list({ datasetId }));
      assert.deepEqual(
        listed.map((entry) => entry.id),
        [started.id],
      );
    });

    it("sets a dataset's account, refuses a statement of another account with a typed 409 unless allowed, and undoes an import", async () => {
      const recon = clientOf(server, organization);
      const datasetId = await newDataset(recon, 'Account check');
      const updated = await recon.datasets.update(datasetId, { accountId: 'DE89 3704 0044 0532 0130 00', currency: 'EUR' });
      assert.deepEqual([updated.accountId, updated.currency], ['DE89370400440532013000', 'EUR']);
      const file = 'test/fixtures/imports/mt940/abn-amro-unstructured.sta';
      const refused = await recon.imports.upload(datasetId, file).catch((error: unknown) => error);
      assert.ok(refused instanceof LedgerReconError && refused.code === 409, String(refused));
      assert.match((refused as LedgerReconError).message, /holds the statements of account DE89 3704 0044 0532 0130 00/);
      const report = await recon.imports.upload(datasetId, file, { allowOtherAccount: true });
      assert.ok(report.inserted > 0);

      const preview = await recon.imports.undoPreview(report.id);
      assert.deepEqual([preview.undoable, preview.transactions, preview.matched], [true, report.inserted, 0]);
      const undone = await recon.imports.undo(report.id, { note: 'belongs to another account' });
      assert.deepEqual([undone.removed, undone.import.status], [report.inserted, 'undone']);
      assert.deepEqual(await collect(recon.transactions.list({ datasetId })), []);
      const twice = await recon.imports.undo(report.id).catch((error: unknown) => error);
      assert.ok(twice instanceof LedgerReconError && twice.code === 409);
    });

    it('renames, archives and restores a dataset, renames its source, and reads those changes in the audit trail newest first', async () => {
      const recon = clientOf(server, organization);
      const datasetId = await newDataset(recon, 'Cash box');
      const dataset = await recon.datasets.get(datasetId);
      const renamed = await recon.datasets.update(datasetId, { name: 'Petty cash' });
      assert.equal(renamed.name, 'Petty cash');
      const source = await recon.sources.rename(dataset.sourceId, { name: 'Vault' });
      assert.equal(source.name, 'Vault');
      assert.equal((await recon.datasets.update(datasetId, { archived: true })).status, 'archived');
      assert.ok(!(await recon.datasets.list()).some((listed) => listed.id === datasetId));
      assert.equal((await recon.datasets.list({ includeArchived: true })).find((listed) => listed.id === datasetId)?.status, 'archived');
      assert.equal((await recon.datasets.get(datasetId)).name, 'Petty cash', 'an archived dataset is still found by its id');
      assert.equal((await recon.datasets.update(datasetId, { archived: false })).status, 'active');
      const latest = (await recon.auditEvents.page({ order: 'newest', object: 'dataset', limit: 3 })).events;
      assert.deepEqual(
        latest.map((event) => event.action),
        ['dataset.restored', 'dataset.archived', 'dataset.updated'],
      );
      assert.deepEqual(latest[2]!.after, { datasetId, sourceId: dataset.sourceId, name: 'Petty cash' });
      const sourceEvents = [];
      for await (const event of recon.auditEvents.list({ action: 'source.updated' })) sourceEvents.push(event);
      assert.equal(sourceEvents.at(-1)?.after && (sourceEvents.at(-1)!.after as { name: string }).name, 'Vault');
    });
  });
}
