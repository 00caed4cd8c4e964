/**
 * Whether the server stays responsive on the embedded store while a large write runs (a section
 * of `npm run bench`). The embedded database runs in a worker thread; this measures what a
 * light request (GET /health) waits while 100,000 records are ingested in batches of 10,000,
 * against the same request on the idle server in the same run.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { demoFromBanner, demoToken } from '../support/processes.ts';
import { format, freePort, log, startServer, stopServer, type TableRow } from './support.ts';

const INGEST_RECORDS = 100_000;
const BATCH_RECORDS = 10_000;
/** How often the light request is sent while measuring. */
const PROBE_INTERVAL_MILLISECONDS = 5;
const IDLE_PROBE_MILLISECONDS = 3_000;
/** The target: p99 of the light request during the ingest. */
const TARGET_P99_MILLISECONDS = 50;

function percentile(sorted: readonly number[], fraction: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor(fraction * sorted.length))] ?? Number.NaN;
}

/** Sends GET /health one after another every few milliseconds until `until` resolves; returns the latencies, sorted. */
async function probe(baseUrl: string, until: Promise<unknown>): Promise<number[]> {
  let done = false;
  void until.finally(() => (done = true));
  const latencies: number[] = [];
  while (!done) {
    const started = performance.now();
    const response = await fetch(`${baseUrl}/health`);
    await response.arrayBuffer();
    latencies.push(performance.now() - started);
    await new Promise((resolve) => setTimeout(resolve, PROBE_INTERVAL_MILLISECONDS));
  }
  return latencies.sort((left, right) => left - right);
}

export async function benchEmbeddedResponsiveness(): Promise<TableRow[]> {
  const dataDirectory = mkdtempSync(path.join(tmpdir(), 'ledger-recon-bench-embedded-'));
  const port = await freePort();
  const { child, output } = await startServer(port, { DATA_DIR: dataDirectory, SEED_DEMO: 'true' });
  try {
    const baseUrl = `http://127.0.0.1:${port}`;
    const demo = demoFromBanner(output());
    const token = await demoToken(baseUrl, demo);
    const idle = await probe(baseUrl, new Promise((resolve) => setTimeout(resolve, IDLE_PROBE_MILLISECONDS)));

    log(`embedded store: ingesting ${INGEST_RECORDS.toLocaleString('en')} records while probing GET /health`);
    const ingestStarted = performance.now();
    const ingest = (async () => {
      for (let batch = 0; batch < INGEST_RECORDS / BATCH_RECORDS; batch++) {
        const records = Array.from({ length: BATCH_RECORDS }, (_, index) => {
          const ordinal = batch * BATCH_RECORDS + index;
          return {
            externalId: `bench-${ordinal}`,
            timestamp: 1_780_000_000_000 + ordinal * 1000,
            description: `SEPA credit transfer customer ${ordinal % 977} invoice INV-${100000 + ordinal}`,
            reference: `INV-${100000 + ordinal}`,
            currency: 'EUR',
            amount: `${(ordinal % 100000) + 1}.${String(ordinal % 100).padStart(2, '0')}`,
          };
        });
        const response = await fetch(`${baseUrl}/v1/api/${demo.orgId}/datasets/${demo.datasetId}/transactions`, {
          method: 'POST',
          headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
          body: JSON.stringify({ records }),
        });
        if (response.status !== 200) throw new Error(`ingest answered ${response.status}: ${await response.text()}`);
      }
    })();
    const busy = await probe(baseUrl, ingest);
    await ingest;
    const ingestSeconds = (performance.now() - ingestStarted) / 1000;
    const idleP99 = percentile(idle, 0.99);
    const busyP99 = percentile(busy, 0.99);
    log(
      `embedded store: ${(INGEST_RECORDS / ingestSeconds).toFixed(0)} records/s ingested; /health p50 ${percentile(busy, 0.5).toFixed(1)} ms, ` +
        `p99 ${busyP99.toFixed(1)} ms, max ${busy.at(-1)!.toFixed(1)} ms over ${busy.length} probes`,
    );
    return [
      {
        scenario: `GET /health p99 during a ${INGEST_RECORDS.toLocaleString('en')}-record ingest vs idle (embedded store)`,
        baseline: format(idleP99, 'ms'),
        measured: format(busyP99, 'ms'),
        ratio: `${(busyP99 / idleP99).toFixed(1)}x`,
        target: `<= ${TARGET_P99_MILLISECONDS} ms`,
        verdict: busyP99 <= TARGET_P99_MILLISECONDS ? 'PASS' : 'FAIL',
      },
    ];
  } finally {
    await stopServer(child);
    rmSync(dataDirectory, { recursive: true, force: true });
  }
}
