import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { decodeProtectedHeader } from 'jose';
import { openTestStore, storeKinds } from '../../../support/harness.ts';
import type { Database } from '../../db/database.ts';
import { AppError } from '../../errors.ts';
import { createOrganization } from '../organizations.ts';
import { AccessTokens, type AccessTokenSettings } from './access-tokens.ts';
import { ApiClients, secretHashKeyProvider } from './api-clients.ts';
import { SigningKeys } from './signing-keys.ts';
import { scopesFor, type Scope } from './roles.ts';

/** The real key store, counting how often it is asked for keys: each ask precedes RSA work. */
class CountingSigningKeys extends SigningKeys {
  verificationLookups = 0;
  signingLookups = 0;
  override async verificationKey(kid: string) {
    this.verificationLookups++;
    return super.verificationKey(kid);
  }
  override async signingKey() {
    this.signingLookups++;
    return super.signingKey();
  }
}

const ISSUER = 'http://127.0.0.1:3000/';
const AUDIENCE = 'http://127.0.0.1:3000/v1/api';

for (const kind of storeKinds()) {
  describe(`AccessTokens (${kind})`, () => {
    let database: Database;
    let drop: () => Promise<void>;
    let clients: ApiClients;
    let client: { clientId: string; organizationId: string; scopes: Scope[] };

    function tokens(settings: Partial<AccessTokenSettings> = {}) {
      const keys = new CountingSigningKeys(database, settings.tokenTtlSeconds ?? 3600);
      const accessTokens = new AccessTokens(database, keys, {
        issuer: ISSUER,
        audience: AUDIENCE,
        tokenTtlSeconds: 3600,
        revocationCheckSeconds: 2,
        ...settings,
      });
      return { keys, accessTokens };
    }

    before(async () => {
      ({ database, drop } = await openTestStore(kind));
      await new SigningKeys(database, 3600).ensureKey();
      clients = new ApiClients(database, secretHashKeyProvider(database, null), () => {});
      const organization = await createOrganization(database, clients, { name: 'Unit', adminEmail: 'unit@example.com', createdBy: 'test' });
      client = { clientId: organization.client.clientId, organizationId: organization.orgId, scopes: scopesFor('Administrator') };
    });
    after(async () => drop());

    it('verifies a token once: later verifications of the same token do no signature work', async () => {
      const { keys, accessTokens } = tokens();
      const issued = await accessTokens.issue(client, AUDIENCE);
      const principal = await accessTokens.verify(issued.accessToken);
      assert.deepEqual(principal, {
        organizationId: client.organizationId,
        clientId: client.clientId,
        scopes: ['read:data', 'write:data', 'manage:credentials'],
        actor: `client:${client.clientId}`,
      });
      assert.equal(keys.verificationLookups, 1);
      for (let repeat = 0; repeat < 50; repeat++) assert.deepEqual(await accessTokens.verify(issued.accessToken), principal);
      assert.equal(keys.verificationLookups, 1, 'the signature was verified again');
      // A different token is verified on its own.
      const other = await tokens().accessTokens.issue({ ...client }, AUDIENCE);
      await accessTokens.verify(other.accessToken);
      assert.equal(keys.verificationLookups, 2);
    });

    it('does not remember tokens that failed verification as valid', async () => {
      const { keys, accessTokens } = tokens();
      const issued = await accessTokens.issue(client, AUDIENCE);
      const [header, payload, signature] = issued.accessToken.split('.') as [string, string, string];
      const forged = `${header}.${payload}.${signature.slice(0, -4)}AAAA`;
      for (let attempt = 0; attempt < 2; attempt++) {
        await assert.rejects(accessTokens.verify(forged), (error: unknown) => error instanceof AppError && error.kind === 'invalid_token');
      }
      assert.equal(keys.verificationLookups, 2);
    });

    it('signs once per client and second: a client asking again in the same second gets the same token', async () => {
      const { keys, accessTokens } = tokens();
      // Both requests must fall in the same second; a pair that straddles a boundary is retried.
      let first;
      let second;
      let lookups;
      for (;;) {
        const before = keys.signingLookups;
        const startSecond = Math.floor(Date.now() / 1000);
        first = await accessTokens.issue(client, AUDIENCE);
        second = await accessTokens.issue(client, AUDIENCE);
        lookups = keys.signingLookups - before;
        if (Math.floor(Date.now() / 1000) === startSecond) break;
      }
      assert.equal(second.accessToken, first.accessToken);
      assert.ok(lookups <= 1, `${lookups} signatures for two requests in one second`);
      await new Promise((resolve) => setTimeout(resolve, 1000 - (Date.now() % 1000) + 5));
      const before = keys.signingLookups;
      const later = await accessTokens.issue(client, AUDIENCE);
      assert.notEqual(later.accessToken, first.accessToken);
      assert.equal(keys.signingLookups, before + 1);
      assert.equal(decodeProtectedHeader(later.accessToken).typ, 'at+jwt');
    });

    it('refuses a remembered token once it has expired', async () => {
      const { accessTokens } = tokens({ tokenTtlSeconds: 1 });
      const issued = await accessTokens.issue(client, AUDIENCE);
      await accessTokens.verify(issued.accessToken);
      await new Promise((resolve) => setTimeout(resolve, 1100));
      await assert.rejects(accessTokens.verify(issued.accessToken), (error: unknown) => error instanceof AppError && /expired/.test(error.message));
    });

    it("refuses a revoked client's remembered token once the check interval has passed", async () => {
      const created = await database.transaction((transaction) =>
        clients.create(transaction, { organizationId: client.organizationId, name: 'Doomed', role: 'View-only', createdBy: 'test' }),
      );
      const doomed = { clientId: created.clientId, organizationId: client.organizationId, scopes: scopesFor('View-only') };
      const { accessTokens } = tokens({ revocationCheckSeconds: 1 });
      const issued = await accessTokens.issue(doomed, AUDIENCE);
      assert.deepEqual((await accessTokens.verify(issued.accessToken)).scopes, ['read:data']);
      await clients.revoke(client.organizationId, created.clientId);
      // Within the interval the remembered state may still be used; after it, never.
      await new Promise((resolve) => setTimeout(resolve, 1050));
      await assert.rejects(accessTokens.verify(issued.accessToken), (error: unknown) => error instanceof AppError && /revoked/.test(error.message));
      // A process that is told of the revocation refuses at once.
      const { accessTokens: informed } = tokens({ revocationCheckSeconds: 5 });
      const other = await database.transaction((transaction) =>
        clients.create(transaction, { organizationId: client.organizationId, name: 'Doomed too', role: 'View-only', createdBy: 'test' }),
      );
      const otherToken = await informed.issue({ ...doomed, clientId: other.clientId }, AUDIENCE);
      await informed.verify(otherToken.accessToken);
      await clients.revoke(client.organizationId, other.clientId);
      informed.forgetClient(other.clientId);
      await assert.rejects(informed.verify(otherToken.accessToken), (error: unknown) => error instanceof AppError && error.kind === 'invalid_token');
    });
  });
}
