import { Type } from '@sinclair/typebox';
import { RESULT_KINDS } from '../../domain/model.ts';
import { RUN_RESULTS_PAGE_SIZE, RUNS_PAGE_SIZE } from '../../domain/matching/runs.ts';
import { IntegerLike, Uuid } from './common.ts';

const NullableString = Type.Union([Type.String(), Type.Null()]);

export const RunParams = Type.Object({ orgId: Uuid, runId: Uuid }, { additionalProperties: false });

export const StartRunBody = Type.Object(
  {
    mode: Type.Union([Type.Literal('dry-run'), Type.Literal('commit')], {
      description: 'dry-run records what the rules would do (commit it later with POST /runs/{id}/commit); commit does it.',
    }),
    ruleIds: Type.Optional(
      Type.Array(Uuid, { maxItems: 500, description: 'Only these rules, in priority order (disabled ones included); all enabled rules by default.' }),
    ),
    datasetIds: Type.Optional(Type.Array(Uuid, { maxItems: 100, description: 'Only transactions of these datasets take part.' })),
    from: Type.Optional(IntegerLike({ minimum: 0, description: 'Only origin transactions dated at or after this time, epoch milliseconds.' })),
    to: Type.Optional(IntegerLike({ minimum: 0, description: 'Only origin transactions dated at or before this time, epoch milliseconds.' })),
  },
  { additionalProperties: false },
);

export const RevertRunBody = Type.Object(
  { note: Type.Optional(Type.String({ maxLength: 1000, description: 'Why the run is reverted; kept in the audit trail.' })) },
  { additionalProperties: false },
);

const RuleCountsSchema = Type.Object({
  ruleId: Uuid,
  ruleVersion: Type.Integer(),
  name: Type.String(),
  matched: Type.Integer(),
  suggested: Type.Integer(),
  ambiguous: Type.Integer(),
  classified: Type.Integer(),
  boundsHit: Type.Integer({ description: 'Transactions or groups a search could not finish within its bounds; listed in the results of kind "bounds".' }),
  candidates: Type.Integer({ description: 'Candidate pairs (or groups) that satisfied every condition.' }),
  durationMilliseconds: Type.Integer(),
});

export const RunSchema = Type.Object(
  {
    id: Uuid,
    mode: Type.Union([Type.Literal('dry-run'), Type.Literal('commit')]),
    trigger: Type.Union([Type.Literal('request'), Type.Literal('ingest')], {
      description: 'ingest: started by an ingest or import for rules with runOnIngest.',
    }),
    status: Type.Union(['queued', 'running', 'completed', 'failed', 'cancelled', 'reverted'].map((status) => Type.Literal(status))),
    rules: Type.Array(Type.Object({ id: Uuid, version: Type.Integer(), name: Type.Optional(Type.String()) }), {
      description: 'The rule versions the run applies, in order.',
    }),
    datasetIds: Type.Union([Type.Array(Uuid), Type.Null()]),
    from: Type.Union([Type.Integer(), Type.Null()]),
    to: Type.Union([Type.Integer(), Type.Null()]),
    progress: Type.Object(
      { examined: Type.Integer(), total: Type.Integer() },
      { description: 'Open origin transactions examined, of the total the rules look at.' },
    ),
    counts: Type.Array(RuleCountsSchema, { description: 'Per rule, in run order.' }),
    totals: Type.Object({
      matched: Type.Integer(),
      suggested: Type.Integer(),
      ambiguous: Type.Integer(),
      classified: Type.Integer(),
      boundsHit: Type.Integer(),
      closedPeriodSkipped: Type.Integer({
        description:
          'Open transactions the rules would have looked at but left alone, because they are dated in a closed (approved) period of a reconciliation of their dataset; reopen the period to match them.',
      }),
    }),
    timings: Type.Record(Type.String(), Type.Unknown(), { description: 'decideMilliseconds, applyMilliseconds, totalMilliseconds and the attempt.' }),
    createdAt: Type.String({ format: 'date-time' }),
    createdBy: Type.String(),
    startedAt: NullableString,
    finishedAt: NullableString,
    committedAt: Type.Union([Type.String(), Type.Null()], { description: 'When a dry run was committed.' }),
    committedBy: NullableString,
    revertedAt: NullableString,
    revertedBy: NullableString,
    revert: Type.Union([Type.Unknown(), Type.Null()], { description: 'What the revert deleted and the groups it left, with why.' }),
    error: Type.Union([Type.Object({ message: Type.String() }, { additionalProperties: true }), Type.Null()]),
  },
  { description: 'A run of matching rules (SPEC §8.3).' },
);

