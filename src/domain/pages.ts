import { listErrors, type AppError } from '../errors.ts';
import { UUID_PATTERN } from './identifiers.ts';

/**
 * The one recipe of every list of the API (runs, their results, suggestions, imports, webhook
 * deliveries, the audit trail, the event feed, rule versions, the transactions query):
 *
 * - a page size (PageSize): how many entries a page holds when the caller says nothing, and the
 *   most it may ask for, read by the transport with `readPageSize` (http/schemas/common.ts);
 * - a cursor codec (CursorCodec): a position in the list as the opaque text a client holds and
 *   sends back, tagged with the list it belongs to so that a cursor of one list is refused by
 *   another. Positions a client could see anyway travel in clear (textCursors, createdCursors);
 *   positions of a counter that organizations share travel sealed (SealedPositions.cursors);
 * - the repository reads `rowsToFetch(limit)` rows (one more than the page: that one says
 *   whether more follow), and `pageOf` (or `feedPageOf`) cuts the page and writes its next cursor.
 */

/** How many entries a page of one list holds. Every list starts at one entry. */
export interface PageSize {
  readonly minimumEntries: 1;
  /** Entries of a page when the caller asks for no number. */
  readonly defaultEntries: number;
  /** The most entries a caller may ask for on one page. */
  readonly maximumEntries: number;
}

export function pageSize(defaultEntries: number, maximumEntries: number): PageSize {
  return { minimumEntries: 1, defaultEntries, maximumEntries };
}

/** A list's positions written as cursors and read back; a cursor that is not one of its own is refused. */
export interface CursorCodec<Position> {
  encode(position: Position): string | Promise<string>;
  /** The position a cursor carries; throws an invalid-request error naming the cursor otherwise. */
  decode(cursor: string): Position | Promise<Position>;
}

/**
 * Cursors that carry a position written as text, in clear: the list's prefix, then the text in
 * base64url. `read` gives back the position of a text, or null when the text is not one a
 * position of this list writes; `refusal` is the error such a cursor gets (listErrors.cursorNotOurs unless
 * the list's cursors were always refused with other words).
 */
export function textCursors<Position>(
  prefix: string,
  format: { write: (position: Position) => string; read: (text: string) => Position | null; refusal?: () => AppError },
): CursorCodec<Position> {
  const refusal = format.refusal ?? listErrors.cursorNotOurs;
  return {
    encode: (position) => prefix + Buffer.from(format.write(position), 'utf8').toString('base64url'),
    decode: (cursor) => {
      const text = cursor.startsWith(prefix) ? Buffer.from(cursor.slice(prefix.length), 'base64url').toString('utf8') : '';
      const position = text === '' ? null : format.read(text);
      if (position === null) throw refusal();
      return position;
    },
  };
}

/** Cursors of a position that is one piece of text (an id). */
export function plainCursors(prefix: string): CursorCodec<string> {
  return textCursors(prefix, { write: (position) => position, read: (text) => text });
}

/** A place in a list in creation order: the creation time as the database writes it, then the id. */
export interface CreatedPosition {
  createdAt: string;
  id: string;
}

/** Cursors of a (created at, id) position, written "createdAt|id". */
export function createdCursors(prefix: string): CursorCodec<CreatedPosition> {
  return textCursors(prefix, {
    write: (position) => `${position.createdAt}|${position.id}`,
    // A cursor's text reaches SQL as a timestamp and a uuid: one that is neither (made up, not
    // one we wrote) is refused here as not ours, instead of failing in the database.
    read: (text) => {
      const [createdAt, id, ...rest] = text.split('|');
      return createdAt && id && rest.length === 0 && isDatabaseTimestamp(createdAt) && UUID_PATTERN.test(id) ? { createdAt, id } : null;
    },
  });
}

/** A creation time as PostgreSQL writes a timestamptz as text ("2026-11-27 16:00:00.123456+00"). */
const DATABASE_TIMESTAMP_PATTERN = /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}(\.\d{1,6})?[+-]\d{2}(:\d{2}){0,2}$/;

function isDatabaseTimestamp(text: string): boolean {
  return DATABASE_TIMESTAMP_PATTERN.test(text) && !Number.isNaN(Date.parse(text.replace(' ', 'T').replace(/([+-]\d{2})$/, '$1:00')));
}

/** The position a cursor sent carries, or null when none was sent (the list starts at its beginning). */
export async function readCursor<Position>(codec: CursorCodec<Position>, cursor: string | null | undefined): Promise<Position | null> {
  return cursor === null || cursor === undefined ? null : await codec.decode(cursor);
}

/** The rows a repository reads for a page of `limit` entries: one more, which tells whether more follow. */
export function rowsToFetch(limit: number): number {
  return limit + 1;
}

/** A page cut from the rows read (rowsToFetch): its entries and whether more follow. */
export function cutPage<Row>(rows: readonly Row[], limit: number): { rows: Row[]; hasMore: boolean } {
  return { rows: rows.slice(0, limit), hasMore: rows.length > limit };
}

export interface Page<Row> {
  rows: Row[];
  hasMore: boolean;
  /** Where the next page starts: null on the last page. */
  nextCursor: string | null;
}

/** A page of a list: the cursor of its last entry when more follow, otherwise null. */
export async function pageOf<Row, Position>(
  rows: readonly Row[],
  limit: number,
  positionOf: (row: Row) => Position,
  codec: CursorCodec<Position>,
): Promise<Page<Row>> {
  const page = cutPage(rows, limit);
  const last = page.rows.at(-1);
  return { ...page, nextCursor: page.hasMore && last !== undefined ? await codec.encode(positionOf(last)) : null };
}

/**
 * A page of a feed, which a caller follows as it grows (the event feed, the audit trail): the
 * cursor of its last entry on every page, the last one too, and the cursor sent when the page is
 * empty, so that the caller asks again later from where it stands.
 */
export async function feedPageOf<Row, Position>(
  rows: readonly Row[],
  limit: number,
  positionOf: (row: Row) => Position,
  codec: CursorCodec<Position>,
  cursorSent: string | null,
): Promise<Page<Row>> {
  const page = cutPage(rows, limit);
  const last = page.rows.at(-1);
  return { ...page, nextCursor: last !== undefined ? await codec.encode(positionOf(last)) : cursorSent };
}
