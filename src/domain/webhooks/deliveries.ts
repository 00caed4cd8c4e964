import { Agent as HttpAgent, request as httpRequest, type IncomingMessage } from 'node:http';
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https';
import type { Database } from '../../db/database.ts';
import type { JobRow } from '../../db/repositories/jobs.ts';
import { abandonDelivery, findDeliveryToSend, recordAttempt, type DeliveryToSend } from '../../db/repositories/webhooks.ts';
import { RetryJobLater, type JobContext, type JobQueue } from '../jobs/job-queue.ts';
import { signatureHeader } from './signing.ts';
import { addressBytes, describeAddress, isForbiddenAddress, publicAddressLookup } from './targets.ts';

/**
 * Sends webhook deliveries (SPEC §11), one job of the database queue each (§12): whichever
 * process takes the job sends it, and a process that dies mid-delivery leaves the job to
 * another once its lease runs out. Delivery is at least once: a receiver that answered but whose
 * answer was lost gets the message again, with the same webhook-id, and drops it.
 *
 * Deliveries have their own queue in each process (WEBHOOK_CONCURRENCY jobs at a time) so that a
 * slow or dead receiver holds back neither imports and runs nor the deliveries of other endpoints,
 * and each attempt has a timeout. Requests to the API never wait on a delivery. Who may take a
 * slot (docs/WEBHOOKS.md, "Who waits for whom"):
 * - an endpoint runs at most DELIVERIES_PER_ENDPOINT deliveries at once across processes;
 * - after FAILURES_BEFORE_PAUSE failed attempts in a row it is paused, for waits growing as the
 *   retries' do, and then runs one delivery at a time until one succeeds;
 * - one organization holds at most half of a process's slots, and an organization holding none
 *   goes first;
 * - endpoints whose last attempt failed or was slow hold at most half of a process's slots
 *   together, so that healthy endpoints always find one.
 */

export const WEBHOOK_DELIVERY_JOB = 'webhook-delivery';

/** Deliveries of one endpoint in flight at once, across all processes. */
export const DELIVERIES_PER_ENDPOINT = 4;

/** Failed attempts in a row after which an endpoint is paused, and then sent one delivery at a time until one succeeds. */
export const FAILURES_BEFORE_PAUSE = 3;

/**
 * The pauses of a failing endpoint follow the retries' waits this far, and stay at the last one
 * after (10 s, 30 s, 90 s, then about 4.5 min each with the default base): a receiver that comes
 * back is found within minutes, while a dead one costs one attempt per pause.
 */
const ENDPOINT_PAUSE_STEPS = 4;

/** An attempt that takes this share of WEBHOOK_TIMEOUT_SECONDS or more is slow (5 s of 15 s). */
const SLOW_ATTEMPT_SHARE_OF_TIMEOUT = 1 / 3;

/**
 * How a process's WEBHOOK_CONCURRENCY slots are shared: one organization holds at most half of
 * them, and so do together the endpoints whose last attempt failed or was slow, so that whoever
 * else has a delivery to send finds a free slot.
 */
export function deliverySlotShares(concurrency: number): { perOrganizationConcurrency: number; troubledKeyConcurrency: number } {
  const half = Math.max(1, Math.ceil(concurrency / 2));
  return { perOrganizationConcurrency: half, troubledKeyConcurrency: half };
}

/** The longest wait between two attempts. */
const MAXIMUM_RETRY_DELAY_MILLISECONDS = 6 * 3600 * 1000;

/** Bytes of a receiver's answer read before the connection is closed: the answer itself is not kept. */
const RESPONSE_READ_LIMIT_BYTES = 64 * 1024;

/**
 * Endpoints whose connections a process keeps open (the most recently used ones); a further
 * endpoint's pool closes the least recently used one's. Each pool holds at most
 * DELIVERIES_PER_ENDPOINT connections, the most deliveries an endpoint has in flight.
 */
const KEPT_ENDPOINT_POOLS = 256;

/** How long a kept connection may stay idle before it is closed. */
const IDLE_CONNECTION_MILLISECONDS = 30_000;

/**
 * The connections kept open to endpoints (HTTP keep-alive), one bounded pool per endpoint and
 * origin, so that a burst of deliveries to one receiver does not open a connection (and a TLS
 * session) per delivery.
 */
export class EndpointConnections {
  readonly #pools = new Map<string, HttpAgent>();

  constructor(private readonly limit: number = KEPT_ENDPOINT_POOLS) {}

