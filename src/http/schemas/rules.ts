import { Type } from '@sinclair/typebox';
import { RULE_VERSION_MAX, RULE_VERSIONS_PAGE_SIZE } from '../../domain/matching/rules.ts';
import {
  ADJUSTMENT_REASONS,
  AMOUNT_SIGNS,
  CARDINALITIES,
  CLASSIFICATION_STATUSES,
  CURRENCY_POLICIES,
  NORMALIZATIONS,
  RULE_LIMITS,
} from '../../domain/matching/rule-definition.ts';
import { IntegerLike, Uuid } from './common.ts';
import { SearchQuery } from './transactions.ts';

/**
 * The schemas of the rules operations (SPEC §8.1). A rule's body is checked by the domain
 * (rule-checker.ts), not by these schemas: it knows the datasets, so every problem is reported
 * at its JSON pointer with the fix, all at once, instead of as the first generic schema error.
 * The request schema therefore only asks for an object; the shape is published in the
 * descriptions and, for answers, in the Rule schema.
 */

const list = (values: readonly string[]) => values.map((value) => `"${value}"`).join(', ');

/** A member of a rule body: documented here, checked by the domain. */
const Member = (description: string) => Type.Optional(Type.Unsafe<unknown>({ description }));

const SIDE_DESCRIPTION =
  `{"datasetIds": [<dataset id>...], "audience": [<SearchQuery>...]}: the datasets this side takes transactions from (1 to ${RULE_LIMITS.datasetsPerSide}), ` +
  'narrowed by an audience in the SearchQuery grammar of POST /transactions (combined with AND; a path must exist in every dataset of the side). ' +
  'Only transactions with status none or partial take part.';

const VALUE_DESCRIPTION =
  `a value is {"path": "<field>", "extract": "<regular expression with exactly one capturing group>", "normalize": [${list(NORMALIZATIONS)}]} ` +
  '(extract and normalize optional; extract runs in PostgreSQL, must be linear-time: no backreferences, lookaround, named groups or possessive quantifiers; ' +
  'use \\y, not \\b, for a word boundary; a value whose extract finds nothing makes the condition fail) or a constant {"value": "<text>"}. ' +
  'Text conditions take string fields, and number or boolean fields by their JSON text (not in similar); money and date fields are compared with amount and date conditions.';

const CONDITIONS_DESCRIPTION =
  `All must hold (at most ${RULE_LIMITS.conditions}). Kinds: ` +
  `{"type": "amount", "sign": ${list(AMOUNT_SIGNS)}, "tolerance": {"absolute": "0.50", "percent": "0.1"}} (origin total against target total, exact decimals; with both tolerances the larger applies; none: equal to the cent; one amount condition per rule); ` +
  '{"type": "date", "path": "timestamp", "min": "-P2D", "max": "P5D"} (target minus origin within the window: ISO 8601 durations in weeks, days, hours, minutes, seconds, or milliseconds; at most 366 days either way); ' +
  '{"type": "equals" | "contains", "origin": <value>, "target": <value>} (contains: the target\'s text contains the origin\'s); ' +
  '{"type": "similar", "origin": <value>, "target": <value>, "min": 0.8} (trigram similarity, 0 to 1); ' +
  `{"any": [<condition>...]} (at least one holds; at most ${RULE_LIMITS.alternatives} alternatives, nested at most ${RULE_LIMITS.anyDepth} deep). ` +
  VALUE_DESCRIPTION;

