/**
 * Money is an exact decimal from the wire to the database and back: it travels as a string,
 * is checked here, and is stored and compared as SQL numeric. No arithmetic on money happens
 * in JavaScript.
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
    return `must be a positive decimal amount such as "125.00" (up to 18 digits before the point and 6 after), got ${JSON.stringify(value)}`;
  }
  return `must be ${MONEY_FORMAT_HINT}, got ${JSON.stringify(value)}`;
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
