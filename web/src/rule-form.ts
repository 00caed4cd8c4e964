/**
 * The rule builder's form and the rule it stands for (docs/MATCHING.md, the server's
 * rule-definition.ts): `toRule` writes the rule of a form, `toForm` reads a rule into the form or
 * says, in a sentence, why the form cannot show it. Pure: no request, no React, no run-time
 * import, so that it is tested alone. For every form the builder can make,
 * toForm(toRule(form)) gives the same form back.
 */

/** The steps, in the order the builder applies those ticked (a rule's own order is kept as written). */
export const NORMALIZATION_STEPS = ['digits', 'alnum', 'casefold', 'trim-zeros'] as const;
export type NormalizationStep = (typeof NORMALIZATION_STEPS)[number];
export const AMOUNT_SIGN_CHOICES = ['same', 'opposite', 'absolute'] as const;
export const CARDINALITY_CHOICES = ['1:1', '1:N', 'N:1', 'N:M'] as const;
export const OUTCOME_CHOICES = ['match', 'suggest', 'informative', 'out of scope'] as const;
export const ADJUSTMENT_CHOICES = ['', 'fee', 'fx', 'rounding', 'write-off'] as const;
export const TEXT_COMPARISONS = ['equals', 'contains', 'similar'] as const;

/** One side's value in a text condition: a field (with its pattern and steps) or a fixed text. */
export type ValueForm = { kind: 'field'; path: string; extract: string; normalize: NormalizationStep[] } | { kind: 'text'; value: string };

export type DateDirection = 'before' | 'after';

export type ConditionForm =
  | { kind: 'amount'; sign: (typeof AMOUNT_SIGN_CHOICES)[number]; toleranceAbsolute: string; tolerancePercent: string }
  | { kind: 'date'; path: string; fromDays: string; fromDirection: DateDirection; toDays: string; toDirection: DateDirection }
  | { kind: 'text'; compare: (typeof TEXT_COMPARISONS)[number]; origin: ValueForm; target: ValueForm; minimum: string };

export interface RuleForm {
  name: string;
  enabled: boolean;
  /** Kept as the rule has it (null: left to the service); the list's arrows change it. */
  priority: number | null;
  originDatasetIds: string[];
  targetDatasetIds: string[];
  /** Filters narrowing each side, kept as written: the form shows how many, the JSON view shows them. */
  originAudience: unknown[];
  targetAudience: unknown[];
  cardinality: (typeof CARDINALITY_CHOICES)[number];
  conditions: ConditionForm[];
  /** The group key of each side; empty for none. */
  groupOrigin: string;
  groupTarget: string;
  maxGroupSize: number;
  outcome: (typeof OUTCOME_CHOICES)[number];
  adjustment: (typeof ADJUSTMENT_CHOICES)[number];
  currency: 'same' | 'any';
  runOnIngest: boolean;
}

export const DAY_MILLISECONDS = 86_400_000;

export function newRuleForm(): RuleForm {
  return {
    name: '',
    enabled: true,
    priority: null,
    originDatasetIds: [],
    targetDatasetIds: [],
    originAudience: [],
    targetAudience: [],
    cardinality: '1:1',
    conditions: [newCondition('amount'), newCondition('date')],
    groupOrigin: '',
    groupTarget: '',
    maxGroupSize: 5,
    outcome: 'match',
    adjustment: '',
    currency: 'same',
    runOnIngest: false,
  };
}

export function newCondition(kind: ConditionForm['kind']): ConditionForm {
  switch (kind) {
    case 'amount':
      return { kind, sign: 'same', toleranceAbsolute: '', tolerancePercent: '' };
    case 'date':
      return { kind, path: 'timestamp', fromDays: '3', fromDirection: 'before', toDays: '3', toDirection: 'after' };
    case 'text':
      return {
        kind,
        compare: 'equals',
        origin: { kind: 'field', path: 'reference', extract: '', normalize: [] },
        target: { kind: 'field', path: 'reference', extract: '', normalize: [] },
        minimum: '',
      };
  }
}

export const isClassification = (form: RuleForm) => form.outcome === 'informative' || form.outcome === 'out of scope';

/** A number of days and its direction as the duration the service reads ("-P3D", "P5D"); 0 days is "P0D". */
function durationOf(days: string, direction: DateDirection): string {
  const trimmed = days.trim();
  return direction === 'before' && trimmed !== '0' ? `-P${trimmed}D` : `P${trimmed}D`;
}

