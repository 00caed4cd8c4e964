import { randomUUID } from 'node:crypto';
import type { Queryable } from '../database.ts';

/** A transaction row ready to insert: money as a decimal string, custom values keyed by column. */
export interface TransactionInsert {
  externalId: string | null;
  timestampMs: number;
  description: string | null;
  type: string | null;
  reference: string | null;
  bankReference: string | null;
  currency: string | null;
  amount: string | null;
  custom: Record<string, string | number | boolean>;
}

/** The JSON a batch travels in: money inside as a string, so that it becomes numeric in the database, never a float. */
function batchJson(rows: readonly TransactionInsert[], statements?: readonly number[]): string {
  return JSON.stringify(
    rows.map((row, index) => ({
      external_id: row.externalId,
      timestamp_ms: row.timestampMs,
      description: row.description,
      type: row.type,
      reference: row.reference,
      bank_reference: row.bankReference,
      currency: row.currency,
      amount: row.amount,
      custom: row.custom,
      ...(statements ? { statement: statements[index] } : {}),
    })),
  );
}

const RECORDSET_COLUMNS =
  'external_id text, timestamp_ms bigint, description text, type text, reference text, bank_reference text, currency text, amount numeric, custom jsonb';
const ON_EXTERNAL_ID_CONFLICT = 'ON CONFLICT (organization_id, dataset_id, external_id) WHERE external_id IS NOT NULL DO NOTHING';

/** A record whose externalId came earlier in the same batch is left out: the first one sent is the one stored. */
function firstOfEachExternalId<T extends { externalId: string | null }>(rows: readonly T[]): { distinct: T[]; kept: boolean[] } {
  const seen = new Set<string>();
  const kept = rows.map((row) => row.externalId === null || (!seen.has(row.externalId) && Boolean(seen.add(row.externalId))));
  return { distinct: rows.filter((_, index) => kept[index]), kept };
}

/**
 * Inserts a batch in one statement. Rows whose externalId the dataset already holds are skipped
 * (the partial unique index decides, so concurrent batches cannot both insert one id). Money
 * travels inside the JSON as a string and becomes numeric in the database: it is never a float.
 */
export async function insertTransactions(
  transaction: Queryable,
  organizationId: string,
  datasetId: string,
  rows: readonly TransactionInsert[],
  /** The import that creates the rows (an undo removes them by it); null for the JSON ingest. */
  importId: string | null = null,
): Promise<{ inserted: number; latestTimestampMs: number | null }> {
  if (rows.length === 0) return { inserted: 0, latestTimestampMs: null };
  // Leaving repeats out here means the statement needs no ORDER BY (a sort of the whole batch)
  // to decide which of two conflicting rows wins.
  const { distinct } = firstOfEachExternalId(rows);
  const result = await transaction.query<{ inserted: number; latest_timestamp_ms: number | null }>(
    `WITH inserted AS (
       INSERT INTO transactions (id, organization_id, dataset_id, external_id, timestamp_ms, description, type, reference, bank_reference, currency, amount, custom, import_id)
       SELECT gen_random_uuid(), $1, $2, r.external_id, r.timestamp_ms, r.description, r.type, r.reference, r.bank_reference, r.currency, r.amount, r.custom, $4::uuid
         FROM json_to_recordset($3::json) AS r (${RECORDSET_COLUMNS})
       ${ON_EXTERNAL_ID_CONFLICT}
       RETURNING timestamp_ms)
     SELECT count(*)::integer AS inserted, max(timestamp_ms) AS latest_timestamp_ms FROM inserted`,
    [organizationId, datasetId, batchJson(distinct), importId],
  );
  const summary = result[0]!;
  return { inserted: summary.inserted, latestTimestampMs: summary.latest_timestamp_ms === null ? null : Number(summary.latest_timestamp_ms) };
}

/** What became of a batch's rows of one statement of an import. */
export interface StatementRowsStored {
  statement: number;
  /** Rows stored as new transactions. */
  inserted: number;
  /**
   * Rows not stored because the dataset already holds a transaction with their externalId: the
   * unique index refused them, which it does only when such a row exists (a concurrent writer's
   * row is waited for, and counts only once it has committed).
   */
  known: number;
}

/**
 * Inserts a batch of an import, whose rows all carry an externalId, and says per statement how
 * many were stored and how many the dataset already held (from an earlier import, or from an
 * earlier statement of the same file). A row repeated within the batch is left out and reported
 * apart (repeatsInBatch), for the importer to account for.
 */
