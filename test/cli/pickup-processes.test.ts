import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { mkdir, writeFile } from 'node:fs/promises';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, it } from 'node:test';
import { openTestStore, postgresSkipReason } from '../../support/harness.ts';
import { demoFromBanner, demoToken, exitCode, freePort, serve } from '../../support/processes.ts';
import { startSshd } from '../../support/sshd.ts';
import { camt053Statement } from '../../support/statement-files.ts';
import { waitFor } from '../../support/wait.ts';

type Process = Awaited<ReturnType<typeof serve>> & { baseUrl: string };

interface PickupRun {
  id: string;
  trigger: string;
  status: string;
  error: string | null;
  files: Array<{ name: string; outcome: string; importId: string | null }>;
}

/**
 * Two server processes on one PostgreSQL database, both started with a pickup of a real OpenSSH
 * server due, and "run now" pressed on each at the same moment: every file is imported once.
 * The schedule queues the pickup once (one process takes the schedule's job, and one statement
 * moves the pickup to its next time); of the runs going at once, one holds the pickup and the
 * others end 'skipped', and a run that comes after finds the files already imported.
 */
describe('two server processes racing the schedule of an SFTP pickup', { skip: postgresSkipReason }, () => {
  it('imports each file once', async (t) => {
    const store = await openTestStore('postgres');
    const sshd = await startSshd();
    const dataDirectory = mkdtempSync(path.join(tmpdir(), 'ledger-recon-pickup-processes-'));
    const processes: Process[] = [];
    const ports = [await freePort(), await freePort()];
    const publicUrl = `http://127.0.0.1:${ports[0]}`;
    const environmentOf = (port: number): Record<string, string> => ({
      DATA_DIR: dataDirectory,
      PORT: String(port),
      PUBLIC_URL: publicUrl,
      DATABASE_URL: store.databaseUrl!,
      JOB_LEASE_SECONDS: '10',
      SECRET_ENCRYPTION_KEY: randomBytes(32).toString('base64'),
      // A run lists the folder twice, a second apart, and takes the files that held still.
      CONNECTOR_SETTLE_SECONDS: '1',
    });
    const environments = ports.map(environmentOf);
    // The processes seal and open the connection's key with the same key.
    environments[1]!.SECRET_ENCRYPTION_KEY = environments[0]!.SECRET_ENCRYPTION_KEY!;
    const stopAll = async () => {
      for (const running of processes.splice(0)) {
        running.child.kill('SIGKILL');
        await exitCode(running.child);
      }
    };
    try {
      // The first process seeds the demo; the pickup is made through it, switched off.
      const first = await serve(environments[0]!);
      processes.push({ ...first, baseUrl: publicUrl });
      const demo = demoFromBanner(first.output());
      const token = await demoToken(publicUrl, demo);
      const call = async (index: number, method: string, route: string, body?: unknown) => {
        const response = await fetch(`${processes[index]!.baseUrl}/v1/api/${demo.orgId}${route}`, {
          method,
          headers: { authorization: `Bearer ${token}`, ...(body !== undefined ? { 'content-type': 'application/json' } : {}) },
          body: body === undefined ? undefined : JSON.stringify(body),
        });
        const answer = { status: response.status, body: (await response.json().catch(() => null)) as any };
        assert.ok(answer.status < 300, `${method} ${route}: ${answer.status} ${JSON.stringify(answer.body)}`);
        return answer.body;
      };
      const iban = 'IT60X0542811101000000123456';
      const source = await call(0, 'POST', '/sources', { name: 'Race bank' });
      const dataset = await call(0, 'POST', `/sources/${source.id}/datasets`, { name: 'Race account', columns: [] });
      await call(0, 'PATCH', `/datasets/${dataset.id}`, { accountId: iban });
      const connection = await call(0, 'POST', '/connections', {
        name: 'Bank SFTP',
        kind: 'sftp',
        host: sshd.host,
        port: sshd.port,
        username: sshd.username,
        authMethod: 'generated_key',
      });
      await sshd.authorize(connection.publicKey);
      await call(0, 'PATCH', `/connections/${connection.id}`, { hostKeyFingerprint: sshd.fingerprint });
      const out = path.join(sshd.root, 'race');
      await mkdir(out);
      const pickup = await call(0, 'POST', `/connections/${connection.id}/pickups`, {
        path: out,
        pattern: '*.xml',
        intervalMinutes: 600,
        routeByAccount: true,
        afterImport: 'leave',
        enabled: false,
      });
      const entriesPerFile = 1_500;
      const names = ['race-1.xml', 'race-2.xml', 'race-3.xml'];
      for (const [number, name] of names.entries()) {
        await writeFile(
          path.join(out, name),
          camt053Statement({
            id: `RACE-${number}`,
            iban,
            currency: 'EUR',
            opening: { amount: '0.00', date: '2026-03-01' },
            closingDate: '2026-03-31',
            entries: Array.from({ length: entriesPerFile }, (_, index) => ({
              reference: `R${number}-${index}`,
              amount: '4.20',
              date: '2026-03-0' + String(number + 1),
              text: `Race ${number} ${index}`,
            })),
          }),
        );
      }
      await stopAll();

      // Both processes start with the pickup due and the schedule's check due.
      await store.database.query(`UPDATE pickups SET enabled = true, next_run_at = now() - interval '1 minute' WHERE id = $1`, [pickup.id]);
      await store.database.query(
        `UPDATE jobs SET status = 'completed', finished_at = now() - interval '1 hour', locked_by = NULL, lease_until = NULL WHERE kind = 'pickup-schedule'`,
      );
      const started = await Promise.all(environments.map((environment) => serve(environment)));
      started.forEach((running, index) => processes.push({ ...running, baseUrl: `http://127.0.0.1:${ports[index]}` }));
      // "Run now" on each process at the same moment.
      const manual = await Promise.all([0, 1].map((index) => call(index, 'POST', `/connections/${connection.id}/pickups/${pickup.id}/run`)));

      const runs: PickupRun[] = await waitFor(
        async () => {
          const listed: PickupRun[] = await call(1, 'GET', `/connections/${connection.id}/pickups/${pickup.id}/runs`);
          const scheduled = listed.filter((run) => run.trigger === 'schedule');
          return scheduled.length > 0 && listed.length >= 3 && listed.every((run) => !['queued', 'running'].includes(run.status)) ? listed : null;
        },
        'the scheduled run and both manual runs to end',
        90_000,
      );
      const summary = JSON.stringify(runs.map((run) => [run.trigger, run.status, run.error, run.files.map((file) => [file.name, file.outcome])]));
      t.diagnostic(`runs: ${summary}`);
      assert.equal(runs.filter((run) => run.trigger === 'schedule').length, 1, `the pickup was queued once by its schedule: ${summary}`);
      for (const run of manual) assert.ok(runs.some((listed) => listed.id === run.id));
      for (const run of runs) {
        assert.ok(['completed', 'skipped'].includes(run.status), summary);
        if (run.status === 'skipped') assert.match(run.error ?? '', /another run of this pickup was going on/);
      }
      const imported = runs.flatMap((run) => run.files.filter((file) => file.outcome === 'imported'));
      assert.deepEqual(imported.map((file) => file.name).sort(), names, `each file imported by one run: ${summary}`);
      const importIds = new Map(imported.map((file) => [file.name, file.importId]));
      for (const file of runs.flatMap((run) => run.files.filter((seen) => seen.outcome !== 'imported'))) {
        assert.ok(['already_imported', 'waiting'].includes(file.outcome), summary);
        if (file.outcome === 'already_imported') assert.equal(file.importId, importIds.get(file.name), summary);
      }
      const imports = (await call(0, 'GET', `/imports?datasetId=${dataset.id}&limit=200`)).imports;
      assert.equal(imports.length, names.length, JSON.stringify(imports));
      for (const record of imports) assert.deepEqual([record.status, record.inserted], ['completed', entriesPerFile]);
      const counted = await store.database.query<{ count: string }>('SELECT count(*) AS count FROM transactions WHERE dataset_id = $1', [dataset.id]);
      assert.equal(Number(counted[0]!.count), names.length * entriesPerFile);
    } finally {
      await stopAll();
      await sshd.stop();
      await store.drop();
      rmSync(dataDirectory, { recursive: true, force: true });
    }
  });
});
