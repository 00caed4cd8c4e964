import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { openTestStore, postgresSkipReason } from '../../support/harness.ts';
import { demoFromBanner, exitCode, freePort, serve } from '../../support/processes.ts';
import { eventually, startReceiver, verify, type TestReceiver } from '../../support/receiver.ts';

/**
 * Three server processes on one PostgreSQL database (SPEC §12), as a team that outgrows one
 * process runs them behind a load balancer: a workload spread over them must get the answers
 * one process gives, throttling and revocation must hold whichever process is asked, every job
 * must be taken by exactly one process, and a process killed mid-job must leave the job to
 * another, done once.
 */

type Process = Awaited<ReturnType<typeof serve>> & { baseUrl: string };

const PROCESS_COUNT = 3;
/** Pairs of the run whose process is killed: long enough to be under way when the kill comes. */
const KILLED_RUN_PAIRS = 40_000;

function csv(side: 'bank' | 'ledger', pairs: number): string {
  const lines = ['timestamp,description,amount,currency,reference'];
  for (let index = 0; index < pairs; index++) {
    const day = String((index % 28) + 1).padStart(2, '0');
    lines.push(`2024-04-${day},${side} ${index},${(index % 9000) + 1}.${String(index % 100).padStart(2, '0')},EUR,MP-${100000 + index}`);
  }
  return `${lines.join('\n')}\n`;
}