  /** The pool for deliveries of `endpointId` to `url`, most recently used from now on. */
  agentFor(endpointId: string, url: string): HttpAgent | undefined {
    let origin: URL;
    try {
      origin = new URL(url);
    } catch {
      return undefined;
    }
    const key = `${endpointId} ${origin.protocol}//${origin.host}`;
    let agent = this.#pools.get(key);
    if (agent) {
      this.#pools.delete(key);
    } else {
      const options = { keepAlive: true, maxSockets: DELIVERIES_PER_ENDPOINT, maxFreeSockets: DELIVERIES_PER_ENDPOINT, timeout: IDLE_CONNECTION_MILLISECONDS };
      agent = origin.protocol === 'https:' ? new HttpsAgent(options) : new HttpAgent(options);
    }
    this.#pools.set(key, agent);
    while (this.#pools.size > this.limit) {
      const [oldest, pool] = this.#pools.entries().next().value as [string, HttpAgent];
      this.#pools.delete(oldest);
      pool.destroy();
    }
    return agent;
  }
}

export interface DeliverySettings {
  timeoutSeconds: number;
  retryBaseMilliseconds: number;
  giveUpSeconds: number;
  allowPrivateTargets: boolean;
}

export interface AttemptResult {
  responseStatus: number | null;
  error: string | null;
  durationMilliseconds: number;
}

/**
 * The wait before the next attempt after `attemptsMade` failed ones: exponential (×3 each time
 * from the base, at most 6 hours) with jitter, so that a receiver coming back is not met by every
 * retry at once. With the default 10-second base: about 10 s, 30 s, 90 s, 4.5 min, 13.5 min,
 * 40 min, 2 h, 6 h, 6 h... — about 17 attempts in 3 days.
 */
export function retryDelayMilliseconds(attemptsMade: number, baseMilliseconds: number, random: () => number = Math.random): number {
  const exponential = Math.min(MAXIMUM_RETRY_DELAY_MILLISECONDS, baseMilliseconds * 3 ** Math.max(0, attemptsMade - 1));
  return Math.round(exponential * (0.5 + random() / 2));
}

export class WebhookDeliverer {
  readonly #connections = new EndpointConnections();

  constructor(
    private readonly database: Database,
    private readonly queue: JobQueue,
    private readonly settings: DeliverySettings,
  ) {
    queue.register(WEBHOOK_DELIVERY_JOB, (job, context) => this.#deliver(job, context), { maxAttempts: 100 });
  }

  async #deliver(job: JobRow, { signal, recordKeyOutcome }: JobContext): Promise<void> {
    const deliveryId = String(job.payload.deliveryId);
    // Delivery jobs are always queued with the organization of their delivery.
    const organizationId = String(job.organizationId);
    const delivery = await findDeliveryToSend(this.database, organizationId, deliveryId);
    // Deleted with its endpoint, or settled by a redelivery's earlier job: nothing to send.
    if (!delivery || delivery.status !== 'pending') return;
    if (!delivery.enabled) {
      await abandonDelivery(this.database, organizationId, deliveryId, 'not sent: the endpoint is disabled');
      return;
    }
    const body = bodyOf(delivery);
    const timestampSeconds = Math.floor(Date.now() / 1000);
    const secrets = delivery.previousSecret === null ? [delivery.secret] : [delivery.secret, delivery.previousSecret];
    const result = await postWebhook({
      url: delivery.url,
      body,
      headers: {
        'content-type': 'application/json',
        'user-agent': 'ledger-recon-webhooks/1',
        'webhook-id': delivery.messageId,
        'webhook-timestamp': String(timestampSeconds),
        'webhook-signature': signatureHeader(secrets, delivery.messageId, timestampSeconds, body),
      },
      timeoutMilliseconds: this.settings.timeoutSeconds * 1000,
      allowPrivateTargets: this.settings.allowPrivateTargets,
      signal,
      agent: this.#connections.agentFor(delivery.endpointId, delivery.url),
    });
    const succeeded = result.responseStatus !== null && result.responseStatus >= 200 && result.responseStatus < 300;
    const windowEndMilliseconds = delivery.windowStartedAt.getTime() + this.settings.giveUpSeconds * 1000;
    const untilGiveUp = windowEndMilliseconds - Date.now();
    // The last attempt falls at the end of the give-up period rather than after it.
    const delay = Math.min(retryDelayMilliseconds(delivery.attempts + 1, this.settings.retryBaseMilliseconds), Math.max(0, untilGiveUp));
    const outcome = succeeded ? 'succeeded' : untilGiveUp <= 0 ? 'failed' : 'retry';
    // An attempt cut short because this process is stopping says nothing of the receiver. The
    // job's concurrency key is its endpoint.
    if (!signal.aborted) {
      await recordKeyOutcome(
        { failed: !succeeded, slow: result.durationMilliseconds >= this.settings.timeoutSeconds * 1000 * SLOW_ATTEMPT_SHARE_OF_TIMEOUT },
        {
          failuresBeforePause: FAILURES_BEFORE_PAUSE,
          pauseSeconds: Array.from({ length: ENDPOINT_PAUSE_STEPS }, (_, step) => retryDelayMilliseconds(step + 1, this.settings.retryBaseMilliseconds) / 1000),
        },
      );
    }
    await recordAttempt(this.database, {
      deliveryId,
      organizationId: delivery.organizationId,
      endpointId: delivery.endpointId,
      processId: this.queue.processId,
      responseStatus: result.responseStatus,
      durationMilliseconds: result.durationMilliseconds,
      error: result.error,
      outcome,
      retryAfterMilliseconds: delay,
      giveUpSeconds: this.settings.giveUpSeconds,
    });
    if (outcome === 'retry') throw new RetryJobLater(result.error ?? `the receiver answered ${result.responseStatus}`, delay / 1000);
  }
}

