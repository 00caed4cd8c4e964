import type { Queryable } from '../database.ts';
import type { Role } from '../../domain/model.ts';

/** The SQL of users, their sessions and invitations (SPEC §9). */

export interface UserRow {
  id: string;
  organizationId: string;
  email: string;
  role: Role;
  passwordHash: string;
  createdAt: string;
  deactivatedAt: string | null;
  lastLoginAt: string | null;
}

const USER_COLUMNS = `id, organization_id AS "organizationId", email, role, password_hash AS "passwordHash",
  created_at AS "createdAt", deactivated_at AS "deactivatedAt", last_login_at AS "lastLoginAt"`;

/** Every active user with this email, in any organization (an email may belong to several). */
export async function findActiveUsersByEmail(database: Queryable, email: string): Promise<UserRow[]> {
  return database.query<UserRow>(`SELECT ${USER_COLUMNS} FROM users WHERE lower(email) = lower($1) AND deactivated_at IS NULL ORDER BY created_at LIMIT 20`, [
    email,
  ]);
}

export async function findUser(database: Queryable, organizationId: string, userId: string): Promise<UserRow | undefined> {
  const rows = await database.query<UserRow>(`SELECT ${USER_COLUMNS} FROM users WHERE organization_id = $1 AND id = $2`, [organizationId, userId]);
  return rows[0];
}

export async function listUsers(database: Queryable, organizationId: string): Promise<UserRow[]> {
  return database.query<UserRow>(`SELECT ${USER_COLUMNS} FROM users WHERE organization_id = $1 ORDER BY created_at, id LIMIT 10000`, [organizationId]);
}

export async function userEmailTaken(database: Queryable, organizationId: string, email: string): Promise<boolean> {
  const rows = await database.query('SELECT 1 FROM users WHERE organization_id = $1 AND lower(email) = lower($2)', [organizationId, email]);
  return rows.length > 0;
}

export async function insertInvitedUser(
  database: Queryable,
  user: { id: string; organizationId: string; email: string; passwordHash: string; role: Role; invitedBy: string },
): Promise<void> {
  await database.query(
    `INSERT INTO users (id, organization_id, email, password_hash, role, invited_by, password_changed_at) VALUES ($1, $2, $3, $4, $5, $6, now())`,
    [user.id, user.organizationId, user.email, user.passwordHash, user.role, user.invitedBy],
  );
}

export async function updateUserPassword(database: Queryable, organizationId: string, userId: string, passwordHash: string): Promise<void> {
  await database.query('UPDATE users SET password_hash = $3, password_changed_at = now() WHERE organization_id = $1 AND id = $2', [
    organizationId,
    userId,
    passwordHash,
  ]);
}

export async function updateUserRole(database: Queryable, organizationId: string, userId: string, role: Role): Promise<void> {
  await database.query('UPDATE users SET role = $3 WHERE organization_id = $1 AND id = $2', [organizationId, userId, role]);
}

export async function deactivateUser(database: Queryable, organizationId: string, userId: string, actor: string): Promise<void> {
  await database.query(
    'UPDATE users SET deactivated_at = coalesce(deactivated_at, now()), deactivated_by = coalesce(deactivated_by, $3) WHERE organization_id = $1 AND id = $2',
    [organizationId, userId, actor],
  );
}

export async function reactivateUser(database: Queryable, organizationId: string, userId: string): Promise<void> {
  await database.query('UPDATE users SET deactivated_at = NULL, deactivated_by = NULL WHERE organization_id = $1 AND id = $2', [organizationId, userId]);
}

/** Active Administrators of an organization other than `userId`: an organization must keep one. */
export async function countOtherActiveAdministrators(database: Queryable, organizationId: string, userId: string): Promise<number> {
  const rows = await database.query<{ count: number }>(
    `SELECT count(*)::int AS count FROM users WHERE organization_id = $1 AND id <> $2 AND role = 'Administrator' AND deactivated_at IS NULL`,
    [organizationId, userId],
  );
  return rows[0]!.count;
}

export interface SessionRow {
  id: string;
  organizationId: string;
  userId: string;
  email: string;
  role: Role;
  expiresAt: string;
}

export async function insertSession(
  database: Queryable,
  session: {
    id: string;
    organizationId: string;
    userId: string;
    secretHash: Buffer;
    lifetimeSeconds: number;
    address: string | null;
    userAgent: string | null;
  },
): Promise<void> {
  await database.query(
    `INSERT INTO sessions (id, organization_id, user_id, secret_hash, expires_at, address, user_agent)
     VALUES ($1, $2, $3, $4, now() + make_interval(secs => $5), $6, $7)`,
    [session.id, session.organizationId, session.userId, session.secretHash, session.lifetimeSeconds, session.address, session.userAgent],
  );
  await database.query('UPDATE users SET last_login_at = now() WHERE organization_id = $1 AND id = $2', [session.organizationId, session.userId]);
}

