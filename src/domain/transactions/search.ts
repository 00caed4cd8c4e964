import { AppError, pointerSegment, queryErrors, quoteInput } from '../../errors.ts';
import { CURRENCY_PATTERN } from '../catalog/columns.ts';
import { isPlainObject } from '../json.ts';
import { compareDecimals, parseMoney, MONEY_FORMAT_HINT } from '../money.ts';
import type {
  ColumnType,
  DatasetColumn,
  FieldReference,
  NumericCondition,
  StandardFieldName,
  TransactionFilter,
} from '../../db/repositories/transaction-query.ts';

/**
 * The published service's SearchQuery grammar, `{path, search: {type, value, exact?,
 * currencies?}}`, parsed into typed filters. Everything a client can get wrong is caught here
 * and reported against the query's index, with the list of valid paths, so that a typo never
 * silently widens or empties a query.
 */

/** The standard fields every dataset has, with their types, in the order they are listed to clients. */
export const STANDARD_FIELDS: ReadonlyArray<{ name: StandardFieldName; type: ColumnType }> = [
  { name: 'id', type: 'string' },
  { name: 'description', type: 'string' },
  { name: 'type', type: 'string' },
  { name: 'timestamp', type: 'date' },
  { name: 'amount', type: 'money' },
  { name: 'currency', type: 'string' },
  { name: 'reconciliationStatus', type: 'string' },
  { name: 'reference', type: 'string' },
  { name: 'bankReference', type: 'string' },
  // The record's own id (the sender's, or the one an import gave it): searchable like a column.
  { name: 'externalId', type: 'string' },
];

export const FILTER_TYPES = ['string', 'boolean', 'date', 'number', 'money'] as const;
export type FilterType = (typeof FILTER_TYPES)[number];

/**
 * Which filter types fit a column type. A date is an epoch-ms number and money is a number, so
 * number filters also apply to them; nothing else crosses types.
 */
const FITTING_FILTER_TYPES: Record<ColumnType, readonly FilterType[]> = {
  string: ['string'],
  boolean: ['boolean'],
  date: ['date', 'number'],
  number: ['number'],
  money: ['money', 'number'],
};

/** Bounds that keep one request's SQL small. */
export const SEARCH_LIMITS = {
  queries: 20,
  columns: 40,
  valuesPerFilter: 100,
  stringValueLength: 1000,
  pathLength: 200,
  currencies: 20,
} as const;

export interface RawSearchQuery {
  path?: unknown;
  search?: unknown;
}

/** Whether a path names a standard field, matched case-insensitively. */
export function standardField(path: string): FieldReference | undefined {
  const lowered = path.toLowerCase();
  const field = STANDARD_FIELDS.find((candidate) => candidate.name.toLowerCase() === lowered);
  return field ? { source: 'standard', name: field.name, type: field.type } : undefined;
}

/** Whether every path of these queries is a standard field, so that the dataset's columns are not needed. */
export function onlyStandardPaths(queries: readonly RawSearchQuery[]): boolean {
  return queries.every((query) => typeof query.path === 'string' && standardField(query.path) !== undefined);
}

/**
 * Resolves a path against the standard fields and the dataset's columns, case-insensitively;
 * a column whose name matches exactly wins over one that differs only in case.
 */
export function resolvePath(path: string, columns: readonly DatasetColumn[]): FieldReference | undefined {
  const standard = standardField(path);
  if (standard) return standard;
  const exact = columns.find((column) => column.name === path);
  if (exact) return { source: 'custom', name: exact.name, type: exact.type };
  const lowered = path.toLowerCase();
  const folded = columns.filter((column) => column.name.toLowerCase() === lowered);
  if (folded.length === 1) return { source: 'custom', name: folded[0]!.name, type: folded[0]!.type };
  return undefined;
}

