import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { transactionCursors } from './cursor.ts';
import { PageBoundaryCache } from './page-boundaries.ts';

const position = (timestampMs: number) => ({ timestampMs, id: '00000000-0000-4000-8000-000000000001' });

describe('PageBoundaryCache', () => {
  it('finds the nearest boundary at or before an offset', () => {
    const cache = new PageBoundaryCache();
    cache.remember('q', 3, 100, position(1));
    cache.remember('q', 3, 300, position(3));
    cache.remember('q', 3, 200, position(2));
    assert.equal(cache.find('q', 99), undefined);
    assert.deepEqual(cache.find('q', 100), { offset: 100, position: position(1), revision: 3 });
    assert.deepEqual(cache.find('q', 250), { offset: 200, position: position(2), revision: 3 });
    assert.deepEqual(cache.find('q', 10_000), { offset: 300, position: position(3), revision: 3 });
    assert.equal(cache.find('other', 10_000), undefined);
  });

  it('forgets the boundaries of an older revision and ignores late answers from one', () => {
    const cache = new PageBoundaryCache();
    cache.remember('q', 3, 100, position(1));
    cache.remember('q', 4, 200, position(2));
    assert.equal(cache.find('q', 150), undefined);
    assert.equal(cache.find('q', 250)?.revision, 4);
    cache.remember('q', 3, 300, position(3));
    assert.equal(cache.find('q', 350)?.offset, 200);
  });

  it('stays within its bounds, keeping the most recently used boundaries and queries', () => {
    const cache = new PageBoundaryCache(2, 3);
    for (let offset = 100; offset <= 500; offset += 100) cache.remember('q', 1, offset, position(offset));
    assert.equal(cache.find('q', 250), undefined);
    assert.equal(cache.find('q', 599)?.offset, 500);
    cache.remember('r', 1, 100, position(1));
    cache.remember('s', 1, 100, position(1));
    assert.equal(cache.size, 2);
    assert.equal(cache.find('q', 599), undefined);
  });
});

describe('query cursors', () => {
  it('round-trip and refuse anything that is not one', () => {
    const cursor = { order: 'desc' as const, after: { timestampMs: 1_700_000_000_000, id: '0d6f9b8e-2a31-4c57-9e0f-6a1b2c3d4e5f' }, queryHash: 'abcDEF_-123' };
    const text = transactionCursors.encode(cursor);
    assert.match(text, /^[A-Za-z0-9_-]+$/);
    assert.deepEqual(transactionCursors.decode(text), cursor);
    for (const bad of ['', 'not a cursor', Buffer.from('[2,"a",1,"x","h"]').toString('base64url'), Buffer.from('{}').toString('base64url')]) {
      assert.throws(() => transactionCursors.decode(bad), /\/cursor: is not a cursor this service issued/);
    }
  });
});
