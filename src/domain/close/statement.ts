import type { Queryable } from '../../db/database.ts';
import type { ReconciliationRow } from '../../db/repositories/close-reconciliations.ts';
import { findOrganizationName } from '../../db/repositories/close-reconciliations.ts';
import {
  adjustmentsOf,
  otherCurrencyRows,
  sumAmounts,
  unexplainedRows,
  type AdjustmentRow,
  type StatementRowItem,
} from '../../db/repositories/close-statement.ts';
import { latestClosingBalances } from '../../db/repositories/dataset-overview.ts';
import { findDatasetFacts } from '../../db/repositories/close-reconciliations.ts';
import { closeErrors } from '../../errors.ts';
import { ADJUSTMENT_REASONS, type AdjustmentReason } from '../model.ts';
import { addDecimals, negateDecimal, withCurrencyScale } from '../money.ts';
import { dayAfter, endOfDayMs, startOfDayMs, type Period } from './periods.ts';
import type { ReconciliationStatement, StatementAdjustment, StatementItem, StatementLine } from './statement-shape.ts';

/**
 * The bank reconciliation statement of a period (SPEC §14), computed from the data:
 *
 *   balance per bank at D
 *   + items in the ledger on or before D not yet in the bank   (ledgerNotInBank)
 *   - items in the bank on or before D not yet in the ledger   (bankNotInLedger)
 *   = adjusted bank balance
 *   - adjustments closed by matches (fee, fx, rounding, write-off), bank minus ledger
 *   - balance per ledger at D
 *   = unexplained difference, which must be 0.00 to sign off.
 *
 * Balance per bank: per bank dataset, the closing balance of its last statement dated on or
 * before D plus its rows dated after that statement up to D ("statement"); a dataset with no such
 * statement counts from zero: the sum of its rows up to D ("computed"; the statement's source is
 * "computed" when any dataset is). Balance per ledger: the opening balance, which is the balance
 * at the start of its date, plus the ledger rows dated from the opening date up to D.
 *
 * "Not yet in" the other side: a row dated on or before D whose amount is not all taken by links
 * to counterparts dated on or before D: open (no link), partial (its open remainder counts), or
 * matched to rows after D (what those links took counts). Rows marked informative or out of
 * scope are set apart: they are on no line, but their money is in the balances, so that a set-apart
 * row with an amount shows in the unexplained difference instead of disappearing from it.
 *
 * Every sum is exact: amounts are summed in SQL numeric and added here as decimal texts.
 * Transactions of another currency than the reconciliation's are refused (422) naming how many
 * and where: a statement is of one currency.
 */

export interface StatementInput {
  reconciliation: ReconciliationRow;
  period: Period;
  /** When the statement is computed (ISO 8601). */
  computedAt: string;
}

/** A decimal as the statement writes it: trailing zeros beyond the currency's minor unit dropped, at least that many decimals. */
export function moneyOf(decimal: string, currency: string): string {
  const trimmed = decimal.includes('.') ? decimal.replace(/0+$/, '').replace(/\.$/, '') : decimal;
  return withCurrencyScale(trimmed === '-0' ? '0' : trimmed, currency);
}

function sum(currency: string, amounts: readonly string[]): string {
  return moneyOf(amounts.length === 0 ? '0' : addDecimals(...amounts), currency);
}

function itemOf(row: StatementRowItem, currency: string): StatementItem {
  return {
    transactionId: row.transactionId,
    datasetName: row.datasetName,
    date: row.date,
    description: row.description,
    reference: row.reference,
    amount: moneyOf(row.amount, currency),
    countedAmount: moneyOf(row.countedAmount, currency),
    reason: row.matchedAfter ? 'matched-after-period-end' : row.status === 'partial' ? 'partial' : 'open',
  };
}

function lineOf(rows: readonly StatementRowItem[], currency: string): StatementLine {
  const items = rows.map((row) => itemOf(row, currency));
  return {
    total: sum(
      currency,
      items.map((item) => item.countedAmount),
    ),
    items,
  };
}

function adjustmentOf(row: AdjustmentRow, currency: string): StatementAdjustment {
  const reason = (ADJUSTMENT_REASONS as readonly string[]).includes(row.reason ?? '') ? (row.reason as AdjustmentReason) : 'write-off';
  return {
    reason,
    amount: moneyOf(row.amount, currency),
    date: row.date,
    description: row.description ?? `${reason} adjustment`,
    bankReference: row.bankReference,
    matchGroupId: row.matchGroupId,
  };
}

