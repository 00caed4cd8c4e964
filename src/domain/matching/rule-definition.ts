import type { DatasetColumn } from '../../db/repositories/transaction-query.ts';

/**
 * The shape of a matching rule (SPEC §8.1), as a caller writes it and as the engine reads it
 * once checked. `RuleBody` is the JSON of the API; `CheckedRule` is what rule-checker.ts makes
 * of it after every path, type and pattern has been resolved against the datasets, so that the
 * engine (rule-compiler.ts, run-engine.ts) never meets an unchecked value.
 */

// The checked rule is part of the domain model (../model.ts): storage compiles it to SQL, and may
// import types from that module alone.
export { ADJUSTMENT_REASONS, AMOUNT_SIGNS, CARDINALITIES, CLASSIFICATION_STATUSES, NORMALIZATIONS } from '../model.ts';
export type {
  AdjustmentReason,
  AmountSign,
  Cardinality,
  CheckedCondition,
  CheckedRule,
  CheckedSide,
  CheckedValue,
  ClassificationStatus,
  Normalization,
  RuleOutcome,
} from '../model.ts';
import type { AdjustmentReason, AmountSign, Cardinality, ClassificationStatus, Normalization } from '../model.ts';
// The score is computed in SQL as well as here, and storage may import no value of the domain, so
// its weights live with that SQL.
export { SCORE_WEIGHTS } from '../../db/matching/score-weights.ts';

/** Limits that keep one rule's SQL and one run's work bounded. */
export const RULE_LIMITS = {
  nameLength: 200,
  datasetsPerSide: 20,
  conditions: 20,
  /** Alternatives in one `any` group, and how deep `any` groups may nest. */
  alternatives: 10,
  anyDepth: 3,
  groupByPaths: 5,
  /** SPEC §8.1: sets of at most 10 counterparts. */
  maxGroupSize: 10,
  patternLength: 500,
  constantLength: 1000,
  rulesPerOrganization: 500,
  priorityMaximum: 1_000_000,
} as const;
/** Leaf conditions in one rule, counting those inside `any` groups: bounds the rule's SQL. */
export const RULE_TOTAL_CONDITIONS_LIMIT = 100;

// ---------------------------------------------------------------------------------------------
// Checked rules: what the engine compiles (their shapes are in ../model.ts).
// ---------------------------------------------------------------------------------------------

/** The columns of the datasets a rule names, keyed by dataset id. */
export type DatasetColumnsById = ReadonlyMap<string, readonly DatasetColumn[]>;

// ---------------------------------------------------------------------------------------------
// Rule bodies: the JSON of the API, as rule-checker.ts normalizes it (defaults filled in).
// ---------------------------------------------------------------------------------------------

export const CURRENCY_POLICIES = ['same', 'any'] as const;
export type CurrencyPolicy = (typeof CURRENCY_POLICIES)[number];

/** A value of a text condition as written: a field (optionally extracted and normalized) or a constant. */
export type RuleValueBody = { path: string; extract?: string; normalize?: Normalization[] } | { value: string };

export type RuleConditionBody =
  | { type: 'amount'; sign: AmountSign; tolerance?: { absolute?: string; percent?: string } }
  | { type: 'date'; path: string; min: string | number; max: string | number }
  | { type: 'equals' | 'contains'; origin: RuleValueBody; target: RuleValueBody }
  | { type: 'similar'; origin: RuleValueBody; target: RuleValueBody; min: number }
  | { any: RuleConditionBody[] };

export interface RuleSideBody {
  /** Lower-case dataset ids. */
  datasetIds: string[];
  /** SearchQuery objects as written (SPEC §3). */
  audience: unknown[];
}

/** A rule's JSON as stored (rules.body, rule_versions.body) and returned, every default filled in. */
export interface RuleBody {
  name: string;
  enabled: boolean;
  priority: number;
  origin: RuleSideBody;
  /** Null for a classification rule. */
  target: RuleSideBody | null;
  cardinality: Cardinality;
  conditions: RuleConditionBody[];
  groupBy: { origin: string[]; target: string[] } | null;
  maxGroupSize: number;
  outcome: 'match' | 'suggest' | { status: ClassificationStatus };
  adjustment: { reason: AdjustmentReason } | null;
  currency: CurrencyPolicy;
  runOnIngest: boolean;
}
