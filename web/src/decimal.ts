import { addDecimals, fromScaled, negateDecimal, toScaled, unitsAt, withScale } from '@ledger-recon/sdk';

/**
 * Exact decimal arithmetic on the API's amount strings, with the SDK's BigInt decimals: totals
 * and differences on the screen are to the cent, as the server's, never floats. The screen
 * writes them with at least two decimals.
 */

/** The exact sum of amounts, with as many decimals as the most precise of them (at least 2). */
export function sum(amounts: readonly string[]): string {
  return withScale(addDecimals(...amounts), 2);
}

export function subtract(left: string, right: string): string {
  return withScale(addDecimals(left, negateDecimal(right)), 2);
}

export function absolute(amount: string): string {
  return amount.replace(/^-/, '');
}

/**
 * Links between origins and targets that allocate what is left of each, in order (the first
 * origin against the first targets, and so on), never more than either side has: the N:M
 * allocation of a manual match. Amounts are absolute.
 */
export function allocate(
  origins: { id: string; open: string }[],
  targets: { id: string; open: string }[],
): { originId: string; targetId: string; amount: string }[] {
  const scale = Math.max(2, ...[...origins, ...targets].map((side) => toScaled(side.open).scale));
  const left = origins.map((side) => ({ id: side.id, units: unitsAt(toScaled(absolute(side.open)), scale) }));
  const right = targets.map((side) => ({ id: side.id, units: unitsAt(toScaled(absolute(side.open)), scale) }));
  const links: { originId: string; targetId: string; amount: string }[] = [];
  let i = 0;
  let j = 0;
  while (i < left.length && j < right.length) {
    const origin = left[i]!;
    const target = right[j]!;
    const units = origin.units < target.units ? origin.units : target.units;
    if (units > 0n) links.push({ originId: origin.id, targetId: target.id, amount: fromScaled({ units, scale }) });
    origin.units -= units;
    target.units -= units;
    if (origin.units === 0n) i += 1;
    if (target.units === 0n) j += 1;
  }
  return links;
}

/** `part` as a percentage of `whole`, to a hundredth, computed on exact units (null when whole is zero). */
export function percentOf(part: string, whole: string): number | null {
  const [a, b] = [toScaled(part), toScaled(whole)];
  const scale = Math.max(a.scale, b.scale);
  const denominator = unitsAt(b, scale);
  if (denominator === 0n) return null;
  return Number((unitsAt(a, scale) * 10000n) / denominator) / 100;
}

/** Whole currency units of an amount, for the height of a chart's bar (the label shows the exact amount). */
export function wholeUnits(amount: string): number {
  const value = toScaled(amount);
  return Number(value.units / 10n ** BigInt(value.scale));
}
