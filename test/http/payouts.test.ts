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
  describe(`payouts: groups by key of any size, netted (${kind})`, () => {
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

    it('reports a key whose origins times targets exceed the pairs a key group may check, and matches nothing of it', async () => {
      // Under a limit of 5 transactions a side, a key may bring 50 member pairs: 11 deposits x 5 charges are 55.
      const space = await payoutSpace(small);
      const deposits = await space.add(space.bank, rows(11, '50.00', 'po_shared'));
      await space.add(space.provider, rows(5, '10.00', 'po_shared'));
      await space.rule(payoutRule);
      const run = await space.run({ mode: 'commit' });
      assert.equal(run.totals.matched, 0, JSON.stringify(run.counts));
      assert.equal(run.totals.boundsHit, 1, JSON.stringify(run.counts));
      const [bounds] = await space.results(run.id, 'bounds');
      assert.match(
        bounds.message,
        /the key "po_shared" has 11 origins and 5 targets, whose 55 pairs are more than the 50 whose conditions a key group may check/,
      );
      for (const id of deposits) assert.equal((await reconciliationOf(small, id)).status, 'none');
    });

    /** 296 charges of 10.00, 4 refunds of -10.00 and 3 fees of -29.10 under one payout id: a net of 2,832.70. */
    const settlementRows = (payoutId: string): [string, string, string][] => [
      ...rows(148, '10.00', payoutId),
      ...rows(2, '-10.00', payoutId, 'refund'),
      ...rows(3, '-29.10', payoutId, 'fee'),
      ...rows(148, '10.00', payoutId),
      ...rows(2, '-10.00', payoutId, 'refund'),
    ];

    it('nets a payout of charges, refunds and fees against its deposit, and sums its evidence by type', async () => {
      const space = await payoutSpace(server);
      const [deposit] = await space.add(space.bank, [['2832.70', 'po_net']]);
      const members = await space.add(space.provider, settlementRows('po_net'));
      // Another payout whose rows do not add up to its deposit stays open.
      const [short] = await space.add(space.bank, [['2900.00', 'po_short']]);
      await space.add(space.provider, settlementRows('po_short'));
      await space.rule(payoutRule);

      const dry = await space.run({ mode: 'dry-run' });
      assert.equal(dry.totals.matched, 1, JSON.stringify(dry.counts));
      const [match] = await space.results(dry.id, 'matches');
      assert.equal(match.links.length, 303);
      // The deposit comes first, then its rows, each once; a refund's link reduces the deposit's side.
      assert.equal(match.transactionIds[0], deposit);
      assert.deepEqual([...match.transactionIds.slice(1)].sort(), [...members].sort());
      const refundLink = match.links.find((link: { targetId: string }) => link.targetId === members[148]);
      assert.equal(
        JSON.stringify(refundLink),
        JSON.stringify({
          amount: '10.00',
          reduces: 'origin',
          originId: deposit,
          targetId: members[148],
          originDatasetId: space.bank,
          targetDatasetId: space.provider,
          originAdjustment: '0.00',
          targetAdjustment: '0.00',
        }),
      );
      assert.deepEqual(match.evidence.group.byType, [
        { type: 'charge', count: 296, sum: '2960.00' },
        { type: 'refund', count: 4, sum: '-40.00' },
        { type: 'fee', count: 3, sum: '-87.30' },
      ]);
      assert.equal(match.evidence.group.transactions, 303);
      assert.equal(match.evidence.group.total, '2832.70');
      assert.deepEqual(match.evidence.group.counterpart, { id: deposit, remaining: '2832.70' });
      assert.equal(match.evidence.group.difference, '0.00');
      assert.deepEqual(match.evidence.conditions[0], {
        type: 'amount',
        sign: 'same',
        origin: '2832.70',
        target: '2832.70',
        difference: '0.00',
        tolerance: '0',
        held: true,
      });
      // A summary, not the conditions of 303 pairs.
      assert.equal(match.evidence.pairs, undefined);
      assert.ok(JSON.stringify(match.evidence).length < 2000, JSON.stringify(match.evidence));

      await space.call('POST', `/runs/${dry.id}/commit`, undefined, 200);
      assert.deepEqual(await reconciliationOf(server, deposit!), { status: 'full', allocated: '2832.70', match_count: 303, override: null });
      const allocated = new Set<string>();
      for (const id of members) {
        const state = await reconciliationOf(server, id);
        assert.equal(state.status, 'full');
        allocated.add(state.allocated);
      }
      assert.deepEqual([...allocated].sort(), ['10.00', '29.10']);
      assert.equal((await reconciliationOf(server, short!)).status, 'none');
      // The refund's record keeps the published shape: its one match, to the deposit, for its amount.
      const refund = (await space.call('GET', `/transactions/${members[148]}`, undefined, 200)).body;
      assert.equal(refund.type, 'refund');
      assert.equal(refund.outgoingMatches.length, 1);
      assert.equal(refund.outgoingMatches[0].originId, deposit);
      assert.equal(refund.outgoingMatches[0].amount, '10.00');
      const group = (await space.call('GET', `/match-groups/${refund.outgoingMatches[0].groupId}`, undefined, 200)).body;
      assert.equal(group.evidence.group.total, '2832.70');
      // Without limit or cursor the group comes whole, as it always did.
      assert.equal(group.matches.length, 303);
      assert.equal('nextCursor' in group, false);
      // Asked for by the page, its 303 matches come 100 at a time, in the same order, each once.
      const paged: string[] = [];
      let cursor: string | null = null;
      for (let page = 0; page < 10; page += 1) {
        const query: string = cursor === null ? '?limit=100' : `?limit=100&cursor=${encodeURIComponent(cursor)}`;
        const answer = (await space.call('GET', `/match-groups/${group.id}${query}`, undefined, 200)).body;
        assert.equal(answer.evidence.group.total, '2832.70', 'every page carries the summary');
        assert.ok(answer.matches.length <= 100);
        paged.push(...answer.matches.map((match: { id: string }) => match.id));
        cursor = answer.nextCursor;
        if (cursor === null) break;
      }
      assert.deepEqual(
        paged,
        group.matches.map((match: { id: string }) => match.id),
      );
      const refused = await space.call('GET', `/match-groups/${group.id}?cursor=s1.bm90LW91cnM`, undefined, 400);
      assert.match(refused.body.error.message, /cursor/);
      // A cursor of this list whose position is not one it writes is refused too, not failed on.
      const forged = `gm1.${Buffer.from('yesterday|po_123', 'utf8').toString('base64url')}`;
      await space.call('GET', `/match-groups/${group.id}?cursor=${forged}`, undefined, 400);

      // One refund's link cannot be taken out of the netted group alone: the deposit would count
      // more than its amount. Nothing changes.
      const alone = await space.call('DELETE', `/matches/${refund.outgoingMatches[0].id}`, undefined, 409);
      assert.match(
        alone.body.error.message,
        /cannot be deleted alone, because the deposit would then count more than its amount; delete the whole match group instead/,
      );
      assert.equal((await reconciliationOf(server, deposit!)).status, 'full');
      assert.equal((await space.call('GET', `/transactions/${members[148]}`, undefined, 200)).body.outgoingMatches.length, 1);

      // Reverting the run gives every amount back.
      await space.call('POST', `/runs/${dry.id}/revert`, { note: 'checking the revert of a payout' }, 200);
      assert.deepEqual(await reconciliationOf(server, deposit!), { status: 'none', allocated: '0', match_count: 0, override: null });
      assert.equal((await reconciliationOf(server, members[148]!)).status, 'none');
    });

    it('closes a payout within the tolerance by an adjustment, on either side of the deposit', async () => {
      const space = await payoutSpace(server);
      // 0.70 less than the net: the last charge gives up the difference, as rounding.
      const [under] = await space.add(space.bank, [['2832.00', 'po_under']]);
      const underMembers = await space.add(space.provider, settlementRows('po_under'));
      // 0.80 more than the net: the deposit's difference is the adjustment.
      const [over] = await space.add(space.bank, [['2833.50', 'po_over']]);
      await space.add(space.provider, settlementRows('po_over'));
      await space.rule({ ...payoutRule, conditions: [{ type: 'amount', sign: 'same', tolerance: { absolute: '1.00' } }], adjustment: { reason: 'rounding' } });
      const run = await space.run({ mode: 'commit' });
      assert.equal(run.totals.matched, 2, JSON.stringify(run.counts));
      const matches = await space.results(run.id, 'matches');
      const adjustments = matches.map((match: { adjustment: unknown }) => match.adjustment);
      assert.deepEqual(
        adjustments.sort((left: { amount: string }, right: { amount: string }) => left.amount.localeCompare(right.amount)),
        [
          { amount: '0.70', reason: 'rounding' },
          { amount: '0.80', reason: 'rounding' },
        ],
      );
      assert.deepEqual(await reconciliationOf(server, under!), { status: 'full', allocated: '2832.00', match_count: 303, override: null });
      assert.deepEqual(await reconciliationOf(server, over!), { status: 'full', allocated: '2833.50', match_count: 303, override: null });
      for (const id of underMembers) assert.equal((await reconciliationOf(server, id)).status, 'full');
      const differences = matches.map((match: { evidence: { group: { difference: string } } }) => match.evidence.group.difference).sort();
      assert.deepEqual(differences, ['-0.70', '0.80']);
      // The cursor of one payout's pages does not page another's.
      const underGroup = (await space.call('GET', `/transactions/${underMembers[0]}`, undefined, 200)).body.outgoingMatches[0].groupId as string;
      const overGroup = (await space.call('GET', `/transactions/${over}`, undefined, 200)).body.incomingMatches[0].groupId as string;
      const page = (await space.call('GET', `/match-groups/${underGroup}?limit=10`, undefined, 200)).body;
      assert.equal(page.matches.length, 10);
      const foreign = await space.call('GET', `/match-groups/${overGroup}?cursor=${page.nextCursor}`, undefined, 400);
      assert.match(foreign.body.error.message, /cursor/);
    });

    it('proposes a payout whose rows do not add up, within the tolerance, as a suggestion carrying the difference', async () => {
      const space = await payoutSpace(server);
      // One charge of 10.00 is missing from the report: the rows come to 10.00 less than the deposit.
      const [short] = await space.add(space.bank, [['2842.70', 'po_missing']]);
      const members = await space.add(space.provider, settlementRows('po_missing'));
      // 67.30 short: beyond the tolerance, so neither matched nor proposed.
      const [far] = await space.add(space.bank, [['2900.00', 'po_far']]);
      await space.add(space.provider, settlementRows('po_far'));
      await space.rule({ ...payoutRule, outcome: 'suggest', conditions: [{ type: 'amount', sign: 'same', tolerance: { absolute: '10.00' } }] });
      const run = await space.run({ mode: 'commit' });
      assert.equal(run.totals.suggested, 1, JSON.stringify(run.counts));
      assert.equal(run.totals.matched, 0, JSON.stringify(run.counts));
      const { suggestions } = (await space.call('GET', '/suggestions?status=pending', undefined, 200)).body;
      assert.equal(suggestions.length, 1, JSON.stringify(suggestions));
      const [option] = suggestions[0].options;
      assert.equal(option.links.length, 303);
      assert.deepEqual(option.evidence.group.counterpart, { id: short, remaining: '2842.70' });
      assert.equal(option.evidence.group.total, '2832.70');
      assert.equal(option.evidence.group.difference, '10.00');
      assert.deepEqual(option.evidence.conditions[0], {
        type: 'amount',
        sign: 'same',
        origin: '2842.70',
        target: '2832.70',
        difference: '10.00',
        tolerance: '10.00',
        held: true,
      });
      assert.equal((await reconciliationOf(server, short!)).status, 'none', 'a suggestion changes nothing until confirmed');
      assert.equal((await reconciliationOf(server, far!)).status, 'none');

      // Confirmed without an adjustment, the rows are matched and the deposit keeps the missing
      // 10.00 open, for the charge when it arrives.
      await space.call('POST', `/suggestions/${suggestions[0].id}/confirm`, { note: 'the last charge follows in the next report' }, 200);
      assert.deepEqual(await reconciliationOf(server, short!), { status: 'partial', allocated: '2832.70', match_count: 303, override: null });
      for (const id of members) assert.equal((await reconciliationOf(server, id)).status, 'full');
    });

    it('matches a payout on ingest once the second import of its rows arrives, and not before', async () => {
      const space = await payoutSpace(server);
      await space.rule({ ...payoutRule, runOnIngest: true });
      const [deposit] = await space.add(space.bank, [['40.00', 'po_split']]);
      const csv = (lines: string[]) => `timestamp,type,description,amount,currency,payoutId\n${lines.join('\n')}\n`;
      const ingestRuns = async () =>
        ((await space.call('GET', '/runs', undefined, 200)).body.runs as { trigger: string; status: string }[]).filter((run) => run.trigger === 'ingest');
      /** Waits until more than `runsBefore` runs on ingest exist and none of them is waiting or running. */
      const settled = async (runsBefore: number) => {
        for (let attempt = 0; attempt < 300; attempt += 1) {
          const runs = await ingestRuns();
          if (runs.length > runsBefore && runs.every((run) => !['queued', 'running'].includes(run.status))) return runs.length;
          await new Promise((resolve) => setTimeout(resolve, 100));
        }
        throw new Error(`no run on ingest finished after the ${runsBefore} before`);
      };
      /** Imports a settlement report and waits for the run on ingest it starts. */
      const importReport = async (fileName: string, lines: string[], runsBefore: number) => {
        const imported = await api(
          server,
          space.organization.token,
          'POST',
          `/v1/api/${space.organization.orgId}/datasets/${space.provider}/imports?fileName=${fileName}`,
          csv(lines),
          { 'content-type': 'text/csv' },
        );
        assert.equal(imported.status, 201, JSON.stringify(imported.body));
        return settled(runsBefore);
      };
      // The deposit's own ingest starts a run; a run still waiting would take in the next import too.
      const before = await settled(0);
      const first = await importReport('payout-1.csv', ['2026-01-02,charge,Charge 1,30.00,EUR,po_split', '2026-01-02,fee,Fee 1,-1.00,EUR,po_split'], before);
      assert.equal((await reconciliationOf(server, deposit!)).status, 'none', 'half a payout does not add up');
      await importReport('payout-2.csv', ['2026-01-03,charge,Charge 2,12.00,EUR,po_split', '2026-01-03,refund,Refund 1,-1.00,EUR,po_split'], first);
      assert.deepEqual(await reconciliationOf(server, deposit!), { status: 'full', allocated: '40.00', match_count: 4, override: null });
    });

    it('proposes a payout for a person to confirm, and confirming it nets as a run would', async () => {
      const space = await payoutSpace(server);
      const [deposit] = await space.add(space.bank, [['2832.70', 'po_confirm']]);
      const members = await space.add(space.provider, settlementRows('po_confirm'));
      await space.rule({ ...payoutRule, outcome: 'suggest' });
      const run = await space.run({ mode: 'commit' });
      assert.equal(run.totals.suggested, 1, JSON.stringify(run));
      const [suggestion] = (await space.call('GET', '/suggestions?status=pending', undefined, 200)).body.suggestions;
      assert.equal(suggestion.options[0].evidence.group.total, '2832.70');
      await space.call('POST', `/suggestions/${suggestion.id}/confirm`, { note: 'the settlement report adds up' }, 200);
      assert.deepEqual(await reconciliationOf(server, deposit!), { status: 'full', allocated: '2832.70', match_count: 303, override: null });
      assert.equal((await reconciliationOf(server, members[150]!)).allocated, '29.10');
    });
  });
}
