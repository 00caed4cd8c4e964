import { createHash } from 'node:crypto';
import type { Queryable } from '../../db/database.ts';
import {
  findDatasetSchema,
  queryTransactionPage,
  type DatasetColumn,
  type DatasetSchema,
  type FieldReference,
  type PageStart,
  type SortField,
  type SortOrder,
  type TransactionFilter,
} from '../../db/repositories/transaction-query.ts';
import { AppError, invalidField, listErrors, notFound } from '../../errors.ts';
import { transactionCursors } from './cursor.ts';
import { pageSize } from '../pages.ts';
import { PageBoundaryCache } from './page-boundaries.ts';
import { onlyStandardPaths, parseColumns, parseSearch, type RawSearchQuery } from './search.ts';

/**
 * The published transactions query: one page of a dataset's transactions in (timestamp, id)
 * order (or, an extension, by amount or description, then id), filtered by time and by
 * SearchQuery, read in one SQL statement.
 */

export const TRANSACTIONS_PAGE_SIZE = pageSize(100, 1000);

/** Below this, a `to` that is smaller than `from` is most likely in seconds, not milliseconds. */
const SECONDS_SUSPICION_THRESHOLD = 100_000_000_000;

/** A query as the client sent it, integers already read; everything else is checked here. */
export interface TransactionQueryRequest {
  datasetId: string;
  limit?: number;
  offset?: number;
  /** The published sample's spelling of `offset`. */
  offest?: number;
  fromMs?: number;
  toMs?: number;
  order?: SortOrder;
  /** Default: timestamp. */
  sort?: SortField;
  cursor?: string;
  search?: readonly unknown[];
  columns?: readonly unknown[];
}

export interface TransactionPage {
  /** The JSON array of records, ready to send. */
  body: string;
  hasMore: boolean;
  /** Continues after this page at constant cost; null when nothing follows. */
  nextCursor: string | null;
}

/** The dataset column declarations a search needs, kept per process; bounded. */
class DatasetSchemaCache {
  readonly #entries = new Map<string, DatasetSchema>();
  constructor(private readonly maximumEntries = 2000) {}

  get(key: string): DatasetSchema | undefined {
    return this.#entries.get(key);
  }

  set(key: string, schema: DatasetSchema): void {
    this.#entries.delete(key);
    this.#entries.set(key, schema);
    if (this.#entries.size > this.maximumEntries) {
      const oldest = this.#entries.keys().next().value;
      if (oldest !== undefined) this.#entries.delete(oldest);
    }
  }

  delete(key: string): void {
    this.#entries.delete(key);
  }
}

export class TransactionQueries {
  readonly #boundaries: PageBoundaryCache;
  readonly #schemas = new DatasetSchemaCache();

  constructor(
    private readonly database: Queryable,
    options: { boundaryCache?: PageBoundaryCache } = {},
  ) {
    this.#boundaries = options.boundaryCache ?? new PageBoundaryCache();
  }

  async query(organizationId: string, request: TransactionQueryRequest): Promise<TransactionPage> {
    const size = TRANSACTIONS_PAGE_SIZE;
    const limit = request.limit ?? size.defaultEntries;
    if (!Number.isSafeInteger(limit) || limit < size.minimumEntries || limit > size.maximumEntries) {
      throw listErrors.transactionsPageSizeOutOfRange(size.minimumEntries, size.maximumEntries, limit);
    }
    const offset = resolveOffset(request);
    checkTimeRange(request.fromMs, request.toMs);
    const order = request.order ?? 'asc';
    const sort = request.sort ?? 'timestamp';
    const search = (request.search ?? []) as RawSearchQuery[];
    const columnQueries = (request.columns ?? []) as RawSearchQuery[];
    const needsSchema = !onlyStandardPaths(search) || !onlyStandardPaths(columnQueries);
    const schemaKey = `${organizationId}/${request.datasetId}`;

    // A second attempt happens only when the dataset's column declarations changed since they
    // were cached: the statement reports their fingerprint, and the query is parsed again.
    for (let attempt = 0; ; attempt++) {
      let columns: DatasetColumn[] = [];
      let expectedFingerprint: string | null = null;
      if (needsSchema) {
        const cached = attempt === 0 ? this.#schemas.get(schemaKey) : undefined;
        const schema = cached ?? (await this.#loadSchema(organizationId, request.datasetId, schemaKey));
        columns = schema.columns;
        expectedFingerprint = schema.columnsFingerprint;
      }
      let filters: TransactionFilter[];
      let fields: FieldReference[];
      try {
        filters = parseSearch(search, columns);
        fields = parseColumns(columnQueries, columns);
      } catch (error) {
        // A mistake in a query that names only standard fields is reported with the full list
        // of valid paths, the dataset's columns included (and as 404 when there is no dataset).
        if (!needsSchema && error instanceof AppError) {
          const schema = await this.#loadSchema(organizationId, request.datasetId, schemaKey);
          parseSearch(search, schema.columns);
          parseColumns(columnQueries, schema.columns);
        }
        throw error;
      }
      const queryHash = hashQuery(organizationId, request.datasetId, request.fromMs ?? null, request.toMs ?? null, order, filters, sort);
      const start = this.#pageStart(request.cursor, queryHash, offset, sort);

      const result = await queryTransactionPage(this.database, {
        organizationId,
        datasetId: request.datasetId,
        fromMs: request.fromMs ?? null,
        toMs: request.toMs ?? null,
        filters,
        columns: fields,
        order,
        sort,
        limit,
        start,
      });
      if (!result.datasetFound) {
        this.#schemas.delete(schemaKey);
        throw notFound('dataset', request.datasetId);
      }
      if (!result.startFound) throw listErrors.transactionsCursorRowGone();
      if (expectedFingerprint !== null && result.columnsFingerprint !== expectedFingerprint && attempt === 0) {
        this.#schemas.delete(schemaKey);
        continue;
      }
      if (start.kind !== 'after' && result.last !== null) {
        this.#boundaries.remember(queryHash, result.revision, offset + result.rowCount, result.last);
      }
      return {
        body: result.body,
        hasMore: result.hasMore,
        // The statement cut the page itself (it reads one row more than the page, rowsToFetch).
        nextCursor: result.hasMore && result.last !== null ? transactionCursors.encode({ order, sort, after: result.last, queryHash }) : null,
      };
    }
  }

  async #loadSchema(organizationId: string, datasetId: string, schemaKey: string): Promise<DatasetSchema> {
    const schema = await findDatasetSchema(this.database, organizationId, datasetId);
    if (!schema) throw notFound('dataset', datasetId);
    this.#schemas.set(schemaKey, schema);
    return schema;
  }

