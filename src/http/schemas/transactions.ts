import { Type, type Static } from '@sinclair/typebox';
import { TRANSACTIONS_PAGE_SIZE } from '../../domain/transactions/query.ts';
import { FILTER_TYPES, SEARCH_LIMITS } from '../../domain/transactions/search.ts';
import { IntegerLike } from './common.ts';

/**
 * The schemas of POST /transactions. The SearchQuery grammar is described here for the OpenAPI
 * document; the domain checks each query against the dataset's columns and reports problems by
 * the query's index (see QueryItem below).
 */

/** A string of a fixed set, validated as `enum` so that a wrong value is reported as "must be one of [...]". */
function StringEnum<T extends string>(values: readonly T[], options: { description?: string } = {}) {
  return Type.Unsafe<T>({ type: 'string', enum: [...values], ...options });
}

export const SearchFilter = Type.Object(
  {
    type: StringEnum(FILTER_TYPES, {
      description: 'Must fit the type of the field named by path: string, boolean, date (also number), number, money (also number).',
    }),
    value: Type.Unknown({
      description:
        'string: a string or an array of strings (any of them). boolean: true or false. date: a NumberRange in epoch ms. ' +
        'number: a number, an array of numbers (any of them), a NumberExpression {operator: ne|ge|gt|le|lt, value} or a NumberRange ' +
        '{start, end, includeStart, includeEnd} (bounds optional, inclusive by default). money: as number, decimal strings accepted. ' +
        "Checked against the field's type; a problem is reported with the index of the query.",
    }),
    exact: Type.Optional(Type.Boolean({ description: 'string filters: true means equality; otherwise a case-insensitive substring match.' })),
    currencies: Type.Optional(
      Type.Array(Type.String(), {
        description: 'money filters: only transactions in one of these currencies, e.g. ["EUR"]; codes match in upper or lower case.',
      }),
    ),
  },
  { additionalProperties: false, title: 'SearchFilter' },
);

export const SearchQuery = Type.Object(
  {
    path: Type.String({
      minLength: 1,
      maxLength: SEARCH_LIMITS.pathLength,
      description:
        'A standard field (id, description, type, timestamp, amount, currency, reconciliationStatus, reference) or a column of the dataset; case-insensitive.',
    }),
    search: SearchFilter,
  },
  { additionalProperties: false, title: 'SearchQuery', $id: 'SearchQuery' },
);

/**
 * Items of `search` and `columns` are checked for shape by the domain, not by this schema: the
 * domain knows the dataset's columns, so every problem (a misspelt filter type, an unknown key,
 * a missing value) is reported by the query's index together with the valid paths. The detailed
 * shape is still published, as the SearchQuery component.
 */
function QueryItem(description: string) {
  return Type.Unsafe<Record<string, unknown>>({ type: 'object', description });
}

export const TransactionQueryBody = Type.Object(
  {
    datasetId: Type.String({ format: 'uuid', description: 'The dataset (source) to read.' }),
    integrationId: Type.Optional(Type.String({ format: 'uuid', description: 'Accepted for compatibility with published samples and ignored.' })),
    limit: Type.Optional(
      IntegerLike({
        minimum: TRANSACTIONS_PAGE_SIZE.minimumEntries,
        maximum: TRANSACTIONS_PAGE_SIZE.maximumEntries,
        description: `Records per page, ${TRANSACTIONS_PAGE_SIZE.minimumEntries} to ${TRANSACTIONS_PAGE_SIZE.maximumEntries}; default ${TRANSACTIONS_PAGE_SIZE.defaultEntries}.`,
      }),
    ),
    offset: Type.Optional(IntegerLike({ minimum: 0, description: 'Records to skip, at least 0; default 0; no ceiling.' })),
    offest: Type.Optional(IntegerLike({ minimum: 0, description: "The published sample's spelling of offset; accepted as an alias." })),
    from: Type.Optional(IntegerLike({ description: 'Epoch milliseconds; transactions at or after this time.' })),
    to: Type.Optional(IntegerLike({ description: 'Epoch milliseconds; transactions at or before this time.' })),
    order: Type.Optional(
      StringEnum(['asc', 'desc'] as const, { description: 'The direction of sort (by timestamp unless sort says otherwise), then id. Default asc.' }),
    ),
    sort: Type.Optional(
      StringEnum(['timestamp', 'amount', 'description'] as const, {
        description:
          'What the page is sorted by, in the direction of order, ties broken by id: timestamp (default), amount (the exact decimal) or description (in lower case). ' +
          'Transactions without an amount or a description come last in ascending order. A cursor continues only the sort it was issued for.',
      }),
    ),
    cursor: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: 512,
        description: 'The X-Next-Cursor of the previous page, instead of offset: continues at constant cost. Send the same query with it.',
      }),
    ),
    search: Type.Optional(
      Type.Array(QueryItem('A SearchQuery {path, search: {type, value, exact?, currencies?}}; see the SearchQuery schema.'), {
        maxItems: SEARCH_LIMITS.queries,
        description: 'Filters combined with AND.',
      }),
    ),
    columns: Type.Optional(
      Type.Array(QueryItem('A SearchQuery of which only path is used: {path, search?}.'), {
        maxItems: SEARCH_LIMITS.columns,
        description: 'Fields to add to each record as top-level properties.',
      }),
    ),
  },
  { additionalProperties: false },
);
export type TransactionQueryBody = Static<typeof TransactionQueryBody>;
