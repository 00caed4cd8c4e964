import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { after, before, describe, it } from 'node:test';
import { addDecimals, compareDecimals } from '../../src/domain/money.ts';
import { api, createTestOrganization, startTestServer, storeKinds, type TestOrganization, type TestServer } from '../../support/harness.ts';

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
    file: 'camt.052/viafintech-uk-value-date-only-v02.xml',
    format: 'camt.052',
    entries: 1,
    sum: '-5.00',
    balances: [[null, null]],
    first: { amount: '-5.00', description: null, counterpartyName: 'PAYPAL - TEST/000000' },
    warning: /has no booking date \(<BookgDt>\); it is dated by its value date 2019-07-19/,
  },
  {
    file: 'camt.052/genkgo-v06-pending-interim.xml',
    format: 'camt.052',
    entries: 0,
    sum: '0',
    balances: [[null, '10022.15']],
    warning: /1 entry is not booked yet \(PDNG: 1\)/,
  },
  {
    file: 'camt.052/genkgo-v02-other-account-datetime.xml',
    format: 'camt.052',
    entries: 1,
    sum: '-200000.00',
    balances: [[null, null]],
    first: { amount: '-200000.00', description: 'Credit', counterpartyName: 'Company Name' },
  },
  {
    file: 'camt.052/cbpr-plus-mediolanum-value-date-only-v12.xml',
    format: 'camt.052',
    entries: 1,
    sum: '1000000.00',
    // ITAV (interim available) is not a booked balance; ITBD closes the report.
    balances: [[null, '763741.76']],
    first: { amount: '1000000.00', description: null },
    warning: /has no booking date \(<BookgDt>\); it is dated by its value date 2020-12-15/,
  },
  {
    file: 'camt.052/cbpr-plus-deutsche-bank-to-creditor-v12.xml',
    format: 'camt.052',
    entries: 1,
    sum: '750000.00',
    balances: [[null, '704873.77']],
    first: { amount: '750000.00', description: null },
    warning: /has no booking date \(<BookgDt>\); it is dated by its value date 2020-11-24/,
  },
  {
    file: 'camt.052/genkgo-v06-pending-zero-amounts.xml',
    format: 'camt.052',
    entries: 0,
    sum: '0',
    balances: [[null, '10022.15']],
    warning: /1 entry is not booked yet \(PDNG: 1\)/,
  },
  {
    file: 'camt.053/viafintech-vr-bank-debit-batch-v02.xml',
    format: 'camt.053',
    entries: 5,
    sum: '-10.00',
    balances: [['-33.06', '23.06']],
    first: {
      amount: '-2.00',
      description:
        'TEST BERWEISUNG MITTELS BLZUND KONTONUMMER - DTA AdditionalTransactionInformation / Überweisungs-Gutschrift; GVC: SEPA Credit Transfer (Einzelbuchung-Haben)',
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
    first: {
      amount: '15.00',
      description: 'Mitteilung 132 / GUTSCHRIFT CH-DD-BASISLASTSCHRIFT ID: 41107767420881932 REFERENZ-NR: PMTINF-1CHDDBB3',
      counterpartyName: 'Rutschmann Pia',
    },
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
  {
    file: 'camt.053/handelsbanken-se-three-accounts-v02.xml',
    format: 'camt.053',
    entries: 5,
    sum: '-143311.80',
    // 219456.60 + 11947.20 = 231403.80; an account without entries; a NOK overdraft -96483.98 - 155259 = -251742.98.
    balances: [
      ['219456.60', '231403.80'],
      ['527941.32', '527941.32'],
      ['-96483.98', '-251742.98'],
    ],
    first: { amount: '-1387.60', description: '03121806428334' },
    last: { amount: '-155259.00', description: '14987654321HC' },
  },
  {
    file: 'camt.053/handelsbanken-se-swish-v02.xml',
    format: 'camt.053',
    entries: 4,
    sum: '29.00',
    balances: [['1900.00', '1929.00']],
    first: { amount: '22.00', description: 'Message 22 max 50 characters 2015-10-19-15.18.28.802007', counterpartyName: 'Gustav Gran' },
    last: { amount: '-15.00', description: '2015-10-19-12.53.34.057101', counterpartyName: 'SVEN SVENSSON' },
  },
  {
    file: 'camt.053/handelsbanken-uk-gbp-short-amounts-v02.xml',
    format: 'camt.053',
    entries: 2,
    sum: '-0.10',
    balances: [['6.87', '6.77']],
    // The detail's amount is written ".6" while the entry says 1.60: the entry's amount counts.
    first: { amount: '-1.60', description: 'Message to beneficiary line 1 Message to beneficiary line 2', counterpartyName: 'CASH POOL COMPANY' },
    last: {
      amount: '1.50',
      description:
        'Message to beneficiary?Message line 2?Message Line 3 /REMI/Message to beneficiary?Message line 2?Message Line 3/ORDP/COMPANY A LTD?LONDON/CHGS/SHA / NOLI070001098805 B/O COMPANY A LTD',
      counterpartyName: 'COMPANY A LTD?LONDON',
    },
  },
  {
    file: 'camt.053/cbpr-plus-santander-debit-opening-v12.xml',
    format: 'camt.053',
    entries: 1,
    sum: '65784.32',
    balances: [['-8547.25', '57237.07']],
    first: { amount: '65784.32', description: null },
    warning: /has no booking date \(<BookgDt>\); it is dated by its value date 2022-10-20/,
  },
  {
    file: 'camt.054/cbpr-plus-jpy-value-date-only-v12.xml',
    format: 'camt.054',
    entries: 1,
    sum: '-165486600',
    balances: [[null, null]],
    first: { amount: '-165486600', description: null },
    warning: /has no booking date \(<BookgDt>\); it is dated by its value date 2020-08-06/,
  },
  {
    file: 'camt.054/genkgo-commerzbank-info-only-no-created-v08.xml',
    format: 'camt.054',
    entries: 0,
    sum: '0',
    balances: [[null, null]],
    warning: /1 entry is not booked yet \(INFO: 1\)/,
  },
  {
    file: 'camt.054/genkgo-commerzbank-info-only-v08.xml',
    format: 'camt.054',
    entries: 0,
    sum: '0',
    balances: [[null, null]],
    warning: /1 entry is not booked yet \(INFO: 1\)/,
  },
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
    file: 'bai2/moov-td-bank-unpadded-counts.bai2',
    format: 'bai2',
    // 3 credits and 8 debits, then 2 and 4, as the 88 records' item counts say.
    entries: 17,
    // Each day's debits and credits cancel out (2085.00 and 1115.00 each way), as in td-bank-cad.bai2.
    sum: '0.00',
    balances: [
      [null, null],
      [null, null],
    ],
    first: { amount: '-25.00', description: 'RETURNED CHEQUE' },
    last: { amount: '-5.00', description: 'GALERIES RICHELIEU' },
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
  {
    file: 'camt.052/refused-viafintech-document-without-message.xml',
    error: /line 2, at \/Document: found the root element <Document> without a camt message/,
  },
  {
    file: 'camt.053/refused-camt-to-coda-lithuania-entries-without-dates-v08.xml',
    error: /line 2, at \/Document\/BkToCstmrStmt\/Stmt\[1\]\/Ntry\[1\]: found a booked entry without a booking date or a value date/,
  },
  { file: 'camt.054/refused-genkgo-entry-without-dates-uetr-v08.xml', error: /found a booked entry without a booking date or a value date/ },
  { file: 'camt.054/refused-genkgo-entry-without-dates-agent-v08.xml', error: /found a booked entry without a booking date or a value date/ },
  { file: 'camt.054/refused-genkgo-entry-without-dates-account-name-v02.xml', error: /found a booked entry without a booking date or a value date/ },
  {
    file: 'camt.052/refused-genkgo-entry-without-dates-account-name-v02.xml',
    error: /line 17, at \/Document\/BkToCstmrAcctRpt\/Rpt\[1\]\/Ntry\[1\]: found a booked entry without a booking date or a value date/,
  },
  {
    file: 'camt.054/refused-cbpr-plus-entry-without-dates-royal-bank-v12.xml',
    error: /line 56, at \/Envelope\/Document\/BkToCstmrDbtCdtNtfctn\/Ntfctn\[1\]\/Ntry\[1\]: found a booked entry without a booking date or a value date/,
  },
  {
    file: 'camt.054/refused-cbpr-plus-entry-without-dates-natwest-v12.xml',
    error: /line 56, at \/Envelope\/Document\/BkToCstmrDbtCdtNtfctn\/Ntfctn\[1\]\/Ntry\[1\]: found a booked entry without a booking date or a value date/,
  },
  {
    file: 'bai2/moov-goldman-sachs-issue113-wrong-totals.bai2',
    error: /line 22: found account control total -1260161341762 .* in the account trailer \(49\); expected 7999960/,
  },
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
      assert.equal(
        found.length >= 1,
        true,
        `no stored entry of ${entry.amount} with the text ${JSON.stringify(entry.description)}: ${JSON.stringify(page.body)}`,
      );
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
        if (golden.warning)
          assert.ok(
            body.warnings.some((warning: any) => golden.warning!.test(warning.message)),
            JSON.stringify(body.warnings),
          );
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
