import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { after, before, describe, it } from 'node:test';
import { addDecimals } from '../../src/domain/money.ts';
import { api, createTestOrganization, startTestServer, storeKinds, type TestOrganization, type TestServer } from '../../support/harness.ts';

/**
 * File imports through the real server (SPEC §7): every format end to end, identity and
 * idempotency across files, all or nothing, hostile files, asynchronous imports, CSV preview
 * and mappings, and what a dataset learns from its imports.
 */

const fixture = (path: string) => readFileSync(`test/fixtures/imports/${path}`);

interface Answer {
  status: number;
  headers: Headers;
  body: any;
}

/** An MT940 statement with the given :61:/:86: pairs, opening balance and dates. */
function mt940(
  statementNumber: string,
  opening: { date: string; amount: string },
  entries: { date: string; amount: string; reference: string; text: string }[],
): string {
  let balance = Number(opening.amount.replace(',', '.')) * 100;
  const lines = [':20:STMT' + statementNumber, ':25:NL91ABNA0417164300', `:28C:${statementNumber}/1`, `:60F:C${opening.date}EUR${opening.amount}`];
  for (const entry of entries) {
    const cents = Math.round(Number(entry.amount.replace(',', '.')) * 100);
    balance += cents;
    lines.push(`:61:${entry.date}${entry.date.slice(2)}${cents < 0 ? 'D' : 'C'}${entry.amount.replace('-', '')}NTRF${entry.reference}`, `:86:${entry.text}`);
  }
  const closing = (Math.abs(balance) / 100).toFixed(2).replace('.', ',');
  lines.push(`:62F:${balance < 0 ? 'D' : 'C'}${entries.at(-1)?.date ?? opening.date}EUR${closing}`, '-');
  return lines.join('\r\n') + '\r\n';
}

/** A camt.052 (intraday report) or camt.053 (statement) with the given booked entries. */
function camt(message: 'camt.052' | 'camt.053', entries: { reference: string; amount: string; credit: boolean; date: string; text: string }[]): string {
  const [root, inner] = message === 'camt.053' ? ['BkToCstmrStmt', 'Stmt'] : ['BkToCstmrAcctRpt', 'Rpt'];
  const version = message === 'camt.053' ? '053.001.08' : '052.001.08';
  const entryXml = entries
    .map(
      (entry) => `<Ntry><Amt Ccy="EUR">${entry.amount}</Amt><CdtDbtInd>${entry.credit ? 'CRDT' : 'DBIT'}</CdtDbtInd><Sts><Cd>BOOK</Cd></Sts>
        <BookgDt><Dt>${entry.date}</Dt></BookgDt><ValDt><Dt>${entry.date}</Dt></ValDt><AcctSvcrRef>${entry.reference}</AcctSvcrRef>
        <BkTxCd><Domn><Cd>PMNT</Cd><Fmly><Cd>RCDT</Cd><SubFmlyCd>ESCT</SubFmlyCd></Fmly></Domn></BkTxCd>
        <NtryDtls><TxDtls><RmtInf><Ustrd>${entry.text}</Ustrd></RmtInf></TxDtls></NtryDtls></Ntry>`,
    )
    .join('\n');
  return `<?xml version="1.0" encoding="UTF-8"?>
<Document xmlns="urn:iso:std:iso:20022:tech:xsd:camt.${version}"><${root}><GrpHdr><MsgId>M1</MsgId><CreDtTm>2024-03-01T18:00:00+01:00</CreDtTm></GrpHdr>
<${inner}><Id>S-${message}</Id><Acct><Id><IBAN>DE89370400440532013000</IBAN></Id><Ccy>EUR</Ccy></Acct>
${entryXml}
</${inner}></${root}></Document>`;
}

