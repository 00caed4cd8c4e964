import type { Database } from '../db/database.ts';
import { placeEvents, readFeedPage, type EventRow } from '../db/repositories/events.ts';
import type { SealedPositions } from './sealed-positions.ts';
import { feedPageOf, pageSize, readCursor, rowsToFetch } from './pages.ts';

/** The event types of SPEC §11, each written by a trigger of migration 0011 (import.undone since 0018; reconciliations and close periods since 0022, journal entries since 0025) in the transaction of its change. */
export const EVENT_TYPES = [
  'transaction.status_changed',
  'match_group.created',
  'match_group.deleted',
  'suggestion.created',
  'run.completed',
  'run.failed',
  'run.reverted',
  'import.completed',
  'import.failed',
  'import.undone',
  'reconciliation.created',
  'reconciliation.updated',
  'close_period.prepared',
  'close_period.approved',
  'close_period.reopened',
  // The exceptions queue of the month-end close (migration 0024).
  'exception.assigned',
  'exception.updated',
  'exception.commented',
  'exception.resolved',
  'exception.reopened',
  'exception.overdue',
  'journal_entry.proposed',
  // Connections and their pickups (migration 0028).
  'connection.failed',
  'pickup.completed',
] as const;
export type EventType = (typeof EVENT_TYPES)[number];

export const EVENTS_PAGE_SIZE = pageSize(100, 1000);

/** The feed's cursors: a sealed place (see SealedPositions); before them, the place in clear. */
const EVENTS_CURSOR = 'ev2_';
const EARLIER_EVENTS_CURSOR = 'ev_';

export interface Event {
  id: string;
  type: string;
  occurredAt: string;
  data: Record<string, unknown>;
}

export class Events {
  constructor(
    private readonly database: Database,
    private readonly positions: SealedPositions,
  ) {}

  /**
   * A page of the feed after a cursor, oldest first. The next cursor is given on every page,
   * the last one too: a consumer keeps it and asks again later for what happened since.
   *
   * A cursor older than the retention period still works: the page goes on from the oldest
   * event kept. Since the events removed after the cursor can no longer be read, the answer says
   * so (`eventsRemovedAfterCursor`) instead of leaving the consumer to believe it missed nothing.
   */
  async list(
    organizationId: string,
    query: { types: readonly EventType[] | null; cursor: string | null; limit: number },
  ): Promise<{ events: Event[]; nextCursor: string | null; hasMore: boolean; eventsRemovedAfterCursor: boolean }> {
    const cursors = this.positions.cursors(EVENTS_CURSOR, organizationId, EARLIER_EVENTS_CURSOR);
    const after = await readCursor(cursors, query.cursor);
    const afterPosition = after === null ? null : String(after);
    const pageQuery = { types: query.types, afterPosition, limit: rowsToFetch(query.limit) };
    const first = await readFeedPage(this.database, organizationId, pageQuery);
    let { rows, removedThrough } = first;
    // Events committed without a place yet get one now and the page is read again, unless it is
    // full anyway. Leaving them for the next call loses nothing: every place given later comes
    // after every place given so far, so after any cursor a consumer holds. A consumer polling
    // a quiet feed costs one statement, not the placing transaction's four.
    if (first.unplaced && rows.length <= query.limit) {
      await placeEvents(this.database, organizationId);
      ({ rows, removedThrough } = await readFeedPage(this.database, organizationId, pageQuery));
    }
    const page = await feedPageOf(rows, query.limit, (row) => BigInt(row.position), cursors, query.cursor);
    return {
      events: page.rows.map(eventOf),
      nextCursor: page.nextCursor,
      hasMore: page.hasMore,
      eventsRemovedAfterCursor: removedThrough !== null && (afterPosition === null || BigInt(afterPosition) < BigInt(removedThrough)),
    };
  }
}

function eventOf(row: EventRow): Event {
  return { id: row.id, type: row.type, occurredAt: row.occurredAt, data: row.data };
}
