// Runs every *.test.ts under src/ and test/ with Node's test runner. The PostgreSQL half of the
// data-layer suites runs when DATABASE_URL is set; without it this says, loudly, that it was skipped.
//
//   npm test                      every suite (both stores with DATABASE_URL, Chromium)
//   npm test -- FRAGMENT...       the suites whose path contains one of the fragments
//   npm run test:fast [FRAGMENT]  the tier to run while editing: unit tests and the in-process
//                                 HTTP and data-layer suites on the embedded store only; it leaves
//                                 out PostgreSQL, the browser suites and the suites that start
//                                 the command line as child processes, and says so at the end
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

/**
 * How long a file's tests may take together in the full run: the longest command-line suites take
 * 2 to 5 minutes on a 2-core machine, more when it is busy with other work, and a hung test still
 * ends the run.
 */
const TEST_FILE_TIMEOUT_MS = 600_000;

function findTests(directory) {
  const found = [];
  for (const entry of readdirSync(directory)) {
    const full = path.join(directory, entry);
    if (statSync(full).isDirectory()) found.push(...findTests(full));
    else if (entry.endsWith('.test.ts')) found.push(full);
  }
  return found;
}

/**
 * What the fast tier leaves out, with the reason it gives: suites that start child processes
 * (the command line, the packed SDK) or a browser take most of the full run's time.
 */
const SLOW_SUITES = [
  { matches: (file) => file.startsWith('test/cli/'), reason: 'the command-line suites (child processes)' },
  { matches: (file) => file.startsWith('test/web/'), reason: 'the browser suites (Chromium)' },
  { matches: (file) => file === 'test/sdk/package.test.ts', reason: 'the SDK package build (tsc and a packed install)' },
  { matches: (file) => file === 'test/postgres-availability.test.ts', reason: 'the PostgreSQL availability check' },
];

const fast = process.argv.includes('--fast');
const filter = process.argv.slice(2).filter((argument) => argument !== '--fast');
const selected = ['src', 'test', 'sdk/src']
  .flatMap(findTests)
  .map((file) => file.split(path.sep).join('/'))
  .filter((file) => filter.length === 0 || filter.some((part) => file.includes(part)))
  .sort();
const left = fast ? selected.filter((file) => SLOW_SUITES.some((slow) => slow.matches(file))) : [];
const files = selected.filter((file) => !left.includes(file));

if (files.length === 0) {
  console.error(`no test files match ${filter.join(' ')}${fast ? ' in the fast tier' : ''}`);
  process.exit(1);
}
const environment = { ...process.env, NODE_ENV: 'test' };
// The fast tier runs on the embedded store alone, whatever the shell has set.
if (fast) delete environment.DATABASE_URL;
const chromiumMissing = !fast && !existsSync('/usr/bin/chromium');
if (chromiumMissing) console.log('NOTE: /usr/bin/chromium is missing (apt-get install -y chromium); the browser suites are SKIPPED.');
if (!environment.DATABASE_URL) {
  console.log('NOTE: DATABASE_URL is not set; the PostgreSQL suites are SKIPPED and only the embedded (PGlite) suites run.');
} else {
  console.log(`PostgreSQL suites run against ${environment.DATABASE_URL.replace(/\/\/[^@]*@/, '//***@')}`);
}

// The migrated embedded store that suites load instead of migrating their own, made here once
// so that suites running side by side do not each make it (support/store-image.ts).
const image = spawnSync(process.execPath, ['--import', 'tsx', 'support/store-image.ts'], { stdio: 'inherit', env: environment });
if (image.status !== 0) process.exit(image.status ?? 1);

const status = fast ? await runShards(files) : runIsolated(files);
if (!environment.DATABASE_URL) {
  console.log('NOTE: the PostgreSQL suites were SKIPPED (DATABASE_URL is not set); only the embedded store was tested.');
}
if (chromiumMissing) console.log('NOTE: the browser suites were SKIPPED (/usr/bin/chromium is missing).');
if (left.length > 0) {
  console.log(`NOTE: the fast tier LEFT OUT ${left.length} suite file(s); run \`npm test\` before pushing:`);
  for (const slow of SLOW_SUITES) {
    const these = left.filter((file) => slow.matches(file));
    if (these.length > 0) console.log(`  ${slow.reason}: ${these.join(', ')}`);
  }
}
process.exit(status);