function valueOf(value: ValueForm): Record<string, unknown> {
  if (value.kind === 'text') return { value: value.value };
  return {
    path: value.path,
    ...(value.extract !== '' ? { extract: value.extract } : {}),
    ...(value.normalize.length > 0 ? { normalize: [...value.normalize] } : {}),
  };
}

function conditionOf(condition: ConditionForm): Record<string, unknown> {
  switch (condition.kind) {
    case 'amount': {
      const tolerance = {
        ...(condition.toleranceAbsolute.trim() !== '' ? { absolute: condition.toleranceAbsolute.trim() } : {}),
        ...(condition.tolerancePercent.trim() !== '' ? { percent: condition.tolerancePercent.trim() } : {}),
      };
      return { type: 'amount', sign: condition.sign, ...(Object.keys(tolerance).length > 0 ? { tolerance } : {}) };
    }
    case 'date':
      return {
        type: 'date',
        path: condition.path,
        min: durationOf(condition.fromDays, condition.fromDirection),
        max: durationOf(condition.toDays, condition.toDirection),
      };
    case 'text': {
      const similarity = condition.compare === 'similar' ? { min: Number(condition.minimum.trim()) } : {};
      return { type: condition.compare, origin: valueOf(condition.origin), target: valueOf(condition.target), ...similarity };
    }
  }
}

/** The rule of a form, every member written out (a change sent as a merge replaces them all). */
export function toRule(form: RuleForm): Record<string, unknown> {
  const classification = isClassification(form);
  const grouped = form.groupOrigin !== '' || form.groupTarget !== '';
  return {
    name: form.name,
    enabled: form.enabled,
    ...(form.priority !== null ? { priority: form.priority } : {}),
    origin: { datasetIds: [...form.originDatasetIds], audience: [...form.originAudience] },
    target: classification ? null : { datasetIds: [...form.targetDatasetIds], audience: [...form.targetAudience] },
    cardinality: form.cardinality,
    conditions: form.conditions.map(conditionOf),
    groupBy: grouped ? { origin: form.groupOrigin === '' ? [] : [form.groupOrigin], target: form.groupTarget === '' ? [] : [form.groupTarget] } : null,
    maxGroupSize: form.maxGroupSize,
    outcome: classification ? { status: form.outcome } : form.outcome,
    adjustment: form.adjustment === '' ? null : { reason: form.adjustment },
    currency: form.currency,
    runOnIngest: form.runOnIngest,
  };
}

// ---------------------------------------------------------------------------------------------
// Reading a rule into the form.
// ---------------------------------------------------------------------------------------------

/** Why the form cannot show a rule: a sentence for the person, shown above the JSON view. */
class NotExpressible extends Error {}
const refuse = (reason: string): never => {
  throw new NotExpressible(reason);
};

/** Members the service keeps, which a rule it returns carries and the form leaves alone. */
const SERVICE_MEMBERS = new Set(['id', 'version', 'createdAt', 'createdBy', 'updatedAt', 'updatedBy']);
const RULE_MEMBERS = new Set([
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
]);

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

function oneOf<T extends string>(value: unknown, choices: readonly T[], fallback: T, what: string): T {
  if (value === undefined || value === null) return fallback;
  if (typeof value === 'string' && (choices as readonly string[]).includes(value)) return value as T;
  return refuse(`Its ${what} is not one the form offers.`);
}

function booleanOf(value: unknown, fallback: boolean, what: string): boolean {
  if (value === undefined || value === null) return fallback;
  if (typeof value === 'boolean') return value;
  return refuse(`Its ${what} is neither yes nor no.`);
}

function sideOf(value: unknown, which: 'origin' | 'target'): { datasetIds: string[]; audience: unknown[] } {
  const name = which === 'origin' ? 'first side' : 'second side';
  if (value === undefined || value === null) return { datasetIds: [], audience: [] };
  if (!isObject(value)) return refuse(`Its ${name} is not a list of datasets.`);
  for (const key of Object.keys(value)) if (key !== 'datasetIds' && key !== 'audience') refuse(`Its ${name} has a setting the form does not know.`);
  const datasetIds = value.datasetIds ?? [];
  if (!Array.isArray(datasetIds) || !datasetIds.every((id) => typeof id === 'string')) return refuse(`Its ${name} does not list datasets.`);
  const audience = value.audience ?? [];
  if (!Array.isArray(audience)) return refuse(`The filters of its ${name} are not a list.`);
  return { datasetIds: [...datasetIds], audience: [...audience] };
}

