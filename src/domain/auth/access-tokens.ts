import { SignJWT, decodeProtectedHeader, errors as joseErrors, jwtVerify, type JWTPayload } from 'jose';
import { randomUUID } from 'node:crypto';
import type { Database } from '../../db/database.ts';
import { findRevokedClients } from '../../db/repositories/api-clients.ts';
import { sessionIsLive } from '../../db/repositories/users.ts';
import { invalidToken, quoteInput } from '../../errors.ts';
import type { Principal } from './principal.ts';
import { Scopes, type Scope } from './roles.ts';

const ALL_SCOPES: readonly Scope[] = Object.values(Scopes);
import type { SigningKeys } from './signing-keys.ts';

export interface AccessTokenSettings {
  issuer: string;
  audience: string;
  tokenTtlSeconds: number;
  revocationCheckSeconds: number;
}

export interface IssuedToken {
  accessToken: string;
  expiresInSeconds: number;
  scope: string;
}

/** Verified tokens kept per process; a bound keeps memory flat whatever the traffic. */
const VERIFIED_TOKEN_CACHE_LIMIT = 10_000;

/** The client_id claim of the tokens of people signed in to the web app (no API client has it: ids are random). */
export const USER_TOKEN_CLIENT_ID = 'web-app-session';

/**
 * Issues and verifies RFC 9068 JWT access tokens. Verification of an RSA signature costs far
 * more than the rest of a request, so a verified token is remembered until it expires; what can
 * change meanwhile (the client being revoked) is checked separately and cheaply.
 */
export class AccessTokens {
  readonly #verified = new Map<string, { principal: Principal; expiresAtMilliseconds: number }>();
  /** The token issued in the current second per client, audience and scope; see issue(). */
  readonly #issuedThisSecond = new Map<string, { issuedAtSeconds: number; token: IssuedToken }>();
  readonly #revocations: RevocationCache;
  /** Ended sessions (logout, password change, deactivation), checked like revoked clients. */
  readonly #endedSessions: RevocationCache;

