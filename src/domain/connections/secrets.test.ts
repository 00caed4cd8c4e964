import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { describe, it } from 'node:test';
import { patternToRegExp } from './file-sources.ts';
import { SecretBox } from './secrets.ts';

describe('connection secrets', () => {
  it('seal with AES-256-GCM, bound to their connection, and open only with the same key', () => {
    const box = SecretBox.fromSetting(randomBytes(32).toString('base64'));
    const sealed = box.seal('s3cret password', 'connection:a:b');
    assert.equal(sealed.includes('s3cret'), false);
    assert.equal(box.open(sealed, 'connection:a:b'), 's3cret password');
    assert.throws(() => box.open(sealed, 'connection:a:c'), 'another connection cannot open it');
    const other = SecretBox.fromSetting(randomBytes(32).toString('hex'));
    assert.equal(other.sealedWithThisKey(sealed), false);
    assert.throws(() => other.open(sealed, 'connection:a:b'), /another SECRET_ENCRYPTION_KEY/);
    const tampered = `${sealed.slice(0, -2)}${sealed.endsWith('A') ? 'B' : 'A'}${sealed.slice(-1)}`;
    assert.throws(() => box.open(tampered, 'connection:a:b'));
  });

  it('read file name patterns as whole names', () => {
    assert.ok(patternToRegExp('*.xml').test('camt053_2026.xml'));
    assert.equal(patternToRegExp('*.xml').test('statement.xml.part'), false);
    assert.ok(patternToRegExp('MT940_??.sta').test('MT940_01.sta'));
    assert.ok(patternToRegExp('[AB]*.txt').test('B1.txt'));
    assert.equal(patternToRegExp('[!AB]*.txt').test('A1.txt'), false);
    assert.equal(patternToRegExp('a+b(1).csv').test('a+b(1).csv'), true);
  });
});
