import { createCipheriv, createDecipheriv, createHash, hkdfSync, randomBytes } from 'node:crypto';

/**
 * The secrets of connections (an SFTP password or private key), sealed at rest with AES-256-GCM
 * under SECRET_ENCRYPTION_KEY: `v1.<key id>.<base64url of nonce, ciphertext and tag>`. The key id
 * (the first bytes of the key's SHA-256) says which key sealed a secret, so that a rotation
 * (`ledger-recon keys rotate-connection-secrets`) can reseal what the old key sealed. A secret is
 * opened only to connect, and never returned, listed or logged.
 */

const VERSION = 'v1';
const NONCE_BYTES = 12;
const TAG_BYTES = 16;

export class SecretBox {
  readonly #key: Buffer;
  readonly keyId: string;

  constructor(key: Buffer) {
    if (key.length !== 32) throw new Error('a secret encryption key is 32 bytes');
    this.#key = key;
    this.keyId = keyIdOf(key);
  }

  /** The box of SECRET_ENCRYPTION_KEY as configured (64 hexadecimal digits or base64 of 32 bytes). */
  static fromSetting(setting: string): SecretBox {
    return new SecretBox(/^[0-9a-fA-F]{64}$/.test(setting) ? Buffer.from(setting, 'hex') : Buffer.from(setting, 'base64'));
  }

  /** A box for the demo without a configured key: its key is derived from the instance's own secret. */
  static derived(instanceSecret: Buffer): SecretBox {
    return new SecretBox(Buffer.from(hkdfSync('sha256', instanceSecret, Buffer.alloc(0), 'ledger-recon connection secrets', 32)));
  }

  seal(plain: string, context: string): string {
    const nonce = randomBytes(NONCE_BYTES);
    const cipher = createCipheriv('aes-256-gcm', this.#key, nonce);
    // The connection's id is bound in, so a sealed secret copied onto another connection does not open.
    cipher.setAAD(Buffer.from(context, 'utf8'));
    const sealed = Buffer.concat([nonce, cipher.update(plain, 'utf8'), cipher.final(), cipher.getAuthTag()]);
    return `${VERSION}.${this.keyId}.${sealed.toString('base64url')}`;
  }

  /** Whether this box's key sealed the secret. */
  sealedWithThisKey(sealed: string): boolean {
    return sealed.split('.')[1] === this.keyId;
  }

  open(sealed: string, context: string): string {
    const [version, keyId, body] = sealed.split('.');
    if (version !== VERSION || body === undefined) throw new Error('the sealed secret is of an unknown version');
    if (keyId !== this.keyId) throw new Error('the secret was sealed with another SECRET_ENCRYPTION_KEY; rotate the secrets with the previous key');
    const bytes = Buffer.from(body, 'base64url');
    const decipher = createDecipheriv('aes-256-gcm', this.#key, bytes.subarray(0, NONCE_BYTES));
    decipher.setAAD(Buffer.from(context, 'utf8'));
    decipher.setAuthTag(bytes.subarray(bytes.length - TAG_BYTES));
    return Buffer.concat([decipher.update(bytes.subarray(NONCE_BYTES, bytes.length - TAG_BYTES)), decipher.final()]).toString('utf8');
  }
}

function keyIdOf(key: Buffer): string {
  return createHash('sha256').update(key).digest('base64url').slice(0, 8);
}
