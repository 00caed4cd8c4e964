import { Type } from '@sinclair/typebox';
import { ROLES } from '../../domain/auth/roles.ts';
import { Uuid } from './common.ts';

export const Role = Type.Union(
  ROLES.map((role) => Type.Literal(role)),
  { description: 'Administrator: everything, including users and credentials; Full member: read and write data; View-only: read.' },
);
const Timestamp = Type.String({ format: 'date-time' });
export const User = Type.Object({
  id: Uuid,
  email: Type.String(),
  role: Role,
  active: Type.Boolean({ description: 'False once deactivated: the user cannot sign in and their sessions have ended.' }),
  createdAt: Timestamp,
  lastLoginAt: Type.Union([Timestamp, Type.Null()]),
});
export const Invitation = Type.Object({ id: Uuid, email: Type.String(), role: Role, createdAt: Timestamp, createdBy: Type.String(), expiresAt: Timestamp });
export const UserParams = Type.Object({ orgId: Uuid, userId: Uuid }, { additionalProperties: false });
export const InviteBody = Type.Object({ email: Type.String({ minLength: 3, maxLength: 320 }), role: Role }, { additionalProperties: false });
export const UserChange = Type.Object(
  {
    role: Type.Optional(Role),
    active: Type.Optional(Type.Boolean({ description: 'false deactivates the user (their sessions end at once); true lets them sign in again.' })),
  },
  { additionalProperties: false, minProperties: 1 },
);

/** A stored time as the API writes it (ISO 8601, UTC), or null. */
export function isoTimeOrNull(value: string | null): string | null {
  return value === null ? null : new Date(value).toISOString();
}
