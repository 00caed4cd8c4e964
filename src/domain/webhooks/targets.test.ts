import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { checkTargetUrl, isForbiddenAddress } from './targets.ts';

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

  it('checks a URL as it is saved, naming the field and the fix', async () => {
    const production = { allowPrivateTargets: false };
    await assert.rejects(checkTargetUrl('http://example.com/hooks', production), /\/body\/url: must use https:\/\/.*WEBHOOK_ALLOW_PRIVATE_TARGETS=true/);
    await assert.rejects(checkTargetUrl('https://localhost/hooks', production), /resolves to .*(127\.0\.0\.1|::1), a private, loopback, link-local or metadata address/);
    await assert.rejects(checkTargetUrl('https://[::1]:8443/', production), /resolves to ::1/);
    await assert.rejects(checkTargetUrl('https://169.254.169.254/latest/meta-data/', production), /169\.254\.169\.254/);
    await assert.rejects(checkTargetUrl('https://hooks.example.com/#part', production), /#fragment/);
    await assert.rejects(checkTargetUrl('https://name.invalid/hooks', production), /could not be resolved/);
    assert.equal(await checkTargetUrl('https://93.184.215.14/hooks', production), 'https://93.184.215.14/hooks');
    // Development: http and loopback are allowed, the URL must still be one.
    assert.equal(await checkTargetUrl('http://127.0.0.1:8080/hooks', { allowPrivateTargets: true }), 'http://127.0.0.1:8080/hooks');
    await assert.rejects(checkTargetUrl('127.0.0.1:8080', { allowPrivateTargets: true }), /is not an absolute URL/);
  });
});
