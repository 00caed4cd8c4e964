import type { Queryable } from '../database.ts';
import { isoTimeSql } from './transaction-records.ts';

/**
 * The SQL of the exceptions queue (SPEC §14): the open items of a reconciliation's datasets, their
 * follow-up (assignee, due date, hold, resolution), their comment threads, and the daily digests.
 */

/** How a stored actor ("user:ann@example.com", "client:abc") is named in words. */
const actorNameSql = (alias: string, column: string) => `CASE
  WHEN ${alias}.${column} LIKE 'client:%' THEN coalesce(
    (SELECT ac.name FROM api_clients ac WHERE ac.organization_id = ${alias}.organization_id AND ac.id = substr(${alias}.${column}, 8)), 'an API client')
  WHEN ${alias}.${column} LIKE 'user:%' THEN substr(${alias}.${column}, 6)
  ELSE ${alias}.${column} END`;

export interface ExceptionRow {
  transactionId: string;
  timestampMs: string;
  date: string;
  description: string | null;
  reference: string | null;
  amount: string | null;
  openAmount: string | null;
  currency: string | null;
  datasetId: string;
  datasetName: string;
  side: 'bank' | 'ledger' | null;
  reconciliationStatus: string;
  ageDays: number;
  assigneeUserId: string | null;
  assigneeEmail: string | null;
  dueDate: string | null;
  overdue: boolean;
  holdReason: string | null;
  resolution: 'matched' | 'adjustment' | 'note' | null;
  resolutionNote: string | null;
  resolvedAt: string | null;
  resolvedBy: string | null;
  resolvedByName: string | null;
  commentCount: number;
  latestComment: { author: string; authorName: string; body: string; createdAt: string } | null;
}

export type ExceptionView = 'open' | 'mine' | 'unassigned' | 'overdue' | 'on-hold' | 'resolved';

/** The columns of an exception row; `t` a transaction, `d` its dataset, `f` its follow-up, `$asOf` and `$today` dates. */
function exceptionColumns(asOf: string, today: string): string {
  return `t.id AS "transactionId", t.timestamp_ms::text AS "timestampMs",
    to_char((to_timestamp(t.timestamp_ms / 1000.0) AT TIME ZONE 'UTC')::date, 'YYYY-MM-DD') AS date,
    t.description, t.reference, t.amount::text AS amount,
    CASE WHEN t.amount IS NULL THEN NULL
         WHEN t.reconciliation_status IN ('none', 'partial') THEN (sign(t.amount) * (abs(t.amount) - t.allocated_amount))::text
         ELSE '0' END AS "openAmount",
    t.currency, t.dataset_id AS "datasetId", d.name AS "datasetName",
    (SELECT rd2.side FROM reconciliation_datasets rd2
      WHERE rd2.organization_id = t.organization_id AND rd2.dataset_id = t.dataset_id ORDER BY rd2.side LIMIT 1) AS side,
    t.reconciliation_status AS "reconciliationStatus",
    (${asOf}::date - (to_timestamp(t.timestamp_ms / 1000.0) AT TIME ZONE 'UTC')::date) AS "ageDays",
    f.assignee_user_id AS "assigneeUserId",
    (SELECT u.email FROM users u WHERE u.organization_id = t.organization_id AND u.id = f.assignee_user_id) AS "assigneeEmail",
    to_char(f.due_date, 'YYYY-MM-DD') AS "dueDate",
    coalesce(f.due_date < ${today}::date AND f.resolution IS NULL AND t.reconciliation_status IN ('none', 'partial'), false) AS overdue,
    f.hold_reason AS "holdReason",
    CASE WHEN f.resolution IS NOT NULL THEN f.resolution
         WHEN t.reconciliation_status = 'full' THEN
           CASE WHEN EXISTS (SELECT 1 FROM matches m WHERE m.organization_id = t.organization_id
                               AND ((m.origin_id = t.id AND m.origin_adjustment > 0) OR (m.target_id = t.id AND m.target_adjustment > 0)))
                THEN 'adjustment' ELSE 'matched' END
         ELSE NULL END AS resolution,
    f.resolution_note AS "resolutionNote",
    CASE WHEN f.resolved_at IS NULL THEN NULL ELSE ${isoTimeSql('f.resolved_at')} END AS "resolvedAt",
    f.resolved_by AS "resolvedBy",
    CASE WHEN f.resolved_by IS NULL THEN NULL ELSE ${actorNameSql('f', 'resolved_by')} END AS "resolvedByName",
    (SELECT count(*)::int FROM exception_comments c WHERE c.organization_id = t.organization_id AND c.transaction_id = t.id) AS "commentCount",
    (SELECT jsonb_build_object('author', c.author, 'authorName', ${actorNameSql('c', 'author')}, 'body', c.body, 'createdAt', ${isoTimeSql('c.created_at')})
       FROM exception_comments c WHERE c.organization_id = t.organization_id AND c.transaction_id = t.id
      ORDER BY c.created_at DESC, c.id DESC LIMIT 1) AS "latestComment"`;
}

