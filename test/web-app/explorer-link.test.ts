import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { explorerLink, filtersOfAddress } from '../../web/src/explorer-address.ts';

/** The explorer's address for a dataset and filters: written in one place, read back the same. */
describe('explorer links', () => {
  it('writes the dataset, each status and the days, and reads them back as filters', () => {
    const link = explorerLink('d1', { statuses: ['none', 'partial'], dateFrom: '2026-01-01', dateTo: '2026-03-31' });
    assert.equal(link, '/transactions?dataset=d1&status=none&status=partial&from=2026-01-01&to=2026-03-31');
    const search = new URLSearchParams(link.slice(link.indexOf('?') + 1));
    assert.deepEqual(filtersOfAddress(search), { statuses: ['none', 'partial'], dateFrom: '2026-01-01', dateTo: '2026-03-31' });
  });

  it('leaves out what is not given, and ignores a day that is not one', () => {
    assert.equal(explorerLink('d1'), '/transactions?dataset=d1');
    assert.deepEqual(filtersOfAddress(new URLSearchParams('dataset=d1&from=yesterday')), { statuses: [], dateFrom: '', dateTo: '' });
  });
});
