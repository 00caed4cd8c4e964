/**
 * Several server processes on one PostgreSQL database, and webhook delivery (a section of
 * `npm run bench`, SPEC §12 and §11). Not part of the tests.
 *
 * 1. The transactions query and the token endpoint, first against one server process, then
 *    against two on the same database with the same connections split between them, measured
 *    in the same run: on a small machine the figure to watch is that two processes do no worse
 *    than one (the database, not the process, is the limit), and on a larger one that they add up.
 * 2. Webhook deliveries to a local receiver: a burst (a run that commits BENCH_WEBHOOK_PAIRS
 *    pairs: two status changes and a group each) gives events per second from the commit to
 *    the last delivery; a trickle (hand-made matches, one every 20 ms or so) gives the latency of each
 *    event from its commit to its arrival, p50 and p99. The baseline is the receiver itself:
 *    the same requests sent straight to it by a load generator.
 *
 * Settings: DATABASE_URL (required), BENCH_CONNECTIONS (default 8), BENCH_DURATION_SECONDS
 * (default 6), BENCH_ROUNDS (default 5, the median round), BENCH_WEBHOOK_PAIRS (default 2,000),
 * BENCH_KEEP_DATABASE=1 to keep the database afterwards.
 */
import autocannon from 'autocannon';
import type { ChildProcess } from 'node:child_process';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { loadConfig } from '../src/config.ts';
import { openDatabase, type Database } from '../src/db/database.ts';
import { migrate } from '../src/db/migrate.ts';
import { createOrganization } from '../src/domain/organizations.ts';
import { createServices } from '../src/domain/services.ts';
import { seedBenchData } from './seed.ts';
import {
  callApi,
  clientCredentialsToken,
  dropDatabase,
  format,
  freePort,
  log,
  positiveInteger,
  printTable,
  recreateDatabase,
  startServer,
  stopServer,
  type TableRow,
} from './support.ts';

const BENCH_DATABASE = 'ledger_recon_bench_processes';
/** Matches made one by one for the latency figure (their transactions are the first of each dataset). */
const TRICKLE_PAIRS = 300;

interface Load {
  perSecond: number;
  failed: number;
  latencyP50: number;
}

/** Requests per second of one request shape spread over the given servers, `connections` in all. */
async function spreadLoad(
  urls: readonly string[],
  request: { method: 'GET' | 'POST'; path: string; headers: Record<string, string>; body?: string },
  connections: number,
  durationSeconds: number,
): Promise<Load> {
  const share = Math.max(1, Math.floor(connections / urls.length));
  const runs = (duration: number) =>
    Promise.all(
      urls.map((url) =>
        autocannon({ url: `${url}${request.path}`, method: request.method, headers: request.headers, body: request.body, connections: share, duration }),
      ),
    );
  await runs(1);
  const results = await runs(durationSeconds);
  const failed = results.reduce((sum, result) => sum + result.non2xx + result.errors + result.timeouts, 0);
  if (failed > 0) log(`  ${request.method} ${request.path}: ${failed} failed requests`);
  return {
    perSecond: results.reduce((sum, result) => sum + result.requests.total / result.duration, 0),
    failed,
    latencyP50: Math.max(...results.map((result) => result.latency.p50)),
  };
}

interface Paired {
  one: Load;
  two: Load;
  /** two / one of each round, sorted. */
  ratios: number[];
}

/**
 * Rounds of the two sides back to back, the side that goes first alternating, so that a change
 * in other work on the machine falls on both sides of a round alike. The ratio reported is the
 * median of the rounds' ratios and the figures are those of the median round: one disturbed
 * round moves neither.
 */
