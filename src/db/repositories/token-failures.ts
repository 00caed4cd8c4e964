import type { Queryable } from '../database.ts';

/**
 * The tables that count failures the same way: failed token requests (keyed by client_id) and
 * failed sign-ins of people (keyed by account or by address). A table name is one of these
 * constants, never a caller's text.
 */
export type FailureTable = 'token_failures' | 'login_failures';

/**
 * Failed token requests per presented client_id and source address, each in a fixed window
 * that opens with its first failure and lasts `windowSeconds`. Kept in the database so that
 * every server process sharing it sees the same counts.
 */

export interface RecentFailures {
  /** Failures of this client from this address in the address's current window. */
  fromAddress: number;
  /** Seconds until the address's window ends. */
  addressRetryAfterSeconds: number;
  /** Failures of this client from every address, in their current windows. */
  total: number;
  /** Seconds until the oldest current window of this client ends (the total then drops). */
  totalRetryAfterSeconds: number;
}

export async function countRecentFailures(database: Queryable, clientId: string, address: string, windowSeconds: number, table: FailureTable = 'token_failures'): Promise<RecentFailures> {
  const rows = await database.query<{ from_address: number; address_retry: number; total: number; total_retry: number }>(
    `SELECT coalesce(max(failures) FILTER (WHERE address = $2), 0)::int AS from_address,
            coalesce(greatest(1, ceil(extract(epoch FROM max(window_start) FILTER (WHERE address = $2) + make_interval(secs => $3) - now()))), 0)::int AS address_retry,
            coalesce(sum(failures), 0)::int AS total,
            coalesce(greatest(1, ceil(extract(epoch FROM min(window_start) + make_interval(secs => $3) - now()))), 0)::int AS total_retry
       FROM ${table}
      WHERE client_id = $1 AND window_start > now() - make_interval(secs => $3)`,
    [clientId, address, windowSeconds],
  );
  const row = rows[0]!;
  return { fromAddress: row.from_address, addressRetryAfterSeconds: row.address_retry, total: row.total, totalRetryAfterSeconds: row.total_retry };
}

/**
 * Counts one more failure in one atomic statement: within the current window the count grows,
 * after it a new window opens with this failure.
 */
export async function recordFailure(database: Queryable, clientId: string, address: string, windowSeconds: number, table: FailureTable = 'token_failures'): Promise<void> {
  await database.query(
    `INSERT INTO ${table} AS f (client_id, address, window_start, failures) VALUES ($1, $2, now(), 1)
     ON CONFLICT (client_id, address) DO UPDATE SET
       failures = CASE WHEN f.window_start <= now() - make_interval(secs => $3) THEN 1 ELSE f.failures + 1 END,
       window_start = CASE WHEN f.window_start <= now() - make_interval(secs => $3) THEN now() ELSE f.window_start END`,
    [clientId, address, windowSeconds],
  );
}

/** Removes the windows that have ended, whoever they belong to. */
export async function deleteExpiredFailures(database: Queryable, windowSeconds: number, table: FailureTable = 'token_failures'): Promise<void> {
  await database.query(`DELETE FROM ${table} WHERE window_start <= now() - make_interval(secs => $1)`, [windowSeconds]);
}
