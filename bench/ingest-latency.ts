/**
 * Ingest to matched (a section of `npm run bench`; not part of the tests): how long after a bank
 * ingest's answer its entries are matched by a 1:1 rule with `runOnIngest`, on PostgreSQL. The
 * real server runs as a child process; each trial ingests 100 ledger lines (and waits for the run
 * they trigger), then their 100 bank lines, and times from the bank ingest's answer until all 100
 * are `full`, read from the database every few milliseconds. The baseline is the same with
 * nothing else open; the other rows first load an open backlog per side (lines of no counterpart).
 * Each figure is the median of BENCH_LATENCY_TRIALS (default 5). The run's own record splits the
 * time: waiting for a worker (createdAt to startedAt), deciding, and carrying the decisions out.
 *
 * Settings: DATABASE_URL (required), BENCH_LATENCY_BACKLOGS (open lines per side, comma-separated,
 * default "20000"), BENCH_LATENCY_LINES (lines per trial, default 100), BENCH_LATENCY_TRIALS.
 */
import { randomUUID } from 'node:crypto';
import { callApi, format, log, positiveInteger, type TableRow } from './support.ts';
import { createDatasets, createRule, exactReferenceRule, ingest, newOrganization, withBench, type Bench } from './matching.ts';
import type { IngestRecord } from './truth-set.ts';

const DAY_MS = 86_400_000;
const TARGET_SECONDS = 0.5;
const TARGET_RATIO = 2;

interface Trial {
  seconds: number;
  waitMilliseconds: number;
  decideMilliseconds: number;
  applyMilliseconds: number;
}

interface Scenario {
  backlog: number;
  trials: Trial[];
}

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
};

function lines(prefix: string, count: number, start: number, reference: (index: number) => string): IngestRecord[] {
  return Array.from({ length: count }, (_, index) => ({
    externalId: `${prefix}-${index}`,
    timestamp: start + (index % 20) * 3_600_000,
    description: `payment ${index}`,
    reference: reference(index),
    currency: 'EUR',
    amount: `${100 + index}.${String(index % 100).padStart(2, '0')}`,
  }));
}

async function waitForRunsToEnd(bench: Bench, orgId: string): Promise<void> {
  for (;;) {
    const { rows } = await bench.client.query(`SELECT 1 FROM runs WHERE organization_id = $1 AND status IN ('queued', 'running') LIMIT 1`, [orgId]);
    if (rows.length === 0) return;
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

async function scenario(bench: Bench, backlog: number, count: number, trials: number): Promise<Scenario> {
  const api = await newOrganization(bench, `Latency ${backlog} ${randomUUID().slice(0, 6)}`);
  const [bank, ledger] = await createDatasets(api, 'Latency', ['Bank', 'Ledger']);
  await createRule(api, exactReferenceRule(bank!, ledger!, true));
  const start = Date.UTC(2026, 0, 1);
  if (backlog > 0) {
    log(`  latency: loading ${backlog.toLocaleString('en')} open lines per side`);
    await ingest(
      api,
      bank!,
      lines('open-bank', backlog, start, (index) => `OB${index}`),
    );
    await ingest(
      api,
      ledger!,
      lines('open-ledger', backlog, start, (index) => `OL${index}`),
    );
    await waitForRunsToEnd(bench, api.orgId);
  }
  const results: Trial[] = [];
  for (let trial = 0; trial < trials; trial += 1) {
    const day = start + (trial + 1) * 10 * DAY_MS;
    await ingest(
      api,
      ledger!,
      lines(`ledger-${trial}`, count, day, (index) => `T${trial}-${index}`),
    );
    await waitForRunsToEnd(bench, api.orgId);
    const externalIds = Array.from({ length: count }, (_, index) => `bank-${trial}-${index}`);
    await ingest(
      api,
      bank!,
      lines(`bank-${trial}`, count, day, (index) => `T${trial}-${index}`),
    );
    const answered = performance.now();
    for (;;) {
      const { rows } = await bench.client.query<{ full: number }>(
        `SELECT count(*)::integer AS full FROM transactions WHERE dataset_id = $1 AND external_id = ANY ($2::text[]) AND reconciliation_status = 'full'`,
        [bank, externalIds],
      );
      if (rows[0]!.full === count) break;
      if (performance.now() - answered > 120_000) throw new Error(`latency: only ${rows[0]!.full} of ${count} matched after 120 s`);
      await new Promise((resolve) => setTimeout(resolve, 2));
    }
    const seconds = (performance.now() - answered) / 1000;
    await waitForRunsToEnd(bench, api.orgId);
    const { body } = await callApi<{ runs: Array<{ createdAt: string; startedAt: string; timings?: Record<string, number> }> }>(api, 'GET', '/runs?limit=1');
    const run = body.runs[0]!;
    const measured = {
      seconds,
      waitMilliseconds: Date.parse(run.startedAt) - Date.parse(run.createdAt),
      decideMilliseconds: run.timings?.decideMilliseconds ?? NaN,
      applyMilliseconds: run.timings?.applyMilliseconds ?? NaN,
    };
    log(
      `  latency, backlog ${backlog}: trial ${trial + 1}: ${seconds.toFixed(3)} s (run timings ${JSON.stringify({ ...run.timings, wait: measured.waitMilliseconds })})`,
    );
    results.push(measured);
  }
  return { backlog, trials: results };
}

function describe(result: Scenario): string {
  const pick = (key: keyof Trial) => median(result.trials.map((trial) => trial[key]));
  return `wait ${pick('waitMilliseconds')} ms, decide ${pick('decideMilliseconds')} ms, apply ${pick('applyMilliseconds')} ms`;
}

export async function benchIngestLatency(): Promise<TableRow[]> {
  const backlogs = (process.env.BENCH_LATENCY_BACKLOGS ?? '20000')
    .split(',')
    .map((value) => Number(value.trim()))
    .filter((value) => Number.isSafeInteger(value) && value > 0);
  const count = positiveInteger('BENCH_LATENCY_LINES', 100);
  const trials = positiveInteger('BENCH_LATENCY_TRIALS', 5);
  return withBench(async (bench) => {
    const baseline = await scenario(bench, 0, count, trials);
    const baselineSeconds = median(baseline.trials.map((trial) => trial.seconds));
    const rows: TableRow[] = [
      {
        scenario: `ingest to matched, ${count} + ${count} lines, no backlog (${describe(baseline)})`,
        baseline: '-',
        measured: format(baselineSeconds * 1000, 'ms'),
        ratio: '-',
        target: `<= ${TARGET_SECONDS * 1000} ms`,
        verdict: baselineSeconds <= TARGET_SECONDS ? 'PASS' : 'FAIL',
      },
    ];
    for (const backlog of backlogs) {
      const result = await scenario(bench, backlog, count, trials);
      const seconds = median(result.trials.map((trial) => trial.seconds));
      rows.push({
        scenario: `ingest to matched, ${backlog.toLocaleString('en')} open per side (${describe(result)})`,
        baseline: format(baselineSeconds * 1000, 'ms'),
        measured: format(seconds * 1000, 'ms'),
        ratio: `${(seconds / baselineSeconds).toFixed(2)}x`,
        target: `<= ${TARGET_RATIO}x`,
        verdict: seconds / baselineSeconds <= TARGET_RATIO ? 'PASS' : 'FAIL',
      });
    }
    return rows;
  }, 'bench_ledger_recon_latency');
}
