import type { Queryable } from '../database.ts';
import { queryTimeout } from '../../errors.ts';
import { transactionRecordSql, type JsonField } from './transaction-records.ts';

/**
 * The published transactions query (POST /transactions) as one SQL statement per page. The
 * domain hands over a typed description of the page (filters, columns, where to start); this
 * module compiles it to parameterized SQL. Values only ever travel as parameters: the SQL text
 * is built from fixed fragments and parameter numbers, never from request data.
 */

// The shapes of fields and filters belong to the domain model, which the domain checks requests
// into; this module compiles them.
export type { ColumnType, DatasetColumn, FieldReference, NumericCondition, StandardFieldName, TransactionFilter } from '../../domain/model.ts';
import type { ColumnType, DatasetColumn, FieldReference, TransactionFilter } from '../../domain/model.ts';

export type SortOrder = 'asc' | 'desc';

/**
 * What a page is sorted by, ties always broken by id: the timestamp (the published order), the
 * exact amount (numeric, never a float), or the description compared in lower case. Transactions
 * without an amount or a description come after all others in ascending order, first in
 * descending order: descending is exactly ascending reversed.
 */
export type SortField = 'timestamp' | 'amount' | 'description';

/**
 * The sort keys of a sort, each an expression of the row `alias` that is never NULL, so that a
 * row comparison of the keys and the id is exact (a NULL would make it unknown).
 */
function sortKeys(sort: SortField, alias: string): string[] {
  switch (sort) {
    case 'timestamp':
      return [`${alias}.timestamp_ms`];
    case 'amount':
      return [`${alias}.amount IS NULL`, `coalesce(${alias}.amount, 0)`];
    case 'description':
      return [`${alias}.description IS NULL`, `lower(coalesce(${alias}.description, ''))`];
  }
}

/**
 * A row position: the page starts strictly after it. In (timestamp, id) order the position is
 * the pair itself; in another sort the row's sort keys are read from the row of that id, so a
 * position stays short whatever the length of a description.
 */
export interface RowPosition {
  timestampMs: number;
  id: string;
}

/**
 * Where a page starts.
 * - `offset`: skip this many matching rows from the beginning.
 * - `after`: start after a row (a cursor), skipping `skip` more rows.
 * - `boundary`: a remembered page boundary: start after `after` and skip `skip` rows, but only
 *   while the dataset is still at `revision`; otherwise skip `fallbackOffset` rows from the
 *   beginning. The revision is checked inside the statement, so a stale boundary can never
 *   produce a wrong page.
 */
export type PageStart =
  | { kind: 'offset'; offset: number }
  | { kind: 'after'; after: RowPosition; skip: number }
  | { kind: 'boundary'; after: RowPosition; skip: number; revision: number; fallbackOffset: number };

export interface TransactionPageQuery {
  organizationId: string;
  datasetId: string;
  /** Inclusive bounds on timestamp, epoch ms. */
  fromMs: number | null;
  toMs: number | null;
  filters: readonly TransactionFilter[];
  /** Fields added to each record under their name, after the eight published ones. */
  columns: readonly FieldReference[];
  order: SortOrder;
  /** Default: timestamp. */
  sort?: SortField;
  limit: number;
  start: PageStart;
}

export interface TransactionPageResult {
  /** False when the dataset does not exist in the organization. */
  datasetFound: boolean;
  /** The dataset's revision when the page was read. */
  revision: number;
  /** md5 of the dataset's column declarations, to notice a stale copy of them. */
  columnsFingerprint: string;
  /** The finished JSON array of the page's records, as PostgreSQL wrote it. */
  body: string;
  /** Records in the page. */
  rowCount: number;
  /** Whether more rows follow the page. */
  hasMore: boolean;
  /** The page's last row, null when the page is empty. */
  last: RowPosition | null;
  /**
   * False when the page was to start after a row (a cursor) in a sort other than by timestamp,
   * and that row is no longer there (its import was undone): the page is then empty.
   */
  startFound: boolean;
}

export interface Statement {
  text: string;
  values: unknown[];
}

