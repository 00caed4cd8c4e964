import type { NormalizationStep } from './rule-form.ts';

/**
 * What a text condition's value becomes on one row, as the service computes it (rule-sql.ts):
 * `substring(text from pattern)` (the text of the pattern's one group at its first match, in
 * PostgreSQL's regular expressions), then the steps in order; an empty result is no value, which
 * never matches. The pattern is read here in JavaScript's syntax, translated where PostgreSQL's
 * differs: \y, \m and \M (word boundaries) and the POSIX classes [[:alpha:]] and friends.
 */

const POSIX_CLASSES: Record<string, string> = {
  alpha: '\\p{L}',
  alnum: '\\p{L}\\p{N}',
  digit: '0-9',
  upper: '\\p{Lu}',
  lower: '\\p{Ll}',
  space: '\\s',
  punct: '\\p{P}',
  xdigit: '0-9A-Fa-f',
  word: '\\w',
};

/** The pattern in JavaScript's syntax, or null when it cannot be read. */
export function javaScriptPattern(pattern: string): RegExp | null {
  let translated = '';
  for (let index = 0; index < pattern.length; index++) {
    const character = pattern[index]!;
    if (character === '\\') {
      const next = pattern[index + 1] ?? '';
      index += 1;
      if (next === 'y') translated += '\\b';
      else if (next === 'Y') translated += '\\B';
      else if (next === 'm') translated += '\\b(?=[\\p{L}\\p{N}_])';
      else if (next === 'M') translated += '\\b(?<=[\\p{L}\\p{N}_])';
      else if (next === 'A') translated += '^';
      else if (next === 'Z') translated += '$';
      else translated += `\\${next}`;
      continue;
    }
    if (character === '[' && pattern[index + 1] === ':') {
      const close = pattern.indexOf(':]', index + 2);
      const name = close === -1 ? '' : pattern.slice(index + 2, close);
      if (POSIX_CLASSES[name] !== undefined) {
        translated += POSIX_CLASSES[name];
        index = close + 1;
        continue;
      }
    }
    translated += character;
  }
  try {
    // "s": in PostgreSQL a dot matches a line break too.
    return new RegExp(translated, 'su');
  } catch {
    try {
      return new RegExp(translated, 's');
    } catch {
      return null;
    }
  }
}

/** The value of one row's text: extracted by the pattern (when given), then tidied by the steps; null for none. */
export function valueAsServer(text: string | null | undefined, pattern: string, steps: readonly NormalizationStep[]): string | null {
  if (text === null || text === undefined) return null;
  let value: string = text;
  if (pattern !== '') {
    const expression = javaScriptPattern(pattern);
    if (expression === null) return null;
    const found = expression.exec(value);
    if (found === null) return null;
    // substring() gives the first group's text; a group that took part in no match gives none.
    const group = found[1];
    if (group === undefined) return null;
    value = group;
  }
  for (const step of steps) {
    if (step === 'casefold') value = value.toLowerCase();
    else if (step === 'digits') value = value.replace(/[^0-9]/g, '');
    else if (step === 'alnum') value = value.replace(/[^\p{L}\p{N}]/gu, '');
    else value = value.replace(/^0+/, '');
  }
  return value === '' ? null : value;
}
