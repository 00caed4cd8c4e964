import { quoteInput } from '../../errors.ts';

/**
 * Errors of the token endpoint, one class per RFC 6749 §5.2 error code. They carry the code
 * and a description; the HTTP layer decides status and headers from the code.
 */
export type OAuthErrorCode =
  'invalid_request' | 'invalid_client' | 'unsupported_grant_type' | 'access_denied' | 'invalid_scope' | 'too_many_requests' | 'temporarily_unavailable';

export class OAuthError extends Error {
  override name = 'OAuthError';
  constructor(
    readonly error: OAuthErrorCode,
    description: string,
  ) {
    super(description);
  }
}

export class InvalidRequest extends OAuthError {
  constructor(description: string) {
    super('invalid_request', description);
  }
}

export class InvalidClient extends OAuthError {
  /** Whether the client authenticated with HTTP Basic, which asks for a WWW-Authenticate challenge. */
  constructor(readonly usedBasicAuthentication: boolean) {
    super('invalid_client', 'client authentication failed: unknown client, wrong secret, or revoked credentials');
  }
}

export class UnsupportedGrantType extends OAuthError {
  constructor(grantType: string) {
    super('unsupported_grant_type', `grant_type ${quoteInput(grantType)} is not supported; use "client_credentials"`);
  }
}

export class AccessDenied extends OAuthError {
  constructor(description: string) {
    super('access_denied', description);
  }
}

export class InvalidScope extends OAuthError {
  constructor(description: string) {
    super('invalid_scope', description);
  }
}

export class TooManyRequests extends OAuthError {
  constructor(readonly retryAfterSeconds: number) {
    super('too_many_requests', `too many failed attempts for this client; retry after ${retryAfterSeconds} seconds`);
  }
}

/** The server is stopping and did not handle the request (RFC 6749 §4.1.2.1 names the code). */
export class TemporarilyUnavailable extends OAuthError {
  constructor(
    description: string,
    readonly retryAfterSeconds: number,
  ) {
    super('temporarily_unavailable', description);
  }
}
