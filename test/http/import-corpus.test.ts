import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { after, before, describe, it } from 'node:test';
import { addDecimals, compareDecimals } from '../../src/domain/money.ts';
import { api, createTestOrganization, startTestServer, storeKinds, type TestOrganization, type TestServer } from '../support/harness.ts';

/**
 * Real files from public sources (test/fixtures/imports/<format>/README.md says where each comes
 * from and under what licence), imported through the real server and compared with golden values
 * read off each file by hand: the number of entries, their exact sum, each statement's balances,
 * and the first and last entry (amount, text, counterparty). Files kept to show a refusal must
 * be refused with the reason named.
 */

interface Entry {
  amount: string;
  description: string | null;
  counterpartyName?: string | null;
}

interface Golden {
  file: string;
  format: string;
  entries: number;
  sum: string;
  /** [opening, closing] amount of each statement, null where the file gives none. */
  balances: Array<[string | null, string | null]>;
  first?: Entry;
  last?: Entry;
  /** A warning the import must give. */
  warning?: RegExp;
}

interface Refused {
  file: string;
  error: RegExp;
}

const GOLDEN: Golden[] = [
  {
    file: 'camt.052/hbci4java-sparkasse-nonref-v02.xml',
    format: 'camt.052',
    entries: 2,
    sum: '10.50',
    balances: [['100.00', '110.50']],
    first: { amount: '10.00', description: 'Verwendungszweck 1 / DAUERAUFTRAG', counterpartyName: 'Max Mustermann' },
    last: { amount: '0.50', description: 'Verwendungszweck 2 / EINZAHLUNG', counterpartyName: 'Bert Bezahler' },
  },
  {
    file: 'camt.052/ofxstatement-sparkasse-pforzheim-nonref-v02.xml',
    format: 'camt.052',
    entries: 5,
    sum: '-251.40',
    balances: [['268.35', '16.95']],
    first: { amount: '-30.00', description: 'Something / BELASTUNG', counterpartyName: 'SPARKASSE PFORZHEIM CALW' },
    last: { amount: '-163.38', description: 'DATUM 05.02.2021, 12.32 UHR1.TAN xxxxxx / UEBERTRAG (UEBERWEISUNG)', counterpartyName: 'John Doe' },
  },
  {
    file: 'camt.052/hbci4java-sparkasse-v08.xml',
    format: 'camt.052',
    entries: 1,
    sum: '-34.00',
    balances: [['100.00', '66.00']],
    first: { amount: '-34.00', description: 'Verwendungszweck / FOLGELASTSCHRIFT', counterpartyName: 'Beispiel AG' },
  },
  {
    file: 'camt.052/hbci4java-ruecklastschrift-v02.xml',
    format: 'camt.052',
    entries: 1,
    sum: '-53.00',
    balances: [['100.00', '100.00']],
    first: { amount: '-53.00', description: 'RUECKLASTSCHRIFT Sonstige Gruende / LS RUECKBELASTUNG', counterpartyName: 'Erwin Einzieher' },
  },
  {
    file: 'camt.052/viafintech-uk-value-date-only-v02.xml',
    format: 'camt.052',
    entries: 1,
    sum: '-5.00',
    balances: [[null, null]],
    first: { amount: '-5.00', description: null, counterpartyName: 'PAYPAL - TEST/000000' },
    warning: /has no booking date \(<BookgDt>\); it is dated by its value date 2019-07-19/,
  },
  { file: 'camt.052/genkgo-v06-pending-interim.xml', format: 'camt.052', entries: 0, sum: '0', balances: [[null, '10022.15']], warning: /1 entry is not booked yet \(PDNG: 1\)/ },
  {
    file: 'camt.052/genkgo-v02-other-account-datetime.xml',
    format: 'camt.052',
    entries: 1,
    sum: '-200000.00',
    balances: [[null, null]],
    first: { amount: '-200000.00', description: 'Credit', counterpartyName: 'Company Name' },
  },
  {
    file: 'camt.053/viafintech-vr-bank-debit-batch-v02.xml',
    format: 'camt.053',
    entries: 5,
    sum: '-10.00',
    balances: [['-33.06', '23.06']],
    first: {
      amount: '-2.00',
      description: 'TEST BERWEISUNG MITTELS BLZUND KONTONUMMER - DTA AdditionalTransactionInformation / Überweisungs-Gutschrift; GVC: SEPA Credit Transfer (Einzelbuchung-Haben)',
      counterpartyName: 'Testkonto Nummer 2',
    },
    last: { amount: '-2.50', description: 'Sammelueberweisung 1. Zahlung   TAN:283044', counterpartyName: 'Testkonto Nummer 1' },
  },
  {
    file: 'camt.053/viafintech-stuzza-austria-v02.xml',
    format: 'camt.053',
    entries: 3,
    sum: '400.00',
    balances: [['150.00', '550.00']],
    first: { amount: '50.00', description: 'Gutschrift a/Muterfra Muster', counterpartyName: 'Musterfrau Muster' },
    last: { amount: '250.00', description: 'Gutschrift a/Testzahlung Zwei', counterpartyName: 'Testzahlung Zwei' },
  },
  {
    file: 'camt.054/viafintech-postfinance-ch-dd-v04.xml',
    format: 'camt.054',
    entries: 5,
    sum: '59.03',
    balances: [[null, null]],
    first: { amount: '15.00', description: 'Mitteilung 132 / GUTSCHRIFT CH-DD-BASISLASTSCHRIFT ID: 41107767420881932 REFERENZ-NR: PMTINF-1CHDDBB3', counterpartyName: 'Rutschmann Pia' },
    last: {
      amount: '-15.53',
      description:
        'Mitteilung 134- / RÜCKBELASTUNG (REFUND) CHDD-BASISLASTSCHRIFT ID: 41107767420881932 REFERENZ-NR: SID-1-160309134053s4C ZAHLUNGSPFLICHTIGER RUTSCHMANN PIA MITTEILUNGEN: MD06 Lastschrift-Widerspruch durch den Zahlungspflichtigen',
      counterpartyName: 'Rutschmann Pia',
    },
  },
  {
    file: 'camt.053/viafintech-ubs-switzerland-v08.xml',
    format: 'camt.053',
    entries: 3,
    sum: '543.56',
    balances: [['82721.95', '84515.25']],
    first: { amount: '474.40', description: 'INVOICE R77561 Payment', counterpartyName: 'Jon Doe' },
    last: { amount: '-19.69', description: 'e-banking Order // FILETRANSFER', counterpartyName: 'DHL Express (Schweiz) AG' },
  },
  { file: 'camt.054/genkgo-commerzbank-info-only-no-created-v08.xml', format: 'camt.054', entries: 0, sum: '0', balances: [[null, null]], warning: /1 entry is not booked yet \(INFO: 1\)/ },
  { file: 'camt.054/genkgo-commerzbank-info-only-v08.xml', format: 'camt.054', entries: 0, sum: '0', balances: [[null, null]], warning: /1 entry is not booked yet \(INFO: 1\)/ },
  {
    file: 'bai2/moov-sample3-records-on-one-line.bai2',
    format: 'bai2',
    entries: 26,
    sum: '-197.05',
    balances: [
      ['-35.00', '-36.00'],
      ['0.00', '0.00'],
      ['0.00', '0.00'],
      ['-557.03', '-864.06'],
      ['985.47', '985.47'],
      ['0.00', '0.00'],
      ['0.00', '0.00'],
      ['6252.66', '6103.15'],
      ['-731.35', '-787.59'],
      ['-40.78', '275.95'],
      ['0.00', '0.00'],
      ['0.00', '0.00'],
      ['0.00', '0.00'],
      ['0.00', '0.00'],
      ['0.00', '0.00'],
    ],
    first: { amount: '25.00', description: 'TRANSFER   PAYPAL             PPD' },
    last: { amount: '-1.05', description: 'HBLE091622 CHIME HUBBLE       PPD' },
    warning: /line 1 holds 2 records, each ending with "\/"/,
  },
  {
    file: 'bai2/moj-natwest-colon-time.bai2',
    format: 'bai2',
    entries: 5,
    sum: '-26.76',
    balances: [['365.21', '338.45']],
    first: { amount: '-9.71', description: 'LVP XBANKGO24007664SJ LVP INT 2 USAXBANKGO24007664SJ LVP INT 2 USARELAY TFR' },
    last: { amount: '0.89', description: 'TFR XBANKGO24007680SJ CAT JPY 2 GBPXBANKGO24007680BGC INTERNATIONAL-5373 CLIE NT SECCY AC TFR' },
    warning: /file creation time "14:59:35" in the file header \(01\) is not written HHMM/,
  },
  {
    file: 'bai2/moj-blank-account-totals.bai2',
    format: 'bai2',
    entries: 0,
    sum: '0',
    balances: [
      [null, null],
      [null, null],
    ],
    warning: /account trailer \(49\) on line 4 gives no control total/,
  },
];

