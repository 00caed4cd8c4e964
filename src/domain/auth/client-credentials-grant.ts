import type { Database } from '../../db/database.ts';
import { findClientCredentials, markClientUsed, type ClientCredentialsRow } from '../../db/repositories/api-clients.ts';
import { countRecentFailures, deleteExpiredFailures, recordFailure, type RecentFailures } from '../../db/repositories/token-failures.ts';
import { throttlingAddress } from './client-addresses.ts';
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
import { scopesFor, type Scope } from './roles.ts';
import { quoteInput } from '../../errors.ts';
import { CLIENT_ID_LENGTH_LIMIT, hashClientSecret, hashesEqual } from './secrets.ts';

/** The token request as the transport parsed it: each parameter at most once. */
export interface TokenRequest {
  parameters: Record<string, string>;
  /** Credentials from an HTTP Basic Authorization header, already decoded. */
  basic: { clientId: string; clientSecret: string } | null;
  /** The address the request came from (behind trusted proxies, the client's). */
  address: string;
}

export interface GrantSettings {
  audience: string;
  /** Failed attempts allowed per client and address in a window. */
  failureLimit: number;
  /** Failed attempts allowed per client from all addresses together in a window. */
  failureLimitPerClient: number;
  failureWindowSeconds: number;
}

/**
 * How long a process reuses what it read of a client (record, secrets, recent failures). This
 * is what keeps the token endpoint at one small read per client per second however often the
 * client asks; the price is that a change made by another process (a revoked secret, failures
 * counted there) is seen here up to this long after it happened.
 */
const CLIENT_CACHE_MILLISECONDS = 1_000;
const CLIENT_CACHE_LIMIT = 10_000;
const PARAMETER_LENGTH_LIMIT = 2_048;
/** Expired failure windows of all clients are swept at most this often by a process. */
const FAILURE_SWEEP_INTERVAL_MILLISECONDS = 60_000;

interface ClientState {
  credentials: ClientCredentialsRow | undefined;
  recentFailures: RecentFailures;
  readAtMilliseconds: number;
}

/**
 * The client-credentials grant (RFC 6749 §4.4), as a chain of small steps: check the request,
 * identify the client, refuse throttled clients before looking at the secret, verify the
 * secret, check audience and scope, issue.
 *
 * Throttling counts failures per client and source address: a stranger who knows a client_id
 * exhausts only the allowance of their own address, and the real client, asking from another
 * address, is not locked out. A second, much higher ceiling per client across all addresses
 * stops a guessing attack spread over many addresses; only such an attack can reach it.
 */
/** How often one process notes a client's use in the store, and how many clients it remembers doing so for. */
const USE_NOTE_INTERVAL_MILLISECONDS = 60_000;
const USES_NOTED_LIMIT = 10_000;

export class ClientCredentialsGrant {
  readonly #clients = new Map<string, ClientState>();
  /** When this process last noted each client's use (a stale entry only delays the note by a minute). */
  readonly #usesNoted = new Map<string, number>();
  #lastSweepMilliseconds = 0;

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
    const address = throttlingAddress(request.address);
    const client = await this.#authenticate(credentials, address);
    checkAudience(audience, this.settings.audience);
    const scopes = grantedScopes(parameters.scope, client);
    const token = await this.tokens.issue({ clientId: client.id, organizationId: client.organization_id, scopes }, audience);
    await this.#noteUse(client.organization_id, client.id);
    return token;
  }

  /**
   * Bookkeeping for the developer page: the store keeps the last use to the minute, so this
   * process writes it at most once a minute per client, and a failure never fails a token request.
   */
  async #noteUse(organizationId: string, clientId: string): Promise<void> {
    const nowMilliseconds = Date.now();
    const noted = this.#usesNoted.get(clientId);
    if (noted !== undefined && nowMilliseconds - noted < USE_NOTE_INTERVAL_MILLISECONDS) return;
    if (this.#usesNoted.size >= USES_NOTED_LIMIT) this.#usesNoted.clear();
    this.#usesNoted.set(clientId, nowMilliseconds);
    await markClientUsed(this.database, organizationId, clientId).catch(() => {});
  }

  async #authenticate(presented: PresentedCredentials, address: string): Promise<ClientCredentialsRow> {
    // No client has an id this long; refusing it here keeps junk out of the failure table.
    if (presented.clientId.length > CLIENT_ID_LENGTH_LIMIT) throw new InvalidClient(presented.usedBasicAuthentication);
    const state = await this.#clientState(presented.clientId, address);
    // Throttling comes before the secret is looked at: while throttled even the right secret is
    // refused, so guessing gains nothing.
    const failures = state.recentFailures;
    if (failures.fromAddress >= this.settings.failureLimit) throw new TooManyRequests(failures.addressRetryAfterSeconds);
    if (failures.total >= this.settings.failureLimitPerClient) throw new TooManyRequests(failures.totalRetryAfterSeconds);
    const client = state.credentials;
    // The presented secret is hashed whether or not the client exists, and compared with every
    // stored hash in constant time, so the answer takes as long for an unknown client.
    const candidate = hashClientSecret(await this.hashKey(), presented.clientSecret);
    let matched = false;
    for (const hash of client?.secret_hashes ?? []) matched = hashesEqual(candidate, hash) || matched;
    if (client === undefined || client.revoked_at !== null || !matched) {
      await recordFailure(this.database, presented.clientId, address, this.settings.failureWindowSeconds);
      // The next attempt in this process must see the failure just counted.
      this.#clients.delete(stateKey(presented.clientId, address));
      this.#sweepExpiredFailures();
      throw new InvalidClient(presented.usedBasicAuthentication);
    }
    return client;
  }

  /**
   * Reads a client's credentials and recent failures, reusing a read younger than a second.
   * The failure counts are shared by all processes through the store; a process may see them
   * up to a second late, which lets an attacker a handful of extra guesses at 256-bit secrets.
   */
  async #clientState(clientId: string, address: string): Promise<ClientState> {
    const now = Date.now();
    const key = stateKey(clientId, address);
    const cached = this.#clients.get(key);
    if (cached && now - cached.readAtMilliseconds < CLIENT_CACHE_MILLISECONDS) return cached;
    const [credentials, recentFailures] = await Promise.all([
      findClientCredentials(this.database, clientId),
      countRecentFailures(this.database, clientId, address, this.settings.failureWindowSeconds),
    ]);
    const state = { credentials, recentFailures, readAtMilliseconds: now };
    if (this.#clients.size >= CLIENT_CACHE_LIMIT) this.#clients.clear();
    this.#clients.set(key, state);
    return state;
  }

  /**
   * Failures are recorded per presented client_id, including ids that do not exist; their
   * expired windows are swept now and then so the table stays as small as the recent failures.
   * The sweep runs in the background: a failed sweep only delays the cleanup.
   */
  #sweepExpiredFailures(): void {
    const now = Date.now();
    if (now - this.#lastSweepMilliseconds < FAILURE_SWEEP_INTERVAL_MILLISECONDS) return;
    this.#lastSweepMilliseconds = now;
    deleteExpiredFailures(this.database, this.settings.failureWindowSeconds).catch(() => {});
  }

  /** Drops what this process remembers of a client (after a revocation or a secret change). */
  forgetClient(clientId: string): void {
    for (const key of this.#clients.keys()) if (key.startsWith(`${clientId}\n`)) this.#clients.delete(key);
  }
}

