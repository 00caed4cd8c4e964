import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { after, before, describe, it } from 'node:test';
import { BANK_COLUMNS } from '../../src/domain/imports/importer.ts';
import { addDecimals, compareDecimals } from '../../src/domain/money.ts';
import { SWIFT_MT_GOLDEN } from '../fixtures/imports/swift-mt-golden.ts';
import { api, createTestOrganization, startTestServer, storeKinds, type TestOrganization, type TestServer } from '../../support/harness.ts';

/**
 * The MT940/MT942 files of real banks through the real server (SPEC §7): each file of
 * test/fixtures/imports/mt940 and mt942 is imported as it was published, with nothing but the
 * file, and the report and the stored transactions must say what the file says (the golden
 * values in swift-mt-golden.ts, checked by hand against each file).
 */

const fixture = (path: string) => readFileSync(`test/fixtures/imports/${path}`);

for (const kind of storeKinds()) {
  describe(`MT940/MT942 files of real banks (${kind})`, () => {
    let server: TestServer;
    let organization: TestOrganization;
    let base: string;
    let sourceId: string;

    before(async () => {
      server = await startTestServer(kind);
      organization = await createTestOrganization(server);
      base = `/v1/api/${organization.orgId}`;
      sourceId = (await api(server, organization.token, 'POST', `${base}/sources`, { name: 'Bank statements' })).body.id;
    });
    after(async () => server.close());

    async function newDataset(): Promise<string> {
      const created = await api(server, organization.token, 'POST', `${base}/sources/${sourceId}/datasets`, { name: `Statement ${Math.random()}` });
      assert.equal(created.status, 201, JSON.stringify(created.body));
      return created.body.id;
    }

    async function importFile(datasetId: string, body: Buffer | string): Promise<{ status: number; body: any }> {
      const response = await fetch(`${server.baseUrl}${base}/datasets/${datasetId}/imports`, {
        method: 'POST',
        headers: { authorization: `Bearer ${organization.token}`, 'content-type': 'application/octet-stream' },
        body,
      });
      return { status: response.status, body: await response.json() };
    }

    /** Every stored transaction of a dataset, with the bank columns the import added to it. */
    async function stored(datasetId: string): Promise<any[]> {
      const sources = await api(server, organization.token, 'GET', `${base}/sources`);
      const dataset = sources.body.flatMap((source: any) => source.datasets).find((candidate: any) => candidate.id === datasetId);
      // The bank's reference (a standard column), and the bank columns the import filled and so added to the dataset.
      const added = ['bankReference', ...BANK_COLUMNS.map((bank) => bank.name).filter((name) => dataset.columns.some((column: any) => column.name === name))];
      const page = await api(server, organization.token, 'POST', `${base}/transactions`, {
        datasetId,
        limit: 1000,
        columns: ['amount', 'currency', 'description', 'type', 'reference', ...added].map((path) => ({ path })),
      });
      assert.equal(page.status, 200, JSON.stringify(page.body));
      return page.body;
    }

    it('imports every file whole, with the statements, sums, balances and entries the file gives', async () => {
      for (const golden of SWIFT_MT_GOLDEN) {
        const datasetId = await newDataset();
        const imported = await importFile(datasetId, fixture(golden.file));
        assert.equal(imported.status, 201, `${golden.file}: ${JSON.stringify(imported.body)}`);
        const report = imported.body;
        assert.equal(report.format, golden.file.startsWith('mt942/') ? 'mt942' : 'mt940', golden.file);
        assert.equal(report.encoding, golden.encoding ?? 'utf-8', golden.file);
        assert.equal(report.rowsRead, golden.entries, golden.file);
        assert.equal(report.inserted, golden.entries, golden.file);
        assert.equal(report.duplicates, 0, golden.file);
        assert.equal(report.statements.length, golden.statements, golden.file);
        assert.deepEqual(
          report.statements.map((statement: any) => [statement.openingBalance, statement.closingBalance]),
          golden.balances,
          golden.file,
        );
        assert.equal(addDecimals('0', ...report.statements.map((statement: any) => statement.sumOfEntries)), addDecimals('0', golden.sum), golden.file);
        for (const statement of report.statements) {
          const expected =
            statement.openingBalance && statement.closingBalance
              ? compareDecimals(addDecimals(statement.openingBalance.amount, statement.sumOfEntries), statement.closingBalance.amount) === 0
              : null;
          assert.equal(statement.balanced, expected, golden.file);
        }
        for (const message of golden.warnings ?? []) {
          assert.ok(
            report.warnings.some((warning: any) => warning.message === message),
            `${golden.file}: the warning ${message}`,
          );
        }

        const rows = await stored(datasetId);
        assert.equal(rows.length, golden.entries, golden.file);
        assert.equal(addDecimals('0', ...rows.map((row) => row.amount)), addDecimals('0', golden.sum), golden.file);
        for (const entry of [golden.first, golden.last]) {
          if (!entry) continue;
          const day = (date: string | null) => (date === null ? undefined : Date.parse(`${date}T00:00:00Z`));
          const row = rows.find(
            (candidate) =>
              candidate.amount === entry.amount &&
              candidate.description === entry.description &&
              candidate.reference === entry.reference &&
              candidate.bookingDate === day(entry.bookingDate) &&
              candidate.valueDate === day(entry.valueDate),
          );
          assert.ok(row, `${golden.file}: a stored transaction ${entry.amount} "${entry.description}" booked ${entry.bookingDate}`);
          assert.equal(row.currency, entry.currency, golden.file);
          assert.equal(row.type, entry.type, golden.file);
          for (const column of [
            'bankReference',
            'endToEndId',
            'mandateId',
            'creditorId',
            'counterpartyName',
            'counterpartyAccount',
            'ultimateDebtorName',
            'ultimateCreditorName',
            'accountId',
            'statementId',
            'bankTransactionCode',
          ] as const) {
            assert.equal(row[column] ?? null, entry[column] ?? null, `${golden.file}: ${column}`);
          }
        }

        const again = await importFile(datasetId, fixture(golden.file));
        assert.equal(again.status, 201, golden.file);
        assert.equal(again.body.inserted, 0, `${golden.file}: the same file twice adds nothing`);
      }
    });

    it('reads a Hungarian statement in code page 852 that names no encoding, and says which code page it chose', async () => {
      const datasetId = await newDataset();
      const imported = await importFile(datasetId, fixture('mt940/raiffeisen-hungary-cp852.sta'));
      assert.equal(imported.status, 201, JSON.stringify(imported.body));
      assert.equal(imported.body.encoding, 'cp852');
      assert.match(imported.body.warnings[0].message, /read as cp852 \(DOS\), which fits its letters best among the code pages used in Hungary/);
      const rows = await stored(datasetId);
      assert.ok(
        rows.some((row) => row.description.endsWith('Csoportos átutalás jóváírása')),
        JSON.stringify(rows.map((row) => row.description)),
      );
      assert.ok(rows.some((row) => row.description.endsWith('Díj, jutalék')));
    });

    it('imports a transmission of many messages, each wrapped in SOH and ETX', async () => {
      const messages = Array.from(
        { length: 12 },
        (_, index) =>
          `\u0001{1:F01BANKDEFFAXXX0000000000}{2:I940BANKDEFFXXXXN}{4:\r\n:20:S${index}\r\n:25:DE89370400440532013000\r\n:28C:${index + 1}/1\r\n` +
          `:60F:C2401${String(index + 1).padStart(2, '0')}EUR${index},\r\n:61:2401${String(index + 1).padStart(2, '0')}C1,NMSCREF${index}\r\n` +
          `:62F:C2401${String(index + 1).padStart(2, '0')}EUR${index + 1},\r\n-}\u0003`,
      );
      const datasetId = await newDataset();
      const imported = await importFile(datasetId, messages.join('\r\n'));
      assert.equal(imported.status, 201, JSON.stringify(imported.body));
      assert.equal(imported.body.format, 'mt940');
      assert.equal(imported.body.inserted, 12);
      assert.ok(imported.body.statements.every((statement: any) => statement.balanced === true));
    });
  });
}
