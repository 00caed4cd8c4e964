import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { createRemoteJWKSet, decodeJwt, decodeProtectedHeader, jwtVerify } from 'jose';
import { insertClientSecret } from '../../src/db/repositories/api-clients.ts';
import { secretHashKeyProvider } from '../../src/domain/auth/api-clients.ts';
import { hashClientSecret } from '../../src/domain/auth/secrets.ts';
import {
  api,
  createTestClient,
  createTestOrganization,
  startSecondInstance,
  startTestServer,
  storeKinds,
  type TestOrganization,
  type TestServer,
} from '../../support/harness.ts';

const FAILURE_LIMIT = 4;
const FAILURE_CLIENT_LIMIT = 10;
const FAILURE_WINDOW_SECONDS = 60;
/** Requests sent at once by the parallel guessing tests, and which of them carries the right secret. */
const PARALLEL_ATTEMPTS = 120;
const RIGHT_SECRET_AT = 60;

interface TokenAnswer {
  status: number;
  headers: Headers;
  body: any;
}

/** Sends a raw token request and checks what every answer of the token endpoint must carry. */
async function postToken(
  baseUrl: string,
  body: string,
  contentType: string | null = 'application/x-www-form-urlencoded',
  headers: Record<string, string> = {},
): Promise<TokenAnswer> {
  const response = await fetch(`${baseUrl}/oauth/token`, {
    method: 'POST',
    headers: { ...(contentType ? { 'content-type': contentType } : {}), ...headers },
    body,
  });
  const text = await response.text();
  assert.match(response.headers.get('content-type') ?? '', /^application\/json\b/, `content type of ${text}`);
  assert.equal(response.headers.get('cache-control'), 'no-store');
  assert.equal(response.headers.get('pragma'), 'no-cache');
  return { status: response.status, headers: response.headers, body: JSON.parse(text) };
}

function form(parameters: Record<string, string>): string {
  return new URLSearchParams(parameters).toString();
}

function basic(clientId: string, clientSecret: string): string {
  // RFC 6749 §2.3.1: each part is form-urlencoded, then the pair is base64-encoded.
  const encode = (value: string) => encodeURIComponent(value).replace(/%20/g, '+');
  return `Basic ${Buffer.from(`${encode(clientId)}:${encode(clientSecret)}`).toString('base64')}`;
}

function flipLastCharacter(secret: string): string {
  return secret.slice(0, -1) + (secret.endsWith('A') ? 'B' : 'A');
}

function countStatuses(answers: TokenAnswer[]): Record<number, number> {
  const counts: Record<number, number> = {};
  for (const answer of answers) counts[answer.status] = (counts[answer.status] ?? 0) + 1;
  return counts;
}

function assertError(answer: TokenAnswer, status: number, error: string) {
  assert.equal(answer.status, status, JSON.stringify(answer.body));
  assert.equal(answer.body.error, error, JSON.stringify(answer.body));
  assert.equal(typeof answer.body.error_description, 'string');
  assert.deepEqual(Object.keys(answer.body).sort(), ['error', 'error_description']);
}

