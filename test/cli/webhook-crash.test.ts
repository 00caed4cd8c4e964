import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { storeKinds } from '../../support/harness.ts';
import { startKillableServer } from '../../support/processes.ts';
import { eventually, startReceiver, verify } from '../../support/receiver.ts';

for (const kind of storeKinds()) {
  describe(`a server killed with SIGKILL while it delivers webhooks (${kind})`, () => {
    it('delivers the committed events after restart, each once after de-duplication', async () => {
      const receiver = await startReceiver();
      // The transactions of the match, once ingested.
      const ids: string[] = [];
      /** Whether a delivered event is of this test's match: the only match made by hand since the endpoint exists. */
      const deliveredOfTheMatch = (data: { method?: string; transactionId?: string }) => data.method === 'manual' || ids.includes(data.transactionId ?? '');
      // First the receiver takes the match's requests and never answers: those deliveries are in
      // flight. Rules of the demo run on ingest and emit events of their own, which it accepts: an
      // endpoint whose every attempt fails is paused and then tried one delivery at a time, and
      // the match's deliveries would wait behind the demo's.
      let answering = false;
      receiver.respond = (message, response) => {
        if (answering || !deliveredOfTheMatch(JSON.parse(message.body).data)) response.writeHead(204).end();
      };
      const server = await startKillableServer(kind, {
        WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true',
        WEBHOOK_TIMEOUT_SECONDS: '3',
        WEBHOOK_RETRY_BASE_MS: '200',
      });
      const { api } = server;
      try {
        const endpoint = await api('POST', '/webhook-endpoints', { url: receiver.url, eventTypes: ['match_group.created', 'transaction.status_changed'] });
        assert.equal(endpoint.status, 201, JSON.stringify(endpoint.body));
        const sources = await api('GET', '/sources');
        const datasets: string[] = [];
        for (const name of ['Crash bank', 'Crash ledger']) {
          const created = await api('POST', `/sources/${sources.body[0].id}/datasets`, { name });
          datasets.push(created.body.id);
          const ingested = await api('POST', `/datasets/${created.body.id}/transactions`, {
            records: [{ externalId: `${name}-1`, timestamp: 1_700_000_000_000, description: name, amount: '77.70', currency: 'EUR' }],
          });
          assert.equal(ingested.status, 200, JSON.stringify(ingested.body));
        }
        for (const datasetId of datasets) ids.push((await api('POST', '/transactions', { datasetId })).body[0].id);
        const matched = await api('POST', '/matches', { links: [{ originId: ids[0], targetId: ids[1] }] });
        assert.equal(matched.status, 201, JSON.stringify(matched.body));
        // The change is committed; its deliveries are under way when the server dies.
        const ofTheMatchReceived = () => receiver.received.filter((entry) => deliveredOfTheMatch(JSON.parse(entry.body).data));
        await eventually(() => ofTheMatchReceived().length > 0, 'a delivery of the match in flight');
        await server.kill();
        const inFlight = new Set(ofTheMatchReceived().map((entry) => entry.id));

        answering = true;
        await server.restart();
        // The demo's own events came before the endpoint existed; these are the match's.
        const ofTheMatch = (data: { matchGroupId?: string; transactionId?: string }) =>
          data.matchGroupId === matched.body.groupId || ids.includes(data.transactionId ?? '');
        const events = (await api('GET', '/events?type=match_group.created,transaction.status_changed&limit=1000')).body.events.filter(
          (event: { data: { matchGroupId?: string; transactionId?: string } }) => ofTheMatch(event.data),
        );
        assert.equal(events.length, 3);
        // Rules of the demo run on ingest and may settle more transactions; what matters is that
        // every event committed before the crash arrives.
        await eventually(() => events.every((event: { id: string }) => receiver.accepted.has(event.id)), 'the three events after restart', 60_000);
        assert.ok(
          events.some((event: { id: string }) => inFlight.has(event.id)),
          'an event of the match was in flight when the server died',
        );
        for (const message of receiver.received.filter((entry) => receiver.accepted.has(entry.id))) verify(endpoint.body.secret, message);
      } finally {
        await server.close();
        await receiver.close();
      }
    });
  });
}
