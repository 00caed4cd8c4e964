import type { CheckedCondition, CheckedRule, CheckedSide, CheckedValue } from '../../domain/model.ts';
import { SCORE_WEIGHTS } from './score-weights.ts';
import { filterSql, numericExpression, textExpression, type FieldReference, type Parameters } from '../repositories/transaction-query.ts';

/**
 * A checked rule compiled to SQL fragments over two rows of `transactions`: `o` (the origin
 * side) and `t` (the target side). Values travel only as parameters; the SQL text is built from
 * fixed fragments, so nothing a caller writes in a rule becomes SQL.
 *
 * Amounts are compared on what is left to allocate: the absolute amount minus what earlier
 * matches already allocated, in SQL numeric, so that a partly matched transaction offers only
 * its remainder and no arithmetic ever leaves exact decimals.
 */

/** What is left to allocate on a transaction row, as SQL numeric (NULL without an amount). */
export const remainingSql = (alias: string) => `(abs(${alias}.amount) - ${alias}.allocated_amount)`;

/** A value of a text condition as SQL text: extracted, normalized, and NULL when empty (an empty value never matches). */
export function valueSql(value: CheckedValue, alias: string, parameters: Parameters): string {
  if (value.kind === 'constant') return `nullif(${parameters.add(value.value, 'text')}, '')`;
  let expression =
    value.field.type === 'string'
      ? textExpression(value.field, parameters, alias)
      : value.field.type === 'boolean'
        ? `(${alias}.custom ->> ${parameters.add(value.field.name, 'text')})`
        : `(${numericExpression(value.field, parameters, alias).sql})::text`;
  if (value.extract !== null) expression = `substring(${expression} from ${parameters.add(value.extract, 'text')})`;
  for (const step of value.normalize) {
    switch (step) {
      case 'casefold':
        expression = `lower(${expression})`;
        break;
      case 'digits':
        expression = `regexp_replace(${expression}, '[^0-9]', '', 'g')`;
        break;
      case 'alnum':
        expression = `regexp_replace(${expression}, '[^[:alnum:]]', '', 'g')`;
        break;
      case 'trim-zeros':
        expression = `ltrim(${expression}, '0')`;
        break;
    }
  }
  return `nullif(${expression}, '')`;
}

/** A date field of a row as epoch milliseconds (numeric for custom columns). */
function dateSql(condition: Extract<CheckedCondition, { type: 'date' }>, alias: string, parameters: Parameters): string {
  return numericExpression(condition.field, parameters, alias).sql;
}

/** The tolerance an amount condition allows for a given origin total, as SQL numeric. */
export function toleranceSql(condition: Extract<CheckedCondition, { type: 'amount' }>, originTotal: string, parameters: Parameters): string {
  const absolute = condition.toleranceAbsolute === null ? '0' : parameters.add(condition.toleranceAbsolute, 'numeric');
  const percent = condition.tolerancePercent === null ? '0' : `(${parameters.add(condition.tolerancePercent, 'numeric')} * ${originTotal} / 100)`;
  return `greatest(${absolute}, ${percent})`;
}

/** The amount condition of a rule, if it has one at the top level. */
export function amountConditionOf(rule: CheckedRule): Extract<CheckedCondition, { type: 'amount' }> | null {
  return (rule.conditions.find((condition) => condition.type === 'amount') as Extract<CheckedCondition, { type: 'amount' }> | undefined) ?? null;
}

/** The first date condition at the top level: its distance is part of the score. */
function dateConditionOf(rule: CheckedRule): Extract<CheckedCondition, { type: 'date' }> | null {
  return (rule.conditions.find((condition) => condition.type === 'date') as Extract<CheckedCondition, { type: 'date' }> | undefined) ?? null;
}

/** Whether the signs of `o` and `t` are as the amount condition's sign says: true for "absolute". */
export function signSql(sign: 'same' | 'opposite' | 'absolute'): string {
  if (sign === 'same') return 'sign(o.amount) = sign(t.amount)';
  if (sign === 'opposite') return 'sign(o.amount) = -sign(t.amount)';
  return 'true';
}

