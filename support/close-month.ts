import assert from 'node:assert/strict';
import { api, type TestOrganization, type TestServer } from './harness.ts';
import { addTransactions, createDataset } from './recon-fixtures.ts';
import { camt053Statement } from './statement-files.ts';

/**
 * The month of docs/CLOSE.md: March 2026 of an operating account in EUR against the ledger's
 * account 1200, with every kind of statement item. The bank's statement opens at 10,000.00 and
 * closes at 12,387.70 on 31 March; the ledger opens at 10,000.00 on 1 March.
 *
 *   bank                                     ledger
 *   03-03  +1,200.00  Customer A  INV-1  ==  03-02  +1,200.00  INV-1
 *   03-10    -450.00  Supplier X  PO-7   ==  03-09    -450.00  PO-7
 *   03-15     -12.50  Bank fee (open)
 *   03-20    +997.00  Customer B  INV-2  ==  03-18  +1,000.00  INV-2  (3.00 fee adjustment)
 *   03-25    +500.00  Customer C  INV-3  ==  03-22    +800.00  INV-3  (partial: 300.00 open)
 *   03-31      +3.20  Interest (open)
 *   03-31    +150.00  Customer D  INV-4  ==  04-01    +150.00  INV-4  (after the period)
 *   04-02    -800.00  Supplier Y  PO-9   ==  03-30    -800.00  PO-9   (bank after the period)
 *                                            03-29    -320.00  Cheque 1042 (open)
 *                                            03-31  +2,000.00  Cash deposit (open)
 *                                            03-15      +0.00  Memo (informative)
 */
export const CLOSE_MONTH = {
  periodEnd: '2026-03-31',
  bankBalance: '12387.70',
  ledgerNotInBank: '1180.00',
  bankNotInLedger: '140.70',
  adjustedBankBalance: '13427.00',
  adjustments: '-3.00',
  ledgerBalance: '13430.00',
  unexplainedDifference: '0.00',
};

export const CLOSE_MONTH_STATEMENT = camt053Statement({
  id: 'OPS-2026-03',
  iban: 'DE89370400440532013000',
  currency: 'EUR',
  opening: { amount: '10000.00', date: '2026-02-28' },
  closingDate: '2026-03-31',
  entries: [
    { reference: 'INV-1', amount: '1200.00', date: '2026-03-03', text: 'Customer A' },
    { reference: 'PO-7', amount: '-450.00', date: '2026-03-10', text: 'Supplier X' },
    { reference: 'FEE-03', amount: '-12.50', date: '2026-03-15', text: 'Bank fee March' },
    { reference: 'INV-2', amount: '997.00', date: '2026-03-20', text: 'Customer B' },
    { reference: 'INV-3', amount: '500.00', date: '2026-03-25', text: 'Customer C' },
    { reference: 'INT-03', amount: '3.20', date: '2026-03-31', text: 'Interest March' },
    { reference: 'INV-4', amount: '150.00', date: '2026-03-31', text: 'Customer D' },
  ],
});

const day = (date: string) => Date.parse(`${date}T12:00:00Z`);

export interface SeededCloseMonth {
  base: string;
  bankDatasetId: string;
  ledgerDatasetId: string;
  reconciliationId: string;
  ruleId: string;
  ledger: Record<string, string>;
}