export async function insertStatementRows(
  transaction: Queryable,
  organizationId: string,
  datasetId: string,
  rows: readonly TransactionInsert[],
  statements: readonly number[],
  importId: string,
): Promise<{ stored: StatementRowsStored[]; repeatsInBatch: number[]; latestTimestampMs: number | null }> {
  if (rows.length === 0) return { stored: [], repeatsInBatch: [], latestTimestampMs: null };
  const { distinct, kept } = firstOfEachExternalId(rows);
  const repeatsInBatch = statements.filter((_, index) => !kept[index]);
  const distinctStatements = statements.filter((_, index) => kept[index]);
  const first = distinctStatements[0]!;
  if (distinctStatements.every((statement) => statement === first)) {
    // The usual batch, all of one statement (a large file is one statement): the plain insert.
    const single = await insertTransactions(transaction, organizationId, datasetId, distinct, importId);
    return {
      stored: [{ statement: first, inserted: single.inserted, known: distinct.length - single.inserted }],
      repeatsInBatch,
      latestTimestampMs: single.latestTimestampMs,
    };
  }
  const result = await transaction.query<{ statement: number; inserted: number; known: number; latest_timestamp_ms: number | null }>(
    `WITH input AS MATERIALIZED (
       SELECT r.* FROM json_to_recordset($3::json) AS r (${RECORDSET_COLUMNS}, statement integer)
     ), inserted AS (
       INSERT INTO transactions (id, organization_id, dataset_id, external_id, timestamp_ms, description, type, reference, bank_reference, currency, amount, custom, import_id)
       SELECT gen_random_uuid(), $1, $2, i.external_id, i.timestamp_ms, i.description, i.type, i.reference, i.bank_reference, i.currency, i.amount, i.custom, $4::uuid
         FROM input i
       ${ON_EXTERNAL_ID_CONFLICT}
       RETURNING external_id, timestamp_ms)
     SELECT i.statement, count(n.external_id)::integer AS inserted, (count(*) - count(n.external_id))::integer AS known,
            max(n.timestamp_ms) AS latest_timestamp_ms
       FROM input i LEFT JOIN inserted n ON n.external_id = i.external_id
      GROUP BY i.statement`,
    [organizationId, datasetId, batchJson(distinct, distinctStatements), importId],
  );
  let latest: number | null = null;
  for (const row of result) if (row.latest_timestamp_ms !== null) latest = Math.max(latest ?? 0, Number(row.latest_timestamp_ms));
  return {
    stored: result.map((row) => ({ statement: row.statement, inserted: row.inserted, known: row.known })),
    repeatsInBatch,
    latestTimestampMs: latest,
  };
}

export async function findTransactionExists(database: Queryable, organizationId: string, transactionId: string): Promise<boolean> {
  const rows = await database.query('SELECT 1 FROM transactions WHERE organization_id = $1 AND id = $2', [organizationId, transactionId]);
  return rows.length > 0;
}

/** The ids of a dataset's transactions by their external ids; unknown external ids are absent. */
export async function findIdsByExternalId(
  database: Queryable,
  organizationId: string,
  datasetId: string,
  externalIds: readonly string[],
): Promise<Map<string, string>> {
  const rows = await database.query<{ id: string; external_id: string }>(
    `SELECT id, external_id FROM transactions
      WHERE organization_id = $1 AND dataset_id = $2 AND external_id = ANY ($3::text[])`,
    [organizationId, datasetId, externalIds],
  );
  return new Map(rows.map((row) => [row.external_id, row.id]));
}

export interface LockedTransaction {
  id: string;
  dataset_id: string;
  amount: string | null;
  currency: string | null;
  status_override: 'informative' | 'out of scope' | null;
  reconciliation_status: string;
  /** Whether any match involves the transaction, read from the matches themselves. */
  has_matches: boolean;
}

/**
 * Locks transactions of an organization for a change of their matches or status. Rows are
 * locked in id order, so two writers that need overlapping sets always queue instead of
 * deadlocking. Ids of other organizations are simply absent from the answer.
 */
export async function lockTransactions(transaction: Queryable, organizationId: string, ids: readonly string[]): Promise<LockedTransaction[]> {
  return transaction.query<LockedTransaction>(
    `SELECT t.id, t.dataset_id, t.amount::text AS amount, t.currency, t.status_override, t.reconciliation_status,
            (EXISTS (SELECT 1 FROM matches m WHERE m.organization_id = t.organization_id AND m.origin_id = t.id)
             OR EXISTS (SELECT 1 FROM matches m WHERE m.organization_id = t.organization_id AND m.target_id = t.id)) AS has_matches
       FROM transactions t
      WHERE t.organization_id = $1 AND t.id = ANY ($2::uuid[])
      ORDER BY t.id
        FOR UPDATE OF t`,
    [organizationId, [...new Set(ids)]],
  );
}

export async function setStatusOverride(
  transaction: Queryable,
  organizationId: string,
  transactionId: string,
  override: 'informative' | 'out of scope' | null,
): Promise<void> {
  await transaction.query('UPDATE transactions SET status_override = $3 WHERE organization_id = $1 AND id = $2', [organizationId, transactionId, override]);
}

