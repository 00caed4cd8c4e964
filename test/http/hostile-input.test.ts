import assert from 'node:assert/strict';
import { connect } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { api, createTestOrganization, startTestServer, storeKinds, type TestOrganization, type TestServer } from '../../support/harness.ts';

/**
 * Input that cannot be stored or that a lenient reader would silently change: each is refused
 * at the edge with a 400 naming the field, on both stores, for the API and the token endpoint.
 */

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** Sends raw bytes (a body that fetch would otherwise re-encode) and reads the answer. */
async function rawPost(server: TestServer, token: string, path: string, body: Buffer) {
  const response = await fetch(`${server.baseUrl}${path}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body,
  });
  return { status: response.status, headers: response.headers, body: (await response.json()) as any };
}

/** Writes a raw HTTP request on a socket and returns everything the server answers before closing. */
function rawHttp(server: TestServer, request: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect(Number(new URL(server.baseUrl).port), '127.0.0.1', () => socket.write(request));
    let answer = '';
    socket.on('data', (chunk) => (answer += chunk.toString('latin1')));
    socket.on('close', () => resolve(answer));
    socket.on('error', reject);
  });
}

function assertEnvelope(answer: { status: number; headers: Headers; body: any }, status: number, path?: string) {
  assert.equal(answer.status, status, JSON.stringify(answer.body));
  assert.equal(answer.body.error.code, status);
  assert.equal(answer.body.error.request, answer.headers.get('x-request-id'));
  if (path !== undefined) assert.equal(answer.body.error.details?.[0]?.path, path, JSON.stringify(answer.body));
}

for (const kind of storeKinds()) {
  describe(`hostile input (${kind})`, () => {
    let server: TestServer;
    let organization: TestOrganization;
    let base: string;
    let datasetId: string;

    before(async () => {
      server = await startTestServer(kind);
      organization = await createTestOrganization(server);
      base = `/v1/api/${organization.orgId}`;
      const source = await api(server, organization.token, 'POST', `${base}/sources`, { name: 'Bank' });
      const dataset = await api(server, organization.token, 'POST', `${base}/sources/${source.body.id}/datasets`, {
        name: 'Statement',
        columns: [{ name: 'memo', type: 'string' }],
      });
      datasetId = dataset.body.id;
    });
    after(async () => server.close());

    it('answers a NUL in client_id at the token endpoint with invalid_request, in form and JSON bodies', async () => {
      const audience = encodeURIComponent(server.config.audience);
      for (const [contentType, body] of [
        ['application/x-www-form-urlencoded', `grant_type=client_credentials&client_id=a%00b&client_secret=x&audience=${audience}`],
        ['application/json', `{"grant_type":"client_credentials","client_id":"a\\u0000b","client_secret":"x","audience":"${server.config.audience}"}`],
        ['application/json', `{"grant_type":"client_credentials","client_id":"\\ud800","client_secret":"x","audience":"${server.config.audience}"}`],
      ] as const) {
        const response = await fetch(`${server.baseUrl}/oauth/token`, { method: 'POST', headers: { 'content-type': contentType }, body });
        const answer = (await response.json()) as { error: string; error_description: string };
        assert.equal(response.status, 400, JSON.stringify(answer));
        assert.equal(answer.error, 'invalid_request');
        assert.match(answer.error_description, /parameter "client_id"/);
      }
      const latin1 = await fetch(`${server.baseUrl}/oauth/token`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: Buffer.from([0x61, 0x3d, 0xe4]),
      });
      assert.equal(latin1.status, 400);
      assert.match(((await latin1.json()) as { error_description: string }).error_description, /not valid UTF-8/);
    });

    it('refuses a lone surrogate in any ingested string, naming the record and column', async () => {
      for (const [record, path] of [
        ['{"timestamp":1,"description":"\\ud800"}', '/records/0/description'],
        ['{"timestamp":1,"externalId":"\\udc00x"}', '/records/0/externalId'],
        ['{"timestamp":1,"memo":"ok \\ud83d"}', '/records/0/memo'],
      ] as const) {
        const answer = await api(server, organization.token, 'POST', `${base}/datasets/${datasetId}/transactions`, `{"records":[${record}]}`);
        assertEnvelope(answer, 400, path);
        assert.match(answer.body.error.message, /lone UTF-16 surrogate/);
      }
    });

    it('refuses a search value that is not text instead of failing in the store', async () => {
      for (const value of ['\\udfff\\udfff', 'ß\\udc00\\"']) {
        const answer = await api(
          server,
          organization.token,
          'POST',
          `${base}/transactions`,
          `{"datasetId":"${datasetId}","search":[{"path":"description","search":{"type":"string","value":"${value}"}}]}`,
        );
        assertEnvelope(answer, 400, '/search/0/search/value');
      }
    });

    it('refuses bytes that are not UTF-8 instead of storing U+FFFD, naming the field', async () => {
      const sourceBody = Buffer.concat([Buffer.from('{"name":"Caf'), Buffer.from([0xe9]), Buffer.from('"}')]);
      assertEnvelope(await rawPost(server, organization.token, `${base}/sources`, sourceBody), 400, '/name');
      const clientBody = Buffer.concat([Buffer.from('{"name":"robot '), Buffer.from([0xc3, 0x28]), Buffer.from('","role":"View-only"}')]);
      assertEnvelope(await rawPost(server, organization.token, `${base}/clients`, clientBody), 400, '/name');
      const ingestBody = Buffer.concat([
        Buffer.from('{"records":[{"timestamp":1},{"timestamp":2,"description":"M'),
        Buffer.from([0xfc]),
        Buffer.from('ller"}]}'),
      ]);
      assertEnvelope(await rawPost(server, organization.token, `${base}/datasets/${datasetId}/transactions`, ingestBody), 400, '/records/1/description');
      const sources = await api(server, organization.token, 'GET', `${base}/sources`);
      assert.ok(!JSON.stringify(sources.body).includes('\uFFFD'), 'nothing with a replacement character was stored');
    });

    it('refuses a repeated member name, naming it', async () => {
      const answer = await api(server, organization.token, 'POST', `${base}/transactions`, `{"datasetId":"${datasetId}","limit":5000,"limit":5}`);
      assertEnvelope(answer, 400, '/limit');
      assert.match(answer.body.error.message, /"limit" appears more than once/);
    });

    it('keeps errors small: a 1 MB path gets a short excerpt, and SearchQuery.path is held to its maxLength', async () => {
      const huge = 'p'.repeat(1024 * 1024 - 200);
      const answer = await api(server, organization.token, 'POST', `${base}/transactions`, {
        datasetId,
        search: [{ path: huge, search: { type: 'string', value: 'a' } }],
      });
      assertEnvelope(answer, 400, '/search/0/path');
      assert.ok(JSON.stringify(answer.body).length < 2000, `${JSON.stringify(answer.body).length} characters`);
      const long = await api(server, organization.token, 'POST', `${base}/transactions`, {
        datasetId,
        search: [{ path: 'x'.repeat(201), search: { type: 'string', value: 'a' } }],
      });
      assert.match(long.body.error.message, /must be at most 200 characters/);
      const key = 'k'.repeat(100_000);
      const unknownKey = await api(server, organization.token, 'POST', `${base}/datasets/${datasetId}/transactions`, { records: [{ timestamp: 1, [key]: 1 }] });
      assert.equal(unknownKey.status, 400);
      assert.ok(JSON.stringify(unknownKey.body).length < 3000, `${JSON.stringify(unknownKey.body).length} characters`);
    });

    it('says a body is nested too deeply rather than that it is not JSON', async () => {
      const answer = await api(
        server,
        organization.token,
        'POST',
        `${base}/transactions`,
        `{"datasetId":"${datasetId}","search":[${'['.repeat(5000)}${']'.repeat(5000)}]}`,
      );
      assertEnvelope(answer, 400);
      assert.match(answer.body.error.message, /nested deeper than 32 levels/);
    });

    it('refuses a query string that does not decode, by parameter name', async () => {
      for (const query of ['cursor=%FF', 'cursor=a%00b', 'limit=1&limit=2']) {
        const response = await fetch(`${server.baseUrl}${base}/audit-events?${query}`, { headers: { authorization: `Bearer ${organization.token}` } });
        const answer = { status: response.status, headers: response.headers, body: (await response.json()) as any };
        assertEnvelope(answer, 400, query.startsWith('limit') ? '/querystring/limit' : '/querystring/cursor');
      }
    });

    it("answers Node's own refusals (431, 414, 400) in the API's envelope with X-Request-Id", async () => {
      const cases: [string, number][] = [
        [`GET /health HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`, 431],
        [`GET /health?${'q'.repeat(20_000)} HTTP/1.1\r\nHost: x\r\n\r\n`, 414],
        ['NONSENSE\r\n\r\n', 400],
      ];
      for (const [request, status] of cases) {
        const answer = await rawHttp(server, request);
        const [head, body] = answer.split('\r\n\r\n') as [string, string];
        assert.match(head, new RegExp(`^HTTP/1.1 ${status} `), head);
        const requestId = /x-request-id: (\S+)/i.exec(head)?.[1];
        assert.match(requestId ?? '', UUID);
        const envelope = JSON.parse(body);
        assert.equal(envelope.error.code, status);
        assert.equal(envelope.error.request, requestId);
      }
      const longUrl = await fetch(`${server.baseUrl}/health?${'q'.repeat(9000)}`);
      assert.equal(longUrl.status, 414);
      assert.equal(((await longUrl.json()) as any).error.request, longUrl.headers.get('x-request-id'));
    });
  });
}
