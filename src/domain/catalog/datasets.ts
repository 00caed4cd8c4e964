import { randomUUID } from 'node:crypto';
import type { Queryable } from '../../db/database.ts';
import { countDatasetsOfSource, insertDataset, updateDatasetAccount, type DatasetRow } from '../../db/repositories/datasets.ts';
import { findSource } from '../../db/repositories/sources.ts';
import { lockOrganization } from '../../db/repositories/organizations.ts';
import { conflict, invalidField, notFound } from '../../errors.ts';
import type { WriteContext } from '../audit.ts';
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

export class Datasets {
  /** Changes a dataset's account and currency; fields left out stay as they are. */
  async update(
    transaction: Queryable,
    context: WriteContext,
    datasetId: string,
    input: { accountId?: string | null; currency?: string | null },
  ): Promise<Dataset> {
    const change = {
      ...(input.accountId !== undefined ? { accountId: checkAccountId(input.accountId) } : {}),
      ...(input.currency !== undefined ? { currency: checkCurrency(input.currency) } : {}),
      actor: context.actor,
    };
    const row = await updateDatasetAccount(transaction, context.organizationId, datasetId, change);
    if (!row) throw notFound('dataset', datasetId);
    return datasetOf(row);
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
    return datasetOf(row);
  }
}
