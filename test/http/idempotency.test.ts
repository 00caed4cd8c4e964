import assert from 'node:assert/strict';
import { createHash, randomUUID } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { api, createTestClient, createTestOrganization, startTestServer, storeKinds, type TestOrganization, type TestServer } from '../../support/harness.ts';
import { canonicalJson } from '../../src/domain/json.ts';
import { addTransactions, createDataset } from '../../support/recon-fixtures.ts';

for (const kind of storeKinds()) {
  describe(`Idempotency-Key (${kind})`, () => {
    let server: TestServer;
    let organization: TestOrganization;
    before(async () => {
      server = await startTestServer(kind);
      organization = await createTestOrganization(server);
    });
    after(async () => server.close());

    const base = () => `/v1/api/${organization.orgId}`;
    const withKey = (key: string) => ({ 'idempotency-key': key });
    const count = async (sql: string, parameters: unknown[]) => Number((await server.database.query<{ n: number }>(sql, parameters))[0]!.n);

    it('returns the first answer to a retry with the same key and body, and changes nothing', async () => {
      const key = randomUUID();
      const first = await api(server, organization.token, 'POST', `${base()}/sources`, { name: 'Retried bank' }, withKey(key));
      assert.equal(first.status, 201);
      assert.equal(first.headers.get('idempotent-replayed'), null);
      const retry = await api(server, organization.token, 'POST', `${base()}/sources`, { name: 'Retried bank' }, withKey(key));
      assert.equal(retry.status, 201);
      assert.equal(retry.headers.get('idempotent-replayed'), 'true');
      assert.deepEqual(retry.body, first.body);
      assert.equal(await count("SELECT count(*) AS n FROM sources WHERE organization_id = $1 AND name = 'Retried bank'", [organization.orgId]), 1);
    });

    it('refuses the same key with a different request (422) and treats property order as the same request', async () => {
      const key = randomUUID();
      const { sourceId } = await createDataset(server, organization);
      const body = { name: 'Cards', columns: [{ name: 'mcc', type: 'string' }] };
      const first = await api(server, organization.token, 'POST', `${base()}/sources/${sourceId}/datasets`, body, withKey(key));
      assert.equal(first.status, 201);
      const reordered = await api(
        server,
        organization.token,
        'POST',
        `${base()}/sources/${sourceId}/datasets`,
        { columns: [{ type: 'string', name: 'mcc' }], name: 'Cards' },
        withKey(key),
      );
      assert.equal(reordered.status, 201);
      assert.deepEqual(reordered.body, first.body);
      const different = await api(server, organization.token, 'POST', `${base()}/sources/${sourceId}/datasets`, { ...body, name: 'Other' }, withKey(key));
      assert.equal(different.status, 422);
      assert.equal(different.body.error.code, 422);
      assert.match(different.body.error.message, /different request/);
      const otherOperation = await api(server, organization.token, 'POST', `${base()}/sources`, { name: 'Cards' }, withKey(key));
      assert.equal(otherOperation.status, 422);
      const otherClient = await createTestClient(server, organization.orgId, 'Full member');
      const stolen = await api(server, otherClient.token, 'POST', `${base()}/sources/${sourceId}/datasets`, body, withKey(key));
      assert.equal(stolen.status, 422);
      assert.match(stolen.body.error.message, /other credentials/);
      assert.equal(await count('SELECT count(*) AS n FROM datasets WHERE source_id = $1', [sourceId]), 2);
    });

    it('keeps only a keyed digest of the request, so a secret in a body cannot be found again by hashing guesses', async () => {
      const key = randomUUID();
      const path = `${base()}/sources`;
      const body = { name: 'Guessable secret 1234' };
      assert.equal((await api(server, organization.token, 'POST', path, body, withKey(key))).status, 201);
      const [stored] = await server.database.query<{ request_hash: string }>(
        'SELECT request_hash FROM idempotency_keys WHERE organization_id = $1 AND key = $2',
        [organization.orgId, key],
      );
      const plain = createHash('sha256')
        .update(canonicalJson(['POST', path, body]))
        .digest('base64url');
      assert.ok(stored && stored.request_hash.length > 0);
      assert.notEqual(stored.request_hash, plain);
    });

    it('replays a retry of a key claimed before digests were keyed (a plain hash, kept until the key expires)', async () => {
      const key = randomUUID();
      const path = `${base()}/sources`;
      const body = { name: 'Across the upgrade' };
      const first = await api(server, organization.token, 'POST', path, body, withKey(key));
      assert.equal(first.status, 201);
      const plain = createHash('sha256')
        .update(canonicalJson(['POST', path, body]))
        .digest('base64url');
      await server.database.query('UPDATE idempotency_keys SET request_hash = $3 WHERE organization_id = $1 AND key = $2', [organization.orgId, key, plain]);
      const retry = await api(server, organization.token, 'POST', path, body, withKey(key));
      assert.equal(retry.status, 201);
      assert.equal(retry.headers.get('idempotent-replayed'), 'true');
      assert.deepEqual(retry.body, first.body);
      const other = await api(server, organization.token, 'POST', path, { name: 'Another' }, withKey(key));
      assert.equal(other.status, 422);
    });

    it('scopes keys per organization', async () => {
      const key = randomUUID();
      const other = await createTestOrganization(server);
      const mine = await api(server, organization.token, 'POST', `${base()}/sources`, { name: 'Shared key' }, withKey(key));
      const theirs = await api(server, other.token, 'POST', `/v1/api/${other.orgId}/sources`, { name: 'Shared key' }, withKey(key));
      assert.equal(mine.status, 201);
      assert.equal(theirs.status, 201);
      assert.equal(theirs.headers.get('idempotent-replayed'), null);
      assert.notEqual(mine.body.id, theirs.body.id);
    });

    it('bounds the key', async () => {
      const tooLong = await api(server, organization.token, 'POST', `${base()}/sources`, { name: 'x' }, withKey('k'.repeat(256)));
      assert.equal(tooLong.status, 400);
      assert.equal(tooLong.body.error.details[0].path, '/headers/idempotency-key');
      const spaced = await api(server, organization.token, 'POST', `${base()}/sources`, { name: 'x' }, withKey('a key'));
      assert.equal(spaced.status, 400);
      const longest = await api(server, organization.token, 'POST', `${base()}/sources`, { name: 'x' }, withKey('k'.repeat(255)));
      assert.equal(longest.status, 201);
    });

    it('replays ingest, matches, status changes and deletions without doing them twice', async () => {
      const { datasetId } = await createDataset(server, organization);
      const ingestKey = randomUUID();
      const records = {
        records: [
          { timestamp: 1, amount: '5.00' },
          { timestamp: 2, amount: '5.00' },
        ],
      };
      const ingested = await api(server, organization.token, 'POST', `${base()}/datasets/${datasetId}/transactions`, records, withKey(ingestKey));
      const again = await api(server, organization.token, 'POST', `${base()}/datasets/${datasetId}/transactions`, records, withKey(ingestKey));
      assert.deepEqual(ingested.body, { inserted: 2, duplicates: 0 });
      assert.deepEqual(again.body, { inserted: 2, duplicates: 0 });
      assert.equal(
        await count('SELECT count(*) AS n FROM transactions WHERE dataset_id = $1', [datasetId]),
        2,
        'records without externalId were not inserted twice',
      );

      const ids = await addTransactions(server, organization, datasetId, [
        { externalId: 'o', timestamp: 3, amount: '8.00' },
        { externalId: 't', timestamp: 4, amount: '-8.00' },
        { externalId: 's', timestamp: 5, amount: '1.00' },
      ]);
      const matchKey = randomUUID();
      const body = { links: [{ originId: ids.o, targetId: ids.t, amount: '3.00' }] };
      const created = await api(server, organization.token, 'POST', `${base()}/matches`, body, withKey(matchKey));
      const replayed = await api(server, organization.token, 'POST', `${base()}/matches`, body, withKey(matchKey));
      assert.equal(created.status, 201);
      assert.equal(replayed.status, 201);
      assert.deepEqual(replayed.body, created.body);
      assert.equal(await count('SELECT count(*) AS n FROM matches WHERE origin_id = $1', [ids.o]), 1);
      const auditCount = await count('SELECT count(*) AS n FROM audit_events WHERE organization_id = $1', [organization.orgId]);

      const patchKey = randomUUID();
      const patched = await api(
        server,
        organization.token,
        'PATCH',
        `${base()}/transactions/${ids.s}`,
        { reconciliationStatus: 'informative' },
        withKey(patchKey),
      );
      const patchedAgain = await api(
        server,
        organization.token,
        'PATCH',
        `${base()}/transactions/${ids.s}`,
        { reconciliationStatus: 'informative' },
        withKey(patchKey),
      );
      assert.equal(patchedAgain.status, 200);
      assert.deepEqual(patchedAgain.body, patched.body);

      const deleteKey = randomUUID();
      const path = `${base()}/matches/${created.body.matches[0].id}?note=undo`;
      const deleted = await api(server, organization.token, 'DELETE', path, undefined, withKey(deleteKey));
      const deletedAgain = await api(server, organization.token, 'DELETE', path, undefined, withKey(deleteKey));
      assert.equal(deleted.status, 204);
      assert.equal(deletedAgain.status, 204, 'the retry gets the first answer, not a 404');
      assert.equal(deletedAgain.headers.get('idempotent-replayed'), 'true');
      assert.equal((await api(server, organization.token, 'DELETE', path)).status, 404, 'without the key, the deletion is not repeated');
      // One status event for the PATCH, one match event and two status events for the deletion.
      assert.equal(await count('SELECT count(*) AS n FROM audit_events WHERE organization_id = $1', [organization.orgId]), auditCount + 4);
    });

    it('runs a write once when the same key arrives concurrently', async () => {
      const { datasetId } = await createDataset(server, organization);
      const key = randomUUID();
      const records = { records: [{ timestamp: 1, amount: '1.00' }, { timestamp: 2, amount: '2.00' }, { timestamp: 3 }] };
      const responses = await Promise.all(
        Array.from({ length: 6 }, () => api(server, organization.token, 'POST', `${base()}/datasets/${datasetId}/transactions`, records, withKey(key))),
      );
      for (const response of responses) {
        assert.equal(response.status, 200, JSON.stringify(response.body));
        assert.deepEqual(response.body, { inserted: 3, duplicates: 0 });
      }
      assert.equal(responses.filter((response) => response.headers.get('idempotent-replayed') === 'true').length, 5);
      assert.equal(await count('SELECT count(*) AS n FROM transactions WHERE dataset_id = $1', [datasetId]), 3);
    });

    it('keeps no answer of a refused write, so the same request can succeed once its cause is fixed', async () => {
      const { datasetId } = await createDataset(server, organization);
      const ids = await addTransactions(server, organization, datasetId, [
        { externalId: 'a', timestamp: 1, amount: '1.00' },
        { externalId: 'b', timestamp: 2, amount: '-1.00' },
      ]);
      await api(server, organization.token, 'PATCH', `${base()}/transactions/${ids.b}`, { reconciliationStatus: 'out of scope' });
      const key = randomUUID();
      const body = { links: [{ originId: ids.a, targetId: ids.b }] };
      const refused = await api(server, organization.token, 'POST', `${base()}/matches`, body, withKey(key));
      assert.equal(refused.status, 409);
      await api(server, organization.token, 'PATCH', `${base()}/transactions/${ids.b}`, { reconciliationStatus: 'none' });
      const accepted = await api(server, organization.token, 'POST', `${base()}/matches`, body, withKey(key));
      assert.equal(accepted.status, 201);
      assert.equal(accepted.headers.get('idempotent-replayed'), null);
    });

    it('forgets keys after the retention period', async () => {
      const key = randomUUID();
      const first = await api(server, organization.token, 'POST', `${base()}/sources`, { name: 'Expiring' }, withKey(key));
      assert.equal(first.status, 201);
      await server.database.query("UPDATE idempotency_keys SET created_at = now() - interval '25 hours' WHERE organization_id = $1 AND key = $2", [
        organization.orgId,
        key,
      ]);
      const later = await api(server, organization.token, 'POST', `${base()}/sources`, { name: 'Expiring' }, withKey(key));
      assert.equal(later.status, 201);
      assert.equal(later.headers.get('idempotent-replayed'), null);
      assert.notEqual(later.body.id, first.body.id);
    });
  });
}
