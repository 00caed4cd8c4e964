import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { SignJWT, base64url, generateKeyPair, type JWTPayload } from 'jose';
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

const INVALID_TOKEN_CHALLENGE = /^Bearer (realm="ledger-recon", )?error="invalid_token", error_description="[^"]+"$/;

for (const kind of storeKinds()) {
  describe(`bearer authentication and authorization (${kind})`, () => {
    let server: TestServer;
    let organization: TestOrganization;
    let clientsPath: string;

    /** Signs a token with the server's own active key, with the claims and header given. */
    async function forge(options: { claims?: JWTPayload; header?: Record<string, unknown>; omit?: string[] } = {}) {
      const { kid, privateKey } = await server.services.signingKeys.signingKey();
      const now = Math.floor(Date.now() / 1000);
      const claims: JWTPayload = {
        iss: `${server.config.publicUrl}/`,
        sub: `${organization.clientId}@clients`,
        aud: server.config.audience,
        iat: now,
        exp: now + 600,
        jti: randomUUID(),
        client_id: organization.clientId,
        azp: organization.clientId,
        gty: 'client-credentials',
        scope: 'read:data write:data manage:credentials',
        org_id: organization.orgId,
        ...options.claims,
      };
      for (const name of options.omit ?? []) delete claims[name];
      return new SignJWT(claims).setProtectedHeader({ alg: 'RS256', typ: 'at+jwt', kid, ...options.header } as never).sign(privateKey);
    }

    async function expectInvalidToken(token: string, reason: string) {
      const answer = await api(server, token, 'GET', clientsPath);
      assert.equal(answer.status, 401, `${reason}: ${JSON.stringify(answer.body)}`);
      assert.match(answer.headers.get('www-authenticate') ?? '', INVALID_TOKEN_CHALLENGE, reason);
      assert.equal(answer.body.error.code, 401);
      assert.equal(answer.body.error.status, 'Unauthorized');
      assert.equal(answer.body.error.request, answer.headers.get('x-request-id'));
      assert.match(answer.headers.get('content-type') ?? '', /^application\/json/);
    }

    before(async () => {
      server = await startTestServer(kind);
      organization = await createTestOrganization(server);
      clientsPath = `/v1/api/${organization.orgId}/clients`;
    });
    after(async () => server.close());

    it('accepts a token in the Authorization header, whatever the case of "Bearer"', async () => {
      assert.equal((await api(server, organization.token, 'GET', clientsPath)).status, 200);
      const lower = await api(server, null, 'GET', clientsPath, undefined, { authorization: `bearer ${organization.token}` });
      assert.equal(lower.status, 200);
    });

    it('answers a missing or non-Bearer Authorization with 401 and a realm challenge', async () => {
      const cases: Record<string, Record<string, string>> = {
        missing: {},
        basic: { authorization: `Basic ${Buffer.from(`${organization.clientId}:${organization.clientSecret}`).toString('base64')}` },
        emptyBearer: { authorization: 'Bearer' },
        otherScheme: { authorization: `Token ${organization.token}` },
      };
      for (const [name, headers] of Object.entries(cases)) {
        const answer = await api(server, null, 'GET', clientsPath, undefined, headers);
        assert.equal(answer.status, 401, name);
        assert.equal(answer.headers.get('www-authenticate'), 'Bearer realm="ledger-recon"', name);
        assert.equal(answer.body.error.code, 401, name);
        assert.equal(answer.body.error.request, answer.headers.get('x-request-id'), name);
      }
    });

    it('never takes the token from the query string or the body', async () => {
      const inQuery = await api(server, null, 'GET', `${clientsPath}?access_token=${organization.token}`);
      assert.equal(inQuery.status, 401);
      assert.equal(inQuery.headers.get('www-authenticate'), 'Bearer realm="ledger-recon"');
      const inBody = await api(server, null, 'POST', clientsPath, { access_token: organization.token, name: 'x', role: 'View-only' });
      assert.equal(inBody.status, 401);
      const inForm = await api(server, null, 'POST', clientsPath, `access_token=${organization.token}`, {
        'content-type': 'application/x-www-form-urlencoded',
      });
      assert.equal(inForm.status, 401);
    });

    it('refuses tokens that are malformed, badly signed, or signed with a wrong algorithm', async () => {
      await expectInvalidToken('not-a-jwt', 'malformed');
      await expectInvalidToken('a.b.c', 'garbage segments');

      const genuine = await forge();
      const [header, payload, signature] = genuine.split('.') as [string, string, string];
      // Same header and claims, signature of another token.
      const other = (await forge({ claims: { jti: randomUUID() } })).split('.')[2]!;
      assert.notEqual(other, signature);
      await expectInvalidToken(`${header}.${payload}.${other}`, 'signature of other content');
      // Claims changed after signing.
      const tampered = base64url.encode(JSON.stringify({ ...JSON.parse(new TextDecoder().decode(base64url.decode(payload))), org_id: randomUUID() }));
      await expectInvalidToken(`${header}.${tampered}.${signature}`, 'tampered claims');

      // Signed by a key that merely claims the server's kid.
      const { kid } = await server.services.signingKeys.signingKey();
      const { privateKey: strangerKey } = await generateKeyPair('RS256');
      const now = Math.floor(Date.now() / 1000);
      const claims = JSON.parse(new TextDecoder().decode(base64url.decode(payload))) as JWTPayload;
      const stranger = await new SignJWT({ ...claims, iat: now }).setProtectedHeader({ alg: 'RS256', typ: 'at+jwt', kid }).sign(strangerKey);
      await expectInvalidToken(stranger, 'foreign key with our kid');

      // HS256 with the public key's modulus as a shared secret, the classic confusion attack, and any HS256.
      const hmac = await new SignJWT(claims)
        .setProtectedHeader({ alg: 'HS256', typ: 'at+jwt', kid })
        .sign(new TextEncoder().encode('a shared secret that nobody should accept'));
      await expectInvalidToken(hmac, 'HS256');
      const unsecured = `${base64url.encode(JSON.stringify({ alg: 'none', typ: 'at+jwt', kid }))}.${payload}.`;
      await expectInvalidToken(unsecured, 'alg none');
      const unsecuredNoKid = `${base64url.encode(JSON.stringify({ alg: 'none' }))}.${payload}.`;
      await expectInvalidToken(unsecuredNoKid, 'alg none without kid');
    });

    it('refuses a wrong typ, iss or aud, an expired token and an unknown kid', async () => {
      await expectInvalidToken(await forge({ header: { typ: 'JWT' } }), 'typ JWT');
      await expectInvalidToken(await forge({ header: { typ: undefined } }), 'no typ');
      await expectInvalidToken(await forge({ claims: { iss: server.config.publicUrl } }), 'iss without trailing slash');
      await expectInvalidToken(await forge({ claims: { iss: 'https://evil.example.com/' } }), 'foreign iss');
      await expectInvalidToken(await forge({ claims: { aud: 'https://other-api.example.com' } }), 'foreign aud');
      const now = Math.floor(Date.now() / 1000);
      await expectInvalidToken(await forge({ claims: { iat: now - 20_000, exp: now - 10 } }), 'expired');
      await expectInvalidToken(await forge({ header: { kid: 'no-such-key' } }), 'unknown kid');
      await expectInvalidToken(await forge({ header: { kid: undefined } }), 'no kid');
      await expectInvalidToken(await forge({ omit: ['exp'] }), 'no exp');
      await expectInvalidToken(await forge({ omit: ['org_id'] }), 'no org_id');
      await expectInvalidToken(await forge({ claims: { scope: 'openid profile' } }), 'no known scope');
      const expired = await api(server, await forge({ claims: { iat: now - 20_000, exp: now - 10 } }), 'GET', clientsPath);
      assert.match(expired.headers.get('www-authenticate') ?? '', /expired/);
      // The forger itself is sound: the same construction with nothing wrong is accepted.
      assert.equal((await api(server, await forge(), 'GET', clientsPath)).status, 200);
    });

    it('refuses, with 403 and no challenge, a token of another organization than the path names', async () => {
      const other = await createTestOrganization(server);
      for (const orgId of [other.orgId, randomUUID(), 'not-a-uuid']) {
        const answer = await api(server, organization.token, 'GET', `/v1/api/${orgId}/clients`);
        assert.equal(answer.status, 403, orgId);
        assert.equal(answer.headers.get('www-authenticate'), null, orgId);
        assert.equal(answer.body.error.code, 403);
        const write = await api(server, organization.token, 'POST', `/v1/api/${orgId}/clients`, { name: 'intruder', role: 'Administrator' });
        assert.equal(write.status, 403, orgId);
      }
      // The other organization's data did not change.
      const theirs = await api(server, other.token, 'GET', `/v1/api/${other.orgId}/clients`);
      assert.deepEqual(
        theirs.body.map((client: { name: string }) => client.name),
        ['Default API client'],
      );
    });

    it('refuses, with 403 insufficient_scope, a role that lacks the permission', async () => {
      const viewer = await createTestClient(server, organization.orgId, 'View-only');
      const member = await createTestClient(server, organization.orgId, 'Full member');
      for (const [name, client] of Object.entries({ viewer, member })) {
        const write = await api(server, client.token, 'POST', clientsPath, { name: 'escalation', role: 'Administrator' });
        assert.equal(write.status, 403, name);
        assert.equal(write.headers.get('www-authenticate'), 'Bearer realm="ledger-recon", error="insufficient_scope", scope="manage:credentials"');
        assert.equal(write.body.error.code, 403);
        const read = await api(server, client.token, 'GET', clientsPath);
        assert.equal(read.status, 403, name);
        assert.match(read.headers.get('www-authenticate') ?? '', /error="insufficient_scope", scope="manage:credentials"/);
      }
      // Authorization is decided before the body is read: an invalid body still gets the 403.
      const invalidBody = await api(server, viewer.token, 'POST', clientsPath, { unknown: true });
      assert.equal(invalidBody.status, 403);
      const listing = await api(server, organization.token, 'GET', clientsPath);
      assert.ok(!listing.body.some((client: { name: string }) => client.name === 'escalation'));
    });

    it("refuses a revoked client's live tokens within 5 seconds, on every instance", async () => {
      const second = await startSecondInstance(server);
      try {
        const doomed = await createTestClient(server, organization.orgId, 'Administrator');
        const doomedPath = `/v1/api/${organization.orgId}/clients`;
        // Both instances have verified (and cached) the token.
        assert.equal((await api(server, doomed.token, 'GET', doomedPath)).status, 200);
        const onSecond = () => fetch(`${second.baseUrl}${doomedPath}`, { headers: { authorization: `Bearer ${doomed.token}` } });
        assert.equal((await onSecond()).status, 200);

        const revokedAt = Date.now();
        assert.equal((await api(server, organization.token, 'DELETE', `${doomedPath}/${doomed.clientId}`)).status, 204);
        // The instance that revoked it refuses at once.
        const here = await api(server, doomed.token, 'GET', doomedPath);
        assert.equal(here.status, 401);
        assert.match(here.headers.get('www-authenticate') ?? '', INVALID_TOKEN_CHALLENGE);
        // The other instance refuses within the revocation check interval.
        let answer = await onSecond();
        while (answer.status === 200 && Date.now() - revokedAt < 6_000) {
          await new Promise((resolve) => setTimeout(resolve, 100));
          answer = await onSecond();
        }
        const elapsed = Date.now() - revokedAt;
        assert.equal(answer.status, 401, `still accepted after ${elapsed} ms`);
        assert.ok(elapsed < 5_000, `took ${elapsed} ms`);
        assert.match(answer.headers.get('www-authenticate') ?? '', /error="invalid_token"/);
        assert.match(answer.headers.get('www-authenticate') ?? '', /revoked/);
      } finally {
        await second.close();
      }
    });

    it('lets an Administrator client revoke itself, after which its own token stops working', async () => {
      const self = await createTestClient(server, organization.orgId, 'Administrator');
      const answer = await api(server, self.token, 'DELETE', `${clientsPath}/${self.clientId}`);
      assert.equal(answer.status, 204);
      const after = await api(server, self.token, 'GET', clientsPath);
      assert.equal(after.status, 401);
      assert.match(after.headers.get('www-authenticate') ?? '', INVALID_TOKEN_CHALLENGE);
    });
  });
}
