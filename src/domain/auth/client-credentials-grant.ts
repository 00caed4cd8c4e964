import type { Database } from '../../db/database.ts';
import { findClientCredentials, type ClientCredentialsRow } from '../../db/repositories/api-clients.ts';
import { countRecentFailures, recordFailure } from '../../db/repositories/token-failures.ts';
import type { AccessTokens, IssuedToken } from './access-tokens.ts';
import type { SecretHashKey } from './api-clients.ts';
import {
  AccessDenied,
  InvalidClient,
  InvalidRequest,
  InvalidScope,
  TooManyRequests,
  UnsupportedGrantType,
} from './oauth-errors.ts';
import { scopesFor } from './roles.ts';
import { secretMatches } from './secrets.ts';

/** The token request as the transport parsed it: each parameter at most once. */
export interface TokenRequest {
  parameters: Record<string, string>;
  /** Credentials from an HTTP Basic Authorization header, already decoded. */
  basic: { clientId: string; clientSecret: string } | null;
}

export interface GrantSettings {
  audience: string;
  failureLimit: number;
  failureWindowSeconds: number;
}

/** How long a process reuses what it read of a client (record, secrets, recent failures). */
const CLIENT_CACHE_MILLISECONDS = 1_000;
const CLIENT_CACHE_LIMIT = 10_000;
const PARAMETER_LENGTH_LIMIT = 2_048;

interface ClientState {
  credentials: ClientCredentialsRow | undefined;
  recentFailures: { failures: number; retryAfterSeconds: number };
  readAtMilliseconds: number;
}

/**
 * The client-credentials grant (RFC 6749 §4.4), as a chain of small steps: check the request,
 * identify the client, refuse throttled clients before looking at the secret, verify the
 * secret, check audience and scope, issue.
 */
export class ClientCredentialsGrant {
  readonly #clients = new Map<string, ClientState>();

  constructor(
    private readonly database: Database,
    private readonly tokens: AccessTokens,
    private readonly hashKey: SecretHashKey,
    private readonly settings: GrantSettings,
  ) {}

  async grant(request: TokenRequest): Promise<IssuedToken> {
    const parameters = checkParameters(request.parameters);
    const credentials = presentedCredentials(request);
    checkGrantType(parameters);
    const audience = checkAudiencePresent(parameters);
    const client = await this.#authenticate(credentials);
    checkAudience(audience, this.settings.audience);
    checkScope(parameters.scope, client);
    return this.tokens.issue({ clientId: client.id, organizationId: client.organization_id, role: client.role }, audience);
  }

  async #authenticate(presented: PresentedCredentials): Promise<ClientCredentialsRow> {
    const state = await this.#clientState(presented.clientId);
    if (state.recentFailures.failures >= this.settings.failureLimit) {
      throw new TooManyRequests(state.recentFailures.retryAfterSeconds);
    }
    const client = state.credentials;
    const hashKey = await this.hashKey();
    const valid =
      client !== undefined &&
      client.revoked_at === null &&
      client.secret_hashes.some((hash) => secretMatches(hashKey, presented.clientSecret, hash));
    if (!valid) {
      await recordFailure(this.database, presented.clientId, this.settings.failureWindowSeconds);
      // The next attempt in this process must see the failure just counted.
      this.#clients.delete(presented.clientId);
      throw new InvalidClient(presented.usedBasicAuthentication);
    }
    return client;
  }

  /**
   * Reads a client's credentials and recent failures, reusing a read younger than a second.
   * The failure count is shared by all processes through the store; a process may see it up
   * to a second late, which lets an attacker a handful of extra guesses at 256-bit secrets.
   */
  async #clientState(clientId: string): Promise<ClientState> {
    const now = Date.now();
    const cached = this.#clients.get(clientId);
    if (cached && now - cached.readAtMilliseconds < CLIENT_CACHE_MILLISECONDS) return cached;
    const [credentials, recentFailures] = await Promise.all([
      findClientCredentials(this.database, clientId),
      countRecentFailures(this.database, clientId, this.settings.failureWindowSeconds),
    ]);
    const state = { credentials, recentFailures, readAtMilliseconds: now };
    if (this.#clients.size >= CLIENT_CACHE_LIMIT) this.#clients.clear();
    this.#clients.set(clientId, state);
    return state;
  }

  /** Drops what this process remembers of a client (after a revocation or a secret change). */
  forgetClient(clientId: string): void {
    this.#clients.delete(clientId);
  }
}

interface PresentedCredentials {
  clientId: string;
  clientSecret: string;
  usedBasicAuthentication: boolean;
}

function checkParameters(parameters: Record<string, string>): Record<string, string> {
  for (const [name, value] of Object.entries(parameters)) {
    if (value.length > PARAMETER_LENGTH_LIMIT) throw new InvalidRequest(`parameter "${name}" is too long`);
  }
  return parameters;
}

function presentedCredentials(request: TokenRequest): PresentedCredentials {
  const inBody = request.parameters.client_id !== undefined || request.parameters.client_secret !== undefined;
  if (request.basic && inBody) {
    throw new InvalidRequest('use one client authentication method: HTTP Basic or client_id/client_secret in the body, not both');
  }
  if (request.basic) return { ...request.basic, usedBasicAuthentication: true };
  const { client_id: clientId, client_secret: clientSecret } = request.parameters;
  if (!clientId) throw new InvalidRequest('missing required parameter "client_id"');
  if (!clientSecret) throw new InvalidRequest('missing required parameter "client_secret"');
  return { clientId, clientSecret, usedBasicAuthentication: false };
}

function checkGrantType(parameters: Record<string, string>): void {
  const grantType = parameters.grant_type;
  if (!grantType) throw new InvalidRequest('missing required parameter "grant_type"; use "client_credentials"');
  if (grantType !== 'client_credentials') throw new UnsupportedGrantType(grantType);
}

function checkAudiencePresent(parameters: Record<string, string>): string {
  const audience = parameters.audience;
  if (!audience) throw new InvalidRequest('missing required parameter "audience": the API identifier supplied with the credentials');
  return audience;
}

function checkAudience(audience: string, expected: string): void {
  if (audience !== expected) throw new AccessDenied(`"${audience}" is not the audience of this API; use "${expected}"`);
}

function checkScope(requested: string | undefined, client: ClientCredentialsRow): void {
  if (requested === undefined || requested.trim() === '') return;
  const allowed = new Set<string>(scopesFor(client.role));
  const refused = requested.split(/\s+/).filter((scope) => scope !== '' && !allowed.has(scope));
  if (refused.length > 0) {
    throw new InvalidScope(`the client's role (${client.role}) does not allow: ${refused.join(' ')}; allowed: ${[...allowed].join(' ')}`);
  }
}
