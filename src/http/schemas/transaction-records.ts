import { Type } from '@sinclair/typebox';
import { RECONCILIATION_STATUSES } from '../../domain/transactions/status.ts';
import { Uuid } from './common.ts';

const Nullable = <T extends ReturnType<typeof Type.String>>(schema: T) => Type.Union([schema, Type.Null()]);

/** A Match (SPEC §4). */
export const MatchSchema = Type.Object(
  {
    id: Uuid,
    groupId: Type.String({ format: 'uuid', description: 'The match group: the matches created together.' }),
    originId: Type.String({ format: 'uuid', description: 'The transaction whose amount the link allocates.' }),
    originDatasetId: Uuid,
    targetId: Uuid,
    targetDatasetId: Uuid,
    amount: Nullable(
      Type.String({ description: "The part of the origin's amount this link allocates, an exact decimal; null when the transactions carry no amounts." }),
    ),
    method: Type.Union([Type.Literal('manual'), Type.Literal('rule')]),
    ruleId: Nullable(Type.String({ format: 'uuid', description: 'The rule that created the match; null for manual matches.' })),
    ruleVersion: Type.Union([Type.Integer({ minimum: 1, description: 'The version of the rule that created the match.' }), Type.Null()]),
    runId: Nullable(
      Type.String({ format: 'uuid', description: 'The run that created the match; null for manual matches and confirmed suggestions made outside a run.' }),
    ),
    createdAt: Type.String({ format: 'date-time' }),
    createdBy: Type.String({ description: 'The user, API client or rule that created the match.' }),
  },
  { description: 'A link between two transactions.' },
);

export const ReconciliationStatusSchema = Type.Union(
  RECONCILIATION_STATUSES.map((status) => Type.Literal(status)),
  { description: 'none, partial and full are derived from matches; informative and out of scope are set.' },
);

/**
 * The published Transaction record. Columns asked for by a query are added as further top-level
 * properties, hence additionalProperties.
 */
export const TransactionRecordSchema = Type.Object(
  {
    id: Uuid,
    datasetId: Uuid,
    reconciliationStatus: ReconciliationStatusSchema,
    incomingMatches: Type.Array(MatchSchema, { description: 'Matches in which this transaction is the origin.' }),
    outgoingMatches: Type.Array(MatchSchema, { description: 'Matches in which this transaction is the target.' }),
    description: Nullable(Type.String()),
    type: Nullable(Type.String()),
    timestamp: Type.Integer({ description: 'Epoch milliseconds.' }),
  },
  { additionalProperties: true, description: 'A transaction with its matches and reconciliation status.' },
);
