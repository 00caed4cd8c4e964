import type { ReconciliationStatement, StatementItem } from '../src/domain/close/statement-shape.ts';

/**
 * A hand-built reconciliation statement with every kind of line, for the tests of the close
 * reports: deposits in transit (one open, one partly matched), outstanding payments (one open, one
 * matched after the period end), bank receipts and payments not yet in the ledger, one adjustment
 * of each reason (an fx gain and an fx loss), and rows set apart. Worked by hand:
 *
 *   Balance per bank at 31 March 2026 (statement)          1,248,250.75
 *   Add: deposits in transit         3,400.00 + 200.00         3,600.00
 *   Less: outstanding payments  -1,875.40 + -12,500.00       -14,375.40
 *   Less: bank receipts not yet in the ledger 12.34 + 150.00    -162.34
 *   Add: bank payments not yet in the ledger  -25.00              25.00
 *   Adjusted bank balance                                  1,237,338.01
 *   Bank charges (fee)          -(-6.50)                           6.50
 *   Exchange differences (fx)   -(3.10 + -1.25)                   -1.85
 *   Rounding                    -(0.01)                           -0.01
 *   Write-off                   -(-0.50)                           0.50
 *   Adjusted bank balance after adjustments                1,237,343.15
 *   Balance per ledger at 31 March 2026                    1,237,343.15
 *   Unexplained difference                                          0.00
 */

export const SAMPLE_IDS = {
  reconciliation: '6d7f0a52-1c3e-4a8b-9f21-0b6c2d4e8a10',
  feeGroup: '0c9e7b1a-3f2d-4c5e-8a6b-7d1e2f3a4b5c',
  fxGainGroup: '1d0f8c2b-4a3e-4d6f-9b7c-8e2f3a4b5c6d',
  fxLossGroup: '2e1a9d3c-5b4f-4e7a-8c8d-9f3a4b5c6d7e',
  roundingGroup: '3f2b0e4d-6c5a-4f8b-9d9e-0a4b5c6d7e8f',
  writeOffGroup: '4a3c1f5e-7d6b-4a9c-8e0f-1b5c6d7e8f90',
};

let next = 0;
function item(
  fields: Omit<StatementItem, 'transactionId' | 'countedAmount' | 'reason'> & Partial<Pick<StatementItem, 'countedAmount' | 'reason'>>,
): StatementItem {
  next += 1;
  return {
    transactionId: `00000000-0000-4000-8000-${String(next).padStart(12, '0')}`,
    countedAmount: fields.amount,
    reason: 'open',
    ...fields,
  };
}

export function sampleStatement(overrides: Partial<ReconciliationStatement> = {}): ReconciliationStatement {
  return {
    organizationName: 'Northwind Trading GmbH',
    reconciliation: {
      id: SAMPLE_IDS.reconciliation,
      name: 'Operating account EUR ↔ GL 1200',
      currency: 'EUR',
      bankDatasetNames: ['Sparkasse operating account'],
      ledgerDatasetNames: ['General ledger 1200'],
    },
    periodStart: '2026-03-01',
    periodEnd: '2026-03-31',
    bankBalance: { amount: '1248250.75', source: 'statement', statementDate: '2026-03-31' },
    ledgerNotInBank: {
      total: '-10775.40',
      items: [
        item({
          datasetName: 'General ledger 1200',
          date: '2026-03-30',
          description: 'Customer receipt Müller & Söhne',
          reference: 'INV-1042',
          amount: '3400.00',
        }),
        item({
          datasetName: 'General ledger 1200',
          date: '2026-03-28',
          description: 'Receipt Fabrikam, second instalment',
          reference: 'INV-1038',
          amount: '1200.00',
          countedAmount: '200.00',
          reason: 'partial',
        }),
        item({ datasetName: 'General ledger 1200', date: '2026-03-29', description: 'Supplier payment Acme Corp', reference: 'PO-7781', amount: '-1875.40' }),
        item({
          datasetName: 'General ledger 1200',
          date: '2026-03-31',
          description: 'Payroll March',
          reference: 'PAY-2026-03',
          amount: '-12500.00',
          reason: 'matched-after-period-end',
        }),
      ],
    },
    bankNotInLedger: {
      total: '137.34',
      items: [
        item({ datasetName: 'Sparkasse operating account', date: '2026-03-31', description: 'Credit interest Q1', reference: null, amount: '12.34' }),
        item({ datasetName: 'Sparkasse operating account', date: '2026-03-31', description: 'Account maintenance fee', reference: 'FEE-03', amount: '-25.00' }),
        item({
          datasetName: 'Sparkasse operating account',
          date: '2026-03-15',
          description: '=HYPERLINK("http://example.test/x","Refund")',
          reference: '+REF-99',
          amount: '150.00',
        }),
      ],
    },
    adjustedBankBalance: '1237338.01',
    adjustments: {
      total: '-5.14',
      items: [
        {
          reason: 'fee',
          amount: '-6.50',
          date: '2026-03-12',
          description: 'Card acquirer charge on receipt INV-1017',
          bankReference: 'NTRF-5521',
          matchGroupId: SAMPLE_IDS.feeGroup,
        },
        {
          reason: 'fx',
          amount: '3.10',
          date: '2026-03-18',
          description: 'USD receipt INV-1021 converted',
          bankReference: 'FX-88120',
          matchGroupId: SAMPLE_IDS.fxGainGroup,
        },
        {
          reason: 'fx',
          amount: '-1.25',
          date: '2026-03-22',
          description: 'GBP payment PO-7702 converted',
          bankReference: 'FX-88177',
          matchGroupId: SAMPLE_IDS.fxLossGroup,
        },
        {
          reason: 'rounding',
          amount: '0.01',
          date: '2026-03-25',
          description: 'Split invoice INV-1030',
          bankReference: null,
          matchGroupId: SAMPLE_IDS.roundingGroup,
        },
        {
          reason: 'write-off',
          amount: '-0.50',
          date: '2026-03-27',
          description: 'Short payment INV-1033',
          bankReference: 'NTRF-5609',
          matchGroupId: SAMPLE_IDS.writeOffGroup,
        },
      ],
    },
    ledgerBalance: { amount: '1237343.15', openingBalance: '1200000.00', openingDate: '2026-01-01' },
    unexplainedDifference: '0.00',
    setApart: {
      informative: [
        item({ datasetName: 'Sparkasse operating account', date: '2026-03-05', description: 'Card authorisation hold', reference: null, amount: '-89.99' }),
      ],
      outOfScope: [
        item({ datasetName: 'General ledger 1200', date: '2026-03-10', description: 'Internal transfer to savings', reference: 'TRF-12', amount: '-5000.00' }),
      ],
    },
    signOff: {
      state: 'approved',
      preparedBy: 'Anna Schmidt',
      preparedAt: '2026-04-02T09:15:00Z',
      preparerNote: 'All items explained; payroll cleared on 1 April.',
      approvedBy: 'Jonas Weber',
      approvedAt: '2026-04-03T16:40:00Z',
    },
    computedAt: '2026-04-02T09:14:30Z',
    ...overrides,
  };
}

/** The sample as an open period with a difference left: ledger 1,237,300.00, so 43.15 unexplained. */
export function sampleDraftStatement(): ReconciliationStatement {
  return sampleStatement({
    ledgerBalance: { amount: '1237300.00', openingBalance: '1200000.00', openingDate: '2026-01-01' },
    unexplainedDifference: '43.15',
    signOff: { state: 'open', preparedBy: null, preparedAt: null, preparerNote: null, approvedBy: null, approvedAt: null },
  });
}
