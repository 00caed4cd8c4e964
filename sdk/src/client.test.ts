import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { collect, LedgerRecon } from './index.ts';

const BASE_URL = 'https://recon.example.com';
const ORG_ID = 'org-1';

interface Sent {
  method: string;
  url: URL;
  idempotencyKey: string | null;
  body: unknown;
}

/**
 * A client whose fetch answers from `answer` (by method and path, query apart) and records every
 * request, so that a test sees the paths, queries, keys and bodies the resources send.
 */
function recordingClient(answer: (method: string, url: URL) => { status?: number; body: unknown }, options: { pageSize?: number } = {}) {
  const sent: Sent[] = [];
  const fetchFunction: typeof fetch = async (input, init) => {
    const url = new URL(String(input));
    const headers = new Headers(init?.headers);
    const method = init?.method ?? 'GET';
    sent.push({ method, url, idempotencyKey: headers.get('idempotency-key'), body: typeof init?.body === 'string' ? JSON.parse(init.body) : undefined });
    const { status = 200, body } = answer(method, url);
    return new Response(body === null ? null : JSON.stringify(body), { status, headers: body === null ? {} : { 'content-type': 'application/json' } });
  };
  const recon = new LedgerRecon({
    baseUrl: BASE_URL,
    orgId: ORG_ID,
    getAccessToken: async () => ({ accessToken: 'token', expiresInSeconds: 3600 }),
    fetch: fetchFunction,
    retry: false,
    ...options,
  });
  return { recon, sent };
}

function event(id: string) {
  return { id, type: 'match_group.created', occurredAt: '2026-01-01T00:00:00.000Z', data: {} };
}

function delivery(id: string, status: 'pending' | 'succeeded' | 'failed' = 'succeeded') {
  return {
    id,
    endpointId: 'endpoint-1',
    messageId: `message-${id}`,
    eventType: 'webhook.test',
    status,
    attempts: 1,
    lastAttemptAt: null,
    lastResponseStatus: 204,
    lastDurationMilliseconds: 12,
    lastError: null,
    nextAttemptAt: null,
    createdAt: '2026-01-01T00:00:00.000Z',
    deliveredAt: null,
  };
}

describe('events', () => {
  it('follows nextCursor until hasMore is false, although the last page gives a cursor too', async () => {
    const pages: Record<string, { events: unknown[]; nextCursor: string; hasMore: boolean }> = {
      start: { events: [event('e1'), event('e2')], nextCursor: 'c2', hasMore: true },
      c2: { events: [event('e3')], nextCursor: 'c3', hasMore: true },
      c3: { events: [event('e4')], nextCursor: 'c4', hasMore: false },
    };
    const { recon, sent } = recordingClient((_method, url) => ({ body: pages[url.searchParams.get('cursor') ?? 'start'] }), { pageSize: 2 });
    const ids = (await collect(recon.events.list({ type: ['match_group.created', 'run.completed'] }))).map((entry) => entry.id);
    assert.deepEqual(ids, ['e1', 'e2', 'e3', 'e4']);
    assert.deepEqual(
      sent.map((request) => request.url.search),
      [
        '?limit=2&type=match_group.created%2Crun.completed',
        '?limit=2&cursor=c2&type=match_group.created%2Crun.completed',
        '?limit=2&cursor=c3&type=match_group.created%2Crun.completed',
      ],
    );
    assert.ok(sent.every((request) => request.method === 'GET' && request.url.pathname === `/v1/api/${ORG_ID}/events` && request.idempotencyKey === null));
  });

  it('starts after a cursor kept from an earlier page, and reads one page as the server sent it', async () => {
    const { recon, sent } = recordingClient(() => ({ body: { events: [event('e9')], nextCursor: 'c9', hasMore: false } }));
    assert.deepEqual(
      (await collect(recon.events.list({ cursor: 'kept' }))).map((entry) => entry.id),
      ['e9'],
    );
    assert.equal(sent[0]!.url.searchParams.get('cursor'), 'kept');

    const page = await recon.events.page({ cursor: 'c9', limit: 10, type: 'run.failed' });
    assert.deepEqual(page, { events: [event('e9')], nextCursor: 'c9', hasMore: false });
    assert.equal(sent[1]!.url.search, '?limit=10&cursor=c9&type=run.failed');
  });
});

