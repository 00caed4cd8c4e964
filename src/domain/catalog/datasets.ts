import { randomUUID } from 'node:crypto';
import type { Queryable } from '../../db/database.ts';
import { appendAuditEvents } from '../../db/repositories/audit-events.ts';
import { countDatasetsOfSource, insertDataset, updateDataset, type DatasetChange, type DatasetRow } from '../../db/repositories/datasets.ts';
import { findSource } from '../../db/repositories/sources.ts';
import { lockOrganization } from '../../db/repositories/organizations.ts';
import { conflict, invalidField, notFound } from '../../errors.ts';
import { AuditActions, objectEvent, type WriteContext } from '../audit.ts';
import { ACCOUNT_ID_LENGTH_MAX, accountIdOf, IBAN_SHAPE, ibanChecksumHolds } from '../identifiers.ts';
import { RECONCILIATION_STATUSES, type ReconciliationStatus } from '../transactions/status.ts';
import { STANDARD_COLUMNS, validateCustomColumns, type ColumnType } from './columns.ts';

/** GET /sources lists every dataset of every source at once, so their number is bounded. */
export const DATASETS_PER_SOURCE_LIMIT = 100;
export const NAME_MAX_LENGTH = 200;

/**
 * A dataset as the API shows it: the stored fields, with every column (the standard ones first)
 * and a count for every status. datasetOf builds it in the published field order.
 */
export type Dataset = Omit<DatasetRow, 'columns' | 'statusCounts'> & {
  /** Every column a record may carry and a query may ask for, the standard ones first. */
  columns: { name: string; type: ColumnType; standard: boolean }[];
  transactionCount: number;
  statusCounts: Record<ReconciliationStatus, number>;
};

export function datasetOf(row: DatasetRow): Dataset {
  const statusCounts = Object.fromEntries(RECONCILIATION_STATUSES.map((status) => [status, Number(row.statusCounts[status] ?? 0)])) as Record<
    ReconciliationStatus,
    number
  >;
  return {
    id: row.id,
    name: row.name,
    revision: Number(row.revision),
    status: row.status,
    createdAt: row.createdAt,
    lastUpdatedBy: row.lastUpdatedBy,
    lastUpdatedAt: row.lastUpdatedAt,
    lastReceived: row.lastReceived,
    latestTimestamp: row.latestTimestamp === null ? null : Number(row.latestTimestamp),
    failures: row.failures,
    lastFile: row.lastFile,
    sourceId: row.sourceId,
    accountId: row.accountId,
    currency: row.currency,
    columns: [
      ...STANDARD_COLUMNS.map((column) => ({ ...column, standard: true })),
      ...row.columns.map((column) => ({ name: column.name, type: column.type as ColumnType, standard: false })),
    ],
    transactionCount: Object.values(statusCounts).reduce((total, count) => total + count, 0),
    statusCounts,
  };
}

/** Trims a display name and checks its length; `path` names the field in errors. */
export function validName(name: string, path: string): string {
  const trimmed = name.trim();
  if (trimmed === '' || trimmed.length > NAME_MAX_LENGTH) {
    throw invalidField(path, `must be 1 to ${NAME_MAX_LENGTH} characters (surrounding spaces are ignored)`);
  }
  return trimmed;
}

/** An account as a dataset keeps it: an IBAN or account number without spaces, in capitals. */
function checkAccountId(value: string | null): string | null {
  if (value === null) return null;
  const account = accountIdOf(value);
  if (!new RegExp(`^[A-Z0-9/.:+-]{1,${ACCOUNT_ID_LENGTH_MAX}}$`).test(account)) {
    throw invalidField(
      '/accountId',
      `must be an IBAN or account number: 1 to ${ACCOUNT_ID_LENGTH_MAX} letters and digits (spaces are removed; "/", ".", ":", "+" and "-" are allowed), or null to clear it`,
    );
  }
  if (IBAN_SHAPE.test(account) && !ibanChecksumHolds(account)) {
    throw invalidField('/accountId', `${account} is not a valid IBAN: its check digits do not match; check the number on the bank statement`);
  }
  return account;
}

