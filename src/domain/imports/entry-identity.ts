import { createHash } from 'node:crypto';
import type { StatementEntry } from './statement-entries.ts';

/**
 * The externalId an imported entry is stored under (SPEC §7), stable across files so that the
 * same entry imported twice, or from two overlapping statements, is stored once:
 * - `bank:<account>:<id>` where the format gives the bank's own unique id (camt AcctSvcrRef or
 *   NtryRef, OFX FITID, BAI2 bank reference). The account is part of it because banks number
 *   per account: two accounts in one dataset may reuse ids.
 * - a CSV mapping's externalId columns, as written (joined with "|" when there are several):
 *   the file's own id of a row (a ledger's document number) is the id a person searches for,
 *   and the one an API client sending the same row would use.
 * - otherwise `hash:<digest>:<n>`: a digest of the account, the dates, the amount and currency,
 *   the references and the texts, with n counting identical entries within the statement, so
 *   two genuinely identical entries of one statement are both kept, and a later file holding the
 *   same statement yields the same ids again.
 */

/** Longest externalId (the ingest limit); a longer bank id is hashed instead of cut. */
export const EXTERNAL_ID_MAX_LENGTH = 255;

export function bankExternalId(accountId: string | null, uniqueId: string): string {
  const id = `bank:${accountId ?? ''}:${uniqueId}`;
  if (id.length <= EXTERNAL_ID_MAX_LENGTH) return id;
  return `bank:${createHash('sha256').update(id).digest('base64url')}`;
}

/** The digest of what identifies an entry without an id of its own (base64url, 128 bits). */
export function entryDigest(entry: StatementEntry): string {
  const parts = [
    entry.accountId,
    entry.bookingDate,
    entry.bookingTimeMs,
    entry.valueDate,
    entry.amount,
    entry.currency,
    entry.reference,
    entry.bankReference,
    entry.endToEndId,
    entry.description,
    entry.counterpartyName,
    entry.counterpartyAccount,
    entry.bankTransactionCode,
    entry.type,
  ];
  // JSON keeps the parts apart: no two different entries join into the same text.
  return createHash('sha256').update(JSON.stringify(parts)).digest('base64url').slice(0, 22);
}

/**
 * Counts identical entries within a statement, in little memory: a file of a million rows is
 * one statement, so the digests seen are kept as 64-bit numbers in an open-addressing table
 * (8 bytes each), and only digests seen more than once get a counter. Two different digests
 * sharing their first 64 bits (about one chance in 10^7 in a million rows) would only give the
 * second entry the ordinal 1 instead of 0: still a unique id.
 */
export class IdenticalEntryCounter {
  #table = new BigUint64Array(1 << 12);
  #size = 0;
  readonly #repeats = new Map<string, number>();

  /** The ordinal of this digest among identical entries so far (0 for the first). */
  next(digest: string): number {
    const key = keyOf(digest);
    if (this.#insert(key)) return 0;
    const ordinal = (this.#repeats.get(digest) ?? 0) + 1;
    this.#repeats.set(digest, ordinal);
    return ordinal;
  }

  /** Forgets everything (a new statement begins). */
  clear(): void {
    this.#table = new BigUint64Array(1 << 12);
    this.#size = 0;
    this.#repeats.clear();
  }

  /** Adds a key; false when it was already there. Zero marks an empty slot, so keys are never zero. */
  #insert(key: bigint): boolean {
    if ((this.#size + 1) * 2 > this.#table.length) this.#grow();
    const mask = this.#table.length - 1;
    for (let slot = Number(key & BigInt(mask)); ; slot = (slot + 1) & mask) {
      const found = this.#table[slot]!;
      if (found === 0n) {
        this.#table[slot] = key;
        this.#size += 1;
        return true;
      }
      if (found === key) return false;
    }
  }

  #grow(): void {
    const old = this.#table;
    this.#table = new BigUint64Array(old.length * 2);
    this.#size = 0;
    for (const key of old) if (key !== 0n) this.#insert(key);
  }
}

function keyOf(digest: string): bigint {
  const bytes = Buffer.from(digest, 'base64url');
  const key = bytes.readBigUInt64BE(0);
  return key === 0n ? 1n : key;
}

export function hashExternalId(digest: string, ordinal: number): string {
  return `hash:${digest}:${ordinal}`;
}
