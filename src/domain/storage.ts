/**
 * What the transport may know of storage, and the one way it reaches it (docs/ARCHITECTURE.md:
 * http imports the domain, never db). An idempotent write stores its answer in the transaction of
 * the write, so the transport holds that transaction's handle; and it answers a database that is
 * busy or failing over with 503 and Retry-After, so it asks which failures are worth a retry.
 */
export type { Queryable } from '../db/database.ts';
export { transientDatabaseError } from '../db/database-errors.ts';
