import type { Queryable } from '../database.ts';

/**
 * The tables that count failures the same way: failed token requests (keyed by client_id) and
 * failed sign-ins of people (keyed by account or by address). A table name is one of these
 * constants, never a caller's text.
 */
export type FailureTable = 'token_failures' | 'login_failures';

/**
 * Each row counts the failures of one key from one address (or, with `ALL_ADDRESSES`, from every
 * address together) in a fixed window that opens with its first failure and lasts
 * `windowSeconds`. Kept in the database so that every server process sharing it sees the same
 * counts.
 */
export interface FailureCounter {
  key: string;
  address: string;
  /** Failures the counter takes in one window; at this many it refuses. */
  limit: number;
}

/** The address of the row that counts a key's failures from every address together. */
export const ALL_ADDRESSES = '*';

/** A counter's window as the store wrote it (microseconds since the epoch, exact), to release into. */
export type CounterWindow = string;

/** A counter as it stands: failures in its current window (0 when it has none) and the seconds until that window ends. */
export interface CounterState {
  failures: number;
  retryAfterSeconds: number;
}

/** What one attempt did to the counters: those charged, in order, and which one refused (null: none). */
export interface Reservation {
  charged: (CounterState & { window: CounterWindow })[];
  refusedBy: number | null;
}

const EXPIRED = `f.window_start <= now() - make_interval(secs => $1)`;
const WINDOW_ID = `(extract(epoch FROM window_start) * 1000000)::bigint::text`;
const RETRY_AFTER = `greatest(1, ceil(extract(epoch FROM window_start + make_interval(secs => $1) - now())))::int`;

/**
 * Charges one attempt to each counter in turn, in ONE statement, each only if the ones before
 * it took it and it is below its limit (a counter whose window has ended opens a new one with
 * this attempt). Every process and every concurrent request goes through the same row locks, so
 * at most `limit` attempts are ever charged to a counter in a window however many arrive at once.
 * Counters are locked in the order given, which callers keep the same for every request, so two
 * reservations never wait for each other in a cycle. A counter that refuses was not charged, and
 * the ones after it were not even touched.
 */
export async function reserveAttempt(
  database: Queryable,
  table: FailureTable,
  counters: readonly FailureCounter[],
  windowSeconds: number,
): Promise<Reservation> {
  const parameters: unknown[] = [windowSeconds];
  const steps = counters.map((counter, index) => {
    parameters.push(counter.key, counter.address, counter.limit);
    const [key, address, limit] = [parameters.length - 2, parameters.length - 1, parameters.length];
    return `c${index} AS (
      INSERT INTO ${table} AS f (client_id, address, window_start, failures)
      SELECT $${key}::text, $${address}::text, now(), 1 ${index === 0 ? '' : `WHERE EXISTS (SELECT 1 FROM c${index - 1})`}
      ON CONFLICT (client_id, address) DO UPDATE SET
        failures = CASE WHEN ${EXPIRED} THEN 1 ELSE f.failures + 1 END,
        window_start = CASE WHEN ${EXPIRED} THEN now() ELSE f.window_start END
      WHERE ${EXPIRED} OR f.failures < $${limit}::int
      RETURNING ${index} AS position, ${WINDOW_ID} AS window_id, failures, ${RETRY_AFTER} AS retry_after)`;
  });
  const rows = await database.query<{ position: number; window_id: string; failures: number; retry_after: number }>(
    `WITH ${steps.join(',\n')}
     ${counters.map((_, index) => `SELECT position, window_id, failures, retry_after FROM c${index}`).join(' UNION ALL ')}`,
    parameters,
  );
  rows.sort((a, b) => a.position - b.position);
  return {
    charged: rows.map((row) => ({ window: row.window_id, failures: row.failures, retryAfterSeconds: row.retry_after })),
    refusedBy: rows.length === counters.length ? null : rows.length,
  };
}

/**
 * Gives back attempts charged by `reserveAttempt` (the first `windows.length` counters), one
 * statement per counter so that this never holds two row locks at once. A counter whose window
 * has ended since is left alone: the attempt was counted in a window that no longer counts.
 */
export async function releaseAttempt(
  database: Queryable,
  table: FailureTable,
  counters: readonly FailureCounter[],
  windows: readonly CounterWindow[],
): Promise<void> {
  for (const [index, window] of windows.entries()) {
    const counter = counters[index]!;
    await database.query(
      `UPDATE ${table} SET failures = greatest(failures - 1, 0)
        WHERE client_id = $1 AND address = $2 AND ${WINDOW_ID} = $3`,
      [counter.key, counter.address, window],
    );
  }
}

/** The current count of each counter, in the counters' order, read now (never remembered). */
export async function readCounters(
  database: Queryable,
  table: FailureTable,
  counters: readonly FailureCounter[],
  windowSeconds: number,
): Promise<CounterState[]> {
  const rows = await database.query<{ ordinality: number; failures: number; retry_after: number }>(
    `SELECT c.ordinality::int AS ordinality, f.failures,
            ${RETRY_AFTER} AS retry_after
       FROM unnest($2::text[], $3::text[]) WITH ORDINALITY AS c(key, address, ordinality)
       JOIN ${table} f ON f.client_id = c.key AND f.address = c.address
      WHERE f.window_start > now() - make_interval(secs => $1)`,
    [windowSeconds, counters.map((counter) => counter.key), counters.map((counter) => counter.address)],
  );
  const states: CounterState[] = counters.map(() => ({ failures: 0, retryAfterSeconds: 0 }));
  for (const row of rows) states[row.ordinality - 1] = { failures: row.failures, retryAfterSeconds: row.retry_after };
  return states;
}

/** Removes the windows that have ended, whoever they belong to. */
export async function deleteExpiredFailures(database: Queryable, windowSeconds: number, table: FailureTable = 'token_failures'): Promise<void> {
  await database.query(`DELETE FROM ${table} WHERE window_start <= now() - make_interval(secs => $1)`, [windowSeconds]);
}
