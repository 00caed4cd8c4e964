/**
 * Exact decimal arithmetic on the API's amount strings, with BigInt: totals and differences on
 * the screen are to the cent, as the server's, never floats.
 */

export interface Scaled {
  units: bigint;
  scale: number;
}

function parse(amount: string): Scaled {
  const negative = amount.startsWith('-');
  const [whole = '0', fraction = ''] = amount.replace(/^[-+]/, '').split('.');
  const units = BigInt(whole + fraction) * (negative ? -1n : 1n);
  return { units, scale: fraction.length };
}

function rescale(value: Scaled, scale: number): bigint {
  return value.units * 10n ** BigInt(scale - value.scale);
}

export function format(units: bigint, scale: number): string {
  const negative = units < 0n;
  const digits = (negative ? -units : units).toString().padStart(scale + 1, '0');
  const text = scale === 0 ? digits : `${digits.slice(0, -scale)}.${digits.slice(-scale)}`;
  return negative ? `-${text}` : text;
}

/** The exact sum of amounts, with as many decimals as the most precise of them (at least 2). */
export function sum(amounts: readonly string[]): string {
  const parsed = amounts.map(parse);
  const scale = Math.max(2, ...parsed.map((value) => value.scale));
  return format(parsed.reduce((total, value) => total + rescale(value, scale), 0n), scale);
}

export function subtract(left: string, right: string): string {
  const a = parse(left);
  const b = parse(right);
  const scale = Math.max(2, a.scale, b.scale);
  return format(rescale(a, scale) - rescale(b, scale), scale);
}

export function absolute(amount: string): string {
  return amount.replace(/^-/, '');
}

/**
 * Links between origins and targets that allocate what is left of each, in order (the first
 * origin against the first targets, and so on), never more than either side has: the N:M
 * allocation of a manual match. Amounts are absolute.
 */
export function allocate(origins: { id: string; open: string }[], targets: { id: string; open: string }[]): { originId: string; targetId: string; amount: string }[] {
  const scale = Math.max(2, ...[...origins, ...targets].map((side) => parse(side.open).scale));
  const left = origins.map((side) => ({ id: side.id, units: rescale(parse(absolute(side.open)), scale) }));
  const right = targets.map((side) => ({ id: side.id, units: rescale(parse(absolute(side.open)), scale) }));
  const links: { originId: string; targetId: string; amount: string }[] = [];
  let i = 0;
  let j = 0;
  while (i < left.length && j < right.length) {
    const origin = left[i]!;
    const target = right[j]!;
    const units = origin.units < target.units ? origin.units : target.units;
    if (units > 0n) links.push({ originId: origin.id, targetId: target.id, amount: format(units, scale) });
    origin.units -= units;
    target.units -= units;
    if (origin.units === 0n) i += 1;
    if (target.units === 0n) j += 1;
  }
  return links;
}

/** `part` as a percentage of `whole`, to a hundredth, computed on exact units (null when whole is zero). */
export function percentOf(part: string, whole: string): number | null {
  const a = parse(part);
  const b = parse(whole);
  const scale = Math.max(a.scale, b.scale);
  const denominator = rescale(b, scale);
  if (denominator === 0n) return null;
  return Number((rescale(a, scale) * 10000n) / denominator) / 100;
}

/** Whole currency units of an amount, for the height of a chart's bar (the label shows the exact amount). */
export function wholeUnits(amount: string): number {
  return Number(parse(amount).units / 10n ** BigInt(parse(amount).scale));
}
