import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { api, createTestOrganization, startTestServer, storeKinds, type TestOrganization, type TestServer } from '../../support/harness.ts';

/**
 * The preview of a CSV with a mapping being made: every one of the first rows read with it, the
 * rows that would fail each with its reason; and the mapping saved on the dataset proposed again
 * for the next file of the same header.
 */

const LEDGER = [
  'Datum;Soll;Haben;Text 1;Text 2;Beleg',
  '02.01.2024;12,50;;Büro;Papier;B-1',
  '03.01.2024;;1.200,00;Kunde;Rechnung 17;B-2',
  '32.01.2024;5,00;;Falsch;Datum;B-3',
  '05.01.2024;7,25;;Porto;Briefe;B-4',
].join('\n');

const MAPPING = {
  delimiter: ';',
  decimalSeparator: ',',
  thousandsSeparator: '.',
  dateFormat: 'DD.MM.YYYY',
  header: true,
  skipRows: 0,
  columns: { timestamp: 'Datum', description: ['Text 1', 'Text 2'], reference: 'Beleg' },
  amount: { debit: 'Soll', credit: 'Haben' },
  currency: 'EUR',
};

for (const kind of storeKinds()) {
  describe(`CSV preview with a mapping being made (${kind})`, () => {
    let server: TestServer;
    let organization: TestOrganization;
    let base: string;
    let datasetId: string;

    before(async () => {
      server = await startTestServer(kind);
      organization = await createTestOrganization(server);
      base = `/v1/api/${organization.orgId}`;
      const sourceId = (await api(server, organization.token, 'POST', `${base}/sources`, { name: 'Ledger' })).body.id;
      datasetId = (await api(server, organization.token, 'POST', `${base}/sources/${sourceId}/datasets`, { name: 'Journal', columns: [] })).body.id;
    });
    after(async () => server.close());

    async function preview(text: string, mapping?: unknown): Promise<any> {
      const form = new FormData();
      if (mapping !== undefined) form.append('mapping', JSON.stringify(mapping));
      form.append('file', new Blob([text], { type: 'text/csv' }), 'journal.csv');
      const response = await fetch(`${server.baseUrl}${base}/datasets/${datasetId}/imports/preview`, {
        method: 'POST',
        headers: { authorization: `Bearer ${organization.token}` },
        body: form,
      });
      const body = (await response.json()) as any;
      assert.equal(response.status, 200, JSON.stringify(body));
      return body;
    }

    it('reads each of the first rows with the mapping sent, and says why a row would fail', async () => {
      const answer = await preview(LEDGER, MAPPING);
      assert.deepEqual(answer.checkedColumns, ['Datum', 'Soll', 'Haben', 'Text 1', 'Text 2', 'Beleg']);
      assert.equal(answer.mappingProblem, null);
      assert.deepEqual(
        answer.checkedRows.map((row: any) => [row.line, row.entry?.amount ?? null, row.entry?.description ?? null, row.entry?.bookingDate ?? null]),
        [
          [2, '-12.50', 'Büro Papier', '2024-01-02'],
          [3, '1200.00', 'Kunde Rechnung 17', '2024-01-03'],
          [4, null, null, null],
          [5, '-7.25', 'Porto Briefe', '2024-01-05'],
        ],
      );
      assert.deepEqual(answer.checkedRows[0].fields, ['02.01.2024', '12,50', '', 'Büro', 'Papier', 'B-1']);
      assert.match(answer.checkedRows[2].problem, /^column "Datum": found "32\.01\.2024"/);
      assert.equal(answer.savedMapping, null, 'a mapping was sent');
    });

    it('names the setting that stops the mapping from reading the file', async () => {
      const wrongFormat = await preview(LEDGER, { ...MAPPING, dateFormat: 'QQ' });
      assert.equal(wrongFormat.mappingProblem.field, 'dateFormat');
      assert.doesNotMatch(wrongFormat.mappingProblem.message, /\/dateFormat/);
      assert.ok(wrongFormat.checkedRows.length === 4, 'the rows are still shown as written');
      const otherDelimiter = await preview(LEDGER, { ...MAPPING, delimiter: ',' });
      assert.deepEqual(otherDelimiter.checkedColumns, ['Datum;Soll;Haben;Text 1;Text 2;Beleg']);
      assert.match(otherDelimiter.mappingProblem.message, /Datum/);
    });

    it('proposes the mapping saved on the dataset for the next file with the same header, and reads its rows with it', async () => {
      assert.equal((await preview(LEDGER)).savedMapping, null);
      const saved = await api(server, organization.token, 'PUT', `${base}/datasets/${datasetId}/import-mappings/Journal%20export`, MAPPING);
      assert.equal(saved.status, 201, JSON.stringify(saved.body));
      const next = await preview(LEDGER.replace('02.01.2024', '09.01.2024'));
      assert.equal(next.savedMapping?.name, 'Journal export');
      assert.deepEqual(next.savedMapping.mapping.amount, MAPPING.amount);
      assert.equal(next.checkedRows[0].entry.bookingDate, '2024-01-09');
      assert.equal(next.checkedRows[1].entry.amount, '1200.00');
      const otherHeader = await preview('Date,Amount,Memo\n2024-01-02,-5.00,Coffee\n');
      assert.equal(otherHeader.savedMapping, null);
    });
  });
}
