import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, it } from 'node:test';
import { postWebhook, retryDelayMilliseconds } from './deliveries.ts';
import { publicAddressLookup } from './targets.ts';

describe('webhook retries', () => {
  it('wait three times longer each time, at most six hours, with jitter between half and all of it', () => {
    const base = 10_000;
    assert.equal(
      retryDelayMilliseconds(1, base, () => 1),
      10_000,
    );
    assert.equal(
      retryDelayMilliseconds(2, base, () => 1),
      30_000,
    );
    assert.equal(
      retryDelayMilliseconds(3, base, () => 0),
      45_000,
    );
    assert.equal(
      retryDelayMilliseconds(30, base, () => 1),
      6 * 3600 * 1000,
    );
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

  it('refuses every IPv6 spelling of a loopback address written in the URL', async () => {
    for (const [url, carried] of [
      ['https://[::ffff:127.0.0.1]:9/hooks', '::ffff:7f00:1'],
      ['https://[::127.0.0.1]:9/hooks', '::7f00:1'],
      ['https://[::ffff:0:7f00:1]:9/hooks', '::ffff:0:7f00:1'],
      ['https://[2002:7f00:1::]:9/hooks', '2002:7f00:1::'],
      ['https://[64:ff9b::7f00:1]:9/hooks', '64:ff9b::7f00:1'],
    ] as const) {
      const result = await postWebhook({ url, body: '{}', headers: {}, timeoutMilliseconds: 1000, allowPrivateTargets: false });
      assert.equal(result.error, `not sent: ${carried} (the IPv4 address 127.0.0.1) is a private, loopback or link-local address`, url);
    }
  });

  it('checks the answers of the lookup at connection time in every spelling', async () => {
    // The system's resolver answers an address given as a name with that address, as DNS could.
    for (const name of ['::7f00:1', '2002:7f00:1::', '::ffff:0:7f00:1', '0x7f.1']) {
      const error = await new Promise<NodeJS.ErrnoException | null>((resolve) => publicAddressLookup(name, {}, (found) => resolve(found)));
      assert.equal(error?.code, 'EFORBIDDENTARGET', name);
      assert.match(error!.message, /127\.0\.0\.1.*a private, loopback or link-local address; the delivery was not sent/, name);
    }
    const allowed = await new Promise<string>((resolve, reject) =>
      publicAddressLookup('64:ff9b::808:808', {}, (error, address) => (error ? reject(error) : resolve(address as string))),
    );
    assert.equal(allowed, '64:ff9b::808:808');
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
      const result = await postWebhook({
        url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/`,
        body: '{}',
        headers: {},
        timeoutMilliseconds: 300,
        allowPrivateTargets: true,
      });
      assert.equal(result.responseStatus, null);
      assert.match(result.error!, /no answer within 0\.3 s/);
      assert.ok(result.durationMilliseconds >= 250);
    } finally {
      server.closeAllConnections();
      server.close();
    }
  });
});