/**
 * How the amount condition takes part in a pair's SQL:
 * - `pair`: the two remainders must fit each other (a 1:1 candidate);
 * - `part-of-target-set`: the target may be one of several whose total fits the origin, so it must
 *   not exceed the origin's remainder plus the tolerance (1:N);
 * - `part-of-origin-set`: the mirror image (N:1);
 * - `sign-only`: only the signs are checked here; totals are compared per group (N:M, groups);
 * - `netted`: not even the signs: a payout's refunds and fees have the sign opposite to its
 *   charges, and count against them in the group's signed total (1:N and N:1 groups by key).
 */
export type AmountUse = 'pair' | 'part-of-target-set' | 'part-of-origin-set' | 'sign-only' | 'netted';

function conditionSql(condition: CheckedCondition, parameters: Parameters, amountUse: AmountUse): string {
  switch (condition.type) {
    case 'amount': {
      const origin = remainingSql('o');
      const target = remainingSql('t');
      const sign = signSql(condition.sign);
      const tolerant = condition.toleranceAbsolute !== null || condition.tolerancePercent !== null;
      if (amountUse === 'pair') {
        // Without a tolerance the remainders must be equal, which PostgreSQL can join by hash.
        const fits = tolerant ? `abs(${origin} - ${target}) <= ${toleranceSql(condition, origin, parameters)}` : `${origin} = ${target}`;
        return `${sign} AND ${fits} AND ${origin} > 0`;
      }
      if (amountUse === 'part-of-target-set') return `${sign} AND ${target} > 0 AND ${target} <= ${origin} + ${toleranceSql(condition, origin, parameters)}`;
      if (amountUse === 'part-of-origin-set') return `${sign} AND ${origin} > 0 AND ${origin} <= ${target} + ${toleranceSql(condition, origin, parameters)}`;
      if (amountUse === 'netted') return `${origin} > 0 AND ${target} > 0`;
      return `${sign} AND ${origin} > 0 AND ${target} > 0`;
    }
    case 'date': {
      const difference = `(${dateSql(condition, 't', parameters)} - ${dateSql(condition, 'o', parameters)})`;
      return `${difference} BETWEEN ${parameters.add(condition.minMilliseconds, 'bigint')} AND ${parameters.add(condition.maxMilliseconds, 'bigint')}`;
    }
    case 'equals':
      return `${valueSql(condition.origin, 'o', parameters)} = ${valueSql(condition.target, 't', parameters)}`;
    case 'contains':
      return `strpos(${valueSql(condition.target, 't', parameters)}, ${valueSql(condition.origin, 'o', parameters)}) > 0`;
    case 'similar':
      return `similarity(${valueSql(condition.origin, 'o', parameters)}, ${valueSql(condition.target, 't', parameters)}) >= ${parameters.add(condition.min, 'real')}`;
    case 'any':
      return `(${condition.alternatives.map((alternative) => `(${conditionSql(alternative, parameters, amountUse)})`).join(' OR ')})`;
  }
}

/** Every condition of the rule (all must hold) and the currency rule, as one SQL condition over `o` and `t`. */
export function pairConditionsSql(rule: CheckedRule, parameters: Parameters, amountUse: AmountUse): string {
  const parts = rule.conditions.map((condition) => `(${conditionSql(condition, parameters, amountUse)})`);
  if (!rule.anyCurrency) parts.push('(o.currency IS NULL OR t.currency IS NULL OR upper(o.currency) = upper(t.currency))');
  parts.push('o.id <> t.id');
  return parts.join(' AND ');
}

/**
 * The date part of the score for a pair, 0 (same day) to 1 (the edge of the window): how far the
 * target's date is from the origin's, against the widest bound of the rule's date window.
 */
export function dateTermSql(rule: CheckedRule, parameters: Parameters): string {
  const condition = dateConditionOf(rule);
  if (!condition) return '0::numeric';
  const span = Math.max(Math.abs(condition.minMilliseconds), Math.abs(condition.maxMilliseconds), 1);
  return `least(1::numeric, abs(${dateSql(condition, 't', parameters)} - ${dateSql(condition, 'o', parameters)})::numeric / ${parameters.add(span, 'numeric')})`;
}

