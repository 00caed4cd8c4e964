import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Queryable } from '../../src/db/database.ts';
import {
  api,
  createTestOrganization,
  startSecondInstance,
  startTestServer,
  storeKinds,
  type TestOrganization,
  type TestServer,
} from '../../support/harness.ts';
import { createDataset, reconciliationOf } from '../../support/recon-fixtures.ts';

/**
 * Commit, revert and cancel of a run that is still working answer at once: commit and revert
 * with a 409 saying to try again after the run ends, cancel by recording the cancel, after which
 * the run stops and changes nothing. None of them waits for the run's own transaction, which can
 * last minutes. On PostgreSQL the run is held at a chosen step by a lock the test takes, so what
 * is tested does not depend on how fast the machine is; the embedded store runs one transaction
 * at a time, so there the run is simply large enough to be working when the requests arrive.
 * Requests reach the process that executes the run, which knows it is running, and on
 * PostgreSQL also another process, which only knows what the database says.
 */

const DAY = 86_400_000;
const START = Date.UTC(2026, 9, 1);
/** Pairs of the embedded store's run: enough that it works for a good second. */
const BUSY_RUN_PAIRS = 3000;
/** How long the other process's statements may wait for a lock: past it, the answer would be a 503. */
const OTHER_PROCESS_STATEMENT_TIMEOUT_MILLISECONDS = 2000;

