import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { collect, LedgerRecon, LedgerReconError } from '../../sdk/src/index.ts';
import { createTestOrganization, startTestServer, storeKinds, type TestOrganization, type TestServer } from '../../support/harness.ts';
import { EXAMPLE_PAYOUT, seedPayout } from '../../support/payout-fixtures.ts';
import { countingFetch } from './support.ts';

/** The SDK reads a payout's match group a page at a time, and every link of it by iterating. */

for (const kind of storeKinds()) {
  describe(`SDK match groups (${kind})`, () => {
    let server: TestServer;
    let organization: TestOrganization;

    before(async () => {
      server = await startTestServer(kind);
      organization = await createTestOrganization(server);
    });
    after(() => server.close());

    const clientOf = (options: Partial<ConstructorParameters<typeof LedgerRecon>[0]> = {}) =>
      new LedgerRecon({
        baseUrl: server.baseUrl,
        clientId: organization.clientId,
        clientSecret: organization.clientSecret,
        audience: server.config.audience,
        ...options,
      });

    it("gets a payout's links a page at a time with limit and cursor, iterates over all of them, and deletes the group whole", async () => {
      const payout = await seedPayout(server, organization);
      const rows = EXAMPLE_PAYOUT.charges.count + EXAMPLE_PAYOUT.refunds.count + EXAMPLE_PAYOUT.fees.count;
      const recon = clientOf();

      const whole = await recon.matchGroups.get(payout.groupId);
      assert.equal(whole.matches.length, rows, 'without limit or cursor, the group comes whole');
      assert.equal(whole.nextCursor, undefined);

      const first = await recon.matchGroups.get(payout.groupId, { limit: 100 });
      assert.equal(first.matches.length, 100);
      assert.equal(typeof first.nextCursor, 'string');
      const evidence = first.evidence as { group: { transactions: number; byType: { type: string; count: number; sum: string }[]; total: string } };
      assert.equal(evidence.group.transactions, rows, 'the evidence summarizes the whole group on every page');
      assert.deepEqual(evidence.group.byType, [
        { type: 'charge', count: 296, sum: '2960.00' },
        { type: 'refund', count: 4, sum: '-40.00' },
        { type: 'fee', count: 3, sum: '-87.30' },
      ]);
      const paged = [...first.matches];
      let cursor = first.nextCursor ?? null;
      while (cursor !== null) {
        const page = await recon.matchGroups.get(payout.groupId, { limit: 100, cursor });
        paged.push(...page.matches);
        cursor = page.nextCursor ?? null;
      }
      assert.deepEqual(
        paged.map((match) => match.id),
        whole.matches.map((match) => match.id),
        'the pages hold every link once, oldest first, as the whole group does',
      );

      // The iterator asks for pages of the client's page size, within what the operation accepts.
      const counting = countingFetch();
      const small = clientOf({ fetch: counting.fetch, pageSize: 50 });
      const links = await collect(small.matchGroups.links(payout.groupId));
      assert.deepEqual(
        links.map((match) => match.id),
        whole.matches.map((match) => match.id),
      );
      const pageRequests = counting.calls.filter((call) => call.url.includes(`/match-groups/${payout.groupId}`));
      assert.equal(pageRequests.length, Math.ceil(rows / 50));
      assert.ok(pageRequests.every((call) => new URL(call.url).searchParams.get('limit') === '50'));
      // A break stops the reading: no page is asked for beyond the one in hand.
      const before = counting.calls.length;
      assert.equal((await collect(small.matchGroups.links(payout.groupId), 10)).length, 10);
      assert.equal(counting.calls.length - before, 1);

      // One link of a netted payout cannot be removed alone; the group can.
      await assert.rejects(recon.matches.delete(whole.matches[0]!.id), (error: unknown) => error instanceof LedgerReconError && error.code === 409);
      await recon.matchGroups.delete(payout.groupId);
      await assert.rejects(recon.matchGroups.get(payout.groupId, { limit: 10 }), (error: unknown) => error instanceof LedgerReconError && error.code === 404);
    });
  });
}
