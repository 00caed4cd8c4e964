import { hash } from 'node:crypto';
import { ImportFormatError, type StatementEntry } from './statement-entries.ts';

/**
 * The externalId an imported entry is stored under (SPEC §7), stable across files so that the
 * same entry imported twice, or from two overlapping statements, is stored once:
 * - `bank:<account>:<id>` where the format gives the bank's own id of the entry (camt AcctSvcrRef
 *   or NtryRef, OFX FITID, BAI2 bank reference) and that id is usable: not a placeholder such as
 *   NONREF (isPlaceholderId) and given to no other entry of the same statement. The account is
 *   part of it because banks number per account: two accounts in one dataset may reuse ids.
 * - a CSV mapping's externalId columns, as written (joined with "|" when there are several):
 *   the file's own id of a row (a ledger's document number) is the id a person searches for,
 *   and the one an API client sending the same row would use. Two rows of one file with the
 *   same id are refused, never stored as one.
 * - otherwise `hash:<digest>:<n>`: a digest of the account, the dates, the amount and currency,
 *   the references and the texts, with n counting identical entries within the statement, so
 *   two genuinely identical entries of one statement are both kept, and a later file holding the
 *   same statement yields the same ids again.
 *
 * Why an id must be unique within its statement: a bank that writes NONREF on every entry, or
 * the same reference on a fee and on the payment it belongs to, would otherwise have every entry
 * after the first taken for the first one ("already known") and dropped. The rule is decided
 * here once, for every format.
 */

/** Longest externalId (the ingest limit); a longer bank id is hashed instead of cut. */
export const EXTERNAL_ID_MAX_LENGTH = 255;

/**
 * What banks write where an entry has no id of its own (compared without regard to case, with
 * runs of blanks as one space). Ids made only of zeros, blanks and punctuation ("0", "000000",
 * "-", "/") are placeholders too.
 */
export const PLACEHOLDER_IDS: ReadonlySet<string> = new Set([
  'NONREF',
  'NON REF',
  'NON-REF',
  'NOREF',
  'NO REF',
  'NOTPROVIDED',
  'NOT PROVIDED',
  'NOTAVAILABLE',
  'NOT AVAILABLE',
  'NONE',
  'NULL',
  'NIL',
  'N/A',
  'NA',
  'UNKNOWN',
  'UNDEFINED',
  'KEINE',
  'KEINE ANGABE',
  'OHNE',
]);

/** Whether a bank's id of an entry is a placeholder that identifies nothing. */
export function isPlaceholderId(id: string): boolean {
  const folded = id.trim().replace(/\s+/g, ' ').toUpperCase();
  return /^[0\s\p{P}]*$/u.test(folded) || PLACEHOLDER_IDS.has(folded);
}

export function bankExternalId(accountId: string | null, uniqueId: string): string {
  const id = `bank:${accountId ?? ''}:${uniqueId}`;
  if (id.length <= EXTERNAL_ID_MAX_LENGTH) return id;
  return `bank:${hash('sha256', id, 'base64url')}`;
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
  return hash('sha256', JSON.stringify(parts), 'base64url').slice(0, 22);
}

export function hashExternalId(digest: string, ordinal: number): string {
  return `hash:${digest}:${ordinal}`;
}

/**
 * 64 bits of a text's SHA-256, never zero: how the tables below remember a text in 8 bytes. Taken
 * for every entry of a file, so by the one-shot hash(), which spares a Hash object per call.
 */
export function keyOfText(text: string): bigint {
  const key = hash('sha256', text, 'buffer').readBigUInt64BE(0);
  return key === 0n ? 1n : key;
}

function keyOfDigest(digest: string): bigint {
  const key = Buffer.from(digest, 'base64url').readBigUInt64BE(0);
  return key === 0n ? 1n : key;
}

/**
 * A set of 64-bit keys with a number (a line) kept beside each, in little memory: a file of a
 * million rows is one statement, so keys are kept in an open-addressing table of 12 bytes a
 * slot rather than as strings.
 */
