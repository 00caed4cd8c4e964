import assert from 'node:assert/strict';
import { Writable } from 'node:stream';
import { after, before, describe, it } from 'node:test';
import { api, createTestOrganization, startTestServer, storeKinds, type TestOrganization, type TestServer } from '../../support/harness.ts';

/**
 * How an import fails, whatever the way: its error has one shape in every answer (the file's
 * error, a mapping's, a job that died, an upload cut short), the history of imports never breaks
 * on one, and the failure is recorded even when its first recording fails.
 */

const ERROR_KEYS = ['column', 'line', 'message', 'reason', 'xmlPath'];

/** An MT940 statement whose second :61: line (line 7) has no valid date. */
const MALFORMED_MT940 = [
  ':20:STMT00004',
  ':25:NL91ABNA0417164300',
  ':28C:00004/1',
  ':60F:C240301EUR0,00',
  ':61:2403010301C1,00NTRFOK1',
  ':86:fine',
  ':61:2403XX0301C2,00NTRFOK2',
  ':86:fine',
  ':62F:C240301EUR3,00',
  '-',
  '',
].join('\r\n');

for (const kind of storeKinds()) {
  describe(`import failures (${kind})`, () => {
    let server: TestServer;
    let organization: TestOrganization;
    let base: string;
    let sourceId: string;
    let log = '';

    before(async () => {
      const logStream = new Writable({
        write(chunk, _encoding, done) {
          log += chunk.toString();
          done();
        },
      });
      server = await startTestServer(kind, {}, { logStream });
      organization = await createTestOrganization(server);
      base = `/v1/api/${organization.orgId}`;
      sourceId = (await api(server, organization.token, 'POST', `${base}/sources`, { name: 'Failures bank' })).body.id;
    });
    after(async () => server.close());

    async function newDataset(): Promise<string> {
      const created = await api(server, organization.token, 'POST', `${base}/sources/${sourceId}/datasets`, { name: `Statement ${Math.random()}` });
      assert.equal(created.status, 201, JSON.stringify(created.body));
      return created.body.id;
    }

    async function send(datasetId: string, body: string | Uint8Array, options: { query?: string; headers?: Record<string, string> } = {}) {
      const response = await fetch(`${server.baseUrl}${base}/datasets/${datasetId}/imports${options.query ?? ''}`, {
        method: 'POST',
        headers: { authorization: `Bearer ${organization.token}`, 'content-type': 'application/octet-stream', ...options.headers },
        body,
      });
      return { status: response.status, body: (await response.json()) as any };
    }

    /** The import as each of the three readings of the history shows it; each must answer 200. */
    async function everyReading(datasetId: string, importId: string) {
      const one = await api(server, organization.token, 'GET', `${base}/imports/${importId}`);
      assert.equal(one.status, 200, JSON.stringify(one.body));
      const ofDataset = await api(server, organization.token, 'GET', `${base}/imports?datasetId=${datasetId}`);
      assert.equal(ofDataset.status, 200, JSON.stringify(ofDataset.body));
      const all = await api(server, organization.token, 'GET', `${base}/imports?limit=200`);
      assert.equal(all.status, 200, JSON.stringify(all.body));
      const listed = ofDataset.body.imports.find((entry: any) => entry.id === importId);
      assert.deepEqual(listed, one.body);
      assert.deepEqual(
        all.body.imports.find((entry: any) => entry.id === importId),
        one.body,
      );
      return one.body;
    }

    it('keeps the history readable when the job of an asynchronous import fails for good (the reproduction of issue 20)', async () => {
      const datasetId = await newDataset();
      const accepted = await send(datasetId, 'timestamp,amount,currency\n2024-03-01,1.00,EUR\n', {
        headers: { prefer: 'respond-async', 'content-type': 'text/csv' },
      });
      assert.equal(accepted.status, 202, JSON.stringify(accepted.body));
      const importId = accepted.body.id as string;
      // Whatever the job did meanwhile, the import is made to look as if its process died.
      let current = accepted.body;
      for (const deadline = Date.now() + 30_000; current.status === 'running' && Date.now() < deadline;) {
        await new Promise((resolve) => setTimeout(resolve, 100));
        current = (await api(server, organization.token, 'GET', `${base}/imports/${importId}`)).body;
      }
      await server.database.query(`UPDATE imports SET status = 'running', error = NULL WHERE id = $1`, [importId]);
      await server.database.query(`UPDATE jobs SET status = 'failed', last_error = 'the process died' WHERE id = (SELECT job_id FROM imports WHERE id = $1)`, [
        importId,
      ]);

      const failed = await everyReading(datasetId, importId);
      assert.equal(failed.status, 'failed');
      assert.deepEqual(Object.keys(failed.error).sort(), ERROR_KEYS);
      assert.equal(failed.error.reason, 'interrupted');
      assert.match(failed.error.message, /send the file again/);
      assert.doesNotMatch(failed.error.message, /process died/, "the job's own words are not shown to people");
    });

    /** The dataset's newest import (the one just refused), as every reading shows it, and the dataset's count of failed imports. */
    async function failedImport(datasetId: string) {
      const importId = (await api(server, organization.token, 'GET', `${base}/imports?datasetId=${datasetId}&limit=1`)).body.imports[0].id as string;
      const record = await everyReading(datasetId, importId);
      const sources = await api(server, organization.token, 'GET', `${base}/sources`);
      const dataset = sources.body.flatMap((source: any) => source.datasets).find((candidate: any) => candidate.id === datasetId);
      return { record, failures: dataset.failures as number };
    }

    it('records every way the importer fails in the one shape', async () => {
      const datasetId = await newDataset();
      const cases: [string | Uint8Array, number, string, number | null][] = [
        [MALFORMED_MT940, 422, 'file', 7],
        // A CSV whose header does not name the dataset's columns, sent without a mapping.
        ['Datum;Betrag\n01.03.2024;1,00\n', 400, 'refused', null],
        // A ZIP archive is no statement.
        [new Uint8Array([0x50, 0x4b, 0x03, 0x04, 0x14, 0, 0, 0, 8, 0]), 415, 'refused', null],
      ];
      for (const [index, [body, status, reason, line]] of cases.entries()) {
        const answer = await send(datasetId, body);
        assert.equal(answer.status, status, JSON.stringify(answer.body));
        const { record, failures } = await failedImport(datasetId);
        assert.equal(record.status, 'failed');
        assert.deepEqual(Object.keys(record.error).sort(), ERROR_KEYS);
        assert.equal(record.error.reason, reason, JSON.stringify(record.error));
        assert.equal(record.error.line, line);
        assert.equal(failures, index + 1);
      }
    });

    /**
     * Runs `work` while the store refuses the writes (`UPDATE` unless said) of `table` that meet
     * `condition` with the SQLSTATE given: a real refusal of the database, raised by a trigger of
     * this test. `nextval('test_refusals')` in the condition counts the refusals.
     */
    async function whileStoreRefuses(
      table: 'imports' | 'datasets' | 'import_file_chunks',
      condition: string,
      sqlState: string,
      work: () => Promise<void>,
      statement: 'UPDATE' | 'INSERT' = 'UPDATE',
    ) {
      await server.database.query('CREATE SEQUENCE test_refusals');
      await server.database.query(`CREATE FUNCTION test_refusal() RETURNS trigger LANGUAGE plpgsql AS $$
        BEGIN
          IF ${condition} THEN
            RAISE EXCEPTION 'refused by the test' USING ERRCODE = '${sqlState}';
          END IF;
          RETURN NEW;
        END $$`);
      await server.database.query(`CREATE TRIGGER test_refusal BEFORE ${statement} ON ${table} FOR EACH ROW EXECUTE FUNCTION test_refusal()`);
      try {
        await work();
      } finally {
        await server.database.query(`DROP TRIGGER test_refusal ON ${table}`);
        await server.database.query('DROP FUNCTION test_refusal()');
        await server.database.query('DROP SEQUENCE test_refusals');
      }
    }

    it('records a failure even when the database refuses the first attempts to record it', async () => {
      // The database is busy twice when the failure is recorded (a statement timeout): the importer tries again.
      await whileStoreRefuses('imports', "NEW.status = 'failed' AND nextval('test_refusals') <= 2", '57014', async () => {
        const datasetId = await newDataset();
        const answer = await send(datasetId, MALFORMED_MT940);
        assert.equal(answer.status, 422, JSON.stringify(answer.body));
        const { record, failures } = await failedImport(datasetId);
        assert.deepEqual(
          { reason: record.error.reason, line: record.error.line },
          { reason: 'file', line: 7 },
          "the import's own error is recorded, not a stand-in",
        );
        assert.equal(failures, 1);
        assert.equal((await server.database.query<{ value: number }>('SELECT last_value::int AS value FROM test_refusals'))[0]!.value, 3);
      });
    });

    it("logs what it could not record, and still records the import's own error", async () => {
      // The dataset's count of failures cannot be written at all (its row stays locked).
      await whileStoreRefuses('datasets', 'NEW.failures <> OLD.failures', '55P03', async () => {
        const datasetId = await newDataset();
        log = '';
        const answer = await send(datasetId, MALFORMED_MT940);
        assert.equal(answer.status, 422, JSON.stringify(answer.body));
        const { record, failures } = await failedImport(datasetId);
        assert.deepEqual({ status: record.status, reason: record.error.reason, line: record.error.line }, { status: 'failed', reason: 'file', line: 7 });
        assert.equal(failures, 0);
        const entry = log
          .split('\n')
          .filter((line) => line !== '')
          .map((line) => JSON.parse(line))
          .find((candidate) => candidate.importId === record.id);
        assert.ok(entry, `the log says nothing of import ${record.id}:\n${log}`);
        assert.match(entry.msg, /failures could not be counted/);
        assert.equal(entry.err.code, '55P03');
        assert.equal(entry.level, 50);
      });
    });

    it('fails an asynchronous import whose file could not be stored at once, instead of leaving it running', async () => {
      // The second of the file's 1 MiB chunks cannot be stored.
      await whileStoreRefuses(
        'import_file_chunks',
        'NEW.ordinal = 1',
        '57014',
        async () => {
          const datasetId = await newDataset();
          const file = `timestamp,amount,currency\n${'2024-03-01,1.00,EUR\n'.repeat(80_000)}`;
          const answer = await send(datasetId, file, { headers: { prefer: 'respond-async', 'content-type': 'text/csv' } });
          assert.equal(answer.status, 503, JSON.stringify(answer.body));
          let record: any;
          for (const deadline = Date.now() + 20_000; Date.now() < deadline;) {
            record = (await api(server, organization.token, 'GET', `${base}/imports?datasetId=${datasetId}`)).body.imports[0];
            if (record?.status !== 'running') break;
            await new Promise((resolve) => setTimeout(resolve, 100));
          }
          assert.equal(record.status, 'failed', JSON.stringify(record));
          assert.equal(record.error.reason, 'upload');
          assert.equal(record.inserted, 0);
          assert.equal((await failedImport(datasetId)).failures, 1, 'counted on its dataset like any failed import');
        },
        'INSERT',
      );
    });

    it('answers 503 to a file imported at once when the process stops in the middle, stores nothing of it, and lists the import as interrupted', async () => {
      const datasetId = await newDataset();
      const file = `timestamp,amount,currency\n${'2024-03-01,1.00,EUR\n'.repeat(300_000)}`;
      const answering = send(datasetId, file, { headers: { 'content-type': 'text/csv' } });
      // Seen in the process, not through the API: on the embedded store a read waits for the import's transaction.
      let record: any;
      for (const deadline = Date.now() + 60_000; Date.now() < deadline && !(record?.rowsRead > 0);) {
        record = server.services.imports.progress.runningIn(organization.orgId).find((running) => running.datasetId === datasetId);
        if (!(record?.rowsRead > 0)) await new Promise((resolve) => setTimeout(resolve, 10));
      }
      assert.ok(record?.rowsRead > 0, 'the import was seen under way');
      // The process stops (SIGTERM does this): its running jobs are interrupted and roll back.
      await server.services.jobs.stop();
      const answer = await answering;
      await server.services.jobs.start();
      assert.equal(answer.status, 503, JSON.stringify(answer.body));
      assert.match(answer.body.error.message, /nothing of the file was stored; send the file again/);
      const settled = await everyReading(datasetId, record.id);
      assert.equal(settled.status, 'failed', JSON.stringify(settled));
      assert.equal(settled.error.reason, 'interrupted');
      assert.equal(settled.inserted, 0);
      const rows = await server.database.query<{ count: string }>('SELECT count(*) AS count FROM transactions WHERE dataset_id = $1', [datasetId]);
      assert.equal(Number(rows[0]!.count), 0);
    });

    it('answers bytes that are not valid in the encoding with the same 422 from the preview as from the import', async () => {
      const datasetId = await newDataset();
      const cases: [string, Uint8Array][] = [
        ['utf-8', new Uint8Array([...Buffer.from('timestamp,amount\n2024-03-01,1.00\n2024-03-02,'), 0xff, 0xfe, ...Buffer.from('\n')])],
        // An odd number of bytes cannot be UTF-16 (the byte-order mark tells the import what the file is).
        ['utf-16le', new Uint8Array([0xff, 0xfe, ...Buffer.from('timestamp,amount\n2024-03-01,1.00\n', 'utf16le'), 0x41])],
      ];
      for (const [encoding, bytes] of cases) {
        for (const multipart of [false, true]) {
          const request = (operation: 'imports' | 'imports/preview') => {
            const body = new FormData();
            body.append('file', new Blob([bytes]), 'statement.csv');
            return fetch(`${server.baseUrl}${base}/datasets/${datasetId}/${operation}?encoding=${encoding}`, {
              method: 'POST',
              headers: { authorization: `Bearer ${organization.token}`, ...(multipart ? {} : { 'content-type': 'text/csv' }) },
              body: multipart ? body : bytes,
            });
          };
          const previewed = await request('imports/preview');
          const previewBody = (await previewed.json()) as any;
          const imported = await request('imports');
          const importBody = (await imported.json()) as any;
          const label = `${encoding}${multipart ? ' (multipart)' : ''}`;
          assert.equal(previewed.status, 422, `${label}: ${JSON.stringify(previewBody)}`);
          assert.equal(imported.status, 422, `${label}: ${JSON.stringify(importBody)}`);
          assert.match(previewBody.error.message, new RegExp(`^the file cannot be previewed: line \\d+: found bytes that are not valid ${encoding}`));
          assert.deepEqual(previewBody.error.details, importBody.error.details, label);
          assert.deepEqual(previewBody.error.details[0].path, '/file');
        }
      }
    });

    it('answers a multipart body the parser cannot read, or with parts an import does not take, with a 400 from the import and the preview', async () => {
      const datasetId = await newDataset();
      const cut = '--fuzz\r\nContent-Disposition: form-data; name="file"; filename="a.csv"\r\n\r\ntimestamp,amount\n';
      for (const [contentType, body] of [
        ['multipart/form-data', cut],
        ['multipart/form-data; boundary=fuzz', cut],
        ['multipart/form-data; boundary=fuzz', '--fuzz\r\nContent-Disposition: form-data; name="file"\r\n'],
      ]) {
        for (const operation of ['imports', 'imports/preview']) {
          const response = await fetch(`${server.baseUrl}${base}/datasets/${datasetId}/${operation}`, {
            method: 'POST',
            headers: { authorization: `Bearer ${organization.token}`, 'content-type': contentType! },
            body,
          });
          const answer = (await response.json()) as any;
          assert.equal(response.status, 400, `${operation} ${contentType}: ${JSON.stringify(answer)}`);
          assert.match(answer.error.message, /multipart/);
        }
      }
      // Parts the form should not have are named, with what to send instead.
      const file = 'Content-Disposition: form-data; name="file"; filename="a.csv"\r\n\r\ntimestamp,amount\n2024-03-01,1.00\n\r\n';
      for (const [body, path] of [
        [`--b\r\n${file}--b\r\n${file}--b--\r\n`, '/file'],
        [`--b\r\nContent-Disposition: form-data; name="mapping"\r\nContent-Type: application/json\r\n\r\n{"columns":\r\n--b\r\n${file}--b--\r\n`, '/mapping'],
      ]) {
        for (const operation of ['imports', 'imports/preview']) {
          const response = await fetch(`${server.baseUrl}${base}/datasets/${datasetId}/${operation}`, {
            method: 'POST',
            headers: { authorization: `Bearer ${organization.token}`, 'content-type': 'multipart/form-data; boundary=b' },
            body,
          });
          const answer = (await response.json()) as any;
          assert.equal(response.status, 400, `${operation} ${path}: ${JSON.stringify(answer)}`);
          assert.equal(answer.error.details[0].path, path, JSON.stringify(answer));
        }
      }
      // The form is refused whole: not even its first file was imported.
      assert.deepEqual((await api(server, organization.token, 'GET', `${base}/imports?datasetId=${datasetId}`)).body.imports, []);
    });

    /** A CSV whose header names the dataset's columns, in UTF-8, whose byte `cut - 1` is the first of the two bytes of an "é". */
    function csvCutInsideCharacter(cut: number): Buffer {
      const row = '2024-03-01,payment,1.00,EUR\n';
      let text = 'timestamp,description,amount,currency\n';
      text += row.repeat(Math.floor((cut - 200 - text.length) / row.length));
      const padding = cut - 1 - text.length - '2024-03-01,'.length;
      text += `2024-03-01,${'x'.repeat(padding)}é,1.00,EUR\n${row.repeat(10)}`;
      const bytes = Buffer.from(text);
      assert.equal(bytes[cut - 1], 0xc3, 'the head ends inside "é"');
      return bytes;
    }

    it('imports a CSV without a mapping whose header is read from a head that ends inside a character', async () => {
      const datasetId = await newDataset();
      // The importer reads the header from the first 64 KiB.
      const answer = await send(datasetId, csvCutInsideCharacter(64 * 1024), { headers: { 'content-type': 'text/csv' } });
      assert.equal(answer.status, 201, JSON.stringify(answer.body).slice(0, 500));
      assert.equal(answer.body.encoding, 'utf-8');
    });

    it('previews the first megabyte of a larger file even when it ends inside a character', async () => {
      const datasetId = await newDataset();
      const bytes = csvCutInsideCharacter(1024 * 1024);
      const answer = await fetch(`${server.baseUrl}${base}/datasets/${datasetId}/imports/preview?encoding=utf-8`, {
        method: 'POST',
        headers: { authorization: `Bearer ${organization.token}`, 'content-type': 'text/csv' },
        body: bytes,
      });
      const body = (await answer.json()) as any;
      assert.equal(answer.status, 200, JSON.stringify(body).slice(0, 500));
      assert.equal(body.encoding, 'utf-8');
      assert.deepEqual(body.columns, ['timestamp', 'description', 'amount', 'currency']);
    });
  });
}
