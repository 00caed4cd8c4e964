import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { authErrors, conflict, importErrors, invalidField, invalidFieldIn, listErrors, placedFieldMessage, reworded } from './errors.ts';

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
    const wrapped = importErrors.importRefused('1', inner);
    assert.equal(
      placedFieldMessage(wrapped, () => '--mapping-name'),
      'import 1 failed, nothing of the file was stored: --mapping-name: the dataset has no mapping named "x"',
    );
    const unnamed = importErrors.encodingUnknown('x');
    assert.equal(
      placedFieldMessage(unnamed, () => '--encoding'),
      unnamed.message,
    );
    const inBody = invalidField('/option', 'must be an index');
    assert.equal(
      placedFieldMessage(inBody, () => 'never'),
      inBody.message,
    );
  });
});

describe('the error catalogue', () => {
  const sourceRoot = path.dirname(fileURLToPath(import.meta.url));

  function sourceFiles(directory: string): string[] {
    return readdirSync(directory, { withFileTypes: true }).flatMap((entry) => {
      const full = path.join(directory, entry.name);
      if (entry.isDirectory()) return sourceFiles(full);
      return /\.(ts|mts|mjs|js)$/.test(entry.name) && !/\.test\.ts$/.test(entry.name) ? [full] : [];
    });
  }

  it('is the one place that words an error: no module of src/ constructs an AppError itself', () => {
    const constructing = sourceFiles(sourceRoot)
      .filter((file) => path.relative(sourceRoot, file) !== 'errors.ts')
      .flatMap((file) =>
        readFileSync(file, 'utf8')
          .split('\n')
          .flatMap((line, index) => (/new\s+AppError\s*\(/.test(line) ? [`src/${path.relative(sourceRoot, file)}:${index + 1}: ${line.trim()}`] : [])),
      );
    assert.deepEqual(constructing, [], 'add a named factory to src/errors.ts and throw that instead');
  });

  it("names each error after its area and factory, the key of the message's translations", () => {
    assert.equal(listErrors.cursorNotOurs().messageId, 'lists.cursorNotOurs');
    assert.equal(importErrors.fileEmpty().messageId, 'imports.fileEmpty');
    const invitation = authErrors.invitationExpired();
    assert.equal(invitation.messageId, 'auth.invitationExpired');
    assert.equal(invitation.kind, 'conflict');
    assert.equal(invitation.message, 'this invitation has expired (links are good for 72 hours); ask an Administrator for a new one');
    // The generic factories take their words from the caller: no key to translate them by.
    assert.equal(conflict('anything').messageId, undefined);
  });

  it('keeps the name of an error said in other words', () => {
    const error = listErrors.cursorNotOurs();
    const said = reworded(error, '--cursor: is not a cursor this service issued');
    assert.equal(said.messageId, 'lists.cursorNotOurs');
    assert.deepEqual([said.kind, said.details, said.hints], [error.kind, error.details, error.hints]);
  });
});
