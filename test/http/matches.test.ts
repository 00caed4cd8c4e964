import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { api, createTestClient, createTestOrganization, startTestServer, storeKinds, type TestOrganization, type TestServer } from '../../support/harness.ts';
import { addTransactions, createDataset, reconciliationOf, revisionOf } from '../../support/recon-fixtures.ts';

for (const kind of storeKinds()) {
  describe(`matches (${kind})`, () => {
    let server: TestServer;
    let organization: TestOrganization;
    let bank: string;
    let ledger: string;
    let counter = 0;
    before(async () => {
      server = await startTestServer(kind);
      organization = await createTestOrganization(server);
      ({ datasetId: bank } = await createDataset(server, organization, { name: 'Bank' }));
      ({ datasetId: ledger } = await createDataset(server, organization, { name: 'Ledger' }));
    });
    after(async () => server.close());

    const base = () => `/v1/api/${organization.orgId}`;
    const match = (body: unknown, token = organization.token, headers: Record<string, string> = {}) =>
      api(server, token, 'POST', `${base()}/matches`, body, headers);
    /** Adds one transaction per given amount (null: none) to a dataset and returns their ids in order. */
    async function transactions(datasetId: string, ...amounts: (string | null | { amount: string | null; currency?: string })[]) {
      const records = amounts.map((entry) => {
        const { amount, currency } = typeof entry === 'object' && entry !== null ? entry : { amount: entry, currency: undefined };
        return { externalId: `t${++counter}`, timestamp: 1_700_000_000_000 + counter, amount, ...(currency ? { currency } : {}) };
      });
      const ids = await addTransactions(server, organization, datasetId, records);
      return records.map((record) => ids[record.externalId]!);
    }

    it('allocates by default what is left of both sides, exactly: 0.10 + 0.20 against 0.30', async () => {
      const [payment] = await transactions(bank, '0.30');
      const [first, second] = await transactions(ledger, '-0.10', '-0.20');
      const bankRevision = await revisionOf(server, bank);
      const ledgerRevision = await revisionOf(server, ledger);
      const response = await match({
        links: [
          { originId: payment, targetId: first },
          { originId: payment, targetId: second },
        ],
        note: 'January',
      });
      assert.equal(response.status, 201, JSON.stringify(response.body));
      assert.equal(response.body.forced, false);
      assert.deepEqual(
        response.body.matches.map((entry: { amount: string }) => entry.amount),
        ['0.10', '0.20'],
      );
      const [created] = response.body.matches;
      assert.deepEqual(Object.keys(created), [
        'id',
        'groupId',
        'originId',
        'originDatasetId',
        'targetId',
        'targetDatasetId',
        'amount',
        'method',
        'ruleId',
        'ruleVersion',
        'runId',
        'createdAt',
        'createdBy',
      ]);
      assert.equal(created.groupId, response.body.groupId);
      assert.equal(created.originDatasetId, bank);
      assert.equal(created.targetDatasetId, ledger);
      assert.equal(created.method, 'manual');
      assert.equal(created.ruleId, null);
      assert.equal(created.createdBy, `client:${organization.clientId}`);
      assert.deepEqual(await reconciliationOf(server, payment!), { status: 'full', allocated: '0.30', match_count: 2, override: null });
      assert.equal((await reconciliationOf(server, first!)).status, 'full');
      assert.equal((await reconciliationOf(server, second!)).status, 'full');
      assert.ok((await revisionOf(server, bank)) > bankRevision, 'the origin dataset revision grows');
      assert.ok((await revisionOf(server, ledger)) > ledgerRevision, 'the target dataset revision grows');

      const record = await api(server, organization.token, 'GET', `${base()}/transactions/${payment}`);
      assert.equal(record.body.reconciliationStatus, 'full');
      assert.equal(record.body.incomingMatches.length, 2);
      assert.equal(record.body.outgoingMatches.length, 0);
      const target = await api(server, organization.token, 'GET', `${base()}/transactions/${first}`);
      assert.deepEqual(target.body.outgoingMatches, [created]);
    });

    it('derives partial and full from the allocated total, and sums exactly with a 20-digit amount', async () => {
      const [big] = await transactions(bank, '123456789012345678.12');
      const [part, rest] = await transactions(ledger, '-100000000000000000.01', '-23456789012345678.11');
      const first = await match({ links: [{ originId: big, targetId: part }] });
      assert.equal(first.status, 201);
      assert.equal(first.body.matches[0].amount, '100000000000000000.01');
      assert.deepEqual(await reconciliationOf(server, big!), { status: 'partial', allocated: '100000000000000000.01', match_count: 1, override: null });
      assert.equal((await reconciliationOf(server, part!)).status, 'full');
      const second = await match({ links: [{ originId: big, targetId: rest }] });
      assert.equal(second.body.matches[0].amount, '23456789012345678.11');
      assert.deepEqual(await reconciliationOf(server, big!), { status: 'full', allocated: '123456789012345678.12', match_count: 2, override: null });
    });

    it('takes an explicit amount and refuses one beyond what is left of either side (409 naming the link), unless forced', async () => {
      const [origin] = await transactions(bank, '50.00');
      const [target, other] = await transactions(ledger, '-20.00', '-100.00');
      const explicit = await match({ links: [{ originId: origin, targetId: target, amount: '15.5' }] });
      assert.equal(explicit.status, 201);
      assert.equal(explicit.body.matches[0].amount, '15.5');
      assert.equal((await reconciliationOf(server, target!)).status, 'partial');

      const beyondTarget = await match({
        links: [
          { originId: origin, targetId: other, amount: '1.00' },
          { originId: origin, targetId: target, amount: '4.51' },
        ],
      });
      assert.equal(beyondTarget.status, 409);
      assert.equal(beyondTarget.body.error.details[0].path, '/links/1/amount');
      assert.match(beyondTarget.body.error.message, /link 1 would over-allocate/);
      assert.match(beyondTarget.body.error.message, /4\.50 left to allocate on the target/);
      // All or nothing: link 0 was not kept.
      assert.equal((await reconciliationOf(server, other!)).match_count, 0);

      const beyondOrigin = await match({ links: [{ originId: origin, targetId: other, amount: '34.51' }] });
      assert.equal(beyondOrigin.status, 409);
      assert.match(beyondOrigin.body.error.message, /34\.50 left to allocate on the origin/);

      const forced = await match({ links: [{ originId: origin, targetId: other, amount: '40.00' }], force: true, note: 'bank fee booked later' });
      assert.equal(forced.status, 201);
      assert.equal(forced.body.forced, true);
      const stored = await server.database.query<{ forced: boolean; group_forced: boolean }>(
        'SELECT m.forced, g.forced AS group_forced FROM matches m JOIN match_groups g ON g.id = m.group_id WHERE m.id = $1',
        [forced.body.matches[0].id],
      );
      assert.deepEqual(stored[0], { forced: true, group_forced: true });
      // Over-allocated by force: the origin counts as full.
      assert.deepEqual(await reconciliationOf(server, origin!), { status: 'full', allocated: '55.50', match_count: 2, override: null });
      assert.equal((await reconciliationOf(server, other!)).status, 'partial');

      const nothingLeft = await match({ links: [{ originId: origin, targetId: other }] });
      assert.equal(nothingLeft.status, 409);
      assert.match(nothingLeft.body.error.message, new RegExp(`nothing is left to allocate on transaction ${origin}`));
      const forcedWithoutAmount = await match({ links: [{ originId: origin, targetId: other }], force: true });
      assert.equal(forcedWithoutAmount.status, 409);
      assert.match(forcedWithoutAmount.body.error.message, /give the link an explicit "amount"/);
    });

    it('refuses matching across currencies unless forced', async () => {
      const [euros] = await transactions(bank, { amount: '10.00', currency: 'EUR' });
      const [dollars, unknownCurrency] = await transactions(ledger, { amount: '-10.00', currency: 'USD' }, { amount: '-10.00' });
      const refused = await match({ links: [{ originId: euros, targetId: dollars }] });
      assert.equal(refused.status, 409);
      assert.match(refused.body.error.message, /EUR transaction to a USD transaction/);
      const forced = await match({ links: [{ originId: euros, targetId: dollars, amount: '5.00' }], force: true });
      assert.equal(forced.status, 201);
      assert.equal(forced.body.forced, true);
      // A transaction without a currency matches any.
      const open = await match({ links: [{ originId: euros, targetId: unknownCurrency }] });
      assert.equal(open.status, 201);
      assert.equal(open.body.forced, false);
      assert.equal(open.body.matches[0].amount, '5.00');
    });

    it('links transactions without amounts with a null amount and makes them full', async () => {
      const [left] = await transactions(bank, null);
      const [right, withAmount] = await transactions(ledger, null, '-7.25');
      const response = await match({ links: [{ originId: left, targetId: right }] });
      assert.equal(response.status, 201);
      assert.equal(response.body.matches[0].amount, null);
      assert.equal((await reconciliationOf(server, left!)).status, 'full');
      assert.equal((await reconciliationOf(server, right!)).status, 'full');
      const oneSided = await match({ links: [{ originId: left, targetId: withAmount }] });
      assert.equal(oneSided.body.matches[0].amount, '7.25');
      assert.equal((await reconciliationOf(server, withAmount!)).status, 'full');
      const pointless = await match({ links: [{ originId: right, targetId: left, amount: '1.00' }] });
      assert.equal(pointless.status, 400);
      assert.equal(pointless.body.error.details[0].path, '/links/0/amount');
    });

    it('refuses malformed links: self-links, repeated pairs, bad amounts, unknown ids', async () => {
      const [a] = await transactions(bank, '1.00');
      const [b] = await transactions(ledger, '-1.00');
      const self = await match({ links: [{ originId: a, targetId: a }] });
      assert.equal(self.status, 400);
      assert.equal(self.body.error.details[0].path, '/links/0/targetId');
      const repeated = await match({
        links: [
          { originId: a, targetId: b, amount: '0.50' },
          { originId: b, targetId: a, amount: '0.50' },
        ],
      });
      assert.equal(repeated.status, 400);
      assert.equal(repeated.body.error.details[0].path, '/links/1');
      for (const amount of ['0', '-1.00', '1,00', 'abc', '0.0000001']) {
        const bad = await match({ links: [{ originId: a, targetId: b, amount }] });
        assert.equal(bad.status, 400, amount);
        assert.equal(bad.body.error.details[0].path, '/links/0/amount', amount);
      }
      const empty = await match({ links: [] });
      assert.equal(empty.status, 400);
      const unknownProperty = await match({ links: [{ originId: a, targetId: b }], forse: true });
      assert.equal(unknownProperty.status, 400);
      assert.equal(unknownProperty.body.error.details[0].path, '/forse');
      const unknown = await match({ links: [{ originId: a, targetId: '00000000-0000-4000-8000-000000000000' }] });
      assert.equal(unknown.status, 404);
      assert.equal(unknown.body.error.details[0].path, '/links/0/targetId');
      assert.equal((await reconciliationOf(server, a!)).match_count, 0);
    });

    it('answers 404 for transactions of another organization and never touches them', async () => {
      const other = await createTestOrganization(server);
      const { datasetId } = await createDataset(server, other);
      const foreignIds = await addTransactions(server, other, datasetId, [{ externalId: 'f', timestamp: 1, amount: '1.00' }]);
      const [mine] = await transactions(bank, '1.00');
      const response = await match({ links: [{ originId: mine, targetId: foreignIds.f }] });
      assert.equal(response.status, 404);
      assert.equal((await reconciliationOf(server, foreignIds.f!)).match_count, 0);
      const fromOther = await api(server, other.token, 'POST', `/v1/api/${other.orgId}/matches`, { links: [{ originId: foreignIds.f, targetId: mine }] });
      assert.equal(fromOther.status, 404);
    });

    it('refuses to match informative and out-of-scope transactions (409)', async () => {
      const [kept, excluded] = await transactions(bank, '3.00', '4.00');
      const [target] = await transactions(ledger, '-3.00');
      for (const [id, status] of [
        [kept, 'informative'],
        [excluded, 'out of scope'],
      ] as const) {
        const patched = await api(server, organization.token, 'PATCH', `${base()}/transactions/${id}`, { reconciliationStatus: status });
        assert.equal(patched.status, 200);
        const refused = await match({ links: [{ originId: target, targetId: id }] });
        assert.equal(refused.status, 409);
        assert.equal(refused.body.error.details[0].path, '/links/0/targetId');
        assert.match(refused.body.error.message, new RegExp(`is "${status}" and cannot be matched`));
      }
    });

    it('deletes a match or a whole group and derives the statuses anew', async () => {
      const [payment] = await transactions(bank, '30.00');
      const [first, second] = await transactions(ledger, '-10.00', '-20.00');
      const created = await match({
        links: [
          { originId: payment, targetId: first },
          { originId: payment, targetId: second },
        ],
      });
      const [one, two] = created.body.matches;
      const revision = await revisionOf(server, ledger);

      const deleted = await api(server, organization.token, 'DELETE', `${base()}/matches/${one.id}?note=wrong%20invoice`);
      assert.equal(deleted.status, 204);
      assert.equal(deleted.body, null);
      assert.deepEqual(await reconciliationOf(server, payment!), { status: 'partial', allocated: '20.00', match_count: 1, override: null });
      assert.deepEqual(await reconciliationOf(server, first!), { status: 'none', allocated: '0', match_count: 0, override: null });
      assert.ok((await revisionOf(server, ledger)) > revision);
      assert.equal((await api(server, organization.token, 'DELETE', `${base()}/matches/${one.id}`)).status, 404);

      const group = await api(server, organization.token, 'DELETE', `${base()}/match-groups/${created.body.groupId}`);
      assert.equal(group.status, 204);
      assert.equal((await reconciliationOf(server, payment!)).status, 'none');
      assert.equal((await reconciliationOf(server, second!)).status, 'none');
      const gone = await server.database.query('SELECT 1 FROM matches WHERE id = $1 UNION ALL SELECT 1 FROM match_groups WHERE id = $2', [
        two.id,
        created.body.groupId,
      ]);
      assert.equal(gone.length, 0);
      assert.equal((await api(server, organization.token, 'DELETE', `${base()}/match-groups/${created.body.groupId}`)).status, 404);

      // Deleting the last match of a group removes the group too.
      const single = await match({ links: [{ originId: payment, targetId: first }] });
      await api(server, organization.token, 'DELETE', `${base()}/matches/${single.body.matches[0].id}`);
      assert.equal((await api(server, organization.token, 'DELETE', `${base()}/match-groups/${single.body.groupId}`)).status, 404);
    });

    it('answers 404 when deleting matches of another organization, and 403 to a view-only client', async () => {
      const [a] = await transactions(bank, '2.00');
      const [b] = await transactions(ledger, '-2.00');
      const created = await match({ links: [{ originId: a, targetId: b }] });
      const other = await createTestOrganization(server);
      const foreign = await api(server, other.token, 'DELETE', `/v1/api/${other.orgId}/matches/${created.body.matches[0].id}`);
      assert.equal(foreign.status, 404);
      const foreignGroup = await api(server, other.token, 'DELETE', `/v1/api/${other.orgId}/match-groups/${created.body.groupId}`);
      assert.equal(foreignGroup.status, 404);
      const viewer = await createTestClient(server, organization.orgId, 'View-only');
      assert.equal((await api(server, viewer.token, 'DELETE', `${base()}/matches/${created.body.matches[0].id}`)).status, 403);
      assert.equal((await match({ links: [{ originId: a, targetId: b }] }, viewer.token)).status, 403);
      assert.equal((await reconciliationOf(server, a!)).match_count, 1);
    });

    it('keeps the counts per status of GET /sources current', async () => {
      const { datasetId: left } = await createDataset(server, organization, { name: 'Counted left' });
      const { datasetId: right } = await createDataset(server, organization, { name: 'Counted right' });
      const leftIds = await addTransactions(server, organization, left, [
        { externalId: 'l1', timestamp: 1, amount: '10.00' },
        { externalId: 'l2', timestamp: 2, amount: '10.00' },
        { externalId: 'l3', timestamp: 3, amount: '10.00' },
      ]);
      const rightIds = await addTransactions(server, organization, right, [{ externalId: 'r1', timestamp: 1, amount: '-15.00' }]);
      await match({
        links: [
          { originId: leftIds.l1, targetId: rightIds.r1 },
          { originId: leftIds.l2, targetId: rightIds.r1 },
        ],
      });
      await api(server, organization.token, 'PATCH', `${base()}/transactions/${leftIds.l3}`, { reconciliationStatus: 'out of scope' });
      const sources = await api(server, organization.token, 'GET', `${base()}/sources`);
      const datasets = sources.body.flatMap((source: { datasets: any[] }) => source.datasets);
      assert.deepEqual(datasets.find((dataset: { id: string }) => dataset.id === left).statusCounts, {
        none: 0,
        partial: 1,
        full: 1,
        informative: 0,
        'out of scope': 1,
      });
      assert.deepEqual(datasets.find((dataset: { id: string }) => dataset.id === right).statusCounts, {
        none: 0,
        partial: 0,
        full: 1,
        informative: 0,
        'out of scope': 0,
      });
    });

    it('never over-allocates under concurrent requests', async () => {
      const [origin] = await transactions(bank, '100.00');
      const targets = await transactions(ledger, '-30.00', '-30.00', '-30.00', '-30.00', '-30.00', '-30.00');
      const responses = await Promise.all(targets.map((target) => match({ links: [{ originId: origin, targetId: target }] })));
      const statuses = responses.map((response) => response.status).sort();
      assert.deepEqual(statuses, [201, 201, 201, 201, 409, 409], JSON.stringify(responses.map((response) => response.body)));
      const amounts = responses
        .filter((response) => response.status === 201)
        .map((response) => response.body.matches[0].amount)
        .sort();
      assert.deepEqual(amounts, ['10.00', '30.00', '30.00', '30.00']);
      assert.deepEqual(await reconciliationOf(server, origin!), { status: 'full', allocated: '100.00', match_count: 4, override: null });
      // Opposite lock orders in two requests do not deadlock.
      const [x, y] = await transactions(bank, '5.00', '5.00');
      const [p, q] = await transactions(ledger, '-5.00', '-5.00');
      const crossed = await Promise.all([
        match({
          links: [
            { originId: x, targetId: p, amount: '1.00' },
            { originId: y, targetId: q, amount: '1.00' },
          ],
        }),
        match({
          links: [
            { originId: y, targetId: p, amount: '1.00' },
            { originId: x, targetId: q, amount: '1.00' },
          ],
        }),
      ]);
      assert.deepEqual(
        crossed.map((response) => response.status),
        [201, 201],
      );
    });
  });
}
