import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { describe, it } from 'node:test';
import { SealedPositions } from './sealed-positions.ts';

describe('SealedPositions', () => {
  const positions = new SealedPositions(async () => randomBytes(32));

  it('gives back the position sealed, for the same list and binding only', async () => {
    for (const position of [0n, 1n, 4_294_967_297n, 2n ** 63n - 1n]) {
      const cursor = await positions.seal('ev2_', 'org-a', position);
      assert.equal(await positions.open('ev2_', 'org-a', cursor), position);
      await assert.rejects(positions.open('ev2_', 'org-b', cursor), /not a cursor this service issued/);
      await assert.rejects(positions.open('a2.', 'org-a', `a2.${cursor.slice(4)}`), /not a cursor this service issued/);
    }
  });

  it('seals one position to one cursor, of one length whatever the position', async () => {
    const cursors = await Promise.all([5n, 5n, 6n, 10n ** 18n].map((position) => positions.seal('a2.', 'org-a', position)));
    assert.equal(cursors[0], cursors[1]);
    assert.notEqual(cursors[0], cursors[2]);
    assert.deepEqual(new Set(cursors.map((cursor) => cursor.length)).size, 1);
  });

  it("refuses altered cursors, and an earlier version's with its own message", async () => {
    const cursor = await positions.seal('a2.', 'org-a', 42n);
    const altered = cursor.slice(0, 10) + (cursor[10] === 'A' ? 'B' : 'A') + cursor.slice(11);
    await assert.rejects(positions.open('a2.', 'org-a', altered), /not a cursor this service issued/);
    await assert.rejects(positions.open('a2.', 'org-a', cursor.slice(0, -1)), /not a cursor this service issued/);
    await assert.rejects(positions.open('a2.', 'org-a', 'a1.NDI', 'a1.'), /earlier version of this service/);
  });

  it('cannot be opened under another instance key', async () => {
    const other = new SealedPositions(async () => randomBytes(32));
    await assert.rejects(other.open('a2.', 'org-a', await positions.seal('a2.', 'org-a', 7n)), /not a cursor this service issued/);
  });
});
