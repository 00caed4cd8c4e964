import type { QueryClient } from '@tanstack/react-query';
import {
  amountProblem as amountTextProblem,
  calendarDateToEpochMs,
  type LedgerRecon,
  type SearchQuery,
  type Transaction,
  type TransactionQuery,
} from '@ledger-recon/sdk';
import { asSentence } from './session.tsx';
import { sourcesQuery } from './sources-query.ts';
import { BY_DATE, NO_FILTERS, filtersOfParams, paramsOfFilters, type ExplorerSort, type Filters } from './explorer-address.ts';

export { BY_DATE, NO_FILTERS, filtersOfParams, paramsOfFilters, type ExplorerSort, type Filters };

/**
 * The explorer's queries of rows, apart from its screen: the app starts the first page of an
 * explorer opened by its address while the screen's own code still loads.
 */

/** Rows per request: the API's largest page, so that scrolling asks the server rarely. */
export const PAGE_SIZE = 500;

/** Thousands grouped by commas as the table writes them ("1,000.00", "-1,000.50"). */
const GROUPED_AMOUNT = /^-?\d{1,3}(,\d{3})+(\.\d+)?$/;

/**
 * An amount filter as the server takes it: without spaces around, with the table's own minus
 * sign (−) read as a minus, and thousands separators dropped when they group by three.
 */
export function amountOfFilter(value: string): string {
  const text = value.trim().replace(/^\u2212/, '-');
  return GROUPED_AMOUNT.test(text) ? text.replace(/,/g, '') : text;
}

/**
 * What is wrong with an amount filter, as a sentence that starts with its label; null when it is
 * empty or an amount. The check is the SDK's, which is the server's: a filter the form lets
 * through is one the server takes. Amounts written as the table shows them (1,000.00) are amounts.
 */
export function amountProblem(label: string, value: string): string | null {
  const problem = value.trim() === '' ? null : amountTextProblem(amountOfFilter(value));
  return problem === null ? null : asSentence(`${label} ${problem}`);
}

/** The API's sort of each of the explorer's sort columns. */
const API_SORTS = { date: undefined, amount: 'amount', description: 'description' } as const;

/** The query of the filters and the sort, in the SearchQuery grammar; amounts stay decimal strings. */
export function queryOf(datasetId: string, filters: Filters, sort: ExplorerSort = BY_DATE): { query: TransactionQuery; problems: string[] } {
  const search: SearchQuery[] = [];
  const problems: string[] = [];
  if (filters.text.trim() !== '') search.push({ path: 'description', search: { type: 'string', value: filters.text.trim() } });
  const range: Record<string, string> = {};
  for (const [key, value, label] of [
    ['start', filters.amountFrom, 'Amount from'],
    ['end', filters.amountTo, 'Amount to'],
  ] as const) {
    if (value.trim() === '') continue;
    const problem = amountProblem(label, value);
    if (problem !== null) problems.push(problem);
    else range[key] = amountOfFilter(value);
  }
  if (Object.keys(range).length > 0) search.push({ path: 'amount', search: { type: 'money', value: range } });
  if (filters.statuses.length > 0) search.push({ path: 'reconciliationStatus', search: { type: 'string', value: filters.statuses, exact: true } });
  // The date fields give real days (YYYY-MM-DD) or nothing; To includes its whole day.
  const from = filters.dateFrom ? calendarDateToEpochMs(filters.dateFrom) : undefined;
  const to = filters.dateTo ? calendarDateToEpochMs(filters.dateTo) + 86_400_000 - 1 : undefined;
  return {
    query: {
      datasetId,
      ...(from !== undefined ? { from } : {}),
      ...(to !== undefined ? { to } : {}),
      ...(search.length > 0 ? { search } : {}),
      ...(API_SORTS[sort.column] !== undefined ? { sort: API_SORTS[sort.column] } : {}),
      ...(sort.direction === 'descending' ? { order: 'desc' as const } : {}),
      columns: ['amount', 'currency', 'reference', ...filters.columns].map((path) => ({ path })),
    },
    problems,
  };
}

export interface PageOfRows {
  transactions: Transaction[];
  nextCursor: string | null;
}

/**
 * The query of one page of rows. A page follows its predecessor's cursor when that page is at
 * hand (the cheap way, as the table is scrolled); otherwise (a jump far ahead) it asks by offset.
 */
export function pageQuery(recon: LedgerRecon, client: QueryClient, query: TransactionQuery, index: number) {
  const key = JSON.stringify(query);
  return {
    queryKey: ['transactions', key, index],
    staleTime: 30_000,
    queryFn: async (): Promise<PageOfRows> => {
      const cursor = index === 0 ? undefined : (client.getQueryData<PageOfRows>(['transactions', key, index - 1])?.nextCursor ?? undefined);
      const page = await recon.transactions.page({
        ...query,
        limit: PAGE_SIZE,
        ...(index === 0 ? {} : cursor !== undefined ? { cursor } : { offset: index * PAGE_SIZE }),
      });
      return { transactions: page.transactions, nextCursor: page.nextCursor };
    },
  };
}

/**
 * The first requests of the explorer opened on a dataset: the first page of rows without filters,
 * then the datasets (whose counts give the table its length). Started as soon as there is an
 * access token, which names the organization, so the page finds them under way. The first page
 * is asked for first: the server and the connection work on it before anything else. Settles
 * when the first page has arrived or failed.
 */
export function startTransactionsRequests(client: QueryClient, recon: LedgerRecon, search: URLSearchParams): Promise<void> {
  const datasetId = search.get('dataset');
  const { filters, sort } = filtersOfParams(search);
  const { query, problems } = queryOf(datasetId ?? '', filters, sort);
  const firstPage =
    datasetId !== null && datasetId !== '' && problems.length === 0 ? client.prefetchQuery(pageQuery(recon, client, query, 0)) : Promise.resolve();
  void client.prefetchQuery(sourcesQuery(recon));
  return firstPage;
}