/** A duration the service takes, as whole days and a direction; anything finer is refused. */
function daysOf(value: unknown, bound: 'from' | 'to'): { days: string; direction: DateDirection } {
  let days: number | null = null;
  if (typeof value === 'number' && Number.isInteger(value) && value % DAY_MILLISECONDS === 0) days = value / DAY_MILLISECONDS;
  if (typeof value === 'string') {
    const written = /^(-)?P(\d{1,3})([DW])$/.exec(value);
    if (written) days = (written[1] ? -1 : 1) * Number(written[2]) * (written[3] === 'W' ? 7 : 1);
  }
  if (days === null) return refuse('Its date window is not in whole days (the form counts days).');
  const direction: DateDirection = days < 0 || (days === 0 && bound === 'from') ? 'before' : 'after';
  return { days: String(Math.abs(days)), direction };
}

function valueFormOf(value: unknown, side: 'origin' | 'target'): ValueForm {
  if (!isObject(value)) return refuse('A text condition compares something the form does not know.');
  if ('value' in value && !('path' in value)) {
    if (side === 'origin') return refuse('A text condition compares a fixed text on the first side; the form offers a fixed text only on the second side.');
    if (typeof value.value !== 'string' || Object.keys(value).length !== 1) return refuse('A text condition has a fixed text the form cannot show.');
    return { kind: 'text', value: value.value };
  }
  for (const key of Object.keys(value)) if (!['path', 'extract', 'normalize'].includes(key)) refuse('A text condition has a setting the form does not know.');
  if (typeof value.path !== 'string') return refuse('A text condition names no field.');
  const extract = value.extract ?? '';
  if (typeof extract !== 'string') return refuse('A pattern in a text condition is not text.');
  const normalize = value.normalize ?? [];
  if (!Array.isArray(normalize) || !normalize.every((step) => (NORMALIZATION_STEPS as readonly unknown[]).includes(step))) {
    return refuse('A text condition tidies its text in a way the form does not offer.');
  }
  const steps = normalize as NormalizationStep[];
  if (new Set(steps).size !== steps.length) return refuse('A text condition repeats a way of tidying its text.');
  return { kind: 'field', path: value.path, extract, normalize: [...steps] };
}

function conditionFormOf(condition: unknown): ConditionForm {
  if (!isObject(condition)) return refuse('One of its conditions is not one the form knows.');
  if ('any' in condition) return refuse('It has alternatives (one of several conditions must hold), which the form does not offer.');
  const allowed = (keys: string[]) => {
    for (const key of Object.keys(condition)) if (!keys.includes(key)) refuse('One of its conditions has a setting the form does not know.');
  };
  switch (condition.type) {
    case 'amount': {
      allowed(['type', 'sign', 'tolerance']);
      const tolerance = condition.tolerance ?? {};
      if (!isObject(tolerance)) return refuse('Its amount tolerance is not one the form can show.');
      for (const key of Object.keys(tolerance))
        if (key !== 'absolute' && key !== 'percent') refuse('Its amount tolerance has a setting the form does not know.');
      const text = (value: unknown) => {
        if (value === undefined || value === null) return '';
        if (typeof value === 'string') return value;
        if (typeof value === 'number') return String(value);
        return refuse('Its amount tolerance is not an amount.');
      };
      return {
        kind: 'amount',
        sign: oneOf(condition.sign, AMOUNT_SIGN_CHOICES, 'same', 'sign of amounts'),
        toleranceAbsolute: text(tolerance.absolute),
        tolerancePercent: text(tolerance.percent),
      };
    }
    case 'date': {
      allowed(['type', 'path', 'min', 'max']);
      const from = daysOf(condition.min, 'from');
      const to = daysOf(condition.max, 'to');
      const path = condition.path ?? 'timestamp';
      if (typeof path !== 'string') return refuse('Its date condition names no date.');
      return { kind: 'date', path, fromDays: from.days, fromDirection: from.direction, toDays: to.days, toDirection: to.direction };
    }
    case 'equals':
    case 'contains':
    case 'similar': {
      allowed(condition.type === 'similar' ? ['type', 'origin', 'target', 'min'] : ['type', 'origin', 'target']);
      let minimum = '';
      if (condition.type === 'similar') {
        if (typeof condition.min !== 'number') return refuse('Its similarity condition has no threshold the form can show.');
        minimum = String(condition.min);
      }
      return {
        kind: 'text',
        compare: condition.type,
        origin: valueFormOf(condition.origin, 'origin'),
        target: valueFormOf(condition.target, 'target'),
        minimum,
      };
    }
    default:
      return refuse('One of its conditions is of a kind the form does not know.');
  }
}