for (const kind of storeKinds()) {
  describe(`token endpoint (${kind})`, () => {
    let server: TestServer;
    let organization: TestOrganization;
    let audience: string;
    const credentials = (client: { clientId: string; clientSecret: string }, extra: Record<string, string> = {}) => ({
      grant_type: 'client_credentials',
      client_id: client.clientId,
      client_secret: client.clientSecret,
      audience,
      ...extra,
    });

    before(async () => {
      // The loopback proxy is trusted, so X-Forwarded-For stands for requests from other addresses.
      server = await startTestServer(kind, {
        tokenFailureLimit: FAILURE_LIMIT,
        tokenFailureClientLimit: FAILURE_CLIENT_LIMIT,
        tokenFailureWindowSeconds: FAILURE_WINDOW_SECONDS,
        trustProxy: 'loopback',
      });
      organization = await createTestOrganization(server);
      audience = server.config.audience;
    });
    after(async () => server.close());

    it('issues a token for a form-encoded request, with the published answer', async () => {
      const answer = await postToken(server.baseUrl, form(credentials(organization)));
      assert.equal(answer.status, 200, JSON.stringify(answer.body));
      assert.deepEqual(Object.keys(answer.body).sort(), ['access_token', 'expires_in', 'scope', 'token_type']);
      assert.equal(answer.body.token_type, 'Bearer');
      assert.equal(answer.body.expires_in, 10800);
      assert.equal(answer.body.scope, 'read:data write:data manage:credentials');
      assert.equal(answer.body.access_token.split('.').length, 3);
    });

    it('ignores media type parameters and accepts JSON bodies', async () => {
      for (const contentType of ['application/x-www-form-urlencoded; charset=UTF-8', 'application/x-www-form-urlencoded;charset=utf-8']) {
        const answer = await postToken(server.baseUrl, form(credentials(organization)), contentType);
        assert.equal(answer.status, 200, `${contentType}: ${JSON.stringify(answer.body)}`);
      }
      for (const contentType of ['application/json', 'application/json; charset=utf-8']) {
        const answer = await postToken(server.baseUrl, JSON.stringify(credentials(organization)), contentType);
        assert.equal(answer.status, 200, `${contentType}: ${JSON.stringify(answer.body)}`);
        assert.equal(answer.body.token_type, 'Bearer');
      }
    });

    it('accepts HTTP Basic client authentication and decodes its form-urlencoded parts', async () => {
      const plain = await postToken(server.baseUrl, form({ grant_type: 'client_credentials', audience }), undefined, {
        authorization: basic(organization.clientId, organization.clientSecret),
      });
      assert.equal(plain.status, 200, JSON.stringify(plain.body));

      // Percent-escaped unreserved characters decode to the same secret.
      const escaped = organization.clientSecret.replace(/[a-z]/, (letter) => `%${letter.charCodeAt(0).toString(16).toUpperCase()}`);
      assert.notEqual(escaped, organization.clientSecret);
      const escapedAnswer = await postToken(server.baseUrl, form({ grant_type: 'client_credentials', audience }), undefined, {
        authorization: `Basic ${Buffer.from(`${organization.clientId}:${escaped}`).toString('base64')}`,
      });
      assert.equal(escapedAnswer.status, 200, JSON.stringify(escapedAnswer.body));

      // A secret with characters that must be escaped (":", "+", "%", space, non-ASCII): one a
      // client could be given by an operator who sets secrets by hand.
      const client = await createTestClient(server, organization.orgId, 'View-only');
      const special = 'p@ss:wo+rd %/é&=?';
      const hashKey = await secretHashKeyProvider(server.database, server.config.secretHashKey)();
      await insertClientSecret(server.database, {
        id: randomUUID(),
        organizationId: organization.orgId,
        clientId: client.clientId,
        hash: hashClientSecret(hashKey, special),
        hint: 'x',
      });
      // Written behind the service's back, so the grant's one-second memory of the client is dropped by hand.
      server.services.grant.forgetClient(client.clientId);
      const answer = await postToken(server.baseUrl, form({ grant_type: 'client_credentials', audience }), undefined, {
        authorization: basic(client.clientId, special),
      });
      assert.equal(answer.status, 200, JSON.stringify(answer.body));
      assert.equal(answer.body.scope, 'read:data');
      // The same secret in the body (form-encoded by the form encoding itself) works too.
      const inBody = await postToken(server.baseUrl, form(credentials({ clientId: client.clientId, clientSecret: special })));
      assert.equal(inBody.status, 200, JSON.stringify(inBody.body));
      // Sent without the form-encoding step, "+" would decode to a space: the secret is wrong.
      const unencoded = await postToken(server.baseUrl, form({ grant_type: 'client_credentials', audience }), undefined, {
        authorization: `Basic ${Buffer.from(`${client.clientId}:p@ss:wo+rd`).toString('base64')}`,
      });
      assertError(unencoded, 401, 'invalid_client');
    });

    it('refuses two client authentication methods in one request', async () => {
      const both = await postToken(server.baseUrl, form(credentials(organization)), undefined, {
        authorization: basic(organization.clientId, organization.clientSecret),
      });
      assertError(both, 400, 'invalid_request');
      const secretInBody = await postToken(
        server.baseUrl,
        form({ grant_type: 'client_credentials', audience, client_secret: organization.clientSecret }),
        undefined,
        { authorization: basic(organization.clientId, organization.clientSecret) },
      );
      assertError(secretInBody, 400, 'invalid_request');
      const otherIdInBody = await postToken(server.baseUrl, form({ grant_type: 'client_credentials', audience, client_id: 'someone-else' }), undefined, {
        authorization: basic(organization.clientId, organization.clientSecret),
      });
      assertError(otherIdInBody, 400, 'invalid_request');
      // The same client_id beside Basic identifies rather than authenticates: tolerated.
      const sameIdInBody = await postToken(server.baseUrl, form({ grant_type: 'client_credentials', audience, client_id: organization.clientId }), undefined, {
        authorization: basic(organization.clientId, organization.clientSecret),
      });
      assert.equal(sameIdInBody.status, 200, JSON.stringify(sameIdInBody.body));
    });

    it('refuses repeated parameters, in forms and in JSON', async () => {
      const repeatedForm = `${form(credentials(organization))}&audience=${encodeURIComponent(audience)}`;
      assertError(await postToken(server.baseUrl, repeatedForm), 400, 'invalid_request');
      const repeatedGrantType = `grant_type=client_credentials&${form(credentials(organization))}`;
      assertError(await postToken(server.baseUrl, repeatedGrantType), 400, 'invalid_request');
      const json = JSON.stringify(credentials(organization));
      const repeatedJson = `${json.slice(0, -1)},"audience":${JSON.stringify(audience)}}`;
      const answer = await postToken(server.baseUrl, repeatedJson, 'application/json');
      assertError(answer, 400, 'invalid_request');
      assert.match(answer.body.error_description, /audience/);
      // An escaped spelling of the same name is the same name.
      const escapedJson = `${json.slice(0, -1)},"\\u0061udience":${JSON.stringify(audience)}}`;
      assertError(await postToken(server.baseUrl, escapedJson, 'application/json'), 400, 'invalid_request');
    });

    it('answers a bad content type or a malformed body with 400 invalid_request', async () => {
      const body = form(credentials(organization));
      assertError(await postToken(server.baseUrl, body, 'text/plain'), 400, 'invalid_request');
      assertError(await postToken(server.baseUrl, body, 'multipart/form-data; boundary=x'), 400, 'invalid_request');
      assertError(await postToken(server.baseUrl, '{"grant_type": "client_credentials",', 'application/json'), 400, 'invalid_request');
      assertError(await postToken(server.baseUrl, '["client_credentials"]', 'application/json'), 400, 'invalid_request');
      assertError(await postToken(server.baseUrl, '', 'application/json'), 400, 'invalid_request');
      assertError(
        await postToken(server.baseUrl, JSON.stringify({ ...credentials(organization), audience: [audience] }), 'application/json'),
        400,
        'invalid_request',
      );
      assertError(await postToken(server.baseUrl, `${body}&broken=%E0%A4%A`), 400, 'invalid_request');
      assertError(await postToken(server.baseUrl, `${body}&padding=${'x'.repeat(20_000)}`), 400, 'invalid_request');
      assertError(await postToken(server.baseUrl, '', null), 400, 'invalid_request');
      const getAnswer = await fetch(`${server.baseUrl}/oauth/token`);
      assert.equal(getAnswer.status, 405);
      assert.equal(getAnswer.headers.get('cache-control'), 'no-store');
      assert.equal(((await getAnswer.json()) as { error: string }).error, 'invalid_request');
    });

    it('checks grant_type and audience', async () => {
      const { grant_type: _omitted, ...withoutGrantType } = credentials(organization);
      assertError(await postToken(server.baseUrl, form(withoutGrantType)), 400, 'invalid_request');
      assertError(await postToken(server.baseUrl, form(credentials(organization, { grant_type: 'password' }))), 400, 'unsupported_grant_type');
      assertError(await postToken(server.baseUrl, form(credentials(organization, { grant_type: 'authorization_code' }))), 400, 'unsupported_grant_type');
      const { audience: _missing, ...withoutAudience } = credentials(organization);
      assertError(await postToken(server.baseUrl, form(withoutAudience)), 400, 'invalid_request');
      const wrongAudience = await postToken(server.baseUrl, form(credentials(organization, { audience: 'https://api.example.com/' })));
      assertError(wrongAudience, 403, 'access_denied');
      assert.equal(wrongAudience.headers.get('www-authenticate'), null);
    });

    it('gives one identical 401 invalid_client for unknown client, wrong secret, revoked client and revoked secret', async () => {
      const wrongSecretClient = await createTestClient(server, organization.orgId, 'View-only');
      const revokedClient = await createTestClient(server, organization.orgId, 'View-only');
      const revokedSecretClient = await createTestClient(server, organization.orgId, 'View-only');
      const admin = organization.token;
      assert.equal((await api(server, admin, 'DELETE', `/v1/api/${organization.orgId}/clients/${revokedClient.clientId}`)).status, 204);
      const listing = await api(server, admin, 'GET', `/v1/api/${organization.orgId}/clients`);
      const secretId = listing.body.find((client: { clientId: string }) => client.clientId === revokedSecretClient.clientId).secrets[0].secretId;
      const revokeSecret = await api(server, admin, 'DELETE', `/v1/api/${organization.orgId}/clients/${revokedSecretClient.clientId}/secrets/${secretId}`);
      assert.equal(revokeSecret.status, 204);

      const cases: Record<string, { clientId: string; clientSecret: string }> = {
        unknownClient: { clientId: 'no-such-client-0123456789abcdefgh', clientSecret: organization.clientSecret },
        wrongSecret: { clientId: wrongSecretClient.clientId, clientSecret: flipLastCharacter(wrongSecretClient.clientSecret) },
        revokedClient,
        revokedSecret: revokedSecretClient,
        overlongClientId: { clientId: 'x'.repeat(500), clientSecret: 'whatever' },
      };
      const bodies = new Set<string>();
      for (const [name, client] of Object.entries(cases)) {
        const inBody = await postToken(server.baseUrl, form(credentials(client)));
        assertError(inBody, 401, 'invalid_client');
        assert.equal(inBody.headers.get('www-authenticate'), null, `${name}: no challenge without Basic`);
        bodies.add(JSON.stringify(inBody.body));
        const withBasic = await postToken(server.baseUrl, form({ grant_type: 'client_credentials', audience }), undefined, {
          authorization: basic(client.clientId, client.clientSecret),
        });
        assertError(withBasic, 401, 'invalid_client');
        assert.match(withBasic.headers.get('www-authenticate') ?? '', /^Basic realm="[^"]+"$/, `${name}: Basic challenge`);
        bodies.add(JSON.stringify(withBasic.body));
      }
      assert.equal(bodies.size, 1, `one identical body, got ${[...bodies].join(' | ')}`);
    });

    it('refuses a scope beyond the role with invalid_scope and grants exactly the subset asked for', async () => {
      const viewer = await createTestClient(server, organization.orgId, 'View-only');
      assertError(await postToken(server.baseUrl, form(credentials(viewer, { scope: 'read:data write:data' }))), 400, 'invalid_scope');
      assertError(await postToken(server.baseUrl, form(credentials(viewer, { scope: 'admin' }))), 400, 'invalid_scope');
      const member = await createTestClient(server, organization.orgId, 'Full member');
      assertError(await postToken(server.baseUrl, form(credentials(member, { scope: 'manage:credentials' }))), 400, 'invalid_scope');
      // RFC 6749 §3.3: the token carries exactly the requested subset, and the answer says so.
      const within = await postToken(server.baseUrl, form(credentials(member, { scope: 'read:data' })));
      assert.equal(within.status, 200, JSON.stringify(within.body));
      assert.equal(within.body.scope, 'read:data');
      assert.equal(decodeJwt(within.body.access_token).scope, 'read:data');
      const base = `/v1/api/${organization.orgId}`;
      assert.equal((await api(server, within.body.access_token, 'GET', `${base}/sources`)).status, 200);
      const write = await api(server, within.body.access_token, 'POST', `${base}/sources`, { name: 'not allowed' });
      assert.equal(write.status, 403);
      assert.match(write.headers.get('www-authenticate') ?? '', /insufficient_scope/);
      // Without a scope parameter the token carries every scope of the role.
      const full = await postToken(server.baseUrl, form(credentials(member)));
      assert.equal(full.body.scope, 'read:data write:data');
      const admin = await postToken(server.baseUrl, form(credentials(organization, { scope: 'manage:credentials read:data' })));
      assert.equal(admin.status, 200, JSON.stringify(admin.body));
      assert.equal(admin.body.scope, 'read:data manage:credentials');
    });

    it('throttles a client after too many failures, before looking at the secret', async () => {
      const client = await createTestClient(server, organization.orgId, 'View-only');
      const wrong = { clientId: client.clientId, clientSecret: `${client.clientSecret}x` };
      for (let attempt = 0; attempt < FAILURE_LIMIT; attempt++) {
        assertError(await postToken(server.baseUrl, form(credentials(wrong))), 401, 'invalid_client');
      }
      // Even the right secret is refused while the client is throttled.
      const throttled = await postToken(server.baseUrl, form(credentials(client)));
      assertError(throttled, 429, 'too_many_requests');
      const retryAfter = Number(throttled.headers.get('retry-after'));
      assert.ok(Number.isInteger(retryAfter) && retryAfter >= 1 && retryAfter <= FAILURE_WINDOW_SECONDS, `Retry-After ${retryAfter}`);
      const throttledBasic = await postToken(server.baseUrl, form({ grant_type: 'client_credentials', audience }), undefined, {
        authorization: basic(client.clientId, client.clientSecret),
      });
      assertError(throttledBasic, 429, 'too_many_requests');
      assert.ok(throttledBasic.headers.get('retry-after'));
      // Another client of the same organization is not affected.
      assert.equal((await postToken(server.baseUrl, form(credentials(organization)))).status, 200);

      // When the window has passed the client is let in again (the window is moved into the past).
      await server.database.query(`UPDATE token_failures SET window_start = now() - interval '1 hour' WHERE client_id = $1`, [client.clientId]);
      // This process remembers what it read for up to a second.
      server.clock.advance(1_100);
      assert.equal((await postToken(server.baseUrl, form(credentials(client)))).status, 200);
    });

    it('counts failures per address: a stranger at its limit does not lock the client out of other addresses', async () => {
      const client = await createTestClient(server, organization.orgId, 'View-only');
      const wrong = { clientId: client.clientId, clientSecret: `${client.clientSecret}x` };
      const from = (address: string) => ({ 'x-forwarded-for': address });
      for (let attempt = 0; attempt < FAILURE_LIMIT; attempt++) {
        assertError(await postToken(server.baseUrl, form(credentials(wrong)), undefined, from('203.0.113.66')), 401, 'invalid_client');
      }
      // The attacker's address is throttled, even with the right secret...
      assertError(await postToken(server.baseUrl, form(credentials(client)), undefined, from('203.0.113.66')), 429, 'too_many_requests');
      // ...and the real client, asking from its own address, gets its token at once.
      const real = await postToken(server.baseUrl, form(credentials(client)), undefined, from('198.51.100.7'));
      assert.equal(real.status, 200, JSON.stringify(real.body));
      // An IPv6 attacker cannot multiply its allowance by rotating addresses inside its /64.
      for (let attempt = 0; attempt < FAILURE_LIMIT; attempt++) {
        const address = `2001:db8:aa:bb::${attempt + 1}`;
        assertError(await postToken(server.baseUrl, form(credentials(wrong)), undefined, from(address)), 401, 'invalid_client');
      }
      assertError(await postToken(server.baseUrl, form(credentials(client)), undefined, from('2001:db8:aa:bb::ffff')), 429, 'too_many_requests');
    });

    it('stops a guessing attack spread over many addresses at the per-client ceiling', async () => {
      const client = await createTestClient(server, organization.orgId, 'View-only');
      const wrong = { clientId: client.clientId, clientSecret: `${client.clientSecret}x` };
      for (let attempt = 0; attempt < FAILURE_CLIENT_LIMIT; attempt++) {
        const address = `192.0.2.${attempt + 1}`;
        assertError(await postToken(server.baseUrl, form(credentials(wrong)), undefined, { 'x-forwarded-for': address }), 401, 'invalid_client');
      }
      const stopped = await postToken(server.baseUrl, form(credentials(client)), undefined, { 'x-forwarded-for': '198.51.100.200' });
      assertError(stopped, 429, 'too_many_requests');
      assert.ok(Number(stopped.headers.get('retry-after')) >= 1);
    });

    it('holds the limit under parallel requests: at most the limit of wrong secrets are told apart, and the right one hidden among them gets no token once throttled', async () => {
      const client = await createTestClient(server, organization.orgId, 'View-only');
      const wrong = { clientId: client.clientId, clientSecret: `${client.clientSecret}x` };
      const from = { 'x-forwarded-for': '203.0.113.120' };
      const answers = await Promise.all(
        Array.from({ length: PARALLEL_ATTEMPTS }, (_, index) =>
          postToken(server.baseUrl, form(credentials(index === RIGHT_SECRET_AT ? client : wrong)), undefined, from),
        ),
      );
      const statuses = countStatuses(answers);
      for (const status of Object.keys(statuses)) assert.ok(['200', '401', '429'].includes(status), JSON.stringify(statuses));
      assert.ok((statuses[401] ?? 0) <= FAILURE_LIMIT, `wrong secrets told apart: ${JSON.stringify(statuses)}`);
      assert.ok((statuses[200] ?? 0) <= 1, JSON.stringify(statuses));
      // Throttled now: the right secret, again hidden among wrong ones, is refused with all of them.
      const again = await Promise.all(
        Array.from({ length: PARALLEL_ATTEMPTS }, (_, index) =>
          postToken(server.baseUrl, form(credentials(index === RIGHT_SECRET_AT ? client : wrong)), undefined, from),
        ),
      );
      assert.deepEqual(countStatuses(again), { 429: PARALLEL_ATTEMPTS });
      assertError(again[RIGHT_SECRET_AT]!, 429, 'too_many_requests');
    });

    it('holds the per-client ceiling under parallel requests from many addresses', async () => {
      const client = await createTestClient(server, organization.orgId, 'View-only');
      const wrong = { clientId: client.clientId, clientSecret: `${client.clientSecret}x` };
      // Two attempts per address: no address reaches its own limit, only the client's ceiling counts.
      const answers = await Promise.all(
        Array.from({ length: PARALLEL_ATTEMPTS }, (_, index) =>
          postToken(server.baseUrl, form(credentials(wrong)), undefined, { 'x-forwarded-for': `198.18.${Math.floor(index / 2)}.1` }),
        ),
      );
      const statuses = countStatuses(answers);
      assert.equal(statuses[401], FAILURE_CLIENT_LIMIT, JSON.stringify(statuses));
      assert.equal(statuses[429], PARALLEL_ATTEMPTS - FAILURE_CLIENT_LIMIT, JSON.stringify(statuses));
      assertError(await postToken(server.baseUrl, form(credentials(client)), undefined, { 'x-forwarded-for': '198.51.100.121' }), 429, 'too_many_requests');
    });

    it('ignores X-Forwarded-For from a sender that is not a trusted proxy', async () => {
      const untrusting = await startSecondInstance(server, { trustProxy: false });
      try {
        const client = await createTestClient(server, organization.orgId, 'View-only');
        const wrong = { clientId: client.clientId, clientSecret: `${client.clientSecret}x` };
        // Each failure claims another address, but all come from 127.0.0.1 and count there.
        for (let attempt = 0; attempt < FAILURE_LIMIT; attempt++) {
          const spoofed = { 'x-forwarded-for': `198.18.0.${attempt + 1}` };
          assertError(await postToken(untrusting.baseUrl, form(credentials(wrong)), undefined, spoofed), 401, 'invalid_client');
        }
        assertError(await postToken(untrusting.baseUrl, form(credentials(client)), undefined, { 'x-forwarded-for': '198.18.0.99' }), 429, 'too_many_requests');
      } finally {
        await untrusting.close();
      }
    });

    it('throttles across server instances that share the database', async () => {
      const second = await startSecondInstance(server);
      try {
        const client = await createTestClient(server, organization.orgId, 'View-only');
        const wrong = { clientId: client.clientId, clientSecret: `${client.clientSecret}x` };
        // The second instance has seen the client succeed, so it is in its cache.
        assert.equal((await postToken(second.baseUrl, form(credentials(client)))).status, 200);
        // Failures are spread over both instances and counted together.
        assertError(await postToken(second.baseUrl, form(credentials(wrong))), 401, 'invalid_client');
        for (let attempt = 1; attempt < FAILURE_LIMIT; attempt++) {
          assertError(await postToken(server.baseUrl, form(credentials(wrong))), 401, 'invalid_client');
        }
        assertError(await postToken(server.baseUrl, form(credentials(client))), 429, 'too_many_requests');
        // The second instance re-reads a client's state at least every second.
        server.clock.advance(1_100);
        const onSecond = await postToken(second.baseUrl, form(credentials(client)));
        assertError(onSecond, 429, 'too_many_requests');
        assert.ok(Number(onSecond.headers.get('retry-after')) >= 1);

        // Failures only on the first instance throttle a client the second has never seen.
        const fresh = await createTestClient(server, organization.orgId, 'View-only');
        for (let attempt = 0; attempt < FAILURE_LIMIT; attempt++) {
          const answer = await postToken(server.baseUrl, form(credentials({ clientId: fresh.clientId, clientSecret: 'lrs_wrong' })));
          assertError(answer, 401, 'invalid_client');
        }
        assertError(await postToken(second.baseUrl, form(credentials(fresh))), 429, 'too_many_requests');
      } finally {
        await second.close();
      }
    });

    it('issues RFC 9068 access tokens that verify against the published JWKS', async () => {
      const answer = await postToken(server.baseUrl, form(credentials(organization)));
      const token = answer.body.access_token as string;
      const header = decodeProtectedHeader(token);
      assert.equal(header.typ, 'at+jwt');
      assert.equal(header.alg, 'RS256');
      assert.equal(typeof header.kid, 'string');

      const jwks = createRemoteJWKSet(new URL(`${server.baseUrl}/.well-known/jwks.json`));
      const { payload } = await jwtVerify(token, jwks, {
        issuer: `${server.config.publicUrl}/`,
        audience,
        typ: 'at+jwt',
        algorithms: ['RS256'],
      });
      assert.equal(payload.iss, `${server.baseUrl}/`);
      assert.equal(payload.sub, `${organization.clientId}@clients`);
      assert.equal(payload.aud, audience);
      assert.equal(payload.client_id, organization.clientId);
      assert.equal(payload.azp, organization.clientId);
      assert.equal(payload.gty, 'client-credentials');
      assert.equal(payload.scope, 'read:data write:data manage:credentials');
      assert.equal(payload.org_id, organization.orgId);
      assert.match(String(payload.jti), /^[0-9a-f-]{36}$/);
      assert.equal(payload.exp! - payload.iat!, 10800);
      assert.ok(Math.abs(payload.iat! - Date.now() / 1000) < 5);
    });

    it('publishes RFC 8414 metadata and a JWKS without private parts', async () => {
      const response = await fetch(`${server.baseUrl}/.well-known/oauth-authorization-server`);
      assert.equal(response.status, 200);
      const metadata = (await response.json()) as Record<string, unknown>;
      assert.equal(metadata.issuer, `${server.baseUrl}/`);
      assert.equal(metadata.token_endpoint, `${server.baseUrl}/oauth/token`);
      assert.equal(metadata.jwks_uri, `${server.baseUrl}/.well-known/jwks.json`);
      assert.deepEqual(metadata.grant_types_supported, ['client_credentials']);
      assert.deepEqual(metadata.token_endpoint_auth_methods_supported, ['client_secret_basic', 'client_secret_post']);
      const jwks = (await (await fetch(`${server.baseUrl}/.well-known/jwks.json`)).json()) as { keys: Record<string, unknown>[] };
      assert.ok(jwks.keys.length >= 1);
      for (const key of jwks.keys) {
        assert.equal(key.kty, 'RSA');
        assert.equal(key.alg, 'RS256');
        assert.equal(key.use, 'sig');
        for (const privatePart of ['d', 'p', 'q', 'dp', 'dq', 'qi']) assert.equal(key[privatePart], undefined);
      }
    });

    it('makes the token lifetime configurable (TOKEN_TTL_SECONDS)', async () => {
      const second = await startSecondInstance(server, { tokenTtlSeconds: 120 });
      try {
        const answer = await postToken(second.baseUrl, form(credentials(organization)));
        assert.equal(answer.status, 200, JSON.stringify(answer.body));
        assert.equal(answer.body.expires_in, 120);
        const claims = decodeJwt(answer.body.access_token);
        assert.equal(claims.exp! - claims.iat!, 120);
      } finally {
        await second.close();
      }
    });

    it('rotates signing keys without breaking live tokens', async () => {
      const kidOf = (token: string) => decodeProtectedHeader(token).kid!;
      const publishedKids = async () =>
        ((await (await fetch(`${server.baseUrl}/.well-known/jwks.json`)).json()) as { keys: { kid: string }[] }).keys.map((key) => key.kid);
      const clientA = await createTestClient(server, organization.orgId, 'Administrator');
      const clientB = await createTestClient(server, organization.orgId, 'Administrator');
      const oldToken = clientA.token;
      const oldKid = kidOf(oldToken);

      // The next key is published at once but does not sign before its activation.
      const { kid: newKid } = await server.services.signingKeys.rotate(3600);
      assert.notEqual(newKid, oldKid);
      const published = await publishedKids();
      assert.ok(published.includes(oldKid) && published.includes(newKid), `JWKS ${published.join(',')}`);
      const beforeActivation = await postToken(server.baseUrl, form(credentials(clientB)));
      assert.equal(kidOf(beforeActivation.body.access_token), oldKid);

      // An hour passes: activation times are moved into the past rather than waited for.
      await server.database.query(`UPDATE signing_keys SET activates_at = activates_at - interval '3601 seconds'`);
      await server.services.signingKeys.reload();
      const clientC = await createTestClient(server, organization.orgId, 'Administrator');
      const afterActivation = { body: { access_token: clientC.token } };
      assert.equal(kidOf(afterActivation.body.access_token), newKid);
      // Old tokens still verify: through the API and for an outside verifier using the JWKS.
      assert.ok((await publishedKids()).includes(oldKid));
      assert.equal((await api(server, oldToken, 'GET', `/v1/api/${organization.orgId}/clients`)).status, 200);
      assert.equal((await api(server, afterActivation.body.access_token, 'GET', `/v1/api/${organization.orgId}/clients`)).status, 200);
      const outside = createRemoteJWKSet(new URL(`${server.baseUrl}/.well-known/jwks.json`));
      for (const token of [oldToken, afterActivation.body.access_token]) {
        await jwtVerify(token, outside, { issuer: `${server.baseUrl}/`, audience });
      }
      // A second instance that never saw either token verifies both too.
      const second = await startSecondInstance(server);
      try {
        for (const token of [oldToken, afterActivation.body.access_token]) {
          const answer = await fetch(`${second.baseUrl}/v1/api/${organization.orgId}/clients`, { headers: { authorization: `Bearer ${token}` } });
          assert.equal(answer.status, 200);
        }
      } finally {
        await second.close();
      }

      // Once every token the old key signed has expired, it leaves the JWKS (time moved again).
      await server.database.query(`UPDATE signing_keys SET activates_at = activates_at - make_interval(secs => $1)`, [server.config.tokenTtlSeconds + 3600]);
      await server.services.signingKeys.reload();
      const remaining = await publishedKids();
      assert.ok(!remaining.includes(oldKid), `old key still published: ${remaining.join(',')}`);
      assert.ok(remaining.includes(newKid));
    });
  });
}
