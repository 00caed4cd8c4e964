import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startTestServer, storeKinds, type TestServer } from '../../support/harness.ts';
import { workspace } from '../../support/event-workspace.ts';

/**
 * The cursors of the lists ordered by a counter all organizations share (the event feed, the
 * audit trail, a run's results) tell nothing of that counter: two cursors of one organization do
 * not show how much the others did in between. A cursor is bound to its organization and list,
 * refused when altered, and the same place always gives the same cursor.
 */

/** Whether a cursor carries a number in clear, as the text its part after the prefix decodes to. */
function shows(cursor: string, value: string): boolean {
  return Buffer.from(cursor.slice(cursor.search(/[._]/) + 1), 'base64url').toString('latin1') === value;
}

for (const kind of storeKinds()) {
  describe(`sealed cursors (${kind})`, () => {
    let server: TestServer;
    let ours: Awaited<ReturnType<typeof workspace>>;
    let theirs: Awaited<ReturnType<typeof workspace>>;
    before(async () => {
      server = await startTestServer(kind);
      ours = await workspace(server);
      theirs = await workspace(server);
    });
    after(async () => server.close());

    it("keeps the event feed's places out of its cursors, and binds them to the organization", async () => {
      await ours.matchPair();
      const first = await ours.events();
      // Another organization is busy in between.
      for (let pair = 0; pair < 3; pair += 1) await theirs.matchPair();
      await ours.matchPair();
      const second = await ours.events(`?cursor=${first.nextCursor}`);
      assert.equal(second.events.length, 3, JSON.stringify(second));

      const places = await server.database.query<{ position: string }>('SELECT position::text AS position FROM events WHERE id = ANY ($1::uuid[])', [
        [first.events.at(-1).id, second.events.at(-1).id],
      ]);
      for (const { position } of places) {
        for (const cursor of [first.nextCursor, second.nextCursor]) assert.ok(!shows(cursor, position), `${cursor} shows the place ${position}`);
      }
      // The same place, the same cursor; a cursor holds for its organization only, and whole.
      assert.equal((await ours.events()).nextCursor, second.nextCursor);
      const foreign = await theirs.call('GET', `/events?cursor=${first.nextCursor}`);
      assert.equal(foreign.status, 400, JSON.stringify(foreign.body));
      assert.equal(foreign.body.error.details[0].path, '/querystring/cursor');
      const altered = `${first.nextCursor.slice(0, -2)}${first.nextCursor.endsWith('AA') ? 'AB' : 'AA'}`;
      assert.equal((await ours.call('GET', `/events?cursor=${altered}`)).status, 400);
      // A cursor of an earlier version (the place in clear) is refused with a message of its own.
      const earlier = await ours.call('GET', `/events?cursor=ev_${Buffer.from(places[0]!.position).toString('base64url')}`);
      assert.equal(earlier.status, 400);
      assert.match(earlier.body.error.message, /earlier version of this service/);
    });

    it("keeps the audit trail's sequence numbers out of its cursors, and binds them to the organization", async () => {
      await ours.matchPair();
      const first = (await ours.call('GET', '/audit-events?limit=1', undefined, 200)).body;
      for (let pair = 0; pair < 2; pair += 1) await theirs.matchPair();
      const second = (await ours.call('GET', `/audit-events?limit=1&cursor=${first.nextCursor}`, undefined, 200)).body;
      const sequences = await server.database.query<{ sequence: string }>(
        `SELECT sequence::text AS sequence FROM audit_events WHERE organization_id = $1 ORDER BY sequence LIMIT 2`,
        [ours.organization.orgId],
      );
      assert.equal(sequences.length, 2);
      for (const { sequence } of sequences) {
        for (const cursor of [first.nextCursor, second.nextCursor]) assert.ok(!shows(cursor, sequence), `${cursor} shows the sequence ${sequence}`);
      }
      assert.equal((await ours.call('GET', '/audit-events?limit=1', undefined, 200)).body.nextCursor, first.nextCursor);
      const foreign = await theirs.call('GET', `/audit-events?cursor=${first.nextCursor}`);
      assert.equal(foreign.status, 400, JSON.stringify(foreign.body));
      assert.equal(foreign.body.error.details[0].path, '/querystring/cursor');
    });

    it("binds the cursor of a run's results to its run and kind", async () => {
      for (let pair = 0; pair < 3; pair += 1) await ours.matchPair();
      await ours.call(
        'POST',
        `/datasets/${ours.bank}/transactions`,
        {
          records: [1, 2, 3].map((index) => ({
            externalId: `open-bank-${index}`,
            timestamp: 1_700_000_100_000 + index,
            amount: `${index}.00`,
            currency: 'EUR',
          })),
        },
        200,
      );
      await ours.call(
        'POST',
        `/datasets/${ours.ledger}/transactions`,
        {
          records: [1, 2, 3].map((index) => ({
            externalId: `open-ledger-${index}`,
            timestamp: 1_700_000_100_000 + index,
            amount: `${index}.00`,
            currency: 'EUR',
          })),
        },
        200,
      );
      await ours.call(
        'POST',
        '/rules',
        {
          name: 'Same amount',
          origin: { datasetIds: [ours.bank] },
          target: { datasetIds: [ours.ledger] },
          cardinality: '1:1',
          conditions: [{ type: 'amount', sign: 'same' }],
        },
        201,
      );
      const dryRun = async () => {
        const started = (await ours.call('POST', '/runs', { mode: 'dry-run' }, 202)).body;
        for (;;) {
          const run = (await ours.call('GET', `/runs/${started.id}`, undefined, 200)).body;
          if (run.status === 'completed') return run.id as string;
          assert.ok(['queued', 'running'].includes(run.status), JSON.stringify(run));
          await new Promise((resolve) => setTimeout(resolve, 50));
        }
      };
      const [one, two] = [await dryRun(), await dryRun()];
      const page = (await ours.call('GET', `/runs/${one}/results?kind=matches&limit=1`, undefined, 200)).body;
      assert.ok(page.nextCursor, JSON.stringify(page));
      assert.equal((await ours.call('GET', `/runs/${one}/results?kind=matches&limit=1&cursor=${page.nextCursor}`, undefined, 200)).body.results.length, 1);
      for (const elsewhere of [`/runs/${two}/results?kind=matches`, `/runs/${one}/results?kind=suggestions`]) {
        const refused = await ours.call('GET', `${elsewhere}&cursor=${page.nextCursor}`);
        assert.equal(refused.status, 400, `${elsewhere}: ${JSON.stringify(refused.body)}`);
      }
    });
  });
}
