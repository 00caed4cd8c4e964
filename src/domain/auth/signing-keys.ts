import { exportJWK, generateKeyPair, importJWK, type JWK, type CryptoKey as JoseKey } from 'jose';
import { randomBytes } from 'node:crypto';
import type { Database } from '../../db/database.ts';
import { invalidRequest } from '../../errors.ts';
import { countSigningKeys, insertSigningKey, listLiveSigningKeys, lockSigningKeys } from '../../db/repositories/signing-keys.ts';

type KeyObject = JoseKey | Uint8Array;

interface LoadedKey {
  kid: string;
  publicJwk: JWK;
  activatesAtMilliseconds: number;
  privateKey: KeyObject;
  publicKey: KeyObject;
}

/** How long a process trusts its copy of the key set before reading it again. */
const KEY_CACHE_MILLISECONDS = 30_000;
/**
 * A process that has not yet re-read the key set may go on signing with a superseded key for
 * up to KEY_CACHE_MILLISECONDS after the next key activated; the old key therefore stays
 * published that much longer than the token lifetime (twice, for clock differences).
 */
const RETENTION_MARGIN_SECONDS = (2 * KEY_CACHE_MILLISECONDS) / 1000;
/** A rotation may be scheduled at most this far ahead. */
const ACTIVATION_DELAY_LIMIT_SECONDS = 30 * 24 * 3600;
/** An unknown kid triggers at most one re-read per this interval, so junk tokens cannot flood the store. */
const UNKNOWN_KID_RELOAD_MILLISECONDS = 1_000;

/**
 * The RS256 signing keys. A new key is published in the JWKS when it is created and signs only
 * from its activation time on, so that verifiers that cache the JWKS learn it first; a
 * superseded key stays published until every token it signed has expired.
 */
export class SigningKeys {
  #keys: LoadedKey[] = [];
  #loadedAtMilliseconds = 0;
  #loading: Promise<void> | null = null;

  constructor(
    private readonly database: Database,
    private readonly tokenTtlSeconds: number,
  ) {}

  /** Creates the first key of a fresh store; does nothing when keys exist. */
  async ensureKey(): Promise<void> {
    await this.database.transaction(async (transaction) => {
      await lockSigningKeys(transaction);
      if ((await countSigningKeys(transaction)) > 0) return;
      await insertSigningKey(transaction, { ...(await newKeyMaterial()), activatesInSeconds: 0 });
    });
    await this.reload();
  }

  /**
   * Publishes a new key now, in the JWKS of every process within KEY_CACHE_MILLISECONDS, and
   * lets it sign from `activateInSeconds` on. Verifiers that cache the JWKS learn the key before
   * the first token it signs, provided the delay exceeds their cache time (the configured
   * KEY_PUBLISH_LEAD_SECONDS is the sensible default). The key it replaces stays published
   * until every token it signed has expired. Returns the new kid and its activation time.
   */
  async rotate(activateInSeconds: number): Promise<{ kid: string; activatesAt: string }> {
    if (!Number.isInteger(activateInSeconds) || activateInSeconds < 0 || activateInSeconds > ACTIVATION_DELAY_LIMIT_SECONDS) {
      throw invalidRequest(`the activation delay must be a whole number of seconds from 0 to ${ACTIVATION_DELAY_LIMIT_SECONDS}`);
    }
    const material = await newKeyMaterial();
    const { activatesAt } = await insertSigningKey(this.database, { ...material, activatesInSeconds: activateInSeconds });
    await this.reload();
    return { kid: material.kid, activatesAt: activatesAt.toISOString() };
  }

  /** The key that signs now: the newest whose activation time has come. */
  async signingKey(): Promise<{ kid: string; privateKey: KeyObject }> {
    await this.#fresh();
    // A store nobody has prepared (ensureKey at start-up) gets its first key on first use.
    if (this.#keys.length === 0) await this.ensureKey();
    const now = Date.now();
    const key = this.#keys.find((candidate) => candidate.activatesAtMilliseconds <= now);
    if (!key) throw new Error('no active signing key: every key in the store activates in the future');
    return key;
  }

  /** The public key for a kid, or undefined if no live key has that kid. */
  async verificationKey(kid: string): Promise<KeyObject | undefined> {
    await this.#fresh();
    let key = this.#keys.find((candidate) => candidate.kid === kid);
    if (!key && Date.now() - this.#loadedAtMilliseconds > UNKNOWN_KID_RELOAD_MILLISECONDS) {
      await this.reload();
      key = this.#keys.find((candidate) => candidate.kid === kid);
    }
    return key?.publicKey;
  }

  async jwks(): Promise<{ keys: JWK[] }> {
    await this.#fresh();
    return { keys: this.#keys.map((key) => key.publicJwk) };
  }

  async reload(): Promise<void> {
    this.#loading ??= (async () => {
      try {
        const rows = await listLiveSigningKeys(this.database, this.tokenTtlSeconds + RETENTION_MARGIN_SECONDS);
        this.#keys = await Promise.all(
          rows.map(async (row) => ({
            kid: row.kid,
            publicJwk: row.public_jwk as JWK,
            activatesAtMilliseconds: row.activates_at.getTime(),
            privateKey: await importJWK(row.private_jwk as JWK, 'RS256'),
            publicKey: await importJWK(row.public_jwk as JWK, 'RS256'),
          })),
        );
        this.#loadedAtMilliseconds = Date.now();
      } finally {
        this.#loading = null;
      }
    })();
    await this.#loading;
  }

  async #fresh(): Promise<void> {
    if (Date.now() - this.#loadedAtMilliseconds > KEY_CACHE_MILLISECONDS) await this.reload();
  }
}

async function newKeyMaterial(): Promise<{ kid: string; publicJwk: JWK; privateJwk: JWK }> {
  const { publicKey, privateKey } = await generateKeyPair('RS256', { modulusLength: 2048, extractable: true });
  const kid = randomBytes(12).toString('base64url');
  const publicJwk = { ...(await exportJWK(publicKey)), kid, alg: 'RS256', use: 'sig' };
  const privateJwk = { ...(await exportJWK(privateKey)), kid, alg: 'RS256' };
  return { kid, publicJwk, privateJwk };
}
