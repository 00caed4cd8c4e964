import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { allocateNetted, commonScale, unitsAt, type NettedAllocation } from './allocation.ts';

/** Cents as a decimal text, by integer arithmetic alone. */
const decimalOfCents = (cents: number) => `${Math.floor(cents / 100)}.${String(cents % 100).padStart(2, '0')}`;
const deposit = (remaining: string) => ({ id: 'deposit', datasetId: 'bank', remaining });
const member = (id: string, remaining: string, offsets = false) => ({ id, datasetId: 'provider', remaining, offsets });

/** What each transaction counts as allocated by the links: as ALLOCATIONS_OF_SQL counts it, in units at `scale`. */
function allocatedBy(allocation: NettedAllocation, scale: number): Map<string, bigint> {
  const totals = new Map<string, bigint>();
  const add = (id: string, units: bigint) => totals.set(id, (totals.get(id) ?? 0n) + units);
  for (const link of allocation.links) {
    const amount = unitsAt(link.amount, scale);
    add(link.originId, (link.reduces === 'origin' ? -amount : amount) + unitsAt(link.originAdjustment, scale));
    add(link.targetId, (link.reduces === 'target' ? -amount : amount) + unitsAt(link.targetAdjustment, scale));
  }
  return totals;
}

describe('allocateNetted: a payout against its deposit', () => {
  it('gives every member one link for all it has left; refunds and fees reduce the deposit', () => {
    const allocation = allocateNetted(deposit('20.00'), [member('c1', '10.00'), member('r1', '5.00', true), member('c2', '15.00')], 'origin', false)!;
    assert.equal(allocation.net, '20.00');
    assert.equal(allocation.adjustmentAmount, '0.00');
    assert.deepEqual(
      allocation.links.map((link) => [link.targetId, link.amount, link.reduces ?? null]),
      [
        ['c1', '10.00', null],
        ['r1', '5.00', 'origin'],
        ['c2', '15.00', null],
      ],
    );
    assert.deepEqual(
      allocatedBy(allocation, 2),
      new Map([
        ['deposit', 2000n],
        ['c1', 1000n],
        ['r1', 500n],
        ['c2', 1500n],
      ]),
    );
  });

  it('closes a difference by an adjustment: on the last charge when the net is more, on the deposit when it is less', () => {
    const more = allocateNetted(deposit('19.50'), [member('c1', '10.00'), member('c2', '15.00'), member('f1', '5.00', true)], 'origin', true)!;
    assert.equal(more.adjustmentAmount, '0.50');
    assert.deepEqual(more.links[1], {
      originId: 'deposit',
      originDatasetId: 'bank',
      targetId: 'c2',
      targetDatasetId: 'provider',
      amount: '14.50',
      originAdjustment: '0.00',
      targetAdjustment: '0.50',
    });
    const less = allocateNetted(deposit('20.30'), [member('c1', '10.00'), member('c2', '15.00'), member('f1', '5.00', true)], 'origin', true)!;
    assert.equal(less.adjustmentAmount, '0.30');
    assert.equal(less.links[1]!.originAdjustment, '0.30');
    // Without an adjustment the deposit keeps the difference open.
    const open = allocateNetted(deposit('20.30'), [member('c1', '10.00'), member('c2', '15.00'), member('f1', '5.00', true)], 'origin', false)!;
    assert.equal(allocatedBy(open, 2).get('deposit'), 2000n);
  });

  it('reduces the target when the deposit is the target (N:1)', () => {
    const allocation = allocateNetted(deposit('5.00'), [member('c1', '10.00'), member('r1', '5.00', true)], 'target', false)!;
    assert.deepEqual(
      allocation.links.map((link) => [link.originId, link.targetId, link.reduces ?? null]),
      [
        ['c1', 'deposit', null],
        ['r1', 'deposit', 'target'],
      ],
    );
    assert.equal(allocatedBy(allocation, 2).get('deposit'), 500n);
  });

  it('refuses a group that nets to nothing, or whose difference is more than its last charge', () => {
    assert.equal(allocateNetted(deposit('1.00'), [member('c1', '5.00'), member('r1', '5.00', true)], 'origin', true), null);
    assert.equal(allocateNetted(deposit('1.00'), [member('c1', '5.00'), member('c2', '1.00')], 'origin', true), null);
  });

  it('never allocates more than a transaction has, and with an adjustment leaves none open (property)', () => {
    fc.assert(
      fc.property(
        fc.array(fc.record({ cents: fc.integer({ min: 1, max: 100_000 }), offsets: fc.boolean() }), { minLength: 1, maxLength: 30 }),
        fc.integer({ min: -500, max: 500 }),
        (entries, differenceCents) => {
          const members = entries.map((entry, index) => member(`m${index}`, decimalOfCents(entry.cents), entry.offsets));
          const net = entries.reduce((total, entry) => total + (entry.offsets ? -entry.cents : entry.cents), 0);
          const depositCents = net + differenceCents;
          if (depositCents <= 0) return;
          const allocation = allocateNetted(deposit(decimalOfCents(depositCents)), members, 'origin', true);
          if (allocation === null) return;
          const scale = commonScale(allocation.links.map((link) => link.amount));
          const totals = allocatedBy(allocation, Math.max(scale, 2));
          assert.equal(totals.get('deposit'), BigInt(depositCents));
          for (const [index, entry] of entries.entries()) assert.equal(totals.get(`m${index}`), BigInt(entry.cents));
          for (const link of allocation.links) assert.ok(unitsAt(link.amount, 2) > 0n);
        },
      ),
    );
  });
});
