import type { ReconciliationStatement, StatementAdjustment, StatementItem } from '../statement-shape.ts';
import { formatAmount, formatLongDate, isNegative, isZero, negate, sameAmount, sum } from './format.ts';

/**
 * The statement in the accountant's form that the PDF and the XLSX both write, figure for figure:
 *
 *   Balance per bank at D                                   (from the statement of D', or computed)
 *   Add: deposits in transit                 ledger receipts dated on or before D not yet in the bank
 *   Less: outstanding payments               ledger payments dated on or before D not yet in the bank
 *   Less: bank receipts not yet in the ledger
 *   Add: bank payments not yet in the ledger
 *   Adjusted bank balance                    = the five above
 *   Adjustments: bank charges (fee), exchange differences (fx), rounding, write-off
 *   Adjusted bank balance after adjustments  = adjusted bank balance + the four adjustments
 *   Balance per ledger at D                  (opening balance and the ledger's entries)
 *   Unexplained difference                   = after adjustments - ledger
 *
 * Every amount in the amount column is what the row adds to the running balance, signed: a
 * "Less" row shows a minus. An adjustment's amount in the statement is what the bank holds more
 * than the ledger for its match (a fee taken by the bank is negative), and the statement takes it
 * away (unexplained = adjusted - adjustments - ledger), so its row shows it with the sign turned.
 * The figures are checked against the statement's own totals: a statement that does not add up is
 * refused rather than printed.
 */

export type AdjustmentReason = StatementAdjustment['reason'];

export const ADJUSTMENT_REASONS: readonly AdjustmentReason[] = ['fee', 'fx', 'rounding', 'write-off'];

/** What each reason is, in words. */
export const ADJUSTMENT_REASON_WORDS: Record<AdjustmentReason, string> = {
  fee: 'Bank charges (fee)',
  fx: 'Exchange differences (fx)',
  rounding: 'Rounding',
  'write-off': 'Write-off',
};

export type StatementRowKey =
  | 'bankBalance'
  | 'depositsInTransit'
  | 'outstandingPayments'
  | 'bankReceiptsNotInLedger'
  | 'bankPaymentsNotInLedger'
  | 'adjustedBankBalance'
  | `adjustment:${AdjustmentReason}`
  | 'balanceAfterAdjustments'
  | 'ledgerBalance'
  | 'unexplainedDifference';

export interface StatementRow {
  key: StatementRowKey;
  label: string;
  /** What the row adds to the running balance (a total: the balance itself), a decimal text. */
  amount: string;
  /** Where the figure comes from, in words, or null. */
  note: string | null;
  /** A total: the sum of `sumOf` (the keys of the rows it adds), or for the difference, sumOf[0] - sumOf[1]. */
  total: { sumOf: StatementRowKey[]; less?: StatementRowKey } | null;
  /** A heading printed above the row (the adjustments'), or null. */
  heading: string | null;
}

/** The items of a line of the statement, for the appendices and the Items sheet. */
export interface ItemGroup {
  name: string;
  items: StatementItem[];
  /** Whether the items count on the statement (set-apart rows do not). */
  counted: boolean;
}

function countedSum(items: readonly StatementItem[], negative: boolean): string {
  return sum(items.filter((item) => isNegative(item.countedAmount) === negative).map((item) => item.countedAmount));
}

function agrees(what: string, computed: string, stated: string): void {
  if (!sameAmount(computed, stated)) {
    throw new Error(`the statement does not add up: ${what} comes to ${computed} from its parts, but the statement says ${stated}`);
  }
}

