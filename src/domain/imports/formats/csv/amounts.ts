/** Amounts as a mapping says they are written: separators, signs, currency codes and symbols. */

export interface AmountFormat {
  decimalSeparator: '.' | ',';
  thousandsSeparator: string;
}

export interface ReadAmount {
  /** Canonical signed decimal text ("-1234.5"); zero is never negative. */
  decimal: string;
  /** The currency a symbol or code next to the number named (€ is EUR, £ is GBP), else null. */
  currency: string | null;
}

export interface AmountReader {
  /** The amount, or null when the text is not one in this format (or empty). */
  read(text: string): ReadAmount | null;
  /** What an amount in this format looks like, for messages. */
  expected: string;
}

/** Currency symbols read next to a number; $ and ¥ name several currencies, so they say none. */
export const CURRENCY_SYMBOLS = new Map<string, string | null>([
  ['€', 'EUR'],
  ['£', 'GBP'],
  ['$', null],
  ['¥', null],
]);
const LEADING_CODE = /^([A-Z]{3})(?=[\s\d+\-−(.,])/;
const TRAILING_CODE = /(?<=[\s\d)])([A-Z]{3})$/;
export const ZERO_DECIMAL = /^0(\.0*)?$/;
/** Digits allowed before and after the point: what a ledger's numeric column holds (money.ts). */
const MAX_WHOLE_DIGITS = 18;
const MAX_FRACTION_DIGITS = 6;

/**
 * Compiles the reader of amounts for a mapping's separators. It accepts a leading or trailing
 * minus (SAP writes "1.234,56-"), a leading plus, parentheses for negatives, and a currency
 * symbol (€ £ $ ¥) or ISO code next to the number. The thousands separator is removed only
 * where it groups digits by three, so "1.5" is not read as 15 when "." groups thousands.
 * The number never becomes a JavaScript number.
 */
export function compileAmountReader(format: AmountFormat): AmountReader {
  const decimal = format.decimalSeparator === ',' ? ',' : '\\.';
  const thousands = thousandsPattern(format.thousandsSeparator);
  const body = thousands === null ? new RegExp(`^(\\d*)(?:${decimal}(\\d+))?$`) : new RegExp(`^(\\d{1,3}(?:${thousands}\\d{3})+|\\d*)(?:${decimal}(\\d+))?$`);
  const stripThousands = thousands === null ? null : new RegExp(thousands, 'g');
  const example =
    format.thousandsSeparator === ''
      ? `1234${format.decimalSeparator}56`
      : `1${format.thousandsSeparator === '\u00a0' || format.thousandsSeparator === '\u202f' ? ' ' : format.thousandsSeparator}234${format.decimalSeparator}56`;
  const thousandsWords =
    format.thousandsSeparator === ''
      ? 'no thousands separator,'
      : `thousands separator ${format.thousandsSeparator.trim() === '' ? '" " (a space)' : JSON.stringify(format.thousandsSeparator)}`;
  const expected = `an amount with decimal separator ${JSON.stringify(format.decimalSeparator)} and ${thousandsWords} such as ${JSON.stringify(example)}`;

  return {
    expected,
    read(raw: string): ReadAmount | null {
      let text = raw.trim();
      if (text === '') return null;
      let negative = false;
      let signs = 0;
      let currency: string | null = null;
      let currencies = 0;
      if (text.charCodeAt(0) === 40 /* ( */ && text.charCodeAt(text.length - 1) === 41 /* ) */) {
        negative = true;
        signs += 1;
        text = text.slice(1, -1).trim();
      }
      // A sign and a currency may come in either order before the number ("-$12.00", "$-12.00").
      for (let pass = 0; pass < 2 && text !== ''; pass++) {
        const first = text[0] as string;
        if (first === '-' || first === '−' || first === '+') {
          negative = first !== '+';
          signs += 1;
          text = text.slice(1).trimStart();
          continue;
        }
        if (CURRENCY_SYMBOLS.has(first)) {
          currency = CURRENCY_SYMBOLS.get(first) ?? null;
          currencies += 1;
          text = text.slice(1).trimStart();
          continue;
        }
        const code = LEADING_CODE.exec(text);
        if (code) {
          currency = code[1] as string;
          currencies += 1;
          text = text.slice(3).trimStart();
        }
      }
      for (let pass = 0; pass < 2 && text !== ''; pass++) {
        const last = text[text.length - 1] as string;
        if (last === '-' || last === '−' || last === '+') {
          negative = last !== '+';
          signs += 1;
          text = text.slice(0, -1).trimEnd();
          continue;
        }
        if (CURRENCY_SYMBOLS.has(last)) {
          currency = CURRENCY_SYMBOLS.get(last) ?? null;
          currencies += 1;
          text = text.slice(0, -1).trimEnd();
          continue;
        }
        const code = TRAILING_CODE.exec(text);
        if (code) {
          currency = code[1] as string;
          currencies += 1;
          text = text.slice(0, -3).trimEnd();
        }
      }
      if (signs > 1 || currencies > 1) return null;
      const match = body.exec(text);
      if (!match) return null;
      const grouped = match[1] ?? '';
      const fraction = match[2] ?? '';
      if (grouped === '' && fraction === '') return null;
      const whole = (stripThousands === null ? grouped : grouped.replace(stripThousands, '')).replace(/^0+(?=\d)/, '') || '0';
      if (whole.length > MAX_WHOLE_DIGITS || fraction.length > MAX_FRACTION_DIGITS) return null;
      const magnitude = fraction === '' ? whole : `${whole}.${fraction}`;
      return { decimal: negative && !ZERO_DECIMAL.test(magnitude) ? `-${magnitude}` : magnitude, currency };
    },
  };
}

function thousandsPattern(separator: string): string | null {
  switch (separator) {
    case '':
      return null;
    case '.':
      return '\\.';
    case "'":
      return "['\u2019]";
    case ',':
      return ',';
    default:
      // A space, a no-break space or a narrow no-break space: French exports use all three.
      return '[ \\u00a0\\u202f]';
  }
}

export function absoluteDecimal(decimal: string): string {
  return decimal.startsWith('-') ? decimal.slice(1) : decimal;
}
