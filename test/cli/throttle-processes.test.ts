import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { openTestStore, postgresSkipReason } from '../../support/harness.ts';
import { demoFromBanner, exitCode, freePort, serve } from '../../support/processes.ts';

/**
 * The throttles of failed sign-ins and failed token requests hold when guesses arrive at once
 * and are spread over two server processes sharing one PostgreSQL database: the count is
 * charged in the database before an attempt is judged, so neither process can judge more than
 * the limit, whatever the other one is doing.
 */

const PROCESS_COUNT = 2;
const PARALLEL_ATTEMPTS = 120;
const RIGHT_SECRET_AT = 61;
const TOKEN_FAILURE_LIMIT = 5;
/** Failed sign-ins allowed per account and address (LOGIN_FAILURES_PER_ACCOUNT_AND_ADDRESS). */
const SIGN_IN_FAILURE_LIMIT = 10;

function countStatuses(statuses: number[]): Record<number, number> {
  const counts: Record<number, number> = {};
  for (const status of statuses) counts[status] = (counts[status] ?? 0) + 1;
  return counts;
}

describe('throttles across two server processes on one PostgreSQL database', { skip: postgresSkipReason }, () => {
  let store: Awaited<ReturnType<typeof openTestStore>>;
  const processes: (Awaited<ReturnType<typeof serve>> & { baseUrl: string })[] = [];
  const dataDirectory = mkdtempSync(path.join(tmpdir(), 'ledger-recon-throttle-'));
  let demo: ReturnType<typeof demoFromBanner>;

  before(async () => {
    store = await openTestStore('postgres');
    let publicUrl = '';
    for (let index = 0; index < PROCESS_COUNT; index += 1) {
      const port = await freePort();
      if (index === 0) publicUrl = `http://127.0.0.1:${port}`;
      // The first process finds the database empty and seeds the demo; the other joins it.
      const started = await serve({
        DATA_DIR: dataDirectory,
        PORT: String(port),
        PUBLIC_URL: publicUrl,
        DATABASE_URL: store.databaseUrl!,
        TOKEN_FAILURE_LIMIT: String(TOKEN_FAILURE_LIMIT),
      });
      processes.push({ ...started, baseUrl: `http://127.0.0.1:${port}` });
      if (index === 0) demo = demoFromBanner(started.output());
    }
  });

  after(async () => {
    for (const process of processes) {
      process.child.kill('SIGKILL');
      await exitCode(process.child);
    }
    await store?.drop();
    rmSync(dataDirectory, { recursive: true, force: true });
  });

  /** Sends the attempts at once, alternating between the processes; the statuses in order. */
  async function atOnce(attempt: (baseUrl: string, index: number) => Promise<Response>): Promise<number[]> {
    const responses = await Promise.all(Array.from({ length: PARALLEL_ATTEMPTS }, (_, index) => attempt(processes[index % PROCESS_COUNT]!.baseUrl, index)));
    await Promise.all(responses.map((response) => response.arrayBuffer()));
    return responses.map((response) => response.status);
  }

  it('compares at most the limit of passwords, and the right one among them does not get in once throttled', async () => {
    const signIn = (baseUrl: string, index: number) =>
      fetch(`${baseUrl}/auth/sign-in`, {
        method: 'POST',
        // Behind a load balancer both processes are the one public address the page came from.
        headers: { 'content-type': 'application/json', origin: processes[0]!.baseUrl },
        body: JSON.stringify({ email: demo.email, password: index === RIGHT_SECRET_AT ? demo.password : `wrong guess ${index}` }),
      });
    const statuses = countStatuses(await atOnce(signIn));
    for (const status of Object.keys(statuses)) assert.ok(['200', '401', '429'].includes(status), JSON.stringify(statuses));
    // Only attempts that were compared are answered other than 429.
    assert.ok(PARALLEL_ATTEMPTS - (statuses[429] ?? 0) <= SIGN_IN_FAILURE_LIMIT, `passwords compared: ${JSON.stringify(statuses)}`);
    assert.deepEqual(countStatuses(await atOnce(signIn)), { 429: PARALLEL_ATTEMPTS });
  });

  it('tells apart at most the limit of wrong client secrets, and the right one among them gets no token once throttled', async () => {
    const token = (baseUrl: string, index: number) =>
      fetch(`${baseUrl}/oauth/token`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({
          grant_type: 'client_credentials',
          client_id: demo.clientId,
          client_secret: index === RIGHT_SECRET_AT ? demo.clientSecret : `${demo.clientSecret}x`,
          audience: demo.audience,
        }),
      });
    const statuses = countStatuses(await atOnce(token));
    for (const status of Object.keys(statuses)) assert.ok(['200', '401', '429'].includes(status), JSON.stringify(statuses));
    assert.ok((statuses[401] ?? 0) <= TOKEN_FAILURE_LIMIT, `wrong secrets told apart: ${JSON.stringify(statuses)}`);
    assert.ok((statuses[200] ?? 0) <= 1, JSON.stringify(statuses));
    assert.deepEqual(countStatuses(await atOnce(token)), { 429: PARALLEL_ATTEMPTS });
  });
});