function groupKeyOf(value: unknown): string {
  if (value === undefined) return '';
  if (!Array.isArray(value) || value.length > 1 || !value.every((key) => typeof key === 'string')) {
    return refuse('It groups by more than one field on a side, which the form does not offer.');
  }
  return (value[0] as string | undefined) ?? '';
}

/** The form of a rule, or the reason the form cannot show it (the JSON view then shows it). */
export function toForm(rule: unknown): { form: RuleForm } | { reason: string } {
  try {
    if (!isObject(rule)) return refuse('It is not a rule (a rule is an object with a name, its sides and conditions).');
    for (const key of Object.keys(rule)) {
      if (!RULE_MEMBERS.has(key) && !SERVICE_MEMBERS.has(key)) refuse(`It has a setting the form does not know (“${key}”).`);
    }
    const name = rule.name ?? '';
    if (typeof name !== 'string') return refuse('Its name is not text.');
    const priority = rule.priority ?? null;
    if (priority !== null && (typeof priority !== 'number' || !Number.isInteger(priority))) return refuse('Its order is not a whole number.');
    const origin = sideOf(rule.origin, 'origin');
    const target = sideOf(rule.target, 'target');
    const conditions = rule.conditions ?? [];
    if (!Array.isArray(conditions)) return refuse('Its conditions are not a list.');
    const groupBy = rule.groupBy ?? null;
    if (groupBy !== null && !isObject(groupBy)) return refuse('Its grouping is not one the form can show.');
    const maxGroupSize = rule.maxGroupSize ?? 5;
    if (typeof maxGroupSize !== 'number' || !Number.isInteger(maxGroupSize)) return refuse('Its largest set size is not a whole number.');
    let outcome: RuleForm['outcome'];
    if (isObject(rule.outcome)) {
      if (Object.keys(rule.outcome).length !== 1) return refuse('Its outcome is not one the form offers.');
      outcome = oneOf(rule.outcome.status, ['informative', 'out of scope'] as const, 'informative', 'outcome');
    } else {
      outcome = oneOf(rule.outcome, ['match', 'suggest'] as const, 'match', 'outcome');
    }
    let adjustment: RuleForm['adjustment'] = '';
    if (rule.adjustment !== undefined && rule.adjustment !== null) {
      if (!isObject(rule.adjustment) || Object.keys(rule.adjustment).length !== 1) return refuse('Its adjustment is not one the form offers.');
      adjustment = oneOf(rule.adjustment.reason, ['fee', 'fx', 'rounding', 'write-off'] as const, 'fee', 'adjustment');
    }
    if (outcome === 'informative' || outcome === 'out of scope') {
      if (rule.target !== undefined && rule.target !== null) return refuse('It sets a status and still names a second side.');
    }
    if (groupBy !== null)
      for (const key of Object.keys(groupBy)) if (key !== 'origin' && key !== 'target') refuse('Its grouping has a setting the form does not know.');
    const groupOrigin = groupBy === null ? '' : groupKeyOf(groupBy.origin);
    const groupTarget = groupBy === null ? '' : groupKeyOf(groupBy.target);
    if (groupBy !== null && groupOrigin === '' && groupTarget === '') return refuse('Its grouping names no field.');
    return {
      form: {
        name,
        enabled: booleanOf(rule.enabled, true, 'switch'),
        priority,
        originDatasetIds: origin.datasetIds,
        targetDatasetIds: target.datasetIds,
        originAudience: origin.audience,
        targetAudience: target.audience,
        cardinality: oneOf(rule.cardinality, CARDINALITY_CHOICES, '1:1', 'cardinality'),
        conditions: conditions.map(conditionFormOf),
        groupOrigin,
        groupTarget,
        maxGroupSize,
        outcome,
        adjustment,
        currency: oneOf(rule.currency, ['same', 'any'] as const, 'same', 'currency setting'),
        runOnIngest: booleanOf(rule.runOnIngest, false, 'run-on-import switch'),
      },
    };
  } catch (error) {
    if (error instanceof NotExpressible) return { reason: error.message };
    throw error;
  }
}

// ---------------------------------------------------------------------------------------------
// The service's problems, placed at the form's fields.
// ---------------------------------------------------------------------------------------------

/**
 * The form's field a place in the rule concerns (the one table of the server's names to the
 * form's): "conditions.2.origin.extract", "origin", "groupOrigin" ...; "rule" for the rule as a
 * whole. The condition's kind tells a date's "min" from a similarity's.
 */