/** A transaction still open: not matched in full, not set aside, not resolved by a note or an adjustment. */
const OPEN_SQL = `t.reconciliation_status IN ('none', 'partial') AND f.resolution IS NULL`;

export interface ExceptionListFilter {
  organizationId: string;
  reconciliationId: string;
  /** Transactions dated before this moment (the day after the period end, 00:00 UTC). */
  beforeMs: number;
  /** The day ages count to (YYYY-MM-DD). */
  asOf: string;
  /** Today (YYYY-MM-DD): a due date before it is overdue. */
  today: string;
  view: ExceptionView;
  /** For the view "mine". */
  userId: string | null;
  assigneeUserId: string | null;
  minimumAgeDays: number | null;
  maximumAgeDays: number | null;
  after: { timestampMs: string; id: string } | null;
  limit: number;
}

export async function listExceptions(database: Queryable, filter: ExceptionListFilter): Promise<ExceptionRow[]> {
  const parameters: unknown[] = [filter.organizationId, filter.reconciliationId, filter.beforeMs, filter.asOf, filter.today, filter.limit];
  const conditions: string[] = [];
  switch (filter.view) {
    case 'open':
      conditions.push(OPEN_SQL);
      break;
    case 'mine':
      parameters.push(filter.userId);
      conditions.push(OPEN_SQL, `f.assignee_user_id = $${parameters.length}::uuid`);
      break;
    case 'unassigned':
      conditions.push(OPEN_SQL, 'f.assignee_user_id IS NULL');
      break;
    case 'overdue':
      conditions.push(OPEN_SQL, 'f.due_date < $5::date');
      break;
    case 'on-hold':
      conditions.push(OPEN_SQL, 'f.hold_reason IS NOT NULL');
      break;
    case 'resolved':
      conditions.push(`(f.resolution IS NOT NULL OR (f.transaction_id IS NOT NULL AND t.reconciliation_status = 'full'))`);
      break;
  }
  if (filter.assigneeUserId !== null) {
    parameters.push(filter.assigneeUserId);
    conditions.push(`f.assignee_user_id = $${parameters.length}::uuid`);
  }
  const ageSql = `($4::date - (to_timestamp(t.timestamp_ms / 1000.0) AT TIME ZONE 'UTC')::date)`;
  if (filter.minimumAgeDays !== null) {
    parameters.push(filter.minimumAgeDays);
    conditions.push(`${ageSql} >= $${parameters.length}::int`);
  }
  if (filter.maximumAgeDays !== null) {
    parameters.push(filter.maximumAgeDays);
    conditions.push(`${ageSql} <= $${parameters.length}::int`);
  }
  if (filter.after !== null) {
    parameters.push(filter.after.timestampMs, filter.after.id);
    conditions.push(`(t.timestamp_ms, t.id) > ($${parameters.length - 1}::bigint, $${parameters.length}::uuid)`);
  }
  return database.query<ExceptionRow>(
    `SELECT ${exceptionColumns('$4', '$5')}
       FROM reconciliation_datasets rd
       JOIN datasets d ON d.organization_id = rd.organization_id AND d.id = rd.dataset_id
       JOIN transactions t ON t.organization_id = rd.organization_id AND t.dataset_id = rd.dataset_id
       LEFT JOIN exception_followups f ON f.organization_id = t.organization_id AND f.transaction_id = t.id
      WHERE rd.organization_id = $1 AND rd.reconciliation_id = $2 AND t.timestamp_ms < $3::bigint
        AND ${conditions.join(' AND ')}
      ORDER BY t.timestamp_ms, t.id
      LIMIT $6`,
    parameters,
  );
}

