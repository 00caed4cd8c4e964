import { listErrors } from '../../errors.ts';
import type { RowPosition, SortField, SortOrder } from '../../db/repositories/transaction-query.ts';
import { UUID_PATTERN } from '../identifiers.ts';
import type { CursorCodec } from '../pages.ts';

/**
 * The X-Next-Cursor token: where the next page starts (the last row of this one), in which
 * order and sort, and a fingerprint of the query it belongs to. It is opaque to clients
 * (base64url of a small JSON array) and carries nothing a client could not see in the page
 * itself, so it needs no signature; a cursor that does not fit the query it is sent with is
 * refused.
 */
export interface QueryCursor {
  order: SortOrder;
  /** Absent: by timestamp, the published order. */
  sort?: SortField;
  after: RowPosition;
  /** The query fingerprint (dataset, from/to, search, order, sort) the cursor was issued for. */
  queryHash: string;
}

/** Cursors in (timestamp, id) order: their format is the one clients already hold. */
const CURSOR_VERSION = 1;
/** Cursors of another sort: the version-1 array with the sort after the order. */
const SORTED_CURSOR_VERSION = 2;
const HASH_PATTERN = /^[A-Za-z0-9_-]{1,64}$/;
const SORT_LETTERS = { amount: 'm', description: 's' } as const;

/**
 * The transactions query's cursors, as a list's cursor codec. Their format is part of the
 * published interface: clients hold such cursors, so it does not change (a cursor of another
 * sort is a version of its own).
 */
export const transactionCursors = { encode: encodeCursor, decode: decodeCursor } satisfies CursorCodec<QueryCursor>;

function encodeCursor(cursor: QueryCursor): string {
  const order = cursor.order === 'asc' ? 'a' : 'd';
  const { timestampMs, id } = cursor.after;
  const payload =
    cursor.sort === undefined || cursor.sort === 'timestamp'
      ? [CURSOR_VERSION, order, timestampMs, id, cursor.queryHash]
      : [SORTED_CURSOR_VERSION, order, SORT_LETTERS[cursor.sort], timestampMs, id, cursor.queryHash];
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
  if (!Array.isArray(payload)) throw notACursor();
  let sort: SortField | undefined;
  let rest: unknown[];
  if (payload[0] === CURSOR_VERSION && payload.length === 5) {
    rest = payload.slice(1);
  } else if (payload[0] === SORTED_CURSOR_VERSION && payload.length === 6) {
    sort = (Object.keys(SORT_LETTERS) as (keyof typeof SORT_LETTERS)[]).find((field) => SORT_LETTERS[field] === payload[2]);
    if (sort === undefined) throw notACursor();
    rest = [payload[1], ...payload.slice(3)];
  } else {
    throw notACursor();
  }
  const [order, timestampMs, id, queryHash] = rest;
  if (
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
  return { order: order === 'a' ? 'asc' : 'desc', ...(sort === undefined ? {} : { sort }), after: { timestampMs, id }, queryHash };
}