export const RuleBodySchema = Type.Object(
  {
    name: Member(`Required. What the rule matches, 1 to ${RULE_LIMITS.nameLength} characters.`),
    enabled: Member('true (default) or false. A disabled rule runs only when a run names it.'),
    priority: Member(`An integer from 0 to ${RULE_LIMITS.priorityMaximum}; lower runs first. Default: 10 after the organization's last rule.`),
    origin: Member(`Required. ${SIDE_DESCRIPTION}`),
    target: Member(`Required unless the outcome is a classification (then absent or null). ${SIDE_DESCRIPTION}`),
    cardinality: Member(`${list(CARDINALITIES)} (default "1:1"): 1:N is one origin and one or more targets.`),
    conditions: Member(CONDITIONS_DESCRIPTION),
    groupBy: Member(
      `{"origin": ["<path>"...], "target": ["<path>"...]} (1 to ${RULE_LIMITS.groupByPaths} paths a side, the same number on both, compared pairwise): ` +
        'transactions with equal keys form a group. Not with cardinality "1:1". Null or absent: no grouping (1:N and N:1 then search for the set that fits).',
    ),
    maxGroupSize: Member(
      `The most transactions in a set the set search tries (1:N, N:1 and N:M without groupBy), 1 to ${RULE_LIMITS.maxGroupSize} (default 5). ` +
        'Groups formed by groupBy are summed, not searched: this does not bound them (they take up to 100,000 transactions a side).',
    ),
    outcome: Member(
      `"match" (default: make the match when the evidence is unambiguous), "suggest" (only propose it), or {"status": ${list(CLASSIFICATION_STATUSES)}} ` +
        '(a classification rule: sets that status on the origin transactions that fit; no target, cardinality "1:1", conditions compare the origin with constants only).',
    ),
    adjustment: Member(
      `{"reason": ${list(ADJUSTMENT_REASONS)}} or null: when the amount condition holds within its tolerance but not exactly, the match records the difference as an adjustment. ` +
        'Needs an amount condition with a tolerance among the conditions.',
    ),
    currency: Member(`${list(CURRENCY_POLICIES)} (default "same"): whether transactions of different currencies may match.`),
    runOnIngest: Member('true or false (default): run this rule on new transactions after every ingest and import.'),
  },
  {
    additionalProperties: true,
    description:
      'A matching rule. Every member is checked by the service (unknown members too), and every problem is reported at once, each at its JSON pointer. ' +
      'POST /rules/validate reports the same problems without storing anything.',
  },
);

/** A PATCH: a JSON merge patch of the rule, plus an optional version precondition. */
export const RulePatchSchema = Type.Object(
  {
    ...RuleBodySchema.properties,
    version: Member('Optional precondition: the version you read. When the rule is at another version, nothing changes and the answer is 409.'),
  },
  {
    additionalProperties: true,
    description:
      'A JSON merge patch (RFC 7396) of the rule: the members given replace the stored ones, objects merge member by member, arrays (conditions, datasetIds, audience) ' +
      'are replaced whole, and null removes a member (its default applies). The result is checked as a whole.',
  },
);

export const ReorderRulesBody = Type.Object(
  {
    ruleIds: Type.Array(Uuid, {
      minItems: 1,
      maxItems: RULE_LIMITS.rulesPerOrganization,
      description: 'Rule ids in the order they should run: they get the priorities 10, 20, 30... Rules not listed keep their priorities.',
    }),
  },
  { additionalProperties: false },
);

export const RuleParams = Type.Object({ orgId: Uuid, ruleId: Uuid }, { additionalProperties: false });

export const ValidateRuleQuery = Type.Object(
  {
    ruleId: Type.Optional(
      Type.String({
        format: 'uuid',
        description: 'Check the draft as a PATCH of this rule: merged onto it, and the rule is not compared with itself for shadowing.',
      }),
    ),
  },
  { additionalProperties: false },
);

export const RuleVersionsQuery = Type.Object(
  {
    limit: Type.Optional(
      IntegerLike({
        minimum: 1,
        maximum: RULE_VERSIONS_PAGE_SIZE.maximumEntries,
        description: `Versions per page, 1..${RULE_VERSIONS_PAGE_SIZE.maximumEntries}; ${RULE_VERSIONS_PAGE_SIZE.defaultEntries} by default.`,
      }),
    ),
    beforeVersion: Type.Optional(
      IntegerLike({ minimum: 1, maximum: RULE_VERSION_MAX, description: 'Only versions below this one: pass the last version of a page to read the next.' }),
    ),
  },
  { additionalProperties: false },
);