/**
 * How many open exceptions of a reconciliation fall on each day up to `beforeMs` (exclusive), by
 * calendar day (UTC, YYYY-MM-DD): summed up to a period end, the open exceptions of that period.
 */
export async function countOpenExceptionsByDay(
  database: Queryable,
  organizationId: string,
  reconciliationId: string,
  beforeMs: number,
): Promise<{ day: string; count: number }[]> {
  return database.query<{ day: string; count: number }>(
    `SELECT to_char((to_timestamp(t.timestamp_ms / 1000.0) AT TIME ZONE 'UTC')::date, 'YYYY-MM-DD') AS day, count(*)::int AS count
       FROM reconciliation_datasets rd
       JOIN transactions t ON t.organization_id = rd.organization_id AND t.dataset_id = rd.dataset_id
       LEFT JOIN exception_followups f ON f.organization_id = t.organization_id AND f.transaction_id = t.id
      WHERE rd.organization_id = $1 AND rd.reconciliation_id = $2 AND t.timestamp_ms < $3::bigint AND ${OPEN_SQL}
      GROUP BY 1
      ORDER BY 1`,
    [organizationId, reconciliationId, beforeMs],
  );
}

/** One transaction as an exception, whether or not it is open; undefined when the organization has no such transaction. */
export async function findException(database: Queryable, organizationId: string, transactionId: string, today: string): Promise<ExceptionRow | undefined> {
  const rows = await database.query<ExceptionRow>(
    `SELECT ${exceptionColumns('$3', '$3')}
       FROM transactions t
       JOIN datasets d ON d.organization_id = t.organization_id AND d.id = t.dataset_id
       LEFT JOIN exception_followups f ON f.organization_id = t.organization_id AND f.transaction_id = t.id
      WHERE t.organization_id = $1 AND t.id = $2`,
    [organizationId, transactionId, today],
  );
  return rows[0];
}

export async function reconciliationExists(database: Queryable, organizationId: string, reconciliationId: string): Promise<boolean> {
  const rows = await database.query('SELECT 1 FROM reconciliations WHERE organization_id = $1 AND id = $2', [organizationId, reconciliationId]);
  return rows.length > 0;
}

export interface FollowupRow {
  transactionId: string;
  assigneeUserId: string | null;
  dueDate: string | null;
  holdReason: string | null;
  resolution: string | null;
  resolutionNote: string | null;
  reconciliationStatus: string;
}

/**
 * Locks the transactions and their follow-up rows (written blank where missing, which emits
 * nothing), and returns them; transactions of another organization, or none, are left out.
 */
export async function lockFollowups(transaction: Queryable, organizationId: string, transactionIds: readonly string[]): Promise<FollowupRow[]> {
  await transaction.query(
    `INSERT INTO exception_followups (organization_id, transaction_id)
     SELECT t.organization_id, t.id FROM transactions t WHERE t.organization_id = $1 AND t.id = ANY ($2::uuid[])
     ON CONFLICT (organization_id, transaction_id) DO NOTHING`,
    [organizationId, transactionIds],
  );
  return transaction.query<FollowupRow>(
    `SELECT f.transaction_id AS "transactionId", f.assignee_user_id AS "assigneeUserId", to_char(f.due_date, 'YYYY-MM-DD') AS "dueDate",
            f.hold_reason AS "holdReason", f.resolution, f.resolution_note AS "resolutionNote", t.reconciliation_status AS "reconciliationStatus"
       FROM exception_followups f
       JOIN transactions t ON t.organization_id = f.organization_id AND t.id = f.transaction_id
      WHERE f.organization_id = $1 AND f.transaction_id = ANY ($2::uuid[])
      ORDER BY f.transaction_id
        FOR UPDATE OF f`,
    [organizationId, transactionIds],
  );
}

/** Sets the assignee of follow-ups (locked first); a new assignee is told in their next digest. */
export async function setAssignee(
  transaction: Queryable,
  organizationId: string,
  transactionIds: readonly string[],
  assigneeUserId: string | null,
): Promise<void> {
  await transaction.query(
    `UPDATE exception_followups
        SET assignee_user_id = $3::uuid, assigned_at = CASE WHEN $3::uuid IS NULL THEN NULL ELSE now() END, updated_at = now()
      WHERE organization_id = $1 AND transaction_id = ANY ($2::uuid[]) AND assignee_user_id IS DISTINCT FROM $3::uuid`,
    [organizationId, transactionIds, assigneeUserId],
  );
}

