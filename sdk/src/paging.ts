/**
 * Async iterators over lists. The lists of this service carry a cursor (in the body, or for the
 * transactions query in the X-Next-Cursor header); a server that implements only the published
 * interface sends none, and is read by offset until a page comes back short.
 */

/** One page of a list whose answers carry `nextCursor` in the body. */
export interface CursorPage<T> {
  items: T[];
  nextCursor: string | null;
}

/** Every item of a body-cursor list, page after page, until `nextCursor` is null. */
export async function* itemsByBodyCursor<T>(readPage: (cursor: string | undefined) => Promise<CursorPage<T>>): AsyncGenerator<T, void, undefined> {
  let cursor: string | undefined;
  // A server that sent the same cursor twice would loop for ever; that is its bug, reported here.
  const seen = new Set<string>();
  for (;;) {
    const page = await readPage(cursor);
    yield* page.items;
    if (page.nextCursor === null || page.nextCursor === undefined) return;
    if (seen.has(page.nextCursor)) throw new Error(`the server sent the cursor ${page.nextCursor} twice; stopping instead of reading the same page again`);
    seen.add(page.nextCursor);
    cursor = page.nextCursor;
  }
}

/** The first `limit` items of an async iterable, as an array (all of them without a limit). */
export async function collect<T>(items: AsyncIterable<T>, limit: number = Number.POSITIVE_INFINITY): Promise<T[]> {
  const collected: T[] = [];
  if (limit <= 0) return collected;
  for await (const item of items) {
    collected.push(item);
    if (collected.length >= limit) break;
  }
  return collected;
}
