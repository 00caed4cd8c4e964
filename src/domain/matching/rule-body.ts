import { UUID_PATTERN } from '../identifiers.ts';
import { isPlainObject } from '../json.ts';
import { RULE_LIMITS, RULE_TOTAL_CONDITIONS_LIMIT } from './rule-definition.ts';
import { patternProblem } from './rule-patterns.ts';

/**
 * A rule body as JSON, before and after it is checked: the dataset ids and extraction patterns a
 * raw body names (loaded or compiled before the check), a PATCH merged into a stored body, and
 * the order and canonical text of a body's members.
 */

/**
 * The dataset ids a raw rule names on both sides (well-formed ids only, lower case, each once),
 * so that the caller can load their columns before checking. Bounded like the sides themselves.
 */
export function datasetIdsNamedBy(raw: unknown): string[] {
  const ids = new Set<string>();
  if (!isPlainObject(raw)) return [];
  for (const side of [raw.origin, raw.target]) {
    if (!isPlainObject(side) || !Array.isArray(side.datasetIds)) continue;
    for (const id of side.datasetIds.slice(0, RULE_LIMITS.datasetsPerSide)) {
      if (typeof id === 'string' && UUID_PATTERN.test(id)) ids.add(id.toLowerCase());
    }
  }
  return [...ids];
}

/**
 * Every extraction pattern a raw rule (or a PATCH of one) holds that passes the checks made
 * here, each once: what PostgreSQL must compile before the rule is stored. Bounded by the
 * limits on conditions.
 */
export function patternsNamedBy(raw: unknown): string[] {
  const found = new Set<string>();
  let visited = 0;
  const visitCondition = (condition: unknown, depth: number) => {
    if (!isPlainObject(condition) || depth > RULE_LIMITS.anyDepth || visited >= RULE_TOTAL_CONDITIONS_LIMIT) return;
    if (Array.isArray(condition.any)) {
      for (const alternative of condition.any.slice(0, RULE_LIMITS.alternatives)) visitCondition(alternative, depth + 1);
      return;
    }
    visited += 1;
    for (const value of [condition.origin, condition.target]) {
      if (isPlainObject(value) && typeof value.extract === 'string' && patternProblem(value.extract) === null) found.add(value.extract);
    }
  };
  if (isPlainObject(raw) && Array.isArray(raw.conditions)) {
    for (const condition of raw.conditions.slice(0, RULE_LIMITS.conditions)) visitCondition(condition, 0);
  }
  return [...found];
}

/**
 * A JSON merge patch (RFC 7396) of a stored body: members of the patch replace the stored ones,
 * objects merge member by member, arrays are replaced whole, and null removes a member (which
 * the checker then fills with its default).
 */
export function mergeRuleBody(stored: unknown, patch: unknown): unknown {
  if (!isPlainObject(patch)) return patch;
  const merged: Record<string, unknown> = isPlainObject(stored) ? { ...stored } : {};
  for (const [key, value] of Object.entries(patch)) {
    if (value === null) delete merged[key];
    else merged[key] = mergeRuleBody(merged[key], value);
  }
  return merged;
}

/**
 * The order in which a rule's members are shown. jsonb keeps keys in its own order, so a body
 * read back from the store is put in this order again before it is returned.
 */
const KEY_ORDER = [
  'any',
  'type',
  'name',
  'enabled',
  'priority',
  'origin',
  'target',
  'datasetIds',
  'audience',
  'path',
  'search',
  'operator',
  'value',
  'exact',
  'currencies',
  'start',
  'end',
  'includeStart',
  'includeEnd',
  'extract',
  'normalize',
  'sign',
  'tolerance',
  'absolute',
  'percent',
  'min',
  'max',
  'cardinality',
  'conditions',
  'groupBy',
  'maxGroupSize',
  'outcome',
  'status',
  'adjustment',
  'reason',
  'currency',
  'runOnIngest',
];
const KEY_RANK = new Map(KEY_ORDER.map((key, index) => [key, index]));

/** A copy of a JSON value with the members of every object in the order rules are shown in. */
export function orderRuleKeys<T>(value: T): T {
  if (Array.isArray(value)) return value.map(orderRuleKeys) as T;
  if (!isPlainObject(value)) return value;
  const keys = Object.keys(value).sort((left, right) => {
    const leftRank = KEY_RANK.get(left) ?? KEY_ORDER.length;
    const rightRank = KEY_RANK.get(right) ?? KEY_ORDER.length;
    return leftRank - rightRank || (left < right ? -1 : left > right ? 1 : 0);
  });
  return Object.fromEntries(keys.map((key) => [key, orderRuleKeys(value[key])])) as T;
}