function stateKey(clientId: string, address: string): string {
  return `${clientId}\n${address}`;
}

interface PresentedCredentials {
  clientId: string;
  clientSecret: string;
  usedBasicAuthentication: boolean;
}

function checkParameters(parameters: Record<string, string>): Record<string, string> {
  for (const [name, value] of Object.entries(parameters)) {
    if (value.length > PARAMETER_LENGTH_LIMIT) throw new InvalidRequest(`parameter ${quoteInput(name)} is longer than ${PARAMETER_LENGTH_LIMIT} characters`);
  }
  return parameters;
}

/**
 * The client's credentials, from exactly one method (RFC 6749 §2.3.1: a client must not use
 * more than one). With Basic, a client_id in the body is tolerated when it names the same
 * client, because some libraries always send it; a client_secret in the body, or a different
 * client_id, is the second method and is refused.
 */
function presentedCredentials(request: TokenRequest): PresentedCredentials {
  const { client_id: clientId, client_secret: clientSecret } = request.parameters;
  if (request.basic) {
    if (clientSecret !== undefined || (clientId !== undefined && clientId !== request.basic.clientId)) {
      throw new InvalidRequest('use one client authentication method: HTTP Basic or client_id/client_secret in the body, not both');
    }
    if (request.basic.clientId === '') throw new InvalidRequest('the Basic Authorization header carries an empty client_id');
    return { ...request.basic, usedBasicAuthentication: true };
  }
  if (!clientId) throw new InvalidRequest('missing required parameter "client_id" (or use HTTP Basic authentication)');
  if (!clientSecret) throw new InvalidRequest('missing required parameter "client_secret" (or use HTTP Basic authentication)');
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

/** Checked only after the client authenticated, so that strangers are not told the audience. */
function checkAudience(audience: string, expected: string): void {
  if (audience !== expected) throw new AccessDenied(`${quoteInput(audience)} is not the audience of this API; use "${expected}"`);
}

/**
 * The scopes a token carries (RFC 6749 §3.3): exactly those requested when the request names
 * some, which must all be granted by the client's role (invalid_scope otherwise); every scope of
 * the role when it names none. A client that only reads can thus hold a token that only reads.
 */
function grantedScopes(requested: string | undefined, client: ClientCredentialsRow): Scope[] {
  const allowed = scopesFor(client.role);
  if (requested === undefined || requested.trim() === '') return allowed;
  const names = [...new Set(requested.split(/\s+/).filter((scope) => scope !== ''))];
  const refused = names.filter((scope) => !(allowed as string[]).includes(scope));
  if (refused.length > 0) {
    throw new InvalidScope(`the client's role (${client.role}) does not allow: ${quoteInput(refused.join(' '))}; allowed: ${allowed.join(' ')}`);
  }
  // The token lists its scopes in the role's order, whatever order they were asked in.
  return allowed.filter((scope) => names.includes(scope));
}
