import { quoteInput } from '../../errors.ts';
import { canonicalJson } from '../json.ts';
import type { RuleProblem } from './rule-checker.ts';
import type { RuleBody, RuleSideBody } from './rule-definition.ts';

/**
 * Shadowing: a rule that an earlier rule in the run order makes useless, because the earlier one
 * claims every transaction it would see. Reported as warnings, never as errors.
 */

/** A rule as the shadowing check sees it: its body and its place in the run order. */
export interface RankedRule {
  id: string | null;
  name: string;
  body: RuleBody;
  /** created_at as sortable text (null: created now, after every existing rule). */
  createdAt: string | null;
}

/** Whether `first` runs before `second`: by priority, then creation time, then id (SPEC §8.2). */
export function runsBefore(first: RankedRule, second: RankedRule): boolean {
  if (first.body.priority !== second.body.priority) return first.body.priority < second.body.priority;
  if (first.createdAt !== second.createdAt) {
    if (first.createdAt === null) return false;
    if (second.createdAt === null) return true;
    return first.createdAt < second.createdAt;
  }
  return (first.id ?? '') < (second.id ?? '');
}

/**
 * Whether `earlier`, running first, accepts every pair `later` accepts: an enabled matching rule
 * over the same or more datasets, with no audience or the same one, the same cardinality and
 * grouping, a currency policy at least as wide, and conditions all found identically in
 * `later`. Then `later` only ever sees what `earlier` left (what it found ambiguous).
 */
export function shadows(earlier: RuleBody, later: RuleBody): boolean {
  if (!earlier.enabled || earlier.outcome !== 'match' || earlier.target === null || later.target === null) return false;
  if (earlier.cardinality !== later.cardinality) return false;
  if (earlier.currency === 'same' && later.currency === 'any') return false;
  if (canonicalJson(earlier.groupBy) !== canonicalJson(later.groupBy)) return false;
  if (later.cardinality !== '1:1' && earlier.maxGroupSize < later.maxGroupSize) return false;
  const covers = (wide: RuleSideBody, narrow: RuleSideBody) =>
    narrow.datasetIds.every((id) => wide.datasetIds.includes(id)) &&
    (wide.audience.length === 0 || canonicalJson(wide.audience) === canonicalJson(narrow.audience));
  if (!covers(earlier.origin, later.origin) || !covers(earlier.target, later.target)) return false;
  const laterConditions = new Set(later.conditions.map(canonicalJson));
  return earlier.conditions.every((condition) => laterConditions.has(canonicalJson(condition)));
}

/** Shadowing warnings shown for at most this many rules. */
const SHADOWING_WARNINGS_LIMIT = 20;

/**
 * Warnings about a rule's place among the others: the rules that run before it and take
 * everything it could match, and the rules it does that to in turn.
 */
export function shadowingWarnings(rule: RankedRule, others: readonly RankedRule[]): RuleProblem[] {
  const warnings: RuleProblem[] = [];
  const label = (other: RankedRule) => `rule ${other.id} ${quoteInput(other.name)} (priority ${other.body.priority})`;
  for (const other of others) {
    if (other.id !== null && other.id === rule.id) continue;
    if (warnings.length >= SHADOWING_WARNINGS_LIMIT) break;
    if (runsBefore(other, rule) && shadows(other.body, rule.body)) {
      warnings.push({
        path: '/priority',
        severity: 'warning',
        message:
          `${label(other)} runs before this rule and accepts every pair this rule accepts (its conditions are all among this rule's, over the same or more transactions), ` +
          `so this rule only ever sees what that rule leaves ambiguous; if this rule is the more specific one, give it a priority below ${other.body.priority}`,
      });
    } else if (rule.body.enabled && runsBefore(rule, other) && shadows(rule.body, other.body)) {
      warnings.push({
        path: '/priority',
        severity: 'warning',
        message:
          `this rule runs before ${label(other)} and accepts every pair that rule accepts, so that rule only ever sees what this rule leaves ambiguous; ` +
          `if that rule is the more specific one, give this rule a priority above ${other.body.priority}`,
      });
    }
  }
  return warnings;
}
