import { quoteInput } from '../errors.ts';

/**
 * What text the store can hold. PostgreSQL text holds any Unicode except NUL; a JavaScript
 * string can also hold lone UTF-16 surrogates, which are not text at all. Both are refused
 * wherever text enters (request bodies, query strings, imported files), never replaced.
 */

/** Whether a string can be stored as PostgreSQL text: no NUL and no lone surrogate. */
export function isStorableText(text: string): boolean {
  return !text.includes('\u0000') && text.isWellFormed();
}

/** Why a string cannot be stored, for messages. */
export function unstorableTextProblem(text: string): string {
  return text.includes('\u0000')
    ? 'must not contain the NUL character (\\u0000), which cannot be stored; remove it'
    : 'contains a lone UTF-16 surrogate (an unpaired \\uD800-\\uDFFF escape), which is not text and cannot be stored; send valid Unicode';
}

/**
 * A caller's value as a message quotes it after "got": a short excerpt of a string, a number,
 * boolean or null as written, and the kind of anything else (never a whole object echoed back).
 */
export function describeValue(value: unknown): string {
  if (value === undefined) return 'nothing';
  if (typeof value === 'string') return quoteInput(value);
  if (value === null || typeof value === 'number' || typeof value === 'boolean') return String(value);
  if (Array.isArray(value)) return `an array of ${value.length} ${value.length === 1 ? 'item' : 'items'}`;
  return typeof value === 'object' ? 'an object' : typeof value;
}

/** Names this long are not compared: no one mistypes one, and the comparison costs their product. */
const CLOSEST_NAME_LENGTH_MAX = 64;
/** A known name this many edits away or more is no longer a likely typo of the given one. */
const CLOSEST_NAME_DISTANCE_LIMIT = 3;

/**
 * The known name closest to `given`, letter case aside, within two edits (for a "did you mean"
 * hint); undefined when none is that close.
 */
export function closestName(given: string, known: readonly string[]): string | undefined {
  const lowered = given.toLowerCase();
  let best: string | undefined;
  let bestDistance = CLOSEST_NAME_DISTANCE_LIMIT;
  for (const candidate of known) {
    const distance = editDistance(lowered, candidate.toLowerCase(), bestDistance);
    if (distance < bestDistance) {
      best = candidate;
      bestDistance = distance;
    }
  }
  return best;
}

/** Levenshtein distance, giving up (returning `limit`) once it cannot be below `limit`. */
function editDistance(left: string, right: string, limit: number): number {
  if (left === right) return 0;
  if (Math.abs(left.length - right.length) >= limit || left.length > CLOSEST_NAME_LENGTH_MAX || right.length > CLOSEST_NAME_LENGTH_MAX) return limit;
  let previous = Array.from({ length: right.length + 1 }, (_, index) => index);
  for (let row = 1; row <= left.length; row++) {
    const current = [row];
    let rowMinimum = row;
    for (let column = 1; column <= right.length; column++) {
      const cost = left[row - 1] === right[column - 1] ? 0 : 1;
      const value = Math.min(previous[column]! + 1, current[column - 1]! + 1, previous[column - 1]! + cost);
      current.push(value);
      rowMinimum = Math.min(rowMinimum, value);
    }
    if (rowMinimum >= limit) return limit;
    previous = current;
  }
  return Math.min(previous[right.length]!, limit);
}
