import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { DEFAULT_RETRY, delayBeforeRetryMs, NO_RETRY, RETRYABLE_STATUSES, sleep, type RetryOptions } from './retry.ts';

const options: RetryOptions = { maxAttempts: 10, baseDelayMs: 250, maxDelayMs: 8_000, maxElapsedMs: 60_000 };

describe('delayBeforeRetryMs', () => {
  it("waits the server's Retry-After when it gave one, whatever the attempt, without drawing a random number", () => {
    const random = () => assert.fail('no jitter when the server said how long');
    assert.equal(delayBeforeRetryMs(options, 1, 3, random), 3_000);
    assert.equal(delayBeforeRetryMs(options, 7, 0, random), 0);
    // Not capped at maxDelayMs: a wait beyond maxElapsedMs ends the retries instead.
    assert.equal(delayBeforeRetryMs(options, 1, 120, random), 120_000);
  });

  it('draws full jitter below a ceiling that doubles from baseDelayMs', () => {
    const almostOne = () => 0.999_999;
    assert.equal(delayBeforeRetryMs(options, 1, undefined, almostOne), 249);
    assert.equal(delayBeforeRetryMs(options, 2, undefined, almostOne), 499);
    assert.equal(delayBeforeRetryMs(options, 3, undefined, almostOne), 999);
    assert.equal(delayBeforeRetryMs(options, 6, undefined, almostOne), 7_999);
    assert.equal(
      delayBeforeRetryMs(options, 3, undefined, () => 0.5),
      500,
    );
    assert.equal(
      delayBeforeRetryMs(options, 4, undefined, () => 0),
      0,
    );
  });

  it('caps the ceiling at maxDelayMs', () => {
    const almostOne = () => 0.999_999;
    assert.equal(delayBeforeRetryMs(options, 7, undefined, almostOne), 7_999); // 250 * 2^6 = 16 000, capped
    assert.equal(delayBeforeRetryMs(options, 30, undefined, almostOne), 7_999);
    assert.equal(
      delayBeforeRetryMs({ ...options, maxDelayMs: 300 }, 2, undefined, () => 0.5),
      150,
    );
  });

  it('stays a whole number of ms from 0 up to, never reaching, the ceiling', () => {
    for (let attempt = 1; attempt <= 12; attempt += 1) {
      const ceilingMs = Math.min(options.maxDelayMs, options.baseDelayMs * 2 ** (attempt - 1));
      for (const drawn of [0, 0.1, 0.5, 0.9, 0.999_999_999]) {
        const delayMs = delayBeforeRetryMs(options, attempt, undefined, () => drawn);
        assert.ok(Number.isInteger(delayMs) && delayMs >= 0 && delayMs < ceilingMs, `attempt ${attempt}, random ${drawn}: ${delayMs} of ${ceilingMs}`);
      }
    }
  });

  it('has the documented defaults', () => {
    assert.deepEqual(DEFAULT_RETRY, { maxAttempts: 5, baseDelayMs: 250, maxDelayMs: 8_000, maxElapsedMs: 60_000 });
    assert.equal(NO_RETRY.maxAttempts, 1);
    assert.deepEqual([...RETRYABLE_STATUSES].sort(), [429, 502, 503, 504]);
  });
});

describe('sleep', () => {
  it('refuses at once with the reason of a signal already aborted', async () => {
    const reason = new Error('stopped');
    await assert.rejects(sleep(60_000, AbortSignal.abort(reason)), (error) => error === reason);
  });

  it('stops waiting when the signal aborts', async () => {
    const controller = new AbortController();
    const reason = new Error('given up');
    const waiting = sleep(60_000, controller.signal);
    controller.abort(reason);
    await assert.rejects(waiting, (error) => error === reason);
  });
});
