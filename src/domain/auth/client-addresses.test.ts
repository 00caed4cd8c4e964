import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { throttlingAddress } from './client-addresses.ts';

describe('throttlingAddress', () => {
  it('keeps IPv4 addresses and unwraps IPv4-mapped ones', () => {
    assert.equal(throttlingAddress('203.0.113.9'), '203.0.113.9');
    assert.equal(throttlingAddress('::ffff:203.0.113.9'), '203.0.113.9');
  });

  it('counts IPv6 addresses by their /64 prefix, however they are written', () => {
    assert.equal(throttlingAddress('2001:db8:1:2:3:4:5:6'), '2001:db8:1:2::/64');
    assert.equal(throttlingAddress('2001:0db8:0001:0002:ffff::1'), '2001:db8:1:2::/64');
    assert.equal(throttlingAddress('2001:db8::1'), '2001:db8:0:0::/64');
    assert.equal(throttlingAddress('::1'), '0:0:0:0::/64');
    assert.equal(throttlingAddress('fe80::1%eth0'), 'fe80:0:0:0::/64');
  });

  it('marks what is not an address, so that it never stands for the row of all addresses', () => {
    assert.equal(throttlingAddress('*'), 'not an address: *');
    assert.notEqual(throttlingAddress('unknown'), 'unknown');
  });
});
