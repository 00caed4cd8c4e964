import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, it } from 'node:test';
import { openTestStore, storeKinds } from '../support/harness.ts';
import { demoFromBanner, demoToken, exitCode, freePort, serve } from '../support/processes.ts';

/** Rows of the file killed mid-import: enough for the import to take seconds on either store. */
const ROWS = 200_000;

function largeCsv(): string {
  const lines = ['timestamp,description,amount,currency,reference'];
  for (let index = 0; index < ROWS; index++) {
    lines.push(`2024-0${(index % 9) + 1}-${String((index % 28) + 1).padStart(2, '0')},Payment ${index} for invoice INV-${100000 + index},${(index % 5000) + 1}.${String(index % 100).padStart(2, '0')},EUR,INV-${100000 + index}`);
  }
  return lines.join('\n') + '\n';
}

for (const kind of storeKinds()) {
  describe(`an import killed with SIGKILL (${kind})`, () => {
    it('leaves nothing of the file after restart; the import is failed; importing again imports it whole', async () => {
      const dataDirectory = mkdtempSync(path.join(tmpdir(), 'ledger-recon-crash-'));
      const store = kind === 'postgres' ? await openTestStore('postgres') : null;
      const port = await freePort();
      const environment: Record<string, string> = { DATA_DIR: dataDirectory, PORT: String(port), JOB_LEASE_SECONDS: '2' };
      if (store?.databaseUrl) environment.DATABASE_URL = store.databaseUrl;
      const baseUrl = `http://127.0.0.1:${port}`;
      const file = largeCsv();
      let server = await serve(environment);
      try {
        const demo = demoFromBanner(server.output());
        let token = await demoToken(baseUrl, demo);
        const api = async (method: string, route: string, body?: unknown) => {
          const response = await fetch(`${baseUrl}/v1/api/${demo.orgId}${route}`, {
            method,
            headers: { authorization: `Bearer ${token}`, ...(body ? { 'content-type': 'application/json' } : {}) },
            body: body ? JSON.stringify(body) : undefined,
          });
          return { status: response.status, body: (await response.json()) as any };
        };
        const sources = await api('GET', '/sources');
        const source = await api('POST', `/sources/${sources.body[0].id}/datasets`, { name: 'Crash test' });
        const datasetId = source.body.id as string;
        const importFile = () =>
          fetch(`${baseUrl}/v1/api/${demo.orgId}/datasets/${datasetId}/imports?fileName=big.csv`, {
            method: 'POST',
            headers: { authorization: `Bearer ${token}`, 'content-type': 'text/csv' },
            body: file,
          });

        const interrupted = importFile().then(
          (response) => response.status,
          () => 'connection lost',
        );
        if (kind === 'postgres') {
          // The rows read so far are visible to other requests: kill once the import is under way.
          const deadline = Date.now() + 60_000;
          for (;;) {
            const listed = await api('GET', `/imports?datasetId=${datasetId}`);
            if (listed.body.imports?.[0]?.rowsRead > 0) break;
            assert.ok(Date.now() < deadline, 'the import never started');
            await new Promise((resolve) => setTimeout(resolve, 50));
          }
        } else {
          // The embedded store serves one transaction at a time, so the list would wait for the
          // import; the import takes far longer than this.
          await new Promise((resolve) => setTimeout(resolve, 3_000));
        }
        server.child.kill('SIGKILL');
        await exitCode(server.child);
        assert.equal(await interrupted, 'connection lost');

        server = await serve(environment);
        token = await demoToken(baseUrl, demo);
        const rows = await api('POST', '/transactions', { datasetId, limit: 1 });
        assert.deepEqual(rows.body, [], 'nothing of the interrupted file is visible');
        // The interrupted import is settled as failed once its job's lease has run out.
        let failed: any;
        const deadline = Date.now() + 30_000;
        do {
          await new Promise((resolve) => setTimeout(resolve, 250));
          failed = (await api('GET', `/imports?datasetId=${datasetId}`)).body.imports[0];
        } while (failed.status === 'running' && Date.now() < deadline);
        assert.equal(failed.status, 'failed', JSON.stringify(failed));
        assert.match(failed.error.message, /server stopped while importing/);
        assert.equal(failed.inserted, 0);

        const again = await importFile();
        const report = (await again.json()) as any;
        assert.equal(again.status, 201, JSON.stringify(report).slice(0, 500));
        assert.equal(report.inserted, ROWS);
        const last = await api('POST', '/transactions', { datasetId, limit: 1, order: 'desc' });
        assert.equal(last.body.length, 1);
      } finally {
        server.child.kill('SIGKILL');
        await exitCode(server.child);
        await store?.drop();
        rmSync(dataDirectory, { recursive: true, force: true });
      }
    });
  });
}
