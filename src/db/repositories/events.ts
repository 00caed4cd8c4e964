import type { Queryable } from '../database.ts';

/**
 * The event feed (SPEC §11). Events are written by triggers (migration 0011) in the transaction
 * of the change they describe; this module only reads them.
 */

export interface EventRow {
  id: string;
  type: string;
  occurredAt: string;
  data: Record<string, unknown>;
  /** The position in the feed: the writing transaction, then the sequence. */
  transactionId: string;
  sequence: string;
}

const EVENT_COLUMNS = `id, type, to_char(occurred_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS "occurredAt", data,
                       transaction_id::text AS "transactionId", sequence::text AS sequence`;

/**
 * One page of an organization's events after a position, in feed order. Only events of
 * transactions older than the oldest one still running are read: any transaction that could
 * still commit an event behind the position has ended, so a consumer that keeps its position
 * misses nothing and sees nothing twice.
 */
export async function listEvents(
  database: Queryable,
  organizationId: string,
  query: { types: readonly string[] | null; after: { transactionId: string; sequence: string } | null; limit: number },
): Promise<EventRow[]> {
  return database.query<EventRow>(
    `SELECT ${EVENT_COLUMNS}
       FROM events
      WHERE organization_id = $1
        AND ($2::text[] IS NULL OR type = ANY ($2::text[]))
        AND ($3::text IS NULL OR (transaction_id, sequence) > ($3::xid8, $4::bigint))
        AND transaction_id < pg_snapshot_xmin(pg_current_snapshot())
      -- Qualified: the bare names would be the output columns, which are text.
      ORDER BY events.transaction_id, events.sequence
      LIMIT $5`,
    [organizationId, query.types, query.after?.transactionId ?? null, query.after?.sequence ?? null, query.limit],
  );
}

/** One event of an organization by id (the body of its webhook deliveries). */
export async function findEvent(database: Queryable, organizationId: string, eventId: string): Promise<EventRow | undefined> {
  const rows = await database.query<EventRow>(`SELECT ${EVENT_COLUMNS} FROM events WHERE organization_id = $1 AND id = $2`, [organizationId, eventId]);
  return rows[0];
}
