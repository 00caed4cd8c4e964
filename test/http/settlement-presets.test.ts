import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { after, before, describe, it } from 'node:test';
import { api, createTestOrganization, startTestServer, storeKinds, type TestServer } from '../../support/harness.ts';
import { addTransactions, createDataset, reconciliationOf } from '../../support/recon-fixtures.ts';

/**
 * Payment providers' settlement reports (SPEC §16) imported through the real server with their
 * presets, without a mapping, then matched to their bank deposits by a 1:N rule grouped by payout
 * id: every payout of each report matches its deposit exactly.
 */

const FIXTURES = 'test/fixtures/imports/settlement';

interface Report {
  file: string;
  preset: string;
  rows: number;
  leftOut: RegExp;
  /** Each payout of the report: its id, the deposit that pays it out, and its rows by type. */
  payouts: { payoutId: string; amount: string; currency: string; byType: { type: string; count: number; sum: string }[] }[];
}

const REPORTS: Report[] = [
  {
    file: 'stripe-payout-reconciliation-itemized.csv',
    preset: 'stripe-payout-reconciliation',
    rows: 9,
    leftOut: /9 rows below the header, 9 imported$/,
    payouts: [
      {
        payoutId: 'po_1QdemoAAAAAAAAAA1',
        amount: '210.88',
        currency: 'EUR',
        byType: [
          { type: 'charge', count: 3, sum: '242.38' },
          { type: 'refund', count: 1, sum: '-30.00' },
          { type: 'fee', count: 1, sum: '-1.50' },
        ],
      },
      {
        payoutId: 'po_1QdemoBBBBBBBBBB2',
        amount: '144.98',
        currency: 'EUR',
        byType: [
          { type: 'charge', count: 2, sum: '237.88' },
          { type: 'other_adjustment', count: 1, sum: '2.10' },
          { type: 'dispute', count: 1, sum: '-95.00' },
        ],
      },
    ],
  },
  {
    file: 'adyen-settlement-details.csv',
    preset: 'adyen-settlement-details',
    rows: 8,
    leftOut: /10 rows below the header, 8 imported and 2 left out as no transaction of a payout \(2 MerchantPayout \(the payout itself\)\)/,
    payouts: [
      {
        payoutId: 'DemoShopEUR batch 41',
        amount: '77.43',
        currency: 'EUR',
        byType: [
          { type: 'Settled', count: 2, sum: '151.25' },
          { type: 'Chargeback', count: 1, sum: '-47.50' },
          { type: 'Refunded', count: 1, sum: '-25.12' },
          { type: 'Fee', count: 1, sum: '-1.20' },
        ],
      },
      {
        payoutId: 'DemoShopEUR batch 42',
        amount: '269.64',
        currency: 'EUR',
        byType: [
          { type: 'Settled', count: 2, sum: '264.64' },
          { type: 'DepositCorrection', count: 1, sum: '5.00' },
        ],
      },
    ],
  },
  {
    file: 'paypal-settlement-stl.csv',
    preset: 'paypal-settlement',
    rows: 9,
    leftOut: /20 records, 9 imported and 11 left out as no transaction of a payout \(.*2 T0400 \(withdrawal to the bank, the payout itself\)/,
    payouts: [
      {
        payoutId: 'paypal-2026-10-24-EUR',
        amount: '145.15',
        currency: 'EUR',
        byType: [
          { type: 'payment', count: 2, sum: '158.70' },
          { type: 'currency conversion', count: 1, sum: '46.10' },
          { type: 'chargeback', count: 1, sum: '-30.00' },
          { type: 'refund', count: 1, sum: '-19.65' },
          { type: 'fee', count: 1, sum: '-10.00' },
        ],
      },
      {
        payoutId: 'paypal-2026-10-24-USD',
        amount: '21.79',
        currency: 'USD',
        byType: [
          { type: 'payment', count: 2, sum: '71.79' },
          { type: 'currency conversion', count: 1, sum: '-50.00' },
        ],
      },
    ],
  },
];

/** byType compared without regard to its order. */
function sortedByType(byType: { type: string; count: number; sum: string }[]) {
  return [...byType].sort((left, right) => left.type.localeCompare(right.type));
}

for (const kind of storeKinds()) {
  describe(`settlement reports import with their presets and match their deposits (${kind})`, () => {
    let server: TestServer;
    before(async () => {
      server = await startTestServer(kind);
    });
    after(async () => server.close());

    for (const report of REPORTS) {
      it(`${report.file}: imported without a mapping, each of its payouts matches its bank deposit exactly`, async () => {
        const organization = await createTestOrganization(server);
        const base = `/v1/api/${organization.orgId}`;
        const { datasetId: bank } = await createDataset(server, organization, { name: 'Bank', columns: [{ name: 'payoutId', type: 'string' }] });
        // The provider's dataset declares nothing: the preset's import adds its columns.
        const { datasetId: provider } = await createDataset(server, organization, { name: 'Provider' });

        // The preview names the report and proposes no mapping: the preset reads it.
        const previewed = await fetch(`${server.baseUrl}${base}/datasets/${provider}/imports/preview`, {
          method: 'POST',
          headers: { authorization: `Bearer ${organization.token}`, 'content-type': 'application/octet-stream' },
          body: readFileSync(`${FIXTURES}/${report.file}`),
        });
        const preview = (await previewed.json()) as any;
        assert.equal(previewed.status, 200, JSON.stringify(preview));
        assert.equal(preview.preset.name, report.preset);
        assert.deepEqual([preview.mapping, preview.questions, preview.rows.length], [null, [], report.rows]);

        const response = await fetch(`${server.baseUrl}${base}/datasets/${provider}/imports?fileName=${report.file}`, {
          method: 'POST',
          headers: { authorization: `Bearer ${organization.token}`, 'content-type': 'text/csv' },
          body: readFileSync(`${FIXTURES}/${report.file}`),
        });
        const imported = (await response.json()) as any;
        assert.equal(response.status, 201, JSON.stringify(imported));
        assert.equal(imported.format, 'csv');
        assert.deepEqual([imported.rowsRead, imported.inserted, imported.duplicates], [report.rows, report.rows, 0]);
        const note = imported.warnings.find((warning: { message: string }) => warning.message.includes(`preset "${report.preset}"`));
        assert.ok(note, JSON.stringify(imported.warnings));
        assert.match(note.message, report.leftOut);

        const sources = (await api(server, organization.token, 'GET', `${base}/sources`)).body;
        const dataset = (sources.sources ?? sources)
          .flatMap((source: { datasets: { id: string }[] }) => source.datasets)
          .find((candidate: { id: string }) => candidate.id === provider);
        const columns = Object.fromEntries(dataset.columns.map((column: { name: string; type: string }) => [column.name, column.type]));
        assert.equal(columns.payoutId, 'string');
        assert.equal(columns.fee, 'money');
        assert.equal(columns.gross, 'money');

        const deposits = await addTransactions(
          server,
          organization,
          bank,
          report.payouts.map((payout, index) => ({
            externalId: `deposit-${index}`,
            timestamp: Date.UTC(2026, 9, 10 + index),
            amount: payout.amount,
            currency: payout.currency,
            description: `Payout ${payout.payoutId}`,
            payoutId: payout.payoutId,
          })),
        );
        const rule = await api(server, organization.token, 'POST', `${base}/rules`, {
          name: 'Provider payouts',
          origin: { datasetIds: [bank] },
          target: { datasetIds: [provider] },
          cardinality: '1:N',
          groupBy: { origin: ['payoutId'], target: ['payoutId'] },
          conditions: [{ type: 'amount', sign: 'same' }],
        });
        assert.equal(rule.status, 201, JSON.stringify(rule.body));

        const started = await api(server, organization.token, 'POST', `${base}/runs`, { mode: 'commit' });
        assert.equal(started.status, 202, JSON.stringify(started.body));
        let run: any;
        for (let attempt = 0; attempt < 600; attempt += 1) {
          run = (await api(server, organization.token, 'GET', `${base}/runs/${started.body.id}`)).body;
          if (!['queued', 'running'].includes(run.status)) break;
          await new Promise((resolve) => setTimeout(resolve, 100));
        }
        assert.equal(run.status, 'completed', JSON.stringify(run));
        assert.equal(run.totals.matched, report.payouts.length, JSON.stringify(run.counts));

        const matches = (await api(server, organization.token, 'GET', `${base}/runs/${run.id}/results?kind=matches`)).body.results;
        for (const [index, payout] of report.payouts.entries()) {
          const deposit = deposits[`deposit-${index}`]!;
          assert.deepEqual(await reconciliationOf(server, deposit), {
            status: 'full',
            allocated: payout.amount,
            match_count: payout.byType.reduce((count, type) => count + type.count, 0),
            override: null,
          });
          const match = matches.find((candidate: { transactionIds: string[] }) => candidate.transactionIds.includes(deposit));
          assert.ok(match, `${payout.payoutId}: no match`);
          assert.equal(match.evidence.group.total, payout.amount);
          assert.equal(match.evidence.group.difference, '0.00');
          assert.deepEqual(sortedByType(match.evidence.group.byType), sortedByType(payout.byType), payout.payoutId);
        }
        // Every row of the report is part of its payout's match.
        const open = await api(server, organization.token, 'POST', `${base}/transactions`, {
          datasetId: provider,
          search: [{ path: 'reconciliationStatus', search: { type: 'string', value: 'full', exact: true } }],
          limit: 100,
        });
        assert.equal(open.status, 200, JSON.stringify(open.body));
        assert.equal(open.body.length, report.rows);
      });
    }
  });
}
