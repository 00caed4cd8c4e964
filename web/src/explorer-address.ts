/**
 * The explorer's filters and order as its address keeps them: the one recipe that writes and
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

/** The explorer's order: by date, oldest or newest first (the API orders by timestamp, then id). */
export type DateOrder = 'asc' | 'desc';

/**
 * The filters and the order as the page's address keeps them, so that a reload, back and forward
 * and a shared link show the same rows: only what is set is written.
 */
const FILTER_PARAMS = { text: 'text', amountFrom: 'amountFrom', amountTo: 'amountTo', dateFrom: 'from', dateTo: 'to' } as const;

export function filtersOfParams(params: URLSearchParams): { filters: Filters; order: DateOrder } {
  const filters: Filters = { ...NO_FILTERS, statuses: params.getAll('status'), columns: params.getAll('column') };
  for (const [key, name] of Object.entries(FILTER_PARAMS) as [keyof typeof FILTER_PARAMS, string][]) filters[key] = params.get(name) ?? '';
  return { filters, order: params.get('order') === 'newest' ? 'desc' : 'asc' };
}

export function paramsOfFilters(datasetId: string, filters: Filters, order: DateOrder): URLSearchParams {
  const params = new URLSearchParams();
  if (datasetId !== '') params.set('dataset', datasetId);
  for (const [key, name] of Object.entries(FILTER_PARAMS) as [keyof typeof FILTER_PARAMS, string][]) {
    if (filters[key].trim() !== '') params.set(name, filters[key].trim());
  }
  for (const status of filters.statuses) params.append('status', status);
  for (const column of filters.columns) params.append('column', column);
  if (order === 'desc') params.set('order', 'newest');
  return params;
}

/** The explorer's address for a dataset and filters, for a link from another screen. */
export function explorerLink(datasetId: string, filters: Partial<Filters> = {}): string {
  return `/transactions?${paramsOfFilters(datasetId, { ...NO_FILTERS, ...filters }, 'asc').toString()}`;
}
