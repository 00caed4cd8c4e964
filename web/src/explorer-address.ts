/** The explorer's filters an address can carry (those of transactions-query.ts's Filters by their names). */
export interface AddressFilters {
  statuses: string[];
  dateFrom: string;
  dateTo: string;
}

/**
 * The explorer's address for a dataset and filters: the one place that writes it, so that a link
 * from another screen opens the explorer on exactly the rows it names. Filters left out are not
 * written; statuses repeat (`status=none&status=partial`), days are `YYYY-MM-DD`.
 */
export function explorerLink(datasetId: string, filters: Partial<AddressFilters> = {}): string {
  const search = new URLSearchParams({ dataset: datasetId });
  for (const status of filters.statuses ?? []) search.append('status', status);
  if (filters.dateFrom) search.set('from', filters.dateFrom);
  if (filters.dateTo) search.set('to', filters.dateTo);
  return `/transactions?${search.toString()}`;
}

/** The filters an explorer address carries (see explorerLink), empty when it carries none. */
export function filtersOfAddress(search: URLSearchParams): AddressFilters {
  const day = (value: string | null) => (value !== null && /^\d{4}-\d{2}-\d{2}$/.test(value) ? value : '');
  return {
    statuses: search.getAll('status'),
    dateFrom: day(search.get('from')),
    dateTo: day(search.get('to')),
  };
}
