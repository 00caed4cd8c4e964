import type { Queryable } from '../database.ts';

/** Failed attempts recorded for a presented client_id within the window that contains now. */
export async function countRecentFailures(database: Queryable, clientId: string, windowSeconds: number): Promise<{ failures: number; retryAfterSeconds: number }> {
  const rows = await database.query<{ failures: number; retry_after_seconds: number }>(
    `SELECT failures,
            greatest(1, ceil(extract(epoch FROM window_start + make_interval(secs => $2) - now())))::int AS retry_after_seconds
       FROM token_failures
      WHERE client_id = $1 AND window_start > now() - make_interval(secs => $2)
      ORDER BY window_start DESC LIMIT 1`,
    [clientId, windowSeconds],
  );
  const row = rows[0];
  return row ? { failures: row.failures, retryAfterSeconds: row.retry_after_seconds } : { failures: 0, retryAfterSeconds: 0 };
}

/**
 * Counts one more failure. Windows are fixed: a window starts at the first failure after the
 * previous window ended. Old windows are removed as they are passed.
 */
export async function recordFailure(database: Queryable, clientId: string, windowSeconds: number): Promise<void> {
  await database.query(
    `WITH current_window AS (
       SELECT window_start FROM token_failures
        WHERE client_id = $1 AND window_start > now() - make_interval(secs => $2)
        ORDER BY window_start DESC LIMIT 1
     ), removed AS (
       DELETE FROM token_failures WHERE client_id = $1 AND window_start <= now() - make_interval(secs => $2)
     )
     INSERT INTO token_failures (client_id, window_start, failures)
     VALUES ($1, coalesce((SELECT window_start FROM current_window), now()), 1)
     ON CONFLICT (client_id, window_start) DO UPDATE SET failures = token_failures.failures + 1`,
    [clientId, windowSeconds],
  );
}
