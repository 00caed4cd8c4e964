import type { Queryable } from '../database.ts';

/**
 * Failed token requests per presented client_id, in a fixed window that opens with the first
 * failure and lasts `windowSeconds`. Kept in the database so that every server process sharing
 * it sees the same count.
 */
export async function countRecentFailures(
  database: Queryable,
  clientId: string,
  windowSeconds: number,
): Promise<{ failures: number; retryAfterSeconds: number }> {
  const rows = await database.query<{ failures: number; retry_after_seconds: number }>(
    `SELECT failures,
            greatest(1, ceil(extract(epoch FROM window_start + make_interval(secs => $2) - now())))::int AS retry_after_seconds
       FROM token_failures
      WHERE client_id = $1 AND window_start > now() - make_interval(secs => $2)`,
    [clientId, windowSeconds],
  );
  const row = rows[0];
  return row ? { failures: row.failures, retryAfterSeconds: row.retry_after_seconds } : { failures: 0, retryAfterSeconds: 0 };
}

/**
 * Counts one more failure in one atomic statement: within the current window the count grows,
 * after it a new window opens with this failure. Returns the count of the window.
 */
export async function recordFailure(database: Queryable, clientId: string, windowSeconds: number): Promise<number> {
  const rows = await database.query<{ failures: number }>(
    `INSERT INTO token_failures AS f (client_id, window_start, failures) VALUES ($1, now(), 1)
     ON CONFLICT (client_id) DO UPDATE SET
       failures = CASE WHEN f.window_start <= now() - make_interval(secs => $2) THEN 1 ELSE f.failures + 1 END,
       window_start = CASE WHEN f.window_start <= now() - make_interval(secs => $2) THEN now() ELSE f.window_start END
     RETURNING failures`,
    [clientId, windowSeconds],
  );
  return rows[0]!.failures;
}

/** Removes the windows that have ended, whoever they belong to. */
export async function deleteExpiredFailures(database: Queryable, windowSeconds: number): Promise<void> {
  await database.query('DELETE FROM token_failures WHERE window_start <= now() - make_interval(secs => $1)', [windowSeconds]);
}