/** The rows of the statement, in order, checked against its totals. */
export function statementRows(statement: ReconciliationStatement): StatementRow[] {
  const periodEnd = formatLongDate(statement.periodEnd);
  const ledgerItems = statement.ledgerNotInBank.items;
  const bankItems = statement.bankNotInLedger.items;
  agrees('the ledger items not yet in the bank', sum(ledgerItems.map((item) => item.countedAmount)), statement.ledgerNotInBank.total);
  agrees('the bank items not yet in the ledger', sum(bankItems.map((item) => item.countedAmount)), statement.bankNotInLedger.total);
  agrees('the adjustments', sum(statement.adjustments.items.map((item) => item.amount)), statement.adjustments.total);

  const bank = statement.bankBalance;
  const rows: StatementRow[] = [
    {
      key: 'bankBalance',
      label: `Balance per bank at ${periodEnd}`,
      amount: bank.amount,
      note:
        bank.source === 'statement' && bank.statementDate !== null
          ? `from the statement of ${formatLongDate(bank.statementDate)}`
          : `computed from the opening balance and entries: no statement balance on or before ${periodEnd}`,
      total: null,
      heading: null,
    },
    {
      key: 'depositsInTransit',
      label: 'Add: deposits in transit',
      amount: countedSum(ledgerItems, false),
      note: 'ledger receipts not yet in the bank',
      total: null,
      heading: null,
    },
    {
      key: 'outstandingPayments',
      label: 'Less: outstanding payments',
      amount: countedSum(ledgerItems, true),
      note: 'ledger payments not yet in the bank',
      total: null,
      heading: null,
    },
    {
      key: 'bankReceiptsNotInLedger',
      label: 'Less: bank receipts not yet in the ledger',
      amount: negate(countedSum(bankItems, false)),
      note: 'interest, unknown receipts',
      total: null,
      heading: null,
    },
    {
      key: 'bankPaymentsNotInLedger',
      label: 'Add: bank payments not yet in the ledger',
      amount: negate(countedSum(bankItems, true)),
      note: 'fees, charges, unknown payments',
      total: null,
      heading: null,
    },
  ];
  const adjusted = sum(rows.map((row) => row.amount));
  agrees('the adjusted bank balance', adjusted, statement.adjustedBankBalance);
  rows.push({
    key: 'adjustedBankBalance',
    label: 'Adjusted bank balance',
    amount: statement.adjustedBankBalance,
    note: null,
    total: { sumOf: rows.map((row) => row.key) },
    heading: null,
  });
  ADJUSTMENT_REASONS.forEach((reason, index) => {
    const items = statement.adjustments.items.filter((item) => item.reason === reason);
    rows.push({
      key: `adjustment:${reason}`,
      label: ADJUSTMENT_REASON_WORDS[reason],
      amount: negate(sum(items.map((item) => item.amount))),
      note: items.length === 0 ? null : `${items.length} ${items.length === 1 ? 'match' : 'matches'}`,
      total: null,
      heading: index === 0 ? 'Adjustments recorded on matches' : null,
    });
  });
  const afterAdjustments = sum([statement.adjustedBankBalance, negate(statement.adjustments.total)]);
  rows.push({
    key: 'balanceAfterAdjustments',
    label: 'Adjusted bank balance after adjustments',
    amount: afterAdjustments,
    note: null,
    total: { sumOf: ['adjustedBankBalance', ...ADJUSTMENT_REASONS.map((reason) => `adjustment:${reason}` as const)] },
    heading: null,
  });
  const ledger = statement.ledgerBalance;
  rows.push({
    key: 'ledgerBalance',
    label: `Balance per ledger at ${periodEnd}`,
    amount: ledger.amount,
    note: `opening balance ${formatAmount(ledger.openingBalance)} on ${formatLongDate(ledger.openingDate)} and the ledger's entries to ${periodEnd}`,
    total: null,
    heading: null,
  });
  agrees('the unexplained difference', sum([afterAdjustments, negate(ledger.amount)]), statement.unexplainedDifference);
  rows.push({
    key: 'unexplainedDifference',
    label: 'Unexplained difference',
    amount: statement.unexplainedDifference,
    note: isZero(statement.unexplainedDifference) ? null : 'must be 0.00 before the period can be prepared',
    total: { sumOf: ['balanceAfterAdjustments'], less: 'ledgerBalance' },
    heading: null,
  });
  return rows;
}

/** The items behind each line, in the statement's order, then the rows set apart. */
export function itemGroups(statement: ReconciliationStatement): ItemGroup[] {
  const ledgerItems = statement.ledgerNotInBank.items;
  const bankItems = statement.bankNotInLedger.items;
  return [
    { name: 'Deposits in transit', items: ledgerItems.filter((item) => !isNegative(item.countedAmount)), counted: true },
    { name: 'Outstanding payments', items: ledgerItems.filter((item) => isNegative(item.countedAmount)), counted: true },
    { name: 'Bank receipts not yet in the ledger', items: bankItems.filter((item) => !isNegative(item.countedAmount)), counted: true },
    { name: 'Bank payments not yet in the ledger', items: bankItems.filter((item) => isNegative(item.countedAmount)), counted: true },
    { name: 'Set apart: informative', items: statement.setApart.informative, counted: false },
    { name: 'Set apart: out of scope', items: statement.setApart.outOfScope, counted: false },
  ];
}

/** Why an item is on its line, in words. */
export function reasonInWords(item: StatementItem, counted: boolean): string {
  if (!counted) return 'set apart: counts on no line';
  if (item.reason === 'partial') return 'partly matched: the open remainder counts';
  if (item.reason === 'matched-after-period-end') return 'matched after the period end';
  return 'open';
}

/** "Operating account EUR" or "A, B and C". */
export function namesInWords(names: readonly string[]): string {
  if (names.length <= 1) return names[0] ?? '(none)';
  return `${names.slice(0, -1).join(', ')} and ${names[names.length - 1]}`;
}

/** The sign-off in words: who prepared and approved, and when, or that it has not been. */
export function signOffInWords(statement: ReconciliationStatement, formatInstant: (instant: string) => string) {
  const signOff = statement.signOff;
  return {
    draft: signOff.state === 'open',
    state: signOff.state === 'open' ? 'DRAFT — not signed' : signOff.state === 'prepared' ? 'Prepared — not yet approved' : 'Approved',
    prepared: signOff.preparedBy !== null && signOff.preparedAt !== null ? `${signOff.preparedBy}, ${formatInstant(signOff.preparedAt)}` : 'Not yet prepared',
    preparerNote: signOff.preparerNote,
    approved: signOff.approvedBy !== null && signOff.approvedAt !== null ? `${signOff.approvedBy}, ${formatInstant(signOff.approvedAt)}` : 'Not yet approved',
  };
}
