import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { storeKinds } from '../../support/harness.ts';
import { startKillableServer } from '../../support/processes.ts';

/** Pairs the killed run matches: enough for a committing run to take several seconds on each store. */
const PAIRS_BY_STORE = { pglite: 20_000, postgres: 60_000 } as const;

function csv(side: 'bank' | 'ledger', PAIRS: number): string {
  const lines = ['timestamp,description,amount,currency,reference'];
  for (let index = 0; index < PAIRS; index++) {
    const day = String((index % 28) + 1).padStart(2, '0');
    const amount = `${(index % 9000) + 1}.${String(index % 100).padStart(2, '0')}`;
    lines.push(`2024-03-${day},${side} ${index},${amount},EUR,INV-${100000 + index}`);
  }
  return lines.join('\n') + '\n';
}

for (const kind of storeKinds()) {
  describe(`a committing run killed with SIGKILL (${kind})`, () => {
    it('is completed or failed after restart, never half made, and statuses agree with matches', async () => {
      const PAIRS = PAIRS_BY_STORE[kind];
      const server = await startKillableServer(kind);
      const { api } = server;
      try {
        const sources = await api('GET', '/sources');
        const datasets: Record<string, string> = {};
        for (const side of ['bank', 'ledger'] as const) {
          const created = await api('POST', `/sources/${sources.body[0].id}/datasets`, { name: `Crash ${side}` });
          datasets[side] = created.body.id;
          const imported = await api('POST', `/datasets/${created.body.id}/imports?fileName=${side}.csv`, csv(side, PAIRS), 'text/csv');
          assert.equal(imported.status, 201, JSON.stringify(imported.body).slice(0, 300));
        }
        const rule = await api('POST', '/rules', {
          name: 'Crash reference',
          origin: { datasetIds: [datasets.bank] },
          target: { datasetIds: [datasets.ledger] },
          conditions: [
            { type: 'amount', sign: 'same' },
            { type: 'equals', origin: { path: 'reference' }, target: { path: 'reference' } },
          ],
        });
        assert.equal(rule.status, 201, JSON.stringify(rule.body));
        const started = await api('POST', '/runs', { mode: 'commit', ruleIds: [rule.body.id] });
        assert.equal(started.status, 202, JSON.stringify(started.body));
        const runId = started.body.id as string;
        if (kind === 'postgres') {
          // The run's progress is visible to other requests: kill once it is under way.
          const deadline = Date.now() + 60_000;
          for (;;) {
            const current = await api('GET', `/runs/${runId}`);
            if (current.body.status === 'running') break;
            assert.ok(Date.now() < deadline, `the run never started: ${JSON.stringify(current.body)}`);
            await new Promise((resolve) => setTimeout(resolve, 50));
          }
          await new Promise((resolve) => setTimeout(resolve, 500));
        } else {
          // The embedded store serves one transaction at a time, so a read would wait for the run.
          await new Promise((resolve) => setTimeout(resolve, 2_500));
        }
        await server.kill();

        await server.restart();
        let run: any;
        const deadline = Date.now() + 240_000;
        do {
          await new Promise((resolve) => setTimeout(resolve, 500));
          run = (await api('GET', `/runs/${runId}`)).body;
        } while (['queued', 'running'].includes(run.status) && Date.now() < deadline);
        assert.ok(['completed', 'failed'].includes(run.status), JSON.stringify(run));

        // Every transaction's status agrees with its matches, and the run is whole or absent.
        let matched = 0;
        for (const side of ['bank', 'ledger'] as const) {
          let offset = 0;
          for (;;) {
            const page = await api('POST', '/transactions', { datasetId: datasets[side], limit: 1000, offset });
            assert.equal(page.status, 200);
            for (const record of page.body as any[]) {
              const matches = [...record.incomingMatches, ...record.outgoingMatches];
              assert.equal(record.reconciliationStatus, matches.length > 0 ? 'full' : 'none', JSON.stringify(record));
              for (const match of matches) assert.equal(match.runId, runId);
              if (matches.length > 0) matched += 1;
            }
            if (page.body.length < 1000) break;
            offset += 1000;
          }
        }
        assert.equal(matched, run.status === 'completed' ? 2 * PAIRS : 0, `run ${run.status}: ${matched} transactions matched`);
        if (run.status === 'completed') {
          assert.equal(run.totals.matched, PAIRS);
          // The kill interrupted the first attempt: the run was completed by a later one.
          assert.ok(run.timings.attempt >= 2, JSON.stringify(run.timings));
        }
      } finally {
        await server.close();
      }
    });
  });
}