export class KeyTable {
  #keys = new BigUint64Array(1 << 12);
  #values = new Uint32Array(1 << 12);
  #size = 0;

  /** Adds a key with its value; answers the value kept with the key when it was already there, else undefined. */
  add(key: bigint, value: number): number | undefined {
    if ((this.#size + 1) * 2 > this.#keys.length) this.#grow();
    const mask = this.#keys.length - 1;
    for (let slot = Number(key & BigInt(mask)); ; slot = (slot + 1) & mask) {
      const found = this.#keys[slot]!;
      if (found === 0n) {
        this.#keys[slot] = key;
        this.#values[slot] = value;
        this.#size += 1;
        return undefined;
      }
      if (found === key) return this.#values[slot]!;
    }
  }

  has(key: bigint): boolean {
    const mask = this.#keys.length - 1;
    for (let slot = Number(key & BigInt(mask)); ; slot = (slot + 1) & mask) {
      const found = this.#keys[slot]!;
      if (found === 0n) return false;
      if (found === key) return true;
    }
  }

  /** Forgets everything (a new statement begins); a large table is given back. */
  clear(): void {
    if (this.#size === 0) return;
    this.#keys = new BigUint64Array(1 << 12);
    this.#values = new Uint32Array(1 << 12);
    this.#size = 0;
  }

  #grow(): void {
    const keys = this.#keys;
    const values = this.#values;
    this.#keys = new BigUint64Array(keys.length * 2);
    this.#values = new Uint32Array(keys.length * 2);
    this.#size = 0;
    for (let slot = 0; slot < keys.length; slot++) if (keys[slot] !== 0n) this.add(keys[slot]!, values[slot]!);
  }
}

/**
 * Counts identical entries within a statement: only digests seen more than once get a counter.
 * Two different digests sharing their first 64 bits (about one chance in 10^7 in a million rows)
 * would only give the second entry the ordinal 1 instead of 0: still a unique id.
 */
export class IdenticalEntryCounter {
  readonly #seen = new KeyTable();
  readonly #repeats = new Map<string, number>();

  /** The ordinal of this digest among identical entries so far (0 for the first). */
  next(digest: string): number {
    if (this.#seen.add(keyOfDigest(digest), 0) === undefined) return 0;
    const ordinal = (this.#repeats.get(digest) ?? 0) + 1;
    this.#repeats.set(digest, ordinal);
    return ordinal;
  }

  /** Forgets everything (a new statement begins). */
  clear(): void {
    this.#seen.clear();
    this.#repeats.clear();
  }
}

/**
 * The statement an entry belongs to for its identity. The pages of one statement (MT940
 * :62M:/:60M:, the same account and statement number) are read as several statements of the
 * file but are one statement here: identical entries on two pages must count on, or they would
 * take the same id and one would be lost.
 */
export function identityStatementKey(entry: Pick<StatementEntry, 'statementIndex' | 'accountId' | 'statementId'>): string {
  return entry.statementId === null ? `#${entry.statementIndex}` : `${entry.accountId ?? ''}\u0000${entry.statementId}`;
}

/** A bank id given to more than one entry of a statement, with the lines of the first two. */
export interface RepeatedBankId {
  statementIndex: number;
  id: string;
  firstLine: number;
  line: number;
}

/**
 * The bank ids that are given to more than one entry of their statement, found by reading the
 * whole file once before storing it (the decision for the first entry depends on entries after
 * it). Ids are compared by 64 bits of their hash: two different ids that share them (about one
 * chance in 10^7 for a statement of a million entries) are both taken as repeated, so both
 * entries are identified by their content: still stored, never lost.
 */
export class RepeatedBankIds {
  readonly #repeated = new Map<string, Set<bigint>>();
  /** The first repeat of each statement, for the warning that says why ids were not used. */
  readonly examples = new Map<number, RepeatedBankId & { count: number }>();
  readonly #seen = new KeyTable();
  #statement: string | null = null;

  /** Notes an entry's bank id (placeholders and entries without an id are left out). */
  note(entry: Pick<StatementEntry, 'statementIndex' | 'accountId' | 'statementId' | 'uniqueId' | 'line'>): void {
    if (entry.uniqueId === null || isPlaceholderId(entry.uniqueId)) return;
    const statement = identityStatementKey(entry);
    if (statement !== this.#statement) {
      this.#statement = statement;
      this.#seen.clear();
    }
    const key = keyOfText(entry.uniqueId);
    const firstLine = this.#seen.add(key, entry.line);
    if (firstLine === undefined) return;
    let keys = this.#repeated.get(statement);
    if (!keys) this.#repeated.set(statement, (keys = new Set()));
    keys.add(key);
    const example = this.examples.get(entry.statementIndex);
    if (example) example.count += 1;
    else this.examples.set(entry.statementIndex, { statementIndex: entry.statementIndex, id: entry.uniqueId, firstLine, line: entry.line, count: 1 });
  }

  isRepeated(entry: Pick<StatementEntry, 'statementIndex' | 'accountId' | 'statementId'>, id: string): boolean {
    return this.#repeated.get(identityStatementKey(entry))?.has(keyOfText(id)) ?? false;
  }
}

/**
 * How an entry's own id becomes its externalId: qualified by account for a bank's id, as
 * written for the id columns of a CSV mapping.
 */
export type EntryIdentity = 'bank' | 'as written';

/** Raised while storing when a bank id turns out to repeat within its statement: the file must be read once more to learn all such ids. */
export class BankIdRepeated extends Error {
  override name = 'BankIdRepeated';
}

/** Two entries of one statement that got the same externalId: never stored as one. */
export class SameIdInStatement extends Error {
  override name = 'SameIdInStatement';
  constructor(
    readonly externalId: string,
    readonly firstLine: number,
    readonly line: number,
  ) {
    super(`the entries of lines ${firstLine} and ${line} got the same id ${JSON.stringify(externalId)}`);
  }
}

/**
 * Gives each entry of a file its externalId, statement by statement, and guarantees that no two
 * entries of one statement get the same one: an entry whose id an earlier entry of the same
 * statement already has would be counted "already known" and lost. `repeated` is null on the
 * first reading of a file: a bank id found twice then raises BankIdRepeated, and the importer
 * reads the file once more (RepeatedBankIds) before storing it with those ids left out.
 */
export class EntryIdentifier {
  readonly #counter = new IdenticalEntryCounter();
  readonly #given = new KeyTable();
  #statement: string | null = null;

  constructor(
    readonly identity: EntryIdentity,
    private readonly repeated: RepeatedBankIds | null,
  ) {}

  /** The externalId of the next entry of the file. */
  identify(entry: StatementEntry): string {
    const statement = identityStatementKey(entry);
    if (statement !== this.#statement) {
      // Identical entries and repeated ids are counted within their statement.
      this.#statement = statement;
      this.#counter.clear();
      this.#given.clear();
    }
    const own = this.#ownId(entry);
    let externalId: string;
    if (own === null) {
      const digest = entryDigest(entry);
      externalId = hashExternalId(digest, this.#counter.next(digest));
    } else externalId = own;
    const firstLine = this.#given.add(keyOfText(externalId), entry.line);
    if (firstLine !== undefined) {
      if (own !== null && this.identity === 'bank' && this.repeated === null) throw new BankIdRepeated(externalId);
      throw new SameIdInStatement(externalId, firstLine, entry.line);
    }
    return externalId;
  }

  #ownId(entry: StatementEntry): string | null {
    const id = entry.uniqueId;
    if (id === null) return null;
    if (this.identity === 'as written') {
      if (id.length > EXTERNAL_ID_MAX_LENGTH) {
        throw new ImportFormatError(
          { line: entry.line },
          `an id of ${id.length} characters`,
          `at most ${EXTERNAL_ID_MAX_LENGTH} characters in the externalId columns of the mapping`,
        );
      }
      return id;
    }
    if (isPlaceholderId(id) || this.repeated?.isRepeated(entry, id)) return null;
    return bankExternalId(entry.accountId, id);
  }
}