/** Collects parameter values and hands out their placeholders; an equal value is sent once. */
export class Parameters {
  readonly values: unknown[] = [];
  readonly #positions = new Map<string, number>();

  add(value: unknown, cast: string): string {
    const key = `${cast}:${JSON.stringify(value)}`;
    let position = this.#positions.get(key);
    if (position === undefined) {
      this.values.push(value);
      position = this.values.length;
      this.#positions.set(key, position);
    }
    return `$${position}::${cast}`;
  }
}

const STANDARD_TEXT_COLUMNS: Record<string, string> = {
  id: 'id::text',
  description: 'description',
  type: 'type',
  currency: 'currency',
  reference: 'reference',
  bankReference: 'bank_reference',
  externalId: 'external_id',
  reconciliationStatus: 'reconciliation_status',
};

/**
 * A custom value as numeric. The type check keeps a value of an unexpected JSON type from
 * failing the whole query: it simply does not match. Money is stored as a decimal string.
 */
function customNumericSql(key: string, alias: string): string {
  return `(CASE jsonb_typeof(${alias}.custom -> ${key})
    WHEN 'number' THEN (${alias}.custom ->> ${key})::numeric
    WHEN 'string' THEN CASE WHEN (${alias}.custom ->> ${key}) ~ '^-?[0-9]+(\\.[0-9]+)?$' THEN (${alias}.custom ->> ${key})::numeric END
  END)`;
}

export function textExpression(field: FieldReference, parameters: Parameters, alias = 't'): string {
  if (field.source === 'standard') {
    const column = STANDARD_TEXT_COLUMNS[field.name];
    if (column === undefined) throw new Error(`field ${field.name} is not a text field`);
    return `${alias}.${column}`;
  }
  const key = parameters.add(field.name, 'text');
  return `(CASE WHEN jsonb_typeof(${alias}.custom -> ${key}) = 'string' THEN ${alias}.custom ->> ${key} END)`;
}

/** The numeric expression of a field and the SQL type its operands are cast to. */
export function numericExpression(field: FieldReference, parameters: Parameters, alias = 't'): { sql: string; operandType: string } {
  if (field.source === 'standard') {
    // bigint operands keep the (dataset_id, timestamp_ms, id) index usable for timestamp bounds.
    if (field.name === 'timestamp') return { sql: `${alias}.timestamp_ms`, operandType: 'bigint' };
    if (field.name === 'amount') return { sql: `${alias}.amount`, operandType: 'numeric' };
    throw new Error(`field ${field.name} is not numeric`);
  }
  return { sql: customNumericSql(parameters.add(field.name, 'text'), alias), operandType: 'numeric' };
}

const COMPARISON_OPERATORS = { ne: '<>', ge: '>=', gt: '>', le: '<=', lt: '<' } as const;

/** Backslash is PostgreSQL's default LIKE escape character. */
function likePattern(value: string): string {
  return `%${value.replace(/[\\%_]/g, (character) => `\\${character}`)}%`;
}

/** A filter as an SQL condition over the transactions row `alias`. */
export function filterSql(filter: TransactionFilter, parameters: Parameters, alias = 't'): string {
  switch (filter.type) {
    case 'string': {
      const expression = textExpression(filter.field, parameters, alias);
      return filter.exact
        ? `${expression} = ANY(${parameters.add(filter.values, 'text[]')})`
        : `${expression} ILIKE ANY(${parameters.add(filter.values.map(likePattern), 'text[]')})`;
    }
    case 'boolean': {
      if (filter.field.source !== 'custom') throw new Error(`field ${filter.field.name} is not boolean`);
      return `(${alias}.custom -> ${parameters.add(filter.field.name, 'text')}) = ${parameters.add(JSON.stringify(filter.value), 'jsonb')}`;
    }
    case 'numeric': {
      const { sql, operandType } = numericExpression(filter.field, parameters, alias);
      const condition = filter.condition;
      const parts: string[] = [];
      if (condition.kind === 'anyOf') {
        parts.push(`${sql} = ANY(${parameters.add(condition.values, `${operandType}[]`)})`);
      } else if (condition.kind === 'compare') {
        parts.push(`${sql} ${COMPARISON_OPERATORS[condition.operator]} ${parameters.add(condition.value, operandType)}`);
      } else {
        if (condition.start !== null) parts.push(`${sql} ${condition.includeStart ? '>=' : '>'} ${parameters.add(condition.start, operandType)}`);
        if (condition.end !== null) parts.push(`${sql} ${condition.includeEnd ? '<=' : '<'} ${parameters.add(condition.end, operandType)}`);
        if (parts.length === 0) parts.push(`${sql} IS NOT NULL`);
      }
      if (filter.currencies !== null) {
        // Codes are compared as stored, in upper or lower case, rather than through upper(): a
        // plain column comparison has statistics, so the planner can tell a common currency from
        // a rare one and keep to the ordered index scan for the first page.
        const codes = [...new Set(filter.currencies.flatMap((currency) => [currency.toUpperCase(), currency.toLowerCase()]))];
        parts.push(`${alias}.currency = ANY(${parameters.add(codes, 'text[]')})`);
      }
      return parts.join(' AND ');
    }
  }
}