/** The body of a delivery, as the Standard Webhooks specification shapes it: type, timestamp, data. */
function bodyOf(delivery: DeliveryToSend): string {
  if (delivery.testPayload !== null) return JSON.stringify(delivery.testPayload);
  return JSON.stringify({ type: delivery.eventType, timestamp: delivery.eventOccurredAt, data: delivery.eventData ?? {} });
}

/**
 * One POST to a receiver. Redirects are not followed (a 3xx is a failed attempt): a redirect
 * could lead past the target check. Resolves with what happened; never throws.
 */
export function postWebhook(input: {
  url: string;
  body: string;
  headers: Record<string, string>;
  timeoutMilliseconds: number;
  allowPrivateTargets: boolean;
  signal?: AbortSignal;
  /** A pool of kept connections to the endpoint (see EndpointConnections); without one, the connection closes after the answer. */
  agent?: HttpAgent;
}): Promise<AttemptResult> {
  const started = performance.now();
  const elapsed = () => Math.round(performance.now() - started);
  return new Promise((resolve) => {
    let settled = false;
    let timer: NodeJS.Timeout | undefined;
    const settle = (result: Omit<AttemptResult, 'durationMilliseconds'>) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve({ ...result, durationMilliseconds: elapsed() });
    };
    let url: URL;
    try {
      url = new URL(input.url);
    } catch {
      return settle({ responseStatus: null, error: 'the endpoint URL is not valid' });
    }
    if (url.protocol !== 'https:' && !(input.allowPrivateTargets && url.protocol === 'http:')) {
      return settle({ responseStatus: null, error: `not sent: ${url.protocol}// targets are refused in production mode; use https://` });
    }
    const host = url.hostname.replace(/^\[(.*)\]$/, '$1');
    // An address written in the URL is never looked up, so it is checked here.
    if (!input.allowPrivateTargets && addressBytes(host) !== null && isForbiddenAddress(host)) {
      return settle({ responseStatus: null, error: `not sent: ${describeAddress(host)} is a private, loopback or link-local address` });
    }
    const send = url.protocol === 'https:' ? httpsRequest : httpRequest;
    const request = send(url, {
      method: 'POST',
      headers: { ...input.headers, 'content-length': String(Buffer.byteLength(input.body)) },
      ...(input.allowPrivateTargets ? {} : { lookup: publicAddressLookup }),
      signal: input.signal,
      agent: input.agent ?? false,
    });
    timer = setTimeout(() => {
      request.destroy(new Error(`no answer within ${input.timeoutMilliseconds / 1000} s`));
    }, input.timeoutMilliseconds);
    request.on('response', (response: IncomingMessage) => {
      const status = response.statusCode ?? null;
      const location = response.headers.location;
      let received = 0;
      // Read to its end, an answer leaves its connection to the next delivery; one cut short
      // (too long, or failed) closes it.
      const finish = (complete: boolean) => {
        settle({
          responseStatus: status,
          error:
            status !== null && status >= 300 && status < 400
              ? `the receiver answered ${status}${location ? ` (to ${location.slice(0, 200)})` : ''}; redirects are not followed — give the final URL`
              : status !== null && (status < 200 || status >= 300)
                ? `the receiver answered ${status}`
                : null,
        });
        if (!complete) response.destroy();
      };
      response.on('data', (chunk: Buffer) => {
        received += chunk.length;
        if (received > RESPONSE_READ_LIMIT_BYTES) finish(false);
      });
      response.on('end', () => finish(true));
      response.on('error', () => finish(false));
    });
    request.on('error', (error: NodeJS.ErrnoException) => {
      settle({ responseStatus: null, error: error.code && !error.message.includes(error.code) ? `${error.message} (${error.code})` : error.message });
    });
    request.end(input.body);
  });
}
