import type { Scope } from './roles.ts';

/** Who is making an API request, established from a verified access token. */
export interface Principal {
  organizationId: string;
  clientId: string;
  /** Exactly the scopes the token grants (a subset of its client's role when the client asked for less). */
  scopes: Scope[];
  /** How the principal is named in audit events and createdBy fields, e.g. "client:abc". */
  actor: string;
  /** For a person signed in to the web app: the user and the session behind the token. */
  userId?: string;
  sessionId?: string;
}
