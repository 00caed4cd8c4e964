/**
 * Amounts as the service takes them: exact decimal strings, never floating-point numbers. The
 * server checks every amount with the pattern below and keeps it as SQL numeric; a client that
 * checks with the same pattern refuses exactly what the server would, before sending anything.
 * The arithmetic works on BigInt counts of the smallest unit written, so it is exact too.
 */

/** The most digits an amount has before its point: beyond what any ledger holds, within numeric. */
export const AMOUNT_WHOLE_DIGITS_MAX = 18;
/** The most digits an amount has after its point. */
export const AMOUNT_DECIMAL_PLACES_MAX = 6;

/** An amount: an optional minus, no leading zeros, at most 18 digits before the point and 6 after. */
export const AMOUNT_PATTERN = /^-?(0|[1-9]\d{0,17})(\.\d{1,6})?$/;

/** Whether `text` is an amount the server takes ("-1250.00", "0.5", "42"). */
export function isAmount(text: string): boolean {
  return AMOUNT_PATTERN.test(text);
}

const LIMITS = `up to ${AMOUNT_WHOLE_DIGITS_MAX} digits before the point and ${AMOUNT_DECIMAL_PLACES_MAX} after`;

/**
 * What is wrong with an amount typed by a person, as words that follow the name of its field
 * ("Amount from has 7 decimal places; …"), each with the fix; null when it is an amount. With
 * `positive`, the amount must also be above zero and carry no sign (an allocation).
 */
export function amountProblem(text: string, options: { positive?: boolean } = {}): string | null {
  const example = options.positive ? '120.50' : '-1250.00';
  const positive = !options.positive || (!text.startsWith('-') && !/^0(\.0+)?$/.test(text));
  if (AMOUNT_PATTERN.test(text)) return positive ? null : 'must be greater than zero, without a sign, e.g. 120.50';
  if (text.trim() === '') return `is empty; write an amount such as ${example}`;
  if (text.trim() !== text) return 'has spaces around it; write the amount alone, e.g. 120.50';
  if (/^[+-]?\d+,\d+$/.test(text)) return `has a comma for decimals; write them after a dot, e.g. ${text.replace(',', '.')}`;
  const number = /^([+-]?)(\d+)(?:\.(\d+))?$/.exec(text);
  if (number === null)
    return `must be a decimal amount such as ${example}: digits, a dot for decimals${options.positive ? '' : ', a minus for a debit'} (${LIMITS})`;
  const [, sign = '', whole = '', fraction = ''] = number;
  if (sign === '+') return `starts with a plus; write ${text.slice(1)} without it${options.positive ? '' : ' (a minus marks a debit)'}`;
  if (options.positive && sign === '-') return 'must be greater than zero, without a sign, e.g. 120.50';
  if (fraction.length > AMOUNT_DECIMAL_PLACES_MAX) {
    return `has ${fraction.length} decimal places; amounts have at most ${AMOUNT_DECIMAL_PLACES_MAX}: round it to ${AMOUNT_DECIMAL_PLACES_MAX}`;
  }
  const significant = whole.replace(/^0+(?=\d)/, '');
  if (significant !== whole) return `starts with a zero; write ${sign}${significant}${fraction === '' ? '' : `.${fraction}`}`;
  return `has ${whole.length} digits before the point; amounts have at most ${AMOUNT_WHOLE_DIGITS_MAX}`;
}

/** A plain decimal text: any number of digits on either side of the point (results of arithmetic). */
const PLAIN_DECIMAL = /^-?\d+(\.\d+)?$/;

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

/** The count of units of a decimal at a scale at least its own ("1.5" at scale 2 is 150n). */
export function unitsAt(value: ScaledDecimal, scale: number): bigint {
  return value.units * 10n ** BigInt(scale - value.scale);
}

/**
 * The exact sum of plain decimal texts, written with the largest scale among them
 * (addDecimals("1.5", "-0.25") is "1.25"; no operand gives "0").
 */
export function addDecimals(...decimals: string[]): string {
  const scaled = decimals.map(toScaled);
  const scale = Math.max(0, ...scaled.map((value) => value.scale));
  return fromScaled({ units: scaled.reduce((total, value) => total + unitsAt(value, scale), 0n), scale });
}

/** A decimal written with at least `scale` decimals ("7.5" at 2 is "7.50"); digits are never dropped. */
export function withScale(decimal: string, scale: number): string {
  const value = toScaled(decimal);
  return value.scale >= scale ? fromScaled(value) : fromScaled({ units: unitsAt(value, scale), scale });
}

/** The decimal with its sign turned ("12.50" -> "-12.50", "-3" -> "3", "0.00" stays "0.00"). */
export function negateDecimal(decimal: string): string {
  const scaled = toScaled(decimal);
  return fromScaled({ units: -scaled.units, scale: scaled.scale });
}

/**
 * Compares two plain decimal texts exactly (-1, 0 or 1), digit by digit, so that values beyond
 * a double's precision still compare correctly. Returns null when either is not a plain decimal.
 */
export function compareDecimals(left: string, right: string): -1 | 0 | 1 | null {
  if (!PLAIN_DECIMAL.test(left) || !PLAIN_DECIMAL.test(right)) return null;
  const a = toScaled(left);
  const b = toScaled(right);
  const scale = Math.max(a.scale, b.scale);
  const difference = unitsAt(a, scale) - unitsAt(b, scale);
  return difference === 0n ? 0 : difference < 0n ? -1 : 1;
}
