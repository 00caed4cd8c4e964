import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { api, createTestOrganization, startTestServer, storeKinds, type TestOrganization, type TestServer } from '../../support/harness.ts';

/**
 * A file that is not a statement is refused, not imported as an empty success; a statement
 * without entries (an empty day) is a success with its balances (docs/IMPORTS.md).
 */

const statement = (namespace: string, body: string) => `<?xml version="1.0" encoding="UTF-8"?>
<Document xmlns="${namespace}">
<BkToCstmrStmt><GrpHdr><MsgId>M1</MsgId><CreDtTm>2024-03-01T18:00:00+01:00</CreDtTm></GrpHdr>
${body}
</BkToCstmrStmt></Document>
`;

const EMPTY_DAY = `<Stmt><Id>S-1</Id><Acct><Id><IBAN>DE89370400440532013000</IBAN></Id><Ccy>EUR</Ccy></Acct>
<Bal><Tp><CdOrPrtry><Cd>OPBD</Cd></CdOrPrtry></Tp><Amt Ccy="EUR">1500.00</Amt><CdtDbtInd>CRDT</CdtDbtInd><Dt><Dt>2024-03-01</Dt></Dt></Bal>
<Bal><Tp><CdOrPrtry><Cd>CLBD</Cd></CdOrPrtry></Tp><Amt Ccy="EUR">1500.00</Amt><CdtDbtInd>CRDT</CdtDbtInd><Dt><Dt>2024-03-01</Dt></Dt></Bal>
</Stmt>`;

for (const kind of storeKinds()) {
  describe(`files that are not statements (${kind})`, () => {
    let server: TestServer;
    let organization: TestOrganization;
    let base: string;
    let datasetId: string;

    before(async () => {
      server = await startTestServer(kind);
      organization = await createTestOrganization(server);
      base = `/v1/api/${organization.orgId}`;
      const source = await api(server, organization.token, 'POST', `${base}/sources`, { name: 'Bank' });
      datasetId = (await api(server, organization.token, 'POST', `${base}/sources/${source.body.id}/datasets`, { name: 'Account', columns: [] })).body.id;
    });
    after(async () => server.close());

    async function importText(text: string, query = ''): Promise<{ status: number; body: any }> {
      const response = await fetch(`${server.baseUrl}${base}/datasets/${datasetId}/imports${query}`, {
        method: 'POST',
        headers: { authorization: `Bearer ${organization.token}`, 'content-type': 'application/xml' },
        body: text,
      });
      return { status: response.status, body: await response.json() };
    }

    it('refuses an XML document in a namespace that is not camt, naming what it found and what it expected', async () => {
      const answer = await importText(statement('urn:example:bank:statement:1', EMPTY_DAY));
      assert.equal(answer.status, 422, JSON.stringify(answer.body));
      assert.match(
        answer.body.error.message,
        /line 3, at \/Document\/BkToCstmrStmt: found <BkToCstmrStmt> in the namespace "urn:example:bank:statement:1"; expected the ISO 20022 namespace of camt\.053/,
      );
      const listed = await api(server, organization.token, 'GET', `${base}/imports?datasetId=${datasetId}`);
      assert.equal(listed.body.imports[0].status, 'failed');
      assert.match(listed.body.imports[0].error.message, /namespace "urn:example:bank:statement:1"/);
    });

    it('refuses a camt document without any statement, also when the format is named', async () => {
      for (const query of ['', '?format=camt.053']) {
        const answer = await importText(statement('urn:iso:std:iso:20022:tech:xsd:camt.053.001.08', ''), query);
        assert.equal(answer.status, 422, JSON.stringify(answer.body));
        assert.match(answer.body.error.message, /found <BkToCstmrStmt> without any <Stmt>; expected at least one <Stmt> in the message/);
      }
    });

    it('imports a statement without entries (an empty day) as a success, with its balances', async () => {
      const answer = await importText(statement('urn:iso:std:iso:20022:tech:xsd:camt.053.001.08', EMPTY_DAY));
      assert.equal(answer.status, 201, JSON.stringify(answer.body));
      assert.equal(answer.body.rowsRead, 0);
      assert.deepEqual(
        answer.body.statements.map((item: any) => [item.entries, item.inserted, item.duplicates, item.openingBalance, item.closingBalance, item.balanced]),
        [[0, 0, 0, { amount: '1500.00', date: '2024-03-01' }, { amount: '1500.00', date: '2024-03-01' }, true]],
      );
    });
  });
}
