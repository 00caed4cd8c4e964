import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { AppError } from '../errors.ts';
import { BUSY_RETRY_AFTER_SECONDS, transientDatabaseError } from './database-errors.ts';

const withCode = (code: string, message = 'database error') => Object.assign(new Error(message), { code });

describe('transient database errors', () => {
  it('turns a timeout, a conflict, a lock, a full or restarting server and a lost connection into 503 with Retry-After', () => {
    for (const code of ['57014', '40001', '40P01', '55P03', '53300', '57P01', '57P03', '08006', 'ECONNREFUSED']) {
      const answer = transientDatabaseError(withCode(code));
      assert.ok(answer instanceof AppError, code);
      assert.equal(answer.kind, 'service_unavailable', code);
      assert.equal(answer.hints.retryAfterSeconds, BUSY_RETRY_AFTER_SECONDS, code);
      assert.match(answer.message, /nothing was changed; send the request again/, code);
    }
    assert.ok(transientDatabaseError(new Error('timeout exceeded when trying to connect')) instanceof AppError);
  });

  it('leaves every other error alone: a defect stays an internal error', () => {
    for (const code of ['23505', '23503', '42P01', '42703', '22P02', 'XX000']) assert.equal(transientDatabaseError(withCode(code)), null, code);
    assert.equal(transientDatabaseError(new TypeError('undefined is not a function')), null);
    assert.equal(transientDatabaseError('57014'), null);
  });
});