/** The reconciliation facts of a transaction, as audit events record them before and after a change. */
export interface ReconciliationState {
  reconciliationStatus: string;
  /** The allocated total, an exact decimal string. */
  allocatedAmount: string;
  matchCount: number;
}

export interface ReconciliationChange {
  id: string;
  datasetId: string;
  before: ReconciliationState;
  after: ReconciliationState;
  changed: boolean;
}

/**
 * The allocations of transaction `idExpression` of organization `organizationExpression`, one
 * row per match: the link's amount plus the adjustment the link records for that end (a fee a
 * rule closed counts as allocated).
 */
export const ALLOCATIONS_OF_SQL = (idExpression: string, organizationExpression: string) => `
  SELECT m.id, ${LINK_ALLOCATION_SQL('origin')} AS amount FROM matches m WHERE m.organization_id = ${organizationExpression} AND m.origin_id = ${idExpression}
  UNION ALL
  SELECT m.id, ${LINK_ALLOCATION_SQL('target')} FROM matches m WHERE m.organization_id = ${organizationExpression} AND m.target_id = ${idExpression}`;

/**
 * What one link (`m`, a row of matches) counts toward the allocated total of its `end`: its amount
 * and that end's adjustment; a netted link (a refund or fee of a payout, migration 0020) lowers
 * the total of the end it reduces by its amount instead.
 */
export const LINK_ALLOCATION_SQL = (end: 'origin' | 'target') => `(CASE WHEN m.reduces = '${end}' THEN -m.amount ELSE m.amount END + m.${end}_adjustment)`;

/**
 * The SET list that derives a transaction's reconciliation facts (`t`) from its sums (`s`:
 * allocated, match_count), by the status rule described at recomputeReconciliation.
 */
export const RECONCILIATION_SET_SQL = `allocated_amount = s.allocated,
            match_count = s.match_count,
            reconciliation_status = CASE
              WHEN t.status_override IS NOT NULL THEN t.status_override
              WHEN s.match_count = 0 THEN 'none'
              WHEN t.amount IS NULL OR t.amount = 0 THEN 'full'
              WHEN s.allocated >= abs(t.amount) THEN 'full'
              ELSE 'partial' END`;

/**
 * Recomputes allocated_amount, match_count and reconciliation_status of the given transactions
 * from the matches table, in the caller's transaction, and returns each row's state before and
 * after (the self-join reads the row as it was before this statement).
 *
 * The status rule of SPEC §4 (domain/transactions/status.ts): a set status (informative, out
 * of scope) stands; otherwise `none` without matches, `full` when the transaction has no amount
 * and has a match, `full` when the allocated total reaches the absolute amount (it exceeds it
 * only by a forced allocation), `partial` below it. A zero amount counts as no amount: there is
 * nothing to allocate, so a match reconciles it fully.
 */
export async function recomputeReconciliation(transaction: Queryable, organizationId: string, ids: readonly string[]): Promise<ReconciliationChange[]> {
  if (ids.length === 0) return [];
  const rows = await transaction.query<ReconciliationChange>(
    `UPDATE transactions t
        SET ${RECONCILIATION_SET_SQL}
       FROM (SELECT x.id, coalesce(sum(m.amount), 0) AS allocated, count(m.id)::integer AS match_count
               FROM unnest($2::uuid[]) AS x (id)
               LEFT JOIN LATERAL (${ALLOCATIONS_OF_SQL('x.id', '$1')}) AS m ON true
              GROUP BY x.id) AS s,
            transactions previous
      WHERE t.organization_id = $1 AND t.id = s.id AND previous.organization_id = t.organization_id AND previous.id = t.id
      RETURNING t.id, t.dataset_id AS "datasetId",
                json_build_object('reconciliationStatus', previous.reconciliation_status,
                                  'allocatedAmount', previous.allocated_amount::text,
                                  'matchCount', previous.match_count) AS before,
                json_build_object('reconciliationStatus', t.reconciliation_status,
                                  'allocatedAmount', t.allocated_amount::text,
                                  'matchCount', t.match_count) AS after,
                (previous.reconciliation_status, previous.allocated_amount, previous.match_count)
                  IS DISTINCT FROM (t.reconciliation_status, t.allocated_amount, t.match_count) AS changed`,
    [organizationId, [...new Set(ids)]],
  );
  const position = new Map(ids.map((id, index) => [id, index]));
  return rows.sort((left, right) => (position.get(left.id) ?? 0) - (position.get(right.id) ?? 0));
}

/** The characters COPY's text format escapes. */
const COPY_ESCAPED = /[\\\t\n\r]/;

