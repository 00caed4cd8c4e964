import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { addDecimals } from '../../src/domain/money.ts';
import { api, createTestOrganization, startTestServer, storeKinds, type TestOrganization, type TestServer } from '../../support/harness.ts';

/**
 * Every file of test/fixtures/imports, of every format, through the real importer: no entry of
 * a file may be lost. Imported into an empty dataset, each entry must be stored; imported again,
 * each must be matched to one of the rows the first import stored; and for every statement the
 * report's entries must equal the entries stored plus the entries known. A file is expected to
 * be refused only when its name says so (test/fixtures/imports/README.md).
 */

const FIXTURES = 'test/fixtures/imports';
/** Names of files kept to show what is refused; everything else must import whole. */
const REFUSED_NAME = /^(malformed|truncated|refused)-|-wrong-totals\./;
/**
 * Files that are not import files: descriptions, the mappings sent along with CSV files
 * (`<file>.mapping.json`), and the custom columns of the dataset a CSV file's mapping fills
 * (`<file>.columns.json`).
 */
const NOT_A_FILE = /(^README\.md$|\.mapping\.json$|\.columns\.json$)/;

/**
 * Real CSV exports imported with the mapping the preview proposes (csv/propose.test.ts checks
 * their values); a file the proposal cannot read is expected to be refused whole.
 */
const REFUSED_WITH_PROPOSAL = new Set(['csv/real/ocbc-sg.csv']);
/** The currency given to a proposal that found none in its file (the proposal asks for it). */
const CURRENCY_WHEN_NOT_IN_FILE = 'EUR';

/** Every import file under a folder of FIXTURES, with its path from FIXTURES, subfolders included. */
function filesUnder(folder: string): string[] {
  return readdirSync(path.join(FIXTURES, folder), { withFileTypes: true }).flatMap((entry) => {
    const relative = `${folder}/${entry.name}`;
    if (entry.isDirectory()) return filesUnder(relative);
    return NOT_A_FILE.test(entry.name) ? [] : [relative];
  });
}

