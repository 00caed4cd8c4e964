import { quoteInput } from '../errors.ts';

/**
 * Money is an exact decimal from the wire to the database and back: it travels as a string,
 * is checked here, and is stored and compared as SQL numeric. The little arithmetic done in
 * JavaScript (the sums of a statement being imported) works on BigInt counts of the smallest
 * unit written, so it is exact; no amount is ever a floating-point number.
 */

/** At most 18 digits before the point and 6 after: beyond what any ledger holds, within numeric. */
const DECIMAL_PATTERN = /^-?(0|[1-9]\d{0,17})(\.\d{1,6})?$/;
/** Below 16 significant digits a double prints back exactly the decimal that was written. */
const EXACT_SIGNIFICANT_DIGITS = 15;

export const MONEY_FORMAT_HINT =
  'a decimal amount such as "-1250.00" (up to 18 digits before the point and 6 after), preferably as a JSON string';

/**
 * Returns the canonical decimal text of a money value, or null when it is not one. A JSON number
 * is accepted only when it has at most 15 significant digits: then the shortest text of the
 * double is exactly the literal the client wrote, so nothing was lost in parsing.
 */
export function parseMoney(value: unknown): string | null {
  if (typeof value === 'string') return DECIMAL_PATTERN.test(value) ? value : null;
  if (typeof value === 'number' && Number.isFinite(value)) {
    const text = String(value);
    if (!DECIMAL_PATTERN.test(text)) return null;
    const significantDigits = text.replace(/^-/, '').replace('.', '').replace(/^0+/, '').length;
    return significantDigits <= EXACT_SIGNIFICANT_DIGITS ? text : null;
  }
  return null;
}

/**
 * What is wrong with a value that is not money, said so that the caller knows the fix. A JSON
 * number too long to be exact gets its own sentence: the value has already been rounded by the
 * time it is read, so only sending a string can help.
 */
export function moneyProblem(value: unknown, options: { positive?: boolean } = {}): string {
  if (typeof value === 'number' && Number.isFinite(value) && DECIMAL_PATTERN.test(String(value))) {
    if (options.positive && parseMoney(value) !== null) return `must be greater than zero, got ${String(value)}`;
    return (
      `is a JSON number with more than ${EXACT_SIGNIFICANT_DIGITS} significant digits, which cannot be read exactly ` +
      `(it reads as ${String(value)}); send the amount as a decimal string, e.g. "12345678901234567.50"`
    );
  }
  if (options.positive) {
    return `must be a positive decimal amount such as "125.00" (up to 18 digits before the point and 6 after), got ${describeValue(value)}`;
  }
  return `must be ${MONEY_FORMAT_HINT}, got ${describeValue(value)}`;
}

/** A value as a message quotes it: a short excerpt of a string, the kind of anything else. */
function describeValue(value: unknown): string {
  if (typeof value === 'string') return quoteInput(value);
  if (value === null || typeof value === 'number' || typeof value === 'boolean') return String(value);
  return Array.isArray(value) ? 'an array' : typeof value === 'object' ? 'an object' : typeof value;
}

/** Like parseMoney, for amounts that must be positive (allocations). */
export function parsePositiveMoney(value: unknown): string | null {
  const text = parseMoney(value);
  if (text === null || text.startsWith('-') || /^0(\.0+)?$/.test(text)) return null;
  return text;
}

const PLAIN_DECIMAL = /^-?\d+(\.\d+)?$/;

/**
 * Compares two plain decimal texts exactly (-1, 0 or 1), digit by digit, so that values beyond
 * a double's precision still compare correctly. Returns null when either is not a plain decimal.
 */
export function compareDecimals(left: string, right: string): -1 | 0 | 1 | null {
  if (!PLAIN_DECIMAL.test(left) || !PLAIN_DECIMAL.test(right)) return null;
  const leftNegative = left.startsWith('-');
  const rightNegative = right.startsWith('-');
  const [leftWhole = '', leftFraction = ''] = left.replace(/^-/, '').split('.');
  const [rightWhole = '', rightFraction = ''] = right.replace(/^-/, '').split('.');
  const wholeLength = Math.max(leftWhole.length, rightWhole.length);
  const fractionLength = Math.max(leftFraction.length, rightFraction.length);
  const leftDigits = leftWhole.padStart(wholeLength, '0') + leftFraction.padEnd(fractionLength, '0');
  const rightDigits = rightWhole.padStart(wholeLength, '0') + rightFraction.padEnd(fractionLength, '0');
  const leftIsZero = /^0*$/.test(leftDigits);
  const rightIsZero = /^0*$/.test(rightDigits);
  const leftSign = leftIsZero ? 0 : leftNegative ? -1 : 1;
  const rightSign = rightIsZero ? 0 : rightNegative ? -1 : 1;
  if (leftSign !== rightSign) return leftSign < rightSign ? -1 : 1;
  if (leftDigits === rightDigits) return 0;
  const magnitude = leftDigits < rightDigits ? -1 : 1;
  return (leftSign < 0 ? -magnitude : magnitude) as -1 | 1;
}

