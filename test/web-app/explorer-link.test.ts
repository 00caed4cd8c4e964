import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { explorerLink, filtersOfParams, NO_FILTERS, paramsOfFilters } from '../../web/src/explorer-address.ts';

/** The explorer's address for a dataset and filters: written by the explorer's recipe, read back the same. */
describe('explorer links', () => {
  it('writes the dataset, the days and each status, and the explorer reads them back as its filters', () => {
    const link = explorerLink('d1', { statuses: ['none', 'partial'], dateFrom: '2026-01-01', dateTo: '2026-03-31' });
    assert.equal(link, '/transactions?dataset=d1&from=2026-01-01&to=2026-03-31&status=none&status=partial');
    const search = new URLSearchParams(link.slice(link.indexOf('?') + 1));
    assert.deepEqual(filtersOfParams(search), {
      filters: { ...NO_FILTERS, statuses: ['none', 'partial'], dateFrom: '2026-01-01', dateTo: '2026-03-31' },
      sort: { column: 'date', direction: 'ascending' },
    });
  });

  it('keeps the sort: by amount or description, descending, and earlier links newest first', () => {
    const params = paramsOfFilters('d1', NO_FILTERS, { column: 'amount', direction: 'descending' });
    assert.equal(params.toString(), 'dataset=d1&sort=amount&order=desc');
    assert.deepEqual(filtersOfParams(params).sort, { column: 'amount', direction: 'descending' });
    assert.deepEqual(filtersOfParams(new URLSearchParams('sort=description')).sort, { column: 'description', direction: 'ascending' });
    assert.deepEqual(filtersOfParams(new URLSearchParams('order=newest')).sort, { column: 'date', direction: 'descending' });
    assert.equal(paramsOfFilters('d1', NO_FILTERS, { column: 'date', direction: 'descending' }).toString(), 'dataset=d1&order=newest');
    assert.deepEqual(filtersOfParams(new URLSearchParams('sort=reference')).sort, { column: 'date', direction: 'ascending' });
  });

  it('leaves out what is not given', () => {
    assert.equal(explorerLink('d1'), '/transactions?dataset=d1');
    assert.deepEqual(filtersOfParams(new URLSearchParams('dataset=d1')).filters, NO_FILTERS);
  });
});
