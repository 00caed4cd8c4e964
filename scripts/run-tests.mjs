// Runs every *.test.ts under src/ and test/ with Node's test runner. The PostgreSQL half of the
// data-layer suites runs when DATABASE_URL is set; without it this says, loudly, that it was skipped.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';

function findTests(directory) {
  const found = [];
  for (const entry of readdirSync(directory)) {
    const full = path.join(directory, entry);
    if (statSync(full).isDirectory()) found.push(...findTests(full));
    else if (entry.endsWith('.test.ts')) found.push(full);
  }
  return found;
}

const filter = process.argv.slice(2);
const files = ['src', 'test', 'sdk/src']
  .flatMap(findTests)
  .filter((file) => filter.length === 0 || filter.some((part) => file.includes(part)))
  .sort();

if (files.length === 0) {
  console.error(`no test files match ${filter.join(' ')}`);
  process.exit(1);
}
const chromiumMissing = !existsSync('/usr/bin/chromium');
if (chromiumMissing) console.log('NOTE: /usr/bin/chromium is missing (apt-get install -y chromium); the browser suites are SKIPPED.');
if (!process.env.DATABASE_URL) {
  console.log('NOTE: DATABASE_URL is not set; the PostgreSQL suites are SKIPPED and only the embedded (PGlite) suites run.');
} else {
  console.log(`PostgreSQL suites run against ${process.env.DATABASE_URL.replace(/\/\/[^@]*@/, '//***@')}`);
}
const result = spawnSync(
  process.execPath,
  ['--import', 'tsx', '--test', '--test-concurrency=2', '--test-timeout=300000', ...files],
  { stdio: 'inherit', env: { ...process.env, NODE_ENV: 'test' } },
);
if (!process.env.DATABASE_URL) {
  console.log('NOTE: the PostgreSQL suites were SKIPPED (DATABASE_URL is not set); only the embedded store was tested.');
}
if (chromiumMissing) console.log('NOTE: the browser suites were SKIPPED (/usr/bin/chromium is missing).');
process.exit(result.status ?? 1);
