import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { api, createTestOrganization, startTestServer, storeKinds, type TestOrganization, type TestServer } from '../../support/harness.ts';
import { addTransactions, createDataset, reconciliationOf } from '../../support/recon-fixtures.ts';

const DAY = 86_400_000;
const START = Date.UTC(2026, 9, 1);

/** One organization with a bank and a ledger dataset, and helpers to fill them and run rules. */
async function workspace(server: TestServer) {
  const organization: TestOrganization = await createTestOrganization(server);
  const { datasetId: bank } = await createDataset(server, organization, { name: 'Bank', columns: [{ name: 'payoutId', type: 'string' }] });
  const { datasetId: ledger } = await createDataset(server, organization, { name: 'Ledger', columns: [{ name: 'payoutId', type: 'string' }] });
  const base = `/v1/api/${organization.orgId}`;
  let counter = 0;
  const call = async (method: string, path: string, body?: unknown, expected?: number) => {
    const response = await api(server, organization.token, method, `${base}${path}`, body);
    if (expected !== undefined) assert.equal(response.status, expected, `${method} ${path}: ${JSON.stringify(response.body)}`);
    return response;
  };
  /** Adds transactions: [amount, day offset, reference?, extra?]; returns their ids in order. */
  const add = async (datasetId: string, rows: [string, number, string?, Record<string, unknown>?][]) => {
    const records = rows.map(([amount, day, reference, extra]) => ({
      externalId: `x${++counter}`,
      timestamp: START + day * DAY,
      amount,
      currency: 'EUR',
      ...(reference !== undefined ? { reference, description: `Payment ${reference}` } : {}),
      ...(extra ?? {}),
    }));
    const ids = await addTransactions(server, organization, datasetId, records);
    return records.map((record) => ids[record.externalId]!);
  };
  const rule = async (body: Record<string, unknown>) => {
    const created = await call('POST', '/rules', { origin: { datasetIds: [bank] }, target: { datasetIds: [ledger] }, ...body }, 201);
    return created.body.id as string;
  };
  /** Starts a run and waits until it is no longer queued or running. */
  const run = async (body: Record<string, unknown>) => {
    const started = await call('POST', '/runs', body, 202);
    assert.match(started.headers.get('location') ?? '', new RegExp(`/runs/${started.body.id}$`));
    return waitForRun(started.body.id);
  };
  const waitForRun = async (runId: string) => {
    for (let attempt = 0; attempt < 300; attempt += 1) {
      const current = await call('GET', `/runs/${runId}`, undefined, 200);
      if (!['queued', 'running'].includes(current.body.status)) return current.body;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    throw new Error(`run ${runId} did not finish`);
  };
  const results = async (runId: string, kind: string) => (await call('GET', `/runs/${runId}/results?kind=${kind}`, undefined, 200)).body.results;
  /** A classification rule that marks bank transactions whose reference contains FEE informative. */
  const feesAreInformative = async (name: string, priority: number) => {
    await call(
      'POST',
      '/rules',
      {
        name,
        priority,
        origin: { datasetIds: [bank], audience: [{ path: 'reference', search: { type: 'string', value: ['FEE'] } }] },
        outcome: { status: 'informative' },
      },
      201,
    );
  };
  return { organization, bank, ledger, call, add, rule, run, waitForRun, results, feesAreInformative };
}

const exactReference = {
  name: 'Exact reference',
  cardinality: '1:1',
  conditions: [
    { type: 'amount', sign: 'same' },
    { type: 'equals', origin: { path: 'reference', normalize: ['casefold'] }, target: { path: 'reference', normalize: ['casefold'] } },
    { type: 'date', path: 'timestamp', min: '-P3D', max: 'P3D' },
  ],
};

for (const kind of storeKinds()) {
  describe(`matching runs (${kind})`, () => {
    let server: TestServer;
    before(async () => {
      server = await startTestServer(kind);
    });
    after(async () => server.close());

    it('matches 1:1 on equal reference, amount and a date window, and explains each match', async () => {
      const space = await workspace(server);
      const [first, second, stray] = await space.add(space.bank, [
        ['100.00', 0, 'INV-1'],
        ['50.25', 1, 'inv-2'],
        ['75.00', 0, 'INV-9'],
      ]);
      const [invoice1, invoice2] = await space.add(space.ledger, [
        ['100.00', 2, 'INV-1'],
        ['50.25', 0, 'INV-2'],
        ['75.00', 9, 'INV-9'],
      ]);
      const ruleId = await space.rule(exactReference);
      const run = await space.run({ mode: 'commit' });
      assert.equal(run.status, 'completed', JSON.stringify(run));
      assert.equal(run.totals.matched, 2);
      assert.deepEqual(run.progress, { examined: 3, total: 3 });
      for (const id of [first, second, invoice1, invoice2]) assert.equal((await reconciliationOf(server, id!)).status, 'full');
      assert.equal((await reconciliationOf(server, stray!)).status, 'none', 'INV-9 is 9 days apart: outside the window');

      const record = (await space.call('GET', `/transactions/${first}`, undefined, 200)).body;
      const [match] = record.incomingMatches;
      assert.equal(match.method, 'rule');
      assert.equal(match.ruleId, ruleId);
      assert.equal(match.ruleVersion, 1);
      assert.equal(match.runId, run.id);
      assert.equal(match.targetId, invoice1);
      assert.equal(match.amount, '100.00');

      const group = (await space.call('GET', `/match-groups/${match.groupId}`, undefined, 200)).body;
      assert.equal(group.runId, run.id);
      assert.equal(group.ruleVersion, 1);
      const conditions = group.evidence.conditions as { type: string; held: boolean; origin: unknown; target: unknown }[];
      assert.deepEqual(
        conditions.map((condition) => condition.type),
        ['amount', 'equals', 'date', 'currency'],
      );
      assert.ok(conditions.every((condition) => condition.held));
      const date = conditions.find((condition) => condition.type === 'date') as unknown as { differenceMilliseconds: number };
      assert.equal(Number(date.differenceMilliseconds), 2 * DAY);
      assert.equal(group.evidence.score.length > 0, true);
      // The amounts the rule compared, not what is left of them now that the match takes them whole.
      const amount = conditions.find((condition) => condition.type === 'amount') as unknown as { origin: string; target: string; difference: string };
      assert.deepEqual([amount.origin, amount.target, Number(amount.difference)], ['100.00', '100.00', 0]);
      assert.deepEqual(Object.keys(group.evidence).sort(), ['conditions', 'runnersUp', 'score']);
      const [result] = (await space.results(run.id, 'matches')).filter((entry: { links: { originId: string }[] }) => entry.links[0]!.originId === first);
      assert.deepEqual(result.evidence, group.evidence, "a run's result and the group it made show the same evidence");

      const audit = (await space.call('GET', `/audit-events?transactionId=${first}`, undefined, 200)).body.events;
      assert.ok(
        audit.some(
          (event: { action: string; actor: string; note: string }) =>
            event.action === 'match.created' && event.actor === `run:${run.id}` && event.note.includes(run.id),
        ),
      );
    });

    it('still shows a match whose rule no longer fits its datasets, saying why its conditions are missing', async () => {
      const space = await workspace(server);
      const [paid] = await space.add(space.bank, [['80.00', 0, undefined, { payoutId: 'po_7' }]]);
      await space.add(space.ledger, [['80.00', 1, undefined, { payoutId: 'po_7' }]]);
      await space.rule({
        name: 'Same payout',
        cardinality: '1:1',
        conditions: [
          { type: 'amount', sign: 'same' },
          { type: 'equals', origin: { path: 'payoutId' }, target: { path: 'payoutId' } },
        ],
      });
      const run = await space.run({ mode: 'commit' });
      assert.equal(run.totals.matched, 1, JSON.stringify(run.counts));
      const groupId = (await space.call('GET', `/transactions/${paid}`, undefined, 200)).body.incomingMatches[0].groupId;
      const before = (await space.call('GET', `/match-groups/${groupId}`, undefined, 200)).body.evidence;
      assert.deepEqual(
        before.conditions.map((condition: { type: string }) => condition.type),
        ['amount', 'equals', 'currency'],
      );
      // The ledger's column declarations change under the rule (no operation of the API does this today).
      await server.database.query(`UPDATE datasets SET columns = '[]' WHERE id = $1`, [space.ledger]);
      const after = (await space.call('GET', `/match-groups/${groupId}`, undefined, 200)).body.evidence;
      assert.equal(after.conditions, null);
      assert.match(after.conditionsUnavailable, /no longer fits its datasets.*payoutId/);
      assert.equal(after.score, before.score);
      const [result] = await space.results(run.id, 'matches');
      assert.match(result.evidence.conditionsUnavailable, /payoutId/);
    });

    it('offers a transaction a rule of the run matched or classified to no later rule, and claims nothing after the last', async () => {
      const space = await workspace(server);
      const [paid, fee] = await space.add(space.bank, [
        ['100.00', 0, 'INV-1'],
        ['2.00', 0, 'FEE-1'],
      ]);
      const [invoice, feeLine] = await space.add(space.ledger, [
        ['100.00', 1, 'INV-1'],
        ['2.00', 0, 'FEE-1'],
      ]);
      await space.feesAreInformative('Fees are informative', 1);
      const first = await space.rule({ ...exactReference, name: 'Exact reference first', priority: 2 });
      const second = await space.rule({ ...exactReference, name: 'Exact reference again', priority: 3 });
      const run = await space.run({ mode: 'commit' });
      const counts = new Map((run.counts as { ruleId: string; matched: number }[]).map((count) => [count.ruleId, count.matched]));
      assert.equal(run.totals.classified, 1, JSON.stringify(run.counts));
      assert.equal(counts.get(first), 1, 'the fee was classified by the rule before, so only INV-1 is left to match');
      assert.equal(counts.get(second), 0, 'what the first rule matched is not offered again');
      assert.equal((await reconciliationOf(server, paid!)).status, 'full');
      assert.equal((await reconciliationOf(server, invoice!)).status, 'full');
      assert.equal((await reconciliationOf(server, fee!)).status, 'informative');
      assert.equal((await reconciliationOf(server, feeLine!)).status, 'none');
      const record = (await space.call('GET', `/transactions/${paid}`, undefined, 200)).body;
      assert.equal(record.incomingMatches.length, 1);
    });

    it('never guesses between equal candidates: the tie becomes a suggestion listing every option', async () => {
      const space = await workspace(server);
      const [payment] = await space.add(space.bank, [['200.00', 0]]);
      const [left, right] = await space.add(space.ledger, [
        ['200.00', 1],
        ['200.00', 1],
      ]);
      await space.rule({
        name: 'Amount and date',
        cardinality: '1:1',
        conditions: [
          { type: 'amount', sign: 'same' },
          { type: 'date', path: 'timestamp', min: '-P2D', max: 'P2D' },
        ],
      });
      const run = await space.run({ mode: 'commit' });
      assert.equal(run.totals.matched, 0);
      assert.equal(run.totals.ambiguous, 1);
      assert.equal((await reconciliationOf(server, payment!)).status, 'none');
      const [ambiguity] = await space.results(run.id, 'ambiguous');
      assert.equal(ambiguity.options.length, 2);
      const suggestions = (await space.call('GET', '/suggestions?status=pending', undefined, 200)).body.suggestions;
      assert.equal(suggestions.length, 1);
      assert.equal(suggestions[0].reason, 'ambiguous');
      const targets = suggestions[0].options.map((option: { links: { targetId: string }[] }) => option.links[0]!.targetId).sort();
      assert.deepEqual(targets, [left, right].sort());

      // Confirming needs a choice between the two; the chosen option becomes a rule-made group.
      const unchosen = await space.call('POST', `/suggestions/${suggestions[0].id}/confirm`, {}, 400);
      assert.match(unchosen.body.error.message, /has 2 options/);
      const confirmed = await space.call('POST', `/suggestions/${suggestions[0].id}/confirm`, { option: 1 }, 200);
      assert.equal(confirmed.body.status, 'confirmed');
      const group = (await space.call('GET', `/match-groups/${confirmed.body.groupId}`, undefined, 200)).body;
      assert.equal(group.method, 'rule');
      assert.equal(group.createdBy, `client:${space.organization.clientId}`);
      assert.equal((await reconciliationOf(server, payment!)).status, 'full');

      // A second run finds nothing more to suggest for the matched payment.
      const again = await space.run({ mode: 'commit' });
      assert.equal(again.totals.ambiguous, 0);
    });

    it('does not suggest a rejected option again', async () => {
      const space = await workspace(server);
      await space.add(space.bank, [['10.00', 0]]);
      await space.add(space.ledger, [['10.00', 0]]);
      await space.rule({ name: 'Propose', outcome: 'suggest', conditions: [{ type: 'amount', sign: 'same' }] });
      const run = await space.run({ mode: 'commit' });
      assert.equal(run.totals.suggested, 1);
      const [suggestion] = (await space.call('GET', '/suggestions', undefined, 200)).body.suggestions;
      await space.call('POST', `/suggestions/${suggestion.id}/reject`, { reason: 'different customer' }, 200);
      const again = await space.run({ mode: 'commit' });
      assert.equal(again.totals.suggested, 0);
      const pending = (await space.call('GET', '/suggestions?status=pending', undefined, 200)).body.suggestions;
      assert.equal(pending.length, 0);
    });

    it('keeps a dry run to commit later, and refuses it (409 naming them) once its transactions changed', async () => {
      const space = await workspace(server);
      const [a, b] = await space.add(space.bank, [
        ['30.00', 0, 'A'],
        ['40.00', 0, 'B'],
      ]);
      const [, invoiceB] = await space.add(space.ledger, [
        ['30.00', 0, 'A'],
        ['40.00', 0, 'B'],
      ]);
      await space.rule(exactReference);
      const dry = await space.run({ mode: 'dry-run' });
      assert.equal(dry.totals.matched, 2);
      assert.equal((await reconciliationOf(server, a!)).status, 'none', 'a dry run changes nothing');
      const matches = await space.results(dry.id, 'matches');
      assert.equal(matches.length, 2);
      assert.deepEqual(matches.map((match: { links: { amount: string }[] }) => match.links[0]!.amount).sort(), ['30.00', '40.00']);

      const committed = await space.call('POST', `/runs/${dry.id}/commit`, undefined, 200);
      assert.ok(committed.body.committedAt);
      assert.equal((await reconciliationOf(server, a!)).status, 'full');
      await space.call('POST', `/runs/${dry.id}/commit`, undefined, 409);

      const [c] = await space.add(space.bank, [['55.00', 0, 'C']]);
      await space.add(space.ledger, [['55.00', 0, 'C']]);
      const second = await space.run({ mode: 'dry-run' });
      assert.equal(second.totals.matched, 1);
      await space.call('PATCH', `/transactions/${c}`, { reconciliationStatus: 'informative' }, 200);
      const refused = await space.call('POST', `/runs/${second.id}/commit`, undefined, 409);
      assert.match(refused.body.error.message, new RegExp(c!));
      void b;
      void invoiceB;
    });

    it('refuses to commit a dry run whose rule was deleted since (409 naming it), and leaves every transaction as it was', async () => {
      const space = await workspace(server);
      const [a] = await space.add(space.bank, [['30.00', 0, 'A']]);
      await space.add(space.ledger, [['30.00', 0, 'A']]);
      const ruleId = await space.rule({ ...exactReference, name: 'Tried once' });
      const dry = await space.run({ mode: 'dry-run' });
      assert.equal(dry.totals.matched, 1);
      await space.call('DELETE', `/rules/${ruleId}`, undefined, 204);
      const refused = await space.call('POST', `/runs/${dry.id}/commit`, undefined, 409);
      assert.match(refused.body.error.message, /"Tried once", deleted since/);
      assert.equal(refused.body.error.messageId, 'matching.runRuleDeleted');
      assert.equal((await reconciliationOf(server, a!)).status, 'none');
    });

    it('discards a dry run never committed (gone with its results, in the audit trail), and refuses to discard a committed run: revert it', async () => {
      const space = await workspace(server);
      const [a] = await space.add(space.bank, [['30.00', 0, 'A']]);
      await space.add(space.ledger, [['30.00', 0, 'A']]);
      await space.rule(exactReference);
      const dry = await space.run({ mode: 'dry-run' });
      assert.equal(dry.totals.matched, 1);
      await space.call('DELETE', `/runs/${dry.id}`, undefined, 204);
      assert.equal((await space.call('GET', `/runs/${dry.id}`)).status, 404);
      assert.equal((await space.call('GET', `/runs/${dry.id}/results?kind=matches`)).status, 404);
      assert.equal((await space.call('POST', `/runs/${dry.id}/commit`)).status, 404);
      assert.equal((await space.call('DELETE', `/runs/${dry.id}`)).status, 404, 'discarded once');
      assert.equal((await reconciliationOf(server, a!)).status, 'none', 'nothing else changed');
      const listed = (await space.call('GET', '/runs', undefined, 200)).body.runs as { id: string }[];
      assert.ok(!listed.some((run) => run.id === dry.id), 'no longer listed');
      const audit = (await space.call('GET', '/audit-events?action=run.discarded', undefined, 200)).body.events;
      assert.equal(audit.length, 1);
      assert.equal(audit[0].before.runId, dry.id);
      assert.equal(audit[0].before.totals.matched, 1);
      assert.equal(audit[0].after, null);
      assert.match(audit[0].actor, /./);

      // A dry run that was committed, and a commit run, made their matches: revert them instead.
      const second = await space.run({ mode: 'dry-run' });
      await space.call('POST', `/runs/${second.id}/commit`, undefined, 200);
      const refused = await space.call('DELETE', `/runs/${second.id}`, undefined, 409);
      assert.equal(refused.body.error.messageId, 'matching.runNotDiscardable');
      assert.match(refused.body.error.message, /cannot be discarded; revert it instead/);
      const [b] = await space.add(space.bank, [['45.00', 0, 'B']]);
      await space.add(space.ledger, [['45.00', 0, 'B']]);
      const committed = await space.run({ mode: 'commit' });
      assert.equal((await space.call('DELETE', `/runs/${committed.id}`, undefined, 409)).body.error.messageId, 'matching.runNotDiscardable');
      assert.equal((await reconciliationOf(server, b!)).status, 'full');
      assert.equal((await space.call('GET', `/runs/${committed.id}`)).status, 200, 'a refused discard leaves the run');
    });

    it('reverts a run: its groups go, statuses return, and a group changed since is listed and left', async () => {
      const space = await workspace(server);
      const [a, b] = await space.add(space.bank, [
        ['30.00', 0, 'A'],
        ['40.00', 0, 'B'],
      ]);
      const [invoiceA, invoiceB] = await space.add(space.ledger, [
        ['30.00', 0, 'A'],
        ['40.00', 0, 'B'],
      ]);
      await space.rule(exactReference);
      const run = await space.run({ mode: 'commit' });
      const record = (await space.call('GET', `/transactions/${b}`, undefined, 200)).body;
      await space.call('DELETE', `/matches/${record.incomingMatches[0].id}`, undefined, 204);
      const reverted = await space.call('POST', `/runs/${run.id}/revert`, { note: 'wrong rule' }, 200);
      assert.equal(reverted.body.status, 'reverted');
      assert.equal(reverted.body.revert.groupsDeleted, 1);
      assert.equal(reverted.body.revert.notReverted.length, 1);
      for (const id of [a, invoiceA, b, invoiceB]) assert.equal((await reconciliationOf(server, id!)).status, 'none');
      const audit = (await space.call('GET', `/audit-events?transactionId=${a}`, undefined, 200)).body.events;
      assert.ok(audit.some((event: { action: string; note: string }) => event.action === 'match.deleted' && event.note.includes('wrong rule')));
      await space.call('POST', `/runs/${run.id}/revert`, {}, 409);
    });

    it('finds the set of invoices a deposit pays (1:N), exactly, and closes a fee within tolerance as an adjustment', async () => {
      const space = await workspace(server);
      const [deposit, feePayment] = await space.add(space.bank, [
        ['300.10', 0],
        ['98.00', 20],
      ]);
      const [i1, i2, i3, invoice] = await space.add(space.ledger, [
        ['100.05', -1],
        ['200.05', -2],
        ['50.00', -1],
        ['100.00', 18],
      ]);
      await space.rule({
        name: 'Deposit pays invoices',
        cardinality: '1:N',
        maxGroupSize: 3,
        conditions: [
          { type: 'amount', sign: 'same' },
          { type: 'date', path: 'timestamp', min: '-P5D', max: 'P0D' },
        ],
      });
      await space.rule({
        name: 'Fee deducted',
        priority: 20,
        conditions: [
          { type: 'amount', sign: 'same', tolerance: { absolute: '2.50' } },
          { type: 'date', path: 'timestamp', min: '-P5D', max: 'P0D' },
        ],
        adjustment: { reason: 'fee' },
      });
      const run = await space.run({ mode: 'commit' });
      assert.equal(run.totals.matched, 2, JSON.stringify(run.counts));
      assert.equal((await reconciliationOf(server, deposit!)).status, 'full');
      assert.equal((await reconciliationOf(server, i1!)).status, 'full');
      assert.equal((await reconciliationOf(server, i2!)).status, 'full');
      assert.equal((await reconciliationOf(server, i3!)).status, 'none');
      const fee = await reconciliationOf(server, invoice!);
      assert.deepEqual([fee.status, fee.allocated], ['full', '100.00']);
      assert.equal((await reconciliationOf(server, feePayment!)).status, 'full');
      const record = (await space.call('GET', `/transactions/${feePayment}`, undefined, 200)).body;
      const group = (await space.call('GET', `/match-groups/${record.incomingMatches[0].groupId}`, undefined, 200)).body;
      assert.deepEqual(group.adjustment, { amount: '2.00', reason: 'fee' });
    });

    it('groups by an equal key (1:N with groupBy) and classifies with a classification rule', async () => {
      const space = await workspace(server);
      const [payout, fee] = await space.add(space.bank, [
        ['150.00', 0, undefined, { payoutId: 'po_1' }],
        ['1.50', 0, 'BANK FEE'],
      ]);
      const [first, second] = await space.add(space.ledger, [
        ['100.00', 0, undefined, { payoutId: 'po_1' }],
        ['50.00', 0, undefined, { payoutId: 'po_1' }],
      ]);
      await space.rule({
        name: 'Payout',
        cardinality: '1:N',
        groupBy: { origin: ['payoutId'], target: ['payoutId'] },
        conditions: [{ type: 'amount', sign: 'same' }],
      });
      await space.feesAreInformative('Bank fees are informative', 5);
      const run = await space.run({ mode: 'commit' });
      assert.equal(run.totals.matched, 1, JSON.stringify(run.counts));
      assert.equal(run.totals.classified, 1);
      for (const id of [payout, first, second]) assert.equal((await reconciliationOf(server, id!)).status, 'full');
      assert.equal((await reconciliationOf(server, fee!)).status, 'informative');
    });

    it('runs rules with runOnIngest after an ingest, so data arriving in any order is matched', async () => {
      const space = await workspace(server);
      await space.rule({ ...exactReference, runOnIngest: true });
      const [invoice] = await space.add(space.ledger, [['12.00', 0, 'LATE-1']]);
      const [payment] = await space.add(space.bank, [['12.00', 1, 'LATE-1']]);
      for (let attempt = 0; attempt < 300 && (await reconciliationOf(server, payment!)).status !== 'full'; attempt += 1) {
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      assert.equal((await reconciliationOf(server, payment!)).status, 'full');
      assert.equal((await reconciliationOf(server, invoice!)).status, 'full');
      const runs = (await space.call('GET', '/runs', undefined, 200)).body.runs;
      assert.ok(runs.some((run: { trigger: string }) => run.trigger === 'ingest'));

      // A file import triggers the rules as well.
      const [invoice2] = await space.add(space.ledger, [['33.30', 0, 'FILE-7']]);
      const imported = await api(
        server,
        space.organization.token,
        'POST',
        `/v1/api/${space.organization.orgId}/datasets/${space.bank}/imports?fileName=bank.csv`,
        'timestamp,description,amount,currency,reference\n2026-10-02,Payment FILE-7,33.30,EUR,FILE-7\n',
        { 'content-type': 'text/csv' },
      );
      assert.equal(imported.status, 201, JSON.stringify(imported.body));
      for (let attempt = 0; attempt < 300 && (await reconciliationOf(server, invoice2!)).status !== 'full'; attempt += 1) {
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      assert.equal((await reconciliationOf(server, invoice2!)).status, 'full');
    });

    it('ranks the candidates of a transaction with evidence', async () => {
      const space = await workspace(server);
      const [payment] = await space.add(space.bank, [['80.00', 0]]);
      const [near, far] = await space.add(space.ledger, [
        ['80.00', 1],
        ['80.00', 4],
      ]);
      await space.rule({
        name: 'Amount and date',
        conditions: [
          { type: 'amount', sign: 'same' },
          { type: 'date', path: 'timestamp', min: '-P5D', max: 'P5D' },
        ],
      });
      const answer = (await space.call('GET', `/transactions/${payment}/candidates?limit=5`, undefined, 200)).body;
      assert.deepEqual(
        answer.candidates.map((candidate: { transactionId: string }) => candidate.transactionId),
        [near, far],
      );
      assert.ok(Number(answer.candidates[0].score) > Number(answer.candidates[1].score));
    });

    it('pages results by cursor, confirms suggestions in bulk all or nothing, and refuses to cancel a finished run', async () => {
      const space = await workspace(server);
      const payments = await space.add(space.bank, [
        ['1.00', 0],
        ['2.00', 0],
        ['3.00', 0],
      ]);
      await space.add(space.ledger, [
        ['1.00', 0],
        ['2.00', 0],
        ['3.00', 0],
      ]);
      await space.rule({ name: 'Propose', outcome: 'suggest', conditions: [{ type: 'amount', sign: 'same' }] });
      const run = await space.run({ mode: 'commit' });
      assert.equal(run.totals.suggested, 3);
      const first = (await space.call('GET', `/runs/${run.id}/results?kind=suggestions&limit=2`, undefined, 200)).body;
      assert.equal(first.results.length, 2);
      assert.ok(first.nextCursor);
      const second = (await space.call('GET', `/runs/${run.id}/results?kind=suggestions&limit=2&cursor=${first.nextCursor}`, undefined, 200)).body;
      assert.equal(second.results.length, 1);
      assert.equal(second.nextCursor, null);
      const unmatched = (await space.call('GET', `/runs/${run.id}/results?kind=unmatched`, undefined, 200)).body;
      assert.deepEqual(unmatched.results.map((result: { id: string }) => result.id).sort(), [...payments].sort());

      const pending = (await space.call('GET', '/suggestions?status=pending', undefined, 200)).body.suggestions as { id: string }[];
      assert.equal(pending.length, 3);
      await space.call('POST', `/suggestions/${pending[2]!.id}/reject`, { reason: 'not ours' }, 200);
      const refused = await space.call('POST', '/suggestions/bulk', { ids: pending.map((suggestion) => suggestion.id), action: 'confirm' }, 409);
      assert.match(refused.body.error.message, /ids\[2\].*nothing was changed/);
      assert.equal((await space.call('GET', '/suggestions?status=pending', undefined, 200)).body.suggestions.length, 2, 'all or nothing');
      const confirmed = await space.call('POST', '/suggestions/bulk', { ids: pending.slice(0, 2).map((suggestion) => suggestion.id), action: 'confirm' }, 200);
      assert.deepEqual(
        confirmed.body.suggestions.map((suggestion: { status: string }) => suggestion.status),
        ['confirmed', 'confirmed'],
      );
      const fullCount = (await Promise.all(payments.map((id) => reconciliationOf(server, id!)))).filter((state) => state.status === 'full').length;
      assert.equal(fullCount, 2);

      const cancelled = await space.call('POST', `/runs/${run.id}/cancel`, undefined, 409);
      assert.match(cancelled.body.error.message, /revert it instead/);
    });

    it('N:1 finds the payments that settle one invoice; N:M matches groups by key and connected groups', async () => {
      const space = await workspace(server);
      const [part1, part2] = await space.add(space.bank, [
        ['60.00', 0],
        ['40.00', 3],
      ]);
      const [invoice] = await space.add(space.ledger, [['100.00', 4]]);
      await space.rule({
        name: 'Instalments',
        cardinality: 'N:1',
        maxGroupSize: 4,
        conditions: [
          { type: 'amount', sign: 'same' },
          { type: 'date', path: 'timestamp', min: 'P0D', max: 'P10D' },
        ],
      });
      const run = await space.run({ mode: 'commit' });
      assert.equal(run.totals.matched, 1, JSON.stringify(run.counts));
      for (const id of [part1, part2, invoice]) assert.equal((await reconciliationOf(server, id!)).status, 'full');

      // Two invoices that one payment settles equally well: a tie between anchors, never a first-come guess.
      const tied = await workspace(server);
      const [payment] = await tied.add(tied.bank, [['1340.00', 0]]);
      await tied.add(tied.ledger, [
        ['1340.00', 1],
        ['1340.00', 1],
      ]);
      await tied.rule({
        name: 'Instalments',
        cardinality: 'N:1',
        maxGroupSize: 4,
        conditions: [
          { type: 'amount', sign: 'same' },
          { type: 'date', path: 'timestamp', min: 'P0D', max: 'P10D' },
        ],
      });
      const tiedRun = await tied.run({ mode: 'commit' });
      assert.deepEqual([tiedRun.totals.matched, tiedRun.totals.ambiguous], [0, 1], JSON.stringify(tiedRun.counts));
      assert.equal((await reconciliationOf(server, payment!)).status, 'none');

      const grouped = await workspace(server);
      const bankSide = await grouped.add(grouped.bank, [
        ['70.00', 0, undefined, { payoutId: 'batch-9' }],
        ['30.00', 0, undefined, { payoutId: 'batch-9' }],
      ]);
      const ledgerSide = await grouped.add(grouped.ledger, [
        ['25.00', 1, undefined, { payoutId: 'batch-9' }],
        ['75.00', 1, undefined, { payoutId: 'batch-9' }],
      ]);
      await grouped.rule({
        name: 'Batch',
        cardinality: 'N:M',
        groupBy: { origin: ['payoutId'], target: ['payoutId'] },
        conditions: [{ type: 'amount', sign: 'same' }],
      });
      const groupedRun = await grouped.run({ mode: 'commit' });
      assert.equal(groupedRun.totals.matched, 1, JSON.stringify(groupedRun.counts));
      for (const id of [...bankSide, ...ledgerSide]) assert.equal((await reconciliationOf(server, id!)).status, 'full');

      const connected = await workspace(server);
      const left = await connected.add(connected.bank, [
        ['10.00', 0, 'K1'],
        ['5.00', 0, 'K1'],
      ]);
      const right = await connected.add(connected.ledger, [
        ['7.50', 0, 'K1'],
        ['7.50', 0, 'K1'],
      ]);
      await connected.rule({
        name: 'Same reference, any split',
        cardinality: 'N:M',
        maxGroupSize: 3,
        conditions: [
          { type: 'amount', sign: 'same' },
          { type: 'equals', origin: { path: 'reference' }, target: { path: 'reference' } },
        ],
      });
      const connectedRun = await connected.run({ mode: 'commit' });
      assert.equal(connectedRun.totals.matched, 1, JSON.stringify(connectedRun.counts));
      for (const id of [...left, ...right]) assert.equal((await reconciliationOf(server, id!)).status, 'full');
    });

    it('decides the same whatever the order of ingestion, and never matches a tie', async () => {
      // A small statement with repeated amounts and days, so that ties and near-ties abound.
      const bankRows: [string, number, string][] = [];
      const ledgerRows: [string, number, string][] = [];
      let seed = 20261123;
      const next = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31);
      for (let index = 0; index < 24; index += 1) {
        bankRows.push([`${(next() % 4) + 1}0.00`, next() % 5, `B${index}`]);
        ledgerRows.push([`${(next() % 4) + 1}0.00`, next() % 5, `L${index}`]);
      }
      const rule = {
        name: 'Amount and date',
        conditions: [
          { type: 'amount', sign: 'same' },
          { type: 'date', path: 'timestamp', min: '-P2D', max: 'P2D' },
        ],
      };
      const outcomes: string[][] = [];
      for (const order of ['forward', 'reversed'] as const) {
        const space = await workspace(server);
        const arrange = <T>(rows: T[]) => (order === 'forward' ? rows : [...rows].reverse());
        await space.add(space.ledger, arrange(ledgerRows));
        await space.add(space.bank, arrange(bankRows));
        await space.rule(rule);
        const run = await space.run({ mode: 'commit' });
        const matches = await space.results(run.id, 'matches');
        const ambiguous = await space.results(run.id, 'ambiguous');
        const label = async (id: string) =>
          (
            await space.call('POST', '/transactions', {
              datasetId: space.bank,
              search: [{ path: 'id', search: { type: 'string', value: [id], exact: true } }],
              columns: [{ path: 'reference' }],
            })
          ).body[0]?.reference ??
          (
            await space.call('POST', '/transactions', {
              datasetId: space.ledger,
              search: [{ path: 'id', search: { type: 'string', value: [id], exact: true } }],
              columns: [{ path: 'reference' }],
            })
          ).body[0]?.reference;
        const described: string[] = [];
        for (const match of matches) described.push(`match ${await label(match.links[0].originId)}>${await label(match.links[0].targetId)}`);
        for (const ambiguity of ambiguous) {
          // Every option of an ambiguity scores the same within the margin: a tie, left to a person.
          const scores = ambiguity.options.map((option: { score: string }) => Number(option.score));
          assert.ok(Math.max(...scores) - Math.min(...scores) <= 0.001, JSON.stringify(scores));
          const ids = [...new Set(ambiguity.transactionIds as string[])];
          described.push(`ambiguous ${(await Promise.all(ids.map(label))).sort().join(',')}`);
        }
        // No match was made on a transaction that an ambiguity of the same run lists.
        const ambiguousIds = new Set(ambiguous.flatMap((ambiguity: { transactionIds: string[] }) => ambiguity.transactionIds));
        for (const match of matches) assert.ok(!ambiguousIds.has(match.links[0].originId) && !ambiguousIds.has(match.links[0].targetId));
        outcomes.push(described.sort());
      }
      assert.ok(outcomes[0]!.length > 0);
      assert.deepEqual(outcomes[1], outcomes[0]);
    });
  });
}
