import { createHash, createHmac } from 'node:crypto';
import type { Database, Queryable } from '../db/database.ts';
import {
  claimIdempotencyKey,
  deleteExpiredIdempotencyKeys,
  deleteIdempotencyKey,
  findIdempotencyKey,
  storeIdempotentResponse,
} from '../db/repositories/idempotency.ts';
import { idempotencyErrors } from '../errors.ts';
import type { SecretHashKey } from './auth/api-clients.ts';
import { canonicalJson } from './json.ts';

/** How long a key is remembered; a retry after that is a new request. */
export const IDEMPOTENCY_KEY_RETENTION_SECONDS = 24 * 60 * 60;
export const IDEMPOTENCY_KEY_MAX_LENGTH = 255;
/** Expired keys removed by each claim (see deleteExpiredIdempotencyKeys). */
const EXPIRED_KEYS_SWEPT_PER_CLAIM = 20;

export interface IdempotentRequest {
  organizationId: string;
  /** Who sends the request; a key used by one principal cannot be replayed by another. */
  principal: string;
  /** The caller's key, or null when the request carries none. */
  key: string | null;
  /**
   * Everything that makes the request what it is (operation, target, body), compared with a
   * retry's. Only a keyed digest of it is stored: a body may hold a secret (an SFTP password or
   * private key), and a plain hash of a guessable secret can be reversed by trying candidates.
   */
  identity: unknown;
}

/**
 * Runs writes at most once per idempotency key. The first answer is stored in the same
 * database transaction as the write it answers, so there are only two outcomes: the write
 * committed together with its answer, and a retry gets that answer back unchanged; or neither
 * happened, and a retry runs the write afresh. A failed write (an error answer) rolls back and
 * leaves no key behind, so a retry after fixing the cause is not blocked. Keys are scoped per
 * organization and kept for IDEMPOTENCY_KEY_RETENTION_SECONDS.
 */
export class Idempotency {
  constructor(
    private readonly database: Database,
    private readonly hashKey: SecretHashKey,
  ) {}

  /**
   * HMAC-SHA-256 under the secret hash key (SECRET_HASH_KEY, or the store's own), of the identity
   * in canonical JSON, so that the same JSON in another property order is the same request.
   * Read before the write's transaction opens: the embedded store's one connection is then free.
   */
  private async digestOf(request: IdempotentRequest): Promise<string> {
    return createHmac('sha256', await this.hashKey())
      .update(canonicalJson(request.identity))
      .digest('base64url');
  }

  /**
   * `keep` chooses what is stored under the key when it must differ from the answer (an answer
   * holding a secret keeps only what identifies the result); a replay returns what was kept.
   */
  async run<Answer, Kept = Answer>(
    request: IdempotentRequest,
    write: (transaction: Queryable) => Promise<Answer>,
    keep: (answer: Answer) => Kept = (answer) => answer as unknown as Kept,
  ): Promise<{ answer: Answer; replayed: false } | { answer: Kept; replayed: true }> {
    const { key } = request;
    if (key === null) return { answer: await this.database.transaction(write), replayed: false as const };
    const digest = await this.digestOf(request);
    return this.database.transaction(async (transaction) => {
      await deleteExpiredIdempotencyKeys(transaction, request.organizationId, key, IDEMPOTENCY_KEY_RETENTION_SECONDS, EXPIRED_KEYS_SWEPT_PER_CLAIM);
      const claimed = await claimIdempotencyKey(transaction, {
        organizationId: request.organizationId,
        key,
        principal: request.principal,
        requestHash: digest,
      });
      if (!claimed) {
        const existing = await findIdempotencyKey(transaction, request.organizationId, key);
        if (!existing || existing.response === null) {
          // Only possible when the first request's transaction ended between our two statements.
          throw idempotencyErrors.keyInUseAtOnce();
        }
        if (existing.principal !== request.principal) throw idempotencyErrors.keyOfOtherCredentials();
        if (!isSameRequest(existing.request_hash, digest, request)) throw idempotencyErrors.keyOfOtherRequest();
        return { answer: existing.response as Kept, replayed: true as const };
      }
      const answer = await write(transaction);
      await storeIdempotentResponse(transaction, request.organizationId, key, keep(answer));
      return { answer, replayed: false as const };
    });
  }

  /**
   * For a write too long for one transaction (a file import): claims the key at once together
   * with what identifies the work it starts (an import id), or, when the key was claimed before
   * by the same request, returns that. The caller answers a replay from the work's current
   * state, and forgets the key when the work could not even start.
   */
  async claimForLongWrite<Kept>(request: IdempotentRequest & { key: string }, kept: Kept): Promise<{ claimed: true } | { claimed: false; kept: Kept }> {
    const digest = await this.digestOf(request);
    return this.database.transaction(async (transaction) => {
      await deleteExpiredIdempotencyKeys(transaction, request.organizationId, request.key, IDEMPOTENCY_KEY_RETENTION_SECONDS, EXPIRED_KEYS_SWEPT_PER_CLAIM);
      const claimed = await claimIdempotencyKey(transaction, {
        organizationId: request.organizationId,
        key: request.key,
        principal: request.principal,
        requestHash: digest,
      });
      if (claimed) {
        await storeIdempotentResponse(transaction, request.organizationId, request.key, kept);
        return { claimed: true as const };
      }
      const existing = await findIdempotencyKey(transaction, request.organizationId, request.key);
      if (!existing || existing.response === null) throw idempotencyErrors.keyInUse();
      if (existing.principal !== request.principal) throw idempotencyErrors.keyOfOtherCredentials();
      if (!isSameRequest(existing.request_hash, digest, request)) throw idempotencyErrors.keyOfOtherImport();
      return { claimed: false as const, kept: existing.response as Kept };
    });
  }

  async forget(organizationId: string, key: string): Promise<void> {
    await deleteIdempotencyKey(this.database, organizationId, key);
  }
}

/**
 * Whether a stored digest is this request's. A key claimed before digests were keyed holds the
 * plain SHA-256 of the same canonical JSON; it is still recognised, so that a retry sent across
 * that upgrade is replayed rather than refused. Such keys expire with the retention period
 * (IDEMPOTENCY_KEY_RETENTION_SECONDS), after which only keyed digests are ever stored or met.
 */
function isSameRequest(stored: string, digest: string, request: IdempotentRequest): boolean {
  if (stored === digest) return true;
  return stored === createHash('sha256').update(canonicalJson(request.identity)).digest('base64url');
}
