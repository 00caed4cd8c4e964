/**
 * The transactions explorer of the web app on 1,000,000 transactions (PostgreSQL), in a real
 * Chromium: the time from navigation to the first rows, and from a jump to the middle of the
 * dataset to the rows there, against the API's own time for the same pages in the same run.
 * Target (issue: the web app adds at most 300 ms to the API time on either).
 */
import type { ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { chromium } from 'playwright-core';
import { loadConfig } from '../src/config.ts';
import { openDatabase, type Database } from '../src/db/database.ts';
import { migrate } from '../src/db/migrate.ts';
import { createOrganization } from '../src/domain/organizations.ts';
import { createServices } from '../src/domain/services.ts';
import { BENCH_SIZES, seedBenchData } from './seed.ts';
import { clientCredentialsToken, dropDatabase, freePort, log, positiveInteger, recreateDatabase, startServer, stopServer } from './support.ts';

const BENCH_DATABASE = 'ledger_recon_bench_web';
const PAGE_SIZE = 500;
const ADDED_MILLISECONDS_TARGET = 300;

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
}

export interface ExplorerRow {
  measure: string;
  appMilliseconds: number;
  apiMilliseconds: number;
}

export async function benchWebExplorer(): Promise<ExplorerRow[]> {
  const adminUrl = process.env.DATABASE_URL!;
  if (!existsSync('/usr/bin/chromium')) throw new Error("the web section needs Debian's Chromium at /usr/bin/chromium (apt-get install -y chromium)");
  if (!existsSync('web/dist/index.html')) throw new Error('the web app is not built: npm run web:build');
  const rounds = positiveInteger('BENCH_ROUNDS', 5);
  log(`recreating database ${BENCH_DATABASE}`);
  const databaseUrl = await recreateDatabase(adminUrl, BENCH_DATABASE);
  const port = await freePort();
  const config = loadConfig({ ...process.env, DATABASE_URL: databaseUrl, PORT: String(port), HOST: '127.0.0.1', SEED_DEMO: 'false' });
  const database: Database = openDatabase({ databaseUrl, dataDirectory: null, poolSize: 4, statementTimeoutMilliseconds: 600_000 });
  let server: ChildProcess | null = null;
  const browser = await chromium.launch({
    executablePath: '/usr/bin/chromium',
    args: ['--no-sandbox', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  });
  try {
    await migrate(database);
    const services = createServices(config, database);
    await services.signingKeys.ensureKey();
    const organization = await createOrganization(database, services.apiClients, { name: 'Bench', adminEmail: 'bench@example.com', createdBy: 'bench' });
    log(`seeding ${BENCH_SIZES.bankTransactions + BENCH_SIZES.ledgerTransactions} transactions`);
    const seeded = await database.transaction((transaction) => seedBenchData(transaction, organization.orgId));
    await database.query('VACUUM ANALYZE');
    server = (await startServer(port, { DATABASE_URL: databaseUrl, SEED_DEMO: 'false' })).child;
    const baseUrl = `http://127.0.0.1:${port}`;
    const token = await clientCredentialsToken(baseUrl, organization.client, config.audience);
    const datasetId = seeded.bankDatasetId;
    const middleOffset = Math.floor(BENCH_SIZES.bankTransactions / 2 / PAGE_SIZE) * PAGE_SIZE;

    const apiTime = async (body: Record<string, unknown>) => {
      const started = performance.now();
      const response = await fetch(`${baseUrl}/v1/api/${organization.orgId}/transactions`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        body: JSON.stringify({ datasetId, limit: PAGE_SIZE, columns: [{ path: 'amount' }, { path: 'currency' }, { path: 'reference' }], ...body }),
      });
      await response.arrayBuffer();
      if (response.status !== 200) throw new Error(`the transactions query answered ${response.status}`);
      return performance.now() - started;
    };

    const context = await browser.newContext({ viewport: { width: 1440, height: 900 } });
    const page = await context.newPage();
    await page.goto(`${baseUrl}/sign-in`);
    await page.getByLabel('Email').fill(organization.user.email);
    await page.getByLabel('Password').fill(organization.user.password);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.locator('.topbar').waitFor();

    const firstApi: number[] = [];
    const middleApi: number[] = [];
    const firstApp: number[] = [];
    const middleApp: number[] = [];
    for (let round = 0; round < rounds; round += 1) {
      firstApi.push(await apiTime({}));
      middleApi.push(await apiTime({ offset: middleOffset }));
      // A fresh load each round: the app boots, gets a session token and the datasets, then the first page.
      // Times are the page's own: its User Timing mark "explorer:rows-shown", from navigation start
      // and from the jump, so that the polling of the driver does not count.
      await page.goto(`${baseUrl}/transactions?dataset=${datasetId}`);
      await page.locator('.grid-row .number').first().waitFor();
      await page.waitForFunction(() => performance.getEntriesByName('explorer:rows-shown').length > 0);
      firstApp.push(Number(await page.evaluate('performance.getEntriesByName("explorer:rows-shown")[0].startTime')));
      const jumpedAt = Number(
        await page.evaluate(
          '(() => { performance.clearMarks("explorer:rows-shown"); const grid = document.querySelector(".grid-scroll"); const at = performance.now(); grid.scrollTo(0, grid.scrollHeight / 2); return at; })()',
        ),
      );
      // A row a few lines below the middle shows its amount (a row still loading has none).
      const middleRow = Math.floor(BENCH_SIZES.bankTransactions / 2) + 5;
      await page.locator(`.grid-row[aria-rowindex="${middleRow + 2}"] .number`).waitFor();
      // The mark comes once every row on screen has its data: rows of the page before the middle,
      // asked for at the same time, may arrive later than the row waited for.
      await page.waitForFunction(() => performance.getEntriesByName('explorer:rows-shown').length > 0);
      middleApp.push(Number(await page.evaluate('performance.getEntriesByName("explorer:rows-shown").at(-1).startTime')) - jumpedAt);
    }
    // Where the last round's time went: each request of the page, from navigation start.
    const entries = (await page.evaluate(
      'JSON.stringify(performance.getEntriesByType("resource").map((entry) => [entry.name.replace(location.origin, ""), Math.round(entry.startTime), Math.round(entry.responseEnd)]))',
    )) as string;
    log(`requests of the last load (path, start ms, end ms): ${entries}`);
    return [
      { measure: 'first rows after navigation', appMilliseconds: median(firstApp), apiMilliseconds: median(firstApi) },
      { measure: `rows after a jump to the middle (offset ${middleOffset})`, appMilliseconds: median(middleApp), apiMilliseconds: median(middleApi) },
    ];
  } finally {
    await browser.close();
    if (server) await stopServer(server);
    await database.close();
    await dropDatabase(adminUrl, BENCH_DATABASE);
  }
}

export function printExplorerTable(rows: ExplorerRow[]): void {
  console.log(
    `\nledger-recon bench: the web app's transactions explorer on ${BENCH_SIZES.bankTransactions.toLocaleString('en')} bank transactions (PostgreSQL, Chromium)`,
  );
  console.log('| measure | app | API alone | added by the app | target | result |');
  console.log('|---|---|---|---|---|---|');
  for (const row of rows) {
    const added = row.appMilliseconds - row.apiMilliseconds;
    console.log(
      `| ${row.measure} | ${row.appMilliseconds.toFixed(0)} ms | ${row.apiMilliseconds.toFixed(0)} ms | ${added.toFixed(0)} ms | ≤ ${ADDED_MILLISECONDS_TARGET} ms | ${added <= ADDED_MILLISECONDS_TARGET ? 'PASS' : 'FAIL'} |`,
    );
  }
}
