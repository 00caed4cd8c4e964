import type { Database, Queryable } from '../database.ts';

/**
 * The event feed (SPEC §11). Events are written by triggers (migration 0011) in the transaction
 * of the change they describe; this module places them in the feed and reads them.
 */

export interface EventRow {
  id: string;
  type: string;
  occurredAt: string;
  data: Record<string, unknown>;
  /** The place in the organization's feed. */
  position: string;
}

const EVENT_COLUMNS = `id, type, to_char(occurred_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS "occurredAt", data, position::text AS position`;

/** Events placed in one statement; a backlog (a run's million status changes) takes several. */
const PLACING_BATCH = 50_000;

/**
 * Gives the organization's committed events that have no place yet the next places of the feed.
 * An event of a transaction still running is invisible here and is placed by a later call, after
 * everything placed now: places follow commit order, so a consumer that keeps its cursor misses
 * nothing and sees nothing twice. Calls for one organization take turns on an advisory lock.
 */
export async function placeEvents(database: Database, organizationId: string): Promise<void> {
  for (;;) {
    const placed = await database.transaction(async (transaction) => {
      await transaction.query(`SELECT pg_advisory_xact_lock(hashtextextended('events:' || $1::text, 0))`, [organizationId]);
      const rows = await transaction.query<{ count: number }>(
        `WITH unplaced AS (
           SELECT sequence FROM events WHERE organization_id = $1 AND position IS NULL ORDER BY sequence LIMIT $2),
         numbered AS (
           SELECT sequence, nextval('events_position_seq') AS position FROM unplaced ORDER BY sequence),
         placed AS (
           UPDATE events e SET position = n.position FROM numbered n
            WHERE e.organization_id = $1 AND e.sequence = n.sequence
           RETURNING 1)
         SELECT count(*)::integer AS count FROM placed`,
        [organizationId, PLACING_BATCH],
      );
      return rows[0]!.count;
    });
    if (placed < PLACING_BATCH) return;
  }
}

/**
 * One page of an organization's placed events after a place, in feed order, read in one
 * statement with what else a page says: whether committed events wait for a place (`placeEvents`
 * gives them one), and the highest place removed by retention, or null when nothing was.
 */
export async function readFeedPage(
  database: Queryable,
  organizationId: string,
  query: { types: readonly string[] | null; afterPosition: string | null; limit: number },
): Promise<{ rows: EventRow[]; unplaced: boolean; removedThrough: string | null }> {
  const rows = await database.query<EventRow & { unplaced: boolean; removedThrough: string | null }>(
    `SELECT feed.unplaced, feed."removedThrough", page.*
       FROM (SELECT EXISTS (SELECT 1 FROM events WHERE organization_id = $1 AND position IS NULL) AS unplaced,
                    (SELECT removed_through_position::text FROM event_removals WHERE organization_id = $1) AS "removedThrough") AS feed
       LEFT JOIN LATERAL (
         SELECT ${EVENT_COLUMNS}, events.position AS place
           FROM events
          WHERE organization_id = $1
            AND ($2::text[] IS NULL OR type = ANY ($2::text[]))
            AND events.position > coalesce($3::bigint, 0)
          -- Qualified: the bare name would be the output column, which is text.
          ORDER BY events.position
          LIMIT $4) AS page ON true
      ORDER BY page.place`,
    [organizationId, query.types, query.afterPosition, query.limit],
  );
  const first = rows[0]!;
  return {
    rows: rows.filter((row) => row.id !== null).map(({ id, type, occurredAt, data, position }) => ({ id, type, occurredAt, data, position })),
    unplaced: first.unplaced,
    removedThrough: first.removedThrough,
  };
}

/** One event of an organization by id (the body of its webhook deliveries). */
export async function findEvent(database: Queryable, organizationId: string, eventId: string): Promise<EventRow | undefined> {
  const rows = await database.query<EventRow>(`SELECT ${EVENT_COLUMNS} FROM events WHERE organization_id = $1 AND id = $2`, [organizationId, eventId]);
  return rows[0];
}

/**
 * Removes up to `limit` of the organization's placed events that occurred before `before`, and
 * records the highest place removed (readFeedPage reports it). An event that a pending
 * delivery will still send is kept: the delivery builds its body from the event. Rows another
 * transaction holds (a redelivery checking its event) are skipped, never waited for. Returns
 * the number removed; fewer than `limit` means nothing older is left to remove now.
 */
export async function deleteEventsBefore(database: Database, organizationId: string, before: Date, limit: number): Promise<number> {
  return database.transaction(async (transaction) => {
    const rows = await transaction.query<{ count: number; highest: string | null }>(
      `WITH removable AS (
         SELECT e.sequence FROM events e
          WHERE e.organization_id = $1 AND e.occurred_at < $2::timestamptz AND e.position IS NOT NULL
            AND NOT EXISTS (SELECT 1 FROM webhook_deliveries d
                             WHERE d.organization_id = $1 AND d.message_id = e.id AND d.status = 'pending')
          ORDER BY e.occurred_at
          LIMIT $3
            FOR UPDATE SKIP LOCKED),
       removed AS (
         DELETE FROM events e USING removable r
          WHERE e.organization_id = $1 AND e.sequence = r.sequence
         RETURNING e.position)
       SELECT count(*)::integer AS count, max(position)::text AS highest FROM removed`,
      [organizationId, before.toISOString(), limit],
    );
    const { count, highest } = rows[0]!;
    if (highest !== null) {
      await transaction.query(
        `INSERT INTO event_removals (organization_id, removed_through_position) VALUES ($1, $2)
         ON CONFLICT (organization_id) DO UPDATE SET removed_through_position = greatest(event_removals.removed_through_position, excluded.removed_through_position)`,
        [organizationId, highest],
      );
    }
    return count;
  });
}
