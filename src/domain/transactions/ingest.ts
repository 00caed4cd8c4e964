import type { Queryable } from '../../db/database.ts';
import { lockDataset, markDatasetReceived } from '../../db/repositories/datasets.ts';
import { insertTransactions, type TransactionInsert } from '../../db/repositories/transactions.ts';
import { invalidRequest, notFound, pointerSegment, quoteInput, type ErrorDetail } from '../../errors.ts';
import type { WriteContext } from '../audit.ts';
import { refuseClosedPeriods } from '../close/closed-periods.ts';
import { CURRENCY_PATTERN, EXTERNAL_ID_FIELD, STANDARD_COLUMNS, parseColumnValue, type Column, type ColumnType } from '../catalog/columns.ts';

/** The most records one request may carry (SPEC §5). */
export const INGEST_RECORDS_LIMIT = 10_000;
export const EXTERNAL_ID_MAX_LENGTH = 255;
/** Records checked between two turns of the event loop. */
const RECORDS_PER_TURN = 1000;
/** How many problems one refused batch reports, so that the answer stays readable. */
const REPORTED_PROBLEMS_LIMIT = 20;

export interface IngestResult {
  /** Records stored by this request. */
  inserted: number;
  /** Records skipped because the dataset already had (or the batch repeated) their externalId. */
  duplicates: number;
}

type StandardField = 'description' | 'type' | 'reference' | 'bankReference' | 'currency';
const STANDARD_STRING_FIELDS: readonly StandardField[] = ['description', 'type', 'reference', 'bankReference', 'currency'];

/**
 * Stores a batch of records in a dataset, all or nothing: every record is checked before
 * anything is written, and the one INSERT either stores every new record or, on any failure,
 * none. Idempotent on externalId within the dataset: a record whose externalId the dataset
 * already holds is counted as a duplicate and left as it is (a retry never rewrites a stored
 * transaction); within one batch the first record with an externalId wins and later ones are
 * duplicates. Records without externalId are always inserted.
 */
export async function ingestRecords(transaction: Queryable, context: WriteContext, datasetId: string, records: readonly unknown[]): Promise<IngestResult> {
  const dataset = await lockDataset(transaction, context.organizationId, datasetId);
  if (!dataset) throw notFound('dataset', datasetId);
  const columns = new Map<string, Column>();
  for (const column of [...STANDARD_COLUMNS, ...dataset.columns]) columns.set(column.name, { name: column.name, type: column.type as ColumnType });

  const problems: ErrorDetail[] = [];
  let problemCount = 0;
  const report = (path: string, message: string) => {
    problemCount += 1;
    if (problems.length < REPORTED_PROBLEMS_LIMIT) problems.push({ path, message });
  };

  const rows: TransactionInsert[] = [];
  const seenExternalIds = new Set<string>();
  let batchDuplicates = 0;
  for (const [index, record] of records.entries()) {
    // Checking 10,000 records takes a while; other requests are served in between.
    if (index > 0 && index % RECORDS_PER_TURN === 0) await new Promise<void>((resolve) => setImmediate(resolve));
    const row = prepareRecord(record, `/records/${index}`, columns, report);
    if (row === null) continue;
    if (row.externalId !== null) {
      if (seenExternalIds.has(row.externalId)) {
        batchDuplicates += 1;
        continue;
      }
      seenExternalIds.add(row.externalId);
    }
    rows.push(row);
  }
  if (problemCount > 0) {
    const first = problems[0]!;
    throw invalidRequest(
      `${problemCount} problem${problemCount === 1 ? '' : 's'} in the records, nothing was stored; the first: ${first.path}: ${first.message}` +
        (problemCount > problems.length ? ` (the first ${problems.length} are listed in details)` : ''),
      problems,
    );
  }

  await refuseClosedPeriods(transaction, context.organizationId, {
    kind: 'rows',
    datasetId: dataset.id,
    timestampsMs: rows.map((row) => row.timestampMs),
    externalIds: rows.map((row) => row.externalId),
  });
  const { inserted, latestTimestampMs } = await insertTransactions(transaction, context.organizationId, dataset.id, rows);
  await markDatasetReceived(transaction, context.organizationId, dataset.id, { actor: context.actor, changed: inserted > 0, latestTimestampMs });
  return { inserted, duplicates: batchDuplicates + (rows.length - inserted) };
}

function prepareRecord(
  record: unknown,
  path: string,
  columns: ReadonlyMap<string, Column>,
  report: (path: string, message: string) => void,
): TransactionInsert | null {
  if (typeof record !== 'object' || record === null || Array.isArray(record)) {
    report(path, 'must be a JSON object keyed by column name');
    return null;
  }
  let valid = true;
  const fail = (field: string, message: string) => {
    valid = false;
    report(`${path}/${pointerSegment(field)}`, message);
  };
  const row: TransactionInsert = {
    externalId: null,
    timestampMs: 0,
    description: null,
    type: null,
    reference: null,
    bankReference: null,
    currency: null,
    amount: null,
    custom: {},
  };
  let hasTimestamp = false;
  for (const [key, value] of Object.entries(record)) {
    if (key === EXTERNAL_ID_FIELD) {
      if (value === null) continue;
      if (typeof value !== 'string' || value.length === 0 || value.length > EXTERNAL_ID_MAX_LENGTH) {
        fail(key, `must be a string of 1 to ${EXTERNAL_ID_MAX_LENGTH} characters, the record's id in the sending system`);
      } else row.externalId = value;
      continue;
    }
    const column = columns.get(key);
    if (!column) {
      fail(
        key,
        `${quoteInput(key)} is not a column of this dataset${suggestion(key, columns)}; the columns are ${[...columns.keys()].join(', ')} (and ${EXTERNAL_ID_FIELD})`,
      );
      continue;
    }
    // null means "no value", except for the timestamp, which every record must have.
    if (value === null && key !== 'timestamp') continue;
    const parsed = parseColumnValue(column.type, value);
    if (!parsed.ok) {
      fail(key, `${column.type} column "${column.name}" ${parsed.message}`);
      continue;
    }
    if (key === 'timestamp') {
      row.timestampMs = parsed.value as number;
      hasTimestamp = true;
    } else if (key === 'amount') {
      row.amount = parsed.value as string;
    } else if ((STANDARD_STRING_FIELDS as readonly string[]).includes(key)) {
      if (key === 'currency' && !CURRENCY_PATTERN.test(parsed.value as string)) {
        fail(key, 'string column "currency" must be a currency code of 1 to 16 letters or digits, such as "EUR"');
        continue;
      }
      row[key as StandardField] = parsed.value as string;
    } else {
      row.custom[key] = parsed.value;
    }
  }
  if (!hasTimestamp && !Object.hasOwn(record, 'timestamp')) fail('timestamp', 'is required: the time of the transaction in epoch milliseconds');
  return valid ? row : null;
}

/** A hint for a key that differs from a column only in case. */
function suggestion(key: string, columns: ReadonlyMap<string, Column>): string {
  const folded = key.toLowerCase();
  const close = [...columns.keys(), EXTERNAL_ID_FIELD].find((name) => name.toLowerCase() === folded);
  return close ? ` (did you mean "${close}"? names are case-sensitive)` : '';
}
