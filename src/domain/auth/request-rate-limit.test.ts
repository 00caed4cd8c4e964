import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { AppError } from '../../errors.ts';
import { RequestRateLimit } from './request-rate-limit.ts';

describe('RequestRateLimit', () => {
  it('allows a burst of the per-minute limit, then refuses with the wait, then refills', () => {
    const limit = new RequestRateLimit(60);
    const start = 1_000_000;
    for (let request = 0; request < 60; request++) limit.take('client', start);
    assert.throws(
      () => limit.take('client', start),
      (error: unknown) => error instanceof AppError && error.kind === 'too_many_requests' && error.hints.retryAfterSeconds === 1,
    );
    // One request a second comes back.
    limit.take('client', start + 1_000);
    assert.throws(() => limit.take('client', start + 1_000));
  });

  it('keeps clients apart and can be disabled', () => {
    const limit = new RequestRateLimit(1);
    limit.take('a', 0);
    limit.take('b', 0);
    assert.throws(() => limit.take('a', 0));
    const disabled = new RequestRateLimit(0);
    for (let request = 0; request < 1000; request++) disabled.take('a', 0);
  });
});
