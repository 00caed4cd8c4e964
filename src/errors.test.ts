import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { AppError, invalidFieldIn, placedFieldMessage } from './errors.ts';

describe('errors about a field outside the document', () => {
  it('name the field in the domain, and the place each transport gives it', () => {
    const error = invalidFieldIn('query', 'cursor', 'is not a cursor this service issued');
    assert.equal(error.message, 'cursor: is not a cursor this service issued');
    assert.deepEqual(error.details, [{ path: '/cursor', in: 'query', message: 'is not a cursor this service issued' }]);
    assert.equal(
      placedFieldMessage(error, (place, name) => `/${place === 'query' ? 'querystring' : 'params'}/${name}`),
      '/querystring/cursor: is not a cursor this service issued',
    );
    assert.equal(
      placedFieldMessage(error, (_place, name) => `--${name}`),
      '--cursor: is not a cursor this service issued',
    );
  });

  it('find the field after words that an error wrapping it puts first, and leave other messages alone', () => {
    const inner = invalidFieldIn('query', 'mapping', 'the dataset has no mapping named "x"');
    const wrapped = new AppError('invalid_request', `import 1 failed, nothing of the file was stored: ${inner.message}`, inner.details);
    assert.equal(
      placedFieldMessage(wrapped, () => '--mapping-name'),
      'import 1 failed, nothing of the file was stored: --mapping-name: the dataset has no mapping named "x"',
    );
    const unnamed = new AppError('invalid_request', 'encoding "x" is not one this service reads', [
      { path: '/encoding', in: 'query', message: 'is not a known encoding' },
    ]);
    assert.equal(
      placedFieldMessage(unnamed, () => '--encoding'),
      unnamed.message,
    );
    const inBody = new AppError('invalid_request', '/option: must be an index', [{ path: '/option', message: 'must be an index' }]);
    assert.equal(
      placedFieldMessage(inBody, () => 'never'),
      inBody.message,
    );
  });
});
