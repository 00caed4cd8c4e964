import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { compareDecimals, parseMoney, parsePositiveMoney } from './money.ts';

describe('parseMoney', () => {
  it('keeps decimal strings exactly as written', () => {
    assert.equal(parseMoney('-1250.00'), '-1250.00');
    assert.equal(parseMoney('0.1'), '0.1');
    assert.equal(parseMoney('123456789012345678.123456'), '123456789012345678.123456');
  });

  it('refuses what is not a plain decimal', () => {
    for (const value of ['1e3', '1,000.00', '', ' 1', '01', '1.', '.5', '1.1234567', '+1', 'NaN', null, true, {}, []]) {
      assert.equal(parseMoney(value), null, JSON.stringify(value));
    }
  });

  it('accepts JSON numbers only while they are exact', () => {
    assert.equal(parseMoney(12.34), '12.34');
    assert.equal(parseMoney(-0.1), '-0.1');
    assert.equal(parseMoney(100), '100');
    assert.equal(parseMoney(1234567890.12345), '1234567890.12345');
    assert.equal(parseMoney(12345678901234.567), null, 'more than 15 significant digits may have been rounded');
    assert.equal(parseMoney(1e21), null);
    assert.equal(parseMoney(Number.NaN), null);
  });

  it('compareDecimals compares exactly, beyond the precision of a double', () => {
    assert.equal(compareDecimals('100000000000000000.1', '100000000000000000.0'), 1);
    assert.equal(compareDecimals('-0.10', '-0.1'), 0);
    assert.equal(compareDecimals('-0', '0.00'), 0);
    assert.equal(compareDecimals('-2', '-10'), 1);
    assert.equal(compareDecimals('9.99', '10'), -1);
    assert.equal(compareDecimals('-1', '1'), -1);
    assert.equal(compareDecimals('1e3', '1'), null);
  });

  it('parsePositiveMoney refuses zero and negatives', () => {
    assert.equal(parsePositiveMoney('0.00'), null);
    assert.equal(parsePositiveMoney('-1'), null);
    assert.equal(parsePositiveMoney('0.01'), '0.01');
  });
});
