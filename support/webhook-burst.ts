import { workspace } from './event-workspace.ts';
import { referenceAndAmountRule, transactionRecords } from './factory.ts';
import { startReceiver } from './receiver.ts';
import type { TestServer } from './harness.ts';
import { waitFor } from './wait.ts';

export interface BurstOutcome {
  /** The transaction.status_changed events in the feed (two per matched pair). */
  feedIds: string[];
  /** The distinct webhook-ids the receiver answered with a 2xx. */
  acceptedIds: Set<string>;
  /** Requests the receiver got, and how many of them it answered 500. */
  requests: number;
  failedRequests: number;
  /** The attempts of the endpoint's deliveries, summed from its delivery log, and whether every delivery succeeded. */
  loggedAttempts: number;
  allSucceeded: boolean;
  /** From the run's start to the last delivery accepted. */
  milliseconds: number;
}

/**
 * A rule run that matches `pairs` pairs changes 2 x `pairs` statuses in one transaction; each
 * change is an event delivered to one endpoint whose receiver answers 500 to every
 * `failEvery`-th request (never, with null). What the webhook test checks with 100 events and
 * the bench times with 1,000 against the same burst to a receiver that never fails.
 */
export async function deliverStatusChangeBurst(
  server: TestServer,
  options: { pairs: number; failEvery: number | null; timeoutMilliseconds?: number },
): Promise<BurstOutcome> {
  const { pairs, failEvery, timeoutMilliseconds = 180_000 } = options;
  const space = await workspace(server);
  const target = await startReceiver();
  try {
    let requests = 0;
    let failedRequests = 0;
    target.respond = (_message, response) => {
      requests += 1;
      const fail = failEvery !== null && requests % failEvery === 0;
      if (fail) failedRequests += 1;
      response.writeHead(fail ? 500 : 204).end();
    };
    const endpoint = await space.createEndpoint(target.url, { eventTypes: ['transaction.status_changed'] });
    await space.call('POST', `/datasets/${space.bank}/transactions`, { records: transactionRecords('bank', pairs) }, 200);
    await space.call('POST', `/datasets/${space.ledger}/transactions`, { records: transactionRecords('ledger', pairs) }, 200);
    await space.call('POST', '/rules', referenceAndAmountRule(space.bank, space.ledger), 201);
    const started = performance.now();
    const run = (await space.call('POST', '/runs', { mode: 'commit' }, 202)).body;
    await waitFor(async () => (await space.call('GET', `/runs/${run.id}`, undefined, 200)).body.status === 'completed', 'the run', timeoutMilliseconds);
    await waitFor(() => target.accepted.size >= 2 * pairs, `${2 * pairs} distinct deliveries`, timeoutMilliseconds);
    const milliseconds = performance.now() - started;
    const feedIds = (await space.allEvents()).filter((event) => event.type === 'transaction.status_changed').map((event) => event.id as string);
    // Every attempt is in the log: the deliveries' attempts add up to the requests received.
    let loggedAttempts = 0;
    let allSucceeded = true;
    let cursor: string | null = null;
    do {
      const page: any = (await space.call('GET', `/webhook-endpoints/${endpoint.id}/deliveries?limit=200${cursor ? `&cursor=${cursor}` : ''}`, undefined, 200))
        .body;
      for (const delivery of page.deliveries) {
        allSucceeded &&= delivery.status === 'succeeded';
        loggedAttempts += delivery.attempts;
      }
      cursor = page.nextCursor;
    } while (cursor);
    return { feedIds, acceptedIds: new Set(target.accepted), requests: target.received.length, failedRequests, loggedAttempts, allSucceeded, milliseconds };
  } finally {
    await target.close();
  }
}
