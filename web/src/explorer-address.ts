/**
 * The explorer's filters and sort as its address keeps them: the one recipe that writes and
 * reads them, so that a reload, back and forward, a shared link and a link from another screen
 * (the dashboard's) show the same rows. Only what is set is written; statuses and columns repeat
 * (`status=none&status=partial`), days are `YYYY-MM-DD`. Free of the app's other modules, so that
 * the links can be tested on their own.
 */

export interface Filters {
  text: string;
  amountFrom: string;
  amountTo: string;
  dateFrom: string;
  dateTo: string;
  statuses: string[];
  columns: string[];
}

export const NO_FILTERS: Filters = { text: '', amountFrom: '', amountTo: '', dateFrom: '', dateTo: '', statuses: [], columns: [] };

/** The columns the explorer sorts by: the API sorts by timestamp, amount or description, then id. */
export const SORT_COLUMNS = ['date', 'amount', 'description'] as const;
export type SortColumn = (typeof SORT_COLUMNS)[number];

/** The explorer's sort, in the shape of a React Aria table's sort descriptor. */
export interface ExplorerSort {
  column: SortColumn;
  direction: 'ascending' | 'descending';
}

/** By date, oldest first: what the address says when it says nothing. */
export const BY_DATE: ExplorerSort = { column: 'date', direction: 'ascending' };

/**
 * The filters and the sort as the page's address keeps them, so that a reload, back and forward
 * and a shared link show the same rows: only what is set is written. The sort is `sort=amount`
 * or `sort=description` (by date when absent), descending is `order=desc` (`order=newest` by
 * date, as earlier links wrote it).
 */
const FILTER_PARAMS = { text: 'text', amountFrom: 'amountFrom', amountTo: 'amountTo', dateFrom: 'from', dateTo: 'to' } as const;

export function filtersOfParams(params: URLSearchParams): { filters: Filters; sort: ExplorerSort } {
  const filters: Filters = { ...NO_FILTERS, statuses: params.getAll('status'), columns: params.getAll('column') };
  for (const [key, name] of Object.entries(FILTER_PARAMS) as [keyof typeof FILTER_PARAMS, string][]) filters[key] = params.get(name) ?? '';
  const column = SORT_COLUMNS.find((candidate) => candidate !== 'date' && candidate === params.get('sort')) ?? 'date';
  const order = params.get('order');
  return { filters, sort: { column, direction: order === 'newest' || order === 'desc' ? 'descending' : 'ascending' } };
}

export function paramsOfFilters(datasetId: string, filters: Filters, sort: ExplorerSort): URLSearchParams {
  const params = new URLSearchParams();
  if (datasetId !== '') params.set('dataset', datasetId);
  for (const [key, name] of Object.entries(FILTER_PARAMS) as [keyof typeof FILTER_PARAMS, string][]) {
    if (filters[key].trim() !== '') params.set(name, filters[key].trim());
  }
  for (const status of filters.statuses) params.append('status', status);
  for (const column of filters.columns) params.append('column', column);
  if (sort.column !== 'date') params.set('sort', sort.column);
  if (sort.direction === 'descending') params.set('order', sort.column === 'date' ? 'newest' : 'desc');
  return params;
}

/** The explorer's address for a dataset and filters, for a link from another screen. */
export function explorerLink(datasetId: string, filters: Partial<Filters> = {}): string {
  return `/transactions?${paramsOfFilters(datasetId, { ...NO_FILTERS, ...filters }, BY_DATE).toString()}`;
}
