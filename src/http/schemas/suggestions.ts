import { Type } from '@sinclair/typebox';
import {
  CANDIDATES_PAGE_SIZE,
  MATCH_GROUP_MATCHES_PAGE_SIZE,
  SUGGESTION_LIMITS,
  SUGGESTION_STATUSES,
  SUGGESTIONS_PAGE_SIZE,
} from '../../domain/matching/suggestions.ts';
import { IntegerLike, Uuid } from './common.ts';
import { MatchSchema } from './transaction-records.ts';

export const SuggestionParams = Type.Object({ orgId: Uuid, suggestionId: Uuid }, { additionalProperties: false });

const OptionSchema = Type.Object(
  {
    key: Type.String({ description: 'The transactions of the option: origin ids > target ids.' }),
    links: Type.Array(Type.Record(Type.String(), Type.Unknown())),
    adjustment: Type.Union([Type.Object({ amount: Type.String(), reason: Type.String() }), Type.Null()]),
    score: Type.String(),
    evidence: Type.Unknown(),
  },
  { additionalProperties: true },
);

export const SuggestionSchema = Type.Object({
  id: Uuid,
  status: Type.Union(
    SUGGESTION_STATUSES.map((status) => Type.Literal(status)),
    { description: 'superseded: a transaction of it was matched by a confirmed suggestion.' },
  ),
  reason: Type.Union([Type.Literal('suggest'), Type.Literal('ambiguous')], {
    description: 'suggest: the rule only proposes; ambiguous: several options fit equally well.',
  }),
  ruleId: Uuid,
  ruleVersion: Type.Integer(),
  runId: Type.Union([Uuid, Type.Null()]),
  transactionIds: Type.Array(Uuid),
  datasetIds: Type.Array(Uuid),
  options: Type.Array(OptionSchema, { description: 'Best first.' }),
  createdAt: Type.String({ format: 'date-time' }),
  decidedAt: Type.Union([Type.String(), Type.Null()]),
  decidedBy: Type.Union([Type.String(), Type.Null()]),
  decisionNote: Type.Union([Type.String(), Type.Null()]),
  groupId: Type.Union([Uuid, Type.Null()], { description: 'The match group a confirmation made.' }),
});

export const SuggestionsQuery = Type.Object(
  {
    status: Type.Optional(Type.Union(SUGGESTION_STATUSES.map((status) => Type.Literal(status)))),
    datasetId: Type.Optional(Uuid),
    ruleId: Type.Optional(Uuid),
    limit: Type.Optional(
      IntegerLike({
        minimum: 1,
        maximum: SUGGESTIONS_PAGE_SIZE.maximumEntries,
        description: `Suggestions per page; ${SUGGESTIONS_PAGE_SIZE.defaultEntries} by default.`,
      }),
    ),
    cursor: Type.Optional(Type.String({ minLength: 1, maxLength: 200 })),
  },
  { additionalProperties: false },
);

export const SuggestionPageSchema = Type.Object({
  suggestions: Type.Array(SuggestionSchema, { description: 'Oldest first.' }),
  nextCursor: Type.Union([Type.String(), Type.Null()]),
});

export const ConfirmBody = Type.Object(
  {
    option: Type.Optional(IntegerLike({ minimum: 0, maximum: 100, description: 'The index of the option to confirm; required when there are several.' })),
    note: Type.Optional(Type.String({ maxLength: 1000 })),
  },
  { additionalProperties: false },
);

export const RejectBody = Type.Object(
  { reason: Type.Optional(Type.String({ maxLength: SUGGESTION_LIMITS.reasonLength, description: 'Why; kept with the suggestion and in the audit trail.' })) },
  { additionalProperties: false },
);

export const BulkBody = Type.Object(
  {
    ids: Type.Array(Uuid, { minItems: 1, maxItems: SUGGESTION_LIMITS.bulkIds }),
    action: Type.Union([Type.Literal('confirm'), Type.Literal('reject')]),
    reason: Type.Optional(Type.String({ maxLength: SUGGESTION_LIMITS.reasonLength })),
  },
  { additionalProperties: false },
);

export const BulkAnswerSchema = Type.Object({ suggestions: Type.Array(SuggestionSchema) });

export const CandidatesQuery = Type.Object(
  {
    limit: Type.Optional(
      IntegerLike({ minimum: 1, maximum: CANDIDATES_PAGE_SIZE.maximumEntries, description: `Candidates; ${CANDIDATES_PAGE_SIZE.defaultEntries} by default.` }),
    ),
  },
  { additionalProperties: false },
);

export const CandidatesSchema = Type.Object({
  candidates: Type.Array(
    Type.Object({
      transactionId: Uuid,
      side: Type.Union([Type.Literal('origin'), Type.Literal('target')], { description: 'The side of the rule the candidate is on.' }),
      ruleId: Uuid,
      ruleVersion: Type.Integer(),
      ruleName: Type.String(),
      score: Type.String(),
      evidence: Type.Unknown({ description: 'Each condition with the two values compared and whether it held.' }),
    }),
    { description: 'Best first.' },
  ),
});

export const MatchGroupSchema = Type.Object({
  id: Uuid,
  method: Type.Union([Type.Literal('manual'), Type.Literal('rule')]),
  ruleId: Type.Union([Uuid, Type.Null()]),
  ruleVersion: Type.Union([Type.Integer(), Type.Null()]),
  runId: Type.Union([Uuid, Type.Null()]),
  suggestionId: Type.Union([Uuid, Type.Null()]),
  forced: Type.Boolean(),
  note: Type.Union([Type.String(), Type.Null()]),
  adjustment: Type.Union([Type.Object({ amount: Type.String(), reason: Type.String() }), Type.Null()], {
    description: 'The difference a tolerance closed, counted toward both sides.',
  }),
  evidence: Type.Unknown({
    description: 'For a rule-made group: each condition with both values, the difference and whether it held, the score, and the runners-up.',
  }),
  createdAt: Type.String({ format: 'date-time' }),
  createdBy: Type.String(),
  matches: Type.Array(MatchSchema),
});

export const MatchGroupQuery = Type.Object(
  {
    limit: Type.Optional(
      IntegerLike({
        minimum: 1,
        maximum: MATCH_GROUP_MATCHES_PAGE_SIZE.maximumEntries,
        description: `Matches per page; without limit or cursor, all the group's matches and no nextCursor. With either, ${MATCH_GROUP_MATCHES_PAGE_SIZE.defaultEntries} by default.`,
      }),
    ),
    cursor: Type.Optional(Type.String({ minLength: 1, maxLength: 200, description: 'The nextCursor of the previous page.' })),
  },
  { additionalProperties: false },
);

export const MatchGroupPageSchema = Type.Object({
  ...MatchGroupSchema.properties,
  matches: Type.Array(MatchSchema, { description: 'Oldest first: all of them, or the page asked for.' }),
  nextCursor: Type.Optional(
    Type.Union([Type.String(), Type.Null()], {
      description: 'Only when a page was asked for (limit or cursor): where the next page starts; null on the last.',
    }),
  ),
});