/** Standard fields already among the eight published ones are not repeated. */
const FIELDS_IN_RECORD = new Set(['id', 'description', 'type', 'timestamp', 'reconciliationStatus']);

function columnFieldSql(field: FieldReference, parameters: Parameters): JsonField | null {
  if (field.source === 'standard') {
    if (FIELDS_IN_RECORD.has(field.name)) return null;
    if (field.name === 'amount') return { name: 'amount', expression: 't.amount::text' };
    const column = STANDARD_TEXT_COLUMNS[field.name];
    if (column === undefined) return null;
    return { name: field.name, expression: `t.${column}` };
  }
  const key = parameters.add(field.name, 'text');
  if (field.type === 'money') {
    // Money leaves as a decimal string, whichever JSON type it was stored with.
    return {
      name: field.name,
      expression: `CASE WHEN jsonb_typeof(t.custom -> ${key}) = 'number' THEN to_jsonb(t.custom ->> ${key}) ELSE t.custom -> ${key} END`,
    };
  }
  return { name: field.name, expression: `t.custom -> ${key}` };
}

/**
 * Builds the page statement. Its shape, in one round trip:
 * 1. `dataset`: the dataset of the organization (its absence means 404) and its revision.
 * 2. `candidates`: the page's rows, limit + 1 of them (the extra one says whether more follow),
 *    reading only (timestamp_ms, id) so that rows skipped by OFFSET can come from the index
 *    alone (and, in another sort, the row's sort keys, which no index holds: such a page sorts
 *    the dataset's matching rows). With a remembered boundary there are two branches, each gated by a one-time
 *    condition on the revision, so exactly one of them runs and each is planned with its own
 *    constant bounds.
 * 3. The records of those rows only, matches included, aggregated into the finished JSON text.
 */
