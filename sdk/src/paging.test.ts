import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { collect, itemsByBodyCursor, type CursorPage } from './paging.ts';

/** A list served from a table of pages by cursor, recording every cursor asked for (and refusing to loop for ever). */
function pagedList<T>(pages: Record<string, CursorPage<T>>) {
  const asked: Array<string | undefined> = [];
  const readPage = async (cursor: string | undefined): Promise<CursorPage<T>> => {
    asked.push(cursor);
    if (asked.length > 20) throw new Error(`read ${asked.length} pages of a list of ${Object.keys(pages).length}`);
    const page = pages[cursor ?? 'first'];
    if (page === undefined) throw new Error(`no page for cursor ${cursor}`);
    return page;
  };
  return { readPage, asked };
}

describe('itemsByBodyCursor', () => {
  it('follows nextCursor page after page and stops at null', async () => {
    const list = pagedList<number>({
      first: { items: [1, 2], nextCursor: 'b' },
      b: { items: [3], nextCursor: 'c' },
      c: { items: [], nextCursor: 'd' },
      d: { items: [4, 5], nextCursor: null },
    });
    const items: number[] = [];
    for await (const item of itemsByBodyCursor(list.readPage)) items.push(item);
    assert.deepEqual(items, [1, 2, 3, 4, 5]);
    assert.deepEqual(list.asked, [undefined, 'b', 'c', 'd']);
  });

  it('stops at a page without nextCursor', async () => {
    const list = pagedList<string>({ first: { items: ['only'], nextCursor: undefined as unknown as null } });
    assert.deepEqual(await collect(itemsByBodyCursor(list.readPage)), ['only']);
    assert.deepEqual(list.asked, [undefined]);
  });

  it('reads nothing until iterated', async () => {
    const list = pagedList<number>({ first: { items: [1], nextCursor: null } });
    const items = itemsByBodyCursor(list.readPage);
    assert.deepEqual(list.asked, []);
    assert.deepEqual(await items.next(), { value: 1, done: false });
    assert.deepEqual(list.asked, [undefined]);
  });

  it('throws when the server sends a cursor it sent before, after the items it did send', async () => {
    const list = pagedList<number>({
      first: { items: [1], nextCursor: 'x' },
      x: { items: [2], nextCursor: 'y' },
      y: { items: [3], nextCursor: 'x' },
    });
    const items: number[] = [];
    await assert.rejects(
      (async () => {
        for await (const item of itemsByBodyCursor(list.readPage)) items.push(item);
      })(),
      { name: 'Error', message: 'the server sent the cursor x twice; stopping instead of reading the same page again' },
    );
    assert.deepEqual(items, [1, 2, 3]);
    assert.deepEqual(list.asked, [undefined, 'x', 'y']);
  });

  it('throws when a page names itself as the next', async () => {
    const list = pagedList<number>({ first: { items: [1], nextCursor: 'same' }, same: { items: [2], nextCursor: 'same' } });
    await assert.rejects(collect(itemsByBodyCursor(list.readPage)), {
      message: 'the server sent the cursor same twice; stopping instead of reading the same page again',
    });
    assert.deepEqual(list.asked, [undefined, 'same']);
  });

  it('passes on the error of a page', async () => {
    const failure = new Error('503');
    const items = itemsByBodyCursor<number>(async (cursor) => {
      if (cursor === undefined) return { items: [1], nextCursor: 'next' };
      throw failure;
    });
    assert.deepEqual(await items.next(), { value: 1, done: false });
    await assert.rejects(items.next(), (error) => error === failure);
  });
});

describe('collect', () => {
  it('gathers every item without a limit', async () => {
    const list = pagedList<number>({ first: { items: [1, 2], nextCursor: 'b' }, b: { items: [3], nextCursor: null } });
    assert.deepEqual(await collect(itemsByBodyCursor(list.readPage)), [1, 2, 3]);
  });

  it('stops at the limit and reads no page beyond it', async () => {
    const list = pagedList<number>({
      first: { items: [1, 2], nextCursor: 'b' },
      b: { items: [3, 4], nextCursor: 'c' },
      c: { items: [5, 6], nextCursor: null },
    });
    assert.deepEqual(await collect(itemsByBodyCursor(list.readPage), 3), [1, 2, 3]);
    assert.deepEqual(list.asked, [undefined, 'b']);

    const exact = pagedList<number>({ first: { items: [1, 2], nextCursor: 'b' }, b: { items: [3, 4], nextCursor: null } });
    assert.deepEqual(await collect(itemsByBodyCursor(exact.readPage), 2), [1, 2]);
    assert.deepEqual(exact.asked, [undefined]);
  });

  it('gives everything when the limit is larger than the list', async () => {
    const list = pagedList<number>({ first: { items: [1, 2], nextCursor: null } });
    assert.deepEqual(await collect(itemsByBodyCursor(list.readPage), 10), [1, 2]);
  });

  it('reads nothing for a limit of 0 or less', async () => {
    const list = pagedList<number>({ first: { items: [1, 2], nextCursor: null } });
    assert.deepEqual(await collect(itemsByBodyCursor(list.readPage), 0), []);
    assert.deepEqual(await collect(itemsByBodyCursor(list.readPage), -1), []);
    assert.deepEqual(list.asked, []);
  });

  it('closes the iterable it stops early', async () => {
    let closed = false;
    async function* numbers() {
      try {
        for (let value = 1; value <= 100; value += 1) yield value;
      } finally {
        closed = true;
      }
    }
    assert.deepEqual(await collect(numbers(), 4), [1, 2, 3, 4]);
    assert.equal(closed, true);
  });
});
