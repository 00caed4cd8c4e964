import { randomUUID } from 'node:crypto';
import type { Database, Queryable } from '../../db/database.ts';
import {
  findDatasetFacts,
  findReconciliation,
  findRuleIds,
  insertReconciliation,
  listPeriods,
  listReconciliations,
  reconciliationNameTaken,
  updateReconciliation,
  type ReconciliationFields,
  type ReconciliationRow,
} from '../../db/repositories/close-reconciliations.ts';
import { appendAuditEvents } from '../../db/repositories/audit-events.ts';
import { lockOrganization } from '../../db/repositories/organizations.ts';
import { closeErrors, invalidField, notFound } from '../../errors.ts';
import { AuditActions, objectEvent, type WriteContext } from '../audit.ts';
import { validName } from '../catalog/datasets.ts';
import { ADJUSTMENT_REASONS } from '../model.ts';
import { compareDecimals, moneyProblem, parseMoney } from '../money.ts';
import { createdCursors, pageOf, pageSize, readCursor, rowsToFetch } from '../pages.ts';
import { periodName } from './closed-periods.ts';
import { isCalendarDate } from './periods.ts';

/**
 * Reconciliations (SPEC §14): a named pairing of bank datasets with ledger datasets of one
 * currency, with the ledger's opening balance and date, the rules that serve it, a period length
 * in months, and the ledger accounts adjustments post to. A dataset belongs to one reconciliation
 * and is on one side of it; a dataset that declares a currency must declare the reconciliation's.
 */

export const RECONCILIATIONS_PAGE_SIZE = pageSize(50, 200);
const RECONCILIATIONS_CURSORS = createdCursors('rc1.');

export interface Reconciliation {
  id: string;
  name: string;
  currency: string;
  bankDatasetIds: string[];
  ledgerDatasetIds: string[];
  ledgerOpeningBalance: string;
  ledgerOpeningDate: string;
  periodMonths: number;
  ruleIds: string[];
  adjustmentAccounts: Partial<Record<(typeof ADJUSTMENT_REASONS)[number], string>>;
  /** The bank's own account in the ledger, which adjustments are posted against (journal entries); null when not set. */
  cashAccount: string | null;
  archived: boolean;
  createdAt: string;
  createdBy: string;
  updatedAt: string;
}

export interface ReconciliationInput {
  name?: string;
  currency?: string;
  bankDatasetIds?: string[];
  ledgerDatasetIds?: string[];
  ledgerOpeningBalance?: string | number;
  ledgerOpeningDate?: string;
  periodMonths?: number;
  ruleIds?: string[];
  adjustmentAccounts?: Record<string, string>;
  cashAccount?: string | null;
  archived?: boolean;
}

export function reconciliationOf(row: ReconciliationRow): Reconciliation {
  return {
    id: row.id,
    name: row.name,
    currency: row.currency,
    bankDatasetIds: row.bankDatasetIds,
    ledgerDatasetIds: row.ledgerDatasetIds,
    ledgerOpeningBalance: row.ledgerOpeningBalance,
    ledgerOpeningDate: row.ledgerOpeningDate,
    periodMonths: row.periodMonths,
    ruleIds: row.ruleIds,
    adjustmentAccounts: row.adjustmentAccounts,
    cashAccount: row.cashAccount,
    archived: row.archived,
    createdAt: new Date(row.createdAt.replace(' ', 'T').replace(/([+-]\d{2})$/, '$1:00')).toISOString(),
    createdBy: row.createdBy,
    updatedAt: row.updatedAt,
  };
}

function lowered(ids: readonly string[]): string[] {
  return ids.map((id) => id.toLowerCase());
}