/** "id (string), description (string), ..., vatRate (number)". */
export function describeValidPaths(columns: readonly DatasetColumn[]): string {
  return [...STANDARD_FIELDS, ...columns].map((field) => `${field.name} (${field.type})`).join(', ');
}

/** A 400 about one query of `search` or `columns`, naming it by index and listing the valid paths. */
function queryError(list: 'search' | 'columns', index: number, pointer: string, problem: string, columns: readonly DatasetColumn[]): AppError {
  return queryErrors.searchQueryInvalid(list, index, pointer, problem, describeValidPaths(columns));
}

class FilterProblem extends Error {
  constructor(
    readonly pointer: string,
    message: string,
  ) {
    super(message);
  }
}

function refuseUnknownKeys(object: Record<string, unknown>, allowed: readonly string[], pointer: string) {
  for (const key of Object.keys(object)) {
    if (!allowed.includes(key)) {
      throw new FilterProblem(`${pointer}/${pointerSegment(key)}`, `unknown property ${quoteInput(key)}; allowed here: ${allowed.join(', ')}`);
    }
  }
}

function readValueList<T>(value: unknown[], pointer: string, readOne: (item: unknown, pointer: string) => T): T[] {
  if (value.length === 0) throw new FilterProblem(pointer, 'must list at least one value');
  if (value.length > SEARCH_LIMITS.valuesPerFilter) {
    throw new FilterProblem(pointer, `must list at most ${SEARCH_LIMITS.valuesPerFilter} values, got ${value.length}`);
  }
  return value.map((item, index) => readOne(item, `${pointer}/${index}`));
}

/** How the operands of a numeric filter are read, by column and filter type. */
type OperandReader = (value: unknown, pointer: string) => string;

function readFiniteNumber(value: unknown, pointer: string): string {
  if (typeof value !== 'number' || !Number.isFinite(value)) throw new FilterProblem(pointer, 'must be a number');
  return String(value);
}

function readEpochMilliseconds(value: unknown, pointer: string): string {
  if (typeof value !== 'number' || !Number.isSafeInteger(value)) throw new FilterProblem(pointer, 'must be a whole number of epoch milliseconds');
  return String(value);
}

function readMoney(value: unknown, pointer: string): string {
  const money = parseMoney(value);
  if (money === null) throw new FilterProblem(pointer, `must be ${MONEY_FORMAT_HINT}`);
  return money;
}

function readBoolean(value: unknown, pointer: string, fallback: boolean): boolean {
  if (value === undefined) return fallback;
  if (typeof value !== 'boolean') throw new FilterProblem(pointer, 'must be true or false');
  return value;
}

const RANGE_KEYS = ['start', 'end', 'includeStart', 'includeEnd'] as const;
const EXPRESSION_OPERATORS = ['ne', 'ge', 'gt', 'le', 'lt'] as const;

function readRange(value: Record<string, unknown>, pointer: string, readOperand: OperandReader): NumericCondition {
  refuseUnknownKeys(value, RANGE_KEYS, pointer);
  const start = value.start === undefined || value.start === null ? null : readOperand(value.start, `${pointer}/start`);
  const end = value.end === undefined || value.end === null ? null : readOperand(value.end, `${pointer}/end`);
  const includeStart = readBoolean(value.includeStart, `${pointer}/includeStart`, true);
  const includeEnd = readBoolean(value.includeEnd, `${pointer}/includeEnd`, true);
  // Operands are decimal texts: they are compared digit by digit, never through a double.
  if (start !== null && end !== null && (compareDecimals(start, end) ?? Math.sign(Number(start) - Number(end))) > 0) {
    throw new FilterProblem(pointer, `start (${start}) is greater than end (${end}); the range would match nothing`);
  }
  return { kind: 'range', start, end, includeStart, includeEnd };
}