/** Sets the due date and/or the hold of follow-ups (locked first); a field left undefined stays. */
export async function setDueDateAndHold(
  transaction: Queryable,
  organizationId: string,
  transactionIds: readonly string[],
  change: { dueDate?: string | null; holdReason?: string | null },
): Promise<void> {
  await transaction.query(
    `UPDATE exception_followups
        SET due_date = CASE WHEN $3::boolean THEN $4::date ELSE due_date END,
            hold_reason = CASE WHEN $5::boolean THEN $6::text ELSE hold_reason END,
            updated_at = now()
      WHERE organization_id = $1 AND transaction_id = ANY ($2::uuid[])`,
    [organizationId, transactionIds, change.dueDate !== undefined, change.dueDate ?? null, change.holdReason !== undefined, change.holdReason ?? null],
  );
}

export async function setResolution(
  transaction: Queryable,
  organizationId: string,
  transactionId: string,
  resolution: { kind: 'note'; note: string; actor: string } | null,
): Promise<void> {
  await transaction.query(
    `UPDATE exception_followups
        SET resolution = $3, resolution_note = $4, resolved_at = CASE WHEN $3::text IS NULL THEN NULL ELSE now() END,
            resolved_by = $5, hold_reason = CASE WHEN $3::text IS NULL THEN hold_reason ELSE NULL END, updated_at = now()
      WHERE organization_id = $1 AND transaction_id = $2`,
    [organizationId, transactionId, resolution?.kind ?? null, resolution?.note ?? null, resolution?.actor ?? null],
  );
}

export interface CommentRow {
  id: string;
  author: string;
  authorName: string;
  body: string;
  createdAt: string;
}

export async function insertComment(
  transaction: Queryable,
  comment: { id: string; organizationId: string; transactionId: string; author: string; body: string },
): Promise<void> {
  // clock_timestamp(): comments of one database transaction keep their order.
  await transaction.query(
    `INSERT INTO exception_comments (id, organization_id, transaction_id, author, body, created_at) VALUES ($1, $2, $3, $4, $5, clock_timestamp())`,
    [comment.id, comment.organizationId, comment.transactionId, comment.author, comment.body],
  );
}

/** The thread of an exception, oldest first. */
export async function listComments(database: Queryable, organizationId: string, transactionId: string): Promise<CommentRow[]> {
  return database.query<CommentRow>(
    `SELECT c.id, c.author, ${actorNameSql('c', 'author')} AS "authorName", c.body, ${isoTimeSql('c.created_at')} AS "createdAt"
       FROM exception_comments c
      WHERE c.organization_id = $1 AND c.transaction_id = $2
      ORDER BY c.created_at, c.id
      LIMIT 10000`,
    [organizationId, transactionId],
  );
}

/** The active users of an organization, by their e-mail (their only name), at most `limit`. */
export async function listActivePeople(database: Queryable, organizationId: string, limit: number): Promise<{ id: string; name: string }[]> {
  return database.query<{ id: string; name: string }>(
    'SELECT id, email AS name FROM users WHERE organization_id = $1 AND deactivated_at IS NULL ORDER BY lower(email), id LIMIT $2',
    [organizationId, limit],
  );
}

/** The active users of an organization among the given ids. */
export async function findActiveUserIds(database: Queryable, organizationId: string, userIds: readonly string[]): Promise<string[]> {
  const rows = await database.query<{ id: string }>('SELECT id FROM users WHERE organization_id = $1 AND id = ANY ($2::uuid[]) AND deactivated_at IS NULL', [
    organizationId,
    userIds,
  ]);
  return rows.map((row) => row.id);
}

/** The transactions of an organization among the given ids. */
export async function findTransactionIds(database: Queryable, organizationId: string, transactionIds: readonly string[]): Promise<string[]> {
  const rows = await database.query<{ id: string }>('SELECT id FROM transactions WHERE organization_id = $1 AND id = ANY ($2::uuid[])', [
    organizationId,
    transactionIds,
  ]);
  return rows.map((row) => row.id);
}

