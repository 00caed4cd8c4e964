import type { Role, Scope } from './roles.ts';

/** Who is making an API request, established from a verified access token. */
export interface Principal {
  organizationId: string;
  clientId: string;
  role: Role;
  scopes: Scope[];
  /** How the principal is named in audit events and createdBy fields, e.g. "client:abc". */
  actor: string;
}
