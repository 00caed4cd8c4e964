import { journalEntryErrors } from '../../errors.ts';
import { negateDecimal, toScaled } from '../../../sdk/src/money.ts';
import type { ReconciliationStatement, StatementAdjustment } from './statement-shape.ts';
import { csvText } from './reports/statement-csv.ts';
import { trimmedDecimal } from './reports/format.ts';

/**
 * A period's adjustments as the journal entries that bring them into the ledger. An adjustment
 * records, on a match, what the bank holds more than the ledger (the statement's sign: a fee the
 * bank took is negative; see statement-shape.ts, unexplained = adjusted - adjustments - ledger).
 * Posting it makes the ledger agree with the bank, against the account the reconciliation maps
 * its reason to:
 *
 *   the bank holds less (amount < 0): debit the reason's account, credit the bank's ledger
 *     account (cash). A bank fee of -6.50: debit Bank charges 6.50, credit Cash 6.50; an fx loss
 *     likewise debits the exchange differences account.
 *   the bank holds more (amount > 0): debit cash, credit the reason's account. An fx gain of 3.10:
 *     debit Cash 3.10, credit Exchange differences 3.10; a fee refunded likewise credits fees.
 *
 * An adjustment of zero proposes nothing. The entries are proposals: the service posts nothing;
 * they go to the ledger as CSV (journalEntriesCsv) and as events.
 */

export type AdjustmentReason = StatementAdjustment['reason'];

/** The ledger account each adjustment reason is posted to (an account code or name, as the ledger knows it). */
export type AdjustmentAccounts = Partial<Record<AdjustmentReason, string>>;

export interface JournalEntryAccounts {
  /** The bank's own account in the ledger (the cash account the reconciliation's bank datasets are), or null when not set. */
  cashAccount: string | null;
  adjustmentAccounts: AdjustmentAccounts;
}

export interface ProposedJournalEntry {
  /** The adjustment's date (its match's latest row), YYYY-MM-DD. */
  date: string;
  debitAccount: string;
  creditAccount: string;
  /** A positive decimal text. */
  amount: string;
  currency: string;
  memo: string;
  reason: AdjustmentReason;
  bankReference: string | null;
  matchGroupId: string;
}

const REASON_MEMO: Record<AdjustmentReason, string> = {
  fee: 'Bank charges',
  fx: 'Exchange difference',
  rounding: 'Rounding difference',
  'write-off': 'Write-off',
};

function blank(account: string | null | undefined): boolean {
  return account === null || account === undefined || account.trim() === '';
}

/**
 * The proposed journal entries of a statement's adjustments, in the statement's order. Refuses
 * (journalEntries.reasonsNotMapped) when a reason among the adjustments has no account, naming
 * every such reason at once, and (journalEntries.cashAccountNotMapped) when the cash account is
 * not set and there is something to post.
 */
export function proposeJournalEntries(statement: ReconciliationStatement, accounts: JournalEntryAccounts): ProposedJournalEntry[] {
  const adjustments = statement.adjustments.items.filter((adjustment) => toScaled(adjustment.amount).units !== 0n);
  if (adjustments.length === 0) return [];
  const unmapped = [...new Set(adjustments.map((adjustment) => adjustment.reason))].filter((reason) => blank(accounts.adjustmentAccounts[reason]));
  if (unmapped.length > 0) throw journalEntryErrors.reasonsNotMapped(unmapped, statement.reconciliation.name);
  if (blank(accounts.cashAccount)) throw journalEntryErrors.cashAccountNotMapped(statement.reconciliation.name);
  const cash = accounts.cashAccount!.trim();
  return adjustments.map((adjustment) => {
    const account = accounts.adjustmentAccounts[adjustment.reason]!.trim();
    const bankHoldsLess = toScaled(adjustment.amount).units < 0n;
    const memo = [`${REASON_MEMO[adjustment.reason]}: ${adjustment.description}`, `${statement.reconciliation.name}, period to ${statement.periodEnd}`].join(
      ' — ',
    );
    return {
      date: adjustment.date,
      debitAccount: bankHoldsLess ? account : cash,
      creditAccount: bankHoldsLess ? cash : account,
      amount: trimmedDecimal(bankHoldsLess ? negateDecimal(adjustment.amount) : adjustment.amount),
      currency: statement.reconciliation.currency,
      memo,
      reason: adjustment.reason,
      bankReference: adjustment.bankReference,
      matchGroupId: adjustment.matchGroupId,
    };
  });
}

/**
 * The journal import layout: one row per line of an entry, the two lines of an entry sharing its
 * journal number, the amount in the Debit or the Credit column: the shape general-journal imports
 * of accounting packages take (their column names differ; map the columns once in the import).
 *
 *   Journal number,Date,Account,Debit,Credit,Currency,Memo,Bank reference,Match group
 *   ADJ-20260331-001,2026-03-12,6820 Bank charges,6.50,,EUR,Bank charges: …,NTRF-5521,0c9e…
 *   ADJ-20260331-001,2026-03-12,1200 Bank,,6.50,EUR,Bank charges: …,NTRF-5521,0c9e…
 *
 * Journal numbers are ADJ-<period end, YYYYMMDD>-<the entry's place, three digits>. Dates are
 * YYYY-MM-DD; amounts positive decimal texts with a dot. Cells go through the SDK's csvField (no
 * formula can run), lines end with CR LF, and the text starts with a UTF-8 byte order mark.
 */
export const JOURNAL_CSV_HEADER = ['Journal number', 'Date', 'Account', 'Debit', 'Credit', 'Currency', 'Memo', 'Bank reference', 'Match group'] as const;

export function journalEntriesCsv(entries: readonly ProposedJournalEntry[], periodEnd: string): string {
  const prefix = `ADJ-${periodEnd.replace(/-/g, '')}`;
  const rows = entries.flatMap((entry, index) => {
    const number = `${prefix}-${String(index + 1).padStart(3, '0')}`;
    const shared = [entry.currency, entry.memo, entry.bankReference ?? '', entry.matchGroupId];
    return [
      [number, entry.date, entry.debitAccount, entry.amount, '', ...shared],
      [number, entry.date, entry.creditAccount, '', entry.amount, ...shared],
    ];
  });
  return csvText(JOURNAL_CSV_HEADER, rows, ['text', 'text', 'text', 'number', 'number', 'text', 'text', 'text', 'text']);
}
