import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { storeKinds } from '../../support/harness.ts';
import { startKillableServer } from '../../support/processes.ts';

/** Rows of the file killed mid-import: enough for the import to take seconds on either store. */
const ROWS = 200_000;
/** Bytes of the file killed while an asynchronous import stores it. */
const UPLOAD_BYTES = 96 * 1024 * 1024;

function largeCsv(): string {
  const lines = ['timestamp,description,amount,currency,reference'];
  for (let index = 0; index < ROWS; index++) {
    lines.push(
      `2024-0${(index % 9) + 1}-${String((index % 28) + 1).padStart(2, '0')},Payment ${index} for invoice INV-${100000 + index},${(index % 5000) + 1}.${String(index % 100).padStart(2, '0')},EUR,INV-${100000 + index}`,
    );
  }
  return lines.join('\n') + '\n';
}

for (const kind of storeKinds()) {
  describe(`an import killed with SIGKILL (${kind})`, () => {
    it('leaves nothing of the file after restart; the import is failed; importing again imports it whole', async () => {
      const server = await startKillableServer(kind);
      const { api } = server;
      const file = largeCsv();
      try {
        const sources = await api('GET', '/sources');
        const source = await api('POST', `/sources/${sources.body[0].id}/datasets`, { name: 'Crash test' });
        const datasetId = source.body.id as string;
        const importFile = () =>
          fetch(`${server.baseUrl}/v1/api/${server.demo.orgId}/datasets/${datasetId}/imports?fileName=big.csv`, {
            method: 'POST',
            headers: { authorization: `Bearer ${server.token()}`, 'content-type': 'text/csv' },
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
        await server.kill();
        assert.equal(await interrupted, 'connection lost');

        await server.restart();
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
        await server.close();
      }
    });

    it('fails an asynchronous import killed while its file was being stored, within the job lease, not an hour later', async () => {
      const server = await startKillableServer(kind);
      const { api } = server;
      try {
        const sources = await api('GET', '/sources');
        const datasetId = (await api('POST', `/sources/${sources.body[0].id}/datasets`, { name: 'Upload crash test' })).body.id as string;
        // Enough 1 MiB chunks for their storing to take a while on either store.
        const file = Buffer.alloc(UPLOAD_BYTES, 'Datum;Betrag\n01.03.2024;1,00\n');
        const upload = fetch(`${server.baseUrl}/v1/api/${server.demo.orgId}/datasets/${datasetId}/imports?fileName=big.csv`, {
          method: 'POST',
          headers: { authorization: `Bearer ${server.token()}`, 'content-type': 'text/csv', prefer: 'respond-async' },
          body: file,
        }).then(
          (response) => response.status,
          () => 'connection lost',
        );
        // The import is listed as soon as its file starts to be stored, and answered 202 once it is
        // all there: the process is killed in between.
        let listed: any;
        for (const deadline = Date.now() + 60_000; !listed;) {
          listed = (await api('GET', `/imports?datasetId=${datasetId}`)).body.imports?.[0];
          assert.ok(Date.now() < deadline, 'the import was never listed');
        }
        await server.kill();
        assert.equal(await upload, 'connection lost', 'the file was stored whole before the kill; the test needs a larger file');

        await server.restart();
        let current: any;
        const restarted = Date.now();
        do {
          await new Promise((resolve) => setTimeout(resolve, 250));
          current = (await api('GET', `/imports/${listed.id}`)).body;
        } while (current.status === 'running' && Date.now() - restarted < 30_000);
        assert.equal(current.status, 'failed', JSON.stringify(current));
        assert.equal(current.error.reason, 'upload');
        assert.match(current.error.message, /not stored whole/);
        assert.equal(current.rowsRead, 0);
      } finally {
        await server.close();
      }
    });
  });
}