export function buildTransactionPageStatement(query: TransactionPageQuery): Statement {
  const parameters = new Parameters();
  const organization = parameters.add(query.organizationId, 'uuid');
  const dataset = parameters.add(query.datasetId, 'uuid');
  const sort = query.sort ?? 'timestamp';
  const descending = query.order === 'desc';
  const direction = descending ? 'DESC' : 'ASC';
  const after = descending ? '<' : '>';
  const keys = sortKeys(sort, 't');
  // The candidates carry their sort keys (k0, k1) besides the id and the timestamp, to be numbered by them.
  const keyColumns = sort === 'timestamp' ? [] : keys.map((key, at) => `${key} AS k${at}`);
  const orderBy = (alias: string, keyNames: string[]) => [...keyNames, `${alias}.id`].map((key) => `${key} ${direction}`).join(', ');

  const conditions = [`t.organization_id = ${organization}`, `t.dataset_id = ${dataset}`, 'EXISTS (SELECT 1 FROM dataset)'];
  if (query.fromMs !== null) conditions.push(`t.timestamp_ms >= ${parameters.add(query.fromMs, 'bigint')}`);
  if (query.toMs !== null) conditions.push(`t.timestamp_ms <= ${parameters.add(query.toMs, 'bigint')}`);
  for (const filter of query.filters) conditions.push(`(${filterSql(filter, parameters)})`);
  const where = conditions.join('\n      AND ');
  const fetch = parameters.add(query.limit + 1, 'bigint');
  const limit = parameters.add(query.limit, 'bigint');

  const branch = (extraConditions: string[], skip: number) => `SELECT ${['t.id', 't.timestamp_ms', ...keyColumns].join(', ')} FROM transactions t
    WHERE ${[where, ...extraConditions].join('\n      AND ')}
    ORDER BY ${orderBy('t', keys)}
    OFFSET ${parameters.add(skip, 'bigint')} LIMIT ${fetch}`;
  const anchorRow = (position: RowPosition) =>
    `FROM transactions a WHERE a.organization_id = ${organization} AND a.dataset_id = ${dataset} AND a.id = ${parameters.add(position.id, 'uuid')}`;
  const afterCondition = (position: RowPosition) =>
    sort === 'timestamp'
      ? `(t.timestamp_ms, t.id) ${after} (${parameters.add(position.timestampMs, 'bigint')}, ${parameters.add(position.id, 'uuid')})`
      : // The row's keys are read from the row itself; no row gives NULL, which matches nothing.
        `(${[...keys, 't.id'].join(', ')}) ${after} (SELECT ${[...sortKeys(sort, 'a'), 'a.id'].join(', ')} ${anchorRow(position)})`;

  const start = query.start;
  let candidates: string;
  if (start.kind === 'offset') {
    candidates = branch([], start.offset);
  } else if (start.kind === 'after') {
    candidates = branch([afterCondition(start.after)], start.skip);
  } else {
    const revision = parameters.add(start.revision, 'bigint');
    candidates = `(${branch([`(SELECT revision FROM dataset) = ${revision}`, afterCondition(start.after)], start.skip)})
    UNION ALL
    (${branch([`(SELECT revision FROM dataset) IS DISTINCT FROM ${revision}`], start.fallbackOffset)})`;
  }
  const startFound = start.kind === 'after' && sort !== 'timestamp' ? `EXISTS (SELECT 1 ${anchorRow(start.after)})` : 'true';

  const extraFields = query.columns.map((field) => columnFieldSql(field, parameters)).filter((field): field is JsonField => field !== null);
  const text = `WITH dataset AS MATERIALIZED (
  SELECT d.revision, md5(d.columns::text) AS columns_fingerprint
  FROM datasets d WHERE d.organization_id = ${organization} AND d.id = ${dataset}
),
candidates AS (
  ${candidates}
),
numbered AS (
  SELECT c.id, c.timestamp_ms, row_number() OVER (ORDER BY ${orderBy('c', sort === 'timestamp' ? ['c.timestamp_ms'] : keys.map((_, at) => `c.k${at}`))}) AS position
  FROM candidates c
),
page AS (
  SELECT n.id, n.timestamp_ms, n.position FROM numbered n WHERE n.position <= ${limit}
)
SELECT
  (SELECT revision FROM dataset) AS revision,
  (SELECT columns_fingerprint FROM dataset) AS columns_fingerprint,
  (SELECT count(*) FROM numbered) AS fetched,
  (SELECT p.timestamp_ms FROM page p ORDER BY p.position DESC LIMIT 1) AS last_timestamp_ms,
  (SELECT p.id FROM page p ORDER BY p.position DESC LIMIT 1) AS last_id,
  ${startFound} AS start_found,
  (SELECT coalesce(json_agg(${transactionRecordSql('t', extraFields)} ORDER BY p.position), '[]'::json)::text
     FROM page p JOIN transactions t ON t.id = p.id AND t.organization_id = ${organization}) AS body`;
  return { text, values: parameters.values };
}

interface PageRow {
  revision: number | null;
  columns_fingerprint: string | null;
  fetched: number;
  last_timestamp_ms: number | null;
  last_id: string | null;
  start_found: boolean;
  body: string;
}

/** PostgreSQL's SQLSTATE for a statement cancelled by statement_timeout. */
const QUERY_CANCELED = '57014';

