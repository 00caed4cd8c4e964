import assert from 'node:assert/strict';
import { readdirSync } from 'node:fs';
import { connect } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { createTestOrganization, startTestServer, storeKinds, type TestOrganization, type TestServer } from '../../support/harness.ts';

/**
 * Every answer tells the browser not to guess its content type (X-Content-Type-Options:
 * nosniff), whatever produced it: an operation, an error, a 404, the token endpoint, the web
 * app, a static file, the API documentation, or Node's own refusal of a malformed request. The
 * API documentation at /docs carries a Content-Security-Policy and may not be framed.
 */

/** Writes a raw HTTP request on a socket and returns the head of what the server answers. */
function rawHead(server: TestServer, request: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect(Number(new URL(server.baseUrl).port), '127.0.0.1', () => socket.write(request));
    let answer = '';
    socket.on('data', (chunk) => (answer += chunk.toString('latin1')));
    socket.on('close', () => resolve(answer.split('\r\n\r\n')[0]!.toLowerCase()));
    socket.on('error', reject);
  });
}

for (const kind of storeKinds()) {
  describe(`security headers (${kind})`, () => {
    let server: TestServer;
    let organization: TestOrganization;
    before(async () => {
      server = await startTestServer(kind);
      organization = await createTestOrganization(server);
    });
    after(async () => server.close());

    it('says nosniff on every kind of answer', async () => {
      const asset = readdirSync('web/dist/assets').find((name) => name.endsWith('.js'))!;
      const bearer = { authorization: `Bearer ${organization.token}` };
      const cases: [string, RequestInit & { path: string }, number][] = [
        ['health', { path: '/health' }, 200],
        ['an operation', { path: `/v1/api/${organization.orgId}/sources`, headers: bearer }, 200],
        ['an operation without a token', { path: `/v1/api/${organization.orgId}/sources` }, 401],
        [
          'an invalid body',
          { path: `/v1/api/${organization.orgId}/sources`, method: 'POST', headers: { ...bearer, 'content-type': 'application/json' }, body: '{"name": 5}' },
          400,
        ],
        [
          'a body over the limit',
          {
            path: `/v1/api/${organization.orgId}/sources`,
            method: 'POST',
            headers: { ...bearer, 'content-type': 'application/json' },
            body: 'x'.repeat(2 * 1024 * 1024),
          },
          413,
        ],
        ['an unknown path', { path: '/no/such/thing' }, 404],
        ['a malformed escape in the path', { path: '/v1/api/%zz/sources' }, 400],
        [
          'the token endpoint',
          {
            path: '/oauth/token',
            method: 'POST',
            headers: { 'content-type': 'application/x-www-form-urlencoded' },
            body: `grant_type=client_credentials&client_id=${organization.clientId}&client_secret=${organization.clientSecret}&audience=${encodeURIComponent(server.config.audience)}`,
          },
          200,
        ],
        [
          'a refused token request',
          { path: '/oauth/token', method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: 'grant_type=password' },
          400,
        ],
        ['the signing keys', { path: '/.well-known/jwks.json' }, 200],
        ['the web app', { path: '/sign-in' }, 200],
        ['a file of the web app', { path: `/assets/${asset}` }, 200],
        ['the OpenAPI document', { path: '/openapi.json' }, 200],
        ['the API documentation', { path: '/docs' }, 200],
        ['a file of the API documentation', { path: '/docs/static/swagger-ui.css' }, 200],
        ['the session of nobody', { path: '/auth/session' }, 401],
      ];
      for (const [name, { path, ...init }, status] of cases) {
        const response = await fetch(`${server.baseUrl}${path}`, init);
        await response.arrayBuffer();
        assert.equal(response.status, status, name);
        assert.equal(response.headers.get('x-content-type-options'), 'nosniff', name);
      }
      // Node's own refusal of a request too large to read, written before the application sees it.
      const refused = await rawHead(server, `GET /health HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`);
      assert.match(refused, /^http\/1.1 431 /);
      assert.match(refused, /^x-content-type-options: nosniff$/m);
    });

    it('gives the API documentation a Content-Security-Policy and forbids framing it', async () => {
      for (const path of ['/docs', '/docs/static/swagger-initializer.js', '/docs/json']) {
        const response = await fetch(`${server.baseUrl}${path}`);
        await response.arrayBuffer();
        assert.equal(response.status, 200, path);
        const policy = response.headers.get('content-security-policy') ?? '';
        assert.match(policy, /default-src 'self'/, path);
        assert.match(policy, /script-src 'self';/, path);
        assert.match(policy, /frame-ancestors 'none'/, path);
        assert.doesNotMatch(policy, /unsafe-inline|unsafe-eval/, path);
        assert.equal(response.headers.get('x-frame-options'), 'DENY', path);
      }
    });
  });
}
