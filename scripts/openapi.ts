// Writes docs/openapi.json from the route schemas; with --check, fails when the committed
// document differs from what the code generates (CI runs it that way).
import { readFileSync, writeFileSync } from 'node:fs';
import { buildApp } from '../src/app.ts';
import { loadConfig } from '../src/config.ts';
import { openDatabase } from '../src/db/database.ts';
import { createServices } from '../src/domain/services.ts';

const DOCUMENT_PATH = 'docs/openapi.json';
// A fixed server address keeps the committed document independent of who generates it.
const config = loadConfig({}, { publicUrl: 'http://127.0.0.1:3000', audience: 'http://127.0.0.1:3000/v1/api', seedDemo: false });
// Building the routes needs services but never touches the store, so an unmigrated in-memory one does.
const database = openDatabase({ databaseUrl: null, dataDirectory: null });
const app = await buildApp({ services: createServices(config, database) });
await app.ready();
const generated = JSON.stringify(app.swagger(), null, 2) + '\n';
await app.close();
await database.close();

if (process.argv.includes('--check')) {
  let committed = '';
  try {
    committed = readFileSync(DOCUMENT_PATH, 'utf8');
  } catch {
    // A missing document is drift as well.
  }
  if (committed !== generated) {
    console.error(`${DOCUMENT_PATH} is out of date with the route schemas; run "npm run openapi" and commit the result`);
    process.exit(1);
  }
  console.log(`${DOCUMENT_PATH} matches the route schemas`);
} else {
  writeFileSync(DOCUMENT_PATH, generated);
  console.log(`wrote ${DOCUMENT_PATH}`);
}