const SideSchema = Type.Object({
  datasetIds: Type.Array(Uuid),
  audience: Type.Array(Type.Ref(SearchQuery), { description: 'SearchQuery objects as written, combined with AND; empty: every transaction of the datasets.' }),
});

/** A rule's body as stored and returned, every default filled in. */
const ruleBodyProperties = {
  name: Type.String(),
  enabled: Type.Boolean(),
  priority: Type.Integer({ description: 'Lower runs first; ties run in order of creation.' }),
  origin: SideSchema,
  target: Type.Union([SideSchema, Type.Null()], { description: 'Null for a classification rule.' }),
  cardinality: Type.String({ enum: [...CARDINALITIES] }),
  conditions: Type.Array(Type.Unknown(), { description: CONDITIONS_DESCRIPTION }),
  groupBy: Type.Union([Type.Object({ origin: Type.Array(Type.String()), target: Type.Array(Type.String()) }), Type.Null()]),
  maxGroupSize: Type.Integer(),
  outcome: Type.Unknown({ description: `"match", "suggest" or {"status": ${list(CLASSIFICATION_STATUSES)}}.` }),
  adjustment: Type.Union([Type.Object({ reason: Type.String({ enum: [...ADJUSTMENT_REASONS] }) }), Type.Null()]),
  currency: Type.String({ enum: [...CURRENCY_POLICIES] }),
  runOnIngest: Type.Boolean(),
};

const WarningSchema = Type.Object({
  path: Type.String({ description: 'JSON pointer of the member the warning is about.' }),
  message: Type.String(),
});

export const RuleSchema = Type.Object({
  id: Uuid,
  ...ruleBodyProperties,
  version: Type.Integer({ description: 'Grows with every change made by PATCH; matches record the version that made them.' }),
  createdAt: Type.String({ format: 'date-time' }),
  createdBy: Type.String(),
  updatedAt: Type.String({ format: 'date-time', description: 'The last change, a reorder included.' }),
  updatedBy: Type.String(),
});

export const RuleWriteSchema = Type.Object(
  {
    ...RuleSchema.properties,
    warnings: Type.Optional(
      Type.Array(WarningSchema, {
        description: 'Present when rules of higher priority take everything this rule could match, or this rule does that to rules of lower priority.',
      }),
    ),
  },
  { description: 'The rule as stored, with shadowing warnings when there are any.' },
);

export const RuleValidationSchema = Type.Object({
  valid: Type.Boolean({ description: 'Whether the draft has no errors; warnings do not make it invalid.' }),
  problems: Type.Array(
    Type.Object({
      path: Type.String({ description: 'JSON pointer of the offending place in the draft, e.g. "/conditions/2/origin/extract".' }),
      message: Type.String({ description: 'What is wrong and how to fix it.' }),
      severity: Type.String({ enum: ['error', 'warning'] }),
    }),
  ),
});

export const RuleVersionsSchema = Type.Object({
  ruleId: Uuid,
  currentVersion: Type.Integer(),
  deletedAt: Type.Union([Type.String({ format: 'date-time' }), Type.Null()], {
    description: 'When the rule was deleted; its versions stay readable, since matches name them.',
  }),
  versions: Type.Array(
    Type.Object({
      version: Type.Integer(),
      createdAt: Type.String({ format: 'date-time' }),
      createdBy: Type.String(),
      rule: Type.Object(ruleBodyProperties, { description: "The rule's body as this version had it." }),
    }),
    { description: 'Newest first.' },
  ),
  hasMore: Type.Boolean({ description: 'Whether older versions follow; pass the last version as beforeVersion to read them.' }),
});