/** A decimal as a BigInt count of units of 10^-scale: "-12.50" is {units: -1250n, scale: 2}. */
export interface ScaledDecimal {
  units: bigint;
  scale: number;
}

export function toScaled(decimal: string): ScaledDecimal {
  if (!PLAIN_DECIMAL.test(decimal)) throw new Error(`not a plain decimal: ${JSON.stringify(decimal)}`);
  const negative = decimal.startsWith('-');
  const [whole = '0', fraction = ''] = decimal.replace(/^-/, '').split('.');
  const units = BigInt(whole + fraction);
  return { units: negative ? -units : units, scale: fraction.length };
}

export function fromScaled({ units, scale }: ScaledDecimal): string {
  const negative = units < 0n;
  const digits = (negative ? -units : units).toString().padStart(scale + 1, '0');
  const text = scale === 0 ? digits : `${digits.slice(0, -scale)}.${digits.slice(-scale)}`;
  return negative ? `-${text}` : text;
}

/**
 * The exact sum of plain decimal texts, written with the largest scale among them
 * (addDecimals("1.5", "-0.25") is "1.25"; no operand gives "0").
 */
export function addDecimals(...decimals: string[]): string {
  const scaled = decimals.map(toScaled);
  const scale = Math.max(0, ...scaled.map((value) => value.scale));
  let total = 0n;
  for (const value of scaled) total += value.units * 10n ** BigInt(scale - value.scale);
  return fromScaled({ units: total, scale });
}

/** The decimal with its sign turned ("12.50" -> "-12.50", "-3" -> "3", "0.00" stays "0.00"). */
export function negateDecimal(decimal: string): string {
  const scaled = toScaled(decimal);
  return fromScaled({ units: -scaled.units, scale: scaled.scale });
}

/**
 * Places a count of smallest units at an implied decimal point: formats such as BAI2 write
 * "12345" for 123.45 (impliedDecimalPlaces 2). `digits` may carry a sign.
 */
export function placeImpliedDecimals(digits: string, impliedDecimalPlaces: number): string {
  if (!/^[+-]?\d+$/.test(digits)) throw new Error(`not a whole number: ${JSON.stringify(digits)}`);
  const units = BigInt(digits.replace(/^\+/, ''));
  return fromScaled({ units, scale: impliedDecimalPlaces });
}

/**
 * ISO 4217 currencies whose minor unit is not the hundredth. Every other code, and an unknown
 * one, is taken to have two decimal places.
 */
const MINOR_UNIT_DIGITS: Record<string, number> = {
  BIF: 0, CLP: 0, DJF: 0, GNF: 0, ISK: 0, JPY: 0, KMF: 0, KRW: 0, PYG: 0, RWF: 0, UGX: 0, UYI: 0, VND: 0, VUV: 0, XAF: 0, XOF: 0, XPF: 0,
  BHD: 3, IQD: 3, JOD: 3, KWD: 3, LYD: 3, OMR: 3, TND: 3,
  CLF: 4, UYW: 4,
};

/**
 * A decimal written with at least the currency's minor-unit digits ("1250" in EUR is
 * "1250.00"), as statements show amounts. Digits are only ever added, never dropped: a value
 * with more decimals than its currency has keeps them.
 */
export function withCurrencyScale(decimal: string, currency: string | null): string {
  const scaled = toScaled(decimal);
  const wanted = currency === null ? 2 : (MINOR_UNIT_DIGITS[currency.toUpperCase()] ?? 2);
  if (scaled.scale >= wanted) return fromScaled(scaled);
  return fromScaled({ units: scaled.units * 10n ** BigInt(wanted - scaled.scale), scale: wanted });
}

/**
 * A running exact sum of decimal texts, for long columns of amounts (a statement of a million
 * entries): the total is kept as a BigInt count of units at the largest scale seen so far.
 */
export class DecimalSum {
  #units = 0n;
  #scale = 0;

  add(decimal: string): void {
    const value = toScaled(decimal);
    if (value.scale > this.#scale) {
      this.#units *= 10n ** BigInt(value.scale - this.#scale);
      this.#scale = value.scale;
    }
    this.#units += value.units * 10n ** BigInt(this.#scale - value.scale);
  }

  get total(): string {
    return fromScaled({ units: this.#units, scale: this.#scale });
  }
}
