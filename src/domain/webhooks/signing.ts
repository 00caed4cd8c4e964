import { createHmac, randomBytes } from 'node:crypto';

/**
 * Signatures as the Standard Webhooks specification defines them (https://www.standardwebhooks.com):
 * HMAC-SHA256 over `${webhook-id}.${webhook-timestamp}.${body}` with the secret's bytes, in
 * base64, sent as `v1,<signature>`; several signatures are separated by spaces, so that during a
 * secret rotation a receiver holding either secret accepts the message.
 */

const SECRET_PREFIX = 'whsec_';
/** 24 random bytes: the secret size the specification's libraries generate. */
const SECRET_BYTES = 24;

export function generateSigningSecret(): string {
  return SECRET_PREFIX + randomBytes(SECRET_BYTES).toString('base64');
}

export function signatureOf(secret: string, messageId: string, timestampSeconds: number, body: string): string {
  const key = Buffer.from(secret.startsWith(SECRET_PREFIX) ? secret.slice(SECRET_PREFIX.length) : secret, 'base64');
  return `v1,${createHmac('sha256', key).update(`${messageId}.${timestampSeconds}.${body}`).digest('base64')}`;
}

/** The webhook-signature header: the current secret's signature first, then the previous one's. */
export function signatureHeader(secrets: readonly string[], messageId: string, timestampSeconds: number, body: string): string {
  return secrets.map((secret) => signatureOf(secret, messageId, timestampSeconds, body)).join(' ');
}
