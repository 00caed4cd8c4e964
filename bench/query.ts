/**
 * The transactions query under load, on PostgreSQL (a section of `npm run bench`).
 *
 * Creates its own database (ledger_recon_bench, dropped and recreated), seeds 1,000,000
 * transactions in two datasets with 250,000 matches, starts the real server as a child process
 * (`ledger-recon serve`), and prints one table comparing, per scenario, pages per second of the
 * very SQL statement the route runs, sent straight through `pg` (the baseline), with the same
 * page through HTTP. Not part of the tests.
 *
 * Settings: DATABASE_URL (required; any database of the server, used to create the bench's
 * own), BENCH_CONNECTIONS (default 8), BENCH_DURATION_SECONDS per measurement (default 6),
 * BENCH_ROUNDS (default 3; each comparison runs alternately this many times and keeps the best of
 * each side), BENCH_KEEP_DATABASE=1 to keep the database afterwards.
 */
import autocannon from 'autocannon';
import type { ChildProcess } from 'node:child_process';
import pg from 'pg';
import { loadConfig } from '../src/config.ts';
import { openDatabase, type Database, type Queryable } from '../src/db/database.ts';
import { migrate } from '../src/db/migrate.ts';
import { createOrganization } from '../src/domain/organizations.ts';
import { createServices } from '../src/domain/services.ts';
import { TransactionQueries, type TransactionQueryRequest } from '../src/domain/transactions/query.ts';
import { BENCH_SIZES, seedBenchData } from './seed.ts';
import { dropDatabase, format, freePort, log, positiveInteger, printTable, recreateDatabase, startServer, stopServer, type TableRow } from './support.ts';

const BENCH_DATABASE = 'ledger_recon_bench';
const PAGE_SIZE = 100;
const DEEP_OFFSET = 899_900;
const WALK_SAMPLE_PAGES = 500;

/** Runs the domain's query over a store that records the page statement instead of keeping it secret. */
class RecordingStore implements Queryable {
  last: { text: string; values: unknown[] } | null = null;
  constructor(private readonly inner: Queryable) {}
  async query<Row>(text: string, parameters: readonly unknown[] = []): Promise<Row[]> {
    if (text.startsWith('WITH dataset AS')) this.last = { text, values: [...parameters] };
    return this.inner.query<Row>(text, parameters);
  }
}

/** Pages per second of one statement, run in a loop on `connections` connections at once. */
async function sqlPagesPerSecond(databaseUrl: string, statement: { text: string; values: unknown[] }, connections: number, durationSeconds: number) {
  const pool = new pg.Pool({ connectionString: databaseUrl, max: connections });
  try {
    // Warm-up: every connection opens and runs the statement once.
    await Promise.all(Array.from({ length: connections }, () => pool.query(statement.text, statement.values)));
    let completed = 0;
    let bytes = 0;
    const started = process.hrtime.bigint();
    const stopAt = Date.now() + durationSeconds * 1000;
    await Promise.all(
      Array.from({ length: connections }, async () => {
        while (Date.now() < stopAt) {
          const result = await pool.query<{ body: string }>(statement.text, statement.values);
          bytes += result.rows[0]!.body.length;
          completed++;
        }
      }),
    );
    const seconds = Number(process.hrtime.bigint() - started) / 1e9;
    return { perSecond: completed / seconds, averageBodyBytes: bytes / Math.max(completed, 1), failed: 0 };
  } finally {
    await pool.end();
  }
}

async function httpRequestsPerSecond(
  options: { url: string; method: 'GET' | 'POST'; headers?: Record<string, string>; body?: string },
  connections: number,
  durationSeconds: number,
) {
  await autocannon({ ...options, connections, duration: 1 });
  const result = await autocannon({ ...options, connections, duration: durationSeconds });
  const failed = result.non2xx + result.errors + result.timeouts;
  if (failed > 0) log(`  ${options.method} ${options.url}: ${failed} failed requests (${JSON.stringify(result.statusCodeStats)})`);
  return { perSecond: result.requests.total / result.duration, failed, latencyP50: result.latency.p50 };
}

