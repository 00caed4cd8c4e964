import { isPlainObject } from '../../sdk/src/json.ts';

/** Parsed JSON as the domain reads a caller's: objects told from arrays and null. */
export { isPlainObject };

/**
 * JSON with sorted keys: equal for equal values whatever the order of their members (two
 * versions of a rule, the bodies of two requests under one idempotency key).
 */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (isPlainObject(value)) {
    return `{${Object.keys(value)
      .sort()
      .map((key) => `${JSON.stringify(key)}:${canonicalJson(value[key])}`)
      .join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}