function checkCurrency(value: string | null): string | null {
  if (value === null) return null;
  if (!/^[A-Z]{3}$/.test(value)) throw invalidField('/currency', 'must be an ISO 4217 currency code in capitals, such as "EUR", or null to clear it');
  return value;
}

/** The fields of a dataset that a change may touch, as the audit trail records them. */
const AUDITED_FIELDS = ['name', 'accountId', 'currency', 'status'] as const;

/** A dataset's fields that differ between two states, with its id and source, and its name in both. */
function auditedDifference(before: DatasetRow, after: DatasetRow): { before: Record<string, unknown>; after: Record<string, unknown> } | null {
  const changed = AUDITED_FIELDS.filter((field) => before[field] !== after[field]);
  if (changed.length === 0) return null;
  const of = (row: DatasetRow) => ({
    datasetId: row.id,
    sourceId: row.sourceId,
    name: row.name,
    ...Object.fromEntries(changed.map((field) => [field, row[field]])),
  });
  return { before: of(before), after: of(after) };
}

export class Datasets {
  /**
   * Changes a dataset's name, account, currency or whether it is archived; fields left out stay
   * as they are. The change is recorded in the audit trail in the same transaction: a rename or
   * a change of account as dataset.updated, archiving and restoring as their own actions.
   */
  async update(
    transaction: Queryable,
    context: WriteContext,
    datasetId: string,
    input: { name?: string; accountId?: string | null; currency?: string | null; archived?: boolean },
  ): Promise<Dataset> {
    const change: DatasetChange = {
      ...(input.name !== undefined ? { name: validName(input.name, '/name') } : {}),
      ...(input.accountId !== undefined ? { accountId: checkAccountId(input.accountId) } : {}),
      ...(input.currency !== undefined ? { currency: checkCurrency(input.currency) } : {}),
      ...(input.archived !== undefined ? { status: input.archived ? 'archived' : 'active' } : {}),
    };
    const updated = await updateDataset(transaction, context.organizationId, datasetId, change);
    if (!updated) throw notFound('dataset', datasetId);
    const { before, after } = updated;
    const events = [];
    const details = auditedDifference({ ...before, status: after.status }, after);
    if (details) events.push(objectEvent(AuditActions.datasetUpdated, details.before, details.after));
    if (before.status !== after.status) {
      const state = (row: DatasetRow) => ({ datasetId: row.id, sourceId: row.sourceId, name: row.name, status: row.status });
      events.push(objectEvent(after.status === 'archived' ? AuditActions.datasetArchived : AuditActions.datasetRestored, state(before), state(after)));
    }
    await appendAuditEvents(transaction, { ...context, note: null }, events);
    return datasetOf(after);
  }

  /** Creates a dataset with its custom columns in a source of the organization. */
  async create(
    transaction: Queryable,
    context: WriteContext,
    input: { sourceId: string; name: string; columns: { name: string; type: string }[] },
  ): Promise<Dataset> {
    const name = validName(input.name, '/name');
    const columns = validateCustomColumns(input.columns);
    // Serializes creations within the organization, so that the limits on how many sources and
    // datasets there may be hold under concurrent requests.
    await lockOrganization(transaction, context.organizationId);
    const source = await findSource(transaction, context.organizationId, input.sourceId);
    if (!source) throw notFound('source', input.sourceId);
    if ((await countDatasetsOfSource(transaction, context.organizationId, source.id)) >= DATASETS_PER_SOURCE_LIMIT) {
      throw conflict(`source ${source.id} already has ${DATASETS_PER_SOURCE_LIMIT} datasets, the most a source may have; create another source`);
    }
    const row = await insertDataset(transaction, {
      id: randomUUID(),
      organizationId: context.organizationId,
      sourceId: source.id,
      name,
      columns,
      createdBy: context.actor,
    });
    await appendAuditEvents(transaction, { ...context, note: null }, [
      objectEvent(AuditActions.datasetCreated, null, {
        datasetId: row.id,
        sourceId: source.id,
        sourceName: source.name,
        name: row.name,
        columns: row.columns,
      }),
    ]);
    return datasetOf(row);
  }
}
