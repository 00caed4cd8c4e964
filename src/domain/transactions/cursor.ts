import { listErrors } from '../../errors.ts';
import type { RowPosition, SortOrder } from '../../db/repositories/transaction-query.ts';
import { UUID_PATTERN } from '../identifiers.ts';
import type { CursorCodec } from '../pages.ts';

/**
 * The X-Next-Cursor token: where the next page starts (the last row of this one), in which
 * order, and a fingerprint of the query it belongs to. It is opaque to clients (base64url of a
 * small JSON array) and carries nothing a client could not see in the page itself, so it needs
 * no signature; a cursor that does not fit the query it is sent with is refused.
 */
export interface QueryCursor {
  order: SortOrder;
  after: RowPosition;
  /** The query fingerprint (dataset, from/to, search, order) the cursor was issued for. */
  queryHash: string;
}

const CURSOR_VERSION = 1;
const HASH_PATTERN = /^[A-Za-z0-9_-]{1,64}$/;

/**
 * The transactions query's cursors, as a list's cursor codec. Their format is part of the
 * published interface: clients hold such cursors, so it does not change.
 */
export const transactionCursors = { encode: encodeCursor, decode: decodeCursor } satisfies CursorCodec<QueryCursor>;

function encodeCursor(cursor: QueryCursor): string {
  const payload = [CURSOR_VERSION, cursor.order === 'asc' ? 'a' : 'd', cursor.after.timestampMs, cursor.after.id, cursor.queryHash];
  return Buffer.from(JSON.stringify(payload), 'utf8').toString('base64url');
}

const notACursor = listErrors.transactionsCursorNotOurs;

function decodeCursor(text: string): QueryCursor {
  if (!/^[A-Za-z0-9_-]+$/.test(text)) throw notACursor();
  let payload: unknown;
  try {
    payload = JSON.parse(Buffer.from(text, 'base64url').toString('utf8'));
  } catch {
    throw notACursor();
  }
  if (!Array.isArray(payload) || payload.length !== 5) throw notACursor();
  const [version, order, timestampMs, id, queryHash] = payload as unknown[];
  if (
    version !== CURSOR_VERSION ||
    (order !== 'a' && order !== 'd') ||
    typeof timestampMs !== 'number' ||
    !Number.isSafeInteger(timestampMs) ||
    typeof id !== 'string' ||
    !UUID_PATTERN.test(id) ||
    typeof queryHash !== 'string' ||
    !HASH_PATTERN.test(queryHash)
  ) {
    throw notACursor();
  }
  return { order: order === 'a' ? 'asc' : 'desc', after: { timestampMs, id }, queryHash };
}