  constructor(
    database: Database,
    private readonly keys: SigningKeys,
    private readonly settings: AccessTokenSettings,
  ) {
    // Both caches are keyed by organization and id, so that each check reads the organization's rows only.
    this.#revocations = new RevocationCache(settings.revocationCheckSeconds * 1000, async (key) => {
      const [organizationId, clientId] = splitKey(key);
      return (await findRevokedClients(database, organizationId, [clientId])).has(clientId);
    });
    this.#endedSessions = new RevocationCache(settings.revocationCheckSeconds * 1000, async (key) => {
      const [organizationId, sessionId] = splitKey(key);
      return !(await sessionIsLive(database, organizationId, sessionId));
    });
  }

  /**
   * Signs a short-lived token for a person signed in to the web app: the same API, the same
   * scopes as an API client of the user's role, and the session's id, so that ending the
   * session (logout, password change, deactivation) ends its tokens too.
   */
  async issueForUser(
    user: { userId: string; email: string; sessionId: string; organizationId: string; scopes: readonly Scope[] },
    ttlSeconds: number,
  ): Promise<IssuedToken> {
    const scope = user.scopes.join(' ');
    const nowSeconds = Math.floor(Date.now() / 1000);
    const { kid, privateKey } = await this.keys.signingKey();
    const accessToken = await new SignJWT({
      client_id: USER_TOKEN_CLIENT_ID,
      azp: USER_TOKEN_CLIENT_ID,
      gty: 'session',
      scope,
      org_id: user.organizationId,
      sid: user.sessionId,
      email: user.email,
    })
      .setProtectedHeader({ alg: 'RS256', typ: 'at+jwt', kid })
      .setIssuer(this.settings.issuer)
      .setSubject(`user:${user.userId}`)
      .setAudience(this.settings.audience)
      .setIssuedAt(nowSeconds)
      .setExpirationTime(nowSeconds + ttlSeconds)
      .setJti(randomUUID())
      .sign(privateKey);
    return { accessToken, expiresInSeconds: ttlSeconds, scope };
  }

  /**
   * Signs a token for a client. Two requests in the same second for the same client, audience
   * and scope would differ only in jti, so the second gets the first's token: a client that
   * asks for a token per call is served without a signature per call.
   */
  async issue(client: { clientId: string; organizationId: string; scopes: readonly Scope[] }, audience: string): Promise<IssuedToken> {
    const scope = client.scopes.join(' ');
    const nowSeconds = Math.floor(Date.now() / 1000);
    const cacheKey = `${client.clientId}\n${audience}\n${scope}`;
    const recent = this.#issuedThisSecond.get(cacheKey);
    if (recent && recent.issuedAtSeconds === nowSeconds) return recent.token;

    const { kid, privateKey } = await this.keys.signingKey();
    const accessToken = await new SignJWT({
      client_id: client.clientId,
      azp: client.clientId,
      gty: 'client-credentials',
      scope,
      org_id: client.organizationId,
    })
      .setProtectedHeader({ alg: 'RS256', typ: 'at+jwt', kid })
      .setIssuer(this.settings.issuer)
      .setSubject(`${client.clientId}@clients`)
      .setAudience(audience)
      .setIssuedAt(nowSeconds)
      .setExpirationTime(nowSeconds + this.settings.tokenTtlSeconds)
      .setJti(randomUUID())
      .sign(privateKey);
    const token = { accessToken, expiresInSeconds: this.settings.tokenTtlSeconds, scope };
    if (this.#issuedThisSecond.size >= VERIFIED_TOKEN_CACHE_LIMIT) this.#issuedThisSecond.clear();
    this.#issuedThisSecond.set(cacheKey, { issuedAtSeconds: nowSeconds, token });
    return token;
  }

  /** Verifies a bearer token and returns its principal; throws invalid_token with the reason. */
  async verify(token: string): Promise<Principal> {
    const now = Date.now();
    const cached = this.#verified.get(token);
    let principal: Principal;
    if (cached && cached.expiresAtMilliseconds > now) {
      principal = cached.principal;
    } else {
      if (cached) this.#verified.delete(token);
      const { payload } = await this.#verifySignature(token);
      principal = principalOf(payload);
      if (this.#verified.size >= VERIFIED_TOKEN_CACHE_LIMIT) {
        // Dropping the oldest entry (Map keeps insertion order) keeps the bound.
        const oldest = this.#verified.keys().next();
        if (!oldest.done) this.#verified.delete(oldest.value);
      }
      this.#verified.set(token, { principal, expiresAtMilliseconds: (payload.exp ?? 0) * 1000 });
    }
    if (principal.sessionId !== undefined) {
      if (await this.#endedSessions.isRevoked(`${principal.organizationId}/${principal.sessionId}`)) {
        throw invalidToken('the session of this token has ended (signed out, password changed or user deactivated); sign in again');
      }
    } else if (await this.#revocations.isRevoked(`${principal.organizationId}/${principal.clientId}`)) {
      throw invalidToken('the client of this token has been revoked');
    }
    return principal;
  }

  /** Forgets what this process knows of a client, so that its revocation counts at once here. */
  forgetClient(clientId: string): void {
    // A client id is unique across organizations, so at most one entry ends with it.
    this.#revocations.forgetWhere((key) => key.endsWith(`/${clientId}`));
  }

  /** Forgets what this process knows of sessions, so that their end counts at once here. */
  forgetSessions(organizationId: string, sessionIds: readonly string[]): void {
    for (const sessionId of sessionIds) this.#endedSessions.forget(`${organizationId}/${sessionId}`);
  }

  async #verifySignature(token: string): Promise<{ payload: JWTPayload }> {
    let header: ReturnType<typeof decodeProtectedHeader>;
    try {
      header = decodeProtectedHeader(token);
    } catch {
      throw invalidToken('the token is malformed');
    }
    if (header.alg !== 'RS256') throw invalidToken(`unsupported signing algorithm ${quoteInput(String(header.alg))}; tokens are RS256`);
    if (header.typ?.toLowerCase() !== 'at+jwt' && header.typ?.toLowerCase() !== 'application/at+jwt') {
      throw invalidToken('the token is not an access token (typ must be at+jwt)');
    }
    const kid = header.kid;
    const key = kid ? await this.keys.verificationKey(kid) : undefined;
    if (!key) throw invalidToken('the token was signed with an unknown key');
    try {
      return await jwtVerify(token, key, {
        issuer: this.settings.issuer,
        audience: this.settings.audience,
        algorithms: ['RS256'],
        requiredClaims: ['exp', 'iat', 'sub', 'jti', 'client_id', 'org_id'],
      });
    } catch (error) {
      if (error instanceof joseErrors.JWTExpired) throw invalidToken('the token has expired; request a new one');
      if (error instanceof joseErrors.JWTClaimValidationFailed) {
        throw invalidToken(`the token's "${error.claim}" claim is not valid for this API`);
      }
      if (error instanceof joseErrors.JWSSignatureVerificationFailed) throw invalidToken('the token signature is invalid');
      throw invalidToken('the token is invalid');
    }
  }
}

