/**
 * When a request is tried again. A busy server (429), a gateway that lost it (502, 504), a server
 * that is starting or stopping (503) and a request that got no answer are worth another try;
 * anything else is an answer. Waits grow exponentially with full jitter, so that many clients
 * turned away together do not come back together, and the whole is bounded in time.
 */

export interface RetryOptions {
  /** Tries in all, the first included. */
  maxAttempts: number;
  /** The first wait's ceiling; each later ceiling doubles. */
  baseDelayMs: number;
  /** No single wait is longer. */
  maxDelayMs: number;
  /** No request keeps retrying past this time since its first try; a Retry-After beyond it ends the retries. */
  maxElapsedMs: number;
}

export const DEFAULT_RETRY: RetryOptions = {
  maxAttempts: 5,
  baseDelayMs: 250,
  maxDelayMs: 8_000,
  maxElapsedMs: 60_000,
};

/** With retries off, one try. */
export const NO_RETRY: RetryOptions = { maxAttempts: 1, baseDelayMs: 0, maxDelayMs: 0, maxElapsedMs: 0 };

export const RETRYABLE_STATUSES: ReadonlySet<number> = new Set([429, 502, 503, 504]);

/** The wait before try `attemptNumber + 1`: the server's Retry-After when it gave one, else full jitter. */
export function delayBeforeRetryMs(
  options: RetryOptions,
  attemptNumber: number,
  retryAfterSeconds: number | undefined,
  random: () => number = Math.random,
): number {
  if (retryAfterSeconds !== undefined) return retryAfterSeconds * 1000;
  const ceilingMs = Math.min(options.maxDelayMs, options.baseDelayMs * 2 ** (attemptNumber - 1));
  return Math.floor(random() * ceilingMs);
}

/** Waits, and stops waiting when the caller gives up (the signal aborts). */
export function sleep(durationMs: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, durationMs);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal?.reason);
    };
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}