/** The fields of a reconciliation checked against the organization's datasets and rules. */
async function checkedFields(
  transaction: Queryable,
  organizationId: string,
  fields: ReconciliationFields,
  reconciliationId: string | null,
): Promise<ReconciliationFields> {
  const name = validName(fields.name, '/name');
  if (!/^[A-Z]{3}$/.test(fields.currency)) throw invalidField('/currency', 'must be an ISO 4217 code of three capital letters, such as "EUR"');
  const opening = parseMoney(fields.ledgerOpeningBalance);
  if (opening === null) throw invalidField('/ledgerOpeningBalance', moneyProblem(fields.ledgerOpeningBalance));
  if (!isCalendarDate(fields.ledgerOpeningDate)) throw invalidField('/ledgerOpeningDate', 'must be a calendar date written YYYY-MM-DD');
  const bank = [...new Set(lowered(fields.bankDatasetIds))];
  const ledger = [...new Set(lowered(fields.ledgerDatasetIds))];
  const facts = await findDatasetFacts(transaction, organizationId, [...bank, ...ledger]);
  for (const [side, ids] of [
    ['bankDatasetIds', bank],
    ['ledgerDatasetIds', ledger],
  ] as const) {
    ids.forEach((id, index) => {
      const pointer = `/${side}/${index}`;
      const dataset = facts.find((fact) => fact.id === id);
      if (!dataset) throw closeErrors.datasetNotFound(pointer, id);
      if (side === 'ledgerDatasetIds' && bank.includes(id)) throw closeErrors.datasetOnBothSides(pointer, dataset.name);
      if (dataset.currency !== null && dataset.currency !== fields.currency)
        throw closeErrors.datasetCurrencyDiffers(pointer, dataset.name, dataset.currency, fields.currency);
      if (dataset.reconciliationId !== null && dataset.reconciliationId !== reconciliationId) {
        throw closeErrors.datasetInOtherReconciliation(dataset.name, dataset.reconciliationName ?? '');
      }
    });
  }
  const ruleIds = [...new Set(lowered(fields.ruleIds))];
  const known = await findRuleIds(transaction, organizationId, ruleIds);
  ruleIds.forEach((id, index) => {
    if (!known.includes(id)) throw closeErrors.ruleNotFound(`/ruleIds/${index}`, id);
  });
  const accounts: Record<string, string> = {};
  for (const reason of ADJUSTMENT_REASONS) {
    const account = fields.adjustmentAccounts[reason];
    if (account !== undefined) accounts[reason] = account.trim();
  }
  const cash = fields.cashAccount === null ? null : fields.cashAccount.trim();
  if (cash === '') throw invalidField('/cashAccount', 'must name a ledger account, or be null to set none');
  if (await reconciliationNameTaken(transaction, organizationId, name, reconciliationId)) throw closeErrors.nameTaken(name);
  return {
    ...fields,
    name,
    cashAccount: cash,
    ledgerOpeningBalance: opening,
    bankDatasetIds: bank,
    ledgerDatasetIds: ledger,
    ruleIds,
    adjustmentAccounts: accounts,
  };
}

/**
 * The fields a signed statement's figures are made of, in words: the datasets, the currency, the
 * ledger's opening balance and date, and the period length. While a period is approved none of
 * them may change (reopen it first). The name, the rules, the adjustment and cash accounts and
 * archiving change no figure of a signed statement: the accounts only map the adjustments to
 * journal entries, which are always proposed from the accounts as they are now.
 */
const FIGURE_FIELDS = [
  ['bankDatasetIds', 'the bank datasets'],
  ['ledgerDatasetIds', 'the ledger datasets'],
  ['currency', 'the currency'],
  ['ledgerOpeningBalance', "the ledger's opening balance"],
  ['ledgerOpeningDate', "the ledger's opening date"],
  ['periodMonths', 'the period length'],
] as const satisfies readonly (readonly [keyof ReconciliationFields, string])[];

/** A balance written differently ("10000.0" for "10000.00") is the same; one that is not money is left to the checks. */
function openingBalanceChanged(before: string, after: string): boolean {
  const written = parseMoney(after);
  return written !== null && compareDecimals(before, written) !== 0;
}

function figureFieldsChanged(before: ReconciliationFields, after: ReconciliationFields): string[] {
  const same = (left: unknown, right: unknown) =>
    Array.isArray(left) && Array.isArray(right)
      ? lowered([...new Set(left as string[])])
          .sort()
          .join() ===
        lowered([...new Set(right as string[])])
          .sort()
          .join()
      : String(left) === String(right);
  return FIGURE_FIELDS.filter(([field]) =>
    field === 'ledgerOpeningBalance' ? openingBalanceChanged(before[field], after[field]) : !same(before[field], after[field]),
  ).map(([, words]) => words);
}

/** What the audit trail keeps of a reconciliation. */
function audited(row: ReconciliationFields & { id: string }) {
  return {
    reconciliationId: row.id,
    name: row.name,
    currency: row.currency,
    bankDatasetIds: row.bankDatasetIds,
    ledgerDatasetIds: row.ledgerDatasetIds,
    ledgerOpeningBalance: row.ledgerOpeningBalance,
    ledgerOpeningDate: row.ledgerOpeningDate,
    periodMonths: row.periodMonths,
    ruleIds: row.ruleIds,
    adjustmentAccounts: row.adjustmentAccounts,
    cashAccount: row.cashAccount,
    archived: row.archived,
  };
}

export class Reconciliations {
  constructor(private readonly database: Database) {}

