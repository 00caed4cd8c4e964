import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { evidenceSentences, formatDuration } from './evidence.ts';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const origin = { id: 'o1', amount: '950.00', currency: 'EUR', description: 'KESTREL AVIATION INV-10424', datasetName: 'Bank' };
const target = { id: 't1', amount: '950.00', currency: 'EUR', description: 'Invoice 10424 Kestrel', datasetName: 'Ledger' };
const runnerUp = { id: 't2', amount: '1340.00', currency: 'EUR', description: 'Westcott Dental' };

describe('evidence as sentences', () => {
  it('says each condition of a 1:1 match, its score and runner-up in words, naming transactions by amount and description', () => {
    const evidence = {
      score: '0.950000',
      runnersUp: [{ originId: 'o1', targetId: 't2', score: '0.940000' }],
      conditions: [
        { type: 'amount', sign: 'same', origin: '950.00', target: '950.00', difference: '0.00', tolerance: '0', held: true },
        {
          type: 'contains',
          originValue: 'reference',
          targetValue: 'description | casefold',
          origin: 'INV-10424',
          target: 'kestrel aviation inv-10424',
          held: true,
        },
        { type: 'date', path: 'timestamp', origin: 0, target: 11 * HOUR, differenceMilliseconds: 11 * HOUR, min: -3 * DAY, max: 3 * DAY, held: true },
        { type: 'currency', origin: 'EUR', target: 'EUR', held: true },
      ],
    };
    const sentences = evidenceSentences(evidence, {
      transactions: [origin, target, runnerUp],
      pair: { originId: 'o1', targetId: 't1' },
      originName: 'bank',
      targetName: 'ledger',
    });
    assert.deepEqual(
      sentences.map((sentence) => sentence.text),
      [
        'Amounts equal: 950.00 EUR and 950.00 EUR',
        'Reference INV-10424 found in the ledger text',
        'Booked 11 hours apart (allowed: 3 days either way)',
        'Same currency: EUR',
        'Score 0.95 of 1',
        'Runner-up: 1,340.00 EUR Westcott Dental, score 0.94',
      ],
    );
    assert.deepEqual(
      sentences.map((sentence) => sentence.held),
      [true, true, true, true, null, null],
    );
    for (const sentence of sentences) assert.doesNotMatch(sentence.text, /o1|t1|t2|\d{10,}/, 'no id and no epoch number');
  });

  it('says a difference, the tolerance, an uneven window and what did not hold', () => {
    const sentences = evidenceSentences({
      conditions: [
        { type: 'amount', sign: 'same', origin: '1250.00', target: '1243.50', difference: '6.50', tolerance: '10.00', held: true },
        { type: 'date', path: 'valueDate', differenceMilliseconds: -2 * DAY, min: -2 * DAY, max: 5 * DAY, held: true },
        { type: 'equals', originValue: 'reference | casefold', targetValue: 'reference | casefold', origin: 'inv-1', target: 'inv-2', held: false },
        {
          type: 'similar',
          originValue: 'description',
          targetValue: 'description',
          origin: 'acme ltd',
          target: 'acme limited',
          similarity: 0.6512,
          min: 0.5,
          held: true,
        },
        { type: 'currency', origin: 'EUR', target: 'USD', held: false },
      ],
    });
    assert.deepEqual(
      sentences.map((sentence) => sentence.text),
      [
        'Amounts differ by 6.50 EUR: 1,250.00 EUR and 1,243.50 EUR (allowed: 10.00 EUR)',
        'Value dates 2 days apart (allowed: from 2 days before to 5 days after)',
        'Reference differs: inv-1 in the origin reference, inv-2 in the target reference',
        'Text 65% similar to the target text (needed: 50%): “acme ltd” and “acme limited”',
        'Currencies differ: EUR and USD',
      ],
    );
  });

  it('sums a key group by type and names its counterpart', () => {
    const sentences = evidenceSentences(
      {
        score: '1.000000',
        conditions: [
          { type: 'amount', sign: 'opposite', origin: '2920.00', target: '2920.00', difference: '0.00', tolerance: '0', held: true },
          { type: 'equals', held: true, pairs: 300 },
        ],
        group: {
          side: 'target',
          transactions: 300,
          byType: [
            { type: 'charge', count: 296, sum: '2960.00' },
            { type: 'refund', count: 4, sum: '-40.00' },
          ],
          total: '2920.00',
          counterpart: { id: 'd1', remaining: '2920.00' },
          difference: '0.00',
        },
      },
      { transactions: [{ id: 'd1', amount: '2920.00', currency: 'EUR', description: 'STRIPE PAYOUT' }] },
    );
    assert.deepEqual(
      sentences.map((sentence) => sentence.text),
      [
        'Amounts equal, opposite signs: 2,920.00 EUR and 2,920.00 EUR',
        'The equal values held for each of the 300 transactions',
        '296 charges 2,960.00 EUR · 4 refunds −40.00 EUR',
        '300 transactions totalling 2,920.00 EUR against 2,920.00 EUR STRIPE PAYOUT',
        'Score 1.0 of 1',
      ],
    );
  });

  it('says why conditions are missing, and reads nothing into what is not evidence', () => {
    assert.deepEqual(evidenceSentences({ conditions: null, conditionsUnavailable: 'the column was removed' }), [
      { text: 'The conditions cannot be shown: the column was removed', held: null },
    ]);
    assert.deepEqual(evidenceSentences([{ type: 'currency', origin: 'EUR', target: 'EUR', held: true }]), [{ text: 'Same currency: EUR', held: true }]);
    assert.deepEqual(evidenceSentences(null), []);
    assert.deepEqual(evidenceSentences('text'), []);
  });

  it('writes durations in the largest units that say them', () => {
    assert.equal(formatDuration(3 * DAY), '3 days');
    assert.equal(formatDuration(DAY + 2 * HOUR), '1 day 2 hours');
    assert.equal(formatDuration(HOUR), '1 hour');
    assert.equal(formatDuration(45 * 60_000), '45 minutes');
    assert.equal(formatDuration(0), '0 seconds');
  });
});
