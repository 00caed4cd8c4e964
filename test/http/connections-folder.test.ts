import { randomUUID } from 'node:crypto';
import assert from 'node:assert/strict';
import { mkdir, mkdtemp, readdir, rm, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { markListedTooLarge } from '../../src/db/repositories/connections.ts';
import { api, createTestOrganization, startTestServer, storeKinds, type TestOrganization, type TestServer } from '../../support/harness.ts';
import { camt053Statement, DOLLAR_STATEMENT, EURO_STATEMENT } from '../../support/statement-files.ts';
import { waitFor } from '../../support/wait.ts';

for (const kind of storeKinds()) {
  describe(`connections: folder pickups (${kind})`, () => {
    let server: TestServer;
    let organization: TestOrganization;
    let base: string;
    let root: string;
    const call = async (method: string, url: string, body?: unknown, expected?: number) => {
      const response = await api(server, organization.token, method, `${base}${url}`, body);
      if (expected !== undefined) assert.equal(response.status, expected, `${method} ${url}: ${JSON.stringify(response.body)}`);
      return response;
    };
    const runPickup = async (connectionId: string, pickupId: string) => {
      const queued = await call('POST', `/connections/${connectionId}/pickups/${pickupId}/run`, undefined, 202);
      return waitFor(
        async () => {
          const run = (await call('GET', `/connections/${connectionId}/pickups/${pickupId}/runs/${queued.body.id}`, undefined, 200)).body;
          return ['queued', 'running'].includes(run.status) ? null : run;
        },
        'the pickup run to end',
        20_000,
      );
    };

    before(async () => {
      root = await mkdtemp(path.join(tmpdir(), 'connector-root-'));
      // No SECRET_ENCRYPTION_KEY: folder connections need none, and SFTP connections are refused.
      // A small import size limit: a file over it is judged from the listing, never fetched.
      server = await startTestServer(kind, { connectorFolderRoot: root, connectorSettleSeconds: 0, secretEncryptionKey: null, importMaxBytes: 64 * 1024 });
      organization = await createTestOrganization(server);
      base = `/v1/api/${organization.orgId}`;
    });
    after(async () => {
      await server?.close();
      await rm(root, { recursive: true, force: true });
    });

    it('reads only under CONNECTOR_FOLDER_ROOT, and refuses SFTP without SECRET_ENCRYPTION_KEY', async () => {
      const outside = await call('POST', '/connections', { name: 'Outside', kind: 'folder', folderPath: '../..' }, 400);
      assert.match(outside.body.error.message, /CONNECTOR_FOLDER_ROOT/);
      const missing = await call('POST', '/connections', { name: 'Missing', kind: 'folder', folderPath: 'nowhere' }, 400);
      assert.match(missing.body.error.message, /not a directory/);
      // The whole path, as people copy it, of the allowed directory or a folder in it.
      await mkdir(path.join(root, 'copied'), { recursive: true });
      for (const folderPath of [root, path.join(root, 'copied')]) {
        const whole = await call('POST', '/connections', { name: `Whole path ${folderPath}`, kind: 'folder', folderPath }, 201);
        await call('DELETE', `/connections/${whole.body.id}`, undefined, 204);
      }
      const elsewhere = await call('POST', '/connections', { name: 'Elsewhere', kind: 'folder', folderPath: path.dirname(root) }, 400);
      assert.match(elsewhere.body.error.message, /not a directory/);
      const sftp = await call(
        'POST',
        '/connections',
        { name: 'SFTP', kind: 'sftp', host: 'sftp.example.com', username: 'u', authMethod: 'generated_key' },
        409,
      );
      assert.equal(sftp.body.error.messageId, 'connections.encryptionKeyMissing');
      const mixed = await call('POST', '/connections', { name: 'Mixed', kind: 'folder', folderPath: '.', host: 'x' }, 400);
      assert.match(mixed.body.error.message, /not used by a folder connection/);
    });

    it('picks up a dropped file into one dataset, once, and moves it to the archive', async () => {
      await mkdir(path.join(root, 'bank', 'in'), { recursive: true });
      await mkdir(path.join(root, 'bank', 'done'), { recursive: true });
      const connection = (await call('POST', '/connections', { name: 'Shared folder', kind: 'folder', folderPath: 'bank' }, 201)).body;
      assert.equal(connection.publicKey, null);
      const source = await call('POST', '/sources', { name: 'Folder bank' }, 201);
      const dataset = (await call('POST', `/sources/${source.body.id}/datasets`, { name: 'Folder account', columns: [] }, 201)).body;
      const refusedArchive = await call(
        'POST',
        `/connections/${connection.id}/pickups`,
        { path: 'in', pattern: '*.xml', intervalMinutes: 5, datasetId: dataset.id, afterImport: 'move' },
        400,
      );
      assert.match(refusedArchive.body.error.message, /archivePath/);
      const pickup = (
        await call(
          'POST',
          `/connections/${connection.id}/pickups`,
          { path: 'in', pattern: '*.xml', intervalMinutes: 5, datasetId: dataset.id, afterImport: 'move', archivePath: 'done' },
          201,
        )
      ).body;
      assert.equal((await call('POST', `/connections/${connection.id}/test`, undefined, 200)).body.ok, true);
      await writeFile(path.join(root, 'bank', 'in', 'statement.xml'), EURO_STATEMENT);
      const first = await runPickup(connection.id, pickup.id);
      assert.deepEqual(
        first.files.map((file: { outcome: string }) => file.outcome),
        ['waiting'],
      );
      const second = await runPickup(connection.id, pickup.id);
      assert.equal(second.files[0].outcome, 'imported', JSON.stringify(second));
      assert.equal(second.files[0].datasetId, dataset.id);
      assert.deepEqual(await readdir(path.join(root, 'bank', 'in')), []);
      assert.deepEqual(await readdir(path.join(root, 'bank', 'done')), ['statement.xml']);
      // Dropped again under another name: already imported, archived beside the first.
      await writeFile(path.join(root, 'bank', 'in', 'statement-copy.xml'), EURO_STATEMENT);
      await runPickup(connection.id, pickup.id);
      const third = await runPickup(connection.id, pickup.id);
      assert.deepEqual(
        third.files.map((file: { outcome: string; importId: string }) => [file.outcome, file.importId]),
        [['already_imported', second.files[0].importId]],
      );
      const imports = (await call('GET', `/imports?datasetId=${dataset.id}`, undefined, 200)).body.imports;
      assert.equal(imports.length, 1);
      const runs = (await call('GET', `/connections/${connection.id}/pickups/${pickup.id}/runs`, undefined, 200)).body;
      assert.equal(runs.length, 4);
      assert.equal(runs[0].id, third.id, 'newest first');
    });

    it('keeps a file imported when its archive folder is missing, says why it stayed, and archives it once the folder exists', async () => {
      await mkdir(path.join(root, 'unarchived', 'in'), { recursive: true });
      const connection = (await call('POST', '/connections', { name: 'No archive yet', kind: 'folder', folderPath: 'unarchived' }, 201)).body;
      const source = await call('POST', '/sources', { name: 'Unarchived bank' }, 201);
      const dataset = (await call('POST', `/sources/${source.body.id}/datasets`, { name: 'Unarchived account', columns: [] }, 201)).body;
      const body = { path: 'in', pattern: '*.xml', intervalMinutes: 5, datasetId: dataset.id, afterImport: 'move', archivePath: 'done' };
      // A missing archive folder is refused when the pickup is saved ...
      const refused = await call('POST', `/connections/${connection.id}/pickups`, body, 400);
      assert.equal(refused.body.error.messageId, 'connections.pickupFolderMissing');
      assert.equal(refused.body.error.details[0].path, '/archivePath');
      const wrongFolder = await call(
        'POST',
        `/connections/${connection.id}/pickups`,
        { ...body, path: 'incoming', archivePath: null, afterImport: 'leave' },
        400,
      );
      assert.equal(wrongFolder.body.error.details[0].path, '/path');
      // ... and met after an import when it went away later.
      await mkdir(path.join(root, 'unarchived', 'done'));
      const pickup = (await call('POST', `/connections/${connection.id}/pickups`, body, 201)).body;
      await rm(path.join(root, 'unarchived', 'done'), { recursive: true });
      // Its archive folder gone, the pickup can still be paused and resumed; naming a missing folder anew is refused.
      await call('PATCH', `/connections/${connection.id}/pickups/${pickup.id}`, { enabled: false }, 200);
      await call('PATCH', `/connections/${connection.id}/pickups/${pickup.id}`, { enabled: true }, 200);
      await call('PATCH', `/connections/${connection.id}/pickups/${pickup.id}`, { archivePath: 'done' }, 400);
      await writeFile(path.join(root, 'unarchived', 'in', 'statement.xml'), DOLLAR_STATEMENT);
      await runPickup(connection.id, pickup.id);
      const imported = await runPickup(connection.id, pickup.id);
      assert.equal(imported.status, 'completed', JSON.stringify(imported));
      assert.equal(imported.files[0].outcome, 'imported', JSON.stringify(imported.files[0]));
      assert.equal(imported.files[0].afterImport, null);
      assert.match(
        imported.files[0].message,
        /^imported, but left where it is: the folder could not be used: moving in\/statement\.xml to done: it does not exist/,
      );
      assert.deepEqual(await readdir(path.join(root, 'unarchived', 'in')), ['statement.xml']);
      await mkdir(path.join(root, 'unarchived', 'done'));
      const archived = await runPickup(connection.id, pickup.id);
      assert.deepEqual(
        archived.files.map((file: { outcome: string; afterImport: string; importId: string }) => [file.outcome, file.afterImport, file.importId]),
        [['already_imported', 'moved', imported.files[0].importId]],
      );
      assert.deepEqual(await readdir(path.join(root, 'unarchived', 'done')), ['statement.xml']);
    });

    it("imports bytes already imported into another dataset into the pickup's own dataset", async () => {
      await mkdir(path.join(root, 'twice', 'a'), { recursive: true });
      await mkdir(path.join(root, 'twice', 'b'), { recursive: true });
      const connection = (await call('POST', '/connections', { name: 'Two pickups', kind: 'folder', folderPath: 'twice' }, 201)).body;
      const source = await call('POST', '/sources', { name: 'Two datasets' }, 201);
      const imported = [];
      for (const folder of ['a', 'b']) {
        const dataset = (await call('POST', `/sources/${source.body.id}/datasets`, { name: `Account ${folder}`, columns: [] }, 201)).body;
        const pickup = (
          await call('POST', `/connections/${connection.id}/pickups`, { path: folder, pattern: '*.xml', intervalMinutes: 5, datasetId: dataset.id }, 201)
        ).body;
        await writeFile(path.join(root, 'twice', folder, 'statement.xml'), DOLLAR_STATEMENT);
        await runPickup(connection.id, pickup.id);
        const run = await runPickup(connection.id, pickup.id);
        assert.equal(run.files[0].outcome, 'imported', JSON.stringify(run.files[0]));
        assert.equal(run.files[0].datasetId, dataset.id);
        imported.push(run.files[0].importId);
      }
      assert.notEqual(imported[0], imported[1]);
    });

    it('records a file that fails to import with its error, and does not try the same bytes again', async () => {
      await mkdir(path.join(root, 'broken'), { recursive: true });
      const connection = (await call('POST', '/connections', { name: 'Broken', kind: 'folder', folderPath: 'broken' }, 201)).body;
      const source = await call('POST', '/sources', { name: 'Broken bank' }, 201);
      const dataset = (await call('POST', `/sources/${source.body.id}/datasets`, { name: 'Broken account', columns: [] }, 201)).body;
      const pickup = (await call('POST', `/connections/${connection.id}/pickups`, { path: '/', pattern: '*', intervalMinutes: 5, datasetId: dataset.id }, 201))
        .body;
      await writeFile(
        path.join(root, 'broken', 'bad.xml'),
        '<?xml version="1.0"?><Document xmlns="urn:iso:std:iso:20022:tech:xsd:camt.053.001.08"><BkToCstmrStmt>',
      );
      await runPickup(connection.id, pickup.id);
      const failed = await runPickup(connection.id, pickup.id);
      assert.equal(failed.status, 'completed');
      assert.equal(failed.files[0].outcome, 'failed');
      assert.match(failed.files[0].message, /; the same contents are not tried again: mend the file \(or the mapping\) and put it back under any name$/);
      assert.ok(failed.files[0].importId, 'the failed import is linked');
      const again = await runPickup(connection.id, pickup.id);
      assert.equal(again.files[0].outcome, 'failed');
      assert.match(again.files[0].message, /not tried again/);
      const imports = (await call('GET', `/imports?datasetId=${dataset.id}`, undefined, 200)).body.imports;
      assert.equal(imports.length, 1);
    });

    it('holds a file its target cannot take (a mapping not saved on the dataset), and imports it at the next run once it is', async () => {
      await mkdir(path.join(root, 'csv'), { recursive: true });
      const connection = (await call('POST', '/connections', { name: 'CSV drop', kind: 'folder', folderPath: 'csv' }, 201)).body;
      const source = await call('POST', '/sources', { name: 'CSV bank' }, 201);
      const dataset = (await call('POST', `/sources/${source.body.id}/datasets`, { name: 'CSV account', columns: [] }, 201)).body;
      const pickup = (
        await call(
          'POST',
          `/connections/${connection.id}/pickups`,
          { path: '/', pattern: '*.csv', intervalMinutes: 5, datasetId: dataset.id, format: 'csv', mappingName: 'Bank CSV' },
          201,
        )
      ).body;
      await writeFile(
        path.join(root, 'csv', 'ledger.csv'),
        ['Datum;Soll;Haben;Text;Beleg', '02.01.2024;12,50;;Papier;B-1', '03.01.2024;;1.200,00;Rechnung 17;B-2'].join('\n'),
      );
      await runPickup(connection.id, pickup.id);
      for (let attempt = 0; attempt < 2; attempt += 1) {
        const held = await runPickup(connection.id, pickup.id);
        assert.equal(held.files[0].outcome, 'held', JSON.stringify(held.files[0]));
        assert.match(held.files[0].message, /the dataset has no CSV mapping named "Bank CSV"; save a mapping under that name/);
        assert.doesNotMatch(held.files[0].message, /not tried again/);
      }
      assert.deepEqual((await call('GET', `/imports?datasetId=${dataset.id}`, undefined, 200)).body.imports, [], 'no failed import is recorded for it');
      await call(
        'PUT',
        `/datasets/${dataset.id}/import-mappings/Bank%20CSV`,
        {
          delimiter: ';',
          decimalSeparator: ',',
          thousandsSeparator: '.',
          dateFormat: 'DD.MM.YYYY',
          header: true,
          skipRows: 0,
          columns: { timestamp: 'Datum', description: 'Text', reference: 'Beleg' },
          amount: { debit: 'Soll', credit: 'Haben' },
          currency: 'EUR',
        },
        201,
      );
      const imported = await runPickup(connection.id, pickup.id);
      assert.equal(imported.files[0].outcome, 'imported', JSON.stringify(imported.files[0]));
      assert.equal((await call('GET', `/imports/${imported.files[0].importId}`, undefined, 200)).body.inserted, 2);
    });

    it('reports a file over the import size limit as failed with the limit in words, from its listing, at every run until it changes', async () => {
      await mkdir(path.join(root, 'oversize'), { recursive: true });
      const connection = (await call('POST', '/connections', { name: 'Oversize', kind: 'folder', folderPath: 'oversize' }, 201)).body;
      const source = await call('POST', '/sources', { name: 'Oversize bank' }, 201);
      const dataset = (await call('POST', `/sources/${source.body.id}/datasets`, { name: 'Oversize account', columns: [] }, 201)).body;
      const pickup = (
        await call('POST', `/connections/${connection.id}/pickups`, { path: '/', pattern: '*.xml', intervalMinutes: 5, datasetId: dataset.id }, 201)
      ).body;
      await writeFile(path.join(root, 'oversize', 'huge.xml'), Buffer.alloc(1536 * 1024, 0x20));
      await writeFile(path.join(root, 'oversize', 'small.xml'), EURO_STATEMENT);
      await runPickup(connection.id, pickup.id);
      for (let attempt = 0; attempt < 2; attempt += 1) {
        const run = await runPickup(connection.id, pickup.id);
        assert.equal(run.status, 'completed');
        const huge = run.files.find((file: { name: string }) => file.name === 'huge.xml');
        assert.equal(huge.outcome, 'failed');
        assert.equal(huge.sizeBytes, 1536 * 1024);
        assert.match(huge.message, /^the file is 1\.5 MB, more than 64 KB, the most an import takes \(IMPORT_MAX_BYTES\); it is not fetched again/);
        assert.equal(huge.importId, null);
        assert.equal(run.files.find((file: { name: string }) => file.name === 'small.xml').outcome, attempt === 0 ? 'imported' : 'already_imported');
      }
      assert.equal((await call('GET', `/imports?datasetId=${dataset.id}`, undefined, 200)).body.imports.length, 1, 'only the small file was imported');
      // Cut down to size by the sender: taken once it holds still.
      const cut = camt053Statement({
        id: 'CUT-1',
        iban: 'DE89370400440532013000',
        currency: 'EUR',
        opening: { amount: '0.00', date: '2026-07-01' },
        closingDate: '2026-07-31',
        entries: [{ reference: 'C1', amount: '3.00', date: '2026-07-02', text: 'Cut down' }],
      });
      await writeFile(path.join(root, 'oversize', 'huge.xml'), cut);
      await runPickup(connection.id, pickup.id);
      const taken = await runPickup(connection.id, pickup.id);
      assert.equal(taken.files.find((file: { name: string }) => file.name === 'huge.xml').outcome, 'imported', JSON.stringify(taken.files));
    });

    it('remembers a file an earlier download found over the limit by its name, size and time, and does not fetch it again until one changes', async () => {
      await mkdir(path.join(root, 'remembered'), { recursive: true });
      const connection = (await call('POST', '/connections', { name: 'Remembered', kind: 'folder', folderPath: 'remembered' }, 201)).body;
      const source = await call('POST', '/sources', { name: 'Remembered bank' }, 201);
      const dataset = (await call('POST', `/sources/${source.body.id}/datasets`, { name: 'Remembered account', columns: [] }, 201)).body;
      const pickup = (
        await call('POST', `/connections/${connection.id}/pickups`, { path: '/', pattern: '*.xml', intervalMinutes: 5, datasetId: dataset.id }, 201)
      ).body;
      const file = path.join(root, 'remembered', 'listed-small.xml');
      await writeFile(file, DOLLAR_STATEMENT);
      assert.equal((await runPickup(connection.id, pickup.id)).files[0].outcome, 'waiting');
      // What a download that found more bytes than the server listed records (a server listing sizes wrongly).
      await markListedTooLarge(server.database, organization.orgId, pickup.id, 'listed-small.xml');
      for (let attempt = 0; attempt < 2; attempt += 1) {
        const run = await runPickup(connection.id, pickup.id);
        assert.equal(run.files[0].outcome, 'failed', 'fetched, the file would have imported');
        assert.match(run.files[0].message, /^the file is larger than 64 KB, the most an import takes/);
      }
      // Written again by the sender: another time, fetched again once it holds still.
      await utimes(file, new Date(), new Date(Date.now() + 5_000));
      assert.equal((await runPickup(connection.id, pickup.id)).files[0].outcome, 'waiting');
      assert.equal((await runPickup(connection.id, pickup.id)).files[0].outcome, 'imported');
    });

    it('with a ready marker takes a file only once file.xml.done is beside it, never imports the marker, and archives both', async () => {
      await mkdir(path.join(root, 'marked', 'in'), { recursive: true });
      await mkdir(path.join(root, 'marked', 'done'), { recursive: true });
      const connection = (await call('POST', '/connections', { name: 'Marked', kind: 'folder', folderPath: 'marked' }, 201)).body;
      const source = await call('POST', '/sources', { name: 'Marked bank' }, 201);
      const dataset = (await call('POST', `/sources/${source.body.id}/datasets`, { name: 'Marked account', columns: [] }, 201)).body;
      const refused = await call(
        'POST',
        `/connections/${connection.id}/pickups`,
        { path: 'in', pattern: '*', intervalMinutes: 5, datasetId: dataset.id, readyMarker: '../x' },
        400,
      );
      assert.match(JSON.stringify(refused.body), /readyMarker/);
      // The pattern * fits the markers too: they are still never imported.
      const pickup = (
        await call(
          'POST',
          `/connections/${connection.id}/pickups`,
          { path: 'in', pattern: '*', intervalMinutes: 5, datasetId: dataset.id, readyMarker: '.done', afterImport: 'move', archivePath: 'done' },
          201,
        )
      ).body;
      assert.equal(pickup.readyMarker, '.done');
      await writeFile(path.join(root, 'marked', 'in', 'statement.xml'), EURO_STATEMENT);
      await writeFile(path.join(root, 'marked', 'in', 'orphan.xml.done'), '');
      const unmarked = await runPickup(connection.id, pickup.id);
      assert.deepEqual(
        unmarked.files.map((file: { name: string; outcome: string }) => [file.name, file.outcome]),
        [['statement.xml', 'waiting']],
      );
      assert.match(unmarked.files[0].message, /marker statement\.xml\.done/);
      // Its size and time held still between two looks: without its marker it still waits.
      assert.equal((await runPickup(connection.id, pickup.id)).files[0].outcome, 'waiting');
      await writeFile(path.join(root, 'marked', 'in', 'statement.xml.done'), '');
      const marked = await runPickup(connection.id, pickup.id);
      assert.deepEqual(
        marked.files.map((file: { name: string; outcome: string; afterImport: string }) => [file.name, file.outcome, file.afterImport]),
        [['statement.xml', 'imported', 'moved']],
        JSON.stringify(marked),
      );
      assert.deepEqual(await readdir(path.join(root, 'marked', 'in')), ['orphan.xml.done']);
      assert.deepEqual((await readdir(path.join(root, 'marked', 'done'))).sort(), ['statement.xml', 'statement.xml.done']);
      const imports = (await call('GET', `/imports?datasetId=${dataset.id}`, undefined, 200)).body.imports;
      assert.deepEqual(
        imports.map((record: { fileName: string }) => record.fileName),
        ['statement.xml'],
      );
      // Without a marker again: the size and time decide.
      const plain = (await call('PATCH', `/connections/${connection.id}/pickups/${pickup.id}`, { readyMarker: null }, 200)).body;
      assert.equal(plain.readyMarker, null);
    });

    it('ends as failed a run whose job was given up, so that it does not show as running for ever', async () => {
      await mkdir(path.join(root, 'abandoned'), { recursive: true });
      const connection = (await call('POST', '/connections', { name: 'Abandoned', kind: 'folder', folderPath: 'abandoned' }, 201)).body;
      const source = await call('POST', '/sources', { name: 'Abandoned bank' }, 201);
      const dataset = (await call('POST', `/sources/${source.body.id}/datasets`, { name: 'Abandoned account', columns: [] }, 201)).body;
      const pickup = (
        await call(
          'POST',
          `/connections/${connection.id}/pickups`,
          { path: '/', pattern: '*', intervalMinutes: 600, datasetId: dataset.id, enabled: false },
          201,
        )
      ).body;
      // A run left running by a job that was interrupted more often than a job may be: the job is over, the run is not.
      const runId = randomUUID();
      await server.database.query(
        `INSERT INTO pickup_runs (organization_id, id, pickup_id, connection_id, trigger, status, started_at) VALUES ($1, $2, $3, $4, 'manual', 'running', now())`,
        [organization.orgId, runId, pickup.id, connection.id],
      );
      await server.services.pickupRuns.queueDue();
      const run = (await call('GET', `/connections/${connection.id}/pickups/${pickup.id}/runs/${runId}`, undefined, 200)).body;
      assert.equal(run.status, 'failed');
      assert.match(run.error, /interrupted too many times and was given up; the next run takes its files/);
      // A run with its job still queued is left alone.
      const queued = (await call('POST', `/connections/${connection.id}/pickups/${pickup.id}/run`, undefined, 202)).body;
      await server.services.pickupRuns.queueDue();
      const after = (await call('GET', `/connections/${connection.id}/pickups/${pickup.id}/runs/${queued.id}`, undefined, 200)).body;
      assert.notEqual(after.error ?? '', 'the run was interrupted too many times and was given up; the next run takes its files');
    });

    it('queues each due pickup on the schedule, and backs off a failing connection', async () => {
      await mkdir(path.join(root, 'scheduled'), { recursive: true });
      const connection = (await call('POST', '/connections', { name: 'Scheduled', kind: 'folder', folderPath: 'scheduled' }, 201)).body;
      const source = await call('POST', '/sources', { name: 'Scheduled bank' }, 201);
      const dataset = (await call('POST', `/sources/${source.body.id}/datasets`, { name: 'Scheduled account', columns: [] }, 201)).body;
      const pickup = (await call('POST', `/connections/${connection.id}/pickups`, { path: '/', pattern: '*', intervalMinutes: 30, datasetId: dataset.id }, 201))
        .body;
      server.clock.advance(31 * 60_000);
      assert.ok((await server.services.pickupRuns.queueDue()) >= 1);
      const runs = await waitFor(async () => {
        const listed = (await call('GET', `/connections/${connection.id}/pickups/${pickup.id}/runs`, undefined, 200)).body;
        return listed.length === 1 && listed[0].status === 'completed' ? listed : null;
      }, 'the scheduled run');
      assert.equal(runs[0].trigger, 'schedule');
      // Due again only after its interval.
      assert.equal(
        (await server.services.pickupRuns.queueDue()) === 0 ||
          (await call('GET', `/connections/${connection.id}/pickups/${pickup.id}/runs`, undefined, 200)).body.length === 1,
        true,
      );
      const after = (await call('GET', `/connections/${connection.id}/pickups/${pickup.id}`, undefined, 200)).body;
      assert.ok(Date.parse(after.nextRunAt) >= server.clock.now() + 29 * 60_000);
      // The folder goes away: the run fails, the connection records it, and the next look waits twice as long.
      await rm(path.join(root, 'scheduled'), { recursive: true });
      server.clock.advance(31 * 60_000);
      await server.services.pickupRuns.queueDue();
      const failing = await waitFor(async () => {
        const current = (await call('GET', `/connections/${connection.id}`, undefined, 200)).body;
        return current.consecutiveFailures === 1 ? current : null;
      }, 'the failure');
      assert.match(failing.lastError, /folder is gone or cannot be read/);
      server.clock.advance(31 * 60_000);
      await server.services.pickupRuns.queueDue();
      const backedOff = (await call('GET', `/connections/${connection.id}/pickups/${pickup.id}`, undefined, 200)).body;
      assert.ok(Date.parse(backedOff.nextRunAt) >= server.clock.now() + 59 * 60_000, 'after one failure the interval doubles');
    });

    it('refuses a pickup without exactly one schedule, or with a time zone Intl does not know, each error naming its field', async () => {
      await mkdir(path.join(root, 'timed-refusals'), { recursive: true });
      const connection = (await call('POST', '/connections', { name: 'Timed refusals', kind: 'folder', folderPath: 'timed-refusals' }, 201)).body;
      const source = await call('POST', '/sources', { name: 'Timed refusals bank' }, 201);
      const dataset = (await call('POST', `/sources/${source.body.id}/datasets`, { name: 'Timed refusals account', columns: [] }, 201)).body;
      const refused = async (body: Record<string, unknown>, messageId: string, pointer: string) => {
        const answer = await call('POST', `/connections/${connection.id}/pickups`, { path: '/', pattern: '*.xml', datasetId: dataset.id, ...body }, 400);
        assert.equal(answer.body.error.messageId, messageId, JSON.stringify(answer.body));
        assert.equal(answer.body.error.details[0].path, pointer);
      };
      await refused({}, 'connections.scheduleMissing', '/intervalMinutes');
      await refused({ intervalMinutes: 5, timesOfDay: ['06:00'], timeZone: 'Europe/Berlin' }, 'connections.scheduleBoth', '/timesOfDay');
      await refused({ timesOfDay: ['06:00'] }, 'connections.timeZoneMissing', '/timeZone');
      await refused({ intervalMinutes: 5, timeZone: 'Europe/Berlin' }, 'connections.timeZoneWithoutTimes', '/timeZone');
      await refused({ timesOfDay: ['06:00'], timeZone: 'Europe/Atlantis' }, 'connections.timeZoneUnknown', '/timeZone');
      const badTime = await call(
        'POST',
        `/connections/${connection.id}/pickups`,
        { path: '/', pattern: '*', datasetId: dataset.id, timesOfDay: ['24:00'], timeZone: 'UTC' },
        400,
      );
      assert.match(JSON.stringify(badTime.body), /timesOfDay\/0/);
      const tooMany = Array.from({ length: 25 }, (_, index) => `${String(index % 24).padStart(2, '0')}:${index < 24 ? '00' : '30'}`);
      await call(
        'POST',
        `/connections/${connection.id}/pickups`,
        { path: '/', pattern: '*', datasetId: dataset.id, timesOfDay: tooMany, timeZone: 'UTC' },
        400,
      );
      await call(
        'POST',
        `/connections/${connection.id}/pickups`,
        { path: '/', pattern: '*', datasetId: dataset.id, timesOfDay: tooMany.slice(0, 24), timeZone: 'UTC' },
        201,
      );
    });

    it('runs a pickup at times of day in Europe/Berlin, through the changes to and from summer time', async () => {
      await mkdir(path.join(root, 'timed'), { recursive: true });
      const connection = (await call('POST', '/connections', { name: 'Timed', kind: 'folder', folderPath: 'timed' }, 201)).body;
      const source = await call('POST', '/sources', { name: 'Timed bank' }, 201);
      const dataset = (await call('POST', `/sources/${source.body.id}/datasets`, { name: 'Timed account', columns: [] }, 201)).body;
      const url = (id: string) => `/connections/${connection.id}/pickups/${id}`;
      const created = (
        await call(
          'POST',
          `/connections/${connection.id}/pickups`,
          { path: '/', pattern: '*.xml', datasetId: dataset.id, timesOfDay: ['14:30', '06:00', '06:00'], timeZone: 'Europe/Berlin' },
          201,
        )
      ).body;
      assert.deepEqual([created.intervalMinutes, created.timesOfDay, created.timeZone], [null, ['06:00', '14:30'], 'Europe/Berlin']);
      const berlin = new Intl.DateTimeFormat('en-GB', { timeZone: 'Europe/Berlin', hour: '2-digit', minute: '2-digit', hourCycle: 'h23' });
      assert.ok(['06:00', '14:30'].includes(berlin.format(new Date(created.nextRunAt))), created.nextRunAt);
      assert.ok(Date.parse(created.nextRunAt) > server.clock.now() && Date.parse(created.nextRunAt) <= server.clock.now() + 86_400_000);
      // Every N minutes instead, and back: each schedule lets go of the other.
      const every = (await call('PATCH', url(created.id), { intervalMinutes: 10 }, 200)).body;
      assert.deepEqual([every.intervalMinutes, every.timesOfDay, every.timeZone], [10, null, null]);
      const both = await call('PATCH', url(created.id), { intervalMinutes: 10, timesOfDay: ['06:00'], timeZone: 'UTC' }, 400);
      assert.equal(both.body.error.messageId, 'connections.scheduleBoth');

      // The Saturday before the last Sunday of March 2027: at 02:00 on Sunday the clock jumps to 03:00.
      const moveClockTo = (iso: string) => server.clock.advance(Date.parse(iso) - server.clock.now());
      moveClockTo('2027-03-27T12:00:00Z');
      const timed = (await call('PATCH', url(created.id), { timesOfDay: ['02:30', '06:00'], timeZone: 'Europe/Berlin' }, 200)).body;
      assert.equal(timed.intervalMinutes, null);
      const expect = async (iso: string, why: string) => {
        const pickup = (await call('GET', url(created.id), undefined, 200)).body;
        assert.equal(new Date(pickup.nextRunAt).toISOString(), iso, why);
      };
      await expect('2027-03-28T01:30:00.000Z', '02:30 does not exist that night: it runs at 03:30 summer time');
      const step = async (iso: string, why: string) => {
        const pickup = (await call('GET', url(created.id), undefined, 200)).body;
        moveClockTo(new Date(Date.parse(pickup.nextRunAt) + 1000).toISOString());
        assert.ok((await server.services.pickupRuns.queueDue()) >= 1);
        await expect(iso, why);
      };
      await step('2027-03-28T04:00:00.000Z', '06:00 summer time');
      await step('2027-03-29T00:30:00.000Z', '02:30 summer time, the day after');
      // The last Sunday of October 2027: at 03:00 the clock goes back to 02:00, and 02:30 happens twice.
      moveClockTo('2027-10-30T12:00:00Z');
      assert.ok((await server.services.pickupRuns.queueDue()) >= 1);
      await expect('2027-10-31T00:30:00.000Z', 'the first 02:30, summer time');
      await step('2027-10-31T05:00:00.000Z', 'once: not again at the second 02:30; then 06:00 winter time');
      await step('2027-11-01T01:30:00.000Z', '02:30 winter time');
      const runs = (await call('GET', `${url(created.id)}/runs`, undefined, 200)).body;
      assert.equal(runs.filter((run: { trigger: string }) => run.trigger === 'schedule').length, 5);

      // A zone this runtime no longer knows (time zone data changes) gives no next time: the run is
      // still queued, the pickup looks again an hour on, and the check goes on for the others.
      const dueAt = new Date(server.clock.now() - 60_000).toISOString();
      await server.database.query("UPDATE pickups SET time_zone = 'Atlantis/Nowhere', next_run_at = $2::timestamptz WHERE id = $1", [created.id, dueAt]);
      const checkedAt = server.clock.now();
      assert.ok((await server.services.pickupRuns.queueDue()) >= 1);
      const lost = (await call('GET', url(created.id), undefined, 200)).body;
      const hourOn = Date.parse(lost.nextRunAt) - checkedAt;
      assert.ok(hourOn >= 3_600_000 && hourOn < 3_660_000, lost.nextRunAt);
    });
  });
}
