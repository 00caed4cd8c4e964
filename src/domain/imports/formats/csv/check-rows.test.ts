import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { checkRows, headerFits } from './check-rows.ts';

/** The first rows of a CSV read one by one with a mapping being made. */

const TEXT = [
  'Date,Amount,Memo',
  '2024-01-02,-5.00,Coffee',
  '2024-01-3x,7.00,Bad date',
  'Total,,',
  '2024-01-04,abc,Bad amount',
  '2024-01-05,9.99,Tea',
  '',
].join('\n');
const MAPPING = { columns: { timestamp: 'Date', amount: 'Amount', description: 'Memo' }, currency: 'EUR', skip: [{ column: 'Date', equals: ['Total'] }] };

describe('checkRows', () => {
  it('reads every row of the head, says why each refused one fails, and marks the rows a skip rule leaves out', async () => {
    const checked = await checkRows(TEXT, MAPPING, []);
    assert.equal(checked.problem, null);
    assert.deepEqual(checked.columns, ['Date', 'Amount', 'Memo']);
    assert.deepEqual(
      checked.rows.map((row) => [row.line, row.entry?.amount ?? null, row.problem === null ? null : row.problem.slice(0, 22), row.skipped]),
      [
        [2, '-5.00', null, false],
        [3, null, 'column "Date": found "', false],
        [4, null, null, true],
        [5, null, 'column "Amount": found', false],
        [6, '9.99', null, false],
      ],
    );
  });

  it('names the setting of a mapping that cannot be used, and still shows the rows as written', async () => {
    const checked = await checkRows(TEXT, { ...MAPPING, dateFormat: 'nonsense' }, []);
    assert.equal(checked.problem?.field, 'dateFormat');
    assert.equal(checked.rows.length, 5);
    assert.deepEqual(checked.rows[0]?.fields, ['2024-01-02', '-5.00', 'Coffee']);
  });

  it('stops at the limit of rows', async () => {
    assert.equal((await checkRows(TEXT, MAPPING, [], 2)).rows.length, 2);
  });

  it('tells whether a saved mapping was made for a file of this header', async () => {
    assert.equal(await headerFits(TEXT, MAPPING), true);
    assert.equal(await headerFits(TEXT.replace('Memo', 'Text'), MAPPING), false);
    assert.equal(await headerFits(TEXT, { ...MAPPING, header: false }), false);
  });
});
