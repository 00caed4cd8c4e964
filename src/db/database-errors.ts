import { AppError, requestErrors } from '../errors.ts';

/**
 * Database conditions that say "not now" rather than "never": the statement ran out of time
 * while the database was busy or waited on a lock, a concurrent transaction won a conflict, or
 * the database could not be reached. Every request's writes run in one database transaction,
 * which such an error rolls back, so the request changed nothing and the same request sent
 * again can succeed. The client is told exactly that (503 with Retry-After), instead of an
 * internal error that reads as a defect and gives it no reason to retry.
 */

/** Seconds a client is asked to wait before it sends the request again. */
export const BUSY_RETRY_AFTER_SECONDS = 1;

const RETRY_ADVICE = 'nothing was changed; send the request again (a write with the same Idempotency-Key)';

/** SQLSTATE codes, and what the client is told of each. */
const TRANSIENT_STATES: Record<string, string> = {
  // query_canceled: the store's statement timeout (QUERY_TIMEOUT_MS) ended the statement.
  '57014': 'the database did not answer in time, because it is busy or the data is locked by other work',
  // serialization_failure and deadlock_detected: a concurrent transaction changed the same rows.
  '40001': 'the request conflicted with a concurrent change of the same data',
  '40P01': 'the request conflicted with a concurrent change of the same data',
  // lock_not_available
  '55P03': 'the data the request needs is locked by other work',
  // too_many_connections, admin_shutdown, crash_shutdown, cannot_connect_now
  '53300': 'the database has no free connection',
  '57P01': 'the database is restarting',
  '57P02': 'the database is restarting',
  '57P03': 'the database is starting or stopping',
};

/** Errors of the connection pool and the network, which carry no SQLSTATE. */
const CONNECTION_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE']);

/**
 * The answer for a database error a retry can cure, as an AppError of kind
 * service_unavailable; null for any other error (a defect, which stays an internal error).
 */
export function transientDatabaseError(error: unknown): AppError | null {
  if (!(error instanceof Error)) return null;
  const code = (error as { code?: unknown }).code;
  let reason: string | undefined;
  if (typeof code === 'string') {
    reason = TRANSIENT_STATES[code];
    // Class 08: connection exceptions reported by the server.
    if (reason === undefined && /^08[0-9A-Z]{3}$/.test(code)) reason = 'the connection to the database failed';
    if (reason === undefined && CONNECTION_CODES.has(code)) reason = 'the database could not be reached';
  }
  // node-postgres' pool says so in words when no connection frees up within its wait.
  if (reason === undefined && /^timeout exceeded when trying to connect$|^Connection terminated/.test(error.message)) {
    reason = 'the database could not be reached';
  }
  if (reason === undefined) return null;
  return requestErrors.databaseUnavailable(reason, RETRY_ADVICE, BUSY_RETRY_AFTER_SECONDS);
}
