export { ROLES, type Role } from '../model.ts';
import { ROLES, type Role } from '../model.ts';

/** Scopes carried by access tokens; a token's scope is exactly what its client's role grants. */
export const Scopes = {
  read: 'read:data',
  write: 'write:data',
  manageCredentials: 'manage:credentials',
} as const;
export type Scope = (typeof Scopes)[keyof typeof Scopes];

const scopesOfRole: Record<Role, Scope[]> = {
  Administrator: [Scopes.read, Scopes.write, Scopes.manageCredentials],
  'Full member': [Scopes.read, Scopes.write],
  'View-only': [Scopes.read],
  // A Reviewer reads like View-only; approving a prepared period (close/signoff.ts) checks the role itself.
  Reviewer: [Scopes.read],
};

export function scopesFor(role: Role): Scope[] {
  return scopesOfRole[role];
}

export function isRole(value: unknown): value is Role {
  return typeof value === 'string' && (ROLES as readonly string[]).includes(value);
}
