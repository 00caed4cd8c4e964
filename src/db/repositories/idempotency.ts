import type { Queryable } from '../database.ts';

export interface IdempotencyKeyRow {
  principal: string;
  request_hash: string;
  response: unknown;
}

/**
 * Removes the organization's expired keys: this one when it has expired (so it can be used
 * afresh), and a few of the oldest others, which keeps the table from growing without bound
 * without a separate sweeper. Rows another transaction holds are skipped, never waited for.
 */
export async function deleteExpiredIdempotencyKeys(
  transaction: Queryable,
  organizationId: string,
  key: string,
  retentionSeconds: number,
  sweepLimit: number,
): Promise<void> {
  await transaction.query(
    `DELETE FROM idempotency_keys k
      WHERE k.organization_id = $1
        AND k.created_at < now() - $3::integer * interval '1 second'
        AND (k.key = $2 OR k.key IN (
              SELECT e.key FROM idempotency_keys e
               WHERE e.organization_id = $1 AND e.created_at < now() - $3::integer * interval '1 second'
               ORDER BY e.created_at
               LIMIT $4
                 FOR UPDATE SKIP LOCKED))`,
    [organizationId, key, retentionSeconds, sweepLimit],
  );
}

/**
 * Claims a key for a request. When another transaction holds an uncommitted claim on the same
 * key, PostgreSQL makes this insert wait for it to finish, so a concurrent duplicate runs only
 * after the first has committed (and then finds its answer) or rolled back (and then claims the
 * key itself). Returns whether this call claimed the key.
 */
export async function claimIdempotencyKey(
  transaction: Queryable,
  claim: { organizationId: string; key: string; principal: string; requestHash: string },
): Promise<boolean> {
  const rows = await transaction.query(
    `INSERT INTO idempotency_keys (organization_id, key, principal, request_hash) VALUES ($1, $2, $3, $4)
     ON CONFLICT (organization_id, key) DO NOTHING
     RETURNING key`,
    [claim.organizationId, claim.key, claim.principal, claim.requestHash],
  );
  return rows.length > 0;
}

export async function findIdempotencyKey(transaction: Queryable, organizationId: string, key: string): Promise<IdempotencyKeyRow | undefined> {
  const rows = await transaction.query<IdempotencyKeyRow>(
    'SELECT principal, request_hash, response FROM idempotency_keys WHERE organization_id = $1 AND key = $2',
    [organizationId, key],
  );
  return rows[0];
}

export async function storeIdempotentResponse(transaction: Queryable, organizationId: string, key: string, response: unknown): Promise<void> {
  await transaction.query('UPDATE idempotency_keys SET response = $3::jsonb WHERE organization_id = $1 AND key = $2', [
    organizationId,
    key,
    JSON.stringify(response),
  ]);
}

export async function deleteIdempotencyKey(database: Queryable, organizationId: string, key: string): Promise<void> {
  await database.query('DELETE FROM idempotency_keys WHERE organization_id = $1 AND key = $2', [organizationId, key]);
}
