/** What every section of the benchmark shares: logging, settings, the server as a child process, the table. */
import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import pg from 'pg';
import { fileURLToPath } from 'node:url';

export const projectDirectory = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

export function log(message: string) {
  process.stderr.write(`[bench ${new Date().toISOString().slice(11, 19)}] ${message}\n`);
}

export function positiveInteger(name: string, fallback: number): number {
  const raw = process.env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isSafeInteger(value) || value < 1) throw new Error(`${name} must be a positive integer, got "${raw}"`);
  return value;
}

/** Drops and creates a database of the bench on the server of `adminUrl`; answers its URL. */
export async function recreateDatabase(adminUrl: string, name: string): Promise<string> {
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  try {
    await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    await admin.query(`CREATE DATABASE ${name}`);
  } finally {
    await admin.end();
  }
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return url.toString();
}

export async function dropDatabase(adminUrl: string, name: string): Promise<void> {
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  try {
    await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
  } finally {
    await admin.end();
  }
}

export { freePort } from '../support/net.ts';

/** Starts `ledger-recon serve` as a user would and waits until it answers /health. */
export async function startServer(port: number, environment: Record<string, string>): Promise<{ child: ChildProcess; output: () => string }> {
  const child = spawn(process.execPath, [path.join(projectDirectory, 'bin/ledger-recon.mjs'), 'serve'], {
    cwd: projectDirectory,
    // The per-client request limit protects a server from one client; the bench is that one
    // client on purpose, so the limit is lifted (its cost, a Map lookup, is still paid).
    env: { ...process.env, PORT: String(port), HOST: '127.0.0.1', LOG_LEVEL: 'warn', API_REQUESTS_PER_MINUTE: '10000000', ...environment },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let output = '';
  child.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`the server exited with code ${child.exitCode} while starting`);
    try {
      const response = await fetch(`http://127.0.0.1:${port}/health`);
      // The banner follows the listening socket by a moment; /health answers once it is printed.
      if (response.ok && /\n\n$/.test(output)) return { child, output: () => output };
    } catch {
      // Not listening yet.
    }
    if (Date.now() > deadline) {
      child.kill('SIGTERM');
      throw new Error('the server did not answer /health within 60 seconds');
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

export async function stopServer(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGTERM');
  await Promise.race([exited, new Promise((resolve) => setTimeout(resolve, 15_000))]);
}

export interface TableRow {
  scenario: string;
  baseline: string;
  measured: string;
  ratio: string;
  target: string;
  verdict: string;
}

export function printTable(rows: TableRow[]) {
  const headers: TableRow = { scenario: 'scenario', baseline: 'baseline', measured: 'measured', ratio: 'ratio', target: 'target', verdict: 'result' };
  const keys = Object.keys(headers) as Array<keyof TableRow>;
  const widths = keys.map((key) => Math.max(headers[key].length, ...rows.map((row) => row[key].length)));
  const line = (row: TableRow) => `| ${keys.map((key, index) => row[key].padEnd(widths[index]!)).join(' | ')} |`;
  const rule = `|${widths.map((width) => '-'.repeat(width + 2)).join('|')}|`;
  console.log([line(headers), rule, ...rows.map(line)].join('\n'));
}

export const format = (value: number, unit: string) => `${value >= 100 ? value.toFixed(0) : value.toFixed(1)} ${unit}`;

/** An access token for an API client (the client credentials grant of the token endpoint). */
export async function clientCredentialsToken(baseUrl: string, client: { clientId: string; clientSecret: string }, audience: string): Promise<string> {
  const response = await fetch(`${baseUrl}/oauth/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ grant_type: 'client_credentials', client_id: client.clientId, client_secret: client.clientSecret, audience }),
  });
  const body = (await response.json()) as { access_token?: string };
  if (!response.ok || !body.access_token) throw new Error(`the token endpoint answered ${response.status}: ${JSON.stringify(body).slice(0, 300)}`);
  return body.access_token;
}

/** How many times callApi sends a request that is answered 503. */
const CALL_ATTEMPTS = 5;

/** Calls `/v1/api/{orgId}{route}` with a bearer token; throws on a status other than the expected ones. */
export async function callApi<T = Record<string, unknown>>(
  api: { baseUrl: string; orgId: string; token: string },
  method: string,
  route: string,
  body?: unknown,
  expected: readonly number[] = [200, 201, 202],
): Promise<{ status: number; body: T; headers: Headers }> {
  // Like the SDK, a 503 (a database too busy to answer in time; nothing was changed) is sent
  // again after its Retry-After, a few times: the bench loads the machine on purpose.
  let response: Response;
  for (let attempt = 1; ; attempt += 1) {
    response = await fetch(`${api.baseUrl}/v1/api/${api.orgId}${route}`, {
      method,
      headers: { authorization: `Bearer ${api.token}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    if (response.status !== 503 || attempt === CALL_ATTEMPTS) break;
    log(`  ${method} ${route}: 503 (${(await response.text()).slice(0, 200)}); sending it again`);
    await new Promise((resolve) => setTimeout(resolve, 1000 * Number(response.headers.get('retry-after') ?? 1)));
  }
  const text = await response.text();
  if (!expected.includes(response.status)) throw new Error(`${method} ${route} answered ${response.status}: ${text.slice(0, 2000)}`);
  return { status: response.status, body: (text === '' ? null : JSON.parse(text)) as T, headers: response.headers };
}
