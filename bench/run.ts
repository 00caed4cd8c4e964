/**
 * `npm run bench`: the benchmark, section by section. Not part of the tests: every figure is a
 * ratio against a baseline measured in the same run, so the machine's speed cancels out.
 *
 * Sections (BENCH_SECTIONS, comma-separated; default all):
 * - query: the transactions query and the token endpoint under load on PostgreSQL (needs
 *   DATABASE_URL; see bench/query.ts for its settings).
 * - embedded: responsiveness of the server on the embedded store during a large ingest.
 * - imports: file imports (CSV, camt.053) through HTTP against COPY, and the server's memory
 *   while it imports (needs DATABASE_URL; see bench/imports.ts).
 * - matching: rules and runs through HTTP (needs DATABASE_URL; see bench/matching.ts): a 1:1 rule
 *   over 1,000,000 x 1,000,000 against hand-written SQL, a 1:N set search, and precision and
 *   recall on a generated truth set (bench/truth-set.ts).
 * - latency: from a bank ingest's answer until its 100 lines are matched by a 1:1 rule with
 *   runOnIngest, with no backlog (the baseline) and with an open backlog per side (needs
 *   DATABASE_URL; bench/ingest-latency.ts).
 * - pickup: from a bank statement appearing on a real OpenSSH server until its entries are matched
 *   by a 1:1 rule with runOnIngest, through a pickup run, the import and the matching run (needs
 *   DATABASE_URL and /usr/sbin/sshd; bench/pickup-latency.ts).
 * - payouts: N bank deposits against N payouts of M provider rows (charges, refunds, fees) by
 *   payout id, dry run and commit against hand-written SQL (needs DATABASE_URL; bench/payouts.ts).
 * - processes: the transactions query and the token endpoint on one server process against two on
 *   the same PostgreSQL, and webhook delivery throughput and latency (needs DATABASE_URL;
 *   bench/processes.ts).
 * - webhooks: 1,000 events from one run delivered to a receiver that answers 500 to one request
 *   in three, against a receiver that never fails (embedded store; PostgreSQL too with
 *   DATABASE_URL; bench/webhooks.ts).
 * - web: the web app's transactions explorer on 1,000,000 transactions in Chromium, against the
 *   API's time for the same pages (needs DATABASE_URL and /usr/bin/chromium; bench/web-explorer.ts).
 *
 * Section names given as arguments take precedence: `npm run bench -- matching`.
 */
import { benchEmbeddedResponsiveness } from './embedded-responsiveness.ts';
import { benchImports, printImportTable } from './imports.ts';
import { benchIngestLatency } from './ingest-latency.ts';
import { benchMatching, printMatchingTable } from './matching.ts';
import { benchPayouts, printPayoutsTable } from './payouts.ts';
import { benchPickupLatency } from './pickup-latency.ts';
import { benchQuery } from './query.ts';
import { benchProcesses, printProcessesTable } from './processes.ts';
import { benchWebExplorer, printExplorerTable } from './web-explorer.ts';
import { benchWebhooks, printWebhooksTable } from './webhooks.ts';
import { printTable } from './support.ts';

const SECTIONS: Record<string, () => Promise<void>> = {
  query: benchQuery,
  embedded: async () => {
    const rows = await benchEmbeddedResponsiveness();
    console.log('\nledger-recon bench: the embedded store under a large write (server in a child process)');
    printTable(rows);
  },
  imports: async () => printImportTable(await benchImports()),
  matching: async () => printMatchingTable(await benchMatching()),
  latency: async () => {
    const rows = await benchIngestLatency();
    console.log('\nledger-recon bench: ingest to matched on PostgreSQL (a 1:1 rule with runOnIngest; median of the trials)');
    printTable(rows);
  },
  pickup: async () => {
    const rows = await benchPickupLatency();
    console.log('\nledger-recon bench: SFTP file to matched on PostgreSQL (a pickup run, its import, a 1:1 rule with runOnIngest; median of the trials)');
    printTable(rows);
  },
  payouts: async () => printPayoutsTable(await benchPayouts()),
  processes: async () => printProcessesTable(await benchProcesses()),
  web: async () => printExplorerTable(await benchWebExplorer()),
  webhooks: async () => printWebhooksTable(await benchWebhooks()),
};

const named = process.argv.slice(2).join(',');
const requested = (named !== '' ? named : (process.env.BENCH_SECTIONS ?? Object.keys(SECTIONS).join(',')))
  .split(',')
  .map((name) => name.trim())
  .filter(Boolean);
const unknown = requested.filter((name) => !(name in SECTIONS));
if (unknown.length > 0) {
  console.error(`unknown bench section(s): ${unknown.join(', ')}; the sections are ${Object.keys(SECTIONS).join(', ')}`);
  process.exit(2);
}
const needingPostgres = ['query', 'imports', 'matching', 'latency', 'pickup', 'payouts', 'processes', 'web'];
if (needingPostgres.some((name) => requested.includes(name)) && !process.env.DATABASE_URL) {
  console.error(
    `the ${needingPostgres.join(', ')} sections need a PostgreSQL server: set DATABASE_URL, e.g.\n` +
      '  DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres npm run bench\n' +
      'They create (and drop) their own databases on that server. BENCH_SECTIONS=embedded,webhooks run without one.',
  );
  process.exit(1);
}
try {
  for (const name of requested) await SECTIONS[name]!();
} catch (error) {
  console.error(error instanceof Error ? (error.stack ?? error.message) : error);
  process.exit(1);
}
