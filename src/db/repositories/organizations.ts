import type { Queryable } from '../database.ts';
import type { Role } from '../../domain/model.ts';

export async function insertOrganization(database: Queryable, id: string, name: string): Promise<void> {
  await database.query('INSERT INTO organizations (id, name) VALUES ($1, $2)', [id, name]);
}

/**
 * Locks an organization's row, serializing changes that must respect a per-organization limit.
 * NO KEY UPDATE, unlike UPDATE, does not block the key-share locks that inserts referencing the
 * organization take, so other writes of the organization go on meanwhile.
 */
export async function lockOrganization(database: Queryable, id: string): Promise<boolean> {
  const rows = await database.query('SELECT id FROM organizations WHERE id = $1 FOR NO KEY UPDATE', [id]);
  return rows.length > 0;
}

/**
 * A page of every organization's id, in id order after `afterId`. Instance-wide on purpose: it
 * is for maintenance that visits each organization in turn (the retention sweep), which then
 * works on one organization at a time.
 */
export async function listOrganizationIds(database: Queryable, afterId: string | null, limit: number): Promise<string[]> {
  const rows = await database.query<{ id: string }>('SELECT id FROM organizations WHERE $1::uuid IS NULL OR id > $1::uuid ORDER BY id LIMIT $2', [
    afterId,
    limit,
  ]);
  return rows.map((row) => row.id);
}

export async function countOrganizations(database: Queryable): Promise<number> {
  const rows = await database.query<{ count: number }>('SELECT count(*) AS count FROM organizations');
  return rows[0]!.count;
}

export async function insertUser(
  database: Queryable,
  user: { id: string; organizationId: string; email: string; passwordHash: string; role: Role },
): Promise<void> {
  await database.query('INSERT INTO users (id, organization_id, email, password_hash, role) VALUES ($1, $2, $3, $4, $5)', [
    user.id,
    user.organizationId,
    user.email,
    user.passwordHash,
    user.role,
  ]);
}

/** Sets a user's password hash; false when the organization has no user with that email. */
export async function setUserPassword(database: Queryable, organizationId: string, email: string, passwordHash: string): Promise<boolean> {
  const rows = await database.query('UPDATE users SET password_hash = $3 WHERE organization_id = $1 AND email = $2 RETURNING id', [
    organizationId,
    email,
    passwordHash,
  ]);
  return rows.length > 0;
}

/** The active API client an organization's bootstrap created (by `createdBy`), oldest first. */
export async function findBootstrapClient(database: Queryable, organizationId: string, createdBy: string): Promise<string | undefined> {
  const rows = await database.query<{ id: string }>(
    `SELECT id FROM api_clients WHERE organization_id = $1 AND created_by = $2 AND revoked_at IS NULL ORDER BY created_at LIMIT 1`,
    [organizationId, createdBy],
  );
  return rows[0]?.id;
}