/** The balance per bank at the period end: statements' closing balances where there are some, the rows after them added. */
async function bankBalanceOf(database: Queryable, organizationId: string, reconciliation: ReconciliationRow, periodEnd: string) {
  const endMs = endOfDayMs(periodEnd);
  const closing = await latestClosingBalances(database, organizationId, reconciliation.bankDatasetIds, periodEnd);
  const parts: string[] = [];
  let computed = false;
  let statementDate: string | null = null;
  for (const datasetId of reconciliation.bankDatasetIds) {
    const balance = closing.find((row) => row.datasetId === datasetId);
    if (balance && balance.amount !== null) {
      parts.push(balance.amount, await sumAmounts(database, organizationId, [datasetId], startOfDayMs(dayAfter(balance.date)), endMs));
      if (statementDate === null || balance.date > statementDate) statementDate = balance.date;
    } else {
      computed = true;
      parts.push(await sumAmounts(database, organizationId, [datasetId], null, endMs));
    }
  }
  return {
    amount: sum(reconciliation.currency, parts),
    source: computed ? ('computed' as const) : ('statement' as const),
    statementDate: computed ? null : statementDate,
  };
}

/** Computes the statement of a reconciliation's period as the data stands now. */
export async function computeStatement(database: Queryable, organizationId: string, input: StatementInput): Promise<ReconciliationStatement> {
  const { reconciliation, period, computedAt } = input;
  const currency = reconciliation.currency;
  const endMs = endOfDayMs(period.periodEnd);
  const allDatasets = [...reconciliation.bankDatasetIds, ...reconciliation.ledgerDatasetIds];

  const foreign = await otherCurrencyRows(database, organizationId, allDatasets, currency, endMs);
  if (foreign.length > 0) {
    const total = foreign.reduce((count, row) => count + row.count, 0);
    throw closeErrors.otherCurrencyRows(total, foreign[0]!.datasetName, foreign[0]!.count, foreign[0]!.currency, currency);
  }

  const datasets = await findDatasetFacts(database, organizationId, allDatasets);
  const nameOf = (id: string) => datasets.find((dataset) => dataset.id === id)?.name ?? id;
  const bankRows = await unexplainedRows(database, organizationId, reconciliation.bankDatasetIds, endMs);
  const ledgerRows = await unexplainedRows(database, organizationId, reconciliation.ledgerDatasetIds, endMs);
  const setApart = (row: StatementRowItem) => row.status === 'informative' || row.status === 'out of scope';

  const bankBalance = await bankBalanceOf(database, organizationId, reconciliation, period.periodEnd);
  const ledgerNotInBank = lineOf(
    ledgerRows.filter((row) => !setApart(row)),
    currency,
  );
  const bankNotInLedger = lineOf(
    bankRows.filter((row) => !setApart(row)),
    currency,
  );
  const adjustedBankBalance = sum(currency, [bankBalance.amount, ledgerNotInBank.total, negateDecimal(bankNotInLedger.total)]);

  const adjustmentItems = (await adjustmentsOf(database, organizationId, reconciliation.bankDatasetIds, reconciliation.ledgerDatasetIds, endMs)).map((row) =>
    adjustmentOf(row, currency),
  );
  const adjustmentsTotal = sum(
    currency,
    adjustmentItems.map((item) => item.amount),
  );

  const ledgerMovement = await sumAmounts(database, organizationId, reconciliation.ledgerDatasetIds, startOfDayMs(reconciliation.ledgerOpeningDate), endMs);
  const ledgerBalance = sum(currency, [reconciliation.ledgerOpeningBalance, ledgerMovement]);
  const unexplainedDifference = sum(currency, [adjustedBankBalance, negateDecimal(adjustmentsTotal), negateDecimal(ledgerBalance)]);

  const apart = [...bankRows, ...ledgerRows].filter(setApart);
  return {
    organizationName: await findOrganizationName(database, organizationId),
    reconciliation: {
      id: reconciliation.id,
      name: reconciliation.name,
      currency,
      bankDatasetNames: reconciliation.bankDatasetIds.map(nameOf),
      ledgerDatasetNames: reconciliation.ledgerDatasetIds.map(nameOf),
    },
    periodStart: period.periodStart,
    periodEnd: period.periodEnd,
    bankBalance,
    ledgerNotInBank,
    bankNotInLedger,
    adjustedBankBalance,
    adjustments: { total: adjustmentsTotal, items: adjustmentItems },
    ledgerBalance: {
      amount: ledgerBalance,
      openingBalance: moneyOf(reconciliation.ledgerOpeningBalance, currency),
      openingDate: reconciliation.ledgerOpeningDate,
    },
    unexplainedDifference,
    setApart: {
      informative: apart.filter((row) => row.status === 'informative').map((row) => ({ ...itemOf(row, currency), reason: 'open' as const })),
      outOfScope: apart.filter((row) => row.status === 'out of scope').map((row) => ({ ...itemOf(row, currency), reason: 'open' as const })),
    },
    signOff: { state: 'open', preparedBy: null, preparedAt: null, preparerNote: null, approvedBy: null, approvedAt: null },
    computedAt,
  };
}
