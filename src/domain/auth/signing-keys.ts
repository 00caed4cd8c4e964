import { exportJWK, generateKeyPair, importJWK, type JWK, type CryptoKey as JoseKey } from 'jose';
import { randomBytes } from 'node:crypto';
import type { Database } from '../../db/database.ts';
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

  /** Publishes a new key now that starts signing after `activateInSeconds`. Returns its kid. */
  async rotate(activateInSeconds: number): Promise<{ kid: string }> {
    const material = await newKeyMaterial();
    await insertSigningKey(this.database, { ...material, activatesInSeconds: activateInSeconds });
    await this.reload();
    return { kid: material.kid };
  }

  /** The key that signs now: the newest whose activation time has come. */
  async signingKey(): Promise<{ kid: string; privateKey: KeyObject }> {
    await this.#fresh();
    const now = Date.now();
    const key = this.#keys.find((candidate) => candidate.activatesAtMilliseconds <= now);
    if (!key) throw new Error('no active signing key; run "ledger-recon migrate" or start the server once to create one');
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
        const rows = await listLiveSigningKeys(this.database, this.tokenTtlSeconds);
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
