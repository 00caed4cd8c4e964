import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { describe, it } from 'node:test';
import { AppError, listErrors } from '../errors.ts';
import { createdCursors, cutPage, feedPageOf, pageOf, pageSize, plainCursors, readCursor, rowsToFetch, textCursors } from './pages.ts';
import { SealedPositions } from './sealed-positions.ts';
import { transactionCursors } from './transactions/cursor.ts';

const NOT_OURS = /^cursor: is not a cursor this service issued; pass the nextCursor of an earlier answer unchanged, or leave it out/;

describe('page sizes', () => {
  it('start at one entry and name their default and maximum', () => {
    assert.deepEqual(pageSize(50, 200), { minimumEntries: 1, defaultEntries: 50, maximumEntries: 200 });
  });

  it('read one row more than the page, which tells whether more follow', () => {
    assert.equal(rowsToFetch(100), 101);
    assert.deepEqual(cutPage([1, 2, 3], 2), { rows: [1, 2], hasMore: true });
    assert.deepEqual(cutPage([1, 2], 2), { rows: [1, 2], hasMore: false });
    assert.deepEqual(cutPage([], 2), { rows: [], hasMore: false });
  });
});

describe('cursors in clear', () => {
  it('keep the wire format clients hold: the prefix, then the position in base64url', async () => {
    const runs = createdCursors('r1.');
    const position = { createdAt: '2026-01-02 03:04:05.123456+00', id: '0b5c1b9e-8f5e-4a43-9a55-6f0a2b1c3d4e' };
    const cursor = await runs.encode(position);
    assert.equal(cursor, `r1.${Buffer.from(`${position.createdAt}|${position.id}`).toString('base64url')}`);
    assert.deepEqual(await runs.decode(cursor), position);
    assert.equal(await plainCursors('r1.').encode('abc'), 'r1.YWJj');
    assert.equal(await plainCursors('r1.').decode('r1.YWJj'), 'abc');
  });

  it("refuse another list's cursor, an empty one, and a position the list never writes", async () => {
    const suggestions = createdCursors('s1.');
    const made = (text: string) => `s1.${Buffer.from(text).toString('base64url')}`;
    const id = '0b5c1b9e-8f5e-4a43-9a55-6f0a2b1c3d4e';
    for (const cursor of [
      await createdCursors('wd_').encode({ createdAt: 'x', id: 'y' }),
      's1.',
      made('no-bar'),
      // Made up in the right shape: a position the database could not read, refused as not ours.
      made(`garbage|${id}`),
      made('2026-01-02 03:04:05+00|not-a-uuid'),
      made(`2026-13-45 03:04:05+00|${id}`),
      made(`2026-01-02 03:04:05+00|${id}|more`),
    ]) {
      assert.throws(
        () => suggestions.decode(cursor),
        (error: unknown) => error instanceof AppError && NOT_OURS.test(error.message),
      );
    }
  });

  it("refuse with the list's own words when it has them", () => {
    const codec = textCursors('i1.', { write: String, read: () => null, refusal: listErrors.importsCursorNotOurs });
    assert.throws(() => codec.decode('i1.eA'), /^AppError: cursor: is not a cursor this service issued; pass the nextCursor of an earlier answer unchanged$/);
  });

  it('read no position when no cursor was sent', async () => {
    assert.equal(await readCursor(plainCursors('r1.'), null), null);
    assert.equal(await readCursor(plainCursors('r1.'), undefined), null);
    assert.equal(await readCursor(plainCursors('r1.'), 'r1.YWJj'), 'abc');
  });
});

describe('pageOf', () => {
  const codec = plainCursors('t.');

  it('gives the cursor of the last entry when more follow, and none on the last page', async () => {
    const rows = ['a', 'b', 'c'];
    assert.deepEqual(await pageOf(rows, 2, (row) => row, codec), { rows: ['a', 'b'], hasMore: true, nextCursor: await codec.encode('b') });
    assert.deepEqual(await pageOf(rows, 3, (row) => row, codec), { rows, hasMore: false, nextCursor: null });
    assert.deepEqual(await pageOf([], 3, (row: string) => row, codec), { rows: [], hasMore: false, nextCursor: null });
  });

  it('of a feed, gives the cursor of its last entry on every page, and the cursor sent on an empty one', async () => {
    assert.deepEqual(await feedPageOf(['a', 'b'], 2, (row) => row, codec, null), { rows: ['a', 'b'], hasMore: false, nextCursor: await codec.encode('b') });
    assert.deepEqual(await feedPageOf(['a', 'b', 'c'], 2, (row) => row, codec, null), {
      rows: ['a', 'b'],
      hasMore: true,
      nextCursor: await codec.encode('b'),
    });
    assert.deepEqual(await feedPageOf([], 2, (row: string) => row, codec, 't.eA'), { rows: [], hasMore: false, nextCursor: 't.eA' });
  });

  it('takes sealed positions and the transactions cursor as codecs like any other', async () => {
    const sealed = new SealedPositions(async () => randomBytes(32)).cursors('ev2_', 'org-a', 'ev_');
    const page = await pageOf([{ place: 7n }, { place: 8n }], 1, (row) => row.place, sealed);
    assert.equal(await sealed.decode(page.nextCursor!), 7n);
    await assert.rejects(async () => sealed.decode('ev_Nw'), /earlier version of this service/);

    const position = { order: 'asc' as const, after: { timestampMs: 1, id: '0b5c1b9e-8f5e-4a43-9a55-6f0a2b1c3d4e' }, queryHash: 'abc' };
    const transactions = await pageOf([position, position], 1, (row) => row, transactionCursors);
    assert.equal(transactions.nextCursor, Buffer.from(JSON.stringify([1, 'a', 1, position.after.id, 'abc'])).toString('base64url'));
    assert.deepEqual(transactionCursors.decode(transactions.nextCursor!), position);
  });
});
