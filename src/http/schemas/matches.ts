import { Type } from '@sinclair/typebox';
import { NOTE_MAX_LENGTH } from '../../domain/audit.ts';
import { LINKS_PER_GROUP_LIMIT } from '../../domain/matching/matches.ts';
import { SET_STATUSES } from '../../domain/transactions/status.ts';
import { Uuid } from './common.ts';
import { MatchSchema } from './transaction-records.ts';

const Note = Type.String({ maxLength: NOTE_MAX_LENGTH, description: 'Why; recorded in the audit trail.' });

export const CreateMatchesBody = Type.Object(
  {
    links: Type.Array(
      Type.Object(
        {
          originId: Uuid,
          targetId: Uuid,
          amount: Type.Optional(
            Type.Union([Type.String(), Type.Number()], {
              description:
                'The part of the origin\'s amount to allocate, a positive decimal (preferably a string, e.g. "120.50"). By default, what is left of both sides.',
            }),
          ),
        },
        { additionalProperties: false },
      ),
      { minItems: 1, maxItems: LINKS_PER_GROUP_LIMIT, description: 'The links of one match group, processed in order.' },
    ),
    note: Type.Optional(Note),
    force: Type.Optional(
      Type.Boolean({
        description: 'Allow allocating more than is left of a side, or matching across currencies. Forced links are marked and recorded.',
        default: false,
      }),
    ),
  },
  { additionalProperties: false },
);

export const CreatedMatchGroupSchema = Type.Object({
  groupId: Uuid,
  forced: Type.Boolean({ description: 'Whether any link was allowed only because the request forced it.' }),
  matches: Type.Array(MatchSchema),
});

export const NoteQuery = Type.Object({ note: Type.Optional(Note) }, { additionalProperties: false });

export const MatchParams = Type.Object({ orgId: Uuid, matchId: Uuid });
export const MatchGroupParams = Type.Object({ orgId: Uuid, groupId: Uuid });
export const TransactionParams = Type.Object({ orgId: Uuid, transactionId: Uuid });

export const PatchTransactionBody = Type.Object(
  {
    reconciliationStatus: Type.Union([...SET_STATUSES.map((status) => Type.Literal(status)), Type.Literal('none')], {
      description: 'Set "informative" or "out of scope" (only on a transaction without matches), or "none" to clear the set status.',
    }),
    note: Type.Optional(Note),
  },
  { additionalProperties: false },
);