describe('webhookEndpoints', () => {
  it('sends each write to its path with a fresh Idempotency-Key, and reads without one', async () => {
    const endpoint = { id: 'endpoint-1', url: 'https://receiver.example.com/hooks' };
    const { recon, sent } = recordingClient((method, url) => {
      if (method === 'DELETE') return { status: 204, body: null };
      if (url.pathname.endsWith('/rotate-secret'))
        return { status: 201, body: { endpointId: 'endpoint-1', secret: 'whsec_new', previousSecretExpiresAt: '2026-01-02T00:00:00.000Z' } };
      if (url.pathname.endsWith('/test') || url.pathname.endsWith('/redeliver')) return { status: 202, body: delivery('d1', 'pending') };
      if (method === 'POST') return { status: 201, body: { ...endpoint, secret: 'whsec_first' } };
      return { body: url.pathname.endsWith('/webhook-endpoints') ? [endpoint] : endpoint };
    });
    const created = await recon.webhookEndpoints.create({ url: endpoint.url, eventTypes: ['run.completed'] });
    assert.equal(created.secret, 'whsec_first');
    await recon.webhookEndpoints.list();
    await recon.webhookEndpoints.get('endpoint-1');
    await recon.webhookEndpoints.update('endpoint-1', { enabled: false });
    assert.equal((await recon.webhookEndpoints.rotateSecret('endpoint-1')).secret, 'whsec_new');
    assert.equal((await recon.webhookEndpoints.sendTest('endpoint-1')).status, 'pending');
    await recon.webhookEndpoints.redeliver('endpoint-1', 'd1', { idempotencyKey: 'mine' });
    assert.equal(await recon.webhookEndpoints.delete('endpoint-1'), undefined);

    assert.deepEqual(
      sent.map((request) => `${request.method} ${request.url.pathname.slice(`/v1/api/${ORG_ID}`.length)}`),
      [
        'POST /webhook-endpoints',
        'GET /webhook-endpoints',
        'GET /webhook-endpoints/endpoint-1',
        'PATCH /webhook-endpoints/endpoint-1',
        'POST /webhook-endpoints/endpoint-1/rotate-secret',
        'POST /webhook-endpoints/endpoint-1/test',
        'POST /webhook-endpoints/endpoint-1/deliveries/d1/redeliver',
        'DELETE /webhook-endpoints/endpoint-1',
      ],
    );
    assert.deepEqual(sent[0]!.body, { url: endpoint.url, eventTypes: ['run.completed'] });
    assert.deepEqual(sent[3]!.body, { enabled: false });
    const writes = sent.filter((request) => request.method !== 'GET');
    assert.ok(
      writes.every((request) => request.idempotencyKey !== null),
      'every write has a key',
    );
    assert.equal(new Set(writes.map((request) => request.idempotencyKey)).size, writes.length, 'one key per call');
    assert.equal(writes.find((request) => request.url.pathname.endsWith('/redeliver'))!.idempotencyKey, 'mine');
    assert.ok(sent.filter((request) => request.method === 'GET').every((request) => request.idempotencyKey === null));
  });

  it('pages through deliveries by nextCursor with a status filter, and reads one delivery with its attempts', async () => {
    const pages: Record<string, { deliveries: unknown[]; nextCursor: string | null }> = {
      start: { deliveries: [delivery('d3'), delivery('d2')], nextCursor: 'after-d2' },
      'after-d2': { deliveries: [delivery('d1')], nextCursor: null },
    };
    const { recon, sent } = recordingClient((_method, url) =>
      url.pathname.endsWith('/deliveries')
        ? { body: pages[url.searchParams.get('cursor') ?? 'start'] }
        : {
            body: {
              ...delivery('d1', 'failed'),
              attemptList: [{ attemptedAt: '2026-01-01T00:00:00.000Z', responseStatus: 500, durationMilliseconds: 30, error: 'the receiver answered 500' }],
            },
          },
    );
    const ids = (await collect(recon.webhookEndpoints.deliveries('endpoint-1', { status: 'succeeded' }))).map((entry) => entry.id);
    assert.deepEqual(ids, ['d3', 'd2', 'd1']);
    assert.deepEqual(
      sent.map((request) => request.url.search),
      ['?limit=200&status=succeeded', '?limit=200&status=succeeded&cursor=after-d2'],
    );
    const one = await recon.webhookEndpoints.delivery('endpoint-1', 'd1');
    assert.equal(one.attemptList[0]!.responseStatus, 500);
    assert.equal(sent[2]!.url.pathname, `/v1/api/${ORG_ID}/webhook-endpoints/endpoint-1/deliveries/d1`);

    const page = await recon.webhookEndpoints.deliveriesPage('endpoint-1', { limit: 1 });
    assert.equal(page.nextCursor, 'after-d2');
    assert.equal(sent[3]!.url.search, '?limit=1');
  });
});
