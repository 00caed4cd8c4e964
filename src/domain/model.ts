/**
 * The domain model: the shapes that the domain and storage share. Storage (src/db) may import
 * types from this module and from no other module of the domain (docs/ARCHITECTURE.md), so what
 * is here is data the domain has checked and hands down to be stored or compiled to SQL. It
 * imports nothing; the modules that own each concept re-export what is theirs.
 */

// ---------------------------------------------------------------------------------------------
// People and credentials (auth/roles.ts)
// ---------------------------------------------------------------------------------------------

/**
 * Roles of users and API clients alike, with the names the published service uses. A Reviewer
 * (month-end close, SPEC §14) reads everything and approves prepared periods, and changes nothing else.
 */
export const ROLES = ['Administrator', 'Full member', 'View-only', 'Reviewer'] as const;
export type Role = (typeof ROLES)[number];

// ---------------------------------------------------------------------------------------------
// Fields and filters of transactions (transactions/query.ts checks them, db compiles them)
// ---------------------------------------------------------------------------------------------

export type ColumnType = 'string' | 'number' | 'money' | 'date' | 'boolean';

/** A custom column a dataset declares in datasets.columns. */
export interface DatasetColumn {
  name: string;
  type: ColumnType;
}

export type StandardFieldName =
  'id' | 'description' | 'type' | 'timestamp' | 'amount' | 'currency' | 'reconciliationStatus' | 'reference' | 'bankReference' | 'externalId';

/** A field of a transaction that a filter or a requested column refers to. */
export type FieldReference = { source: 'standard'; name: StandardFieldName; type: ColumnType } | { source: 'custom'; name: string; type: ColumnType };

/** Numeric operands are decimal texts, compared as SQL numeric so that nothing is rounded. */
export type NumericCondition =
  | { kind: 'anyOf'; values: string[] }
  | { kind: 'compare'; operator: 'ne' | 'ge' | 'gt' | 'le' | 'lt'; value: string }
  | { kind: 'range'; start: string | null; end: string | null; includeStart: boolean; includeEnd: boolean };

export type TransactionFilter =
  | { type: 'string'; field: FieldReference; values: string[]; exact: boolean }
  | { type: 'boolean'; field: FieldReference; value: boolean }
  | { type: 'numeric'; field: FieldReference; condition: NumericCondition; currencies: string[] | null };

// ---------------------------------------------------------------------------------------------
// Matching rules once checked (matching/rule-definition.ts, rule-checker.ts)
// ---------------------------------------------------------------------------------------------

export const CARDINALITIES = ['1:1', '1:N', 'N:1', 'N:M'] as const;
export type Cardinality = (typeof CARDINALITIES)[number];

export const NORMALIZATIONS = ['casefold', 'digits', 'alnum', 'trim-zeros'] as const;
export type Normalization = (typeof NORMALIZATIONS)[number];

export const AMOUNT_SIGNS = ['same', 'opposite', 'absolute'] as const;
export type AmountSign = (typeof AMOUNT_SIGNS)[number];

export const ADJUSTMENT_REASONS = ['fee', 'fx', 'rounding', 'write-off'] as const;
export type AdjustmentReason = (typeof ADJUSTMENT_REASONS)[number];

export const CLASSIFICATION_STATUSES = ['informative', 'out of scope'] as const;
export type ClassificationStatus = (typeof CLASSIFICATION_STATUSES)[number];

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

/** The kinds of a run's results, as stored (matching/runs.ts lists them). */
export const RESULT_KINDS = ['matches', 'suggestions', 'ambiguous', 'classified', 'bounds'] as const;
export type ResultKind = (typeof RESULT_KINDS)[number];

// ---------------------------------------------------------------------------------------------
// File imports (imports/import-failure.ts)
// ---------------------------------------------------------------------------------------------

/**
 * - `file`: the file does not follow its format (the line, CSV column or XML path say where);
 * - `mapping`: the CSV mapping does not fit the file or the dataset;
 * - `refused`: the import cannot be done as asked (no mapping for a CSV that needs one, a format
 *   not recognised, a dataset column in the way of a bank column);
 * - `interrupted`: the server stopped (or its job failed for good) before the import ended;
 * - `upload`: the file of an asynchronous import did not arrive whole;
 * - `internal`: an error of the server itself.
 * Only `file` ever has a line, column or XML path. Migration 0015 lists the same reasons.
 */
export const IMPORT_FAILURE_REASONS = ['file', 'mapping', 'refused', 'interrupted', 'upload', 'internal'] as const;
export type ImportFailureReason = (typeof IMPORT_FAILURE_REASONS)[number];

export interface ImportFailure {
  reason: ImportFailureReason;
  /** What went wrong and what to do, for a person: no ids, no internals. */
  message: string;
  line: number | null;
  column: string | null;
  xmlPath: string | null;
}
