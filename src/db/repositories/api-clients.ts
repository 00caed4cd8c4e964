import type { Queryable } from '../database.ts';
import type { Role } from '../../domain/model.ts';

export interface ApiClientRow {
  id: string;
  organization_id: string;
  name: string;
  role: Role;
  created_at: Date;
  created_by: string;
  revoked_at: Date | null;
}

export interface ClientCredentialsRow {
  id: string;
  organization_id: string;
  role: Role;
  revoked_at: Date | null;
  /** Hashes of the client's active secrets (at most two); PGlite returns bytea as Uint8Array, pg as Buffer. */
  secret_hashes: Uint8Array[];
}

export interface ClientSecretRow {
  id: string;
  hint: string;
  created_at: Date;
}

export async function insertApiClient(
  database: Queryable,
  client: { id: string; organizationId: string; name: string; role: Role; createdBy: string },
): Promise<ApiClientRow> {
  const rows = await database.query<ApiClientRow>(
    `INSERT INTO api_clients (id, organization_id, name, role, created_by) VALUES ($1, $2, $3, $4, $5)
     RETURNING id, organization_id, name, role, created_at, created_by, revoked_at`,
    [client.id, client.organizationId, client.name, client.role, client.createdBy],
  );
  return rows[0]!;
}

export async function insertClientSecret(
  database: Queryable,
  secret: { id: string; organizationId: string; clientId: string; hash: Buffer; hint: string },
): Promise<ClientSecretRow> {
  const rows = await database.query<ClientSecretRow>(
    'INSERT INTO api_client_secrets (id, organization_id, client_id, secret_hash, hint) VALUES ($1, $2, $3, $4, $5) RETURNING id, hint, created_at',
    [secret.id, secret.organizationId, secret.clientId, secret.hash, secret.hint],
  );
  return rows[0]!;
}

/**
 * Everything the token endpoint needs to authenticate a client, in one round trip. The client is
 * found by its id alone: the token endpoint learns the organization from this row. Its secrets
 * are joined on the organization too, so that they are read from the client's shard.
 */
export async function findClientCredentials(database: Queryable, clientId: string): Promise<ClientCredentialsRow | undefined> {
  const rows = await database.query<ClientCredentialsRow>(
    `SELECT c.id, c.organization_id, c.role, c.revoked_at,
            coalesce(array_agg(s.secret_hash) FILTER (WHERE s.id IS NOT NULL), '{}') AS secret_hashes
       FROM api_clients c
       LEFT JOIN api_client_secrets s ON s.organization_id = c.organization_id AND s.client_id = c.id AND s.revoked_at IS NULL
      WHERE c.id = $1
      GROUP BY c.id, c.organization_id`,
    [clientId],
  );
  return rows[0];
}

/**
 * The clients of an organization with their active secrets (id, hint, creation; never a hash),
 * oldest first, at most `limit` of them. Revoked clients only when asked for.
 */
export async function listApiClients(
  database: Queryable,
  organizationId: string,
  options: { includeRevoked: boolean; limit: number },
): Promise<(ApiClientRow & { last_used_at: Date | null; secrets: { id: string; hint: string; created_at: string }[] })[]> {
  return database.query(
    `SELECT c.id, c.organization_id, c.name, c.role, c.created_at, c.created_by, c.revoked_at, c.last_used_at,
            coalesce(json_agg(json_build_object('id', s.id, 'hint', s.hint, 'created_at', s.created_at) ORDER BY s.created_at, s.id)
                     FILTER (WHERE s.id IS NOT NULL), '[]') AS secrets
       FROM api_clients c
       LEFT JOIN api_client_secrets s ON s.organization_id = c.organization_id AND s.client_id = c.id AND s.revoked_at IS NULL
      WHERE c.organization_id = $1 AND ($2 OR c.revoked_at IS NULL)
      GROUP BY c.id, c.organization_id
      ORDER BY c.created_at, c.id
      LIMIT $3`,
    [organizationId, options.includeRevoked, options.limit],
  );
}

export async function countActiveClients(database: Queryable, organizationId: string): Promise<number> {
  const rows = await database.query<{ count: number }>('SELECT count(*) AS count FROM api_clients WHERE organization_id = $1 AND revoked_at IS NULL', [
    organizationId,
  ]);
  return rows[0]!.count;
}