  async list(organizationId: string, query: { limit: number; cursor: string | null; includeArchived: boolean }) {
    const after = await readCursor(RECONCILIATIONS_CURSORS, query.cursor);
    const rows = await listReconciliations(this.database, organizationId, { limit: rowsToFetch(query.limit), after, includeArchived: query.includeArchived });
    const page = await pageOf(rows, query.limit, (row) => ({ createdAt: row.createdAt, id: row.id }), RECONCILIATIONS_CURSORS);
    return { reconciliations: page.rows.map(reconciliationOf), nextCursor: page.nextCursor };
  }

  async find(database: Queryable, organizationId: string, reconciliationId: string, options: { lock?: boolean } = {}): Promise<ReconciliationRow> {
    const row = await findReconciliation(database, organizationId, reconciliationId.toLowerCase(), options);
    if (!row) throw notFound('reconciliation', reconciliationId);
    return row;
  }

  async get(organizationId: string, reconciliationId: string): Promise<Reconciliation> {
    return reconciliationOf(await this.find(this.database, organizationId, reconciliationId));
  }

  async create(transaction: Queryable, context: WriteContext, input: ReconciliationInput): Promise<Reconciliation> {
    await lockOrganization(transaction, context.organizationId);
    const fields = await checkedFields(
      transaction,
      context.organizationId,
      {
        name: input.name ?? '',
        currency: input.currency ?? '',
        bankDatasetIds: input.bankDatasetIds ?? [],
        ledgerDatasetIds: input.ledgerDatasetIds ?? [],
        ledgerOpeningBalance: (input.ledgerOpeningBalance ?? '0') as string,
        ledgerOpeningDate: input.ledgerOpeningDate ?? '',
        periodMonths: input.periodMonths ?? 1,
        ruleIds: input.ruleIds ?? [],
        adjustmentAccounts: input.adjustmentAccounts ?? {},
        cashAccount: input.cashAccount ?? null,
        archived: false,
      },
      null,
    );
    const id = randomUUID();
    await insertReconciliation(transaction, context.organizationId, id, fields, context.actor);
    await appendAuditEvents(transaction, { ...context, note: null }, [objectEvent(AuditActions.reconciliationCreated, null, audited({ ...fields, id }))]);
    return this.read(transaction, context.organizationId, id);
  }

  /** A merge of the fields given into the reconciliation; archived: true archives it (its periods and sign-offs stay). */
  async update(transaction: Queryable, context: WriteContext, reconciliationId: string, input: ReconciliationInput): Promise<Reconciliation> {
    await lockOrganization(transaction, context.organizationId);
    const before = await this.find(transaction, context.organizationId, reconciliationId, { lock: true });
    const merged: ReconciliationFields = {
      name: input.name ?? before.name,
      currency: input.currency ?? before.currency,
      bankDatasetIds: input.bankDatasetIds ?? before.bankDatasetIds,
      ledgerDatasetIds: input.ledgerDatasetIds ?? before.ledgerDatasetIds,
      ledgerOpeningBalance: (input.ledgerOpeningBalance ?? before.ledgerOpeningBalance) as string,
      ledgerOpeningDate: input.ledgerOpeningDate ?? before.ledgerOpeningDate,
      periodMonths: input.periodMonths ?? before.periodMonths,
      ruleIds: input.ruleIds ?? before.ruleIds,
      adjustmentAccounts: input.adjustmentAccounts ?? before.adjustmentAccounts,
      cashAccount: input.cashAccount === undefined ? before.cashAccount : input.cashAccount,
      archived: input.archived ?? before.archived,
    };
    // What a signed period is made of is held first: the answer names the period to reopen.
    const changed = figureFieldsChanged(before, merged);
    if (changed.length > 0) {
      const approved = (await listPeriods(transaction, context.organizationId, before.id)).filter((period) => period.state === 'approved');
      const latest = approved.at(-1);
      if (latest !== undefined) throw closeErrors.signedFiguresWouldChange(changed, periodName(latest.periodStart, latest.periodEnd), approved.length - 1);
    }
    const fields = await checkedFields(transaction, context.organizationId, merged, before.id);
    const beforeAudited = audited(before);
    const afterAudited = audited({ ...fields, id: before.id });
    if (JSON.stringify(beforeAudited) !== JSON.stringify(afterAudited)) {
      await updateReconciliation(transaction, context.organizationId, before.id, fields);
      await appendAuditEvents(transaction, { ...context, note: null }, [objectEvent(AuditActions.reconciliationUpdated, beforeAudited, afterAudited)]);
    }
    return this.read(transaction, context.organizationId, before.id);
  }

  private async read(transaction: Queryable, organizationId: string, id: string): Promise<Reconciliation> {
    return reconciliationOf(await this.find(transaction, organizationId, id));
  }
}