/** A NumberRange, a NumberExpression {operator, value}, a number or a list of numbers. */
function readNumericValue(value: unknown, pointer: string, readOperand: OperandReader): NumericCondition {
  if (Array.isArray(value)) return { kind: 'anyOf', values: readValueList(value, pointer, readOperand) };
  if (isPlainObject(value)) {
    if ('operator' in value) {
      refuseUnknownKeys(value, ['operator', 'value'], pointer);
      const operator = value.operator;
      if (typeof operator !== 'string' || !(EXPRESSION_OPERATORS as readonly string[]).includes(operator)) {
        throw new FilterProblem(`${pointer}/operator`, `must be one of ${EXPRESSION_OPERATORS.join(', ')}`);
      }
      if (value.value === undefined) throw new FilterProblem(`${pointer}/value`, 'is required');
      return { kind: 'compare', operator: operator as (typeof EXPRESSION_OPERATORS)[number], value: readOperand(value.value, `${pointer}/value`) };
    }
    return readRange(value, pointer, readOperand);
  }
  if (value === undefined) throw new FilterProblem(pointer, 'is required');
  return { kind: 'anyOf', values: [readOperand(value, pointer)] };
}

const FILTER_KEYS: Record<FilterType, readonly string[]> = {
  // `exact` is accepted on every filter type because clients send it generically; it only
  // changes string filters.
  string: ['type', 'value', 'exact'],
  boolean: ['type', 'value', 'exact'],
  date: ['type', 'value', 'exact'],
  number: ['type', 'value', 'exact'],
  money: ['type', 'value', 'exact', 'currencies'],
};

function readFilter(field: FieldReference, filter: Record<string, unknown>, filterType: FilterType): TransactionFilter {
  refuseUnknownKeys(filter, FILTER_KEYS[filterType], '/search');
  if (filter.exact !== undefined && typeof filter.exact !== 'boolean') throw new FilterProblem('/search/exact', 'must be true or false');
  const value = filter.value;
  const valuePointer = '/search/value';
  switch (filterType) {
    case 'string': {
      const readString = (item: unknown, pointer: string) => {
        if (typeof item !== 'string') throw new FilterProblem(pointer, 'must be a string');
        if (item.length > SEARCH_LIMITS.stringValueLength) {
          throw new FilterProblem(pointer, `must be at most ${SEARCH_LIMITS.stringValueLength} characters`);
        }
        return item;
      };
      if (value === undefined) throw new FilterProblem(valuePointer, 'is required: a string or an array of strings');
      const values = Array.isArray(value) ? readValueList(value, valuePointer, readString) : [readString(value, valuePointer)];
      return { type: 'string', field, values, exact: filter.exact === true };
    }
    case 'boolean':
      if (typeof value !== 'boolean') throw new FilterProblem(valuePointer, 'must be true or false');
      return { type: 'boolean', field, value };
    case 'date': {
      if (!isPlainObject(value)) {
        throw new FilterProblem(valuePointer, 'must be a NumberRange {start, end, includeStart, includeEnd} in epoch milliseconds');
      }
      return { type: 'numeric', field, condition: readRange(value, valuePointer, readEpochMilliseconds), currencies: null };
    }
    case 'number':
    case 'money': {
      const readOperand: OperandReader =
        field.type === 'date' ? readEpochMilliseconds : filterType === 'money' || field.type === 'money' ? readMoney : readFiniteNumber;
      const condition = readNumericValue(value, valuePointer, readOperand);
      let currencies: string[] | null = null;
      if (filter.currencies !== undefined) {
        const list = filter.currencies;
        if (!Array.isArray(list)) throw new FilterProblem('/search/currencies', 'must be an array of currency codes such as ["EUR"]');
        if (list.length > SEARCH_LIMITS.currencies) {
          throw new FilterProblem('/search/currencies', `must list at most ${SEARCH_LIMITS.currencies} currencies`);
        }
        currencies = list.map((currency, index) => {
          if (typeof currency !== 'string' || !CURRENCY_PATTERN.test(currency)) {
            throw new FilterProblem(`/search/currencies/${index}`, 'must be a currency code such as "EUR"');
          }
          return currency.toUpperCase();
        });
        if (currencies.length === 0) throw new FilterProblem('/search/currencies', 'must list at least one currency');
      }
      return { type: 'numeric', field, condition, currencies };
    }
  }
}

