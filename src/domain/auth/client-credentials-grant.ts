import type { Database } from '../../db/database.ts';
import { systemClock, type Clock } from '../clock.ts';
import { findClientCredentials, markClientUsed, type ClientCredentialsRow } from '../../db/repositories/api-clients.ts';
import { throttlingAddress } from './client-addresses.ts';
import { ALL_ADDRESSES, FailureThrottle, isRefusal, type FailureCounter } from './failure-throttle.ts';
import type { AccessTokens, IssuedToken } from './access-tokens.ts';
import type { SecretHashKey } from './api-clients.ts';
import { AccessDenied, InvalidClient, InvalidRequest, InvalidScope, TooManyRequests, UnsupportedGrantType } from './oauth-errors.ts';
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
  /** The time of the client cache and the throttle (the system clock unless a test moves its own). */
  clock?: Clock;
}

/**
 * How long a process reuses what it read of a client's credentials. This keeps the token
 * endpoint at one small read per client per second for the credentials however often the client
 * asks; the price is that a change made by another process (a revoked secret) is seen here up to
 * this long after it happened. Failure counts are never reused: they are read or charged in the
 * store by every request (`FailureThrottle`).
 */
const CLIENT_CACHE_MILLISECONDS = 1_000;
const CLIENT_CACHE_LIMIT = 10_000;
const PARAMETER_LENGTH_LIMIT = 2_048;

interface CachedCredentials {
  credentials: ClientCredentialsRow | undefined;
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
 *
 * Parallel guesses cannot slip past the limit: a wrong secret is answered 401 only once its
 * failure has been charged to both counters in one atomic statement that refuses a full counter,
 * so at most the limit of wrong secrets per window are ever answered 401, on any number of
 * processes. A right secret charges nothing; it is judged by the counts this process
 * learnt within the last second, its attempts of a client taken one at a time, which lets at most
 * one more guess per process through a counter that filled elsewhere (`FailureThrottle.check`)
 * and keeps the token endpoint free of writes for clients that know their secret.
 */
/** How often one process notes a client's use in the store, and how many clients it remembers doing so for. */
const USE_NOTE_INTERVAL_MILLISECONDS = 60_000;
const USES_NOTED_LIMIT = 10_000;

export class ClientCredentialsGrant {
  readonly #credentials = new Map<string, CachedCredentials>();
  /** When this process last noted each client's use (a stale entry only delays the note by a minute). */
  readonly #usesNoted = new Map<string, number>();
  readonly #throttle: FailureThrottle;
  readonly #clock: Clock;

  constructor(
    private readonly database: Database,
    private readonly tokens: AccessTokens,
    private readonly hashKey: SecretHashKey,
    private readonly settings: GrantSettings,
  ) {
    this.#clock = settings.clock ?? systemClock;
    this.#throttle = new FailureThrottle(database, 'token_failures', settings.failureWindowSeconds, this.#clock);
  }

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
    const counters: FailureCounter[] = [
      { key: presented.clientId, address, limit: this.settings.failureLimit },
      { key: presented.clientId, address: ALL_ADDRESSES, limit: this.settings.failureLimitPerClient },
    ];
    // Throttling comes before the secret is looked at: while throttled even the right secret is
    // refused, so guessing gains nothing. An address this process knows to be throttled is
    // refused at once, without waiting for the client's other attempts.
    const known = this.#throttle.knownRefusal(counters);
    if (known !== null) throw new TooManyRequests(known.retryAfterSeconds);
    return this.#throttle.oneAtATime(presented.clientId, async () => {
      const [throttled, cached] = await Promise.all([this.#throttle.check(counters), this.#clientCredentials(presented.clientId, false)]);
      if (throttled !== null) throw new TooManyRequests(throttled.retryAfterSeconds);
      if (await this.#secretMatches(cached, presented.clientSecret)) return cached!;
      // Judged against what the store holds now, not what this process read up to a second ago
      // (a secret created on another process a moment ago is not a failure).
      const fresh = await this.#clientCredentials(presented.clientId, true);
      if (await this.#secretMatches(fresh, presented.clientSecret)) return fresh!;
      // The failure is charged before it is told: once the counters are full, a wrong secret is
      // answered like a right one, 429, so a guess beyond the limit learns nothing.
      const charged = await this.#throttle.charge(counters);
      if (isRefusal(charged)) throw new TooManyRequests(charged.retryAfterSeconds);
      throw new InvalidClient(presented.usedBasicAuthentication);
    });
  }

  /**
   * The presented secret is hashed whether or not the client exists, and compared with every
   * stored hash in constant time, so the answer takes as long for an unknown client.
   */
  async #secretMatches(client: ClientCredentialsRow | undefined, secret: string): Promise<boolean> {
    const candidate = hashClientSecret(await this.hashKey(), secret);
    let matched = false;
    for (const hash of client?.secret_hashes ?? []) matched = hashesEqual(candidate, hash) || matched;
    return client !== undefined && client.revoked_at === null && matched;
  }

  /** A client's credentials, reusing a read younger than a second unless `fresh` is asked for. */
  async #clientCredentials(clientId: string, fresh: boolean): Promise<ClientCredentialsRow | undefined> {
    const now = this.#clock.now();
    const cached = this.#credentials.get(clientId);
    if (!fresh && cached && now - cached.readAtMilliseconds < CLIENT_CACHE_MILLISECONDS) return cached.credentials;
    const credentials = await findClientCredentials(this.database, clientId);
    if (this.#credentials.size >= CLIENT_CACHE_LIMIT) this.#credentials.clear();
    this.#credentials.set(clientId, { credentials, readAtMilliseconds: now });
    return credentials;
  }

  /** Drops what this process remembers of a client (after a revocation or a secret change). */
  forgetClient(clientId: string): void {
    this.#credentials.delete(clientId);
  }
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
