import { fromScaled, toScaled } from '../money.ts';

/**
 * Exact decimal arithmetic for matching: amounts become BigInt counts of units at one common
 * scale, are added and compared as integers, and leave as decimal texts. No amount is ever a
 * floating-point number.
 */

/** The largest scale (digits after the point) among decimal texts. */
export function commonScale(decimals: readonly string[]): number {
  let scale = 0;
  for (const decimal of decimals) {
    const point = decimal.indexOf('.');
    if (point >= 0) scale = Math.max(scale, decimal.length - point - 1);
  }
  return scale;
}

/** A decimal text as units at `scale` (which must be at least its own scale). */
export function unitsAt(decimal: string, scale: number): bigint {
  const scaled = toScaled(decimal);
  return scaled.units * 10n ** BigInt(scale - scaled.scale);
}

export function decimalOf(units: bigint, scale: number): string {
  return fromScaled({ units, scale });
}

export interface AllocationMember {
  id: string;
  datasetId: string;
  /** What is left to allocate: a positive decimal text. */
  remaining: string;
}

export interface AllocatedLink {
  originId: string;
  originDatasetId: string;
  targetId: string;
  targetDatasetId: string;
  amount: string;
  /** Counted toward the origin's (or target's) allocated total beyond `amount`: the adjustment. */
  originAdjustment: string;
  targetAdjustment: string;
}

export interface GroupAllocation {
  links: AllocatedLink[];
  /** The difference closed by an adjustment (zero without one): a positive decimal text or "0". */
  adjustmentAmount: string;
}

/**
 * Allocates a group's origins to its targets (SPEC §4: never beyond what is left of either
 * side). Both lists are taken in the given order and filled like two columns of a ledger: each
 * link allocates the smaller of what is left of its two ends. What is left over on the side with
 * the larger total is the difference; with `adjust` it is recorded as an adjustment on the last
 * link of each transaction that has some left, so that both sides count as fully allocated.
 *
 * Returns null when some member would get no link at all (the other side ran out before reaching
 * it): such a group does not really involve that member, and is not made.
 */
export function allocateGroup(origins: readonly AllocationMember[], targets: readonly AllocationMember[], adjust: boolean): GroupAllocation | null {
  const scale = commonScale([...origins, ...targets].map((member) => member.remaining));
  const originLeft = origins.map((member) => unitsAt(member.remaining, scale));
  const targetLeft = targets.map((member) => unitsAt(member.remaining, scale));
  if ([...originLeft, ...targetLeft].some((units) => units <= 0n)) return null;
  const links: { origin: number; target: number; amount: bigint; originAdjustment: bigint; targetAdjustment: bigint }[] = [];
  let originIndex = 0;
  let targetIndex = 0;
  while (originIndex < origins.length && targetIndex < targets.length) {
    const amount = originLeft[originIndex]! < targetLeft[targetIndex]! ? originLeft[originIndex]! : targetLeft[targetIndex]!;
    links.push({ origin: originIndex, target: targetIndex, amount, originAdjustment: 0n, targetAdjustment: 0n });
    originLeft[originIndex]! -= amount;
    targetLeft[targetIndex]! -= amount;
    if (originLeft[originIndex] === 0n) originIndex += 1;
    if (targetLeft[targetIndex] === 0n) targetIndex += 1;
  }
  const linkedOrigins = new Set(links.map((link) => link.origin));
  const linkedTargets = new Set(links.map((link) => link.target));
  if (linkedOrigins.size !== origins.length || linkedTargets.size !== targets.length) return null;
  let adjustment = 0n;
  if (adjust) {
    for (const [side, left] of [
      ['origin', originLeft],
      ['target', targetLeft],
    ] as const) {
      left.forEach((units, index) => {
        if (units <= 0n) return;
        const last = [...links].reverse().find((link) => link[side] === index)!;
        if (side === 'origin') last.originAdjustment += units;
        else last.targetAdjustment += units;
        adjustment += units;
      });
    }
  }
  return {
    adjustmentAmount: decimalOf(adjustment, scale),
    links: links.map((link) => ({
      originId: origins[link.origin]!.id,
      originDatasetId: origins[link.origin]!.datasetId,
      targetId: targets[link.target]!.id,
      targetDatasetId: targets[link.target]!.datasetId,
      amount: decimalOf(link.amount, scale),
      originAdjustment: decimalOf(link.originAdjustment, scale),
      targetAdjustment: decimalOf(link.targetAdjustment, scale),
    })),
  };
}

