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

/** Like parseMoney, for amounts that must be positive (allocations). */
export function parsePositiveMoney(value: unknown): string | null {
  const text = parseMoney(value);
  if (text === null || text.startsWith('-') || /^0(\.0+)?$/.test(text)) return null;
  return text;
}
