import { createCipheriv, createDecipheriv, createHmac, hkdfSync } from 'node:crypto';
import { listErrors } from '../errors.ts';
import type { CursorCodec } from './pages.ts';

/**
 * Positions in lists ordered by a counter that every organization shares: the event feed's
 * places and the sequence numbers of the audit trail and of runs' results. Shown as they are,
 * two cursors of one organization would tell how many entries all the others made in between,
 * that is, how busy they are. So such a position travels sealed: encrypted and authenticated
 * (AES-256-GCM) with the list, the organization and the list's scope bound in, under a key
 * derived from the instance's secret key (SECRET_HASH_KEY, or the one kept in the store). A
 * cursor reveals nothing of the position, and a cursor of one organization or one list is
 * refused by another. The nonce is derived from what is sealed (a synthetic nonce), so one
 * position always gives the same cursor, and two cursors are equal exactly when their positions
 * are.
 */
export class SealedPositions {
  #keys: Promise<{ encryption: Buffer; nonce: Buffer }> | null = null;

  constructor(private readonly rootKey: () => Promise<Buffer>) {}

  /** The cursors of one list and binding (see seal and open), as a list's cursor codec. */
  cursors(prefix: string, binding: string, earlierPrefix?: string): CursorCodec<bigint> {
    return { encode: (position) => this.seal(prefix, binding, position), decode: (cursor) => this.open(prefix, binding, cursor, earlierPrefix) };
  }

  /** `binding` names what the position belongs to: the organization and, where the list has one, its scope (a run). */
  async seal(prefix: string, binding: string, position: bigint): Promise<string> {
    const keys = await this.#derivedKeys();
    const plain = Buffer.alloc(POSITION_BYTES);
    plain.writeBigUInt64BE(position);
    const associated = Buffer.from(`${prefix}\n${binding}`, 'utf8');
    const nonce = createHmac('sha256', keys.nonce).update(associated).update(plain).digest().subarray(0, NONCE_BYTES);
    const cipher = createCipheriv('aes-256-gcm', keys.encryption, nonce, { authTagLength: TAG_BYTES });
    cipher.setAAD(associated);
    const sealed = Buffer.concat([nonce, cipher.update(plain), cipher.final(), cipher.getAuthTag()]);
    return prefix + sealed.toString('base64url');
  }

  /**
   * The position a cursor of this list and binding carries; anything else is refused as not
   * ours. `earlierPrefix` names the prefix of the unsealed cursors of earlier versions, which are
   * refused with a message of their own.
   */
  async open(prefix: string, binding: string, cursor: string, earlierPrefix?: string): Promise<bigint> {
    if (earlierPrefix !== undefined && cursor.startsWith(earlierPrefix)) throw listErrors.cursorOfEarlierVersion();
    if (!cursor.startsWith(prefix)) throw listErrors.cursorNotOurs();
    const sealed = Buffer.from(cursor.slice(prefix.length), 'base64url');
    if (sealed.length !== NONCE_BYTES + POSITION_BYTES + TAG_BYTES) throw listErrors.cursorNotOurs();
    const keys = await this.#derivedKeys();
    const decipher = createDecipheriv('aes-256-gcm', keys.encryption, sealed.subarray(0, NONCE_BYTES), { authTagLength: TAG_BYTES });
    decipher.setAAD(Buffer.from(`${prefix}\n${binding}`, 'utf8'));
    decipher.setAuthTag(sealed.subarray(NONCE_BYTES + POSITION_BYTES));
    try {
      return Buffer.concat([decipher.update(sealed.subarray(NONCE_BYTES, NONCE_BYTES + POSITION_BYTES)), decipher.final()]).readBigUInt64BE();
    } catch {
      // Altered, or sealed for another organization, list or key.
      throw listErrors.cursorNotOurs();
    }
  }

  #derivedKeys(): Promise<{ encryption: Buffer; nonce: Buffer }> {
    this.#keys ??= this.rootKey().then(
      (root) => {
        const derived = Buffer.from(hkdfSync('sha256', root, Buffer.alloc(0), 'ledger-recon sealed list positions', 64));
        return { encryption: derived.subarray(0, 32), nonce: derived.subarray(32) };
      },
      (error: unknown) => {
        this.#keys = null;
        throw error;
      },
    );
    return this.#keys;
  }
}

const POSITION_BYTES = 8;
const NONCE_BYTES = 12;
const TAG_BYTES = 16;