function fixtureFiles(): string[] {
  return readdirSync(FIXTURES, { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .flatMap((folder) => filesUnder(folder.name))
    .sort();
}

for (const kind of storeKinds()) {
  describe(`every fixture file imports whole (${kind})`, () => {
    let server: TestServer;
    let organization: TestOrganization;
    let base: string;
    /** One source per format folder: a source holds a bounded number of datasets. */
    const sources = new Map<string, string>();

    before(async () => {
      server = await startTestServer(kind);
      organization = await createTestOrganization(server);
      base = `/v1/api/${organization.orgId}`;
    });

    async function sourceFor(file: string): Promise<string> {
      const folder = path.dirname(file);
      let sourceId = sources.get(folder);
      if (sourceId === undefined) {
        const source = await api(server, organization.token, 'POST', `${base}/sources`, { name: `Fixtures ${folder}` });
        assert.equal(source.status, 201, JSON.stringify(source.body));
        sources.set(folder, (sourceId = source.body.id as string));
      }
      return sourceId;
    }

    /** The mapping the preview proposes for a CSV file sent without one, with a currency if it found none. */
    async function proposedMapping(datasetId: string, bytes: Buffer): Promise<unknown> {
      const response = await fetch(`${server.baseUrl}${base}/datasets/${datasetId}/imports/preview`, {
        method: 'POST',
        headers: { authorization: `Bearer ${organization.token}`, 'content-type': 'application/octet-stream' },
        body: bytes,
      });
      const preview = (await response.json()) as any;
      assert.equal(response.status, 200, JSON.stringify(preview).slice(0, 400));
      if (preview.mapping === null) return null;
      return { ...preview.mapping, currency: preview.mapping.currency ?? CURRENCY_WHEN_NOT_IN_FILE };
    }
    after(async () => server.close());

    async function importFixture(datasetId: string, file: string): Promise<{ status: number; body: any }> {
      const bytes = readFileSync(path.join(FIXTURES, file));
      const mappingPath = path.join(FIXTURES, `${file}.mapping.json`);
      const headers: Record<string, string> = { authorization: `Bearer ${organization.token}` };
      let body: Buffer | FormData = bytes;
      const mapping = existsSync(mappingPath)
        ? readFileSync(mappingPath, 'utf8')
        : file.startsWith('csv/')
          ? JSON.stringify(await proposedMapping(datasetId, bytes))
          : null;
      if (mapping !== null) {
        const form = new FormData();
        form.append('mapping', mapping);
        form.append('file', new Blob([bytes]), path.basename(file));
        body = form;
      } else headers['content-type'] = 'application/octet-stream';
      const response = await fetch(`${server.baseUrl}${base}/datasets/${datasetId}/imports?fileName=${encodeURIComponent(path.basename(file))}`, {
        method: 'POST',
        headers,
        body,
      });
      return { status: response.status, body: await response.json() };
    }

    async function storedRows(datasetId: string): Promise<Array<{ id: string; amount: string }>> {
      const rows: Array<{ id: string; amount: string }> = [];
      for (let offset = 0; ; offset += 1000) {
        const page = await api(server, organization.token, 'POST', `${base}/transactions`, { datasetId, limit: 1000, offset, columns: [{ path: 'amount' }] });
        assert.equal(page.status, 200, JSON.stringify(page.body));
        rows.push(...page.body);
        if (page.body.length < 1000) return rows;
      }
    }

    const files = fixtureFiles();

    it('finds the fixture files of every format', () => {
      const formats = new Set(files.map((file) => file.split('/')[0]));
      for (const format of ['bai2', 'camt.052', 'camt.053', 'camt.054', 'csv', 'mt940', 'mt942', 'ofx']) assert.ok(formats.has(format), format);
    });

    for (const file of files) {
      const refused = REFUSED_NAME.test(path.basename(file)) || REFUSED_WITH_PROPOSAL.has(file);
      it(`${file}: ${refused ? 'is refused whole' : 'every entry is stored, then known'}`, async () => {
        const columnsPath = path.join(FIXTURES, `${file}.columns.json`);
        const columns = existsSync(columnsPath) ? JSON.parse(readFileSync(columnsPath, 'utf8')) : [];
        const dataset = await api(server, organization.token, 'POST', `${base}/sources/${await sourceFor(file)}/datasets`, { name: file, columns });
        assert.equal(dataset.status, 201, JSON.stringify(dataset.body));
        const datasetId = dataset.body.id;
        const first = await importFixture(datasetId, file);
        if (refused) {
          assert.equal(first.status, 422, JSON.stringify(first.body).slice(0, 400));
          assert.equal((await storedRows(datasetId)).length, 0);
          return;
        }
        assert.equal(first.status, 201, JSON.stringify(first.body).slice(0, 600));
        const report = first.body;
        // Into an empty dataset nothing can be known already: every entry read is stored.
        assert.equal(report.duplicates, 0, `${file}: entries taken for ones already known in an empty dataset`);
        assert.equal(report.inserted, report.rowsRead);
        assert.equal(
          report.statements.reduce((total: number, statement: any) => total + statement.entries, 0),
          report.rowsRead,
        );
        for (const statement of report.statements) {
          assert.equal(statement.inserted + statement.duplicates, statement.entries, `${file}: statement ${statement.statementId}`);
        }
        const rows = await storedRows(datasetId);
        assert.equal(rows.length, report.rowsRead, `${file}: rows stored`);
        const sum = (amounts: string[]) => amounts.reduce((total, amount) => addDecimals(total, amount), '0');
        assert.equal(sum(rows.map((row) => row.amount)), sum(report.statements.map((statement: any) => statement.sumOfEntries)), `${file}: stored amounts`);

        // Again: each entry is matched to one of the rows stored, and nothing is added.
        const again = await importFixture(datasetId, file);
        assert.equal(again.status, 201, JSON.stringify(again.body).slice(0, 600));
        assert.deepEqual([again.body.inserted, again.body.duplicates], [0, report.rowsRead], file);
        for (const statement of again.body.statements) assert.deepEqual([statement.inserted, statement.duplicates], [0, statement.entries], file);
        assert.equal((await storedRows(datasetId)).length, rows.length);
      });
    }
  });
}
