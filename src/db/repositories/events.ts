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

/** One page of an organization's placed events after a place, in feed order. */
export async function listEvents(
  database: Queryable,
  organizationId: string,
  query: { types: readonly string[] | null; afterPosition: string | null; limit: number },
): Promise<EventRow[]> {
  return database.query<EventRow>(
    `SELECT ${EVENT_COLUMNS}
       FROM events
      WHERE organization_id = $1
        AND ($2::text[] IS NULL OR type = ANY ($2::text[]))
        AND position > coalesce($3::bigint, 0)
      -- Qualified: the bare name would be the output column, which is text.
      ORDER BY events.position
      LIMIT $4`,
    [organizationId, query.types, query.afterPosition, query.limit],
  );
}

/** One event of an organization by id (the body of its webhook deliveries). */
export async function findEvent(database: Queryable, organizationId: string, eventId: string): Promise<EventRow | undefined> {
  const rows = await database.query<EventRow>(`SELECT ${EVENT_COLUMNS} FROM events WHERE organization_id = $1 AND id = $2`, [organizationId, eventId]);
  return rows[0];
}
