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
    // eslint-disable-next-line no-loss-of-precision -- the point: a number that JSON already rounded is refused
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

describe('exact decimal arithmetic', () => {
  it('adds without rounding, at the largest scale of the operands', async () => {
    const { addDecimals } = await import('./money.ts');
    assert.equal(addDecimals('0.1', '0.2'), '0.3');
    assert.equal(addDecimals('1.5', '-0.25'), '1.25');
    assert.equal(addDecimals('-1250.00', '1250'), '0.00');
    assert.equal(addDecimals('123456789012345678.123456', '0.000001'), '123456789012345678.123457');
    assert.equal(addDecimals(), '0');
    assert.equal(addDecimals('-0.5', '0.25'), '-0.25');
  });

  it('negates, places implied decimals and pads to the currency scale', async () => {
    const { negateDecimal, placeImpliedDecimals, withCurrencyScale } = await import('./money.ts');
    assert.equal(negateDecimal('12.50'), '-12.50');
    assert.equal(negateDecimal('-3'), '3');
    assert.equal(negateDecimal('0.00'), '0.00');
    assert.equal(placeImpliedDecimals('12345', 2), '123.45');
    assert.equal(placeImpliedDecimals('5', 2), '0.05');
    assert.equal(placeImpliedDecimals('-100', 2), '-1.00');
    assert.equal(placeImpliedDecimals('+0', 2), '0.00');
    assert.equal(withCurrencyScale('1250', 'EUR'), '1250.00');
    assert.equal(withCurrencyScale('1250.5', 'eur'), '1250.50');
    assert.equal(withCurrencyScale('1250', 'JPY'), '1250');
    assert.equal(withCurrencyScale('1.5', 'KWD'), '1.500');
    assert.equal(withCurrencyScale('0.12345', 'USD'), '0.12345');
    assert.equal(withCurrencyScale('-7', null), '-7.00');
  });
});

describe('DecimalSum', () => {
  it('keeps an exact running total at the largest scale seen', async () => {
    const { DecimalSum } = await import('./money.ts');
    const sum = new DecimalSum();
    assert.equal(sum.total, '0');
    for (const amount of ['0.1', '0.2', '-1250.005', '1e0'.replace('1e0', '3')]) sum.add(amount);
    assert.equal(sum.total, '-1246.705');
    const many = new DecimalSum();
    for (let index = 0; index < 100_000; index++) many.add('0.01');
    assert.equal(many.total, '1000.00');
  });
});