/** Parses `search` into filters combined with AND. */
export function parseSearch(queries: readonly unknown[], columns: readonly DatasetColumn[]): TransactionFilter[] {
  if (queries.length > SEARCH_LIMITS.queries) {
    throw queryErrors.tooManySearchQueries(SEARCH_LIMITS.queries, queries.length);
  }
  return queries.map((query, index) => {
    const fail = (pointer: string, problem: string) => queryError('search', index, pointer, problem, columns);
    if (!isPlainObject(query)) throw fail('', 'must be an object {path, search}');
    for (const key of Object.keys(query)) {
      if (key !== 'path' && key !== 'search')
        throw fail(`/${pointerSegment(key)}`, `unknown property ${quoteInput(key)}; a query has only "path" and "search"`);
    }
    if (typeof query.path !== 'string' || query.path === '') throw fail('/path', 'must be a non-empty string naming a field');
    if (query.path.length > SEARCH_LIMITS.pathLength) throw fail('/path', `must be at most ${SEARCH_LIMITS.pathLength} characters, got ${query.path.length}`);
    const field = resolvePath(query.path, columns);
    if (!field) throw fail('/path', `unknown path ${quoteInput(query.path)}`);
    const filter = query.search;
    if (filter === undefined) throw fail('/search', 'is required: an object {type, value}');
    if (!isPlainObject(filter)) throw fail('/search', 'must be an object {type, value}');
    const filterType = filter.type;
    if (typeof filterType !== 'string' || !(FILTER_TYPES as readonly string[]).includes(filterType)) {
      throw fail('/search/type', `must be one of ${FILTER_TYPES.join(', ')}`);
    }
    const fitting = FITTING_FILTER_TYPES[field.type];
    if (!fitting.includes(filterType as FilterType)) {
      throw fail('/search/type', `a ${filterType} filter does not fit path "${field.name}", which is a ${field.type} field; use ${fitting.join(' or ')}`);
    }
    try {
      return readFilter(field, filter, filterType as FilterType);
    } catch (error) {
      if (error instanceof FilterProblem) throw fail(error.pointer, error.message);
      throw error;
    }
  });
}

/**
 * Parses `columns` into the fields to add to each record. Only `path` is used; `search` may be
 * present and is ignored. A field asked for twice is added once.
 */
export function parseColumns(queries: readonly unknown[], columns: readonly DatasetColumn[]): FieldReference[] {
  if (queries.length > SEARCH_LIMITS.columns) {
    throw queryErrors.tooManyColumnQueries(SEARCH_LIMITS.columns, queries.length);
  }
  const fields: FieldReference[] = [];
  const seen = new Set<string>();
  queries.forEach((query, index) => {
    const fail = (pointer: string, problem: string) => queryError('columns', index, pointer, problem, columns);
    if (!isPlainObject(query)) throw fail('', 'must be an object {path}');
    for (const key of Object.keys(query)) {
      if (key !== 'path' && key !== 'search')
        throw fail(`/${pointerSegment(key)}`, `unknown property ${quoteInput(key)}; a column has only "path" (and an ignored "search")`);
    }
    if (typeof query.path !== 'string' || query.path === '') throw fail('/path', 'must be a non-empty string naming a field');
    if (query.path.length > SEARCH_LIMITS.pathLength) throw fail('/path', `must be at most ${SEARCH_LIMITS.pathLength} characters, got ${query.path.length}`);
    const field = resolvePath(query.path, columns);
    if (!field) throw fail('/path', `unknown path ${quoteInput(query.path)}`);
    const key = `${field.source}:${field.name}`;
    if (!seen.has(key)) {
      seen.add(key);
      fields.push(field);
    }
  });
  return fields;
}
