import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { addDecimals, amountProblem, compareDecimals, fromScaled, isAmount, negateDecimal, toScaled, withScale } from './money.ts';

describe('amounts', () => {
  it('takes what the server takes: a minus, up to 18 digits before the point and 6 after', () => {
    for (const text of ['0', '-0.5', '120.50', '-1250.00', '0.000001', '123456789012345678.123456', '-123456789012345678.123456']) {
      assert.equal(isAmount(text), true, text);
      assert.equal(amountProblem(text), null, text);
    }
  });

  it('refuses 7 or more decimal places, saying how many there are and that 6 is the most', () => {
    assert.equal(isAmount('1.1234567'), false);
    const places = (count: number) => `has ${count} decimal places; amounts have at most 6: round it to 6`;
    assert.equal(amountProblem('1.1234567'), places(7));
    assert.equal(amountProblem('-0.12345678'), places(8));
    assert.equal(amountProblem('5.1234567', { positive: true }), places(7));
  });

  it('names the fix for each other kind of mistake, and refuses a sign or zero where the amount must be positive', () => {
    const refused: [text: string, problem: string, positive?: boolean][] = [
      ['1234567890123456789', 'has 19 digits before the point; amounts have at most 18'],
      ['120,50', 'has a comma for decimals; write them after a dot, e.g. 120.50'],
      ['007.50', 'starts with a zero; write 7.50'],
      ['-00', 'starts with a zero; write -0'],
      ['+5', 'starts with a plus; write 5 without it (a minus marks a debit)'],
      ['+5', 'starts with a plus; write 5 without it', true],
      ['', 'is empty; write an amount such as -1250.00'],
      [' 5', 'has spaces around it; write the amount alone, e.g. 120.50'],
      ['12e3', 'must be a decimal amount such as -1250.00: digits, a dot for decimals, a minus for a debit (up to 18 digits before the point and 6 after)'],
      ['1.', 'must be a decimal amount such as -1250.00: digits, a dot for decimals, a minus for a debit (up to 18 digits before the point and 6 after)'],
      ['-5', 'must be greater than zero, without a sign, e.g. 120.50', true],
      ['0.00', 'must be greater than zero, without a sign, e.g. 120.50', true],
      ['0', 'must be greater than zero, without a sign, e.g. 120.50', true],
    ];
    for (const [text, problem, positive] of refused) assert.equal(amountProblem(text, { positive }), problem, text);
    assert.equal(amountProblem('120.50', { positive: true }), null);
  });

  it('adds, negates, compares and rescales exactly, beyond what a double holds', () => {
    assert.deepEqual(toScaled('-12.50'), { units: -1250n, scale: 2 });
    assert.equal(fromScaled({ units: -5n, scale: 3 }), '-0.005');
    assert.equal(addDecimals('1.5', '-0.25'), '1.25');
    assert.equal(addDecimals(), '0');
    assert.equal(addDecimals('123456789012345678.123456', '0.000001'), '123456789012345678.123457');
    assert.equal(negateDecimal('12.50'), '-12.50');
    assert.equal(negateDecimal('-3'), '3');
    assert.equal(compareDecimals('123456789012345678.000001', '123456789012345678.000002'), -1);
    assert.equal(compareDecimals('-0.10', '-0.1'), 0);
    assert.equal(compareDecimals('-0', '0.00'), 0);
    assert.equal(compareDecimals('2', '-3'), 1);
    assert.equal(compareDecimals('1e3', '1'), null);
    assert.equal(withScale('7.5', 2), '7.50');
    assert.equal(withScale('7.125', 2), '7.125');
    assert.throws(() => toScaled('1,5'), /not a plain decimal/);
  });
});