async function pairedRounds(rounds: number, one: () => Promise<Load>, two: () => Promise<Load>): Promise<Paired> {
  const measured: { one: Load; two: Load; ratio: number }[] = [];
  for (let round = 0; round < rounds; round += 1) {
    let loadOfOne: Load;
    let loadOfTwo: Load;
    if (round % 2 === 0) {
      loadOfOne = await one();
      loadOfTwo = await two();
    } else {
      loadOfTwo = await two();
      loadOfOne = await one();
    }
    measured.push({ one: loadOfOne, two: loadOfTwo, ratio: loadOfTwo.perSecond / loadOfOne.perSecond });
  }
  measured.sort((left, right) => left.ratio - right.ratio);
  const median = measured[Math.floor(measured.length / 2)]!;
  return { one: median.one, two: median.two, ratios: measured.map((entry) => entry.ratio) };
}

function percentile(sorted: readonly number[], fraction: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * fraction))] ?? 0;
}

export async function benchProcesses(): Promise<TableRow[]> {
  const adminUrl = process.env.DATABASE_URL;
  if (!adminUrl) throw new Error('DATABASE_URL is required');
  const connections = positiveInteger('BENCH_CONNECTIONS', 8);
  const durationSeconds = positiveInteger('BENCH_DURATION_SECONDS', 6);
  const rounds = positiveInteger('BENCH_ROUNDS', 5);
  const webhookPairs = positiveInteger('BENCH_WEBHOOK_PAIRS', 2_000);
  const rows: TableRow[] = [];

  log(`recreating database ${BENCH_DATABASE}`);
  const databaseUrl = await recreateDatabase(adminUrl, BENCH_DATABASE);
  const ports = [await freePort(), await freePort()];
  const publicUrl = `http://127.0.0.1:${ports[0]}`;
  const environment = { DATABASE_URL: databaseUrl, SEED_DEMO: 'false', PUBLIC_URL: publicUrl, WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true' };
  const config = loadConfig({ ...process.env, ...environment, PORT: String(ports[0]), HOST: '127.0.0.1' });
  const database: Database = openDatabase({ databaseUrl, dataDirectory: null, poolSize: 4, statementTimeoutMilliseconds: 600_000 });
  const servers: ChildProcess[] = [];
  let receiver: Server | null = null;
  try {
    await migrate(database);
    const services = createServices(config, database);
    await services.signingKeys.ensureKey();
    const organization = await createOrganization(database, services.apiClients, { name: 'Bench', adminEmail: 'bench@example.com', createdBy: 'bench' });
    log('seeding 1,000,000 transactions');
    const seeded = await database.transaction((transaction) => seedBenchData(transaction, organization.orgId));
    await database.query('VACUUM ANALYZE');
    for (const port of ports) servers.push((await startServer(port, { ...environment, PORT: String(port) })).child);
    const urls = ports.map((port) => `http://127.0.0.1:${port}`);
    const token = await clientCredentialsToken(urls[0]!, organization.client, config.audience);

    // 1. One process against two.
    const query = {
      method: 'POST' as const,
      path: `/v1/api/${organization.orgId}/transactions`,
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ datasetId: seeded.bankDatasetId, limit: 100 }),
    };
    const tokenRequest = {
      method: 'POST' as const,
      path: '/oauth/token',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({
        grant_type: 'client_credentials',
        client_id: organization.client.clientId,
        client_secret: organization.client.clientSecret,
        audience: config.audience,
      }).toString(),
    };
    for (const [name, request] of [
      ['transactions query (first page of 100)', query],
      ['token endpoint (client credentials)', tokenRequest],
    ] as const) {
      log(`measuring ${name}: one process against two, ${rounds} rounds`);
      const { one, two, ratios } = await pairedRounds(
        rounds,
        () => spreadLoad(urls.slice(0, 1), request, connections, durationSeconds),
        () => spreadLoad(urls, request, connections, durationSeconds),
      );
      const ratio = two.perSecond / one.perSecond;
      rows.push({
        scenario: `${name}: 2 processes vs 1, ${connections} connections, median of ${rounds} rounds`,
        baseline: `${format(one.perSecond, 'req/s')} (p50 ${one.latencyP50} ms)`,
        measured: `${format(two.perSecond, 'req/s')} (p50 ${two.latencyP50} ms)`,
        ratio: `${ratio.toFixed(2)}x (rounds ${ratios[0]!.toFixed(2)}–${ratios.at(-1)!.toFixed(2)})`,
        target: '>= 0.9x',
        verdict: one.failed + two.failed > 0 ? 'FAIL (errors)' : ratio >= 0.9 ? 'PASS' : 'FAIL',
      });
    }

    // 2. Webhook deliveries.
    const arrivals = new Map<string, number>();
    receiver = createServer((request, response) => {
      const id = String(request.headers['webhook-id'] ?? '');
      request.resume();
      request.on('end', () => {
        if (id !== '' && !arrivals.has(id)) arrivals.set(id, Date.now());
        response.writeHead(204).end();
      });
    });
    await new Promise<void>((resolve) => receiver!.listen(0, '127.0.0.1', resolve));
    const receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}`;
    const sample = JSON.stringify({
      type: 'transaction.status_changed',
      timestamp: new Date().toISOString(),
      data: { transactionId: '00000000-0000-0000-0000-000000000000' },
    });
    const direct = await autocannon({
      url: receiverUrl,
      method: 'POST',
      headers: { 'content-type': 'application/json', 'webhook-id': '' },
      body: sample,
      connections: 4,
      duration: durationSeconds,
    });
    const api = { baseUrl: urls[0]!, orgId: organization.orgId, token };
    await callApi(api, 'POST', '/webhook-endpoints', { url: receiverUrl });
    const { body: source } = await callApi<{ id: string }>(api, 'POST', '/sources', { name: 'Webhook bench' });
    const datasets: string[] = [];
    for (const side of ['bank', 'ledger']) {
      const { body: dataset } = await callApi<{ id: string }>(api, 'POST', `/sources/${source.id}/datasets`, { name: `Webhook ${side}` });
      datasets.push(dataset.id);
      for (let start = 0; start < webhookPairs + TRICKLE_PAIRS; start += 1000) {
        const records = Array.from({ length: Math.min(1000, webhookPairs + TRICKLE_PAIRS - start) }, (_, offset) => ({
          externalId: `${side}-${start + offset}`,
          timestamp: 1_720_000_000_000 + (start + offset) * 1000,
          description: `${side} ${start + offset}`,
          reference: `WB-${start + offset}`,
          amount: `${start + offset + 1}.50`,
          currency: 'EUR',
        }));
        await callApi(api, 'POST', `/datasets/${dataset.id}/transactions`, { records });
      }
    }
    // The trickle first: one match every 20 ms through alternating processes.
    const { body: open } = await callApi<{ id: string; description: string }[]>(api, 'POST', '/transactions', { datasetId: datasets[0], limit: 1000 });
    const { body: openLedger } = await callApi<{ id: string; description: string }[]>(api, 'POST', '/transactions', { datasetId: datasets[1], limit: 1000 });
    const ledgerByNumber = new Map(openLedger.map((entry) => [entry.description.split(' ')[1], entry.id]));
    // Pairs 0..TRICKLE_PAIRS-1 are matched by hand; the run of the burst takes the rest.
    const trickle = open.filter((entry) => Number(entry.description.split(' ')[1]) < TRICKLE_PAIRS);
    const committedAt = new Map<string, number>();
    for (const [index, entry] of trickle.entries()) {
      const target = ledgerByNumber.get(entry.description.split(' ')[1]);
      if (!target) continue;
      const matched = await callApi<{ groupId: string }>({ ...api, baseUrl: urls[index % urls.length]! }, 'POST', '/matches', {
        links: [{ originId: entry.id, targetId: target }],
      });
      committedAt.set(matched.body.groupId, Date.now());
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    const groupEvents = async () => {
      const found: { id: string; data: { matchGroupId?: string } }[] = [];
      let cursor = '';
      for (;;) {
        const { body: page } = await callApi<{ events: { id: string; type: string; data: { matchGroupId?: string } }[]; nextCursor: string; hasMore: boolean }>(
          api,
          'GET',
          `/events?type=match_group.created&limit=1000${cursor}`,
        );
        found.push(...page.events);
        if (!page.hasMore) return found;
        cursor = `&cursor=${page.nextCursor}`;
      }
    };
    const waitForArrivals = async (ids: readonly string[], what: string) => {
      const deadline = Date.now() + 600_000;
      while (ids.some((id) => !arrivals.has(id))) {
        if (Date.now() > deadline) throw new Error(`not every ${what} event arrived within 10 minutes`);
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
    };
    const trickleEvents = (await groupEvents()).filter((event) => committedAt.has(event.data.matchGroupId ?? ''));
    await waitForArrivals(
      trickleEvents.map((event) => event.id),
      'trickle',
    );
    const latencies = trickleEvents.map((event) => arrivals.get(event.id)! - committedAt.get(event.data.matchGroupId!)!).sort((left, right) => left - right);

    // Then the burst: a run that commits every remaining pair in one transaction.
    const rule = await callApi<{ id: string }>(api, 'POST', '/rules', {
      name: 'Webhook bench reference',
      origin: { datasetIds: [datasets[0]] },
      target: { datasetIds: [datasets[1]] },
      conditions: [
        { type: 'amount', sign: 'same' },
        { type: 'equals', origin: { path: 'reference' }, target: { path: 'reference' } },
      ],
    });
    const arrivedBefore = arrivals.size;
    const { body: run } = await callApi<{ id: string; status: string }>(api, 'POST', '/runs', { mode: 'commit', ruleIds: [rule.body.id] });
    let finished: { status: string; finishedAt: string } = { status: 'queued', finishedAt: '' };
    while (!['completed', 'failed'].includes(finished.status)) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      finished = (await callApi<{ status: string; finishedAt: string }>(api, 'GET', `/runs/${run.id}`)).body;
    }
    if (finished.status !== 'completed') throw new Error(`the bench run ${run.id} failed`);
    const runCommittedAt = Date.now();
    const expected = arrivedBefore + webhookPairs * 3 + 1;
    while (arrivals.size < expected) {
      if (Date.now() - runCommittedAt > 600_000) throw new Error(`only ${arrivals.size - arrivedBefore} of ${expected - arrivedBefore} burst events arrived`);
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    const lastArrival = Math.max(...arrivals.values());
    const burstSeconds = (lastArrival - runCommittedAt) / 1000;
    const burstPerSecond = (expected - arrivedBefore) / burstSeconds;

    rows.push({
      scenario: `webhooks: burst of ${expected - arrivedBefore} events (a run of ${webhookPairs} pairs), 2 processes`,
      baseline: `${format(direct.requests.total / direct.duration, 'req/s')} straight to the receiver`,
      measured: `${format(burstPerSecond, 'events/s')} from commit to the last delivery (${burstSeconds.toFixed(1)} s)`,
      ratio: `${(burstPerSecond / (direct.requests.total / direct.duration)).toFixed(2)}x`,
      target: 'report',
      verdict: '-',
    });
    rows.push({
      scenario: `webhooks: latency from commit to delivery, ${latencies.length} matches one by one`,
      baseline: '-',
      measured: `p50 ${percentile(latencies, 0.5)} ms, p99 ${percentile(latencies, 0.99)} ms`,
      ratio: '-',
      target: 'report',
      verdict: '-',
    });
    return rows;
  } finally {
    for (const server of servers) await stopServer(server);
    await new Promise((resolve) => (receiver ? receiver.close(resolve) : resolve(undefined)));
    await database.close();
    if (process.env.BENCH_KEEP_DATABASE !== '1') await dropDatabase(adminUrl, BENCH_DATABASE);
  }
}

export function printProcessesTable(rows: TableRow[]): void {
  console.log('\nledger-recon bench: one server process against two on the same PostgreSQL; webhook delivery');
  printTable(rows);
}
