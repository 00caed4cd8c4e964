import { AMOUNT_PATTERN, fromScaled, toScaled, withScale } from '../../sdk/src/money.ts';
import { describeValue } from './text.ts';

/**
 * Money is an exact decimal from the wire to the database and back: it travels as a string,
 * is checked here, and is stored and compared as SQL numeric. The little arithmetic done in
 * JavaScript (the sums of a statement being imported) works on BigInt counts of the smallest
 * unit written, so it is exact; no amount is ever a floating-point number. The pattern (at most
 * 18 digits before the point and 6 after) and the arithmetic are the SDK's, so that its clients,
 * the web app and the command line among them, check and compute amounts exactly as the server.
 */
export { addDecimals, compareDecimals, fromScaled, negateDecimal, toScaled, type ScaledDecimal } from '../../sdk/src/money.ts';

/** Below 16 significant digits a double prints back exactly the decimal that was written. */
const EXACT_SIGNIFICANT_DIGITS = 15;

export const MONEY_FORMAT_HINT = 'a decimal amount such as "-1250.00" (up to 18 digits before the point and 6 after), preferably as a JSON string';

/**
 * Returns the canonical decimal text of a money value, or null when it is not one. A JSON number
 * is accepted only when it has at most 15 significant digits: then the shortest text of the
 * double is exactly the literal the client wrote, so nothing was lost in parsing.
 */
export function parseMoney(value: unknown): string | null {
  if (typeof value === 'string') return AMOUNT_PATTERN.test(value) ? value : null;
  if (typeof value === 'number' && Number.isFinite(value)) {
    const text = String(value);
    if (!AMOUNT_PATTERN.test(text)) return null;
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
  if (typeof value === 'number' && Number.isFinite(value) && AMOUNT_PATTERN.test(String(value))) {
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

/** Like parseMoney, for amounts that must be positive (allocations). */
export function parsePositiveMoney(value: unknown): string | null {
  const text = parseMoney(value);
  if (text === null || text.startsWith('-') || /^0(\.0+)?$/.test(text)) return null;
  return text;
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
  BIF: 0,
  CLP: 0,
  DJF: 0,
  GNF: 0,
  ISK: 0,
  JPY: 0,
  KMF: 0,
  KRW: 0,
  PYG: 0,
  RWF: 0,
  UGX: 0,
  UYI: 0,
  VND: 0,
  VUV: 0,
  XAF: 0,
  XOF: 0,
  XPF: 0,
  BHD: 3,
  IQD: 3,
  JOD: 3,
  KWD: 3,
  LYD: 3,
  OMR: 3,
  TND: 3,
  CLF: 4,
  UYW: 4,
};

/** The decimal places of a currency's minor unit (2 for EUR, 0 for JPY, 3 for KWD; 2 for an unknown code). */
export function minorUnitDigits(currency: string | null): number {
  return currency === null ? 2 : (MINOR_UNIT_DIGITS[currency.toUpperCase()] ?? 2);
}

/**
 * A decimal written with at least the currency's minor-unit digits ("1250" in EUR is
 * "1250.00"), as statements show amounts. Digits are only ever added, never dropped: a value
 * with more decimals than its currency has keeps them.
 */
export function withCurrencyScale(decimal: string, currency: string | null): string {
  const scale = minorUnitDigits(currency);
  // Called for every amount of a file: a decimal already written as withScale would write it
  // (no leading zeros, no negative zero, enough decimals) is returned as it is, without BigInts.
  const canonical = CANONICAL_DECIMAL.exec(decimal);
  if (canonical !== null && (canonical[1]?.length ?? 0) >= scale && !NEGATIVE_ZERO.test(decimal)) return decimal;
  return withScale(decimal, scale);
}

/** A decimal as fromScaled writes it, with its decimals captured; a negative zero is excluded apart. */
const CANONICAL_DECIMAL = /^-?(?:0|[1-9]\d*)(?:\.(\d+))?$/;
const NEGATIVE_ZERO = /^-[0.]*$/;

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
    // Amounts of one file mostly share a scale: no power of ten to build then.
    this.#units += value.scale === this.#scale ? value.units : value.units * 10n ** BigInt(this.#scale - value.scale);
  }

  get total(): string {
    return fromScaled({ units: this.#units, scale: this.#scale });
  }
}
