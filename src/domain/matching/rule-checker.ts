import type { FieldReference, TransactionFilter } from '../../db/repositories/transaction-query.ts';
import { KEY_GROUP_MAX_TRANSACTIONS } from '../../config.ts';
import { AppError, type ErrorDetail, matchingErrors, pointerSegment, quoteInput } from '../../errors.ts';
import { UUID_PATTERN } from '../identifiers.ts';
import { compareDecimals, parseMoney } from '../money.ts';
import { isPlainObject } from '../json.ts';
import { closestName, describeValue, isStorableText, unstorableTextProblem } from '../text.ts';
import { describeValidPaths, parseSearch, resolvePath, SEARCH_LIMITS, STANDARD_FIELDS } from '../transactions/search.ts';
import {
  ADJUSTMENT_REASONS,
  AMOUNT_SIGNS,
  CARDINALITIES,
  CLASSIFICATION_STATUSES,
  CURRENCY_POLICIES,
  NORMALIZATIONS,
  RULE_LIMITS,
  RULE_TOTAL_CONDITIONS_LIMIT,
  type AdjustmentReason,
  type Cardinality,
  type CheckedCondition,
  type CheckedRule,
  type CheckedSide,
  type CheckedValue,
  type ClassificationStatus,
  type CurrencyPolicy,
  type DatasetColumnsById,
  type Normalization,
  type RuleBody,
  type RuleConditionBody,
  type RuleOutcome,
  type RuleSideBody,
  type RuleValueBody,
} from './rule-definition.ts';
import { durationProblem, parseDuration } from './rule-durations.ts';
import { patternProblem } from './rule-patterns.ts';

/**
 * Checks a rule as a caller wrote it (SPEC §8.1) against the datasets it names, and makes of it
 * the normalized body that is stored and returned, and the CheckedRule the engine compiles.
 *
 * Every problem is collected, not only the first, each at the JSON pointer of the offending
 * place and with a message that says the fix, because a rule is written in one go and a
 * finance engineer should not have to send it ten times to learn its ten mistakes.
 *
 * Decisions written down here (the OpenAPI descriptions of src/http/schemas/rules.ts repeat them):
 * - Text conditions (equals, contains, similar) compare text. A string field is used as it is;
 *   a number or boolean field by its JSON text (12345, true), which is what an invoice number
 *   kept in a number column needs. `similar` takes string fields only (a trigram score of a
 *   number means nothing). Money and date fields are refused in text conditions, because their
 *   text depends on scale and format: amount and date conditions compare them exactly.
 * - A field must resolve to the same column (name and type) in every dataset of its side,
 *   because the engine reads one column per value.
 * - A classification rule (outcome {"status": ...}) has no target, so it may only hold text
 *   conditions that compare the origin with constants; amounts and dates are narrowed with the
 *   origin's audience.
 * - Optional members that are absent are null in the body (target, groupBy, adjustment), and a
 *   null sent for them means "none", so that a rule read with GET can be sent back as it is.
 */

/** Problems reported for one rule at most; the rest are counted in the message. */
export const RULE_PROBLEMS_LIMIT = 100;
/** The widest date window: one year and a day, beyond any settlement or payment delay. */
export const DATE_WINDOW_LIMIT_MILLISECONDS = 366 * 24 * 60 * 60 * 1000;
/** The priority a rule gets when none is given and no rule exists yet; later ones go 10 after the last. */
export const PRIORITY_STEP = 10;
export const DEFAULT_MAX_GROUP_SIZE = 5;

/** Percent tolerance above which an amount condition would accept nearly anything. */
const PERCENT_TOLERANCE_MAXIMUM = '100';

/** Properties the service sets on a rule; a body may not write them. */
const READ_ONLY_PROPERTIES = ['id', 'version', 'createdAt', 'createdBy', 'updatedAt', 'updatedBy', 'warnings'];

const RULE_PROPERTIES = [
  'name',
  'enabled',
  'priority',
  'origin',
  'target',
  'cardinality',
  'conditions',
  'groupBy',
  'maxGroupSize',
  'outcome',
  'adjustment',
  'currency',
  'runOnIngest',
] as const;

const CONDITION_TYPES = ['amount', 'date', 'equals', 'contains', 'similar'] as const;
type ConditionType = (typeof CONDITION_TYPES)[number];

export type ProblemSeverity = 'error' | 'warning';

/** One finding of POST /rules/validate. */
export interface RuleProblem {
  path: string;
  message: string;
  severity: ProblemSeverity;
}

export type UncheckedIdentity = 'id' | 'version';

/** What rule-checker makes of a valid rule. */
export interface RuleCheckResult {
  body: RuleBody;
  checked: Omit<CheckedRule, UncheckedIdentity>;
}

/** An extraction pattern that passed the checks made here, for PostgreSQL to compile (rules.ts). */
export interface PatternPlace {
  path: string;
  pattern: string;
}

export interface RuleInspection {
  /** The normalized body and the checked rule; null when any problem was found. */
  result: RuleCheckResult | null;
  problems: ErrorDetail[];
  /** Problems found beyond RULE_PROBLEMS_LIMIT, not listed. */
  omittedProblems: number;
  patterns: PatternPlace[];
}

export interface RuleCheckOptions {
  /** The priority of a rule that gives none (rules.ts: 10 after the organization's last rule). */
  defaultPriority?: number;
}

/**
 * Checks a rule and returns its normalized body and its checked form, or throws an
 * invalid_request AppError listing every problem. Extraction patterns are checked here with
 * JavaScript and for linear time; rules.ts also has PostgreSQL compile them.
 */
export function checkRule(raw: unknown, datasetColumns: DatasetColumnsById, options: RuleCheckOptions = {}): RuleCheckResult {
  const inspection = inspectRule(raw, datasetColumns, options);
  if (inspection.result === null) throw ruleProblemsError(inspection.problems, inspection.omittedProblems);
  return inspection.result;
}

