import assert from 'node:assert/strict';
import { api, type TestOrganization, type TestServer } from './harness.ts';
import { addTransactions, createDataset } from './recon-fixtures.ts';

/**
 * A matched payout made through the API, as a customer would: a bank dataset with the deposit, a
 * payment provider's dataset with the rows of its settlement report (charges, refunds, fees), all
 * carrying the payout id in a `payoutId` column, and a 1:N rule grouping both by it, committed.
 */

export interface PayoutRows {
  payoutId: string;
  /** The deposit's calendar date, YYYY-MM-DD (stored as midnight UTC, as a bank file's date is). */
  depositDate: string;
  depositDescription: string;
  charges: { count: number; amount: string };
  refunds: { count: number; amount: string };
  fees: { count: number; amount: string };
  /** What the rows come to, signed: the deposit's amount. */
  net: string;
}

/** 296 charges of 10.00, 4 refunds of −10.00 and 3 fees of −29.10: 2,832.70 EUR, as in docs/MATCHING.md. */
export const EXAMPLE_PAYOUT: PayoutRows = {
  payoutId: 'po_123',
  depositDate: '2026-01-03',
  depositDescription: 'STRIPE PAYMENTS UK LTD PAYOUT',
  charges: { count: 296, amount: '10.00' },
  refunds: { count: 4, amount: '-10.00' },
  fees: { count: 3, amount: '-29.10' },
  net: '2832.70',
};

export interface SeededPayout {
  bankDatasetId: string;
  providerDatasetId: string;
  depositId: string;
  /** The provider rows' ids by external id (charge-1, refund-1, fee-1 ...). */
  rowIds: Record<string, string>;
  groupId: string;
}

export async function seedPayout(server: TestServer, organization: TestOrganization, payout: PayoutRows = EXAMPLE_PAYOUT): Promise<SeededPayout> {
  const base = `/v1/api/${organization.orgId}`;
  const columns = [{ name: 'payoutId', type: 'string' }];
  const { datasetId: bankDatasetId } = await createDataset(server, organization, { name: 'Main account', columns });
  const { datasetId: providerDatasetId } = await createDataset(server, organization, { name: 'Card payments', columns });
  const depositAt = Date.parse(`${payout.depositDate}T00:00:00Z`);
  const deposit = await addTransactions(server, organization, bankDatasetId, [
    {
      externalId: `deposit-${payout.payoutId}`,
      timestamp: depositAt,
      description: payout.depositDescription,
      amount: payout.net,
      currency: 'EUR',
      payoutId: payout.payoutId,
    },
  ]);
  const rows = (['charges', 'refunds', 'fees'] as const).flatMap((kind) =>
    Array.from({ length: payout[kind].count }, (_, index) => {
      const type = kind.slice(0, -1);
      return {
        externalId: `${type}-${index + 1}`,
        // The report's rows are of the two days before the deposit.
        timestamp: depositAt - (1 + (index % 2)) * 86_400_000,
        description: `${type.charAt(0).toUpperCase()}${type.slice(1)} ${String(index + 1).padStart(4, '0')}`,
        type,
        amount: payout[kind].amount,
        currency: 'EUR',
        payoutId: payout.payoutId,
      };
    }),
  );
  const rowIds = await addTransactions(server, organization, providerDatasetId, rows);
  const rule = await api(server, organization.token, 'POST', `${base}/rules`, {
    name: 'Card payouts',
    origin: { datasetIds: [bankDatasetId] },
    target: { datasetIds: [providerDatasetId] },
    cardinality: '1:N',
    groupBy: { origin: ['payoutId'], target: ['payoutId'] },
    conditions: [{ type: 'amount', sign: 'same' }],
  });
  assert.equal(rule.status, 201, JSON.stringify(rule.body));
  const started = await api(server, organization.token, 'POST', `${base}/runs`, { mode: 'commit' });
  assert.equal(started.status, 202, JSON.stringify(started.body));
  for (let attempt = 0; ; attempt += 1) {
    const run = await api(server, organization.token, 'GET', `${base}/runs/${started.body.id}`);
    if (!['queued', 'running'].includes(run.body.status)) {
      assert.equal(run.body.status, 'completed', JSON.stringify(run.body));
      assert.equal(run.body.totals.matched, 1, JSON.stringify(run.body.totals));
      break;
    }
    assert.ok(attempt < 600, 'the payout run did not finish');
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  const depositId = deposit[`deposit-${payout.payoutId}`]!;
  const record = await api(server, organization.token, 'GET', `${base}/transactions/${depositId}`);
  const groupId = record.body.incomingMatches[0].groupId as string;
  return { bankDatasetId, providerDatasetId, depositId, rowIds, groupId };
}