export async function findApiClient(database: Queryable, organizationId: string, clientId: string): Promise<ApiClientRow | undefined> {
  const rows = await database.query<ApiClientRow>(
    `SELECT id, organization_id, name, role, created_at, created_by, revoked_at
       FROM api_clients WHERE organization_id = $1 AND id = $2`,
    [organizationId, clientId],
  );
  return rows[0];
}

/** Locks the client row so that concurrent secret changes of one client are serialized. */
export async function lockApiClient(database: Queryable, organizationId: string, clientId: string): Promise<ApiClientRow | undefined> {
  const rows = await database.query<ApiClientRow>(
    `SELECT id, organization_id, name, role, created_at, created_by, revoked_at
       FROM api_clients WHERE organization_id = $1 AND id = $2 FOR UPDATE`,
    [organizationId, clientId],
  );
  return rows[0];
}

export async function countActiveSecrets(database: Queryable, organizationId: string, clientId: string): Promise<number> {
  const rows = await database.query<{ count: number }>(
    'SELECT count(*) AS count FROM api_client_secrets WHERE organization_id = $1 AND client_id = $2 AND revoked_at IS NULL',
    [organizationId, clientId],
  );
  return rows[0]!.count;
}

export async function revokeApiClient(database: Queryable, organizationId: string, clientId: string): Promise<boolean> {
  const rows = await database.query(`UPDATE api_clients SET revoked_at = now() WHERE organization_id = $1 AND id = $2 AND revoked_at IS NULL RETURNING id`, [
    organizationId,
    clientId,
  ]);
  return rows.length > 0;
}

/**
 * Revokes one active secret of a client. The caller has checked (and locked) the client within
 * the organization; the client id here ties the secret to it.
 */
export async function revokeClientSecret(database: Queryable, organizationId: string, clientId: string, secretId: string): Promise<boolean> {
  const rows = await database.query(
    'UPDATE api_client_secrets SET revoked_at = now() WHERE organization_id = $1 AND client_id = $2 AND id = $3 AND revoked_at IS NULL RETURNING id',
    [organizationId, clientId, secretId],
  );
  return rows.length > 0;
}

/** Whether the client has (or had) a secret with this id, revoked or not. */
export async function clientSecretExists(database: Queryable, organizationId: string, clientId: string, secretId: string): Promise<boolean> {
  const rows = await database.query('SELECT 1 FROM api_client_secrets WHERE organization_id = $1 AND client_id = $2 AND id = $3', [
    organizationId,
    clientId,
    secretId,
  ]);
  return rows.length > 0;
}

/** Which of the given clients of an organization are no longer active (unknown there, or revoked). */
export async function findRevokedClients(database: Queryable, organizationId: string, clientIds: string[]): Promise<Set<string>> {
  const rows = await database.query<{ id: string }>(
    `SELECT requested.id FROM unnest($2::text[]) AS requested (id)
       LEFT JOIN api_clients c ON c.organization_id = $1 AND c.id = requested.id
      WHERE c.id IS NULL OR c.revoked_at IS NOT NULL`,
    [organizationId, clientIds],
  );
  return new Set(rows.map((row) => row.id));
}

/** Revokes every active secret of a client; returns how many were revoked. */
export async function revokeActiveSecrets(database: Queryable, organizationId: string, clientId: string): Promise<number> {
  const rows = await database.query(
    'UPDATE api_client_secrets SET revoked_at = now() WHERE organization_id = $1 AND client_id = $2 AND revoked_at IS NULL RETURNING id',
    [organizationId, clientId],
  );
  return rows.length;
}

/**
 * Notes that a client got a token. Written at most once a minute per client, so that a client
 * asking for a token per call does not turn every token request into a write.
 */
export async function markClientUsed(database: Queryable, organizationId: string, clientId: string): Promise<void> {
  await database.query(
    `UPDATE api_clients SET last_used_at = now() WHERE organization_id = $1 AND id = $2 AND (last_used_at IS NULL OR last_used_at < now() - interval '1 minute')`,
    [organizationId, clientId],
  );
}
