/**
 * The bank reconciliation statement as the close capability hands it on: to the API (which
 * publishes it), to the stored sign-off (which keeps it as it stood when prepared) and to the
 * reports (PDF, XLSX, CSV). One definition, types only; statement.ts computes it.
 *
 * Amounts are decimal texts ("-1234.50"), exact, never numbers. Calendar dates are "YYYY-MM-DD"
 * as the bank or ledger wrote them. Signs are the transactions' own: money in positive.
 *
 *   adjustedBankBalance  = bankBalance.amount + ledgerNotInBank.total - bankNotInLedger.total
 *   unexplainedDifference = adjustedBankBalance - adjustments.total - ledgerBalance.amount
 *
 * (adjustments: the differences that matches closed by an adjustment — fee, fx, rounding,
 * write-off — recorded on groups whose rows are dated on or before the period end.)
 */

export interface StatementItem {
  transactionId: string;
  datasetName: string;
  /** The row's calendar date, YYYY-MM-DD. */
  date: string;
  description: string | null;
  reference: string | null;
  /** The row's whole amount. */
  amount: string;
  /** What the line counts: the whole amount when open, the open remainder when partly matched. */
  countedAmount: string;
  /** Why it is on the line. */
  reason: 'open' | 'partial' | 'matched-after-period-end';
}

export interface StatementLine {
  /** Signed sum of countedAmount over items. */
  total: string;
  items: StatementItem[];
}

export interface StatementAdjustment {
  reason: 'fee' | 'fx' | 'rounding' | 'write-off';
  amount: string;
  /** The date of the group's latest member, YYYY-MM-DD. */
  date: string;
  description: string;
  bankReference: string | null;
  matchGroupId: string;
}

export interface ReconciliationStatement {
  organizationName: string;
  reconciliation: { id: string; name: string; currency: string; bankDatasetNames: string[]; ledgerDatasetNames: string[] };
  /** First and last day of the period, YYYY-MM-DD. */
  periodStart: string;
  periodEnd: string;
  bankBalance: {
    amount: string;
    /** 'statement': the closing balance of the last imported statement on or before the period end; 'computed': no statement balance, so opening + entries. */
    source: 'statement' | 'computed';
    /** The day of the statement balance used, or null when computed. */
    statementDate: string | null;
  };
  /** Ledger rows dated on or before the period end not yet in the bank: deposits in transit (positive), outstanding payments (negative). */
  ledgerNotInBank: StatementLine;
  /** Bank rows dated on or before the period end not yet in the ledger: fees, interest, unknown receipts. */
  bankNotInLedger: StatementLine;
  adjustedBankBalance: string;
  adjustments: { total: string; items: StatementAdjustment[] };
  ledgerBalance: { amount: string; openingBalance: string; openingDate: string };
  unexplainedDifference: string;
  /** Rows marked informative or out of scope, shown apart; they count on no line. */
  setApart: { informative: StatementItem[]; outOfScope: StatementItem[] };
  /** Who prepared and approved, when the period has been signed; null while open. */
  signOff: {
    state: 'open' | 'prepared' | 'approved';
    preparedBy: string | null;
    preparedAt: string | null;
    preparerNote: string | null;
    approvedBy: string | null;
    approvedAt: string | null;
  };
  /** When the statement was computed (ISO 8601 instant). */
  computedAt: string;
}
