/**
 * SFTP file to matched (a part of the `latency` section of `npm run bench`; not part of the
 * tests): how long after a bank statement appears on a real OpenSSH server (support/sshd.ts) its
 * entries are matched by a 1:1 rule with `runOnIngest`, on PostgreSQL. The server runs as a child
 * process with the default CONNECTOR_SETTLE_SECONDS (5): a run lists the folder, lists it again
 * that long after, downloads the statement, imports it, and the import queues the matching run.
 * Each trial first ingests the ledger lines (and waits for the run they trigger), then writes a
 * camt.053 of as many entries to the server's folder and asks for a run at once, as the schedule
 * would when the pickup comes due; the time is from the file's last byte written until every
 * entry is `full`, read from the database every few milliseconds. The schedule adds to this the
 * wait until the pickup is due (its interval, at least a minute; each process looks for due
 * pickups once a minute).
 *
 * Settings: DATABASE_URL (required), BENCH_LATENCY_LINES (entries per trial, default 100),
 * BENCH_LATENCY_TRIALS (default 5), BENCH_PICKUP_SETTLE_SECONDS (default 5).
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { startSshd } from '../support/sshd.ts';
import { camt053Statement } from '../support/statement-files.ts';
import { callApi, format, log, positiveInteger, type TableRow } from './support.ts';
import { createDatasets, createRule, exactReferenceRule, ingest, newOrganization, withBench, type Bench } from './matching.ts';

const IBAN = 'AT611904300234573201';

interface Trial {
  seconds: number;
  /** From the run's request to its start (a worker taking its job). */
  queuedMilliseconds: number;
  /** From the run's start to its end: the settle wait, two listings, the download and the import. */
  runMilliseconds: number;
  /** From the pickup run's end until every entry is matched: the matching run. */
  matchMilliseconds: number;
}

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
};

