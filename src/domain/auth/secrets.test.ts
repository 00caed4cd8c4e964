import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { CLIENT_SECRET_PREFIX, generateClientId, generateClientSecret, hashClientSecret, hashesEqual, secretHint, secretMatches } from './secrets.ts';

describe('client secrets', () => {
  it('are prefixed and carry at least 256 random bits beyond what the hint shows', () => {
    const secret = generateClientSecret();
    assert.ok(secret.startsWith(CLIENT_SECRET_PREFIX));
    const random = secret.slice(CLIENT_SECRET_PREFIX.length);
    assert.match(random, /^[A-Za-z0-9_-]+$/);
    const randomBits = random.length * 6;
    const hintBits = secretHint(secret).length * 6;
    assert.ok(randomBits - hintBits >= 256, `${randomBits} random bits, ${hintBits} shown`);
    const many = new Set(Array.from({ length: 1000 }, generateClientSecret));
    assert.equal(many.size, 1000);
  });

  it('have client ids of 32 URL-safe characters', () => {
    assert.match(generateClientId(), /^[A-Za-z0-9_-]{32}$/);
  });

  it('are hashed with a key: another key gives another hash, and a hash is not the secret', () => {
    const secret = generateClientSecret();
    const key = Buffer.from('k'.repeat(32));
    const hash = hashClientSecret(key, secret);
    assert.equal(hash.length, 32);
    assert.ok(!hash.equals(hashClientSecret(Buffer.from('j'.repeat(32)), secret)));
    assert.ok(!hash.toString('utf8').includes(secret));
    assert.ok(secretMatches(key, secret, hash));
    assert.ok(!secretMatches(key, `${secret}x`, hash));
    assert.ok(!secretMatches(key, secret.slice(0, -1), hash));
    assert.ok(!secretMatches(Buffer.from('j'.repeat(32)), secret, hash));
  });

  it('compare hashes of any length without throwing', () => {
    const hash = hashClientSecret(Buffer.from('k'.repeat(32)), 'a');
    assert.equal(hashesEqual(hash, new Uint8Array(hash)), true);
    assert.equal(hashesEqual(hash, hash.subarray(0, 16)), false);
    assert.equal(hashesEqual(hash, new Uint8Array(0)), false);
  });
});
