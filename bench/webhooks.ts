/**
 * Webhook delivery through failures (a section of `npm run bench`): a rule run changes 1,000
 * statuses in one transaction and each change is delivered to a receiver that answers 500 to
 * one request in three, against the same burst to a receiver that never fails, measured in the
 * same run. The server runs in this process on the embedded store, and on PostgreSQL too when
 * DATABASE_URL is set. The webhook test checks the same burst with 100 events.
 *
 * Settings: BENCH_WEBHOOK_BURST_PAIRS (default 500 pairs = 1,000 events).
 */
import { storeKinds, withTestServer } from '../support/harness.ts';
import { deliverStatusChangeBurst, type BurstOutcome } from '../support/webhook-burst.ts';
import { format, log, positiveInteger, printTable, type TableRow } from './support.ts';

/** Retries quick enough for a burst to finish in seconds; everything else is as in production. */
const QUICK_RETRIES = { webhookAllowPrivateTargets: true, webhookRetryBaseMilliseconds: 100, webhookTimeoutSeconds: 2 } as const;

/** A burst is right when each event was accepted once and every attempt is in the delivery log. */
function problems(outcome: BurstOutcome, events: number): string[] {
  const found: string[] = [];
  if (outcome.feedIds.length !== events) found.push(`${outcome.feedIds.length} events in the feed`);
  if (outcome.acceptedIds.size !== events || !outcome.feedIds.every((id) => outcome.acceptedIds.has(id))) found.push('not every event was delivered');
  if (!outcome.allSucceeded) found.push('a delivery did not succeed');
  if (outcome.loggedAttempts !== outcome.requests) found.push(`${outcome.loggedAttempts} attempts logged for ${outcome.requests} requests`);
  return found;
}

export async function benchWebhooks(): Promise<TableRow[]> {
  const pairs = positiveInteger('BENCH_WEBHOOK_BURST_PAIRS', 500);
  const events = 2 * pairs;
  const rows: TableRow[] = [];
  for (const kind of storeKinds()) {
    log(`webhooks (${kind}): ${events} events to a receiver that never fails, then to one that fails one request in three`);
    const clean = await withTestServer(kind, QUICK_RETRIES, (server) =>
      deliverStatusChangeBurst(server, { pairs, failEvery: null, timeoutMilliseconds: 600_000 }),
    );
    const failing = await withTestServer(kind, QUICK_RETRIES, (server) =>
      deliverStatusChangeBurst(server, { pairs, failEvery: 3, timeoutMilliseconds: 600_000 }),
    );
    const found = [...problems(clean, events), ...problems(failing, events)];
    const ratio = failing.milliseconds / clean.milliseconds;
    rows.push({
      scenario: `webhooks (${kind}): ${events} events from one run, 1 request in 3 answered 500 (${failing.requests} requests)`,
      baseline: `${format(clean.milliseconds / 1000, 's')} (${format(events / (clean.milliseconds / 1000), 'events/s')})`,
      measured: `${format(failing.milliseconds / 1000, 's')} (${format(events / (failing.milliseconds / 1000), 'events/s')})`,
      ratio: `${ratio.toFixed(2)}x`,
      target: 'every event once, every attempt logged',
      verdict: found.length === 0 ? 'PASS' : `FAIL (${found.join('; ')})`,
    });
  }
  return rows;
}

export function printWebhooksTable(rows: TableRow[]): void {
  console.log('\nledger-recon bench: webhook deliveries through a receiver that fails one request in three');
  printTable(rows);
}
