import type { Queryable } from '../database.ts';
import { isoTimeSql } from './transaction-records.ts';

/** One event to append; who, why and under which request come from the write's context. */
export interface AuditEventInsert {
  action: string;
  transactionId: string | null;
  relatedTransactionId: string | null;
  matchId: string | null;
  groupId: string | null;
  before: unknown;
  after: unknown;
}

/**
 * An arbitrary constant: the first key of the advisory lock that orders the appends of one
 * organization (the second key is a hash of the organization id).
 */
const AUDIT_APPEND_LOCK_NAMESPACE = 740_311_203;

/**
 * Appends events in the caller's transaction, in the given order.
 *
 * Readers page through the trail by `sequence`. A sequence number is drawn when a row is
 * inserted, not when its transaction commits, so two writers could commit out of sequence order
 * and a reader could page past a number whose event was not yet visible, and never see it. The
 * transaction-scoped advisory lock taken here closes that gap: within one organization, events
 * are appended by one transaction at a time, and that transaction holds the lock until it
 * commits, so sequence order is commit order. Writers take it as their last lock, after every
 * row lock, and the lock covers only the short tail of the transaction.
 */
/** The append lock of an organization ($1), for statements that insert events themselves. */
export const AUDIT_APPEND_LOCK_SQL = `SELECT pg_advisory_xact_lock(${AUDIT_APPEND_LOCK_NAMESPACE}, hashtext($1::text))`;

export async function appendAuditEvents(
  transaction: Queryable,
  context: { organizationId: string; actor: string; requestId: string | null; note: string | null },
  events: readonly AuditEventInsert[],
): Promise<void> {
  if (events.length === 0) return;
  await transaction.query(AUDIT_APPEND_LOCK_SQL, [context.organizationId]);
  await transaction.query(
    `INSERT INTO audit_events (id, organization_id, actor, action, transaction_id, related_transaction_id, match_id, group_id, before, after, note, request_id)
     SELECT gen_random_uuid(), $1, $2, e.action, e.transaction_id, e.related_transaction_id, e.match_id, e.group_id, e.before, e.after, $3, $4
       FROM jsonb_to_recordset($5::jsonb) AS e (
              ordinal integer, action text, transaction_id uuid, related_transaction_id uuid, match_id uuid, group_id uuid, before jsonb, after jsonb)
      ORDER BY e.ordinal`,
    [
      context.organizationId,
      context.actor,
      context.note,
      context.requestId,
      JSON.stringify(
        events.map((event, ordinal) => ({
          ordinal,
          action: event.action,
          transaction_id: event.transactionId,
          related_transaction_id: event.relatedTransactionId,
          match_id: event.matchId,
          group_id: event.groupId,
          before: event.before ?? null,
          after: event.after ?? null,
        })),
      ),
    ],
  );
}

export interface AuditEventRow {
  sequence: number;
  event: Record<string, unknown>;
}

/**
 * Who made a change in words, for actor `e.actor` of organization `e.organization_id`: an API
 * client's name, a person's email, the command line's command, or the actor as it is written.
 */
const ACTOR_NAME_SQL = `CASE
  WHEN e.actor LIKE 'client:%' THEN coalesce(
    (SELECT c.name FROM api_clients c WHERE c.organization_id = e.organization_id AND c.id = substr(e.actor, 8)), 'an API client')
  WHEN e.actor LIKE 'user:%' THEN substr(e.actor, 6)
  WHEN e.actor LIKE 'cli:%' THEN 'the command line (' || substr(e.actor, 5) || ')'
  WHEN e.actor LIKE 'connection:%' THEN coalesce(
    (SELECT 'the connection ' || c.name FROM connections c WHERE c.organization_id = e.organization_id AND c.id::text = substr(e.actor, 12)),
    'a connection, since deleted')
  ELSE e.actor END`;

/**
 * Events of an organization after a sequence number (before it, newest first), oldest first by
 * default; `limit` rows at most.
 */
export async function listAuditEvents(
  database: Queryable,
  filter: {
    organizationId: string;
    /** The position to continue from: events after it (before it, newest first); null from the start. */
    afterSequence: number | null;
    newestFirst: boolean;
    actor: string | null;
    /** Only these actions; null for all. */
    actions: string[] | null;
    transactionId: string | null;
    fromMs: number | null;
    toMs: number | null;
    limit: number;
  },
): Promise<AuditEventRow[]> {
  const parameters: unknown[] = [filter.organizationId, filter.afterSequence, filter.limit];
  const conditions = [
    'e.organization_id = $1',
    filter.newestFirst ? '($2::bigint IS NULL OR e.sequence < $2::bigint)' : 'e.sequence > coalesce($2::bigint, 0)',
  ];
  if (filter.actor !== null) {
    parameters.push(filter.actor);
    conditions.push(`e.actor = $${parameters.length}`);
  }
  if (filter.actions !== null) {
    parameters.push(filter.actions);
    conditions.push(`e.action = ANY ($${parameters.length}::text[])`);
  }
  if (filter.transactionId !== null) {
    parameters.push(filter.transactionId);
    conditions.push(`(e.transaction_id = $${parameters.length} OR e.related_transaction_id = $${parameters.length})`);
  }
  if (filter.fromMs !== null) {
    parameters.push(filter.fromMs);
    conditions.push(`e.occurred_at >= timestamptz 'epoch' + $${parameters.length}::bigint * interval '1 millisecond'`);
  }
  if (filter.toMs !== null) {
    parameters.push(filter.toMs);
    // Times are kept to the microsecond; an inclusive bound in milliseconds takes its whole millisecond.
    conditions.push(`e.occurred_at < timestamptz 'epoch' + ($${parameters.length}::bigint + 1) * interval '1 millisecond'`);
  }
  return database.query<AuditEventRow>(
    `SELECT e.sequence,
            json_build_object(
              'id', e.id,
              'occurredAt', ${isoTimeSql('e.occurred_at')},
              'actor', e.actor,
              'actorName', ${ACTOR_NAME_SQL},
              'action', e.action,
              'transactionId', e.transaction_id,
              'relatedTransactionId', e.related_transaction_id,
              'matchId', e.match_id,
              'groupId', e.group_id,
              'before', e.before,
              'after', e.after,
              'note', e.note,
              'requestId', e.request_id) AS event
       FROM audit_events e
      WHERE ${conditions.join(' AND ')}
      ORDER BY e.sequence ${filter.newestFirst ? 'DESC' : ''}
      LIMIT $3`,
    parameters,
  );
}
