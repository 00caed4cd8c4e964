import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { isUuid } from './identifiers.ts';
import { isReconciliationStatus, RECONCILIATION_STATUSES, SET_STATUSES } from './statuses.ts';

describe('statuses and ids', () => {
  it('knows the five reconciliation statuses as the API writes them, the set ones among them', () => {
    assert.deepEqual(RECONCILIATION_STATUSES, ['none', 'partial', 'full', 'informative', 'out of scope']);
    assert.ok(SET_STATUSES.every((status) => isReconciliationStatus(status)));
    assert.equal(isReconciliationStatus('out-of-scope'), false);
    assert.equal(isReconciliationStatus('Full'), false);
  });

  it('takes a UUID in either letter case and nothing else as an id', () => {
    assert.equal(isUuid('258b87d2-734a-49d3-8e7c-107bf2552b86'), true);
    assert.equal(isUuid('258B87D2-734A-49D3-8E7C-107BF2552B86'), true);
    assert.equal(isUuid('258b87d2734a49d38e7c107bf2552b86'), false);
    assert.equal(isUuid(' 258b87d2-734a-49d3-8e7c-107bf2552b86'), false);
  });
});
