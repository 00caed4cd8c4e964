import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { collect, LedgerRecon, LedgerReconError } from '../../sdk/src/index.ts';
import { insertReconciliation, insertUser } from '../../support/exception-fixtures.ts';
import { createTestOrganization, startTestServer, storeKinds, type TestOrganization, type TestServer } from '../../support/harness.ts';
import { addTransactions, createDataset } from '../../support/recon-fixtures.ts';

/** The SDK's exceptions resource against the real server: list, assign, comment, resolve, reopen, bulk assign. */

for (const kind of storeKinds()) {
  describe(`SDK exceptions (${kind})`, () => {
    let server: TestServer;
    let organization: TestOrganization;

    before(async () => {
      server = await startTestServer(kind);
      organization = await createTestOrganization(server);
    });
    after(() => server.close());

    it('follows exceptions up from list to resolution', async () => {
      const recon = new LedgerRecon({
        baseUrl: server.baseUrl,
        clientId: organization.clientId,
        clientSecret: organization.clientSecret,
        audience: server.config.audience,
      });
      const { datasetId } = await createDataset(server, organization, { name: 'Operating account' });
      const ids = await addTransactions(server, organization, datasetId, [
        { externalId: 'a', timestamp: Date.parse('2026-10-02T10:00:00Z'), description: 'Fee', amount: '-2.00', currency: 'EUR' },
        { externalId: 'b', timestamp: Date.parse('2026-10-20T10:00:00Z'), description: 'Receipt', amount: '80.00', currency: 'EUR' },
      ]);
      const reconciliationId = await insertReconciliation(server, organization.orgId, 'Operating', [datasetId], []);
      const ann = await insertUser(server, organization.orgId, 'ann@example.com');

      const all = await collect(recon.exceptions.list(reconciliationId, { periodEnd: '2026-10-31' }));
      assert.deepEqual(
        all.map((item) => [item.transaction.description, item.ageDays]),
        [
          ['Fee', 29],
          ['Receipt', 11],
        ],
      );
      // A due date ahead of today (one before today is refused).
      const due = new Date(server.clock.now() + 7 * 86_400_000).toISOString().slice(0, 10);
      const updated = await recon.exceptions.update(ids.a!, { assigneeUserId: ann, dueDate: due, holdReason: 'waiting for the invoice' });
      assert.equal(updated.assignee?.email, 'ann@example.com');
      const comment = await recon.exceptions.comment(ids.a!, 'Asked the bank.');
      assert.equal(comment.body, 'Asked the bank.');
      assert.equal((await recon.exceptions.get(ids.a!)).comments.length, 1);
      assert.deepEqual(await recon.exceptions.assign({ transactionIds: [ids.a!, ids.b!], assigneeUserId: ann }), { assigned: 1, updated: 0, unchanged: 1 });
      // The same change of many at once: a due date for both, a hold they already share left as it is.
      assert.deepEqual(await recon.exceptions.updateMany([ids.a!, ids.b!], { dueDate: due }), { assigned: 0, updated: 1, unchanged: 1 });
      assert.equal((await recon.exceptions.get(ids.b!)).dueDate, due);
      const onHold = await recon.exceptions.page(reconciliationId, { periodEnd: '2026-10-31', view: 'on-hold' });
      assert.deepEqual(
        onHold.items.map((item) => item.transactionId),
        [ids.a],
      );
      assert.equal((await recon.exceptions.resolve(ids.b!, 'Booked by hand')).resolution, 'note');
      assert.equal((await recon.exceptions.reopen(ids.b!, 'Not booked after all')).resolution, null);
      const refused = await recon.exceptions.reopen(ids.b!).catch((error: unknown) => error);
      assert.ok(refused instanceof LedgerReconError);
      assert.equal(refused.code, 409);
    });
  });
}