/**
 * The full run: every file in a process of its own, TEST_CONCURRENCY at a time (2 unless set),
 * the longest first (the runner starts them in the order given), so that a long file does not
 * start last and run alone at the end while the other slot is idle.
 */
function runIsolated(testFiles) {
  const concurrency = Number(process.env.TEST_CONCURRENCY ?? 2);
  if (!Number.isInteger(concurrency) || concurrency < 1) {
    console.error(`TEST_CONCURRENCY must be a whole number of 1 or more, not "${process.env.TEST_CONCURRENCY}"`);
    return 2;
  }
  const result = spawnSync(
    process.execPath,
    ['--import', 'tsx', '--test', `--test-concurrency=${concurrency}`, `--test-timeout=${TEST_FILE_TIMEOUT_MS}`, ...longestFirst(testFiles)],
    { stdio: 'inherit', env: environment },
  );
  return result.status ?? 1;
}

/**
 * The files ordered by how long each took in a full run (scripts/test-durations.json, seconds);
 * a file not listed there (a new one) counts as a middling one. Only the order depends on the
 * table, never which files run: a stale table makes the run longer, not smaller.
 */
function longestFirst(testFiles) {
  const table = JSON.parse(readFileSync(new URL('./test-durations.json', import.meta.url), 'utf8'));
  const seconds = (file) => table.seconds[file] ?? table.unlistedSeconds;
  return [...testFiles].sort((left, right) => seconds(right) - seconds(left) || left.localeCompare(right));
}

/**
 * The fast tier: the files in two processes (one per core), each running its share of the files
 * one after the other (test/shard.mjs). Starting Node, the TypeScript loader, the
 * application and the embedded store's WebAssembly once per shard instead of once per file is
 * most of what the fast tier saves. A file that crashes its process takes the rest of its shard
 * with it: `npm test -- FILE` runs it alone.
 */
async function runShards(testFiles) {
  const shards = [[], []];
  const weights = [0, 0];
  // Larger files first, each to the lighter shard: file size stands in for running time.
  for (const file of [...testFiles].sort((left, right) => statSync(right).size - statSync(left).size)) {
    const lighter = weights[0] <= weights[1] ? 0 : 1;
    shards[lighter].push(file);
    weights[lighter] += statSync(file).size;
  }
  const directory = mkdtempSync(path.join(tmpdir(), 'ledger-recon-fast-'));
  const outcomes = await Promise.all(
    shards
      .filter((shard) => shard.length > 0)
      .map((shard, index) => {
        const report = path.join(directory, `shard-${index + 1}.tap`);
        const child = spawn(process.execPath, ['--import', 'tsx', '--test-reporter=tap', `--test-reporter-destination=${report}`, 'test/shard.mjs', ...shard], {
          stdio: ['ignore', 'inherit', 'inherit'],
          env: environment,
        });
        return new Promise((resolve) => child.on('close', (code) => resolve({ index, shard, report, code })));
      }),
  );
  const totals = new Map();
  for (const { index, shard, report, code } of outcomes) {
    const text = existsSync(report) ? readFileSync(report, 'utf8') : '';
    console.log(`# shard ${index + 1} of ${outcomes.length} (${shard.length} files): exit code ${code}`);
    console.log(text);
    for (const [, name, value] of text.matchAll(/^# (tests|suites|pass|fail|cancelled|skipped|todo) (\d+)$/gm)) {
      totals.set(name, (totals.get(name) ?? 0) + Number(value));
    }
  }
  rmSync(directory, { recursive: true, force: true });
  console.log(`# fast tier, ${testFiles.length} files in ${outcomes.length} processes: ${[...totals].map(([name, value]) => `${name} ${value}`).join(', ')}`);
  return outcomes.every((outcome) => outcome.code === 0) ? 0 : 1;
}