/** Reads one page. A statement that exceeds the store's statement timeout becomes queryTimeout(). */
export async function queryTransactionPage(database: Queryable, query: TransactionPageQuery): Promise<TransactionPageResult> {
  const statement = buildTransactionPageStatement(query);
  let rows: PageRow[];
  try {
    rows = await database.query<PageRow>(statement.text, statement.values);
  } catch (error) {
    if ((error as { code?: unknown }).code === QUERY_CANCELED) throw queryTimeout();
    throw error;
  }
  return readPageRow(rows[0], query.limit);
}

/** Turns the statement's single row into a page result. */
function readPageRow(row: PageRow | undefined, limit: number): TransactionPageResult {
  if (!row || row.revision === null) {
    return { datasetFound: false, revision: 0, columnsFingerprint: '', body: '[]', rowCount: 0, hasMore: false, last: null, startFound: true };
  }
  const fetched = Number(row.fetched);
  return {
    datasetFound: true,
    revision: Number(row.revision),
    columnsFingerprint: row.columns_fingerprint ?? '',
    body: row.body,
    rowCount: Math.min(fetched, limit),
    hasMore: fetched > limit,
    last: row.last_id !== null && row.last_timestamp_ms !== null ? { timestampMs: Number(row.last_timestamp_ms), id: row.last_id } : null,
    startFound: row.start_found !== false,
  };
}

export interface DatasetSchema {
  columns: DatasetColumn[];
  columnsFingerprint: string;
}

/** The custom columns of a dataset of the organization; undefined when there is no such dataset. */
export async function findDatasetSchema(database: Queryable, organizationId: string, datasetId: string): Promise<DatasetSchema | undefined> {
  const rows = await database.query<SchemaRow>(
    `SELECT d.columns, md5(d.columns::text) AS columns_fingerprint FROM datasets d WHERE d.organization_id = $1 AND d.id = $2`,
    [organizationId, datasetId],
  );
  return rows[0] && datasetSchemaOf(rows[0]);
}

/** The custom columns of the dataset a transaction of the organization belongs to. */
export async function findDatasetSchemaOfTransaction(database: Queryable, organizationId: string, transactionId: string): Promise<DatasetSchema | undefined> {
  const rows = await database.query<SchemaRow>(
    `SELECT d.columns, md5(d.columns::text) AS columns_fingerprint
       FROM transactions t JOIN datasets d ON d.organization_id = t.organization_id AND d.id = t.dataset_id
      WHERE t.organization_id = $1 AND t.id = $2`,
    [organizationId, transactionId],
  );
  return rows[0] && datasetSchemaOf(rows[0]);
}

interface SchemaRow {
  columns: unknown;
  columns_fingerprint: string;
}

function datasetSchemaOf(row: SchemaRow): DatasetSchema {
  const declared = Array.isArray(row.columns) ? row.columns : [];
  const columns: DatasetColumn[] = [];
  for (const column of declared as Array<{ name?: unknown; type?: unknown }>) {
    if (typeof column?.name === 'string' && isColumnType(column.type)) columns.push({ name: column.name, type: column.type });
  }
  return { columns, columnsFingerprint: row.columns_fingerprint };
}

/** One transaction record with the requested columns added, as the page query adds them. */
export async function findTransactionRecordWithColumns(
  database: Queryable,
  organizationId: string,
  transactionId: string,
  fields: readonly FieldReference[],
): Promise<Record<string, unknown> | undefined> {
  const parameters = new Parameters();
  const organization = parameters.add(organizationId, 'uuid');
  const transaction = parameters.add(transactionId, 'uuid');
  const extraFields = fields.map((field) => columnFieldSql(field, parameters)).filter((field): field is JsonField => field !== null);
  const rows = await database.query<{ record: Record<string, unknown> }>(
    `SELECT ${transactionRecordSql('t', extraFields)} AS record FROM transactions t WHERE t.organization_id = ${organization} AND t.id = ${transaction}`,
    parameters.values,
  );
  return rows[0]?.record;
}

function isColumnType(value: unknown): value is ColumnType {
  return value === 'string' || value === 'number' || value === 'money' || value === 'date' || value === 'boolean';
}
