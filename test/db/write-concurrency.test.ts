import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Queryable } from '../../src/db/database.ts';
import type { WriteContext } from '../../src/domain/audit.ts';
import { createTestOrganization, startTestServer, storeKinds, type TestServer } from '../../support/harness.ts';
import { createDataset } from '../../support/recon-fixtures.ts';

/**
 * Ingest, matching, status changes and deletions running at the same time over the same
 * datasets: none may deadlock or fail, and the counts kept by the database must equal a fresh
 * count at the end. On PostgreSQL these run in parallel transactions.
 */
for (const kind of storeKinds()) {
  describe(`concurrent writers (${kind})`, () => {
    let server: TestServer;
    let context: WriteContext;
    let bank: string;
    let ledger: string;
    before(async () => {
      server = await startTestServer(kind);
      const organization = await createTestOrganization(server);
      context = { organizationId: organization.orgId, actor: 'test', requestId: null };
      ({ datasetId: bank } = await createDataset(server, organization, { name: 'Bank' }));
      ({ datasetId: ledger } = await createDataset(server, organization, { name: 'Ledger' }));
    });
    after(async () => server.close());

    const write = <T>(work: (transaction: Queryable) => Promise<T>) => server.database.transaction(work);

    it('neither deadlock nor lose counts', async () => {
      const { services } = server;
      const ingest = (datasetId: string, prefix: string, count: number) =>
        write(async (transaction) =>
          services.ingest(
            transaction,
            context,
            datasetId,
            Array.from({ length: count }, (_, index) => ({
              externalId: `${prefix}-${index}`,
              timestamp: 1_700_000_000_000 + index,
              amount: index % 2 ? '10.00' : '-10.00',
            })),
          ),
        );
      await ingest(bank, 'seed', 40);
      await ingest(ledger, 'seed', 40);
      const idsOf = async (datasetId: string) =>
        (await server.database.query<{ id: string }>('SELECT id FROM transactions WHERE dataset_id = $1 ORDER BY external_id', [datasetId])).map(
          (row) => row.id,
        );
      const bankIds = await idsOf(bank);
      const ledgerIds = await idsOf(ledger);

      const jobs: Promise<unknown>[] = [];
      for (let round = 0; round < 10; round += 1) {
        jobs.push(ingest(round % 2 ? bank : ledger, `round-${round}`, 25));
        // Links in both directions between the same rows, so lock orders would cross if they could.
        jobs.push(
          write((transaction) =>
            services.matching.create(transaction, context, {
              links: [
                { originId: bankIds[round]!, targetId: ledgerIds[round]!, amount: '1.00' },
                { originId: ledgerIds[round + 1]!, targetId: bankIds[round + 1]!, amount: '1.00' },
              ],
              note: null,
              force: false,
            }),
          ),
        );
        jobs.push(
          write((transaction) =>
            services.matching.create(transaction, context, {
              links: [
                { originId: ledgerIds[round]!, targetId: bankIds[round + 1]!, amount: '1.00' },
                { originId: bankIds[round]!, targetId: ledgerIds[round + 1]!, amount: '1.00' },
              ],
              note: null,
              force: false,
            }),
          ),
        );
        jobs.push(
          write((transaction) =>
            services.transactionStatus.change(transaction, context, {
              transactionId: bankIds[30 + (round % 10)]!,
              status: round % 2 ? 'none' : 'informative',
              note: null,
            }),
          ),
        );
      }
      const results = await Promise.allSettled(jobs);
      const failures = results.filter((result) => result.status === 'rejected').map((result) => String((result as PromiseRejectedResult).reason));
      assert.deepEqual(failures, []);

      const groups = await server.database.query<{ id: string }>('SELECT id FROM match_groups WHERE organization_id = $1', [context.organizationId]);
      await Promise.all(
        groups.slice(0, 8).map((group) => write((transaction) => services.matching.deleteGroup(transaction, context, { groupId: group.id, note: null }))),
      );

      const kept = await server.database.query<{ dataset_id: string; reconciliation_status: string; n: number }>(
        'SELECT dataset_id, reconciliation_status, transaction_count AS n FROM dataset_status_counts WHERE transaction_count <> 0 ORDER BY 1, 2',
      );
      const counted = await server.database.query<{ dataset_id: string; reconciliation_status: string; n: number }>(
        'SELECT dataset_id, reconciliation_status, count(*) AS n FROM transactions GROUP BY 1, 2 ORDER BY 1, 2',
      );
      assert.deepEqual(
        kept.map((row) => ({ ...row, n: Number(row.n) })),
        counted.map((row) => ({ ...row, n: Number(row.n) })),
      );
      const derived = await server.database.query<{ wrong: number }>(
        `SELECT count(*) AS wrong FROM transactions t
          WHERE t.match_count <> (SELECT count(*) FROM matches m WHERE m.origin_id = t.id OR m.target_id = t.id)`,
      );
      assert.equal(Number(derived[0]!.wrong), 0);
    });
  });
}
