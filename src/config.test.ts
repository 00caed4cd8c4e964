import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ConfigError, loadConfig } from './config.ts';

describe('loadConfig', () => {
  it('trusts no proxy unless TRUST_PROXY names them', () => {
    assert.equal(loadConfig({}).trustProxy, false);
    assert.equal(loadConfig({ TRUST_PROXY: '2' }).trustProxy, 2);
    assert.equal(loadConfig({ TRUST_PROXY: '10.0.0.0/8, loopback' }).trustProxy, '10.0.0.0/8,loopback');
    assert.equal(loadConfig({ TRUST_PROXY: 'fd00::/8' }).trustProxy, 'fd00::/8');
  });

  it('refuses TRUST_PROXY=true, which would let any client choose its address, and malformed lists', () => {
    assert.throws(
      () => loadConfig({ TRUST_PROXY: 'true' }),
      (error: unknown) => error instanceof ConfigError && /TRUST_PROXY/.test(error.message),
    );
    assert.throws(() => loadConfig({ TRUST_PROXY: 'proxy.example.com' }), ConfigError);
  });

  it('has a per-client failure ceiling far above the per-address limit', () => {
    const config = loadConfig({});
    assert.equal(config.tokenFailureLimit, 10);
    assert.equal(config.tokenFailureClientLimit, 1000);
    assert.equal(loadConfig({ TOKEN_FAILURE_CLIENT_LIMIT: '50' }).tokenFailureClientLimit, 50);
  });

  it('keeps events and webhook deliveries 30 days unless told otherwise, and refuses a retention that is not a positive whole number of days', () => {
    const config = loadConfig({});
    assert.equal(config.eventRetentionDays, 30);
    assert.equal(config.webhookDeliveryRetentionDays, 30);
    const custom = loadConfig({ EVENT_RETENTION_DAYS: '90', WEBHOOK_DELIVERY_RETENTION_DAYS: '7' });
    assert.equal(custom.eventRetentionDays, 90);
    assert.equal(custom.webhookDeliveryRetentionDays, 7);
    for (const [name, value] of [
      ['EVENT_RETENTION_DAYS', '0'],
      ['EVENT_RETENTION_DAYS', '-3'],
      ['EVENT_RETENTION_DAYS', '1.5'],
      ['EVENT_RETENTION_DAYS', 'a month'],
      ['WEBHOOK_DELIVERY_RETENTION_DAYS', '0'],
      ['WEBHOOK_DELIVERY_RETENTION_DAYS', 'thirty'],
    ] as const) {
      assert.throws(
        () => loadConfig({ [name]: value }),
        (error: unknown) => error instanceof ConfigError && error.message.startsWith(name) && /days|whole number/.test(error.message),
        `${name}=${value}`,
      );
    }
    assert.match(
      (() => {
        try {
          loadConfig({ EVENT_RETENTION_DAYS: '0' });
        } catch (error) {
          return (error as Error).message;
        }
        return '';
      })(),
      /EVENT_RETENTION_DAYS \(days, 1\.\.36500.*\) is invalid/,
    );
  });
});
