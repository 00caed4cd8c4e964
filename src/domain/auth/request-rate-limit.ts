import { authErrors } from '../../errors.ts';

/** Clients tracked at once; beyond it the longest-idle are forgotten (they start full again). */
const TRACKED_CLIENTS_LIMIT = 10_000;

interface Bucket {
  tokens: number;
  updatedAtMilliseconds: number;
}

/**
 * A token bucket per API client: a client may send `requestsPerMinute` requests a minute on
 * average and the same number in a burst. The buckets live in each process, so with several
 * processes behind a load balancer the limit applies per process; it protects each process from
 * one client, which is what it is for. Zero disables the limit.
 */
export class RequestRateLimit {
  readonly #buckets = new Map<string, Bucket>();

  constructor(private readonly requestsPerMinute: number) {}

  /** Takes one request from the client's bucket, or throws too_many_requests with the wait. */
  take(clientId: string, nowMilliseconds = Date.now()): void {
    if (this.requestsPerMinute === 0) return;
    const capacity = this.requestsPerMinute;
    const refillPerMillisecond = this.requestsPerMinute / 60_000;
    let bucket = this.#buckets.get(clientId);
    if (bucket) {
      this.#buckets.delete(clientId);
      bucket.tokens = Math.min(capacity, bucket.tokens + (nowMilliseconds - bucket.updatedAtMilliseconds) * refillPerMillisecond);
      bucket.updatedAtMilliseconds = nowMilliseconds;
    } else {
      bucket = { tokens: capacity, updatedAtMilliseconds: nowMilliseconds };
      if (this.#buckets.size >= TRACKED_CLIENTS_LIMIT) {
        const idlest = this.#buckets.keys().next();
        if (!idlest.done) this.#buckets.delete(idlest.value);
      }
    }
    // Re-inserting keeps the Map ordered from longest idle to most recent.
    this.#buckets.set(clientId, bucket);
    if (bucket.tokens < 1) {
      const retryAfterSeconds = Math.max(1, Math.ceil((1 - bucket.tokens) / refillPerMillisecond / 1000));
      throw authErrors.clientRateLimited(this.requestsPerMinute, retryAfterSeconds);
    }
    bucket.tokens -= 1;
  }
}