/** Like checkRule, but returns the problems instead of throwing (POST /rules/validate). */
export function inspectRule(raw: unknown, datasetColumns: DatasetColumnsById, options: RuleCheckOptions = {}): RuleInspection {
  const inspector = new RuleInspector(datasetColumns);
  const result = inspector.inspect(raw, options.defaultPriority ?? PRIORITY_STEP);
  const failed = inspector.problems.length > 0 || result === null;
  return { result: failed ? null : result, problems: inspector.problems, omittedProblems: inspector.omitted, patterns: inspector.patterns };
}

/** The error of an invalid rule: the first problem as the message, all of them as details. */
export function ruleProblemsError(problems: readonly ErrorDetail[], omitted = 0): AppError {
  return matchingErrors.ruleInvalid(problems, omitted);
}

const choiceList = (choices: readonly string[]) => choices.map((choice) => JSON.stringify(choice)).join(', ');

type SideName = 'origin' | 'target';

/** What the conditions can refer to: the datasets (that exist) of each side. */
interface SideScope {
  name: SideName;
  /** The existing datasets of the side, in the order written; empty when the side is invalid. */
  datasetIds: string[];
}

interface ConditionScope {
  origin: SideScope;
  /** Null for a classification rule, which has no target. */
  target: SideScope | null;
  classification: boolean;
  /** Leaf conditions seen so far (RULE_TOTAL_CONDITIONS_LIMIT). */
  leaves: number;
}

type Read<T> = T | undefined;

class RuleInspector {
  readonly problems: ErrorDetail[] = [];
  readonly patterns: PatternPlace[] = [];
  omitted = 0;
  readonly #seen = new Set<string>();
  /** The existing datasets of each side, as far as they could be read. */
  readonly sideScopes: Record<SideName, SideScope> = { origin: { name: 'origin', datasetIds: [] }, target: { name: 'target', datasetIds: [] } };

  constructor(private readonly columns: DatasetColumnsById) {}