/** The organization and the id of a revocation cache key (`organization/id`). */
function splitKey(key: string): [string, string] {
  const separator = key.indexOf('/');
  return [key.slice(0, separator), key.slice(separator + 1)];
}

function principalOf(payload: JWTPayload): Principal {
  const clientId = payload.client_id;
  const organizationId = payload.org_id;
  const scope = typeof payload.scope === 'string' ? payload.scope : '';
  if (typeof clientId !== 'string' || typeof organizationId !== 'string') throw invalidToken('the token lacks client_id or org_id');
  const granted = new Set(scope.split(' '));
  const scopes = ALL_SCOPES.filter((known) => granted.has(known));
  if (scopes.length === 0) throw invalidToken('the token grants no known scope');
  if (clientId === USER_TOKEN_CLIENT_ID) {
    const sessionId = payload.sid;
    const userId = typeof payload.sub === 'string' && payload.sub.startsWith('user:') ? payload.sub.slice('user:'.length) : undefined;
    if (typeof sessionId !== 'string' || userId === undefined) throw invalidToken('the token lacks its session or user');
    // Throttling and the last-use bookkeeping of clients key on clientId: per user here.
    return {
      organizationId,
      clientId: `user:${userId}`,
      scopes,
      actor: `user:${typeof payload.email === 'string' ? payload.email : userId}`,
      userId,
      sessionId,
    };
  }
  return { organizationId, clientId, scopes, actor: `client:${clientId}` };
}

/**
 * Knows, per process, which clients are revoked, re-reading a client's state from the store
 * when the copy is older than the check interval. Revocation thus takes effect everywhere within
 * that interval (at most 5 seconds by configuration) at the cost of one small query per client
 * per interval instead of one per request.
 */
class RevocationCache {
  readonly #states = new Map<string, { revoked: boolean; checkedAtMilliseconds: number }>();
  readonly #pending = new Map<string, Promise<boolean>>();

  constructor(
    private readonly maximumAgeMilliseconds: number,
    private readonly readRevoked: (key: string) => Promise<boolean>,
  ) {}

  async isRevoked(clientId: string): Promise<boolean> {
    const state = this.#states.get(clientId);
    if (state && Date.now() - state.checkedAtMilliseconds < this.maximumAgeMilliseconds) return state.revoked;
    let pending = this.#pending.get(clientId);
    if (!pending) {
      pending = (async () => {
        try {
          const revoked = await this.readRevoked(clientId);
          if (this.#states.size >= VERIFIED_TOKEN_CACHE_LIMIT) this.#states.clear();
          this.#states.set(clientId, { revoked, checkedAtMilliseconds: Date.now() });
          return revoked;
        } finally {
          this.#pending.delete(clientId);
        }
      })();
      this.#pending.set(clientId, pending);
    }
    return pending;
  }

  forget(clientId: string): void {
    this.#states.delete(clientId);
  }

  forgetWhere(test: (key: string) => boolean): void {
    for (const key of this.#states.keys()) if (test(key)) this.#states.delete(key);
  }
}
