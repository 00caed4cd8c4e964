import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { allocateGroup } from './allocation.ts';
import { searchSets, type SetCandidate } from './set-search.ts';

/** An amount in cents as a decimal text, built from integers so the test itself never rounds. */
const decimalOfCents = (cents: number) => `${Math.floor(cents / 100)}.${String(cents % 100).padStart(2, '0')}`;
const centsOf = (decimal: string) => {
  const [whole, fraction = ''] = decimal.split('.');
  return Number(whole) * 100 + Number(fraction.padEnd(2, '0').slice(0, 2));
};

const candidateArbitrary = fc.record({ cents: fc.integer({ min: 1, max: 50_000 }), dateTerm: fc.constantFrom(0, 0.2, 0.5, 1), textTerm: fc.constant(1) });

function candidatesOf(entries: { cents: number; dateTerm: number; textTerm: number }[]): SetCandidate[] {
  return entries.map((entry, index) => ({ id: `c${index}`, remaining: decimalOfCents(entry.cents), dateTerm: entry.dateTerm, textTerm: entry.textTerm }));
}

/** Every subset of up to maxSize members whose total is within tolerance: the answer by brute force. */
function bruteForce(anchorCents: number, toleranceCents: number, maxSize: number, candidates: SetCandidate[]): string[] {
  const found: string[] = [];
  const total = candidates.length;
  for (let mask = 1; mask < 1 << total; mask += 1) {
    const members = [...Array(total).keys()].filter((index) => mask & (1 << index));
    if (members.length > maxSize) continue;
    const sum = members.reduce((running, index) => running + centsOf(candidates[index]!.remaining), 0);
    if (Math.abs(sum - anchorCents) <= toleranceCents) found.push(members.join(','));
  }
  return found.sort();
}

describe('set search', () => {
  it('finds exactly the fitting sets that brute force finds, with exact sums', () => {
    fc.assert(
      fc.property(
        fc.array(candidateArbitrary, { minLength: 1, maxLength: 9 }),
        fc.integer({ min: 1, max: 120_000 }),
        fc.integer({ min: 0, max: 300 }),
        fc.integer({ min: 1, max: 5 }),
        (entries, anchorCents, toleranceCents, maxSize) => {
          const candidates = candidatesOf(entries);
          const result = searchSets({ anchorRemaining: decimalOfCents(anchorCents), tolerance: decimalOfCents(toleranceCents), maxSize, candidates });
          if (result.boundHit) return;
          assert.deepEqual(result.sets.map((set) => set.members.join(',')).sort(), bruteForce(anchorCents, toleranceCents, maxSize, candidates));
          for (const set of result.sets) {
            assert.ok(set.members.length <= maxSize);
            assert.equal(new Set(set.members).size, set.members.length);
          }
        },
      ),
      { numRuns: 400 },
    );
  });

  it('orders sets best first and gives the same answer whatever the order of the candidates', () => {
    fc.assert(
      fc.property(fc.array(candidateArbitrary, { minLength: 1, maxLength: 8 }), fc.integer({ min: 1, max: 80_000 }), (entries, anchorCents) => {
        const candidates = candidatesOf(entries);
        const forward = searchSets({ anchorRemaining: decimalOfCents(anchorCents), tolerance: '1.00', maxSize: 4, candidates });
        const reversed = searchSets({ anchorRemaining: decimalOfCents(anchorCents), tolerance: '1.00', maxSize: 4, candidates: [...candidates].reverse() });
        const idsOf = (result: typeof forward, list: SetCandidate[]) =>
          result.sets
            .map(
              (set) =>
                `${set.score}:${set.members
                  .map((index) => list[index]!.id)
                  .sort()
                  .join(',')}`,
            )
            .sort();
        assert.deepEqual(idsOf(forward, candidates), idsOf(reversed, [...candidates].reverse()));
        for (let index = 1; index < forward.sets.length; index += 1) assert.ok(forward.sets[index - 1]!.score >= forward.sets[index]!.score);
      }),
      { numRuns: 300 },
    );
  });

  it('stops at its step bound and says so instead of answering from a partial search', () => {
    const candidates = candidatesOf(Array.from({ length: 40 }, () => ({ cents: 100, dateTerm: 0, textTerm: 1 })));
    const result = searchSets({ anchorRemaining: '5.00', tolerance: '0', maxSize: 5, candidates, limits: { steps: 1_000, solutions: 50 } });
    assert.equal(result.boundHit, true);
  });

  it('finds a one-member set: a 1:N rule also makes 1:1 matches', () => {
    const result = searchSets({
      anchorRemaining: '10.00',
      tolerance: '0',
      maxSize: 3,
      candidates: candidatesOf([
        { cents: 1000, dateTerm: 0, textTerm: 1 },
        { cents: 300, dateTerm: 0, textTerm: 1 },
      ]),
    });
    assert.deepEqual(
      result.sets.map((set) => set.members),
      [[0]],
    );
  });
});

describe('group allocation', () => {
  const memberArbitrary = fc.array(fc.integer({ min: 1, max: 100_000 }), { minLength: 1, maxLength: 6 });

  it('never allocates beyond what is left of either side, and with an adjustment both sides end full', () => {
    fc.assert(
      fc.property(memberArbitrary, memberArbitrary, fc.boolean(), (originCents, targetCents, adjust) => {
        const origins = originCents.map((cents, index) => ({ id: `o${index}`, datasetId: 'bank', remaining: decimalOfCents(cents) }));
        const targets = targetCents.map((cents, index) => ({ id: `t${index}`, datasetId: 'ledger', remaining: decimalOfCents(cents) }));
        const allocation = allocateGroup(origins, targets, adjust);
        if (allocation === null) return;
        const allocated = new Map<string, number>();
        for (const link of allocation.links) {
          assert.ok(centsOf(link.amount) > 0, 'every link allocates something');
          allocated.set(link.originId, (allocated.get(link.originId) ?? 0) + centsOf(link.amount) + centsOf(link.originAdjustment));
          allocated.set(link.targetId, (allocated.get(link.targetId) ?? 0) + centsOf(link.amount) + centsOf(link.targetAdjustment));
        }
        for (const member of [...origins, ...targets]) {
          const used = allocated.get(member.id) ?? 0;
          assert.ok(used <= centsOf(member.remaining), `${member.id}: ${used} > ${member.remaining}`);
          if (adjust) assert.equal(used, centsOf(member.remaining), `${member.id} is full with the adjustment`);
        }
        const originTotal = originCents.reduce((sum, cents) => sum + cents, 0);
        const targetTotal = targetCents.reduce((sum, cents) => sum + cents, 0);
        assert.equal(centsOf(allocation.adjustmentAmount), adjust ? Math.abs(originTotal - targetTotal) : 0);
      }),
      { numRuns: 500 },
    );
  });

  it('keeps sub-cent amounts exact', () => {
    const allocation = allocateGroup(
      [{ id: 'o', datasetId: 'bank', remaining: '0.3' }],
      [
        { id: 'a', datasetId: 'ledger', remaining: '0.1' },
        { id: 'b', datasetId: 'ledger', remaining: '0.2' },
      ],
      false,
    );
    assert.deepEqual(
      allocation?.links.map((link) => link.amount),
      ['0.1', '0.2'],
    );
  });
});
