import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, it } from 'node:test';
import { postWebhook, retryDelayMilliseconds } from './deliveries.ts';

describe('webhook retries', () => {
  it('wait three times longer each time, at most six hours, with jitter between half and all of it', () => {
    const base = 10_000;
    assert.equal(retryDelayMilliseconds(1, base, () => 1), 10_000);
    assert.equal(retryDelayMilliseconds(2, base, () => 1), 30_000);
    assert.equal(retryDelayMilliseconds(3, base, () => 0), 45_000);
    assert.equal(retryDelayMilliseconds(30, base, () => 1), 6 * 3600 * 1000);
    // Seventeen attempts with the longest waits fit in three days.
    let total = 0;
    for (let attempt = 1; attempt <= 17; attempt += 1) total += retryDelayMilliseconds(attempt, base, () => 1);
    assert.ok(total >= 2.5 * 86400 * 1000 && total <= 3.5 * 86400 * 1000, String(total));
  });
});

describe('postWebhook', () => {
  it('refuses to send to a private address written in the URL in production mode', async () => {
    const result = await postWebhook({ url: 'https://127.0.0.1:9/hooks', body: '{}', headers: {}, timeoutMilliseconds: 1000, allowPrivateTargets: false });
    assert.equal(result.responseStatus, null);
    assert.match(result.error!, /not sent: 127\.0\.0\.1 is a private, loopback or link-local address/);
  });

  it('refuses a name that resolves to a private address at connection time', async () => {
    const result = await postWebhook({ url: 'https://localhost:9/hooks', body: '{}', headers: {}, timeoutMilliseconds: 1000, allowPrivateTargets: false });
    assert.equal(result.responseStatus, null);
    assert.match(result.error!, /resolves to .*private, loopback or link-local address; the delivery was not sent/);
  });

  it('gives up on a receiver that does not answer in time', async () => {
    const server = createServer(() => {});
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const result = await postWebhook({ url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/`, body: '{}', headers: {}, timeoutMilliseconds: 300, allowPrivateTargets: true });
      assert.equal(result.responseStatus, null);
      assert.match(result.error!, /no answer within 0\.3 s/);
      assert.ok(result.durationMilliseconds >= 250);
    } finally {
      server.closeAllConnections();
      server.close();
    }
  });
});