/** The text part of the score: the mean trigram similarity of the rule's "similar" conditions, 1 when it has none. */
export function textTermSql(rule: CheckedRule, parameters: Parameters): string {
  const similar = rule.conditions.filter((condition) => condition.type === 'similar') as Extract<CheckedCondition, { type: 'similar' }>[];
  if (similar.length === 0) return '1::numeric';
  const terms = similar.map(
    (condition) => `coalesce(similarity(${valueSql(condition.origin, 'o', parameters)}, ${valueSql(condition.target, 't', parameters)}), 0)::numeric`,
  );
  return `((${terms.join(' + ')}) / ${similar.length})`;
}

/**
 * The amount part of the score for two totals: 0 when they are equal, growing to 1 at the edge
 * of the tolerance.
 */
export function amountTermSql(rule: CheckedRule, originTotal: string, targetTotal: string, parameters: Parameters): string {
  const condition = amountConditionOf(rule);
  if (!condition || (condition.toleranceAbsolute === null && condition.tolerancePercent === null)) return '0::numeric';
  const tolerance = toleranceSql(condition, originTotal, parameters);
  return `CASE WHEN ${tolerance} > 0 THEN least(1::numeric, abs(${originTotal} - ${targetTotal}) / ${tolerance}) ELSE 0::numeric END`;
}

/** The score of a 1:1 pair, 0..1, rounded so that equal evidence gives an equal score. */
export function pairScoreSql(rule: CheckedRule, parameters: Parameters): string {
  return `round(1 - ${SCORE_WEIGHTS.amount} * (${amountTermSql(rule, remainingSql('o'), remainingSql('t'), parameters)})
                  - ${SCORE_WEIGHTS.date} * (${dateTermSql(rule, parameters)})
                  - ${SCORE_WEIGHTS.text} * (1 - ${textTermSql(rule, parameters)}), 6)`;
}

/** One side's pool: open transactions of the side's datasets in its audience. */
export function sidePoolSql(side: CheckedSide, alias: string, parameters: Parameters, scope: { datasetIds: string[] | null }): string {
  const datasetIds = scope.datasetIds === null ? side.datasetIds : side.datasetIds.filter((id) => scope.datasetIds!.includes(id));
  const audiences = datasetIds.map((datasetId) => {
    const filters = side.audience.get(datasetId) ?? [];
    const conditions = [`${alias}.dataset_id = ${parameters.add(datasetId, 'uuid')}`, ...filters.map((filter) => `(${filterSql(filter, parameters, alias)})`)];
    return `(${conditions.join(' AND ')})`;
  });
  if (audiences.length === 0) return 'false';
  return `${alias}.dataset_id = ANY (${parameters.add(datasetIds, 'uuid[]')})
      AND ${alias}.status_override IS NULL AND ${alias}.reconciliation_status IN ('none', 'partial')
      AND (${audiences.join(' OR ')})`;
}

/** The evidence of one condition for a pair, as a jsonb expression over `o` and `t`. */
export interface EvidenceOptions {
  /**
   * Says that the amount entry held: true of a pair chosen from the candidates of a 1:1 rule,
   * which satisfied every condition to be one. Left out, the engine decides it (for groups).
   */
  amountHeld?: boolean;
  /**
   * SQL of what was left of each side's amount when the pair was decided, in place of what is
   * left now: evidence read back after the match was made describes the amounts the rule saw.
   */
  remainders?: { origin: string; target: string };
}

