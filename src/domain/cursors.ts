import { invalidField } from '../errors.ts';

/**
 * The cursors of lists (runs, their results, suggestions, webhook deliveries): a position in the list,
 * opaque to the caller, tagged with the list it belongs to so that a cursor of one list is
 * refused by another.
 */

const CURSOR_POINTER = '/querystring/cursor';

export function encodeCursor(prefix: string, position: string): string {
  return prefix + Buffer.from(position, 'utf8').toString('base64url');
}

export function decodeCursor(prefix: string, cursor: string): string {
  const position = cursor.startsWith(prefix) ? Buffer.from(cursor.slice(prefix.length), 'base64url').toString('utf8') : '';
  if (position === '') throw notOurCursor();
  return position;
}

/** A (created at, id) position, for lists in creation order. */
export function encodeCreatedCursor(prefix: string, position: { createdAt: string; id: string }): string {
  return encodeCursor(prefix, `${position.createdAt}|${position.id}`);
}

export function decodeCreatedCursor(prefix: string, cursor: string): { createdAt: string; id: string } {
  const [createdAt, id] = decodeCursor(prefix, cursor).split('|');
  if (!createdAt || !id) throw notOurCursor();
  return { createdAt, id };
}

export function notOurCursor() {
  return invalidField(CURSOR_POINTER, 'is not a cursor this service issued; pass the nextCursor of an earlier answer unchanged, or leave it out to start at the beginning');
}
