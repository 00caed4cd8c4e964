import assert from 'node:assert/strict';
import { createHmac } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { api, createTestClient, createTestOrganization, startTestServer, storeKinds, type TestOrganization, type TestServer } from '../../support/harness.ts';

const ISO_TIMESTAMP = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z$/;

for (const kind of storeKinds()) {
  describe(`API clients (${kind})`, () => {
    let server: TestServer;
    let organization: TestOrganization;
    let base: string;

    /** A token request answered with the status only (the token endpoint suite checks the rest). */
    async function tokenStatus(clientId: string, clientSecret: string): Promise<{ status: number; token?: string; scope?: string }> {
      const response = await fetch(`${server.baseUrl}/oauth/token`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ grant_type: 'client_credentials', client_id: clientId, client_secret: clientSecret, audience: server.config.audience }),
      });
      const body = (await response.json()) as { access_token?: string; scope?: string };
      return { status: response.status, token: body.access_token, scope: body.scope };
    }

    async function createClient(name: string, role: string) {
      const answer = await api(server, organization.token, 'POST', `${base}/clients`, { name, role });
      assert.equal(answer.status, 201, JSON.stringify(answer.body));
      return answer.body as { clientId: string; clientSecret: string; name: string; role: string; createdAt: string };
    }

    before(async () => {
      server = await startTestServer(kind);
      organization = await createTestOrganization(server);
      base = `/v1/api/${organization.orgId}`;
    });
    after(async () => server.close());

    it('creates a client whose secret is shown once and works at once', async () => {
      const answer = await api(server, organization.token, 'POST', `${base}/clients`, { name: 'ERP export', role: 'Full member' });
      assert.equal(answer.status, 201, JSON.stringify(answer.body));
      assert.deepEqual(Object.keys(answer.body).sort(), ['clientId', 'clientSecret', 'createdAt', 'name', 'role']);
      assert.equal(answer.headers.get('cache-control'), 'no-store');
      const created = answer.body;
      assert.equal(created.name, 'ERP export');
      assert.equal(created.role, 'Full member');
      assert.match(created.createdAt, ISO_TIMESTAMP);
      assert.match(created.clientId, /^[A-Za-z0-9_-]{32}$/);
      // Prefixed, and at least 256 random bits (base64url: 6 bits a character) besides the prefix.
      assert.match(created.clientSecret, /^lrs_[A-Za-z0-9_-]+$/);
      assert.ok((created.clientSecret.length - 4) * 6 >= 256 + 24, `secret too short: ${created.clientSecret.length}`);

      const token = await tokenStatus(created.clientId, created.clientSecret);
      assert.equal(token.status, 200);
      assert.equal(token.scope, 'read:data write:data');

      // The store holds a keyed hash of the secret, never the secret itself.
      const rows = await server.database.query<Record<string, unknown>>(
        `SELECT s.*, c.* FROM api_client_secrets s JOIN api_clients c ON c.id = s.client_id WHERE c.id = $1`,
        [created.clientId],
      );
      assert.equal(rows.length, 1);
      assert.ok(!JSON.stringify(rows).includes(created.clientSecret.slice(4, 20)), 'secret stored in clear');
      // PGlite returns bytea as a Uint8Array, pg as a Buffer.
      const storedHash = Buffer.from(rows[0]!.secret_hash as Uint8Array);
      assert.equal(storedHash.length, 32);
      const plainHash = createHmac('sha256', Buffer.alloc(0)).update(created.clientSecret).digest();
      assert.ok(!storedHash.equals(plainHash));
      const [hashKey] = await server.database.query<{ value: string }>(`SELECT value FROM instance_settings WHERE name = 'secret_hash_key'`);
      assert.ok(hashKey, 'the generated hash key is stored for every process');
      assert.ok(storedHash.equals(createHmac('sha256', Buffer.from(hashKey.value, 'utf8')).update(created.clientSecret).digest()));

      // Two clients never share an id or a secret.
      const another = await createClient('ERP export', 'Full member');
      assert.notEqual(another.clientId, created.clientId);
      assert.notEqual(another.clientSecret, created.clientSecret);
    });

    it('refuses a retried create with the same Idempotency-Key instead of creating a second credential, and never stores the secret', async () => {
      const key = `create-${Date.now()}`;
      const body = { name: 'Idempotent robot', role: 'View-only' };
      const first = await api(server, organization.token, 'POST', `${base}/clients`, body, { 'idempotency-key': key });
      assert.equal(first.status, 201, JSON.stringify(first.body));
      const retry = await api(server, organization.token, 'POST', `${base}/clients`, body, { 'idempotency-key': key });
      assert.equal(retry.status, 409, JSON.stringify(retry.body));
      assert.match(retry.body.error.message, new RegExp(`already created API client ${first.body.clientId}`));
      assert.ok(!JSON.stringify(retry.body).includes(first.body.clientSecret));
      const listing = await api(server, organization.token, 'GET', `${base}/clients`);
      assert.equal(listing.body.filter((client: { name: string }) => client.name === 'Idempotent robot').length, 1);
      const stored = await server.database.query<{ response: unknown }>('SELECT response FROM idempotency_keys WHERE key = $1', [key]);
      assert.equal(stored.length, 1);
      assert.ok(!JSON.stringify(stored[0]!.response).includes(first.body.clientSecret), 'the secret must not be kept under the key');

      const secretKey = `secret-${Date.now()}`;
      const added = await api(server, organization.token, 'POST', `${base}/clients/${first.body.clientId}/secrets`, undefined, {
        'idempotency-key': secretKey,
      });
      assert.equal(added.status, 201, JSON.stringify(added.body));
      const addedAgain = await api(server, organization.token, 'POST', `${base}/clients/${first.body.clientId}/secrets`, undefined, {
        'idempotency-key': secretKey,
      });
      assert.equal(addedAgain.status, 409);
      assert.match(addedAgain.body.error.message, new RegExp(`already added secret ${added.body.secretId}`));
      const secrets = (await api(server, organization.token, 'GET', `${base}/clients`)).body.find(
        (client: { clientId: string }) => client.clientId === first.body.clientId,
      ).secrets;
      assert.equal(secrets.length, 2);
    });

    it('lists clients with secret ids and hints, never secrets', async () => {
      const created = await createClient('Reporting', 'View-only');
      const answer = await api(server, organization.token, 'GET', `${base}/clients`);
      assert.equal(answer.status, 200);
      assert.ok(Array.isArray(answer.body));
      assert.ok(!JSON.stringify(answer.body).includes(created.clientSecret));
      assert.ok(!JSON.stringify(answer.body).includes(organization.clientSecret));
      const listed = answer.body.find((client: { clientId: string }) => client.clientId === created.clientId);
      assert.deepEqual(Object.keys(listed).sort(), ['clientId', 'createdAt', 'createdBy', 'lastUsedAt', 'name', 'revokedAt', 'role', 'secrets']);
      assert.equal(listed.lastUsedAt, null, 'a client that never got a token');
      assert.equal(listed.name, 'Reporting');
      assert.equal(listed.role, 'View-only');
      assert.equal(listed.revokedAt, null);
      assert.equal(listed.createdBy, `client:${organization.clientId}`);
      assert.equal(listed.secrets.length, 1);
      assert.deepEqual(Object.keys(listed.secrets[0]).sort(), ['createdAt', 'hint', 'secretId']);
      assert.equal(listed.secrets[0].hint, created.clientSecret.slice(-4));
      assert.match(listed.secrets[0].secretId, /^[0-9a-f-]{36}$/);
      const bootstrap = answer.body.find((client: { clientId: string }) => client.clientId === organization.clientId);
      assert.equal(bootstrap.role, 'Administrator');
      assert.match(bootstrap.lastUsedAt, ISO_TIMESTAMP, 'the bootstrap client got the token of this suite');
      assert.equal((await tokenStatus(created.clientId, created.clientSecret)).status, 200);
      const again = await api(server, organization.token, 'GET', `${base}/clients`);
      assert.match(again.body.find((client: { clientId: string }) => client.clientId === created.clientId).lastUsedAt, ISO_TIMESTAMP);
    });

    it('holds two active secrets at once, refuses a third, and keeps one working when the other is revoked', async () => {
      const created = await createClient('Rotating', 'View-only');
      const added = await api(server, organization.token, 'POST', `${base}/clients/${created.clientId}/secrets`);
      assert.equal(added.status, 201, JSON.stringify(added.body));
      assert.deepEqual(Object.keys(added.body).sort(), ['clientId', 'clientSecret', 'createdAt', 'secretId']);
      assert.equal(added.body.clientId, created.clientId);
      assert.equal(added.headers.get('cache-control'), 'no-store');
      assert.notEqual(added.body.clientSecret, created.clientSecret);
      assert.equal((await tokenStatus(created.clientId, created.clientSecret)).status, 200);
      assert.equal((await tokenStatus(created.clientId, added.body.clientSecret)).status, 200);

      const third = await api(server, organization.token, 'POST', `${base}/clients/${created.clientId}/secrets`);
      assert.equal(third.status, 409);
      assert.equal(third.body.error.code, 409);
      assert.match(third.body.error.message, /2 active secrets/);

      const listing = await api(server, organization.token, 'GET', `${base}/clients`);
      const secrets = listing.body.find((client: { clientId: string }) => client.clientId === created.clientId).secrets;
      assert.equal(secrets.length, 2);
      const first = secrets.find((secret: { secretId: string }) => secret.secretId !== added.body.secretId);
      assert.equal(first.hint, created.clientSecret.slice(-4));

      const revoked = await api(server, organization.token, 'DELETE', `${base}/clients/${created.clientId}/secrets/${first.secretId}`);
      assert.equal(revoked.status, 204);
      assert.equal((await tokenStatus(created.clientId, created.clientSecret)).status, 401);
      assert.equal((await tokenStatus(created.clientId, added.body.clientSecret)).status, 200);
      // Revoking it again succeeds and changes nothing.
      const again = await api(server, organization.token, 'DELETE', `${base}/clients/${created.clientId}/secrets/${first.secretId}`);
      assert.equal(again.status, 204);
      assert.equal((await tokenStatus(created.clientId, added.body.clientSecret)).status, 200);
      // With one secret revoked, a new one may be added again.
      const replacement = await api(server, organization.token, 'POST', `${base}/clients/${created.clientId}/secrets`);
      assert.equal(replacement.status, 201);
      assert.equal((await tokenStatus(created.clientId, replacement.body.clientSecret)).status, 200);
    });

    it('revokes a client: secrets and tokens stop working; revoking again succeeds; no new secrets', async () => {
      const created = await createClient('Short-lived', 'Full member');
      const issued = await tokenStatus(created.clientId, created.clientSecret);
      assert.equal(issued.status, 200);

      const answer = await api(server, organization.token, 'DELETE', `${base}/clients/${created.clientId}`);
      assert.equal(answer.status, 204);
      assert.equal(answer.body, null);
      assert.equal((await tokenStatus(created.clientId, created.clientSecret)).status, 401);
      // The token is refused by this instance at once (other instances within seconds; see authentication.test.ts).
      const withToken = await api(server, issued.token!, 'GET', `${base}/clients`);
      assert.equal(withToken.status, 401);

      assert.equal((await api(server, organization.token, 'DELETE', `${base}/clients/${created.clientId}`)).status, 204);
      const secret = await api(server, organization.token, 'POST', `${base}/clients/${created.clientId}/secrets`);
      assert.equal(secret.status, 409);

      const active = await api(server, organization.token, 'GET', `${base}/clients`);
      assert.ok(!active.body.some((client: { clientId: string }) => client.clientId === created.clientId));
      const all = await api(server, organization.token, 'GET', `${base}/clients?includeRevoked=true`);
      const listed = all.body.find((client: { clientId: string }) => client.clientId === created.clientId);
      assert.match(listed.revokedAt, ISO_TIMESTAMP);
    });

    it("answers 404 for another organization's clients and secrets, and changes nothing there", async () => {
      const other = await createTestOrganization(server);
      const theirs = await createTestClient(server, other.orgId, 'View-only');
      const theirListing = await api(server, other.token, 'GET', `/v1/api/${other.orgId}/clients`);
      const theirSecretId = theirListing.body.find((client: { clientId: string }) => client.clientId === theirs.clientId).secrets[0].secretId;

      const attempts = [
        await api(server, organization.token, 'DELETE', `${base}/clients/${theirs.clientId}`),
        await api(server, organization.token, 'POST', `${base}/clients/${theirs.clientId}/secrets`),
        await api(server, organization.token, 'DELETE', `${base}/clients/${theirs.clientId}/secrets/${theirSecretId}`),
        await api(server, organization.token, 'DELETE', `${base}/clients/no-such-client`),
        await api(server, organization.token, 'POST', `${base}/clients/no-such-client/secrets`),
      ];
      for (const attempt of attempts) {
        assert.equal(attempt.status, 404, JSON.stringify(attempt.body));
        assert.equal(attempt.body.error.code, 404);
      }
      // A secret id of ours under another client of ours is not found either.
      const mine = await createClient('Mine', 'View-only');
      const ours = await api(server, organization.token, 'DELETE', `${base}/clients/${mine.clientId}/secrets/${theirSecretId}`);
      assert.equal(ours.status, 404);

      assert.equal((await tokenStatus(theirs.clientId, theirs.clientSecret)).status, 200);
      const after = await api(server, other.token, 'GET', `/v1/api/${other.orgId}/clients`);
      assert.deepEqual(after.body, theirListing.body);
      // Their clients are not in our listing.
      const ourListing = await api(server, organization.token, 'GET', `${base}/clients?includeRevoked=true`);
      assert.ok(!ourListing.body.some((client: { clientId: string }) => client.clientId === theirs.clientId || client.clientId === other.clientId));
    });

    it('validates the request strictly and names the field', async () => {
      const cases: [unknown, string][] = [
        [{ name: 'x', role: 'View-only', scope: 'all' }, '/scope'],
        [{ name: 'x', role: 'Owner' }, '/role'],
        [{ role: 'View-only' }, '/name'],
        [{ name: '', role: 'View-only' }, '/name'],
        [{ name: '   ', role: 'View-only' }, '/name'],
        [{ name: 'x'.repeat(201), role: 'View-only' }, '/name'],
        [{ name: 7, role: 'View-only' }, '/name'],
      ];
      for (const [body, path] of cases) {
        const answer = await api(server, organization.token, 'POST', `${base}/clients`, body);
        assert.equal(answer.status, 400, JSON.stringify(body));
        assert.ok(
          answer.body.error.details?.some((detail: { path: string }) => detail.path === path) || answer.body.error.message.includes(path),
          `${JSON.stringify(body)} -> ${JSON.stringify(answer.body)}`,
        );
      }
      const badQuery = await api(server, organization.token, 'GET', `${base}/clients?includeRevoked=yes`);
      assert.equal(badQuery.status, 400);
      const badSecretId = await api(server, organization.token, 'DELETE', `${base}/clients/${organization.clientId}/secrets/not-a-uuid`);
      assert.equal(badSecretId.status, 400);
      const listing = await api(server, organization.token, 'GET', `${base}/clients`);
      assert.ok(!listing.body.some((client: { name: string }) => client.name === 'x' || client.name.trim() === ''));
    });

    it('is for Administrators only', async () => {
      const viewer = await createTestClient(server, organization.orgId, 'View-only');
      const member = await createTestClient(server, organization.orgId, 'Full member');
      for (const client of [viewer, member]) {
        const requests = [
          await api(server, client.token, 'GET', `${base}/clients`),
          await api(server, client.token, 'POST', `${base}/clients`, { name: 'escalate', role: 'Administrator' }),
          await api(server, client.token, 'DELETE', `${base}/clients/${organization.clientId}`),
          await api(server, client.token, 'POST', `${base}/clients/${client.clientId}/secrets`),
        ];
        for (const answer of requests) assert.equal(answer.status, 403);
      }
      // The Administrator client they tried to revoke still works.
      assert.equal((await tokenStatus(organization.clientId, organization.clientSecret)).status, 200);
    });

    it('documents every operation in the OpenAPI document', async () => {
      const document = (await (await fetch(`${server.baseUrl}/openapi.json`)).json()) as {
        paths: Record<string, Record<string, { operationId?: string; summary?: string; tags?: string[]; responses?: Record<string, unknown> }>>;
      };
      const expected: [string, string, string][] = [
        ['/v1/api/{orgId}/clients', 'get', 'listClients'],
        ['/v1/api/{orgId}/clients', 'post', 'createClient'],
        ['/v1/api/{orgId}/clients/{clientId}', 'delete', 'revokeClient'],
        ['/v1/api/{orgId}/clients/{clientId}/secrets', 'post', 'createClientSecret'],
        ['/v1/api/{orgId}/clients/{clientId}/secrets/{secretId}', 'delete', 'revokeClientSecret'],
      ];
      for (const [path, method, operationId] of expected) {
        const operation = document.paths[path]?.[method];
        assert.ok(operation, `${method} ${path} is documented`);
        assert.equal(operation.operationId, operationId);
        assert.ok(operation.summary);
        assert.deepEqual(operation.tags, ['API clients']);
        assert.ok(operation.responses?.['401'] && operation.responses?.['403']);
      }
    });
  });
}