  problem(path: string, message: string): void {
    const key = `${path}\u0000${message}`;
    if (this.#seen.has(key)) return;
    this.#seen.add(key);
    if (this.problems.length < RULE_PROBLEMS_LIMIT) this.problems.push({ path, message });
    else this.omitted += 1;
  }

  /** Reports members other than `allowed`; read-only ones and near-misses get their own hint. */
  refuseUnknown(object: Record<string, unknown>, allowed: readonly string[], pointer: string, readOnly: readonly string[] = []): void {
    for (const key of Object.keys(object)) {
      if (allowed.includes(key)) continue;
      const path = `${pointer}/${pointerSegment(key)}`;
      if (readOnly.includes(key)) {
        this.problem(path, `is set by the service and cannot be written; leave "${key}" out`);
        continue;
      }
      const suggestion = closestName(key, allowed);
      this.problem(path, `unknown property ${quoteInput(key)}${suggestion ? `; did you mean "${suggestion}"?` : ''}; allowed here: ${allowed.join(', ')}`);
    }
  }

  inspect(raw: unknown, defaultPriority: number): RuleCheckResult | null {
    if (!isPlainObject(raw)) {
      this.problem('', 'must be a JSON object: a rule {"name", "origin", "target", "conditions", ...}');
      return null;
    }
    this.refuseUnknown(raw, RULE_PROPERTIES, '', READ_ONLY_PROPERTIES);
    const name = this.readName(raw.name);
    const enabled = this.readBoolean(raw.enabled, '/enabled', true);
    const priority = this.readInteger(raw.priority, '/priority', 0, RULE_LIMITS.priorityMaximum, Math.min(defaultPriority, RULE_LIMITS.priorityMaximum));
    const outcome = this.readOutcome(raw.outcome);
    const classification = outcome?.checked.kind === 'classify';
    const cardinality = this.readChoice(raw.cardinality, '/cardinality', CARDINALITIES, '1:1');
    if (classification && cardinality !== undefined && cardinality !== '1:1') {
      this.problem('/cardinality', 'a classification rule sets the status of single origin transactions, so its cardinality must be "1:1" (or left out)');
    }
    const origin = this.readSide(raw.origin, 'origin');
    let target: Read<{ body: RuleSideBody; checked: CheckedSide; scope: SideScope } | null> = null;
    if (classification) {
      if (raw.target !== undefined && raw.target !== null) {
        this.problem('/target', 'a classification rule (outcome {"status": ...}) has no target; remove "target" (or set it to null)');
      }
    } else {
      target = this.readSide(raw.target, 'target');
      // A transaction offered on both sides could be allocated once as an origin and again as a
      // target within one run; matching inside one dataset needs two audiences that cannot meet.
      const originIds = new Set(this.sideScopes.origin.datasetIds);
      const shared = this.sideScopes.target.datasetIds.findIndex((id) => originIds.has(id));
      if (shared !== -1) {
        this.problem(
          `/target/datasetIds/${shared}`,
          `dataset ${this.sideScopes.target.datasetIds[shared]} is on both sides; a rule matches one set of transactions against another, so name different datasets for origin and target`,
        );
      }
    }
    const currency = this.readChoice(raw.currency, '/currency', CURRENCY_POLICIES, 'same') as Read<CurrencyPolicy>;
    const scope: ConditionScope = {
      origin: this.sideScopes.origin,
      target: classification ? null : this.sideScopes.target,
      classification,
      leaves: 0,
    };
    const conditions = this.readConditions(raw.conditions, scope);
    const groupBy = this.readGroupBy(raw.groupBy, cardinality, scope);
    const maxGroupSize = this.readInteger(
      raw.maxGroupSize,
      '/maxGroupSize',
      1,
      RULE_LIMITS.maxGroupSize,
      DEFAULT_MAX_GROUP_SIZE,
      // Two bounds exist, and the larger one needs no setting: say which one this is.
      `; it bounds the set search (1:N, N:1 and N:M without groupBy), which tries every set of up to that many; groups formed by groupBy are summed, not searched, and take up to ${KEY_GROUP_MAX_TRANSACTIONS.toLocaleString('en-US')} transactions a side without it`,
    );
    const adjustment = this.readAdjustment(raw.adjustment, raw.conditions, classification);
    const runOnIngest = this.readBoolean(raw.runOnIngest, '/runOnIngest', false);

    if (
      name === undefined ||
      enabled === undefined ||
      priority === undefined ||
      outcome === undefined ||
      cardinality === undefined ||
      origin === undefined ||
      target === undefined ||
      currency === undefined ||
      conditions === undefined ||
      groupBy === undefined ||
      maxGroupSize === undefined ||
      adjustment === undefined ||
      runOnIngest === undefined ||
      this.problems.length > 0
    ) {
      return null;
    }
    const body: RuleBody = {
      name,
      enabled,
      priority,
      origin: origin.body,
      target: target?.body ?? null,
      cardinality,
      conditions: conditions.body,
      groupBy: groupBy?.body ?? null,
      maxGroupSize,
      outcome: outcome.body,
      adjustment: adjustment === null ? null : { reason: adjustment },
      currency,
      runOnIngest,
    };
    return {
      body,
      checked: {
        name,
        enabled,
        priority,
        origin: origin.checked,
        target: target?.checked ?? null,
        cardinality,
        conditions: conditions.checked,
        groupBy: groupBy?.checked ?? null,
        maxGroupSize,
        outcome: outcome.checked,
        adjustmentReason: adjustment,
        anyCurrency: currency === 'any',
        runOnIngest,
      },
    };
  }

  // --- scalars ---------------------------------------------------------------------------------

  readName(value: unknown): Read<string> {
    if (value === undefined || value === null) {
      this.problem('/name', `is required: a name that says what the rule matches, 1 to ${RULE_LIMITS.nameLength} characters`);
      return undefined;
    }
    if (typeof value !== 'string') {
      this.problem('/name', `must be a string of 1 to ${RULE_LIMITS.nameLength} characters`);
      return undefined;
    }
    const trimmed = value.trim();
    if (trimmed === '' || trimmed.length > RULE_LIMITS.nameLength) {
      this.problem('/name', `must be 1 to ${RULE_LIMITS.nameLength} characters (surrounding spaces are ignored), got ${trimmed.length}`);
      return undefined;
    }
    if (!isStorableText(trimmed)) {
      this.problem('/name', unstorableTextProblem(trimmed));
      return undefined;
    }
    return trimmed;
  }

  readBoolean(value: unknown, path: string, fallback: boolean): Read<boolean> {
    if (value === undefined || value === null) return fallback;
    if (typeof value !== 'boolean') {
      this.problem(path, `must be true or false (default ${fallback})`);
      return undefined;
    }
    return value;
  }

  /** An integer, also as a string of digits (SPEC §2), within bounds. */
  readInteger(value: unknown, path: string, minimum: number, maximum: number, fallback: number, explanation = ''): Read<number> {
    if (value === undefined || value === null) return fallback;
    const number = typeof value === 'number' ? value : typeof value === 'string' && /^-?[0-9]{1,16}$/.test(value) ? Number(value) : NaN;
    if (!Number.isSafeInteger(number) || number < minimum || number > maximum) {
      this.problem(
        path,
        `must be an integer from ${minimum} to ${maximum} (a string of digits such as "${fallback}" is accepted too), got ${describeValue(value)}${explanation}`,
      );
      return undefined;
    }
    return number;
  }

  readChoice<T extends string>(value: unknown, path: string, choices: readonly T[], fallback: T): Read<T> {
    if (value === undefined || value === null) return fallback;
    if (typeof value !== 'string' || !(choices as readonly string[]).includes(value)) {
      this.problem(path, `must be one of ${choiceList(choices)} (default "${fallback}")`);
      return undefined;
    }
    return value as T;
  }

  readOutcome(value: unknown): Read<{ body: RuleBody['outcome']; checked: RuleOutcome }> {
    const expected =
      'must be "match" (make the match when the evidence is unambiguous), "suggest" (propose it for a person to confirm), ' +
      `or {"status": ${CLASSIFICATION_STATUSES.map((status) => JSON.stringify(status)).join(' | ')}} (a classification rule, without target)`;
    if (value === undefined || value === null || value === 'match') return { body: 'match', checked: { kind: 'match' } };
    if (value === 'suggest') return { body: 'suggest', checked: { kind: 'suggest' } };
    if (!isPlainObject(value)) {
      this.problem('/outcome', expected);
      return undefined;
    }
    this.refuseUnknown(value, ['status'], '/outcome');
    const status = value.status;
    if (typeof status !== 'string' || !(CLASSIFICATION_STATUSES as readonly string[]).includes(status)) {
      this.problem('/outcome/status', `must be one of ${choiceList(CLASSIFICATION_STATUSES)}: the status the rule sets on the origin transactions it finds`);
      return undefined;
    }
    return { body: { status: status as ClassificationStatus }, checked: { kind: 'classify', status: status as ClassificationStatus } };
  }

  // --- sides -----------------------------------------------------------------------------------

  readSide(value: unknown, side: SideName): Read<{ body: RuleSideBody; checked: CheckedSide; scope: SideScope }> {
    const pointer = `/${side}`;
    const shape = `{"datasetIds": ["<dataset id>"], "audience": [<SearchQuery>...]}`;
    if (value === undefined || value === null) {
      this.problem(
        pointer,
        side === 'origin'
          ? `is required: ${shape}, the transactions the rule starts from`
          : `is required for a rule that matches: ${shape}, the transactions the origin may be matched to (only a classification rule, outcome {"status": ...}, has none)`,
      );
      return undefined;
    }
    if (!isPlainObject(value)) {
      this.problem(pointer, `must be an object ${shape}`);
      return undefined;
    }
    this.refuseUnknown(value, ['datasetIds', 'audience'], pointer);
    const datasetIds = this.readDatasetIds(value.datasetIds, `${pointer}/datasetIds`);
    // The audience and the conditions are checked against the datasets that exist, even when
    // another id of the side is wrong, so that their problems are reported in the same answer.
    const existing = (datasetIds?.ids ?? []).filter((id) => this.columns.has(id));
    this.sideScopes[side] = { name: side, datasetIds: existing };
    const audience = this.readAudience(value.audience, `${pointer}/audience`, existing);
    if (datasetIds === undefined || !datasetIds.valid || audience === undefined) return undefined;
    return {
      body: { datasetIds: datasetIds.ids, audience: audience.raw },
      checked: { datasetIds: datasetIds.ids, audience: audience.filters },
      scope: { name: side, datasetIds: existing },
    };
  }

  /** The well-formed ids (lower case, each once), and whether all of them are valid and exist. */
  readDatasetIds(value: unknown, pointer: string): Read<{ ids: string[]; valid: boolean }> {
    if (value === undefined || value === null) {
      this.problem(pointer, 'is required: the ids of the datasets this side takes transactions from (the list of sources shows them)');
      return undefined;
    }
    if (!Array.isArray(value) || value.length === 0) {
      this.problem(pointer, 'must be a non-empty array of dataset ids (the list of sources shows them)');
      return undefined;
    }
    if (value.length > RULE_LIMITS.datasetsPerSide) {
      this.problem(pointer, `must list at most ${RULE_LIMITS.datasetsPerSide} datasets, got ${value.length}`);
      return undefined;
    }
    const ids: string[] = [];
    let valid = true;
    value.forEach((id, index) => {
      const path = `${pointer}/${index}`;
      if (typeof id !== 'string' || !UUID_PATTERN.test(id)) {
        this.problem(path, 'must be a dataset id (a UUID, as the list of sources shows them)');
        valid = false;
        return;
      }
      const lowered = id.toLowerCase();
      const earlier = ids.indexOf(lowered);
      if (earlier !== -1) {
        this.problem(path, `repeats dataset ${lowered} (already at ${pointer}/${earlier}); list each dataset once`);
        valid = false;
        return;
      }
      ids.push(lowered);
      if (!this.columns.has(lowered)) {
        this.problem(path, 'no dataset with this id in this organization (the list of sources shows every dataset)');
        valid = false;
      }
    });
    return { ids, valid };
  }

  /** The audience in the SearchQuery grammar of §3, parsed against every dataset of the side. */
  readAudience(value: unknown, pointer: string, datasetIds: readonly string[]): Read<{ raw: unknown[]; filters: Map<string, TransactionFilter[]> }> {
    if (value === undefined || value === null) return { raw: [], filters: new Map(datasetIds.map((id) => [id, []])) };
    if (!Array.isArray(value)) {
      this.problem(pointer, 'must be an array of SearchQuery objects {"path", "search": {"type", "value"}}, combined with AND (empty: every transaction)');
      return undefined;
    }
    if (value.length > SEARCH_LIMITS.queries) {
      this.problem(pointer, `must have at most ${SEARCH_LIMITS.queries} queries, got ${value.length}`);
      return undefined;
    }
    const filters = new Map<string, TransactionFilter[]>(datasetIds.map((id) => [id, []]));
    let valid = true;
    value.forEach((query, index) => {
      for (const datasetId of datasetIds) {
        const columns = this.columns.get(datasetId)!;
        try {
          filters.get(datasetId)!.push(...parseSearch([query], columns));
        } catch (error) {
          if (!(error instanceof AppError)) throw error;
          valid = false;
          const detail = error.details[0] ?? { path: '/search/0', message: error.message };
          // parseSearch names the query "/search/0"; here it is this audience's query `index`.
          const path = `${pointer}/${index}${detail.path.replace(/^\/search\/0/, '')}`;
          const unknownPath = path.endsWith('/path') && isPlainObject(query) && typeof query.path === 'string';
          const hint = unknownPath
            ? this.unknownPathHint(query.path as string, datasetId, datasetIds.length)
            : path.endsWith('/search/type')
              ? this.validPathsHint(datasetId, datasetIds.length)
              : '';
          this.problem(path, `${detail.message}${hint}`);
        }
      }
    });
    return valid ? { raw: value, filters } : undefined;
  }

  /**
   * What follows "unknown path ...": a near miss when there is one, and the valid paths, e.g.
   * `; did you mean "invoiceNumber"? Valid paths: ...`.
   */
  unknownPathHint(path: string, datasetId: string, datasetsOnSide: number): string {
    const columns = this.columns.get(datasetId) ?? [];
    const suggestion = closestName(path, [...STANDARD_FIELDS.map((field) => field.name), ...columns.map((column) => column.name)]);
    if (!suggestion) return this.validPathsHint(datasetId, datasetsOnSide);
    return datasetsOnSide === 1
      ? `; did you mean "${suggestion}"? Valid paths: ${describeValidPaths(columns)}`
      : ` in dataset ${datasetId}; did you mean "${suggestion}"? Valid paths there: ${describeValidPaths(columns)}`;
  }

  /** "; valid paths: ..." for a side of one dataset, "in dataset X; valid paths there: ..." otherwise. */
  validPathsHint(datasetId: string, datasetsOnSide: number): string {
    const columns = this.columns.get(datasetId) ?? [];
    return datasetsOnSide === 1
      ? `; valid paths: ${describeValidPaths(columns)}`
      : ` in dataset ${datasetId}; valid paths there: ${describeValidPaths(columns)}`;
  }

  /**
   * Resolves a path in every dataset of a side. It must name the same column everywhere (the
   * engine reads one column per value); null when it does not resolve, reported at `pointer`.
   */
  resolveOnSide(path: string, pointer: string, side: SideScope): FieldReference | null {
    let resolved: FieldReference | null = null;
    let valid = true;
    for (const datasetId of side.datasetIds) {
      const field = resolvePath(path, this.columns.get(datasetId)!);
      if (!field) {
        this.problem(pointer, `unknown path ${quoteInput(path)} on the ${side.name} side${this.unknownPathHint(path, datasetId, side.datasetIds.length)}`);
        valid = false;
        continue;
      }
      if (resolved === null) {
        resolved = field;
      } else if (resolved.source !== field.source || resolved.name !== field.name || resolved.type !== field.type) {
        this.problem(
          pointer,
          `${quoteInput(path)} names different columns in the ${side.name} datasets (${resolved.name}, a ${resolved.type} field, in ${side.datasetIds[0]}; ` +
            `${field.name}, a ${field.type} field, in ${datasetId}); a value is read from one column, so give the datasets the same column or write separate rules`,
        );
        valid = false;
      }
    }
    return valid ? resolved : null;
  }

  // --- conditions ------------------------------------------------------------------------------

  readConditions(value: unknown, scope: ConditionScope): Read<{ body: RuleConditionBody[]; checked: CheckedCondition[] }> {
    if (value === undefined || value === null) return { body: [], checked: [] };
    if (!Array.isArray(value)) {
      this.problem('/conditions', 'must be an array of conditions, all of which must hold ({"any": [...]} groups alternatives)');
      return undefined;
    }
    if (value.length > RULE_LIMITS.conditions) {
      this.problem('/conditions', `must have at most ${RULE_LIMITS.conditions} conditions, got ${value.length}`);
      return undefined;
    }
    const results = value.map((condition, index) => this.readCondition(condition, `/conditions/${index}`, 0, scope));
    const amountIndexes = results.flatMap((result, index) => (result?.body && 'type' in result.body && result.body.type === 'amount' ? [index] : []));
    if (amountIndexes.length > 1) {
      this.problem(
        `/conditions/${amountIndexes[1]}`,
        `is a second amount condition (the first is /conditions/${amountIndexes[0]}); two would be redundant or contradictory, so keep one (with both tolerances, the larger applies)`,
      );
    }
    if (results.some((result) => result === undefined)) return undefined;
    return { body: results.map((result) => result!.body), checked: results.map((result) => result!.checked) };
  }

  readCondition(value: unknown, pointer: string, depth: number, scope: ConditionScope): Read<{ body: RuleConditionBody; checked: CheckedCondition }> {
    const shapes = `{"type": ${CONDITION_TYPES.map((type) => JSON.stringify(type)).join(' | ')}, ...} or {"any": [<condition>...]}`;
    if (!isPlainObject(value)) {
      this.problem(pointer, `must be a condition object: ${shapes}`);
      return undefined;
    }
    if ('any' in value) return this.readAlternatives(value, pointer, depth, scope);
    const type = value.type;
    if (type === undefined) {
      this.problem(`${pointer}/type`, `is required: one of ${choiceList(CONDITION_TYPES)} (or write {"any": [...]} for alternatives)`);
      return undefined;
    }
    if (typeof type !== 'string' || !(CONDITION_TYPES as readonly string[]).includes(type)) {
      this.problem(`${pointer}/type`, `must be one of ${choiceList(CONDITION_TYPES)} (alternatives are written {"any": [...]}, without "type")`);
      return undefined;
    }
    scope.leaves += 1;
    if (scope.leaves === RULE_TOTAL_CONDITIONS_LIMIT + 1) {
      this.problem(
        pointer,
        `the rule has more than ${RULE_TOTAL_CONDITIONS_LIMIT} conditions in all (counting those inside "any" groups); split it into several rules`,
      );
    }
    if (scope.leaves > RULE_TOTAL_CONDITIONS_LIMIT) return undefined;
    switch (type as ConditionType) {
      case 'amount':
        return this.readAmount(value, pointer, scope);
      case 'date':
        return this.readDate(value, pointer, scope);
      case 'equals':
      case 'contains':
      case 'similar':
        return this.readTextCondition(value, pointer, type as 'equals' | 'contains' | 'similar', scope);
    }
  }

  readAlternatives(
    value: Record<string, unknown>,
    pointer: string,
    depth: number,
    scope: ConditionScope,
  ): Read<{ body: RuleConditionBody; checked: CheckedCondition }> {
    for (const key of Object.keys(value)) {
      if (key === 'any') continue;
      this.problem(
        `${pointer}/${pointerSegment(key)}`,
        key === 'type'
          ? 'a group of alternatives is written {"any": [...]} alone; remove "type"'
          : `unknown property ${quoteInput(key)}; a group of alternatives has only "any"`,
      );
    }
    const alternatives = value.any;
    const anyPointer = `${pointer}/any`;
    if (depth + 1 > RULE_LIMITS.anyDepth) {
      this.problem(anyPointer, `nests "any" groups ${depth + 1} deep; at most ${RULE_LIMITS.anyDepth} levels are allowed, so flatten the alternatives`);
      return undefined;
    }
    if (!Array.isArray(alternatives) || alternatives.length === 0) {
      this.problem(anyPointer, 'must be a non-empty array of conditions, at least one of which must hold');
      return undefined;
    }
    if (alternatives.length > RULE_LIMITS.alternatives) {
      this.problem(anyPointer, `must have at most ${RULE_LIMITS.alternatives} alternatives, got ${alternatives.length}`);
      return undefined;
    }
    const results = alternatives.map((alternative, index) => this.readCondition(alternative, `${anyPointer}/${index}`, depth + 1, scope));
    if (results.some((result) => result === undefined)) return undefined;
    return {
      body: { any: results.map((result) => result!.body) },
      checked: { type: 'any', alternatives: results.map((result) => result!.checked) },
    };
  }

  /** Amount and date conditions compare the two sides, which a classification rule does not have. */
  refuseWithoutTarget(pointer: string, type: string, scope: ConditionScope): boolean {
    if (!scope.classification) return false;
    this.problem(
      `${pointer}/type`,
      `an ${type} condition compares the origin with its target, and a classification rule has none; narrow the origin's transactions with "origin.audience" instead (e.g. {"path": "${type === 'amount' ? 'amount' : 'timestamp'}", "search": {"type": "${type === 'amount' ? 'money' : 'date'}", "value": {...}}})`,
    );
    return true;
  }

  readAmount(value: Record<string, unknown>, pointer: string, scope: ConditionScope): Read<{ body: RuleConditionBody; checked: CheckedCondition }> {
    this.refuseUnknown(value, ['type', 'sign', 'tolerance'], pointer);
    if (this.refuseWithoutTarget(pointer, 'amount', scope)) return undefined;
    const sign = value.sign;
    let validSign = true;
    if (typeof sign !== 'string' || !(AMOUNT_SIGNS as readonly string[]).includes(sign)) {
      this.problem(
        `${pointer}/sign`,
        `${sign === undefined ? 'is required' : 'must be one of these'}: "same" (both sides carry the same sign), "opposite" (money in on one side is money out on the other, as a bank receipt against a ledger credit) or "absolute" (signs are ignored)`,
      );
      validSign = false;
    }
    let tolerance: { absolute?: string; percent?: string } | undefined;
    let validTolerance = true;
    if (value.tolerance !== undefined && value.tolerance !== null) {
      const raw = value.tolerance;
      const tolerancePointer = `${pointer}/tolerance`;
      if (!isPlainObject(raw)) {
        this.problem(tolerancePointer, 'must be an object {"absolute": "0.50", "percent": "0.1"} (either or both); leave it out for amounts equal to the cent');
        validTolerance = false;
      } else {
        this.refuseUnknown(raw, ['absolute', 'percent'], tolerancePointer);
        tolerance = {};
        for (const key of ['absolute', 'percent'] as const) {
          if (raw[key] === undefined || raw[key] === null) continue;
          const decimal = parseMoney(raw[key]);
          const path = `${tolerancePointer}/${key}`;
          const example = key === 'absolute' ? '"0.50" (in the currency of the transactions)' : '"0.1" (that is, 0.1 %)';
          if (decimal === null || decimal.startsWith('-')) {
            this.problem(path, `must be a non-negative decimal such as ${example}, preferably as a JSON string; up to 18 digits before the point and 6 after`);
            validTolerance = false;
          } else if (key === 'percent' && compareDecimals(decimal, PERCENT_TOLERANCE_MAXIMUM) === 1) {
            this.problem(path, `must be at most ${PERCENT_TOLERANCE_MAXIMUM} (percent), got ${decimal}`);
            validTolerance = false;
          } else {
            tolerance[key] = decimal;
          }
        }
        if (validTolerance && tolerance.absolute === undefined && tolerance.percent === undefined) {
          this.problem(tolerancePointer, 'gives neither "absolute" nor "percent"; give one or both, or leave "tolerance" out for amounts equal to the cent');
          validTolerance = false;
        }
      }
    }
    if (!validSign || !validTolerance) return undefined;
    const body: RuleConditionBody = tolerance
      ? { type: 'amount', sign: sign as (typeof AMOUNT_SIGNS)[number], tolerance }
      : { type: 'amount', sign: sign as (typeof AMOUNT_SIGNS)[number] };
    return {
      body,
      checked: {
        type: 'amount',
        sign: sign as (typeof AMOUNT_SIGNS)[number],
        toleranceAbsolute: tolerance?.absolute ?? null,
        tolerancePercent: tolerance?.percent ?? null,
      },
    };
  }

  readDate(value: Record<string, unknown>, pointer: string, scope: ConditionScope): Read<{ body: RuleConditionBody; checked: CheckedCondition }> {
    this.refuseUnknown(value, ['type', 'path', 'min', 'max'], pointer);
    if (this.refuseWithoutTarget(pointer, 'date', scope)) return undefined;
    const path = value.path === undefined || value.path === null ? 'timestamp' : value.path;
    let field: FieldReference | null = null;
    let valid = true;
    if (typeof path !== 'string' || path === '' || path.length > SEARCH_LIMITS.pathLength) {
      this.problem(
        `${pointer}/path`,
        `must be the name of a date field ("timestamp" by default, or a date column), at most ${SEARCH_LIMITS.pathLength} characters`,
      );
      valid = false;
    } else {
      const origin = this.resolveOnSide(path, `${pointer}/path`, scope.origin);
      const target = scope.target ? this.resolveOnSide(path, `${pointer}/path`, scope.target) : null;
      for (const [side, resolved] of [
        ['origin', origin],
        ['target', target],
      ] as const) {
        if (resolved && resolved.type !== 'date') {
          this.problem(
            `${pointer}/path`,
            `"${resolved.name}" is a ${resolved.type} field on the ${side} side; a date condition needs a date field: "timestamp" or a date column`,
          );
          valid = false;
        }
      }
      if (origin && target && (origin.source !== target.source || origin.name !== target.name)) {
        this.problem(
          `${pointer}/path`,
          `${quoteInput(path)} names the column "${origin.name}" on the origin side but "${target.name}" on the target side; a date condition reads the same column on both`,
        );
        valid = false;
      }
      field = origin ?? target;
      if (!origin || !target) valid = false;
    }
    const bounds: Record<'min' | 'max', number | undefined> = { min: undefined, max: undefined };
    for (const key of ['min', 'max'] as const) {
      const raw = value[key];
      const boundPath = `${pointer}/${key}`;
      if (raw === undefined || raw === null) {
        this.problem(
          boundPath,
          `is required: the ${key === 'min' ? 'earliest' : 'latest'} the target may be relative to the origin (target minus origin), as an ISO 8601 duration such as ${key === 'min' ? '"-P2D"' : '"P5D"'} or milliseconds`,
        );
        continue;
      }
      const milliseconds = parseDuration(raw);
      if (milliseconds === null) {
        this.problem(boundPath, durationProblem(raw));
        continue;
      }
      if (Math.abs(milliseconds) > DATE_WINDOW_LIMIT_MILLISECONDS) {
        this.problem(boundPath, `must lie within 366 days either way ("-P366D" to "P366D"); a wider window would compare nearly every pair of transactions`);
        continue;
      }
      bounds[key] = milliseconds;
    }
    if (bounds.min !== undefined && bounds.max !== undefined && bounds.min > bounds.max) {
      this.problem(
        `${pointer}/min`,
        `is later than "max" (${bounds.min} ms > ${bounds.max} ms), so no pair could fit; swap them (the window is target minus origin)`,
      );
      return undefined;
    }
    if (!valid || field === null || bounds.min === undefined || bounds.max === undefined) return undefined;
    return {
      body: { type: 'date', path: path as string, min: value.min as string | number, max: value.max as string | number },
      checked: { type: 'date', path: path as string, field, minMilliseconds: bounds.min, maxMilliseconds: bounds.max },
    };
  }

  readTextCondition(
    value: Record<string, unknown>,
    pointer: string,
    type: 'equals' | 'contains' | 'similar',
    scope: ConditionScope,
  ): Read<{ body: RuleConditionBody; checked: CheckedCondition }> {
    this.refuseUnknown(value, type === 'similar' ? ['type', 'origin', 'target', 'min'] : ['type', 'origin', 'target'], pointer);
    const origin = this.readValue(value.origin, `${pointer}/origin`, scope.origin, type, scope);
    const target = this.readValue(value.target, `${pointer}/target`, scope.target, type, scope);
    let min: number | undefined;
    if (type === 'similar') {
      if (typeof value.min !== 'number' || !Number.isFinite(value.min) || value.min < 0 || value.min > 1) {
        this.problem(
          `${pointer}/min`,
          `${value.min === undefined ? 'is required' : 'must be a number from 0 to 1'}: the least trigram similarity that counts (0.8 is a good start; 1 means the same trigrams, 0 accepts anything and only ranks)`,
        );
      } else {
        min = value.min;
      }
    }
    if (origin === undefined || target === undefined || (type === 'similar' && min === undefined)) return undefined;
    if (origin.checked.kind === 'constant' && target.checked.kind === 'constant') {
      this.problem(pointer, 'compares two constants, which is always true or always false; at least one value must be a field {"path": ...}');
      return undefined;
    }
    if (type === 'similar') {
      return {
        body: { type, origin: origin.body, target: target.body, min: min! },
        checked: { type, origin: origin.checked, target: target.checked, min: min! },
      };
    }
    return { body: { type, origin: origin.body, target: target.body }, checked: { type, origin: origin.checked, target: target.checked } };
  }

  readValue(
    value: unknown,
    pointer: string,
    side: SideScope | null,
    conditionType: 'equals' | 'contains' | 'similar',
    _scope: ConditionScope,
  ): Read<{ body: RuleValueBody; checked: CheckedValue }> {
    const shape = '{"path": "<field>"} (optionally with "extract": "<pattern with one group>" and "normalize": [...]) or a constant {"value": "<text>"}';
    if (value === undefined || value === null) {
      this.problem(pointer, `is required: ${shape}`);
      return undefined;
    }
    if (!isPlainObject(value)) {
      this.problem(pointer, `must be ${shape}`);
      return undefined;
    }
    if ('value' in value) {
      if ('path' in value) {
        this.problem(pointer, 'gives both "path" and "value"; a value is either a field {"path"} or a constant {"value"}');
        return undefined;
      }
      for (const key of Object.keys(value)) {
        if (key === 'value') continue;
        this.problem(
          `${pointer}/${pointerSegment(key)}`,
          key === 'extract' || key === 'normalize'
            ? `"${key}" applies to a field; a constant is compared as written, so write it in the form you want to compare`
            : `unknown property ${quoteInput(key)}; a constant has only "value"`,
        );
      }
      const constant = value.value;
      if (typeof constant !== 'string' || constant === '' || constant.length > RULE_LIMITS.constantLength) {
        this.problem(
          `${pointer}/value`,
          typeof constant === 'number' || typeof constant === 'boolean'
            ? `must be a string; write ${JSON.stringify(constant)} as text ("${String(constant)}")`
            : `must be a non-empty string of at most ${RULE_LIMITS.constantLength} characters (an empty text never matches)`,
        );
        return undefined;
      }
      if (!isStorableText(constant)) {
        this.problem(`${pointer}/value`, unstorableTextProblem(constant));
        return undefined;
      }
      return { body: { value: constant }, checked: { kind: 'constant', value: constant } };
    }
    this.refuseUnknown(value, ['path', 'extract', 'normalize'], pointer);
    const path = value.path;
    if (typeof path !== 'string' || path === '' || path.length > SEARCH_LIMITS.pathLength) {
      this.problem(
        `${pointer}/path`,
        `${path === undefined ? 'is required' : 'must be a non-empty string'}: the field to compare (a standard field such as "reference" or a column of the dataset), at most ${SEARCH_LIMITS.pathLength} characters; or give a constant {"value": ...}`,
      );
      return undefined;
    }
    if (side === null) {
      this.problem(`${pointer}/path`, 'a classification rule has no target transaction; compare the origin with a constant {"value": "..."} instead');
      return undefined;
    }
    let valid = true;
    const field = this.resolveOnSide(path, `${pointer}/path`, side);
    if (field) {
      const typeProblem = textFieldProblem(field, conditionType);
      if (typeProblem) {
        this.problem(`${pointer}/path`, typeProblem);
        valid = false;
      }
    } else {
      valid = false;
    }
    let extract: string | null = null;
    if (value.extract !== undefined && value.extract !== null) {
      if (typeof value.extract !== 'string') {
        this.problem(`${pointer}/extract`, 'must be a regular expression (a string) with exactly one capturing group, e.g. "INV-(\\d+)"');
        valid = false;
      } else {
        const problem = patternProblem(value.extract);
        if (problem) {
          this.problem(`${pointer}/extract`, `the pattern ${problem}`);
          valid = false;
        } else {
          extract = value.extract;
          this.patterns.push({ path: `${pointer}/extract`, pattern: value.extract });
        }
      }
    }
    const normalize = this.readNormalizations(value.normalize, `${pointer}/normalize`);
    if (!valid || field === null || normalize === undefined) return undefined;
    const body: RuleValueBody = { path };
    if (extract !== null) body.extract = extract;
    if (normalize.length > 0) body.normalize = normalize;
    return { body, checked: { kind: 'field', path, field, extract, normalize } };
  }

  readNormalizations(value: unknown, pointer: string): Read<Normalization[]> {
    if (value === undefined || value === null) return [];
    const expected = `must be an array of steps applied in order, each one of ${choiceList(NORMALIZATIONS)}`;
    if (!Array.isArray(value)) {
      this.problem(pointer, expected);
      return undefined;
    }
    const steps: Normalization[] = [];
    let valid = true;
    value.forEach((step, index) => {
      if (typeof step !== 'string' || !(NORMALIZATIONS as readonly string[]).includes(step)) {
        this.problem(
          `${pointer}/${index}`,
          `must be one of ${choiceList(NORMALIZATIONS)} (casefold: ignore case; digits: keep digits only; alnum: keep letters and digits; trim-zeros: drop leading zeros)`,
        );
        valid = false;
      } else if (steps.includes(step as Normalization)) {
        this.problem(`${pointer}/${index}`, `repeats "${step}"; list each step once`);
        valid = false;
      } else {
        steps.push(step as Normalization);
      }
    });
    return valid ? steps : undefined;
  }

  // --- groups and adjustment ---------------------------------------------------------------------

  readGroupBy(
    value: unknown,
    cardinality: Cardinality | undefined,
    scope: ConditionScope,
  ): Read<{ body: NonNullable<RuleBody['groupBy']>; checked: NonNullable<CheckedRule['groupBy']> } | null> {
    if (value === undefined || value === null) return null;
    const shape = '{"origin": ["<path>"...], "target": ["<path>"...]}';
    if (cardinality === '1:1') {
      this.problem('/groupBy', 'groups need a cardinality of "1:N", "N:1" or "N:M"; remove "groupBy" or change "cardinality"');
      return undefined;
    }
    if (!isPlainObject(value)) {
      this.problem('/groupBy', `must be an object ${shape}: transactions with equal keys form one group`);
      return undefined;
    }
    this.refuseUnknown(value, ['origin', 'target'], '/groupBy');
    const sides: Record<SideName, Read<{ paths: string[]; fields: FieldReference[] }>> = { origin: undefined, target: undefined };
    for (const sideName of ['origin', 'target'] as const) {
      const pointer = `/groupBy/${sideName}`;
      const paths = value[sideName];
      if (!Array.isArray(paths) || paths.length === 0 || paths.length > RULE_LIMITS.groupByPaths) {
        this.problem(pointer, `must be an array of 1 to ${RULE_LIMITS.groupByPaths} paths whose equal values form a group (a payout id, a batch reference)`);
        continue;
      }
      const side = sideName === 'origin' ? scope.origin : scope.target;
      const fields: FieldReference[] = [];
      let valid = true;
      paths.forEach((path, index) => {
        const pathPointer = `${pointer}/${index}`;
        if (typeof path !== 'string' || path === '' || path.length > SEARCH_LIMITS.pathLength) {
          this.problem(pathPointer, `must be the name of a field, at most ${SEARCH_LIMITS.pathLength} characters`);
          valid = false;
          return;
        }
        if (paths.indexOf(path) !== index) {
          this.problem(pathPointer, `repeats ${quoteInput(path)}; list each key once`);
          valid = false;
          return;
        }
        if (side === null) {
          valid = false;
          return;
        }
        const field = this.resolveOnSide(path, pathPointer, side);
        if (field) fields.push(field);
        else valid = false;
      });
      if (valid) sides[sideName] = { paths: paths as string[], fields };
    }
    const origin = sides.origin;
    const target = sides.target;
    if (Array.isArray(value.origin) && Array.isArray(value.target) && value.origin.length !== value.target.length) {
      this.problem(
        '/groupBy/target',
        `has ${value.target.length} path${value.target.length === 1 ? '' : 's'} but "origin" has ${value.origin.length}; keys are compared pairwise, so both sides need the same number`,
      );
      return undefined;
    }
    if (!origin || !target) return undefined;
    return {
      body: { origin: origin.paths, target: target.paths },
      checked: { origin: origin.fields, target: target.fields, originPaths: origin.paths, targetPaths: target.paths },
    };
  }

  /** `conditions` as written: the tolerance is looked for there, so that a mistake elsewhere in them is not reported twice. */
  readAdjustment(value: unknown, conditions: unknown, classification: boolean): Read<AdjustmentReason | null> {
    if (value === undefined || value === null) return null;
    if (classification) {
      this.problem('/adjustment', 'a classification rule makes no match, so there is no difference to record; remove "adjustment"');
      return undefined;
    }
    if (!isPlainObject(value)) {
      this.problem('/adjustment', `must be an object {"reason": ${choiceList(ADJUSTMENT_REASONS)}}`);
      return undefined;
    }
    this.refuseUnknown(value, ['reason'], '/adjustment');
    const reason = value.reason;
    if (typeof reason !== 'string' || !(ADJUSTMENT_REASONS as readonly string[]).includes(reason)) {
      this.problem('/adjustment/reason', `must be one of ${choiceList(ADJUSTMENT_REASONS)}: what the difference the tolerance closes is booked as`);
      return undefined;
    }
    const tolerated =
      Array.isArray(conditions) &&
      conditions.some(
        (condition) => isPlainObject(condition) && condition.type === 'amount' && condition.tolerance !== undefined && condition.tolerance !== null,
      );
    if (!tolerated) {
      this.problem(
        '/adjustment',
        'needs an amount condition with a tolerance among "conditions" (not inside "any"): an adjustment records the difference a tolerance lets through; add e.g. {"type": "amount", "sign": "opposite", "tolerance": {"absolute": "0.50"}} or remove "adjustment"',
      );
      return undefined;
    }
    return reason as AdjustmentReason;
  }
}

/** Whether a field fits a text condition (see the decisions at the top of this file). */
function textFieldProblem(field: FieldReference, conditionType: 'equals' | 'contains' | 'similar'): string | null {
  if (field.type === 'string') return null;
  if (field.type === 'money')
    return `"${field.name}" is a money field; compare amounts with an amount condition {"type": "amount", ...}, which compares exact decimals`;
  if (field.type === 'date') return `"${field.name}" is a date field; compare dates with a date condition {"type": "date", "path": "${field.name}", ...}`;
  if (conditionType === 'similar') {
    return `"${field.name}" is a ${field.type} field; a similarity of ${field.type}s means nothing, so use an equals condition (which compares it as text)`;
  }
  return null;
}