/** A value in COPY's text format: backslash, tab, newline and carriage return escaped; null as \N. */
function copyField(value: string | number | null): string {
  if (value === null) return '\\N';
  if (typeof value === 'number') return String(value);
  // Most values have nothing to escape: one test instead of four replacements per field.
  if (!COPY_ESCAPED.test(value)) return value;
  return value.replace(/\\/g, '\\\\').replace(/\t/g, '\\t').replace(/\n/g, '\\n').replace(/\r/g, '\\r');
}

/**
 * The rows of one import written with COPY straight into the transactions table on PostgreSQL,
 * one short COPY per batch. A COPY costs little more than the bytes it carries, where an INSERT
 * of the same rows (from JSON, or from a staging table filled by COPY first) costs about as much
 * again: loading the rows once is what brings an import near the speed of a plain COPY.
 *
 * COPY has no ON CONFLICT, so the rows whose externalId the dataset already holds are looked up
 * before each batch and left out (counted as known), which is what the batched inserts' ON
 * CONFLICT DO NOTHING gives. The look-up is exact because the importer holds the dataset's lock
 * (lockDataset) for the whole import, and every writer of a dataset's transactions takes that
 * lock first: no row of the dataset can appear between the look-up and the COPY. A dataset that
 * holds no row with an externalId when the import begins needs no look-ups at all.
 *
 * Only for rows of one statement (a CSV is one) whose externalIds are all set and all different
 * (the importer's EntryIdentifier refuses a file that repeats one): a repeat would be refused by
 * the unique index, failing the import, rather than stored twice.
 */
export class CopiedImportRows {
  #inserted = 0;
  #known = 0;
  #latestTimestampMs: number | null = null;

  private constructor(
    private readonly transaction: Queryable & Required<Pick<Queryable, 'copyIn'>>,
    private readonly organizationId: string,
    private readonly datasetId: string,
    private readonly importId: string,
    /** Whether the dataset held rows with an externalId when the import began (batches are then looked up). */
    private readonly datasetHadExternalIds: boolean,
  ) {}

  /** COPY on this transaction, or null where there is none (the embedded store). The caller holds the dataset's lock. */
  static async begin(transaction: Queryable, organizationId: string, datasetId: string, importId: string): Promise<CopiedImportRows | null> {
    if (!transaction.copyIn) return null;
    const [held] = await transaction.query<{ exists: boolean }>(
      'SELECT EXISTS (SELECT 1 FROM transactions WHERE dataset_id = $2 AND organization_id = $1 AND external_id IS NOT NULL) AS exists',
      [organizationId, datasetId],
    );
    return new CopiedImportRows(transaction as Queryable & Required<Pick<Queryable, 'copyIn'>>, organizationId, datasetId, importId, held!.exists);
  }

  async add(rows: readonly TransactionInsert[]): Promise<void> {
    if (rows.length === 0) return;
    let fresh = rows;
    if (this.datasetHadExternalIds) {
      const known = await this.transaction.query<{ external_id: string }>(
        'SELECT external_id FROM transactions WHERE dataset_id = $2 AND organization_id = $1 AND external_id = ANY ($3::text[])',
        [this.organizationId, this.datasetId, rows.map((row) => row.externalId)],
      );
      if (known.length > 0) {
        const knownIds = new Set(known.map((row) => row.external_id));
        fresh = rows.filter((row) => !knownIds.has(row.externalId as string));
      }
    }
    this.#known += rows.length - fresh.length;
    if (fresh.length === 0) return;
    // The ids, organization, dataset and import are UUIDs and need no escaping.
    const fixed = `\t${this.organizationId}\t${this.datasetId}\t`;
    const importId = `\t${this.importId}\n`;
    let text = '';
    let latest = this.#latestTimestampMs;
    for (const row of fresh) {
      text += `${randomUUID()}${fixed}${copyField(row.externalId)}\t${row.timestampMs}\t${copyField(row.description)}\t${copyField(row.type)}\t${copyField(row.reference)}\t${copyField(row.bankReference)}\t${copyField(row.currency)}\t${copyField(row.amount)}\t${copyField(JSON.stringify(row.custom))}${importId}`;
      if (latest === null || row.timestampMs > latest) latest = row.timestampMs;
    }
    const copy = this.transaction.copyIn(
      'COPY transactions (id, organization_id, dataset_id, external_id, timestamp_ms, description, type, reference, bank_reference, currency, amount, custom, import_id) FROM STDIN',
    );
    try {
      await copy.write(text);
      await copy.end();
    } catch (error) {
      await copy.abort(error instanceof Error ? error : new Error(String(error)));
      throw error;
    }
    this.#inserted += fresh.length;
    this.#latestTimestampMs = latest;
  }

  /** What the batches came to: rows stored, rows the dataset already held, the latest stored row's time. */
  finish(): { inserted: number; known: number; latestTimestampMs: number | null } {
    return { inserted: this.#inserted, known: this.#known, latestTimestampMs: this.#latestTimestampMs };
  }
}
