import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { freePort } from './net.ts';
import { migratedDataDirectory } from './store-image.ts';
import { openTestStore, type StoreKind } from './harness.ts';

/** The command line as a user runs it. */
export const BIN = path.resolve('bin/ledger-recon.mjs');

export { freePort, migratedDataDirectory };

/**
 * The environment of a child process: the test's own, without DATABASE_URL unless the caller
 * sets it (the command line must not pick up the test suite's PostgreSQL by accident).
 */
function childEnvironment(environment: Record<string, string>): Record<string, string | undefined> {
  const { DATABASE_URL: _ignored, ...inherited } = process.env;
  return { ...inherited, ...environment };
}

/** Runs a command to its end. */
export function run(args: string[], environment: Record<string, string>) {
  return spawnSync(process.execPath, [BIN, ...args], { env: childEnvironment(environment), encoding: 'utf8', timeout: 120_000 });
}

/** Starts `ledger-recon serve` and resolves once its banner is complete. */
export function serve(environment: Record<string, string>): Promise<{ child: ChildProcess; output: () => string }> {
  const child = spawn(process.execPath, [BIN, 'serve'], { env: childEnvironment({ LOG_LEVEL: 'warn', ...environment }) });
  let output = '';
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`server did not start:\n${output}`)), 90_000);
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      if (/listening on/.test(output) && (/Try it:[\s\S]*transactions[^\n]*\n/.test(output) || /API docs:[^\n]*\n\n/.test(output))) {
        clearTimeout(timer);
        resolve({ child, output: () => output });
      }
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', onData);
    child.on('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`server exited with ${code}:\n${output}`));
    });
  });
}

export function exitCode(child: ChildProcess): Promise<number | null> {
  // A child killed by a signal has no exit code but a signal code; either means it has ended.
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve(child.exitCode);
  return new Promise((resolve) => child.once('exit', (code) => resolve(code)));
}

/** The demo credentials a first start prints. */
export function demoFromBanner(banner: string) {
  const value = (pattern: RegExp) => {
    const found = pattern.exec(banner)?.[1];
    if (!found) throw new Error(`the banner lacks ${pattern}:\n${banner}`);
    return found;
  };
  return {
    orgId: value(/organization id:\s+(\S+)/),
    clientId: value(/API client id:\s+(\S+)/),
    clientSecret: value(/client secret:\s+(\S+)/),
    audience: value(/audience:\s+(\S+)/),
    datasetId: value(/"datasetId": "([0-9a-f-]{36})"/),
    email: value(/user \(web app\):\s+(\S+@\S+) \//),
    password: value(/user \(web app\):\s+\S+@\S+ \/ (\S+)/),
  };
}

/** A token for the demo client of a running server. */
export async function demoToken(baseUrl: string, demo: ReturnType<typeof demoFromBanner>): Promise<string> {
  const response = await fetch(`${baseUrl}/oauth/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ grant_type: 'client_credentials', client_id: demo.clientId, client_secret: demo.clientSecret, audience: demo.audience }),
  });
  const body = (await response.json()) as { access_token?: string };
  if (!body.access_token) throw new Error(`no token: ${response.status} ${JSON.stringify(body)}`);
  return body.access_token;
}

/**
 * A demo server in a child process on a store of its own, which a test can kill with SIGKILL
 * and start again on the same store: what the crash tests (import, run, webhook) share. Jobs
 * are leased for 2 seconds, so that work the killed process held is taken up soon after.
 */
export async function startKillableServer(kind: StoreKind, extraEnvironment: Record<string, string> = {}) {
  // The store's creation is not what these suites test: the embedded one starts migrated.
  const dataDirectory = kind === 'pglite' ? await migratedDataDirectory('ledger-recon-crash-') : mkdtempSync(path.join(tmpdir(), 'ledger-recon-crash-'));
  const store = kind === 'postgres' ? await openTestStore('postgres') : null;
  const port = await freePort();
  const environment: Record<string, string> = { DATA_DIR: dataDirectory, PORT: String(port), JOB_LEASE_SECONDS: '2', ...extraEnvironment };
  if (store?.databaseUrl) environment.DATABASE_URL = store.databaseUrl;
  const baseUrl = `http://127.0.0.1:${port}`;
  const removeStore = async () => {
    await store?.drop();
    rmSync(dataDirectory, { recursive: true, force: true });
  };
  let server: Awaited<ReturnType<typeof serve>>;
  try {
    server = await serve(environment);
  } catch (error) {
    await removeStore();
    throw error;
  }
  const demo = demoFromBanner(server.output());
  let token = await demoToken(baseUrl, demo);
  const kill = async () => {
    server.child.kill('SIGKILL');
    await exitCode(server.child);
  };
  return {
    baseUrl,
    demo,
    token: () => token,
    /** A request to the demo organization's API; the body is JSON unless a string with its content type. */
    async api(method: string, route: string, body?: unknown, contentType = 'application/json') {
      const response = await fetch(`${baseUrl}/v1/api/${demo.orgId}${route}`, {
        method,
        headers: { authorization: `Bearer ${token}`, ...(body !== undefined ? { 'content-type': contentType } : {}) },
        body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
      });
      return { status: response.status, body: (await response.json().catch(() => null)) as any };
    },
    kill,
    /** Starts the server again on the same store, with a fresh token (the signing keys survive). */
    async restart() {
      server = await serve(environment);
      token = await demoToken(baseUrl, demo);
    },
    async close() {
      await kill();
      await removeStore();
    },
  };
}
