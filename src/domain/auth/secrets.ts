import { createHmac, randomBytes, scrypt as scryptCallback, timingSafeEqual } from 'node:crypto';
import { promisify } from 'node:util';

const scrypt = promisify(scryptCallback) as (password: string, salt: Buffer, length: number) => Promise<Buffer>;

/** Client secrets start with a prefix that secret scanners (and people) can recognise. */
export const CLIENT_SECRET_PREFIX = 'lrs_';
/**
 * 288 random bits: the listing shows the last 4 characters (24 bits) as a hint, and at least
 * 256 bits must stay unknown to anyone who sees the listing.
 */
const SECRET_RANDOM_BYTES = 36;
/** Client ids are 32 characters; anything much longer cannot be one. */
export const CLIENT_ID_LENGTH_LIMIT = 64;

export function generateClientId(): string {
  // 24 random bytes, 32 URL-safe characters, like the client ids of common identity providers.
  return randomBytes(24).toString('base64url');
}

/** Whether a string has the shape of a client id generated here (used to validate paths). */
export const CLIENT_ID_PATTERN = '^[A-Za-z0-9_-]{1,64}$';

export function generateClientSecret(): string {
  return CLIENT_SECRET_PREFIX + randomBytes(SECRET_RANDOM_BYTES).toString('base64url');
}

/** The last characters of a secret, kept to tell secrets apart in listings. */
export function secretHint(secret: string): string {
  return secret.slice(-4);
}

/** Keyed hash of a client secret: a stolen database alone does not allow checking guesses. */
export function hashClientSecret(hashKey: Buffer, secret: string): Buffer {
  return createHmac('sha256', hashKey).update(secret, 'utf8').digest();
}

/** Compares two hashes in constant time (the length of a hash is no secret). */
export function hashesEqual(candidate: Uint8Array, storedHash: Uint8Array): boolean {
  return candidate.length === storedHash.length && timingSafeEqual(candidate, storedHash);
}

export function secretMatches(hashKey: Buffer, secret: string, storedHash: Uint8Array): boolean {
  return hashesEqual(hashClientSecret(hashKey, secret), storedHash);
}

export function generatePassword(): string {
  return randomBytes(12).toString('base64url');
}

const PASSWORD_KEY_BYTES = 32;

/** Passwords of people are hashed with scrypt (slow by design), as "scrypt$salt$hash". */
export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(16);
  const derived = await scrypt(password, salt, PASSWORD_KEY_BYTES);
  return `scrypt$${salt.toString('base64url')}$${derived.toString('base64url')}`;
}

export async function passwordMatches(password: string, stored: string): Promise<boolean> {
  const [scheme, salt, hash] = stored.split('$');
  if (scheme !== 'scrypt' || salt === undefined || hash === undefined) return false;
  const expected = Buffer.from(hash, 'base64url');
  const derived = await scrypt(password, Buffer.from(salt, 'base64url'), expected.length);
  return timingSafeEqual(derived, expected);
}