export function fieldOfPointer(pointer: string, form: RuleForm): string {
  const parts = pointer.split('/').slice(1);
  const [member, ...rest] = parts;
  switch (member) {
    case undefined:
    case '':
      return 'rule';
    case 'name':
    case 'cardinality':
    case 'outcome':
    case 'adjustment':
    case 'currency':
    case 'runOnIngest':
    case 'enabled':
    case 'maxGroupSize':
      return member;
    case 'origin':
    case 'target':
      return rest[0] === 'audience' ? `${member}Audience` : member;
    case 'groupBy':
      return rest[0] === 'target' ? 'groupTarget' : 'groupOrigin';
    case 'conditions': {
      if (rest.length === 0) return 'conditions';
      const index = Number(rest[0]);
      const condition = form.conditions[index];
      if (condition === undefined) return 'conditions';
      const [field, sub] = rest.slice(1);
      const at = `conditions.${index}`;
      if (field === undefined) return at;
      switch (condition.kind) {
        case 'amount':
          if (field === 'tolerance') return sub === 'percent' ? `${at}.tolerancePercent` : `${at}.toleranceAbsolute`;
          return `${at}.sign`;
        case 'date':
          return field === 'min' ? `${at}.from` : field === 'max' ? `${at}.to` : `${at}.path`;
        case 'text':
          if (field === 'origin' || field === 'target') {
            const value = condition[field];
            if (value.kind === 'text') return `${at}.${field}.value`;
            return `${at}.${field}.${sub === 'extract' || sub === 'normalize' ? sub : 'path'}`;
          }
          if (field === 'min') return `${at}.minimum`;
          return `${at}.compare`;
      }
      return at;
    }
    default:
      return 'rule';
  }
}

const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/gi;
const POINTER = /\s*\((?:already )?at \/[^)]*\)|\/[A-Za-z]+(?:\/[\w-]+)+/g;

/** A message of the service as a sentence: datasets by their names, no places in the JSON. */
export function inWords(message: string, datasetNames: ReadonlyMap<string, string>): string {
  const text = message.replace(UUID, (id) => `“${datasetNames.get(id.toLowerCase()) ?? 'a dataset'}”`).replace(POINTER, '');
  const trimmed = text.trim();
  const sentence = trimmed.charAt(0).toUpperCase() + trimmed.slice(1);
  return /[.!?]$/.test(sentence) ? sentence : `${sentence}.`;
}

/** The steps with one ticked or unticked: a new step goes to its place in NORMALIZATION_STEPS' order. */
export function withStep(steps: readonly NormalizationStep[], step: NormalizationStep, ticked: boolean): NormalizationStep[] {
  if (!ticked) return steps.filter((kept) => kept !== step);
  if (steps.includes(step)) return [...steps];
  const rank = NORMALIZATION_STEPS.indexOf(step);
  const at = steps.findIndex((kept) => NORMALIZATION_STEPS.indexOf(kept) > rank);
  return at === -1 ? [...steps, step] : [...steps.slice(0, at), step, ...steps.slice(at)];
}

const PLACE_WORDS: Record<string, string> = {
  origin: 'first side',
  target: 'second side',
  datasetIds: 'datasets',
  audience: 'filters',
  groupBy: 'grouping',
  maxGroupSize: 'largest set',
  runOnIngest: 'run after every import',
  extract: 'pattern',
  normalize: 'tidying',
  min: 'lower bound',
  max: 'upper bound',
  any: 'alternatives',
};

/** A place in a rule said in words ("/conditions/0/sign" is "Condition 1, sign"); empty for the whole rule. */
export function placeInWords(pointer: string): string {
  const parts = pointer
    .split('/')
    .slice(1)
    .filter((part) => part !== '');
  const words: string[] = [];
  for (let index = 0; index < parts.length; index++) {
    const part = parts[index]!;
    const next = parts[index + 1];
    if (part === 'conditions' && next !== undefined && /^\d+$/.test(next)) {
      words.push(`condition ${Number(next) + 1}`);
      index += 1;
    } else if (/^\d+$/.test(part)) {
      words.push(`number ${Number(part) + 1}`);
    } else {
      words.push(PLACE_WORDS[part] ?? part.replace(/([a-z0-9])([A-Z])/g, '$1 $2').toLowerCase());
    }
  }
  const text = words.join(', ');
  return text.charAt(0).toUpperCase() + text.slice(1);
}