function conditionEvidenceSql(condition: CheckedCondition, parameters: Parameters, options: EvidenceOptions = {}): string {
  switch (condition.type) {
    case 'amount': {
      const origin = options.remainders?.origin ?? remainingSql('o');
      const target = options.remainders?.target ?? remainingSql('t');
      return `jsonb_build_object('type', 'amount', 'sign', ${parameters.add(condition.sign, 'text')},
        'origin', ${origin}::text, 'target', ${target}::text, 'difference', (${origin} - ${target})::text,
        'tolerance', (${toleranceSql(condition, origin, parameters)})::text${options.amountHeld ? `, 'held', true` : ''})`;
    }
    case 'date':
      return `jsonb_build_object('type', 'date', 'path', ${parameters.add(condition.path, 'text')},
        'origin', ${dateSql(condition, 'o', parameters)}, 'target', ${dateSql(condition, 't', parameters)},
        'differenceMilliseconds', ${dateSql(condition, 't', parameters)} - ${dateSql(condition, 'o', parameters)},
        'min', ${parameters.add(condition.minMilliseconds, 'bigint')}, 'max', ${parameters.add(condition.maxMilliseconds, 'bigint')},
        'held', coalesce(${conditionSql(condition, parameters, 'pair')}, false))`;
    case 'equals':
    case 'contains':
    case 'similar':
      return `jsonb_build_object('type', ${parameters.add(condition.type, 'text')},
        'originValue', ${parameters.add(describeValue(condition.origin), 'text')}, 'targetValue', ${parameters.add(describeValue(condition.target), 'text')},
        'origin', ${valueSql(condition.origin, 'o', parameters)}, 'target', ${valueSql(condition.target, 't', parameters)},
        ${condition.type === 'similar' ? `'similarity', round(coalesce(similarity(${valueSql(condition.origin, 'o', parameters)}, ${valueSql(condition.target, 't', parameters)}), 0)::numeric, 4), 'min', ${parameters.add(condition.min, 'numeric')},` : ''}
        'held', coalesce(${conditionSql(condition, parameters, 'pair')}, false))`;
    case 'any':
      return `jsonb_build_object('type', 'any', 'held', coalesce(${conditionSql(condition, parameters, 'pair')}, false),
        'alternatives', jsonb_build_array(${condition.alternatives.map((alternative) => conditionEvidenceSql(alternative, parameters, { remainders: options.remainders })).join(', ')}))`;
  }
}

/** How evidence names a value: its path with extract and normalize, or the constant. */
function describeValue(value: CheckedValue): string {
  if (value.kind === 'constant') return `constant ${JSON.stringify(value.value)}`;
  const steps = [value.path, ...(value.extract !== null ? [`extract ${value.extract}`] : []), ...value.normalize];
  return steps.join(' | ');
}

/**
 * The evidence of every condition of the rule for a pair, as a jsonb array. The amount entry of
 * a pair compares the two remainders; for groups the engine replaces it with the totals. The
 * `held` of an amount entry is decided by the engine for the same reason.
 */
export function pairEvidenceSql(rule: CheckedRule, parameters: Parameters, options: EvidenceOptions = {}): string {
  const entries = rule.conditions.map((condition) => conditionEvidenceSql(condition, parameters, options));
  if (!rule.anyCurrency) {
    entries.push(`jsonb_build_object('type', 'currency', 'origin', o.currency, 'target', t.currency,
      'held', (o.currency IS NULL OR t.currency IS NULL OR upper(o.currency) = upper(t.currency)))`);
  }
  return `jsonb_build_array(${entries.join(', ')})`;
}

/**
 * Whether the evidence of the rule's conditions for a pair can be read back later from the two
 * transactions and what was left of their amounts when the pair was decided. Everything but the
 * remainders is fixed once a transaction exists; an amount inside "any" cannot be, because
 * whether that alternative held is decided on what is left now.
 */
export function pairEvidenceReadableLater(rule: CheckedRule): boolean {
  const hasAmount = (condition: CheckedCondition): boolean =>
    condition.type === 'amount' || (condition.type === 'any' && condition.alternatives.some(hasAmount));
  return !rule.conditions.some((condition) => condition.type === 'any' && hasAmount(condition));
}

/** A group key of a row: the rule's groupBy fields joined, NULL when any of them is missing. */
export function groupKeySql(fields: readonly FieldReference[], alias: string, parameters: Parameters): string {
  const parts = fields.map((field) => {
    if (field.type === 'string') return `nullif(${textExpression(field, parameters, alias)}, '')`;
    if (field.source === 'custom') return `nullif(${alias}.custom ->> ${parameters.add(field.name, 'text')}, '')`;
    return `(${numericExpression(field, parameters, alias).sql})::text`;
  });
  // NULL in any part makes the concatenation NULL: a transaction without its key forms no group.
  return parts.map((part) => `(${part} || chr(31))`).join(' || ');
}

/**
 * The conditions of a classification rule, over the origin `o` alone: such a rule has no
 * target, so its conditions compare the origin's values with constants.
 */
export function originConditionsSql(rule: CheckedRule, parameters: Parameters): string {
  if (rule.conditions.length === 0) return 'true';
  return rule.conditions.map((condition) => `(${conditionSql(condition, parameters, 'pair')})`).join(' AND ');
}
