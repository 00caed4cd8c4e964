import { isPlainObject } from './json.ts';

/**
 * The one error the SDK throws for anything a server or the network did. It carries the API's
 * error envelope ({code, status, request, message, details}) and, for the token endpoint, the
 * OAuth fields (error, error_description), so that a caller can branch on `code` and a person
 * reading a log sees what was asked of which URL and what to do about it.
 */

/** One problem of a request, named by its JSON pointer (e.g. `/search/0/path`). */
export interface ErrorDetail {
  path: string;
  message: string;
}

export interface LedgerReconErrorFields {
  /** The HTTP status code, or 0 when no answer came (network error, timeout). */
  code: number;
  /** The reason phrase of the status ("Not Found"), or "Network Error". */
  status: string;
  /** The server's request id, to quote when asking for help; null when there was no answer. */
  request: string | null;
  message: string;
  /** The catalogue's name of the message ("imports.fileEmpty"), when the server gave one: what a translation keys on. */
  messageId?: string;
  details: ErrorDetail[];
  method: string;
  url: string;
  /** OAuth error code from the token endpoint (`invalid_client`, `invalid_grant`, ...). */
  error?: string;
  /** OAuth error description from the token endpoint. */
  errorDescription?: string;
  /** Seconds the server asked to wait (Retry-After), when it said. */
  retryAfterSeconds?: number;
  cause?: unknown;
}

export class LedgerReconError extends Error {
  override readonly name = 'LedgerReconError';
  readonly code: number;
  readonly status: string;
  readonly request: string | null;
  readonly details: ErrorDetail[];
  readonly messageId: string | undefined;
  readonly method: string;
  readonly url: string;
  readonly error: string | undefined;
  readonly errorDescription: string | undefined;
  readonly retryAfterSeconds: number | undefined;

  constructor(fields: LedgerReconErrorFields) {
    super(fields.message, fields.cause === undefined ? undefined : { cause: fields.cause });
    this.code = fields.code;
    this.status = fields.status;
    this.request = fields.request;
    this.details = fields.details;
    this.messageId = fields.messageId;
    this.method = fields.method;
    this.url = fields.url;
    this.error = fields.error;
    this.errorDescription = fields.errorDescription;
    this.retryAfterSeconds = fields.retryAfterSeconds;
  }

  /** True for a 404. */
  get isNotFound(): boolean {
    return this.code === 404;
  }

  /** True when no answer came from the server (network error, refused connection, timeout). */
  get isNetworkError(): boolean {
    return this.code === 0;
  }

  toJSON() {
    return {
      name: this.name,
      code: this.code,
      status: this.status,
      request: this.request,
      message: this.message,
      details: this.details,
      ...(this.messageId === undefined ? {} : { messageId: this.messageId }),
      method: this.method,
      url: this.url,
      ...(this.error === undefined ? {} : { error: this.error, errorDescription: this.errorDescription }),
    };
  }
}

const REASON_PHRASES: Record<number, string> = {
  400: 'Bad Request',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'Not Found',
  405: 'Method Not Allowed',
  406: 'Not Acceptable',
  409: 'Conflict',
  413: 'Content Too Large',
  415: 'Unsupported Media Type',
  422: 'Unprocessable Content',
  429: 'Too Many Requests',
  500: 'Internal Server Error',
  502: 'Bad Gateway',
  503: 'Service Unavailable',
  504: 'Gateway Timeout',
};

/** What a body that could not be read as the envelope is cut to in a message. */
const QUOTED_BODY_LENGTH_LIMIT = 300;

function detailsOf(value: unknown): ErrorDetail[] {
  if (!Array.isArray(value)) return [];
  return value.filter(isPlainObject).map((detail) => ({ path: String(detail.path ?? ''), message: String(detail.message ?? '') }));
}

