import { LedgerReconError } from './errors.ts';

/**
 * Access tokens for the client-credentials grant. One token is kept and shared by every call; it
 * is renewed a little before it expires, and while a renewal is under way every caller waits for
 * that one request instead of sending its own (fifty concurrent calls make one token request).
 */

export interface AccessToken {
  accessToken: string;
  /** When it stops being accepted, in epoch ms, by this machine's clock. */
  expiresAtMs: number;
}

/** Where tokens come from: the client-credentials grant, or (in the web app) the user's session. */
export type FetchAccessToken = () => Promise<{ accessToken: string; expiresInSeconds: number }>;

/** Renew this long before expiry, at most: clocks drift and a request takes time to arrive. */
const RENEW_BEFORE_EXPIRY_MS_MAX = 60_000;
/** ...and at most this share of the token's lifetime, so that short-lived tokens are still used. */
const RENEW_BEFORE_EXPIRY_SHARE = 0.1;

export class TokenCache {
  private current: AccessToken | null = null;
  private renewal: Promise<AccessToken> | null = null;
  private lifetimeMs = 0;

  /**
   * @param renewBeforeExpirySeconds renew this long before expiry; by default a tenth of the
   *   token's lifetime, at most a minute.
   */
  constructor(
    private readonly fetchToken: FetchAccessToken,
    private readonly renewBeforeExpirySeconds?: number,
    private readonly now: () => number = Date.now,
  ) {}

  /** A token good for a while yet: the kept one, or a fresh one shared with every concurrent caller. */
  async get(): Promise<string> {
    const current = this.current;
    if (current !== null && this.now() < current.expiresAtMs - this.renewMarginMs()) return current.accessToken;
    try {
      return (await this.renew()).accessToken;
    } catch (error) {
      // A renewal ahead of time that fails (the token server busy) is no reason to fail a call
      // while the kept token is still good; the next call tries to renew again.
      if (current !== null && this.current === current && this.now() < current.expiresAtMs) return current.accessToken;
      throw error;
    }
  }

  /** Forget `accessToken` if it is still the kept one (the server refused it: revoked keys, a clock gone wrong). */
  invalidate(accessToken: string): void {
    if (this.current?.accessToken === accessToken) this.current = null;
  }

  private renewMarginMs(): number {
    if (this.renewBeforeExpirySeconds !== undefined) return this.renewBeforeExpirySeconds * 1000;
    return Math.min(RENEW_BEFORE_EXPIRY_MS_MAX, this.lifetimeMs * RENEW_BEFORE_EXPIRY_SHARE);
  }

  private renew(): Promise<AccessToken> {
    if (this.renewal === null) {
      const requestedAtMs = this.now();
      this.renewal = this.fetchToken()
        .then(({ accessToken, expiresInSeconds }) => {
          this.lifetimeMs = expiresInSeconds * 1000;
          // Counted from when it was asked for: the server's clock started before the answer arrived.
          this.current = { accessToken, expiresAtMs: requestedAtMs + this.lifetimeMs };
          return this.current;
        })
        .finally(() => {
          this.renewal = null;
        });
    }
    return this.renewal;
  }
}

/** The token response's fields, checked: a server that answers 200 with something else is an error, not a crash later. */
export function readTokenResponse(body: unknown, url: string): { accessToken: string; expiresInSeconds: number } {
  const record = typeof body === 'object' && body !== null ? (body as Record<string, unknown>) : {};
  const accessToken = record.access_token;
  const expiresIn = typeof record.expires_in === 'string' ? Number(record.expires_in) : record.expires_in;
  if (typeof accessToken !== 'string' || accessToken === '' || typeof expiresIn !== 'number' || !Number.isFinite(expiresIn) || expiresIn <= 0) {
    throw new LedgerReconError({
      code: 200,
      status: 'OK',
      request: null,
      message: `the token endpoint ${url} answered 200 without access_token and a positive expires_in; check tokenUrl`,
      details: [],
      method: 'POST',
      url,
    });
  }
  return { accessToken, expiresInSeconds: expiresIn };
}

/** The organization a token of this service is for (its org_id claim); null for a token that is not a readable JWT. */
export function organizationOfToken(accessToken: string): string | null {
  const payload = accessToken.split('.')[1];
  if (payload === undefined) return null;
  try {
    const binary = atob(payload.replace(/-/g, '+').replace(/_/g, '/'));
    // atob gives one character per byte; the claims are UTF-8.
    const text = new TextDecoder().decode(Uint8Array.from(binary, (character) => character.charCodeAt(0)));
    const claims = JSON.parse(text) as Record<string, unknown>;
    return typeof claims.org_id === 'string' ? claims.org_id : null;
  } catch {
    return null;
  }
}
