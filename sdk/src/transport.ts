import { errorFromResponse, LedgerReconError, networkError, retryAfterSecondsOf } from './errors.ts';
import { delayBeforeRetryMs, RETRYABLE_STATUSES, sleep, type RetryOptions } from './retry.ts';
import type { TokenCache } from './tokens.ts';

/**
 * Every request the SDK makes goes through `Transport.request`: it adds the bearer token (renewed
 * once and the request tried once more when the server refuses it), the Idempotency-Key of a
 * write (one per logical call, the same on every retry, so the server does the write once), the
 * retries, the timeout, and turns whatever went wrong into a LedgerReconError.
 */

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

export type QueryValue = string | number | boolean | null | undefined;

export type RequestBody =
  | { kind: 'json'; value: unknown }
  | { kind: 'form'; value: URLSearchParams }
  /** A Blob, sent as it is (browsers stream request bodies only over HTTP/2; a Blob they send anywhere). */
  | { kind: 'blob'; value: Blob; contentType: string }
  /** A body made afresh for each try; `replayable` is false for a one-shot stream, which is then never retried. */
  | { kind: 'stream'; open: () => Promise<ReadableStream<Uint8Array>>; contentType: string; replayable: boolean };

export interface ApiRequest {
  method: HttpMethod;
  /** A path under the base URL (`/v1/api/...`) or a whole URL (a token endpoint elsewhere). */
  path: string;
  query?: Record<string, QueryValue>;
  body?: RequestBody;
  headers?: Record<string, string>;
  /** False for the token request itself. */
  authenticated?: boolean;
  /** A POST that changes nothing (a query, a validation): retried like a GET, without an Idempotency-Key. */
  safe?: boolean;
  /** The key of this logical write; generated when absent. */
  idempotencyKey?: string;
  signal?: AbortSignal;
  /** A download: a successful answer's body is given as a Blob (of the answer's media type), not read as text. */
  binary?: boolean;
}

export interface ApiResponse<T> {
  status: number;
  headers: Headers;
  data: T;
}

export interface TransportOptions {
  baseUrl: string;
  fetch: typeof fetch;
  retry: RetryOptions;
  timeoutMs: number;
  tokens: TokenCache | null;
  /** Sent as User-Agent where the platform lets a request set it (not in browsers). */
  userAgent: string;
}

export class Transport {
  constructor(private readonly options: TransportOptions) {}

  urlOf(path: string, query?: Record<string, QueryValue>): string {
    const url = new URL(/^https?:\/\//i.test(path) ? path : `${this.options.baseUrl}${path}`);
    for (const [name, value] of Object.entries(query ?? {})) {
      if (value !== undefined && value !== null) url.searchParams.set(name, String(value));
    }
    return url.toString();
  }

  async request<T>(request: ApiRequest): Promise<ApiResponse<T>> {
    const { method } = request;
    const url = this.urlOf(request.path, request.query);
    const safe = request.safe ?? method === 'GET';
    const idempotencyKey = safe ? undefined : (request.idempotencyKey ?? crypto.randomUUID());
    const replayable = request.body?.kind !== 'stream' || request.body.replayable;
    const authenticated = request.authenticated ?? true;
    const startedMs = Date.now();
    let tokenRenewed = false;

    for (let attempt = 1; ; attempt += 1) {
      const headers = new Headers(request.headers);
      if (!headers.has('accept')) headers.set('accept', 'application/json');
      if (!('document' in globalThis)) headers.set('user-agent', this.options.userAgent);
      if (idempotencyKey !== undefined) headers.set('idempotency-key', idempotencyKey);
      let token: string | undefined;
      if (authenticated) {
        if (this.options.tokens === null) throw new Error('this client has no credentials: give clientId and clientSecret, or getAccessToken');
        token = await this.options.tokens.get();
        headers.set('authorization', `Bearer ${token}`);
      }
      const init: RequestInit & { duplex?: 'half' } = { method, headers, signal: this.signalOf(request.signal) };
      const body = request.body;
      if (body?.kind === 'json') {
        headers.set('content-type', 'application/json');
        init.body = JSON.stringify(body.value);
      } else if (body?.kind === 'form') {
        headers.set('content-type', 'application/x-www-form-urlencoded');
        init.body = body.value.toString();
      } else if (body?.kind === 'blob') {
        headers.set('content-type', body.contentType);
        init.body = body.value;
      } else if (body?.kind === 'stream') {
        headers.set('content-type', body.contentType);
        init.body = await body.open();
        // Node's fetch sends a stream only half-duplex, and says so only if asked.
        init.duplex = 'half';
      }

      let response: Response;
      let text: string;
      let blob: Blob | null = null;
      try {
        response = await this.options.fetch(url, init);
        // Read here, inside the try: a connection lost while the body arrives is a network error too.
        if (request.binary === true && response.ok) {
          blob = await response.blob();
          text = '';
        } else text = RETRYABLE_STATUSES.has(response.status) || response.status === 401 ? '' : await response.text();
      } catch (cause) {
        if (request.signal?.aborted) throw cause;
        const error = networkError(method, url, cause, this.options.timeoutMs);
        if (replayable && (await this.waitBeforeRetry(attempt, startedMs, undefined, request.signal))) continue;
        throw error;
      }

      // A refused token (expired early, keys rotated, revoked) is renewed once and the request tried once more.
      if (response.status === 401 && token !== undefined && !tokenRenewed && replayable) {
        await response.body?.cancel();
        this.options.tokens?.invalidate(token);
        tokenRenewed = true;
        attempt -= 1;
        continue;
      }
      if (RETRYABLE_STATUSES.has(response.status) && replayable) {
        const retryAfterSeconds = retryAfterSecondsOf(response.headers);
        if (await this.waitBeforeRetry(attempt, startedMs, retryAfterSeconds, request.signal)) {
          await response.body?.cancel();
          continue;
        }
      }
      if (RETRYABLE_STATUSES.has(response.status) || response.status === 401) text = await response.text();
      if (!response.ok) throw errorFromResponse(method, url, response, text);
      if (blob !== null) return { status: response.status, headers: response.headers, data: blob as T };
      return { status: response.status, headers: response.headers, data: parseBody(text, response, method, url) as T };
    }
  }

  private signalOf(callerSignal: AbortSignal | undefined): AbortSignal {
    const timeout = AbortSignal.timeout(this.options.timeoutMs);
    return callerSignal === undefined ? timeout : AbortSignal.any([callerSignal, timeout]);
  }

  /** Waits before the next try and says whether to make it: false when the tries or the time are spent. */
  private async waitBeforeRetry(attempt: number, startedMs: number, retryAfterSeconds: number | undefined, signal?: AbortSignal): Promise<boolean> {
    const { retry } = this.options;
    if (attempt >= retry.maxAttempts) return false;
    const delayMs = delayBeforeRetryMs(retry, attempt, retryAfterSeconds);
    if (Date.now() - startedMs + delayMs > retry.maxElapsedMs) return false;
    await sleep(delayMs, signal);
    return true;
  }
}

function parseBody(text: string, response: Response, method: string, url: string): unknown {
  if (text === '') return undefined;
  const type = response.headers.get('content-type') ?? '';
  if (!/json/i.test(type)) return text;
  try {
    return JSON.parse(text);
  } catch (cause) {
    throw new LedgerReconError({
      code: response.status,
      status: 'Invalid Response',
      request: response.headers.get('x-request-id'),
      message: `${method} ${url} answered ${response.status} with a body that is not JSON although it says ${type}`,
      details: [],
      method,
      url,
      cause,
    });
  }
}
