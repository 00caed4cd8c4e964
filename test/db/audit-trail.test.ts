import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { api, createTestOrganization, startTestServer, storeKinds, type TestServer } from '../../support/harness.ts';
import { addTransactions, createDataset } from '../../support/recon-fixtures.ts';

for (const kind of storeKinds()) {
  describe(`the audit trail cannot be edited (${kind})`, () => {
    let server: TestServer;
    before(async () => {
      server = await startTestServer(kind);
      const organization = await createTestOrganization(server);
      const { datasetId } = await createDataset(server, organization);
      const ids = await addTransactions(server, organization, datasetId, [{ externalId: 'a', timestamp: 1 }]);
      const patched = await api(server, organization.token, 'PATCH', `/v1/api/${organization.orgId}/transactions/${ids.a}`, {
        reconciliationStatus: 'informative',
      });
      assert.equal(patched.status, 200);
    });
    after(async () => server.close());

    const countEvents = async () => Number((await server.database.query<{ n: number }>('SELECT count(*) AS n FROM audit_events'))[0]!.n);

    it('refuses UPDATE, DELETE and TRUNCATE in the database itself', async () => {
      const before = await server.database.query<{ actor: string; after: unknown }>('SELECT actor, after FROM audit_events ORDER BY sequence');
      assert.ok(before.length > 0);
      for (const statement of [
        "UPDATE audit_events SET actor = 'someone else'",
        "UPDATE audit_events SET after = '{}'::jsonb WHERE sequence = (SELECT min(sequence) FROM audit_events)",
        'DELETE FROM audit_events',
        'TRUNCATE audit_events',
      ]) {
        await assert.rejects(server.database.query(statement), /append-only/, statement);
      }
      assert.deepEqual(await server.database.query('SELECT actor, after FROM audit_events ORDER BY sequence'), before);
    });

    it('is append-only inside a transaction too: a failed edit rolls back with it', async () => {
      const count = await countEvents();
      await assert.rejects(
        server.database.transaction(async (transaction) => {
          await transaction.query('DELETE FROM audit_events WHERE sequence = (SELECT max(sequence) FROM audit_events)');
        }),
        /append-only/,
      );
      assert.equal(await countEvents(), count);
    });

    it('has no operation that could edit it: the API only reads it', async () => {
      const document = server.app.swagger() as { paths: Record<string, Record<string, unknown>> };
      const auditPaths = Object.entries(document.paths).filter(([path]) => path.includes('audit'));
      assert.ok(auditPaths.length > 0);
      for (const [path, operations] of auditPaths) {
        assert.deepEqual(
          Object.keys(operations).filter((method) => method !== 'parameters'),
          ['get'],
          path,
        );
      }
    });
  });
}