// ---- Notifications -------------------------------------------------------------------------

/**
 * Marks the open, assigned exceptions whose due date is before `today` and that were not yet
 * reported overdue for that due date (the trigger emits exception.overdue for each).
 */
export async function markOverdue(transaction: Queryable, organizationId: string, today: string): Promise<number> {
  const rows = await transaction.query(
    `UPDATE exception_followups f SET overdue_notified_for = f.due_date
       FROM transactions t
      WHERE f.organization_id = $1 AND t.organization_id = f.organization_id AND t.id = f.transaction_id
        AND f.due_date < $2::date AND f.resolution IS NULL AND f.assignee_user_id IS NOT NULL
        AND f.overdue_notified_for IS DISTINCT FROM f.due_date
        AND t.reconciliation_status IN ('none', 'partial')
      RETURNING f.transaction_id`,
    [organizationId, today],
  );
  return rows.length;
}

export interface DigestItem {
  kind: 'assigned' | 'overdue';
  date: string;
  description: string | null;
  reference: string | null;
  amount: string | null;
  currency: string | null;
  datasetName: string;
  dueDate: string | null;
  holdReason: string | null;
}

export interface DigestRecipient {
  userId: string;
  email: string;
  items: DigestItem[];
}

/**
 * The active users of an organization who have no digest for `today` and have exceptions that
 * are open and either given to them since their last digest or overdue, with those exceptions.
 */
export async function listDigestRecipients(database: Queryable, organizationId: string, today: string): Promise<DigestRecipient[]> {
  const rows = await database.query<DigestItem & { userId: string; email: string }>(
    `SELECT u.id AS "userId", u.email,
            CASE WHEN f.due_date < $2::date THEN 'overdue' ELSE 'assigned' END AS kind,
            to_char((to_timestamp(t.timestamp_ms / 1000.0) AT TIME ZONE 'UTC')::date, 'YYYY-MM-DD') AS date,
            t.description, t.reference, t.amount::text AS amount, t.currency, d.name AS "datasetName",
            to_char(f.due_date, 'YYYY-MM-DD') AS "dueDate", f.hold_reason AS "holdReason"
       FROM exception_followups f
       JOIN users u ON u.organization_id = f.organization_id AND u.id = f.assignee_user_id
       JOIN transactions t ON t.organization_id = f.organization_id AND t.id = f.transaction_id
       JOIN datasets d ON d.organization_id = t.organization_id AND d.id = t.dataset_id
      WHERE f.organization_id = $1 AND u.deactivated_at IS NULL
        AND f.resolution IS NULL AND t.reconciliation_status IN ('none', 'partial')
        AND NOT EXISTS (SELECT 1 FROM exception_digests g WHERE g.organization_id = f.organization_id AND g.user_id = u.id AND g.digest_date = $2::date)
        AND (f.due_date < $2::date
             OR f.assigned_at > coalesce((SELECT max(g.sent_at) FROM exception_digests g WHERE g.organization_id = f.organization_id AND g.user_id = u.id),
                                         '-infinity'::timestamptz))
      ORDER BY u.email, u.id, kind DESC, t.timestamp_ms, t.id
      LIMIT 100000`,
    [organizationId, today],
  );
  const recipients = new Map<string, DigestRecipient>();
  for (const { userId, email, ...item } of rows) {
    let recipient = recipients.get(userId);
    if (!recipient) recipients.set(userId, (recipient = { userId, email, items: [] }));
    recipient.items.push(item);
  }
  return [...recipients.values()];
}

/** Records a person's digest of a day; false when one was recorded already (by another process). */
export async function recordDigest(transaction: Queryable, organizationId: string, userId: string, today: string, items: number): Promise<boolean> {
  const rows = await transaction.query(
    `INSERT INTO exception_digests (organization_id, user_id, digest_date, items) VALUES ($1, $2, $3::date, $4)
     ON CONFLICT (organization_id, user_id, digest_date) DO NOTHING RETURNING user_id`,
    [organizationId, userId, today, items],
  );
  return rows.length > 0;
}

export async function findOrganizationName(database: Queryable, organizationId: string): Promise<string | undefined> {
  const rows = await database.query<{ name: string }>('SELECT name FROM organizations WHERE id = $1', [organizationId]);
  return rows[0]?.name;
}