async function runsSettled(bench: Bench, orgId: string): Promise<void> {
  for (;;) {
    const { rows } = await bench.client.query(`SELECT 1 FROM runs WHERE organization_id = $1 AND status IN ('queued', 'running') LIMIT 1`, [orgId]);
    if (rows.length === 0) return;
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

export async function benchPickupLatency(): Promise<TableRow[]> {
  const count = positiveInteger('BENCH_LATENCY_LINES', 100);
  const trials = positiveInteger('BENCH_LATENCY_TRIALS', 5);
  const settleSeconds = positiveInteger('BENCH_PICKUP_SETTLE_SECONDS', 5);
  const sshd = await startSshd();
  try {
    return await withBench(
      async (bench) => {
        const api = await newOrganization(bench, `Pickup latency ${randomUUID().slice(0, 6)}`);
        const [bank, ledger] = await createDatasets(api, 'Pickup latency', ['Bank', 'Ledger']);
        await callApi(api, 'PATCH', `/datasets/${bank}`, { accountId: IBAN }, [200]);
        await createRule(api, exactReferenceRule(bank!, ledger!, true));
        const { body: connection } = await callApi<{ id: string; publicKey: string }>(
          api,
          'POST',
          '/connections',
          { name: 'Bench SFTP', kind: 'sftp', host: sshd.host, port: sshd.port, username: sshd.username, authMethod: 'generated_key' },
          [201],
        );
        await sshd.authorize(connection.publicKey);
        await callApi(api, 'PATCH', `/connections/${connection.id}`, { hostKeyFingerprint: sshd.fingerprint }, [200]);
        const folder = path.join(sshd.root, 'statements');
        await mkdir(folder);
        const { body: pickup } = await callApi<{ id: string }>(
          api,
          'POST',
          `/connections/${connection.id}/pickups`,
          { path: folder, pattern: '*.xml', intervalMinutes: 600, datasetId: bank, afterImport: 'delete' },
          [201],
        );
        const results: Trial[] = [];
        for (let trial = 0; trial < trials; trial += 1) {
          const day = `2026-${String(trial + 1).padStart(2, '0')}-15`;
          const amount = (index: number) => `${100 + index}.${String(index % 100).padStart(2, '0')}`;
          await ingest(
            api,
            ledger!,
            Array.from({ length: count }, (_, index) => ({
              externalId: `ledger-${trial}-${index}`,
              timestamp: Date.parse(`${day}T12:00:00Z`),
              description: `payment ${index}`,
              reference: `P${trial}-${index}`,
              currency: 'EUR',
              amount: amount(index),
            })),
          );
          await runsSettled(bench, api.orgId);
          const statement = camt053Statement({
            id: `BENCH-${trial}`,
            iban: IBAN,
            currency: 'EUR',
            opening: { amount: '0.00', date: day },
            closingDate: day,
            entries: Array.from({ length: count }, (_, index) => ({
              reference: `P${trial}-${index}`,
              amount: amount(index),
              date: day,
              text: `Payment ${index}`,
            })),
          });
          // The payer's end-to-end reference, which the import takes as the entry's reference, is the ledger line's.
          const withReferences = statement.replace(
            /<AcctSvcrRef>([^<]+)<\/AcctSvcrRef>([\s\S]*?)<TxDtls>/g,
            '<AcctSvcrRef>$1</AcctSvcrRef>$2<TxDtls><Refs><EndToEndId>$1</EndToEndId></Refs>',
          );
          await writeFile(path.join(folder, `statement-${trial}.xml`), withReferences);
          const appeared = performance.now();
          const { body: run } = await callApi<{ id: string }>(api, 'POST', `/connections/${connection.id}/pickups/${pickup.id}/run`, undefined, [202]);
          const expected = (trial + 1) * count;
          for (;;) {
            const { rows } = await bench.client.query<{ full: number }>(
              `SELECT count(*)::integer AS full FROM transactions WHERE dataset_id = $1 AND reconciliation_status = 'full'`,
              [bank],
            );
            if (rows[0]!.full === expected) break;
            if (performance.now() - appeared > 120_000) {
              const seen = await bench.client.query('SELECT status, error, files FROM pickup_runs WHERE id = $1', [run.id]);
              const stored = await bench.client.query(
                'SELECT reconciliation_status AS status, count(*)::integer AS count FROM transactions WHERE dataset_id = $1 GROUP BY 1',
                [bank],
              );
              throw new Error(
                `pickup latency: only ${rows[0]!.full} of ${expected} matched after 120 s; the run: ${JSON.stringify(seen.rows[0])}; the bank: ${JSON.stringify(stored.rows)}`,
              );
            }
            await new Promise((resolve) => setTimeout(resolve, 2));
          }
          const seconds = (performance.now() - appeared) / 1000;
          const { rows } = await bench.client.query<{ created: Date; started: Date; finished: Date; files: Array<{ outcome: string }> }>(
            'SELECT created_at AS created, started_at AS started, finished_at AS finished, files FROM pickup_runs WHERE id = $1',
            [run.id],
          );
          const record = rows[0]!;
          if (record.files.map((file) => file.outcome).join() !== 'imported')
            throw new Error(`pickup latency: the run did not import the file: ${JSON.stringify(record.files)}`);
          const measured: Trial = {
            seconds,
            queuedMilliseconds: record.started.getTime() - record.created.getTime(),
            runMilliseconds: record.finished.getTime() - record.started.getTime(),
            matchMilliseconds: Math.max(0, seconds * 1000 - (record.finished.getTime() - record.created.getTime())),
          };
          log(`  pickup latency: trial ${trial + 1}: ${seconds.toFixed(3)} s (${JSON.stringify(measured)})`);
          results.push(measured);
          await runsSettled(bench, api.orgId);
        }
        const pick = (key: keyof Trial) => median(results.map((trial) => trial[key]));
        return [
          {
            scenario:
              `SFTP file to matched, ${count} entries, settle ${settleSeconds} s (queued ${pick('queuedMilliseconds')} ms, ` +
              `run ${pick('runMilliseconds')} ms, then matched ${Math.round(pick('matchMilliseconds'))} ms)`,
            baseline: '-',
            measured: format(pick('seconds') * 1000, 'ms'),
            ratio: '-',
            target: `<= settle + 2 s`,
            verdict: pick('seconds') <= settleSeconds + 2 ? 'PASS' : 'FAIL',
          },
        ];
      },
      'bench_ledger_recon_pickup_latency',
      { SECRET_ENCRYPTION_KEY: randomBytes(32).toString('base64'), CONNECTOR_SETTLE_SECONDS: String(settleSeconds) },
    );
  } finally {
    await sshd.stop();
  }
}
