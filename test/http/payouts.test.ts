import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { api, createTestOrganization, startTestServer, storeKinds, type TestOrganization, type TestServer } from '../../support/harness.ts';
import { addTransactions, createDataset, reconciliationOf } from '../../support/recon-fixtures.ts';

/**
 * Payouts (SPEC §16): one bank deposit matched to the hundreds of provider rows it settles,
 * grouped by payout id. Groups formed by a key are summed, not searched.
 */

const DAY = 86_400_000;
const START = Date.UTC(2026, 0, 3);

/** An organization with a bank and a payment provider's dataset, both with a payoutId column. */
async function payoutSpace(server: TestServer) {
  const organization: TestOrganization = await createTestOrganization(server);
  const columns = [{ name: 'payoutId', type: 'string' }];
  const { datasetId: bank } = await createDataset(server, organization, { name: 'Bank', columns });
  const { datasetId: provider } = await createDataset(server, organization, { name: 'Provider', columns });
  const base = `/v1/api/${organization.orgId}`;
  let counter = 0;
  const call = async (method: string, path: string, body?: unknown, expected?: number) => {
    const response = await api(server, organization.token, method, `${base}${path}`, body);
    if (expected !== undefined) assert.equal(response.status, expected, `${method} ${path}: ${JSON.stringify(response.body)}`);
    return response;
  };
  /** Adds rows of [amount, payout id, type]; returns their ids in order. */
  const add = async (datasetId: string, rows: [string, string, string?][]) => {
    const records = rows.map(([amount, payoutId, type]) => ({
      externalId: `r${++counter}`,
      timestamp: START + (counter % 3) * DAY,
      amount,
      currency: 'EUR',
      payoutId,
      ...(type !== undefined ? { type, description: `${type} ${counter}` } : {}),
    }));
    const ids = await addTransactions(server, organization, datasetId, records);
    return records.map((record) => ids[record.externalId]!);
  };
  const rule = async (body: Record<string, unknown>) =>
    (await call('POST', '/rules', { name: 'Payouts', origin: { datasetIds: [bank] }, target: { datasetIds: [provider] }, ...body }, 201)).body.id as string;
  const run = async (body: Record<string, unknown>) => {
    const started = await call('POST', '/runs', body, 202);
    for (let attempt = 0; attempt < 600; attempt += 1) {
      const current = await call('GET', `/runs/${started.body.id}`, undefined, 200);
      if (!['queued', 'running'].includes(current.body.status)) return current.body;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    throw new Error(`run ${started.body.id} did not finish`);
  };
  const results = async (runId: string, kind: string) => (await call('GET', `/runs/${runId}/results?kind=${kind}`, undefined, 200)).body.results;
  return { organization, bank, provider, call, add, rule, run, results };
}

const payoutRule = {
  cardinality: '1:N',
  groupBy: { origin: ['payoutId'], target: ['payoutId'] },
  conditions: [{ type: 'amount', sign: 'same' }],
};

/** n rows of one amount and type under one payout id. */
function rows(count: number, amount: string, payoutId: string, type = 'charge'): [string, string, string][] {
  return Array.from({ length: count }, () => [amount, payoutId, type]);
}

for (const kind of storeKinds()) {
  describe(`payouts: groups by key of any size (${kind})`, () => {
    let server: TestServer;
    let small: TestServer;
    before(async () => {
      server = await startTestServer(kind);
      // A key-group limit of 5 stands for the real one (100,000), so that the over-limit case needs 6 rows.
      small = await startTestServer(kind, { keyGroupMaxTransactions: 5 });
    });
    after(async () => {
      await server.close();
      await small.close();
    });

    it('matches a deposit of 3,000.00 to its 300 charges of 10.00 in one group, in a dry run and its commit', async () => {
      const space = await payoutSpace(server);
      const [deposit] = await space.add(space.bank, [['3000.00', 'po_123']]);
      const charges = await space.add(space.provider, rows(300, '10.00', 'po_123'));
      await space.rule(payoutRule);

      const dry = await space.run({ mode: 'dry-run' });
      assert.equal(dry.status, 'completed', JSON.stringify(dry));
      assert.equal(dry.totals.matched, 1, JSON.stringify(dry.counts));
      assert.equal(dry.totals.boundsHit, 0, JSON.stringify(dry.counts));
      const [match] = await space.results(dry.id, 'matches');
      assert.equal(match.links.length, 300);
      assert.equal(match.transactionIds.length, 301);
      assert.equal(match.adjustment, null);
      assert.equal((await reconciliationOf(server, deposit!)).status, 'none', 'a dry run changes nothing');

      await space.call('POST', `/runs/${dry.id}/commit`, undefined, 200);
      assert.deepEqual(await reconciliationOf(server, deposit!), { status: 'full', allocated: '3000.00', match_count: 300, override: null });
      for (const id of charges) assert.equal((await reconciliationOf(server, id)).status, 'full');
      // Each charge has its one match, to the deposit, in the published record.
      const record = (await space.call('GET', `/transactions/${charges[0]}`, undefined, 200)).body;
      // The eight published fields and nothing more: a payout adds no field to the record.
      assert.equal(Object.keys(record).length, 8, JSON.stringify(Object.keys(record)));
      assert.equal(record.outgoingMatches.length, 1);
      assert.equal(record.outgoingMatches[0].originId, deposit);
      assert.equal(record.outgoingMatches[0].amount, '10.00');
    });

    it('matches a key group in a commit run too', async () => {
      const space = await payoutSpace(server);
      const [deposit] = await space.add(space.bank, [['3000.00', 'po_124']]);
      await space.add(space.provider, rows(300, '10.00', 'po_124'));
      await space.rule(payoutRule);
      const run = await space.run({ mode: 'commit' });
      assert.equal(run.totals.matched, 1, JSON.stringify(run.counts));
      assert.equal((await reconciliationOf(server, deposit!)).status, 'full');
    });

    it('says that maxGroupSize bounds the set search, not groups formed by a key', async () => {
      const space = await payoutSpace(server);
      const report = (
        await space.call(
          'POST',
          '/rules/validate',
          { name: 'Too large a set', origin: { datasetIds: [space.bank] }, target: { datasetIds: [space.provider] }, ...payoutRule, maxGroupSize: 300 },
          200,
        )
      ).body as { valid: boolean; problems: { path: string; message: string }[] };
      assert.equal(report.valid, false);
      const problem = report.problems.find((candidate) => candidate.path === '/maxGroupSize');
      assert.ok(problem, JSON.stringify(report.problems));
      assert.match(problem.message, /must be an integer from 1 to 10/);
      assert.match(problem.message, /set search/);
      assert.match(problem.message, /groupBy/);
    });

    it('reports a group larger than the key-group limit in the run bounds, and matches nothing of it', async () => {
      const space = await payoutSpace(small);
      const [deposit] = await space.add(space.bank, [['60.00', 'po_big']]);
      const charges = await space.add(space.provider, rows(6, '10.00', 'po_big'));
      const [fitting] = await space.add(space.bank, [['50.00', 'po_fits']]);
      await space.add(space.provider, rows(5, '10.00', 'po_fits'));
      await space.rule(payoutRule);
      const run = await space.run({ mode: 'commit' });
      assert.equal(run.totals.matched, 1, JSON.stringify(run.counts));
      assert.equal(run.totals.boundsHit, 1, JSON.stringify(run.counts));
      const [bounds] = await space.results(run.id, 'bounds');
      assert.match(bounds.message, /the target group with key "po_big" has 6 transactions, more than the 5 a group formed by groupBy may hold/);
      assert.match(bounds.message, /KEY_GROUP_MAX_TRANSACTIONS/);
      assert.equal((await reconciliationOf(small, deposit!)).status, 'none');
      for (const id of charges) assert.equal((await reconciliationOf(small, id)).status, 'none');
      assert.equal((await reconciliationOf(small, fitting!)).status, 'full', 'a group at the limit is matched');
    });
  });
}