/** Seconds from a Retry-After header (delta seconds or an HTTP date); undefined when absent or unreadable. */
export function retryAfterSecondsOf(headers: Headers, nowMs: number = Date.now()): number | undefined {
  const value = headers.get('retry-after');
  if (value === null || value.trim() === '') return undefined;
  if (/^\s*\d+\s*$/.test(value)) return Number(value);
  // Only an HTTP date (RFC 9110: "Sun, 06 Nov 1994 08:49:37 GMT"); Date.parse alone would read
  // "1.5" or "-5" as dates of 2001 and the retry would not wait at all.
  if (!/^[A-Za-z]{3}, \d{2} [A-Za-z]{3} \d{4} \d{2}:\d{2}:\d{2} GMT$/.test(value.trim())) return undefined;
  const dateMs = Date.parse(value);
  if (Number.isNaN(dateMs)) return undefined;
  return Math.max(0, Math.ceil((dateMs - nowMs) / 1000));
}

/**
 * The error of an answer that is not a success, from the API's envelope, an OAuth error body or,
 * from a server that sends neither (a proxy's HTML page), the status and the start of the body.
 */
export function errorFromResponse(method: string, url: string, response: Response, bodyText: string): LedgerReconError {
  let parsed: unknown;
  try {
    parsed = bodyText === '' ? undefined : JSON.parse(bodyText);
  } catch {
    parsed = undefined;
  }
  const common = {
    code: response.status,
    status: REASON_PHRASES[response.status] ?? (response.statusText || 'Error'),
    request: response.headers.get('x-request-id'),
    method,
    url,
    retryAfterSeconds: retryAfterSecondsOf(response.headers),
  };
  if (isPlainObject(parsed) && isPlainObject(parsed.error)) {
    const envelope = parsed.error;
    return new LedgerReconError({
      ...common,
      status: typeof envelope.status === 'string' ? envelope.status : common.status,
      request: typeof envelope.request === 'string' ? envelope.request : common.request,
      message: typeof envelope.message === 'string' ? envelope.message : `${method} ${url} answered ${response.status}`,
      ...(typeof envelope.messageId === 'string' ? { messageId: envelope.messageId } : {}),
      details: detailsOf(envelope.details),
    });
  }
  if (isPlainObject(parsed) && typeof parsed.error === 'string') {
    const description = typeof parsed.error_description === 'string' ? parsed.error_description : undefined;
    return new LedgerReconError({
      ...common,
      message: `${parsed.error}${description ? `: ${description}` : ''}`,
      details: [],
      error: parsed.error,
      errorDescription: description,
    });
  }
  const quoted = bodyText.length > QUOTED_BODY_LENGTH_LIMIT ? `${bodyText.slice(0, QUOTED_BODY_LENGTH_LIMIT)}…` : bodyText;
  return new LedgerReconError({
    ...common,
    message: `${method} ${url} answered ${response.status} ${common.status}${quoted ? `: ${quoted}` : ''}`,
    details: [],
  });
}

/** The error of a request that got no answer; names the URL and keeps the cause. */
export function networkError(method: string, url: string, cause: unknown, timeoutMs?: number): LedgerReconError {
  const timedOut = cause instanceof Error && (cause.name === 'TimeoutError' || cause.name === 'AbortError') && timeoutMs !== undefined;
  const reason = timedOut ? `no answer within ${timeoutMs} ms` : cause instanceof Error ? describeCause(cause) : String(cause);
  return new LedgerReconError({
    code: 0,
    status: 'Network Error',
    request: null,
    message: `${method} ${url} failed: ${reason}; check that the server is running and the URL is right`,
    details: [],
    method,
    url,
    cause,
  });
}

/** fetch's "fetch failed" hides the reason in its cause (ECONNREFUSED, ENOTFOUND, ...); bring it out. */
function describeCause(error: Error): string {
  const inner = (error as Error & { cause?: unknown }).cause;
  if (inner instanceof Error) {
    const code = (inner as Error & { code?: unknown }).code;
    return typeof code === 'string' ? `${code} (${inner.message})` : inner.message;
  }
  return error.message;
}