const REFUSED: Refused[] = [
  { file: 'camt.052/refused-viafintech-document-without-message.xml', error: /line 2, at \/Document: found the root element <Document> without a camt message/ },
  { file: 'camt.053/refused-camt-to-coda-lithuania-entries-without-dates-v08.xml', error: /line 2, at \/Document\/BkToCstmrStmt\/Stmt\[1\]\/Ntry\[1\]: found a booked entry without a booking date or a value date/ },
  { file: 'camt.054/refused-genkgo-entry-without-dates-uetr-v08.xml', error: /found a booked entry without a booking date or a value date/ },
  { file: 'camt.054/refused-genkgo-entry-without-dates-agent-v08.xml', error: /found a booked entry without a booking date or a value date/ },
  { file: 'camt.054/refused-genkgo-entry-without-dates-account-name-v02.xml', error: /found a booked entry without a booking date or a value date/ },
];

for (const kind of storeKinds()) {
  describe(`real files from public sources, against their golden values (${kind})`, () => {
    let server: TestServer;
    let organization: TestOrganization;
    let base: string;
    let sourceId: string;

    before(async () => {
      server = await startTestServer(kind);
      organization = await createTestOrganization(server);
      base = `/v1/api/${organization.orgId}`;
      sourceId = (await api(server, organization.token, 'POST', `${base}/sources`, { name: 'Corpus' })).body.id;
    });
    after(async () => server.close());

    async function importFixture(file: string): Promise<{ datasetId: string; status: number; body: any }> {
      const dataset = await api(server, organization.token, 'POST', `${base}/sources/${sourceId}/datasets`, { name: file, columns: [] });
      const response = await fetch(`${server.baseUrl}${base}/datasets/${dataset.body.id}/imports`, {
        method: 'POST',
        headers: { authorization: `Bearer ${organization.token}`, 'content-type': 'application/octet-stream' },
        body: readFileSync(`test/fixtures/imports/${file}`),
      });
      return { datasetId: dataset.body.id, status: response.status, body: await response.json() };
    }

    /** The stored transaction whose description is exactly this text (or, for none, the one without a description). */
    async function storedEntry(datasetId: string, entry: Entry): Promise<any> {
      const page = await api(server, organization.token, 'POST', `${base}/transactions`, {
        datasetId,
        search: [{ path: 'amount', search: { type: 'money', value: entry.amount } }],
        columns: [{ path: 'amount' }, ...(entry.counterpartyName === undefined ? [] : [{ path: 'counterpartyName' }])],
      });
      assert.equal(page.status, 200, JSON.stringify(page.body));
      const found = page.body.filter((row: any) => row.description === entry.description);
      assert.equal(found.length >= 1, true, `no stored entry of ${entry.amount} with the text ${JSON.stringify(entry.description)}: ${JSON.stringify(page.body)}`);
      return found[0];
    }

    for (const golden of GOLDEN) {
      it(`${golden.file}: ${golden.entries} entries summing to ${golden.sum}`, async () => {
        const { datasetId, status, body } = await importFixture(golden.file);
        assert.equal(status, 201, JSON.stringify(body).slice(0, 600));
        assert.equal(body.format, golden.format);
        assert.equal(body.rowsRead, golden.entries);
        assert.equal(body.inserted, golden.entries);
        const sum = body.statements.reduce((total: string, statement: any) => addDecimals(total, statement.sumOfEntries), '0');
        assert.equal(compareDecimals(sum, golden.sum), 0, `sum of ${golden.file}: ${sum}`);
        assert.deepEqual(
          body.statements.map((statement: any) => [statement.openingBalance?.amount ?? null, statement.closingBalance?.amount ?? null]),
          golden.balances,
        );
        for (const entry of [golden.first, golden.last]) {
          if (!entry) continue;
          const row = await storedEntry(datasetId, entry);
          if (entry.counterpartyName !== undefined) assert.equal(row.counterpartyName ?? null, entry.counterpartyName);
        }
        if (golden.warning) assert.ok(body.warnings.some((warning: any) => golden.warning!.test(warning.message)), JSON.stringify(body.warnings));
      });
    }

    for (const refused of REFUSED) {
      it(`${refused.file}: refused, naming why`, async () => {
        const { status, body } = await importFixture(refused.file);
        assert.equal(status, 422, JSON.stringify(body).slice(0, 600));
        assert.match(body.error.message, refused.error);
      });
    }
  });
}