/**
 * Runs a baseline and its comparison alternately, `rounds` times, and keeps the best of each:
 * other work on the machine can only slow a measurement down, so the best round is the one
 * least disturbed, and alternating gives both sides the same chances.
 */
async function bestOf<A extends { perSecond: number; failed: number }, B extends { perSecond: number; failed: number }>(
  rounds: number,
  baseline: () => Promise<A>,
  comparison: () => Promise<B>,
): Promise<[A, B]> {
  const baselines: A[] = [];
  const comparisons: B[] = [];
  for (let round = 0; round < rounds; round++) {
    baselines.push(await baseline());
    comparisons.push(await comparison());
  }
  // A failed request in any round counts against the result.
  const best = <T extends { perSecond: number; failed: number }>(results: T[]): T => ({
    ...results.reduce((left, right) => (right.perSecond > left.perSecond ? right : left)),
    failed: results.reduce((sum, result) => sum + result.failed, 0),
  });
  return [best(baselines), best(comparisons)];
}

/** The transactions query and the token endpoint under load; returns the table's rows. */
export async function benchQuery(): Promise<void> {
  const adminUrl = process.env.DATABASE_URL;
  if (!adminUrl) {
    console.error(
      'npm run bench needs a PostgreSQL server: set DATABASE_URL, e.g.\n' +
        '  DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres npm run bench\n' +
        `It creates (and drops) its own database, ${BENCH_DATABASE}, on that server.`,
    );
    throw new Error('DATABASE_URL is required');
  }
  const connections = positiveInteger('BENCH_CONNECTIONS', 8);
  const durationSeconds = positiveInteger('BENCH_DURATION_SECONDS', 6);
  const rounds = positiveInteger('BENCH_ROUNDS', 3);
  const began = Date.now();

  log(`recreating database ${BENCH_DATABASE}`);
  const databaseUrl = await recreateDatabase(adminUrl, BENCH_DATABASE);
  const port = await freePort();
  const config = loadConfig({ ...process.env, DATABASE_URL: databaseUrl, PORT: String(port), HOST: '127.0.0.1', SEED_DEMO: 'false' });
  const database: Database = openDatabase({ databaseUrl, dataDirectory: null, poolSize: 4, statementTimeoutMilliseconds: 600_000 });
  let server: ChildProcess | null = null;
  try {
    await migrate(database);
    const services = createServices(config, database);
    await services.signingKeys.ensureKey();
    const organization = await createOrganization(database, services.apiClients, { name: 'Bench', adminEmail: 'bench@example.com', createdBy: 'bench' });
    const orgId = organization.orgId;

    log(`seeding ${BENCH_SIZES.bankTransactions + BENCH_SIZES.ledgerTransactions} transactions and ${BENCH_SIZES.matches} matches`);
    const seedStarted = Date.now();
    const seeded = await database.transaction((transaction) => seedBenchData(transaction, orgId));
    await database.query('VACUUM ANALYZE');
    const [counts] = await database.query<{ transactions: number; matches: number }>(
      'SELECT (SELECT count(*) FROM transactions) AS transactions, (SELECT count(*) FROM matches) AS matches',
    );
    if (Number(counts!.transactions) !== BENCH_SIZES.bankTransactions + BENCH_SIZES.ledgerTransactions || Number(counts!.matches) !== BENCH_SIZES.matches) {
      throw new Error(`the seed produced ${counts!.transactions} transactions and ${counts!.matches} matches`);
    }
    log(`seeded in ${((Date.now() - seedStarted) / 1000).toFixed(1)} s`);

    server = (await startServer(port, { DATABASE_URL: databaseUrl, SEED_DEMO: 'false' })).child;
    const baseUrl = `http://127.0.0.1:${port}`;
    log(`server listening at ${baseUrl}`);
    const tokenForm = new URLSearchParams({
      grant_type: 'client_credentials',
      client_id: organization.client.clientId,
      client_secret: organization.client.clientSecret,
      audience: config.audience,
    }).toString();
    const tokenResponse = await fetch(`${baseUrl}/oauth/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: tokenForm,
    });
    const { access_token: token } = (await tokenResponse.json()) as { access_token: string };
    if (!token) throw new Error(`token request failed with ${tokenResponse.status}`);
    const queryUrl = `${baseUrl}/v1/api/${orgId}/transactions`;
    const apiHeaders = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };

    // The statements the route runs, captured from the same domain code the server runs.
    const recorder = new RecordingStore(database);
    const capture = new TransactionQueries(recorder);
    const statementFor = async (request: TransactionQueryRequest) => {
      await capture.query(orgId, request);
      return recorder.last!;
    };
    const firstRequest = { datasetId: seeded.bankDatasetId, limit: PAGE_SIZE };
    const filteredRequest = {
      datasetId: seeded.bankDatasetId,
      limit: PAGE_SIZE,
      search: [
        { path: 'reconciliationStatus', search: { type: 'string', value: 'partial', exact: true } },
        { path: 'amount', search: { type: 'money', value: { start: '-1000.00', end: '1000.00' }, currencies: ['EUR'] } },
      ],
    };
    const deepRequest = { datasetId: seeded.bankDatasetId, limit: PAGE_SIZE, offset: DEEP_OFFSET };
    const firstStatement = await statementFor(firstRequest);
    const filteredStatement = await statementFor(filteredRequest);
    // The page before the deep one leaves its boundary behind, as it does for a client paging.
    const coldDeepStarted = process.hrtime.bigint();
    await capture.query(orgId, { ...deepRequest, offset: DEEP_OFFSET - PAGE_SIZE });
    const coldDeepMilliseconds = Number(process.hrtime.bigint() - coldDeepStarted) / 1e6;
    const deepStatement = await statementFor(deepRequest);
    if (!deepStatement.text.includes('UNION ALL')) throw new Error('the deep page did not start from a remembered boundary');

    // A client walking the bank dataset by offset, 100 at a time, to the deep page.
    log(`walking ${DEEP_OFFSET / PAGE_SIZE} pages by offset through HTTP`);
    const pageMilliseconds: number[] = [];
    for (let offset = 0; offset <= DEEP_OFFSET; offset += PAGE_SIZE) {
      const started = process.hrtime.bigint();
      const response = await fetch(queryUrl, {
        method: 'POST',
        headers: apiHeaders,
        body: JSON.stringify({ datasetId: seeded.bankDatasetId, limit: PAGE_SIZE, offset }),
      });
      const body = await response.text();
      pageMilliseconds.push(Number(process.hrtime.bigint() - started) / 1e6);
      if (response.status !== 200 || body.length < 100) throw new Error(`page at offset ${offset} failed: ${response.status} ${body.slice(0, 200)}`);
    }
    const mean = (values: number[]) => values.reduce((sum, value) => sum + value, 0) / values.length;
    const walkFirst = mean(pageMilliseconds.slice(0, WALK_SAMPLE_PAGES));
    const walkLast = mean(pageMilliseconds.slice(-WALK_SAMPLE_PAGES));
    log(`walk: first ${WALK_SAMPLE_PAGES} pages ${walkFirst.toFixed(2)} ms each, last ${WALK_SAMPLE_PAGES} ${walkLast.toFixed(2)} ms each`);

    const rows: TableRow[] = [];
    const results: Record<string, { sql: number; http: number }> = {};
    for (const [name, label, statement, request] of [
      ['first', 'first page (limit 100)', firstStatement, firstRequest],
      ['deep', `deep page (offset ${DEEP_OFFSET.toLocaleString('en')}, after the walk)`, deepStatement, deepRequest],
      ['filtered', 'filtered search (status + amount + currency)', filteredStatement, filteredRequest],
    ] as const) {
      log(`measuring ${label}: SQL through pg, then HTTP, ${rounds} rounds, ${connections} connections, ${durationSeconds} s each`);
      const [sql, http] = await bestOf(
        rounds,
        () => sqlPagesPerSecond(databaseUrl, statement, connections, durationSeconds),
        () => httpRequestsPerSecond({ url: queryUrl, method: 'POST', headers: apiHeaders, body: JSON.stringify(request) }, connections, durationSeconds),
      );
      results[name] = { sql: sql.perSecond, http: http.perSecond };
      const ratio = http.perSecond / sql.perSecond;
      rows.push({
        scenario: `${label}: HTTP vs SQL`,
        baseline: format(sql.perSecond, 'pages/s'),
        measured: format(http.perSecond, 'pages/s'),
        ratio: `${ratio.toFixed(2)}x`,
        target: '>= 0.70x',
        verdict: ratio >= 0.7 && http.failed === 0 ? 'PASS' : 'FAIL',
      });
    }

    const deepCost = results.first!.http / results.deep!.http;
    rows.push({
      scenario: 'deep page cost vs first page (HTTP)',
      baseline: format(results.first!.http, 'pages/s'),
      measured: format(results.deep!.http, 'pages/s'),
      ratio: `${deepCost.toFixed(2)}x cost`,
      target: '<= 2.00x',
      verdict: deepCost <= 2 ? 'PASS' : 'FAIL',
    });
    const walkCost = walkLast / walkFirst;
    rows.push({
      scenario: `sequential offset walk: last vs first ${WALK_SAMPLE_PAGES} pages`,
      baseline: format(walkFirst, 'ms/page'),
      measured: format(walkLast, 'ms/page'),
      ratio: `${walkCost.toFixed(2)}x cost`,
      target: '<= 2.00x',
      verdict: walkCost <= 2 ? 'PASS' : 'FAIL',
    });

    log(`measuring GET /health, then the token endpoint, ${rounds} rounds, ${connections} connections, ${durationSeconds} s each`);
    const [health, tokens] = await bestOf(
      rounds,
      () => httpRequestsPerSecond({ url: `${baseUrl}/health`, method: 'GET' }, connections, durationSeconds),
      () =>
        httpRequestsPerSecond(
          { url: `${baseUrl}/oauth/token`, method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: tokenForm },
          connections,
          durationSeconds,
        ),
    );
    const tokenRatio = tokens.perSecond / health.perSecond;
    rows.push({
      scenario: 'POST /oauth/token vs GET /health',
      baseline: format(health.perSecond, 'req/s'),
      measured: format(tokens.perSecond, 'req/s'),
      ratio: `${tokenRatio.toFixed(2)}x`,
      target: '>= 0.50x',
      verdict: tokenRatio >= 0.5 && tokens.failed === 0 ? 'PASS' : 'FAIL',
    });

    console.log('');
    console.log(
      `ledger-recon bench: ${(BENCH_SIZES.bankTransactions + BENCH_SIZES.ledgerTransactions).toLocaleString('en')} transactions ` +
        `(${BENCH_SIZES.bankTransactions.toLocaleString('en')} + ${BENCH_SIZES.ledgerTransactions.toLocaleString('en')}), ` +
        `${BENCH_SIZES.matches.toLocaleString('en')} matches; ${connections} connections, best of ${rounds} rounds of ${durationSeconds} s; ` +
        `PostgreSQL, server in a child process`,
    );
    printTable(rows);
    console.log(
      `\nFor reference: the deep page without a remembered boundary (a plain OFFSET ${DEEP_OFFSET.toLocaleString('en')} over the index) ` +
        `took ${coldDeepMilliseconds.toFixed(0)} ms once; the walk above leaves boundaries behind, so a paging client never pays it.`,
    );
    console.log(`Total bench time ${((Date.now() - began) / 1000).toFixed(0)} s.`);
  } finally {
    if (server) await stopServer(server);
    await database.close();
    if (process.env.BENCH_KEEP_DATABASE !== '1') await dropDatabase(adminUrl, BENCH_DATABASE);
  }
}