/** A member of a netted group: `offsets` when its sign is against the counterpart's (a refund, a fee). */
export interface NettedMember extends AllocationMember {
  offsets: boolean;
}

/** A netted group's allocation: the links, the adjustment, and the group's net total. */
export interface NettedAllocation extends GroupAllocation {
  links: (AllocatedLink & { reduces?: 'origin' | 'target' })[];
  /** What the members come to: those of the counterpart's sign less those against it. */
  net: string;
}

/**
 * Allocates a payout (SPEC §16): one transaction (the deposit, on `anchorSide`) against the
 * members of a group whose signed total it settles. Every member gets one link for all it has
 * left, so each is fully allocated by it; the link of a member that offsets (a refund, a fee, a
 * chargeback) reduces what the deposit has allocated instead of adding to it (matches.reduces).
 * The deposit's total is then the net of the group. When the net is more than the deposit, the
 * last member of the deposit's sign gives up the difference (recorded as its adjustment with
 * `adjust`, so that it is still fully allocated); when it is less, the difference is the
 * deposit's adjustment with `adjust`, or left open without. Exact integers throughout.
 *
 * Returns null when the group cannot be allocated: a member with nothing left, a net of zero or
 * less, or a difference larger than the last member that would give it up.
 */
export function allocateNetted(
  anchor: AllocationMember,
  members: readonly NettedMember[],
  anchorSide: 'origin' | 'target',
  adjust: boolean,
): NettedAllocation | null {
  const scale = commonScale([anchor, ...members].map((member) => member.remaining));
  const anchorUnits = unitsAt(anchor.remaining, scale);
  const amounts = members.map((member) => unitsAt(member.remaining, scale));
  if (anchorUnits <= 0n || amounts.some((units) => units <= 0n)) return null;
  const net = members.reduce((total, member, index) => total + (member.offsets ? -amounts[index]! : amounts[index]!), 0n);
  if (net <= 0n) return null;
  let last = members.length - 1;
  while (last >= 0 && members[last]!.offsets) last -= 1;
  const memberAdjustments = members.map(() => 0n);
  let anchorAdjustment = 0n;
  let adjustment = 0n;
  if (net > anchorUnits) {
    const difference = net - anchorUnits;
    if (amounts[last]! <= difference) return null;
    amounts[last]! -= difference;
    if (adjust) memberAdjustments[last] = difference;
    adjustment = adjust ? difference : 0n;
  } else if (net < anchorUnits && adjust) {
    anchorAdjustment = anchorUnits - net;
    adjustment = anchorAdjustment;
  }
  const links = members.map((member, index) => {
    const anchorExtra = decimalOf(index === last ? anchorAdjustment : 0n, scale);
    const memberExtra = decimalOf(memberAdjustments[index]!, scale);
    const [origin, target] = anchorSide === 'origin' ? [anchor, member] : [member, anchor];
    return {
      originId: origin.id,
      originDatasetId: origin.datasetId,
      targetId: target.id,
      targetDatasetId: target.datasetId,
      amount: decimalOf(amounts[index]!, scale),
      originAdjustment: anchorSide === 'origin' ? anchorExtra : memberExtra,
      targetAdjustment: anchorSide === 'origin' ? memberExtra : anchorExtra,
      ...(member.offsets ? { reduces: anchorSide } : {}),
    };
  });
  return { links, adjustmentAmount: decimalOf(adjustment, scale), net: decimalOf(net, scale) };
}
