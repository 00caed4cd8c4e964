import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { canonicalJson, isPlainObject } from './json.ts';
import { closestName, describeValue } from './text.ts';

describe('the helpers of messages and JSON', () => {
  it('describes a value for "got …": strings quoted and cut, plain values as written, the kind of the rest', () => {
    assert.equal(describeValue('12,5'), '"12,5"');
    assert.equal(describeValue('x'.repeat(100)), `"${'x'.repeat(60)}"… (100 characters)`);
    assert.equal(describeValue(12.5), '12.5');
    assert.equal(describeValue(false), 'false');
    assert.equal(describeValue(null), 'null');
    assert.equal(describeValue(undefined), 'nothing');
    assert.equal(describeValue([1]), 'an array of 1 item');
    assert.equal(describeValue([]), 'an array of 0 items');
    assert.equal(describeValue({ secret: 'not echoed' }), 'an object');
  });

  it('finds the known name within two edits of a typo, letter case aside, and none further off', () => {
    const known = ['timestamp', 'amount', 'currency', 'invoiceNumber'];
    assert.equal(closestName('ammount', known), 'amount');
    assert.equal(closestName('InvoiceNumbr', known), 'invoiceNumber');
    assert.equal(closestName('AMOUNT', known), 'amount');
    assert.equal(closestName('balance', known), undefined);
    assert.equal(closestName('x'.repeat(65), ['x'.repeat(64) + 'y']), undefined, 'names too long to compare are not');
    assert.equal(closestName('X'.repeat(65), ['x'.repeat(65)]), 'x'.repeat(65), 'one that differs only in case is found whatever its length');
    // The nearest wins over an earlier one that is also close.
    assert.equal(closestName('curency', ['currenct', 'currency']), 'currency');
  });

  it('writes JSON with sorted keys, so that the same value is the same text whatever its member order', () => {
    assert.equal(canonicalJson({ b: [{ d: 1, c: 2 }], a: null }), '{"a":null,"b":[{"c":2,"d":1}]}');
    assert.equal(canonicalJson({ a: 1, b: 2 }), canonicalJson({ b: 2, a: 1 }));
    assert.notEqual(canonicalJson([1, 2]), canonicalJson([2, 1]));
    assert.equal(canonicalJson(undefined), 'null');
    assert.equal(isPlainObject({}), true);
    assert.equal(isPlainObject([]), false);
    assert.equal(isPlainObject(null), false);
  });
});
