import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { openDatabase, type Database } from '../../src/db/database.ts';
import { ALL_ADDRESSES, readCounters, releaseAttempt, reserveAttempt, type FailureCounter } from '../../src/db/repositories/token-failures.ts';
import { openTestStore, storeKinds } from '../../support/harness.ts';

/**
 * The throttles' counters (migration 0009 and before): charging an attempt is one statement
 * that refuses a full counter, so attempts arriving at once, over several connections or
 * several pools (as several processes would), are never charged beyond the limit; a counter
 * refused takes nothing from the counters after it, and what the ones before it took can be
 * given back.
 */

const WINDOW_SECONDS = 60;
const ATTEMPTS_AT_ONCE = 200;

for (const kind of storeKinds()) {
  describe(`failure counters (${kind})`, () => {
    let store: Awaited<ReturnType<typeof openTestStore>>;
    /** A second pool on the same database, as another server process would have (PostgreSQL only). */
    let other: Database;
    before(async () => {
      store = await openTestStore(kind);
      other = kind === 'postgres' ? openDatabase({ databaseUrl: store.databaseUrl, dataDirectory: null, poolSize: 5 }) : store.database;
    });
    after(async () => {
      if (other !== store.database) await other.close();
      await store.drop();
    });

    const counters = (key: string, address: string, limit: number, total: number): FailureCounter[] => [
      { key, address, limit },
      { key, address: ALL_ADDRESSES, limit: total },
    ];

    it('charges at most the limit when attempts arrive at once, from two pools', async () => {
      const charge = counters('client-a', '203.0.113.1', 7, 100);
      const outcomes = await Promise.all(
        Array.from({ length: ATTEMPTS_AT_ONCE }, (_, index) =>
          reserveAttempt(index % 2 === 0 ? store.database : other, 'token_failures', charge, WINDOW_SECONDS),
        ),
      );
      const charged = outcomes.filter((outcome) => outcome.refusedBy === null);
      assert.equal(charged.length, 7);
      assert.deepEqual(
        charged.map((outcome) => outcome.charged[0]!.failures).sort((a, b) => a - b),
        [1, 2, 3, 4, 5, 6, 7],
      );
      // The refused attempts stopped at the address's counter: the total counts only the seven.
      assert.ok(outcomes.filter((outcome) => outcome.refusedBy !== null).every((outcome) => outcome.refusedBy === 0 && outcome.charged.length === 0));
      const states = await readCounters(store.database, 'token_failures', charge, WINDOW_SECONDS);
      assert.deepEqual(
        states.map((state) => state.failures),
        [7, 7],
      );
      assert.ok(states.every((state) => state.retryAfterSeconds >= 1 && state.retryAfterSeconds <= WINDOW_SECONDS));
    });

    it('holds the ceiling over many addresses at once, and gives back what a refused attempt took', async () => {
      const outcomes = await Promise.all(
        Array.from({ length: ATTEMPTS_AT_ONCE }, (_, index) =>
          reserveAttempt(
            index % 2 === 0 ? store.database : other,
            'login_failures',
            counters('login:ana@example.com', `198.51.100.${index % 50}`, 10, 30),
            WINDOW_SECONDS,
          ),
        ),
      );
      assert.equal(outcomes.filter((outcome) => outcome.refusedBy === null).length, 30);
      // An attempt refused by the ceiling had been charged to its address: given back, the
      // address holds only the attempts the ceiling took.
      for (const [index, outcome] of outcomes.entries()) {
        if (outcome.refusedBy === 1)
          await releaseAttempt(
            store.database,
            'login_failures',
            counters('login:ana@example.com', `198.51.100.${index % 50}`, 10, 30),
            outcome.charged.map((charged) => charged.window),
          );
      }
      const [total] = await store.database.query<{ sum: number }>(
        `SELECT sum(failures)::int AS sum FROM login_failures WHERE client_id = 'login:ana@example.com' AND address <> $1`,
        [ALL_ADDRESSES],
      );
      assert.equal(total!.sum, 30);
    });

    it('opens a new window once the old one has ended, and a release into an ended window changes nothing', async () => {
      const charge = counters('client-b', '203.0.113.2', 2, 100);
      const first = await reserveAttempt(store.database, 'token_failures', charge, WINDOW_SECONDS);
      await reserveAttempt(store.database, 'token_failures', charge, WINDOW_SECONDS);
      assert.equal((await reserveAttempt(store.database, 'token_failures', charge, WINDOW_SECONDS)).refusedBy, 0);
      await store.database.query(`UPDATE token_failures SET window_start = now() - interval '2 minutes' WHERE client_id = 'client-b'`);
      const reopened = await reserveAttempt(store.database, 'token_failures', charge, WINDOW_SECONDS);
      assert.equal(reopened.refusedBy, null);
      assert.deepEqual(
        reopened.charged.map((charged) => charged.failures),
        [1, 1],
      );
      await releaseAttempt(
        store.database,
        'token_failures',
        charge,
        first.charged.map((charged) => charged.window),
      );
      assert.deepEqual(
        (await readCounters(store.database, 'token_failures', charge, WINDOW_SECONDS)).map((state) => state.failures),
        [1, 1],
      );
      await releaseAttempt(
        store.database,
        'token_failures',
        charge,
        reopened.charged.map((charged) => charged.window),
      );
      assert.deepEqual(
        (await readCounters(store.database, 'token_failures', charge, WINDOW_SECONDS)).map((state) => state.failures),
        [0, 0],
      );
    });
  });
}
