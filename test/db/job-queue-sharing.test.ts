import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import type { Database } from '../../src/db/database.ts';
import { claimNextJob, completeJob, insertJob, recordKeyOutcome, type ClaimLimits } from '../../src/db/repositories/jobs.ts';
import { JobQueue } from '../../src/domain/jobs/job-queue.ts';
import { openTestStore, storeKinds } from '../../support/harness.ts';
import { eventually } from '../../support/receiver.ts';

/**
 * How the job queue shares its slots (docs/WEBHOOKS.md, "Who waits for whom"): a concurrency key
 * that keeps failing backs off and then runs one job at a time, across processes; an
 * organization holds at most its share of a process's slots and one holding none goes first;
 * failing or slow keys hold at most their share. Two process ids over one store stand for two
 * processes (on PostgreSQL they could be two machines: everything they share is in the store).
 */

const KIND = 'shared-slots-test';
const HEALTHY: ClaimLimits = { perKeyConcurrency: 4, excludedOrganizations: [], troubledKeysAllowed: true };
const BACKOFF = { failuresBeforePause: 3, pauseSeconds: [600, 3600] };

for (const kind of storeKinds()) {
  describe(`the job queue's shared slots (${kind})`, () => {
    let database: Database;
    let drop: () => Promise<void>;
    before(async () => {
      ({ database, drop } = await openTestStore(kind));
    });
    after(async () => drop());

    const organization = async () => {
      const id = randomUUID();
      await database.query('INSERT INTO organizations (id, name) VALUES ($1, $2)', [id, 'Sharing']);
      return id;
    };
    const queue = async (organizationId: string, concurrencyKey: string, count = 1) => {
      const ids: string[] = [];
      for (let index = 0; index < count; index += 1) {
        const id = randomUUID();
        await insertJob(database, { id, organizationId, kind: KIND, payload: { index }, maxAttempts: 5, concurrencyKey });
        ids.push(id);
      }
      return ids;
    };
    const claim = (processId: string, limits: ClaimLimits = HEALTHY) => claimNextJob(database, processId, 60, [KIND], limits);
    /** Ends the key's running jobs, as their processes would once their attempts are over. */
    const finishRunning = (key: string) =>
      database.query(`UPDATE jobs SET status = 'completed', finished_at = now() WHERE concurrency_key = $1 AND status = 'running'`, [key]);
    const keyState = async (key: string) =>
      (
        await database.query<{ failures: number; pauses: number; pausedForSeconds: number | null }>(
          `SELECT failures, pauses, extract(epoch FROM resume_at - now())::float8 AS "pausedForSeconds" FROM job_key_states WHERE concurrency_key = $1`,
          [key],
        )
      )[0];

    it('pauses a key after failures in a row, then runs one of its jobs at a time across processes until one succeeds', async () => {
      const organizationId = await organization();
      const key = randomUUID();
      await queue(organizationId, key, 12);
      const fail = () => recordKeyOutcome(database, key, { failed: true, slow: false }, BACKOFF);
      const running = [await claim('process-1'), await claim('process-2'), await claim('process-1'), await claim('process-2')];
      assert.ok(running.every((job) => job !== undefined && !job.keyTroubled));
      assert.equal(await claim('process-1'), undefined, 'four jobs of a key at once, across processes');

      // Two failures: not yet paused.
      await fail();
      await fail();
      await completeJob(database, running[0]!.id, 'process-1');
      assert.ok(await claim('process-2'), 'a key with two failures in a row still runs');

      // The third pauses it for the first pause; failures of attempts already under way add none.
      await fail();
      await fail();
      const paused = (await keyState(key))!;
      assert.deepEqual([paused.failures, paused.pauses], [4, 1]);
      assert.ok(paused.pausedForSeconds! > 590 && paused.pausedForSeconds! <= 600, String(paused.pausedForSeconds));
      await finishRunning(key);
      assert.equal(await claim('process-1'), undefined, 'nothing of a paused key is taken');

      // The pause over, one job at a time: the key is troubled, and a second process waits.
      await database.query(`UPDATE job_key_states SET resume_at = now() - interval '1 second' WHERE concurrency_key = $1`, [key]);
      const probe = await claim('process-1');
      assert.ok(probe?.keyTroubled);
      assert.equal(await claim('process-2'), undefined, 'one job at a time once a key has been paused');
      await fail();
      const again = (await keyState(key))!;
      assert.deepEqual([again.failures, again.pauses], [5, 2]);
      assert.ok(again.pausedForSeconds! > 3590, 'the second pause is the second of the schedule');
      await finishRunning(key);
      assert.equal(await claim('process-2'), undefined);

      // A success forgets it all: four at once again.
      await recordKeyOutcome(database, key, { failed: false, slow: false }, BACKOFF);
      assert.equal(await keyState(key), undefined);
      const healthy = [await claim('process-1'), await claim('process-2'), await claim('process-1'), await claim('process-2')];
      assert.ok(healthy.every((job) => job !== undefined && !job.keyTroubled));
      await database.query(`UPDATE jobs SET status = 'completed', finished_at = now() WHERE concurrency_key = $1`, [key]);
    });

    it('passes over an excluded organization, and over a failing or slow key when such keys hold their share', async () => {
      const [first, second] = [await organization(), await organization()];
      const [older] = await queue(first, randomUUID());
      const [newer] = await queue(second, randomUUID());
      assert.equal((await claim('process-1', { ...HEALTHY, excludedOrganizations: [first] }))?.id, newer);
      assert.equal((await claim('process-1'))?.id, older);

      const slowKey = randomUUID();
      await recordKeyOutcome(database, slowKey, { failed: false, slow: true }, BACKOFF);
      const [slowJob] = await queue(first, slowKey);
      const [healthyJob] = await queue(first, randomUUID());
      assert.equal((await claim('process-1', { ...HEALTHY, troubledKeysAllowed: false }))?.id, healthyJob);
      const taken = await claim('process-1');
      assert.deepEqual([taken?.id, taken?.keyTroubled], [slowJob, true]);
      await database.query(`UPDATE jobs SET status = 'completed', finished_at = now() WHERE kind = $1 AND status = 'running'`, [KIND]);
    });

    it("keeps an organization within its share of a process's slots, takes a newcomer's job first, and keeps troubled keys within theirs", async () => {
      const jobs = new JobQueue(database, { concurrency: 4, perOrganizationConcurrency: 2, troubledKeyConcurrency: 2, pollMilliseconds: 20 });
      const started: { organizationId: string; key: string }[] = [];
      const finish = new Map<string, () => void>();
      const kind = `${KIND}-queue`;
      jobs.register(kind, (job) => {
        started.push({ organizationId: job.organizationId!, key: String(job.payload.key) });
        return new Promise<void>((resolve) => finish.set(job.id, resolve));
      });
      const enqueue = async (organizationId: string, key: string, count = 1) => {
        for (let index = 0; index < count; index += 1) await jobs.enqueue(database, { organizationId, kind, payload: { key }, concurrencyKey: key });
      };
      const [busy, other, newcomer] = [await organization(), await organization(), await organization()];
      await enqueue(busy, 'busy-1', 3);
      await enqueue(busy, 'busy-2', 3);
      await enqueue(other, 'other', 3);
      await jobs.start();
      try {
        await eventually(() => started.length === 4, 'four jobs under way');
        const held = (organizationId: string) => started.filter((job) => job.organizationId === organizationId).length;
        assert.deepEqual([held(busy), held(other)], [2, 2], 'an organization holds at most its share, though its jobs are the oldest');

        // A slot frees: the newcomer's job goes before the older backlog of those already served.
        await enqueue(newcomer, 'newcomer');
        const [firstJob] = finish.keys();
        finish.get(firstJob!)!();
        finish.delete(firstJob!);
        await eventually(() => started.length === 5, 'a fifth job');
        assert.equal(started[4]!.organizationId, newcomer);
      } finally {
        for (const resolve of finish.values()) resolve();
        await jobs.stop();
      }

      // Troubled keys: at most two of the four slots, while a healthy key's job, queued last, runs.
      const troubledQueue = new JobQueue(database, { concurrency: 4, troubledKeyConcurrency: 2, pollMilliseconds: 20 });
      const troubledStarted: string[] = [];
      const troubledKind = `${KIND}-troubled`;
      const release: (() => void)[] = [];
      troubledQueue.register(troubledKind, (job) => {
        troubledStarted.push(String(job.payload.key));
        return new Promise<void>((resolve) => release.push(resolve));
      });
      const owner = await organization();
      for (const key of ['slow-1', 'slow-2', 'slow-3']) {
        await recordKeyOutcome(database, key, { failed: false, slow: true }, BACKOFF);
        await troubledQueue.enqueue(database, { organizationId: owner, kind: troubledKind, payload: { key }, concurrencyKey: key });
      }
      await troubledQueue.enqueue(database, { organizationId: owner, kind: troubledKind, payload: { key: 'healthy' }, concurrencyKey: 'healthy' });
      await troubledQueue.start();
      try {
        await eventually(() => troubledStarted.includes('healthy'), "the healthy key's job");
        await new Promise((resolve) => setTimeout(resolve, 300));
        assert.deepEqual(troubledStarted.sort(), ['healthy', 'slow-1', 'slow-2']);
      } finally {
        for (const resolve of release) resolve();
        await troubledQueue.stop();
      }
    });
  });
}
