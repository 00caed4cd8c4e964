import { listErrors } from '../../errors.ts';
import { UUID_PATTERN } from '../identifiers.ts';
import { pageOf, pageSize, readCursor, rowsToFetch, textCursors } from '../pages.ts';
import type { ReconciliationStatement, StatementItem } from './statement-shape.ts';

/**
 * The items of one line of a statement, a page at a time (the list recipe of pages.ts): what a
 * screen shows when a line is opened, without every item of a long month at once. The lines are
 * those the statement reads as: the ledger's items not yet in the bank split into deposits in
 * transit (money in) and outstanding payments (money out), the bank's items not yet in the ledger
 * split into receipts and payments, and the rows set apart.
 */

export const STATEMENT_ITEM_LINES = ['deposits-in-transit', 'outstanding-payments', 'bank-receipts', 'bank-payments', 'informative', 'out-of-scope'] as const;
export type StatementItemLine = (typeof STATEMENT_ITEM_LINES)[number];

export const STATEMENT_ITEMS_PAGE_SIZE = pageSize(50, 500);

const moneyIn = (item: StatementItem) => !item.countedAmount.startsWith('-');

/** Every item of a line, as the statement holds it. */
export function itemsOfLine(statement: ReconciliationStatement, line: StatementItemLine): StatementItem[] {
  switch (line) {
    case 'deposits-in-transit':
      return statement.ledgerNotInBank.items.filter(moneyIn);
    case 'outstanding-payments':
      return statement.ledgerNotInBank.items.filter((item) => !moneyIn(item));
    case 'bank-receipts':
      return statement.bankNotInLedger.items.filter(moneyIn);
    case 'bank-payments':
      return statement.bankNotInLedger.items.filter((item) => !moneyIn(item));
    case 'informative':
      return statement.setApart.informative;
    case 'out-of-scope':
      return statement.setApart.outOfScope;
  }
}

interface ItemPosition {
  line: StatementItemLine;
  date: string;
  transactionId: string;
}

const cursors = textCursors<ItemPosition>('sti1.', {
  write: (position) => `${position.line}|${position.date}|${position.transactionId}`,
  read: (text) => {
    const [line, date, transactionId, ...rest] = text.split('|');
    const known = STATEMENT_ITEM_LINES.find((candidate) => candidate === line);
    return known && date && /^\d{4}-\d{2}-\d{2}$/.test(date) && transactionId && UUID_PATTERN.test(transactionId) && rest.length === 0
      ? { line: known, date, transactionId }
      : null;
  },
});

const byDateThenId = (a: StatementItem, b: StatementItem) => a.date.localeCompare(b.date) || a.transactionId.localeCompare(b.transactionId);

/** One page of a line's items, oldest first, with how many the line holds in all. */
export async function statementItemsPage(
  statement: ReconciliationStatement,
  line: StatementItemLine,
  limit: number,
  cursor: string | null,
): Promise<{ items: StatementItem[]; total: number; nextCursor: string | null; hasMore: boolean }> {
  const after = await readCursor(cursors, cursor);
  // A cursor of another line of the statement is not this list's.
  if (after !== null && after.line !== line) throw listErrors.cursorNotOurs();
  const ordered = [...itemsOfLine(statement, line)].sort(byDateThenId);
  const rest =
    after === null ? ordered : ordered.filter((item) => item.date > after.date || (item.date === after.date && item.transactionId > after.transactionId));
  const page = await pageOf(rest.slice(0, rowsToFetch(limit)), limit, (item) => ({ line, date: item.date, transactionId: item.transactionId }), cursors);
  return { items: page.rows, total: ordered.length, nextCursor: page.nextCursor, hasMore: page.hasMore };
}