for (const kind of storeKinds()) {
  describe(`file imports (${kind})`, () => {
    let server: TestServer;
    let organization: TestOrganization;
    let base: string;
    let sourceId: string;

    before(async () => {
      server = await startTestServer(kind, { importMaxBytes: 150 * 1024 * 1024 });
      organization = await createTestOrganization(server);
      base = `/v1/api/${organization.orgId}`;
      sourceId = (await api(server, organization.token, 'POST', `${base}/sources`, { name: 'Imports bank' })).body.id;
    });
    after(async () => server.close());

    async function newDataset(columns: { name: string; type: string }[] = []): Promise<string> {
      const created = await api(server, organization.token, 'POST', `${base}/sources/${sourceId}/datasets`, { name: `Statement ${Math.random()}`, columns });
      assert.equal(created.status, 201, JSON.stringify(created.body));
      return created.body.id;
    }

    async function importFile(
      datasetId: string,
      body: Buffer | string | FormData,
      options: { query?: string; contentType?: string; headers?: Record<string, string> } = {},
    ): Promise<Answer> {
      const headers: Record<string, string> = { authorization: `Bearer ${organization.token}`, ...options.headers };
      if (!(body instanceof FormData)) headers['content-type'] = options.contentType ?? 'application/octet-stream';
      const response = await fetch(`${server.baseUrl}${base}/datasets/${datasetId}/imports${options.query ?? ''}`, { method: 'POST', headers, body });
      return { status: response.status, headers: response.headers, body: await response.json() };
    }

    /** Every stored transaction of a dataset, with the amount and the bank columns asked for. */
    async function stored(datasetId: string, columns: string[] = []): Promise<any[]> {
      const page = await api(server, organization.token, 'POST', `${base}/transactions`, {
        datasetId,
        limit: 1000,
        columns: ['amount', ...columns].map((path) => ({ path })),
      });
      assert.equal(page.status, 200, JSON.stringify(page.body));
      return page.body;
    }

    /** The preview of a file, which must succeed. */
    async function previewOf(datasetId: string, bytes: Buffer): Promise<any> {
      const preview = await fetch(`${server.baseUrl}${base}/datasets/${datasetId}/imports/preview`, {
        method: 'POST',
        headers: { authorization: `Bearer ${organization.token}`, 'content-type': 'text/csv' },
        body: bytes,
      });
      const proposal = (await preview.json()) as any;
      assert.equal(preview.status, 200, JSON.stringify(proposal));
      return proposal;
    }

    const sumOf = (amounts: string[]) => amounts.reduce((total, amount) => addDecimals(total, amount), '0');

    it('imports every format end to end: the report adds up to what is stored, and a second import adds nothing', async () => {
      const cases: [string, string, Record<string, string>][] = [
        ['camt.053/genkgo-v02-multi-statement.xml', 'camt.053', {}],
        ['camt.052/written-v08-two-reports.xml', 'camt.052', {}],
        ['camt.054/written-v08-three-notifications.xml', 'camt.054', {}],
        ['mt940/abn-amro-unstructured.sta', 'mt940', {}],
        ['mt942/two-reports-crlf.sta', 'mt942', {}],
        ['bai2/spec-section3.bai2', 'bai2', {}],
        ['ofx/bank-and-card-2x.ofx', 'ofx', {}],
        ['ofx/chase-credit-card.qfx', 'ofx', {}],
      ];
      for (const [file, format] of cases) {
        const datasetId = await newDataset();
        const first = await importFile(datasetId, fixture(file));
        assert.equal(first.status, 201, `${file}: ${JSON.stringify(first.body)}`);
        assert.equal(first.body.format, format, file);
        assert.equal(first.body.status, 'completed');
        assert.match(first.headers.get('location') ?? '', new RegExp(`/imports/${first.body.id}$`));
        assert.equal(first.body.sha256.length, 64);
        assert.equal(first.body.sizeBytes, fixture(file).length);
        assert.ok(first.body.inserted > 0, file);
        assert.equal(first.body.inserted + first.body.duplicates, first.body.rowsRead, file);
        const rows = await stored(datasetId);
        assert.equal(rows.length, first.body.inserted, file);
        // The stored amounts add up exactly to the statements' sums.
        assert.equal(sumOf(rows.map((row) => row.amount)), sumOf(first.body.statements.map((statement: any) => statement.sumOfEntries)), file);
        const again = await importFile(datasetId, fixture(file));
        assert.equal(again.status, 201);
        assert.equal(again.body.inserted, 0, file);
        assert.equal(again.body.duplicates, first.body.rowsRead, file);
        assert.equal((await stored(datasetId)).length, rows.length);
      }
    });

    it('reports balances per statement and flags one that does not balance without refusing it', async () => {
      const datasetId = await newDataset();
      const balanced = mt940('00001', { date: '240301', amount: '1000,00' }, [
        { date: '240301', amount: '250,00', reference: 'R1', text: 'Invoice 1' },
        { date: '240301', amount: '-75,50', reference: 'R2', text: 'Card payment' },
      ]);
      const answer = await importFile(datasetId, balanced);
      assert.equal(answer.status, 201, JSON.stringify(answer.body));
      const [statement] = answer.body.statements;
      assert.deepEqual(
        {
          opening: statement.openingBalance,
          closing: statement.closingBalance,
          entries: statement.entries,
          sum: statement.sumOfEntries,
          balanced: statement.balanced,
        },
        { opening: { amount: '1000.00', date: '2024-03-01' }, closing: { amount: '1174.50', date: '2024-03-01' }, entries: 2, sum: '174.50', balanced: true },
      );
      const unbalanced = balanced.replace(':62F:C240301EUR1174,50', ':62F:C240301EUR1174,51');
      const flagged = await importFile(await newDataset(), unbalanced);
      assert.equal(flagged.status, 201);
      assert.equal(flagged.body.statements[0].balanced, false);
    });

    it("adds only what is new from an intraday camt.052 followed by the day's camt.053", async () => {
      const datasetId = await newDataset();
      const morning = [
        { reference: 'ASR-1', amount: '100.00', credit: true, date: '2024-03-01', text: 'INV-1' },
        { reference: 'ASR-2', amount: '45.10', credit: false, date: '2024-03-01', text: 'Fee' },
      ];
      const day = [...morning, { reference: 'ASR-3', amount: '999.99', credit: true, date: '2024-03-01', text: 'INV-3' }];
      const intraday = await importFile(datasetId, camt('camt.052', morning));
      assert.equal(intraday.body.inserted, 2, JSON.stringify(intraday.body));
      const statement = await importFile(datasetId, camt('camt.053', day));
      assert.deepEqual([statement.body.inserted, statement.body.duplicates], [1, 2]);
      const rows = await stored(datasetId, ['bankReference', 'bankTransactionCode', 'accountId', 'valueDate', 'bookingDate']);
      assert.deepEqual(rows.map((row) => row.bankReference).sort(), ['ASR-1', 'ASR-2', 'ASR-3']);
      assert.deepEqual(rows.map((row) => row.amount).sort(), ['-45.10', '100.00', '999.99']);
      assert.equal(rows[0].bankTransactionCode, 'PMNT/RCDT/ESCT');
      assert.equal(rows[0].accountId, 'DE89370400440532013000');
      assert.equal(rows[0].valueDate, Date.UTC(2024, 2, 1));
      assert.equal(rows[0].timestamp, Date.UTC(2024, 2, 1));
    });

    it('adds only what is new from two MT940 files overlapping by a day, and keeps two identical entries of one statement', async () => {
      const datasetId = await newDataset();
      const fee = { date: '240302', amount: '-2,50', reference: 'NONREF', text: 'Bank fee' };
      const first = mt940('00002', { date: '240301', amount: '500,00' }, [{ date: '240301', amount: '10,00', reference: 'A1', text: 'Payment A1' }, fee, fee]);
      const second = mt940('00003', { date: '240302', amount: '505,00' }, [fee, fee, { date: '240303', amount: '20,00', reference: 'B1', text: 'Payment B1' }]);
      const one = await importFile(datasetId, first);
      assert.deepEqual([one.body.inserted, one.body.duplicates], [3, 0], JSON.stringify(one.body));
      const two = await importFile(datasetId, second);
      assert.deepEqual([two.body.inserted, two.body.duplicates], [1, 2], JSON.stringify(two.body));
      const fees = (await stored(datasetId)).filter((row) => row.amount === '-2.50');
      assert.equal(fees.length, 2, 'the two identical fees of one statement are both kept');
    });

    it('stores nothing of a large file whose error comes after several batches were sent', async () => {
      // Batches are stored while later ones are parsed: the error at the end must roll back
      // every batch already sent, including those still waiting their turn.
      const datasetId = await newDataset();
      const rows = Array.from({ length: 23_000 }, (_, index) => `R-${index},2024-03-01,row ${index},EUR,${index}.01`);
      const csv = ['externalId,timestamp,description,currency,amount', ...rows, 'R-bad,2024-03-01,bad row,EUR,twelve'].join('\n') + '\n';
      const answer = await importFile(datasetId, csv);
      assert.equal(answer.status, 422, JSON.stringify(answer.body).slice(0, 500));
      assert.match(answer.body.error.message, /line 23002/);
      assert.equal((await stored(datasetId)).length, 0);
      const again = await importFile(datasetId, csv.replace('twelve', '12.00'));
      assert.equal(again.status, 201, JSON.stringify(again.body).slice(0, 500));
      assert.equal(again.body.inserted, 23_001);
    });

    it('stores nothing of a malformed file, names the line, and lists the failed import', async () => {
      const datasetId = await newDataset();
      const broken = mt940('00004', { date: '240301', amount: '0,00' }, [
        { date: '240301', amount: '1,00', reference: 'OK1', text: 'fine' },
        { date: '240301', amount: '2,00', reference: 'OK2', text: 'fine' },
      ]).replace(':61:2403010301C2,00', ':61:2403XX0301C2,00');
      const answer = await importFile(datasetId, broken, { query: '?fileName=march.sta' });
      assert.equal(answer.status, 422, JSON.stringify(answer.body));
      assert.match(answer.body.error.message, /line 7.*found/);
      assert.match(answer.body.error.message, /nothing of the file was stored/);
      assert.equal((await stored(datasetId)).length, 0);
      const importId = /import ([0-9a-f-]{36})/.exec(answer.body.error.message)![1];
      const failed = await api(server, organization.token, 'GET', `${base}/imports/${importId}`);
      assert.equal(failed.body.status, 'failed');
      assert.equal(failed.body.error.line, 7);
      const listed = await api(server, organization.token, 'GET', `${base}/imports?datasetId=${datasetId}`);
      assert.deepEqual(
        listed.body.imports.map((entry: any) => entry.status),
        ['failed'],
      );
      const sources = await api(server, organization.token, 'GET', `${base}/sources`);
      const dataset = sources.body.flatMap((source: any) => source.datasets).find((candidate: any) => candidate.id === datasetId);
      assert.equal(dataset.failures, 1);
      assert.equal(dataset.lastFile, 'march.sta');

      for (const [file, pattern] of [
        ['bai2/malformed-account-total.bai2', /control total/],
        ['bai2/truncated-td-bank.bai2', /line \d+/],
      ] as const) {
        const refused = await importFile(datasetId, fixture(file));
        assert.equal(refused.status, 422, `${file}: ${JSON.stringify(refused.body)}`);
        assert.match(refused.body.error.message, pattern);
      }
      const truncated = await importFile(
        datasetId,
        camt('camt.053', [{ reference: 'T1', amount: '1.00', credit: true, date: '2024-03-01', text: 'x' }]).slice(0, -60),
      );
      assert.equal(truncated.status, 422);
      assert.match(truncated.body.error.message, /line \d+/);
      assert.equal((await stored(datasetId)).length, 0);
    });

    it('refuses hostile files with a clear 4xx and keeps serving', async () => {
      const datasetId = await newDataset();
      const withEntity = `<?xml version="1.0"?><!DOCTYPE Document [<!ENTITY boom SYSTEM "file:///etc/passwd">]><Document xmlns="urn:iso:std:iso:20022:tech:xsd:camt.053.001.02"><BkToCstmrStmt>&boom;</BkToCstmrStmt></Document>`;
      const dtd = await importFile(datasetId, withEntity);
      assert.equal(dtd.status, 422, JSON.stringify(dtd.body));
      assert.match(dtd.body.error.message, /DOCTYPE|document type/i);
      const deep = `<?xml version="1.0"?><Document xmlns="urn:iso:std:iso:20022:tech:xsd:camt.053.001.02"><BkToCstmrStmt>${'<a>'.repeat(5000)}${'</a>'.repeat(5000)}</BkToCstmrStmt></Document>`;
      assert.equal((await importFile(datasetId, deep)).status, 422);
      const longLine = Buffer.concat([Buffer.from(':20:STMT1\r\n:25:NL91ABNA0417164300\r\n:86:'), Buffer.alloc(100 * 1024 * 1024, 0x78)]);
      const line = await importFile(datasetId, longLine, { query: '?format=mt940' });
      assert.equal(line.status, 422, JSON.stringify(line.body));
      assert.match(line.body.error.message, /line 3: found a line longer than/);
      const zip = await importFile(datasetId, Buffer.from([0x50, 0x4b, 0x03, 0x04, 1, 2, 3, 4, 5]));
      assert.equal(zip.status, 415);
      assert.match(zip.body.error.message, /ZIP archive.*camt\.053/);
      const binary = await importFile(datasetId, Buffer.from([0x00, 0x01, 0x02, 0xff, 0x00, 0x13]));
      assert.equal(binary.status, 415);
      const path = await importFile(datasetId, fixture('mt940/abn-amro-unstructured.sta'), { query: '?fileName=..%2F..%2Fetc%2Fpasswd' });
      assert.equal(path.status, 400);
      assert.equal(path.body.error.details[0].path, '/querystring/fileName');
      const wrongType = await fetch(`${server.baseUrl}${base}/datasets/${datasetId}/imports`, {
        method: 'POST',
        headers: { authorization: `Bearer ${organization.token}`, 'content-type': 'image/png' },
        body: Buffer.from('x'),
      });
      assert.equal(wrongType.status, 415);
      assert.equal((await fetch(`${server.baseUrl}/health`)).status, 200);
      assert.equal((await stored(datasetId)).length, 0);
    });

    it('refuses a file over IMPORT_MAX_BYTES with 413 naming the setting', async () => {
      const small = await startTestServer(kind, { importMaxBytes: 4096 });
      try {
        const other = await createTestOrganization(small);
        const source = await api(small, other.token, 'POST', `/v1/api/${other.orgId}/sources`, { name: 'b' });
        const dataset = await api(small, other.token, 'POST', `/v1/api/${other.orgId}/sources/${source.body.id}/datasets`, { name: 'd' });
        const response = await fetch(`${small.baseUrl}/v1/api/${other.orgId}/datasets/${dataset.body.id}/imports`, {
          method: 'POST',
          headers: { authorization: `Bearer ${other.token}`, 'content-type': 'text/csv' },
          body: 'timestamp,amount\n' + '2024-01-01,1.00\n'.repeat(1000),
        });
        assert.equal(response.status, 413);
        assert.match(((await response.json()) as any).error.message, /IMPORT_MAX_BYTES/);
      } finally {
        await small.close();
      }
    });

    it('answers 202 with Prefer: respond-async and runs the import as a job', async () => {
      const datasetId = await newDataset();
      const rows = Array.from(
        { length: 3000 },
        (_, index) => `2024-02-${String((index % 28) + 1).padStart(2, '0')},Payment ${index},${index}.10,EUR,ASYNC-${index}`,
      );
      const file = `timestamp,description,amount,currency,reference\n${rows.join('\n')}\n`;
      const accepted = await importFile(datasetId, file, { contentType: 'text/csv', headers: { prefer: 'respond-async' } });
      assert.equal(accepted.status, 202, JSON.stringify(accepted.body));
      assert.equal(accepted.body.status, 'running');
      const location = accepted.headers.get('location')!;
      let current = accepted.body;
      const deadline = Date.now() + 60_000;
      while (current.status === 'running' && Date.now() < deadline) {
        await new Promise((resolve) => setTimeout(resolve, 200));
        current = (await api(server, organization.token, 'GET', location)).body;
      }
      assert.equal(current.status, 'completed', JSON.stringify(current));
      assert.equal(current.inserted, 3000);
      assert.equal((await api(server, organization.token, 'POST', `${base}/transactions`, { datasetId, limit: 1 })).body.length, 1);
    });

    it('previews a CSV, saves its mapping, and imports with it; a header naming the columns needs none', async () => {
      const datasetId = await newDataset();
      const bytes = fixture('csv/ing-nl.csv');
      const proposal = await previewOf(datasetId, bytes);
      assert.equal(proposal.delimiter, ';');
      assert.equal(proposal.decimalSeparator, ',');
      assert.equal(proposal.encoding, 'windows-1252');
      assert.ok(proposal.mapping, JSON.stringify(proposal.problems));
      assert.ok(proposal.rows.length > 0);

      const mapping = JSON.parse(readFileSync('test/fixtures/imports/csv/ing-nl.csv.mapping.json', 'utf8'));
      const saved = await api(server, organization.token, 'PUT', `${base}/datasets/${datasetId}/import-mappings/ing`, mapping);
      assert.equal(saved.status, 201, JSON.stringify(saved.body));
      assert.equal((await api(server, organization.token, 'PUT', `${base}/datasets/${datasetId}/import-mappings/ing`, mapping)).status, 200);
      const badMapping = await api(server, organization.token, 'PUT', `${base}/datasets/${datasetId}/import-mappings/bad`, {
        columns: { amount: 'Bedrag', descripton: 'x' },
      });
      assert.equal(badMapping.status, 400);
      assert.match(badMapping.body.error.details[0].path, /^\/mapping\/columns\/descripton/);
      const listed = await api(server, organization.token, 'GET', `${base}/datasets/${datasetId}/import-mappings`);
      assert.deepEqual(
        listed.body.map((entry: any) => entry.name),
        ['ing'],
      );

      const imported = await importFile(datasetId, bytes, { query: '?mapping=ing', contentType: 'text/csv' });
      assert.equal(imported.status, 201, JSON.stringify(imported.body));
      assert.ok(imported.body.inserted > 0);
      const rows = await stored(datasetId, ['counterpartyName']);
      assert.ok(
        rows.some((row) => row.description?.includes('Café de Zon') || row.counterpartyName?.includes('Café de Zon')),
        'Windows-1252 text read as such',
      );

      const needsMapping = await importFile(await newDataset(), bytes, { contentType: 'text/csv' });
      assert.equal(needsMapping.status, 400);
      assert.equal(needsMapping.body.error.details[0].path, '/mapping');

      const standard = await importFile(await newDataset(), 'timestamp,description,amount,currency\n2024-01-31,Rent,-1200.00,EUR\n', {
        contentType: 'text/csv',
      });
      assert.equal(standard.status, 201, JSON.stringify(standard.body));
      assert.equal(standard.body.inserted, 1);
    });

    it('imports a real export with the mapping its preview proposes, lines above the header, indicator column and value dates', async () => {
      const datasetId = await newDataset();
      const bytes = fixture('csv/real/volksbank-rhein-wehra.csv');
      const proposal = await previewOf(datasetId, bytes);
      assert.deepEqual(proposal.questions, []);
      assert.equal(proposal.skipRows, 12);
      const form = new FormData();
      form.append('mapping', JSON.stringify(proposal.mapping));
      form.append('file', new Blob([bytes], { type: 'text/csv' }), 'volksbank.csv');
      const imported = await importFile(datasetId, form);
      assert.equal(imported.status, 201, JSON.stringify(imported.body));
      assert.equal(imported.body.inserted, 7);
      assert.equal(imported.body.statements[0].sumOfEntries, '2729.50');
      const rows = await stored(datasetId, ['valueDate', 'counterpartyName']);
      // "S" (Soll) makes the unsigned 7,50 a debit, "H" (Haben) the 170,00 a credit.
      const fee = rows.find((row) => row.amount === '-7.50');
      assert.deepEqual([fee?.timestamp, fee?.valueDate], [Date.UTC(2012, 7, 8), Date.UTC(2012, 7, 8)]);
      const credit = rows.find((row) => row.amount === '170.00');
      assert.deepEqual([credit?.timestamp, credit?.counterpartyName], [Date.UTC(2012, 6, 17), 'Foo GmbH']);
    });

    it('takes multipart/form-data with the mapping as a part, as curl -F and browsers send it', async () => {
      const datasetId = await newDataset();
      const form = new FormData();
      form.append(
        'mapping',
        JSON.stringify({ columns: { timestamp: 'Date', description: 'Text', amount: 'Amount' }, currency: 'USD', dateFormat: 'MM/DD/YYYY' }),
      );
      form.append('file', new Blob(['Date,Text,Amount\n01/31/2024,Coffee,-3.50\n02/01/2024,Refund,10.00\n'], { type: 'text/csv' }), 'export.csv');
      const answer = await importFile(datasetId, form);
      assert.equal(answer.status, 201, JSON.stringify(answer.body));
      assert.equal(answer.body.fileName, 'export.csv');
      const rows = await stored(datasetId, ['currency']);
      assert.deepEqual(
        rows.map((row) => [row.timestamp, row.amount, row.currency]),
        [
          [Date.UTC(2024, 0, 31), '-3.50', 'USD'],
          [Date.UTC(2024, 1, 1), '10.00', 'USD'],
        ],
      );
    });

    it('imports a card export whose mapping names the transaction date and the booking date', async () => {
      const datasetId = await newDataset();
      const form = new FormData();
      form.append(
        'mapping',
        JSON.stringify({
          columns: { timestamp: 'Transaction Date', bookingDate: 'Posted Date', description: 'Description' },
          amount: { debit: 'Debit', credit: 'Credit' },
          currency: 'USD',
          dateFormat: 'YYYY-MM-DD',
        }),
      );
      form.append('file', new Blob([fixture('csv/real/capitalone-card.csv')], { type: 'text/csv' }), 'card.csv');
      const answer = await importFile(datasetId, form);
      assert.equal(answer.status, 201, JSON.stringify(answer.body));
      const rows = await stored(datasetId, ['bookingDate']);
      // Both rows have the same moment: the page's order between them is the ids'.
      rows.sort((left, right) => (left.amount < right.amount ? -1 : 1));
      assert.deepEqual(
        rows.map((row) => [row.timestamp, row.bookingDate, row.amount]),
        [
          [Date.UTC(2015, 11, 31), Date.UTC(2016, 0, 2), '-1000.00'],
          [Date.UTC(2015, 11, 31), Date.UTC(2016, 0, 2), '1000.00'],
        ],
      );
    });

    it('lists a file refused for its mapping as a failed import, with its error; a corrected retry may reuse the Idempotency-Key', async () => {
      const datasetId = await newDataset();
      const csv = 'Date,Text,Amount\n01/31/2024,Coffee,-3.50\n';
      const listed = async () => (await api(server, organization.token, 'GET', `${base}/imports?datasetId=${datasetId}`)).body.imports;

      const unknown = await importFile(datasetId, csv, { query: '?mapping=nosuch&fileName=jan.csv', contentType: 'text/csv' });
      assert.equal(unknown.status, 400, JSON.stringify(unknown.body));
      assert.match(unknown.body.error.message, /^import [0-9a-f-]{36} failed, nothing of the file was stored: .*no mapping named "nosuch"/);
      assert.equal(unknown.body.error.details[0].path, '/querystring/mapping');

      const form = new FormData();
      form.append('mapping', JSON.stringify({ columns: { timestamp: 'Date', descripton: 'Text', amount: 'Amount' } }));
      form.append('file', new Blob([csv], { type: 'text/csv' }), 'feb.csv');
      const misspelt = await importFile(datasetId, form, { headers: { 'idempotency-key': 'mapping-retry' } });
      assert.equal(misspelt.status, 400, JSON.stringify(misspelt.body));
      assert.equal(misspelt.body.error.details[0].path, '/mapping/columns/descripton');

      const queued = new FormData();
      queued.append('mapping', JSON.stringify({ columns: { timestamp: 'Date' } }));
      queued.append('file', new Blob([csv], { type: 'text/csv' }), 'mar.csv');
      const later = await importFile(datasetId, queued, { headers: { prefer: 'respond-async' } });
      assert.equal(later.status, 400, JSON.stringify(later.body));

      const failed = await listed();
      assert.deepEqual(
        failed.map((entry: any) => [entry.status, entry.fileName, entry.inserted, entry.rowsRead]),
        [
          ['failed', 'mar.csv', 0, 0],
          ['failed', 'feb.csv', 0, 0],
          ['failed', 'jan.csv', 0, 0],
        ],
      );
      assert.match(failed[0].error.message, /\/columns\/amount: is missing/);
      assert.match(failed[1].error.message, /\/columns\/descripton: is not a column of the dataset \(did you mean "description"\?\)/);
      assert.match(failed[2].error.message, /no mapping named "nosuch"/);
      assert.deepEqual(failed[0].error, { reason: 'mapping', message: failed[0].error.message, line: null, column: null, xmlPath: null });
      const shown = await api(server, organization.token, 'GET', `${base}/imports/${failed[1].id}`);
      assert.equal(shown.body.status, 'failed');
      const sources = await api(server, organization.token, 'GET', `${base}/sources`);
      assert.equal(sources.body.flatMap((source: any) => source.datasets).find((candidate: any) => candidate.id === datasetId).failures, 3);
      assert.equal((await stored(datasetId)).length, 0);

      const fixed = new FormData();
      fixed.append(
        'mapping',
        JSON.stringify({ columns: { timestamp: 'Date', description: 'Text', amount: 'Amount' }, currency: 'USD', dateFormat: 'MM/DD/YYYY' }),
      );
      fixed.append('file', new Blob([csv], { type: 'text/csv' }), 'feb.csv');
      const retried = await importFile(datasetId, fixed, { headers: { 'idempotency-key': 'mapping-retry' } });
      assert.equal(retried.status, 201, JSON.stringify(retried.body));
      assert.equal(retried.body.inserted, 1);
    });

    it('keeps the dataset current: bank columns added once filled, lastReceived and lastFile', async () => {
      const datasetId = await newDataset([{ name: 'note', type: 'string' }]);
      await importFile(datasetId, camt('camt.053', [{ reference: 'C-1', amount: '1.00', credit: true, date: '2024-03-01', text: 'x' }]), {
        query: '?fileName=day.xml',
      });
      const sources = await api(server, organization.token, 'GET', `${base}/sources`);
      const dataset = sources.body.flatMap((source: any) => source.datasets).find((candidate: any) => candidate.id === datasetId);
      const names = dataset.columns.map((column: any) => column.name);
      assert.ok(names.includes('note'));
      for (const bank of ['valueDate', 'bookingDate', 'bankReference', 'accountId', 'bankTransactionCode', 'statementId'])
        assert.ok(names.includes(bank), `${bank} in ${names}`);
      assert.ok(!names.includes('counterpartyName'), 'a bank column the file did not fill is not added');
      assert.equal(dataset.lastFile, 'day.xml');
      assert.ok(dataset.lastReceived);
      // The bank columns are searchable like any column.
      const found = await api(server, organization.token, 'POST', `${base}/transactions`, {
        datasetId,
        search: [{ path: 'bankReference', search: { type: 'string', value: 'C-1', exact: true } }],
      });
      assert.equal(found.body.length, 1);
    });

    it('replays an import retried with the same Idempotency-Key instead of importing again', async () => {
      const datasetId = await newDataset();
      const file = camt('camt.053', [{ reference: 'IK-1', amount: '5.00', credit: true, date: '2024-03-01', text: 'x' }]);
      const first = await importFile(datasetId, file, { headers: { 'idempotency-key': 'import-once' } });
      const retry = await importFile(datasetId, file, { headers: { 'idempotency-key': 'import-once' } });
      assert.equal(retry.status, 201);
      assert.equal(retry.headers.get('idempotent-replayed'), 'true');
      assert.equal(retry.body.id, first.body.id);
      const listed = await api(server, organization.token, 'GET', `${base}/imports?datasetId=${datasetId}`);
      assert.equal(listed.body.imports.length, 1);
      const other = await importFile(datasetId, file.replace('IK-1', 'IK-2'), { headers: { 'idempotency-key': 'import-once' } });
      assert.equal(other.status, 422);
    });
  });
}