export const RunsQuery = Type.Object(
  {
    status: Type.Optional(Type.Union(['queued', 'running', 'completed', 'failed', 'cancelled', 'reverted'].map((status) => Type.Literal(status)))),
    limit: Type.Optional(
      IntegerLike({ minimum: 1, maximum: RUNS_PAGE_SIZE.maximumEntries, description: `Runs per page; ${RUNS_PAGE_SIZE.defaultEntries} by default.` }),
    ),
    cursor: Type.Optional(Type.String({ minLength: 1, maxLength: 200 })),
  },
  { additionalProperties: false },
);

export const RunPageSchema = Type.Object({
  runs: Type.Array(RunSchema, { description: 'Newest first.' }),
  nextCursor: Type.Union([Type.String(), Type.Null()]),
});

export const RunResultsQuery = Type.Object(
  {
    kind: Type.Union(
      [...RESULT_KINDS, 'unmatched'].map((kind) => Type.Literal(kind)),
      {
        description:
          'matches, suggestions (outcome "suggest"), ambiguous (ties a person must decide), classified, bounds (searches stopped at their bounds), or unmatched.',
      },
    ),
    limit: Type.Optional(
      IntegerLike({
        minimum: 1,
        maximum: RUN_RESULTS_PAGE_SIZE.maximumEntries,
        description: `Results per page; ${RUN_RESULTS_PAGE_SIZE.defaultEntries} by default.`,
      }),
    ),
    cursor: Type.Optional(Type.String({ minLength: 1, maxLength: 200 })),
    include: Type.Optional(
      Type.Literal('transactions', {
        description:
          "transactions: each result also carries the transactions it names (its own, its options', its runners-up and a group's counterpart) with their date, description, reference and amount.",
      }),
    ),
  },
  { additionalProperties: false },
);

export const RunResultTransactionSchema = Type.Object(
  {
    id: Uuid,
    datasetId: Uuid,
    datasetName: Type.String(),
    timestamp: Type.Number({ description: 'Epoch milliseconds; a booking date without a time is its midnight UTC.' }),
    description: NullableString,
    reference: NullableString,
    type: NullableString,
    amount: Type.Union([Type.String(), Type.Null()], { description: 'Signed, an exact decimal.' }),
    currency: NullableString,
    reconciliationStatus: Type.String(),
  },
  { description: 'A transaction a result names, as a person reads it.' },
);

const RunResultSchema = Type.Object(
  {
    kind: Type.String({ description: 'match, suggestion, ambiguous, classified, bounds or unmatched.' }),
    transactions: Type.Optional(
      Type.Array(RunResultTransactionSchema, { description: 'With include=transactions: the transactions the result names, its own first.' }),
    ),
  },
  {
    additionalProperties: true,
    description:
      'A result has kind, ruleId, ruleVersion, transactionIds, links [{originId, targetId, amount, originAdjustment, targetAdjustment}], ' +
      'adjustment, options (suggestions and ambiguities: each {key, links, adjustment, score, evidence}), evidence {conditions, score, runnersUp}, message, and groupId / suggestionId once carried out; ' +
      'an unmatched result has id, datasetId and reconciliationStatus.',
  },
);

export const RunResultsSchema = Type.Object({
  results: Type.Array(RunResultSchema, { description: 'In the order the run decided.' }),
  nextCursor: Type.Union([Type.String(), Type.Null()]),
});