  #pageStart(cursor: string | undefined, queryHash: string, offset: number, sort: SortField): PageStart {
    if (cursor !== undefined) {
      const decoded = transactionCursors.decode(cursor);
      const cursorSort = decoded.sort ?? 'timestamp';
      if (cursorSort !== sort) throw listErrors.transactionsCursorOfOtherSort(cursorSort, sort);
      if (decoded.queryHash !== queryHash) throw listErrors.transactionsCursorOfOtherQuery();
      return { kind: 'after', after: decoded.after, skip: 0 };
    }
    if (offset === 0) return { kind: 'offset', offset };
    const boundary = this.#boundaries.find(queryHash, offset);
    if (!boundary) return { kind: 'offset', offset };
    return { kind: 'boundary', after: boundary.position, skip: offset - boundary.offset, revision: boundary.revision, fallbackOffset: offset };
  }
}

/** `offset`, its published misspelling `offest`, and `cursor`: at most one way to say where to start. */
function resolveOffset(request: TransactionQueryRequest): number {
  const { offset, offest, cursor } = request;
  if (offset !== undefined && offest !== undefined && offset !== offest) {
    throw invalidField(
      '/offest',
      `"offest" is accepted as a spelling of "offset", but both were sent with different values (${offset} and ${offest}); send only "offset"`,
    );
  }
  const value = offset ?? offest;
  if (cursor !== undefined && value !== undefined) {
    throw invalidField(
      '/cursor',
      `send either "cursor" or "${offset !== undefined ? 'offset' : 'offest'}", not both: the cursor already says where the page starts`,
    );
  }
  const resolved = value ?? 0;
  if (!Number.isSafeInteger(resolved) || resolved < 0) {
    throw invalidField(offset !== undefined ? '/offset' : '/offest', `must be an integer of at least 0, got ${resolved}`);
  }
  return resolved;
}

/** Both bounds are inclusive epoch milliseconds. */
function checkTimeRange(fromMs: number | undefined, toMs: number | undefined): void {
  if (fromMs === undefined || toMs === undefined || fromMs <= toMs) return;
  if (toMs < SECONDS_SUSPICION_THRESHOLD && fromMs >= SECONDS_SUSPICION_THRESHOLD) {
    throw invalidField(
      '/to',
      `is ${toMs}, before "from" (${fromMs}); "to" looks like seconds, while both bounds are epoch milliseconds: did you mean ${toMs * 1000}?`,
    );
  }
  throw invalidField('/from', `"from" (${fromMs}) is after "to" (${toMs}); both are inclusive epoch milliseconds and "from" must not exceed "to"`);
}

/**
 * A fingerprint of everything that decides which rows a query returns and in which order:
 * cursors and page boundaries belong to one such query. limit and columns do not change the
 * rows' order, so a client may vary them while paging.
 */
export function hashQuery(
  organizationId: string,
  datasetId: string,
  fromMs: number | null,
  toMs: number | null,
  order: SortOrder,
  filters: readonly TransactionFilter[],
  sort: SortField = 'timestamp',
): string {
  // In (timestamp, id) order the fingerprint is the one cursors held by clients carry.
  const canonical = JSON.stringify([
    organizationId,
    datasetId.toLowerCase(),
    fromMs,
    toMs,
    order,
    filters.map(canonicalFilter),
    ...(sort === 'timestamp' ? [] : [sort]),
  ]);
  return createHash('sha256').update(canonical).digest('base64url').slice(0, 22);
}

function canonicalFilter(filter: TransactionFilter): unknown {
  const field = (reference: FieldReference) => [reference.source, reference.name];
  switch (filter.type) {
    case 'string':
      return ['string', field(filter.field), filter.exact, filter.values];
    case 'boolean':
      return ['boolean', field(filter.field), filter.value];
    case 'numeric':
      return ['numeric', field(filter.field), filter.condition, filter.currencies];
  }
}
