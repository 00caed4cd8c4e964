import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { actionInWords, changeInWords, columnInWords, utcMinute } from '../../web/src/audit-words.ts';

describe('the audit trail in words', () => {
  it('says a change field by field, leaving ids out', () => {
    assert.deepEqual(
      changeInWords({
        before: { datasetId: 'd1', sourceId: 's1', name: 'Current account', accountId: null },
        after: { datasetId: 'd1', sourceId: 's1', name: 'Operating account', accountId: 'DE89370400440532013000' },
      }),
      ['Name: Current account → Operating account', 'Account: none → DE89370400440532013000'],
    );
    assert.deepEqual(
      changeInWords({
        before: { reconciliationStatus: 'none', allocatedAmount: '0', matchCount: 0 },
        after: { reconciliationStatus: 'full', allocatedAmount: '1234567.10', matchCount: 2 },
      }),
      ['Status: none → full', 'Matched amount: 0 → 1,234,567.10', 'Matches: 0 → 2'],
    );
  });

  it('says what was created and what was removed', () => {
    assert.deepEqual(changeInWords({ before: null, after: { name: 'Ledger', columns: [{ name: 'invoice_number', type: 'money' }] } }), [
      'Name: Ledger',
      'Columns: Invoice number — amount',
    ]);
    assert.deepEqual(changeInWords({ before: { name: 'Nightly rule', enabled: true }, after: null }), ['Name: was Nightly rule', 'Enabled: was yes']);
  });

  it('names actions and columns in words, and times in UTC with the zone named', () => {
    assert.equal(actionInWords('dataset.updated'), 'Dataset changed');
    assert.equal(actionInWords('import.completed'), 'Import finished');
    assert.equal(columnInWords({ name: 'invoiceNumber', type: 'string' }), 'Invoice number — text');
    assert.equal(utcMinute('2026-01-07T23:59:59.999Z'), '2026-01-07 23:59 UTC');
  });
});
