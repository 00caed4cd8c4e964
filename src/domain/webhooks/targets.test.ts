import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { addressBytes, checkTargetUrl, isForbiddenAddress } from './targets.ts';

describe('webhook targets', () => {
  it('refuses private, loopback, link-local, metadata and other non-public addresses', () => {
    for (const address of [
      '127.0.0.1',
      '127.255.0.1',
      '10.0.0.1',
      '172.16.5.4',
      '172.31.255.255',
      '192.168.1.1',
      '169.254.169.254',
      '100.64.0.1',
      '0.0.0.0',
      '224.0.0.1',
      '255.255.255.255',
      '::1',
      '::',
      'fe80::1',
      'fd00:ec2::254',
      'fc00::1',
      '::ffff:127.0.0.1',
      '::ffff:10.1.2.3',
      '64:ff9b::a00:1',
      'not an address',
    ]) {
      assert.equal(isForbiddenAddress(address), true, address);
    }
  });

  it('accepts public addresses', () => {
    for (const address of ['93.184.215.14', '8.8.8.8', '172.32.0.1', '2606:4700:4700::1111', '::ffff:1.1.1.1']) {
      assert.equal(isForbiddenAddress(address), false, address);
    }
  });

  it('reads every spelling of an address before deciding, and judges an IPv6 address that carries an IPv4 one by that one', () => {
    const loopback = [
      // IPv4-mapped, dotted and in hexadecimal groups, compressed or not.
      '::ffff:127.0.0.1',
      '::ffff:7f00:1',
      '0:0:0:0:0:ffff:7f00:1',
      '0000:0000:0000:0000:0000:FFFF:7F00:0001',
      // IPv4-translated (SIIT).
      '::ffff:0:7f00:1',
      '::ffff:0:127.0.0.1',
      // IPv4-compatible (deprecated, still parsed by every stack).
      '::7f00:1',
      '::127.0.0.1',
      // NAT64's well-known prefix, and its local-use prefix (refused whatever it carries).
      '64:ff9b::7f00:1',
      '64:ff9b::127.0.0.1',
      '64:ff9b:1::7f00:1',
      // 6to4: 2002:AABB:CCDD::/48 leads to AA.BB.CC.DD through a relay.
      '2002:7f00:1::',
      '2002:7f00:0001::1',
      '2002:7f00:1:ffff::1',
      // Decimal, octal and hexadecimal IPv4, whole or in fewer parts, as inet_aton reads them.
      '2130706433',
      '017700000001',
      '0x7f000001',
      '0x7f.0.0.1',
      '0177.0.0.1',
      '0177.0.0.01',
      '127.1',
      '127.0.1',
      '127.0.0.1.',
    ];
    for (const address of loopback) assert.equal(isForbiddenAddress(address), true, address);
    // The same forms carrying other private and metadata addresses.
    for (const address of [
      '::ffff:a9fe:a9fe',
      '::a9fe:a9fe',
      '64:ff9b::a9fe:a9fe',
      '2002:a9fe:a9fe::',
      '2002:c0a8:101::1',
      '::ffff:0:a00:1',
      '0xa9.0xfe.0xa9.0xfe',
      '2852039166',
    ]) {
      assert.equal(isForbiddenAddress(address), true, address);
    }
    // Teredo hides the address it leads to, and site-local is still routed by some networks: refused.
    for (const address of ['2001:0:4136:e378:8000:63bf:80ff:fffe', 'fec0::1', 'fe80::1%eth0']) assert.equal(isForbiddenAddress(address), true, address);
    // Public addresses in the same forms stay public.
    for (const address of ['::ffff:808:808', '64:ff9b::808:808', '64:ff9b::8.8.8.8', '2002:808:808::1', '0x8.0x8.0x8.0x8', '134744072', '8.8.8.8.']) {
      assert.equal(isForbiddenAddress(address), false, address);
    }
    // What is no address is refused, never guessed at.
    for (const address of ['08.0.0.1', '256.0.0.1', '1.2.3.4.5', '0x', '1..2', '::ffff:999.0.0.1', 'localhost', ''])
      assert.equal(isForbiddenAddress(address), true, JSON.stringify(address));
    assert.deepEqual(addressBytes('::ffff:0:127.0.0.1'), [0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff, 0, 0, 127, 0, 0, 1]);
    assert.deepEqual(addressBytes('1:2:3:4:5:6:7::'), [0, 1, 0, 2, 0, 3, 0, 4, 0, 5, 0, 6, 0, 7, 0, 0]);
    assert.deepEqual(addressBytes('0x7f.1'), [127, 0, 0, 1]);
  });

  it('refuses every spelling of a loopback address written in a URL, naming the address it carries', async () => {
    const production = { allowPrivateTargets: false };
    for (const url of [
      'https://[::ffff:127.0.0.1]/',
      'https://[::127.0.0.1]/',
      'https://[2002:7f00:1::]/',
      'https://[64:ff9b::127.0.0.1]/',
      'https://[::ffff:0:7f00:1]/',
      'https://0x7f000001/',
      'https://2130706433/',
      'https://0177.0.0.1/',
      'https://127.1/',
    ]) {
      await assert.rejects(checkTargetUrl(url, production), /127\.0\.0\.1.*a private, loopback, link-local or metadata address/, url);
    }
    await assert.rejects(checkTargetUrl('https://[::7f00:1]/', production), /has for its host ::7f00:1 \(the IPv4 address 127\.0\.0\.1\)/);
  });

  it('checks a URL as it is saved, naming the field and the fix', async () => {
    const production = { allowPrivateTargets: false };
    await assert.rejects(checkTargetUrl('http://example.com/hooks', production), /\/body\/url: must use https:\/\/.*WEBHOOK_ALLOW_PRIVATE_TARGETS=true/);
    await assert.rejects(
      checkTargetUrl('https://localhost/hooks', production),
      /resolves to .*(127\.0\.0\.1|::1), a private, loopback, link-local or metadata address/,
    );
    await assert.rejects(checkTargetUrl('https://[::1]:8443/', production), /has for its host ::1, a private/);
    await assert.rejects(checkTargetUrl('https://169.254.169.254/latest/meta-data/', production), /169\.254\.169\.254/);
    await assert.rejects(checkTargetUrl('https://hooks.example.com/#part', production), /#fragment/);
    await assert.rejects(checkTargetUrl('https://name.invalid/hooks', production), /could not be resolved/);
    assert.equal(await checkTargetUrl('https://93.184.215.14/hooks', production), 'https://93.184.215.14/hooks');
    // Development: http and loopback are allowed, the URL must still be one.
    assert.equal(await checkTargetUrl('http://127.0.0.1:8080/hooks', { allowPrivateTargets: true }), 'http://127.0.0.1:8080/hooks');
    await assert.rejects(checkTargetUrl('127.0.0.1:8080', { allowPrivateTargets: true }), /is not an absolute URL/);
  });
});