async function waitForRun(server: TestServer, organization: TestOrganization, base: string, runId: string): Promise<void> {
  for (let attempt = 0; ; attempt += 1) {
    const run = await api(server, organization.token, 'GET', `${base}/runs/${runId}`);
    if (!['queued', 'running'].includes(run.body.status)) {
      assert.equal(run.body.status, 'completed', JSON.stringify(run.body));
      return;
    }
    assert.ok(attempt < 600, 'the run did not finish');
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** Seeds the month: the datasets, the statement, the ledger, the matches, and the reconciliation. */
export async function seedCloseMonth(
  server: TestServer,
  organization: TestOrganization,
  names = { bank: 'Operating account', ledger: 'GL 1200' },
): Promise<SeededCloseMonth> {
  const base = `/v1/api/${organization.orgId}`;
  const { datasetId: bankDatasetId, sourceId } = await createDataset(server, organization, { name: names.bank });
  const { datasetId: ledgerDatasetId } = await createDataset(server, organization, { name: names.ledger, sourceId });
  const imported = await fetch(`${server.baseUrl}${base}/datasets/${bankDatasetId}/imports`, {
    method: 'POST',
    headers: { authorization: `Bearer ${organization.token}`, 'content-type': 'application/octet-stream' },
    body: CLOSE_MONTH_STATEMENT,
  });
  assert.equal(imported.status, 201, await imported.text());
  // April's first days reach the bank by the API, after the March statement.
  await addTransactions(server, organization, bankDatasetId, [
    { externalId: 'B8', timestamp: day('2026-04-02'), amount: '-800.00', currency: 'EUR', description: 'Supplier Y', bankReference: 'PO-9' },
  ]);
  const ledger = await addTransactions(server, organization, ledgerDatasetId, [
    { externalId: 'L1', timestamp: day('2026-03-02'), amount: '1200.00', currency: 'EUR', description: 'Invoice 1 Customer A', reference: 'INV-1' },
    { externalId: 'L2', timestamp: day('2026-03-09'), amount: '-450.00', currency: 'EUR', description: 'Supplier X bill', reference: 'PO-7' },
    { externalId: 'L5', timestamp: day('2026-03-18'), amount: '1000.00', currency: 'EUR', description: 'Invoice 2 Customer B', reference: 'INV-2' },
    { externalId: 'L6', timestamp: day('2026-03-22'), amount: '800.00', currency: 'EUR', description: 'Invoice 3 Customer C', reference: 'INV-3' },
    { externalId: 'L10', timestamp: day('2026-03-29'), amount: '-320.00', currency: 'EUR', description: 'Cheque 1042', reference: 'CHQ-1042' },
    { externalId: 'L7', timestamp: day('2026-03-30'), amount: '-800.00', currency: 'EUR', description: 'Supplier Y bill', reference: 'PO-9' },
    { externalId: 'L8', timestamp: day('2026-03-31'), amount: '2000.00', currency: 'EUR', description: 'Cash deposit', reference: 'DEP-31' },
    { externalId: 'L9', timestamp: day('2026-04-01'), amount: '150.00', currency: 'EUR', description: 'Invoice 4 Customer D', reference: 'INV-4' },
    { externalId: 'MEMO', timestamp: day('2026-03-15'), amount: '0.00', currency: 'EUR', description: 'Memo: March accruals', reference: null },
  ]);
  const rule = await api(server, organization.token, 'POST', `${base}/rules`, {
    name: 'Bank reference to ledger reference',
    origin: { datasetIds: [bankDatasetId] },
    target: { datasetIds: [ledgerDatasetId] },
    conditions: [
      { type: 'amount', sign: 'same', tolerance: { absolute: '5.00' } },
      { type: 'equals', origin: { path: 'bankReference' }, target: { path: 'reference' } },
    ],
    adjustment: { reason: 'fee' },
  });
  assert.equal(rule.status, 201, JSON.stringify(rule.body));
  const ruleId = rule.body.rule?.id ?? rule.body.id;
  const started = await api(server, organization.token, 'POST', `${base}/runs`, { mode: 'commit', ruleIds: [ruleId] });
  assert.equal(started.status, 202, JSON.stringify(started.body));
  await waitForRun(server, organization, base, started.body.id);
  // Customer C paid 500.00 of 800.00: a partial match by hand.
  const bankRows = await server.database.query<{ id: string; bank_reference: string }>('SELECT id, bank_reference FROM transactions WHERE dataset_id = $1', [
    bankDatasetId,
  ]);
  const bankOf = (reference: string) => bankRows.find((row) => row.bank_reference === reference)!.id;
  const partial = await api(server, organization.token, 'POST', `${base}/matches`, {
    links: [{ originId: bankOf('INV-3'), targetId: ledger.L6, amount: '500.00' }],
  });
  assert.equal(partial.status, 201, JSON.stringify(partial.body));
  const memo = await api(server, organization.token, 'PATCH', `${base}/transactions/${ledger.MEMO}`, { reconciliationStatus: 'informative' });
  assert.ok(memo.status === 200 || memo.status === 204, JSON.stringify(memo.body));
  const reconciliation = await api(server, organization.token, 'POST', `${base}/reconciliations`, {
    name: `${names.bank} EUR ↔ ${names.ledger}`,
    currency: 'EUR',
    bankDatasetIds: [bankDatasetId],
    ledgerDatasetIds: [ledgerDatasetId],
    ledgerOpeningBalance: '10000.00',
    ledgerOpeningDate: '2026-03-01',
    ruleIds: [ruleId],
    adjustmentAccounts: { fee: '6500' },
  });
  assert.equal(reconciliation.status, 201, JSON.stringify(reconciliation.body));
  return { base, bankDatasetId, ledgerDatasetId, reconciliationId: reconciliation.body.id, ruleId, ledger };
}