/** The live session of a cookie's secret: not ended, not expired, its user active. */
export async function findLiveSession(database: Queryable, secretHash: Buffer): Promise<SessionRow | undefined> {
  const rows = await database.query<SessionRow>(
    `SELECT s.id, s.organization_id AS "organizationId", s.user_id AS "userId", u.email, u.role, s.expires_at AS "expiresAt"
       FROM sessions s JOIN users u ON u.id = s.user_id AND u.organization_id = s.organization_id
      WHERE s.secret_hash = $1 AND s.ended_at IS NULL AND s.expires_at > now() AND u.deactivated_at IS NULL`,
    [secretHash],
  );
  return rows[0];
}

/** Whether a session still stands (the check behind every user access token). */
export async function sessionIsLive(database: Queryable, organizationId: string, sessionId: string): Promise<boolean> {
  const rows = await database.query(
    `SELECT 1 FROM sessions s JOIN users u ON u.id = s.user_id AND u.organization_id = s.organization_id
      WHERE s.organization_id = $1 AND s.id = $2 AND s.ended_at IS NULL AND s.expires_at > now() AND u.deactivated_at IS NULL`,
    [organizationId, sessionId],
  );
  return rows.length > 0;
}

export async function touchSession(database: Queryable, organizationId: string, sessionId: string): Promise<void> {
  await database.query('UPDATE sessions SET last_seen_at = now() WHERE organization_id = $1 AND id = $2', [organizationId, sessionId]);
}

export async function endSession(database: Queryable, organizationId: string, sessionId: string, reason: 'logout'): Promise<void> {
  await database.query('UPDATE sessions SET ended_at = now(), ended_reason = $3 WHERE organization_id = $1 AND id = $2 AND ended_at IS NULL', [
    organizationId,
    sessionId,
    reason,
  ]);
}

/** Ends a user's sessions (all, or all but one): after a password change or a deactivation. */
export async function endUserSessions(
  database: Queryable,
  organizationId: string,
  userId: string,
  reason: 'password changed' | 'deactivated',
  exceptSessionId: string | null = null,
): Promise<string[]> {
  const rows = await database.query<{ id: string }>(
    `UPDATE sessions SET ended_at = now(), ended_reason = $3
      WHERE organization_id = $1 AND user_id = $2 AND ended_at IS NULL AND ($4::uuid IS NULL OR id <> $4::uuid)
      RETURNING id`,
    [organizationId, userId, reason, exceptSessionId],
  );
  return rows.map((row) => row.id);
}

export interface InvitationRow {
  id: string;
  organizationId: string;
  email: string;
  role: Role;
  createdAt: string;
  createdBy: string;
  expiresAt: string;
  acceptedAt: string | null;
  revokedAt: string | null;
}

const INVITATION_COLUMNS = `id, organization_id AS "organizationId", email, role, created_at AS "createdAt", created_by AS "createdBy",
  expires_at AS "expiresAt", accepted_at AS "acceptedAt", revoked_at AS "revokedAt"`;

export async function insertInvitation(
  database: Queryable,
  invitation: { id: string; organizationId: string; email: string; role: Role; secretHash: Buffer; createdBy: string; lifetimeSeconds: number },
): Promise<InvitationRow> {
  const rows = await database.query<InvitationRow>(
    `INSERT INTO invitations (id, organization_id, email, role, secret_hash, created_by, expires_at)
     VALUES ($1, $2, $3, $4, $5, $6, now() + make_interval(secs => $7)) RETURNING ${INVITATION_COLUMNS}`,
    [invitation.id, invitation.organizationId, invitation.email, invitation.role, invitation.secretHash, invitation.createdBy, invitation.lifetimeSeconds],
  );
  return rows[0]!;
}

/** The invitation of a link's secret, locked for its acceptance; expired or used ones too (to say why they fail). */
export async function findInvitationForUpdate(database: Queryable, secretHash: Buffer): Promise<(InvitationRow & { expired: boolean }) | undefined> {
  const rows = await database.query<InvitationRow & { expired: boolean }>(
    `SELECT ${INVITATION_COLUMNS}, expires_at <= now() AS expired FROM invitations WHERE secret_hash = $1 FOR UPDATE`,
    [secretHash],
  );
  return rows[0];
}

export async function markInvitationAccepted(database: Queryable, organizationId: string, invitationId: string, userId: string): Promise<void> {
  await database.query('UPDATE invitations SET accepted_at = now(), user_id = $3 WHERE organization_id = $1 AND id = $2', [
    organizationId,
    invitationId,
    userId,
  ]);
}

export async function listOpenInvitations(database: Queryable, organizationId: string): Promise<InvitationRow[]> {
  return database.query<InvitationRow>(
    `SELECT ${INVITATION_COLUMNS} FROM invitations
      WHERE organization_id = $1 AND accepted_at IS NULL AND revoked_at IS NULL AND expires_at > now() ORDER BY created_at LIMIT 1000`,
    [organizationId],
  );
}
