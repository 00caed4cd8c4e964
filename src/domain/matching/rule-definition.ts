import { SET_STATUSES } from '../../../sdk/src/statuses.ts';
import type { DatasetColumn, FieldReference, TransactionFilter } from '../../db/repositories/transaction-query.ts';

/**
 * The shape of a matching rule (SPEC §8.1), as a caller writes it and as the engine reads it
 * once checked. `RuleBody` is the JSON of the API; `CheckedRule` is what rule-checker.ts makes
 * of it after every path, type and pattern has been resolved against the datasets, so that the
 * engine (rule-compiler.ts, run-engine.ts) never meets an unchecked value.
 */

export const CARDINALITIES = ['1:1', '1:N', 'N:1', 'N:M'] as const;
export type Cardinality = (typeof CARDINALITIES)[number];

export const NORMALIZATIONS = ['casefold', 'digits', 'alnum', 'trim-zeros'] as const;
export type Normalization = (typeof NORMALIZATIONS)[number];

export const AMOUNT_SIGNS = ['same', 'opposite', 'absolute'] as const;
export type AmountSign = (typeof AMOUNT_SIGNS)[number];

export const ADJUSTMENT_REASONS = ['fee', 'fx', 'rounding', 'write-off'] as const;
export type AdjustmentReason = (typeof ADJUSTMENT_REASONS)[number];

/** A classification rule sets the statuses a caller may set. */
export const CLASSIFICATION_STATUSES = SET_STATUSES;
export type ClassificationStatus = (typeof CLASSIFICATION_STATUSES)[number];

/**
 * How a candidate's score (0..1) weighs its parts: the amount difference against the tolerance,
 * the date distance against the window, and text similarity. A perfect candidate scores 1.
 */
export const SCORE_WEIGHTS = { amount: 0.5, date: 0.3, text: 0.2 } as const;

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

// ---------------------------------------------------------------------------------------------
// Checked rules: what the engine compiles.
// ---------------------------------------------------------------------------------------------

/** A value a text condition compares: a field of the transaction, or a constant. */
export type CheckedValue =
  | {
      kind: 'field';
      /** The field as written in the rule, for evidence. */
      path: string;
      field: FieldReference;
      /** A PostgreSQL regular expression with exactly one capturing group; checked to be linear-time. */
      extract: string | null;
      normalize: Normalization[];
    }
  | { kind: 'constant'; value: string };

export type CheckedCondition =
  | {
      type: 'amount';
      sign: AmountSign;
      /** Decimal strings; null when not given. With both, the larger applies. */
      toleranceAbsolute: string | null;
      tolerancePercent: string | null;
    }
  | {
      type: 'date';
      path: string;
      field: FieldReference;
      /** Target minus origin must lie within [minMilliseconds, maxMilliseconds]. */
      minMilliseconds: number;
      maxMilliseconds: number;
    }
  | { type: 'equals' | 'contains'; origin: CheckedValue; target: CheckedValue }
  | { type: 'similar'; origin: CheckedValue; target: CheckedValue; min: number }
  | { type: 'any'; alternatives: CheckedCondition[] };

export interface CheckedSide {
  datasetIds: string[];
  /**
   * The audience as filters, per dataset: a path resolves against each dataset's own columns.
   * The raw queries are kept for the rule's JSON.
   */
  audience: Map<string, TransactionFilter[]>;
}

export type RuleOutcome = { kind: 'match' } | { kind: 'suggest' } | { kind: 'classify'; status: ClassificationStatus };

export interface CheckedRule {
  id: string;
  version: number;
  name: string;
  enabled: boolean;
  priority: number;
  origin: CheckedSide;
  /** Null for a classification rule, which has no target. */
  target: CheckedSide | null;
  cardinality: Cardinality;
  conditions: CheckedCondition[];
  /** Keys that form groups; each side's list has the same length. Null when not grouped. */
  groupBy: { origin: FieldReference[]; target: FieldReference[]; originPaths: string[]; targetPaths: string[] } | null;
  maxGroupSize: number;
  outcome: RuleOutcome;
  adjustmentReason: AdjustmentReason | null;
  /** Whether transactions of different currencies may match ("currency": "any"). */
  anyCurrency: boolean;
  runOnIngest: boolean;
}

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