describe('several server processes on one PostgreSQL database', { skip: postgresSkipReason }, () => {
  let store: Awaited<ReturnType<typeof openTestStore>>;
  const processes: Process[] = [];
  let receiver: TestReceiver;
  const dataDirectory = mkdtempSync(path.join(tmpdir(), 'ledger-recon-multi-'));
  let demo: ReturnType<typeof demoFromBanner>;
  let publicUrl = '';
  const environmentOf = (port: number): Record<string, string> => ({
    DATA_DIR: dataDirectory,
    PORT: String(port),
    // Behind a load balancer every process has the one public address (issuer and audience).
    PUBLIC_URL: publicUrl,
    DATABASE_URL: store.databaseUrl!,
    // Short enough for the killed process's run to be taken over soon, long enough that a busy
    // process (parsing a large import on its event loop, on a machine that runs other suites at
    // the same time) renews its leases in time.
    JOB_LEASE_SECONDS: '15',
    // The suites share this machine: a large import must not meet the per-statement budget.
    QUERY_TIMEOUT_MS: '300000',
    REVOCATION_CHECK_SECONDS: '1',
    WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true',
    WEBHOOK_RETRY_BASE_MS: '200',
    WEBHOOK_TIMEOUT_SECONDS: '5',
  });

  /** A token from process `index` for a client. */
  const tokenFrom = async (index: number, client: { clientId: string; clientSecret: string }) => {
    const response = await fetch(`${processes[index]!.baseUrl}/oauth/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ grant_type: 'client_credentials', client_id: client.clientId, client_secret: client.clientSecret, audience: demo.audience }),
    });
    return { status: response.status, body: (await response.json()) as { access_token?: string; error?: string } };
  };
  let token = '';
  /** An API call through process `index`. */
  const call = async (index: number, method: string, route: string, body?: unknown, headers: Record<string, string> = {}, bearer = token) => {
    const response = await fetch(`${processes[index]!.baseUrl}/v1/api/${demo.orgId}${route}`, {
      method,
      headers: {
        authorization: `Bearer ${bearer}`,
        ...(body !== undefined && typeof body !== 'string' ? { 'content-type': 'application/json' } : {}),
        ...headers,
      },
      body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
    });
    const text = await response.text();
    return { status: response.status, headers: response.headers, text, body: text === '' ? null : (JSON.parse(text) as any) };
  };
  const sql = <Row = Record<string, unknown>>(text: string, parameters: unknown[] = []) => store.database.query<Row>(text, parameters);

  before(async () => {
    store = await openTestStore('postgres');
    receiver = await startReceiver();
    for (let index = 0; index < PROCESS_COUNT; index += 1) {
      const port = await freePort();
      if (index === 0) publicUrl = `http://127.0.0.1:${port}`;
      // The first process finds the database empty and seeds the demo; the others join it.
      const started = await serve(environmentOf(port));
      processes.push({ ...started, baseUrl: `http://127.0.0.1:${port}` });
      if (index === 0) demo = demoFromBanner(started.output());
    }
    const issued = await tokenFrom(1, demo);
    assert.equal(issued.status, 200, JSON.stringify(issued.body));
    token = issued.body.access_token!;
  });

  after(async () => {
    for (const process of processes) {
      process.child.kill('SIGKILL');
      await exitCode(process.child);
    }
    await receiver?.close();
    await store?.drop();
    rmSync(dataDirectory, { recursive: true, force: true });
  });

  it('serves a token issued by one process on every process', async () => {
    for (let index = 0; index < PROCESS_COUNT; index += 1) {
      const answer = await call(index, 'GET', '/sources');
      assert.equal(answer.status, 200, answer.text);
    }
  });

  it('gives the same answers whichever process is asked, writes included, and replays an Idempotency-Key across processes', async () => {
    const source = (await call(0, 'GET', '/sources')).body[0];
    const datasets: string[] = [];
    for (const [index, name] of ['Spread bank', 'Spread ledger'].entries()) {
      const created = await call(index, 'POST', `/sources/${source.id}/datasets`, { name });
      assert.equal(created.status, 201, created.text);
      datasets.push(created.body.id);
    }
    // Ingest in batches, each through another process, one batch twice with the same key.
    for (let batch = 0; batch < 6; batch += 1) {
      const records = Array.from({ length: 50 }, (_, offset) => {
        const number = batch * 50 + offset;
        return {
          externalId: `spread-${number}`,
          timestamp: 1_710_000_000_000 + number * 1000,
          description: `spread ${number}`,
          amount: `${number + 1}.10`,
          currency: 'EUR',
        };
      });
      const headers = { 'idempotency-key': `spread-batch-${batch}` };
      const first = await call(batch % PROCESS_COUNT, 'POST', `/datasets/${datasets[0]}/transactions`, { records }, headers);
      assert.equal(first.status, 200, first.text);
      const replayed = await call((batch + 1) % PROCESS_COUNT, 'POST', `/datasets/${datasets[0]}/transactions`, { records }, headers);
      assert.equal(replayed.text, first.text);
      assert.equal(replayed.headers.get('idempotent-replayed'), 'true');
    }
    // The same query, by offset deep into the dataset and by cursor handed between processes.
    const query = { datasetId: datasets[0], limit: 40, offset: 200 };
    const answers = await Promise.all(processes.map((_, index) => call(index, 'POST', '/transactions', query)));
    for (const answer of answers) assert.equal(answer.text, answers[0]!.text);
    assert.equal(answers[0]!.body.length, 40);
    let cursor: string | null = null;
    const walked: string[] = [];
    for (let page = 0; page < 8; page += 1) {
      const answer = await call(page % PROCESS_COUNT, 'POST', '/transactions', { datasetId: datasets[0], limit: 50, ...(cursor ? { cursor } : {}) });
      assert.equal(answer.status, 200, answer.text);
      walked.push(...answer.body.map((record: { id: string }) => record.id));
      cursor = answer.headers.get('x-next-cursor');
      if (!cursor) break;
    }
    assert.equal(walked.length, 300);
    assert.equal(new Set(walked).size, 300);
    // A match made through one process shows at once through the others.
    const [bank] = (await call(0, 'POST', '/transactions', { datasetId: datasets[0], limit: 1 })).body;
    await call(1, 'POST', `/datasets/${datasets[1]}/transactions`, {
      records: [{ externalId: 'spread-ledger', timestamp: 1_710_000_000_000, description: 'spread ledger', amount: '1.10', currency: 'EUR' }],
    });
    const [ledger] = (await call(2, 'POST', '/transactions', { datasetId: datasets[1], limit: 1 })).body;
    const matched = await call(2, 'POST', '/matches', { links: [{ originId: bank.id, targetId: ledger.id }] });
    assert.equal(matched.status, 201, matched.text);
    const seen = await Promise.all(processes.map((_, index) => call(index, 'GET', `/transactions/${bank.id}`)));
    for (const answer of seen) {
      assert.equal(answer.body.reconciliationStatus, 'full');
      assert.equal(answer.text, seen[0]!.text);
    }
  });

  it("holds the token endpoint's throttling whichever process is asked", async () => {
    const created = await call(0, 'POST', '/clients', { name: 'Throttled robot', role: 'View-only' });
    assert.equal(created.status, 201, created.text);
    const client = { clientId: created.body.clientId as string, clientSecret: created.body.clientSecret as string };
    // TOKEN_FAILURE_LIMIT (10) wrong secrets from one address, spread over the processes.
    for (let attempt = 0; attempt < 10; attempt += 1) {
      const refused = await tokenFrom(attempt % PROCESS_COUNT, { clientId: client.clientId, clientSecret: `wrong-${attempt}` });
      assert.equal(refused.status, 401, JSON.stringify(refused.body));
    }
    // Each process re-reads the shared failure count within a second; then every one refuses,
    // even the right secret.
    await new Promise((resolve) => setTimeout(resolve, 1100));
    for (let index = 0; index < PROCESS_COUNT; index += 1) {
      const throttled = await tokenFrom(index, client);
      assert.equal(throttled.status, 429, `process ${index}: ${JSON.stringify(throttled.body)}`);
    }
  });

  it('holds a revocation made through one process on every process', async () => {
    const created = await call(0, 'POST', '/clients', { name: 'Revoked robot', role: 'View-only' });
    const client = { clientId: created.body.clientId as string, clientSecret: created.body.clientSecret as string };
    const issued = await tokenFrom(2, client);
    const clientToken = issued.body.access_token!;
    for (let index = 0; index < PROCESS_COUNT; index += 1) assert.equal((await call(index, 'GET', '/sources', undefined, {}, clientToken)).status, 200);
    assert.equal((await call(1, 'DELETE', `/clients/${client.clientId}`)).status, 204);
    // REVOCATION_CHECK_SECONDS=1: every process refuses the token and the secret within it.
    await eventually(
      async () => {
        const answers = await Promise.all(processes.map((_, index) => call(index, 'GET', '/sources', undefined, {}, clientToken)));
        return answers.every((answer) => answer.status === 401);
      },
      "every process to refuse the revoked client's token",
      5_000,
    );
    for (let index = 0; index < PROCESS_COUNT; index += 1) {
      const refused = await tokenFrom(index, client);
      assert.equal(refused.status, 401, JSON.stringify(refused.body));
    }
  });

  it('hands every job to exactly one process: imports, runs and webhook deliveries', async () => {
    const endpoint = await call(0, 'POST', '/webhook-endpoints', {
      url: receiver.url,
      eventTypes: ['match_group.created', 'transaction.status_changed', 'import.completed', 'run.completed'],
    });
    assert.equal(endpoint.status, 201, endpoint.text);
    const source = (await call(0, 'GET', '/sources')).body[0];
    const datasets: string[] = [];
    for (const side of ['bank', 'ledger'] as const) {
      const created = await call(1, 'POST', `/sources/${source.id}/datasets`, { name: `Jobs ${side}` });
      datasets.push(created.body.id);
      // Asynchronous imports: queued by one process, carried out by whichever takes the job.
      const queued = await call(side === 'bank' ? 1 : 2, 'POST', `/datasets/${created.body.id}/imports?fileName=${side}.csv`, csv(side, 300), {
        'content-type': 'text/csv',
        prefer: 'respond-async',
      });
      assert.equal(queued.status, 202, queued.text);
      await eventually(async () => (await call(0, 'GET', `/imports/${queued.body.id}`)).body.status === 'completed', `the ${side} import`);
    }
    const rule = await call(2, 'POST', '/rules', {
      name: 'Jobs reference',
      origin: { datasetIds: [datasets[0]] },
      target: { datasetIds: [datasets[1]] },
      conditions: [
        { type: 'amount', sign: 'same' },
        { type: 'equals', origin: { path: 'reference' }, target: { path: 'reference' } },
      ],
    });
    assert.equal(rule.status, 201, rule.text);
    // One run after the other (runs over the same rows at once would make one of them retry).
    for (let index = 0; index < PROCESS_COUNT; index += 1) {
      const started = await call(index, 'POST', '/runs', { mode: index === PROCESS_COUNT - 1 ? 'commit' : 'dry-run', ruleIds: [rule.body.id] });
      assert.equal(started.status, 202, started.text);
      await eventually(async () => (await call(index, 'GET', `/runs/${started.body.id}`)).body.status === 'completed', `run ${started.body.id}`, 60_000);
    }
    const events = await eventually(async () => {
      const feed: { id: string; occurredAt: string }[] = [];
      let cursor = '';
      for (;;) {
        const page = (await call(0, 'GET', `/events?type=match_group.created,transaction.status_changed,import.completed,run.completed&limit=1000${cursor}`))
          .body;
        feed.push(...page.events);
        if (!page.hasMore) break;
        cursor = `&cursor=${page.nextCursor}`;
      }
      const wanted = feed.filter((event) => Date.parse(event.occurredAt) >= Date.parse(endpoint.body.createdAt));
      // Two imports, a committed run of 300 pairs (300 groups, 600 status changes) and three runs completed.
      return wanted.length >= 2 + 300 + 600 + 3 ? wanted : null;
    }, 'the events of the imports and the runs');
    await eventually(() => events.every((event: { id: string }) => receiver.accepted.has(event.id)), 'every event delivered', 60_000);
    // Exactly one process took each job: one attempt each, and no message was sent twice. A delivery
    // reaches the receiver before its job is marked completed, so the last jobs are waited for.
    const jobs = await eventually(async () => {
      const rows = await sql<{ kind: string; status: string; attempts: number; locked_by: string }>(`SELECT kind, status, attempts, locked_by FROM jobs`);
      return rows.every((job) => job.status !== 'queued' && job.status !== 'running') ? rows : null;
    }, 'every job finished');
    assert.ok(jobs.length > 900);
    for (const job of jobs) {
      assert.equal(job.status, 'completed', JSON.stringify(job));
      assert.equal(job.attempts, 1, JSON.stringify(job));
    }
    assert.equal(receiver.received.length, receiver.accepted.size, 'no delivery was sent twice');
    for (const message of receiver.received.slice(0, 20)) verify(endpoint.body.secret, message);
    const takers = new Set(jobs.map((job) => job.locked_by.split(':')[1]));
    assert.ok(takers.size >= 2, `jobs were spread over the processes (${[...takers].join(', ')})`);
    const pids = new Set(processes.map((process) => String(process.child.pid)));
    for (const taker of takers) assert.ok(pids.has(taker!), `job taken by an unknown process ${taker}`);
  });

  it('leaves the job of a process killed mid-run to another, which does it once', async () => {
    const source = (await call(0, 'GET', '/sources')).body[0];
    const datasets: string[] = [];
    for (const side of ['bank', 'ledger'] as const) {
      const created = await call(0, 'POST', `/sources/${source.id}/datasets`, { name: `Killed ${side}` });
      datasets.push(created.body.id);
      const imported = await call(0, 'POST', `/datasets/${created.body.id}/imports?fileName=${side}.csv`, csv(side, KILLED_RUN_PAIRS), {
        'content-type': 'text/csv',
      });
      assert.equal(imported.status, 201, `${imported.text.slice(0, 300)}\n${processes[0]!.output().slice(-3000)}`);
    }
    const rule = await call(0, 'POST', '/rules', {
      name: 'Killed reference',
      origin: { datasetIds: [datasets[0]] },
      target: { datasetIds: [datasets[1]] },
      conditions: [
        { type: 'amount', sign: 'same' },
        { type: 'equals', origin: { path: 'reference' }, target: { path: 'reference' } },
      ],
    });
    const started = await call(0, 'POST', '/runs', { mode: 'commit', ruleIds: [rule.body.id] });
    assert.equal(started.status, 202, started.text);
    const runId = started.body.id as string;
    // Find the process that holds the run's job, and kill it once the run is under way.
    const holder = await eventually(async () => {
      const [job] = await sql<{ locked_by: string | null; status: string }>(
        `SELECT j.locked_by, j.status FROM jobs j JOIN runs r ON r.job_id = j.id WHERE r.id = $1`,
        [runId],
      );
      return job?.status === 'running' && job.locked_by ? job.locked_by.split(':')[1] : null;
    }, 'a process to take the run');
    const victim = processes.findIndex((process) => String(process.child.pid) === holder);
    assert.ok(victim >= 0, `the run's job is held by process ${holder}`);
    await new Promise((resolve) => setTimeout(resolve, 500));
    processes[victim]!.child.kill('SIGKILL');
    await exitCode(processes[victim]!.child);
    const survivor = (victim + 1) % PROCESS_COUNT;
    const finished = await eventually(
      async () => {
        const run = (await call(survivor, 'GET', `/runs/${runId}`)).body;
        return ['completed', 'failed'].includes(run.status) ? run : null;
      },
      'another process to finish the run',
      240_000,
    );
    assert.equal(finished.status, 'completed', JSON.stringify(finished));
    const [job] = await sql<{ attempts: number; locked_by: string }>(
      `SELECT j.attempts, j.locked_by FROM jobs j JOIN runs r ON r.job_id = j.id WHERE r.id = $1`,
      [runId],
    );
    assert.equal(job!.attempts, 2, 'taken again after the lease of the dead process ran out');
    assert.notEqual(job!.locked_by.split(':')[1], holder);
    // Done once: one match per pair, and every status agrees with the matches.
    const [counts] = await sql<{ matches: string; groups: string }>(
      `SELECT count(*) AS matches, count(DISTINCT group_id) AS groups FROM matches WHERE run_id = $1`,
      [runId],
    );
    assert.equal(Number(counts!.matches), KILLED_RUN_PAIRS);
    assert.equal(Number(counts!.groups), KILLED_RUN_PAIRS);
    const disagreeing = await sql(
      `SELECT t.id FROM transactions t
        WHERE t.dataset_id = ANY ($1::uuid[])
          AND t.allocated_amount <> coalesce((SELECT sum(m.amount) FROM matches m WHERE m.origin_id = t.id OR m.target_id = t.id), 0)`,
      [datasets],
    );
    assert.deepEqual(disagreeing, []);
  });
});