async function workspace(server: TestServer, pairs: number) {
  const organization: TestOrganization = await createTestOrganization(server);
  const { datasetId: bank } = await createDataset(server, organization, { name: 'Bank' });
  const { datasetId: ledger } = await createDataset(server, organization, { name: 'Ledger' });
  const base = `/v1/api/${organization.orgId}`;
  /** A request to this server, or to another process when its base URL is given. */
  const call = (method: string, path: string, body?: unknown, baseUrl = server.baseUrl) =>
    api({ ...server, baseUrl }, organization.token, method, `${base}${path}`, body);
  for (const [datasetId, side] of [
    [bank, 'bank'],
    [ledger, 'ledger'],
  ] as const) {
    const records = Array.from({ length: pairs }, (_, index) => ({
      externalId: `${side}-${index}`,
      timestamp: START + (index % 50) * DAY,
      amount: `${(index % 97) + 1}.00`,
      currency: 'EUR',
      reference: `INV-${index}`,
    }));
    const ingested = await call('POST', `/datasets/${datasetId}/transactions`, { records });
    assert.equal(ingested.status, 200, JSON.stringify(ingested.body));
  }
  const rule = await call('POST', '/rules', {
    name: 'Exact reference',
    origin: { datasetIds: [bank] },
    target: { datasetIds: [ledger] },
    cardinality: '1:1',
    conditions: [
      { type: 'amount', sign: 'same' },
      { type: 'equals', origin: { path: 'reference' }, target: { path: 'reference' } },
    ],
  });
  assert.equal(rule.status, 201, JSON.stringify(rule.body));
  const start = async (mode: 'dry-run' | 'commit') => {
    const started = await call('POST', '/runs', { mode });
    assert.equal(started.status, 202, JSON.stringify(started.body));
    return started.body.id as string;
  };
  const finished = async (runId: string) => {
    for (;;) {
      const current = await call('GET', `/runs/${runId}`);
      if (!['queued', 'running'].includes(current.body.status)) return current.body;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  };
  return { organization, bank, call, start, finished };
}

function assertStillRunning(answer: { status: number; body: any }) {
  assert.equal(answer.status, 409, JSON.stringify(answer.body));
  assert.match(answer.body.error.message, /is still running; try again after it ends/);
}

for (const kind of storeKinds()) {
  describe(`requests about a run that is still working (${kind})`, () => {
    let server: TestServer;
    /** Another process over the same database, which only knows of the run what the database says. */
    let other: Awaited<ReturnType<typeof startSecondInstance>> | null = null;
    before(async () => {
      server = await startTestServer(kind);
      if (kind === 'postgres') other = await startSecondInstance(server, {}, { statementTimeoutMilliseconds: OTHER_PROCESS_STATEMENT_TIMEOUT_MILLISECONDS });
    });
    after(async () => {
      await other?.close();
      await server.close();
    });

    /** Runs `work` while another connection holds `lock` (PostgreSQL only), then lets go. */
    async function whileLocked(lock: string, work: () => Promise<void>) {
      let release!: () => void;
      const released = new Promise<void>((resolve) => (release = resolve));
      let locked!: () => void;
      const taken = new Promise<void>((resolve) => (locked = resolve));
      const holder = server.database.transaction(async (transaction: Queryable) => {
        await transaction.query('SET LOCAL statement_timeout = 0');
        await transaction.query(lock);
        locked();
        await released;
      });
      await taken;
      try {
        await work();
      } finally {
        release();
        await holder;
      }
    }

    /** Waits until a statement of this database waits for a lock: the run has reached the held step. */
    async function runWaitingForLock() {
      for (;;) {
        const [row] = await server.database.query<{ waiting: number }>(
          `SELECT count(*)::int AS waiting FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock'`,
        );
        if (row!.waiting > 0) return;
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
    }

    it(
      'refuses to revert a commit run held while carrying out, records its cancel at once, and the run then stops having changed nothing',
      { skip: kind !== 'postgres' && 'the embedded store cannot hold a run at a step' },
      async () => {
        const space = await workspace(server, 3);
        let runId = '';
        // The run decides, then waits to lock the transactions it would change.
        await whileLocked('LOCK TABLE transactions IN EXCLUSIVE MODE', async () => {
          runId = await space.start('commit');
          await runWaitingForLock();
          assertStillRunning(await space.call('POST', `/runs/${runId}/revert`, { note: 'too soon' }));
          assertStillRunning(await space.call('POST', `/runs/${runId}/revert`, { note: 'too soon' }, other!.baseUrl));
          // The cancel is asked of the process that executes the run, which stops it at its next step.
          const cancelled = await space.call('POST', `/runs/${runId}/cancel`);
          assert.equal(cancelled.status, 200, JSON.stringify(cancelled.body));
          assert.equal(cancelled.body.status, 'running');
          // The answers came while the run was still held.
          await runWaitingForLock();
        });
        const run = await space.finished(runId);
        assert.equal(run.status, 'cancelled', JSON.stringify(run));
        const [bankTransaction] = await server.database.query<{ id: string }>('SELECT id FROM transactions WHERE dataset_id = $1 LIMIT 1', [space.bank]);
        assert.equal((await reconciliationOf(server, bankTransaction!.id)).status, 'none');
      },
    );

    it(
      'refuses, from another process, to commit a dry run held while it finishes, at once',
      { skip: kind !== 'postgres' && 'the embedded store cannot hold a run at a step' },
      async () => {
        const space = await workspace(server, BUSY_RUN_PAIRS);
        const runId = await space.start('dry-run');
        while ((await space.call('GET', `/runs/${runId}`)).body.status !== 'running') await new Promise((resolve) => setTimeout(resolve, 10));
        // The run's last statement records it finished, which writes an event: the events are held
        // from before the run gets there (it works for a good second).
        await whileLocked('LOCK TABLE events IN EXCLUSIVE MODE', async () => {
          await runWaitingForLock();
          assertStillRunning(await space.call('POST', `/runs/${runId}/commit`, undefined, other!.baseUrl));
          assertStillRunning(await space.call('POST', `/runs/${runId}/revert`, {}, other!.baseUrl));
          await runWaitingForLock();
        });
        assert.equal((await space.finished(runId)).status, 'completed');
      },
    );

    it('refuses to commit or revert a run while it works, and a cancel stops it', async () => {
      const space = await workspace(server, BUSY_RUN_PAIRS);
      const executing = async (runId: string) => {
        while (!server.services.runs.isExecutingHere(space.organization.orgId, runId)) await new Promise((resolve) => setImmediate(resolve));
      };
      const dryRun = await space.start('dry-run');
      await executing(dryRun);
      assertStillRunning(await space.call('POST', `/runs/${dryRun}/commit`));
      assertStillRunning(await space.call('POST', `/runs/${dryRun}/revert`, {}));
      assert.ok(server.services.runs.isExecutingHere(space.organization.orgId, dryRun), 'the answers came while the run worked');
      assert.equal((await space.finished(dryRun)).status, 'completed');

      const commitRun = await space.start('commit');
      await executing(commitRun);
      const cancelled = await space.call('POST', `/runs/${commitRun}/cancel`);
      assert.equal(cancelled.status, 200, JSON.stringify(cancelled.body));
      assert.equal((await space.finished(commitRun)).status, 'cancelled');
      const [matched] = await server.database.query<{ count: number }>('SELECT count(*)::int AS count FROM matches WHERE organization_id = $1', [
        space.organization.orgId,
      ]);
      assert.equal(matched!.count, 0);
    });
  });
}
