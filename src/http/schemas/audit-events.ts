import { Type } from '@sinclair/typebox';
import { AUDIT_ACTIONS, AUDIT_OBJECT_KINDS, AUDIT_OBJECTS, AUDIT_PAGE_SIZE } from '../../domain/audit.ts';
import { IntegerLike, Uuid } from './common.ts';

const NullableUuid = Type.Union([Uuid, Type.Null()]);

export const AuditEventsQuery = Type.Object(
  {
    transactionId: Type.Optional(Type.String({ format: 'uuid', description: 'Only events about this transaction (on either side of a match).' })),
    from: Type.Optional(IntegerLike({ minimum: 0, description: 'Events at or after this time, epoch milliseconds.' })),
    to: Type.Optional(IntegerLike({ minimum: 0, description: 'Events at or before this time, epoch milliseconds.' })),
    actor: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: 400,
        description: 'Only the changes of this person or client, as events name them in actor: "user:ann@example.com" or "client:CLIENT_ID".',
      }),
    ),
    action: Type.Optional(
      Type.Union(
        AUDIT_ACTIONS.map((action) => Type.Literal(action)),
        { description: 'Only events of this action.' },
      ),
    ),
    object: Type.Optional(
      Type.Union(
        AUDIT_OBJECT_KINDS.map((kind) => Type.Literal(kind)),
        {
          description:
            'Only events about this kind of object: ' +
            Object.entries(AUDIT_OBJECTS)
              .map(([kind, actions]) => `${kind} (${actions.join(', ')})`)
              .join('; ') +
            '.',
        },
      ),
    ),
    order: Type.Optional(
      Type.Union([Type.Literal('oldest'), Type.Literal('newest')], {
        description:
          'oldest (the default) pages from the first event on and gives a cursor on the last page too, to follow the trail as it grows; newest pages from the latest event back, and its last page has no cursor. A cursor is read only in the order that gave it.',
      }),
    ),
    limit: Type.Optional(
      IntegerLike({
        minimum: 1,
        maximum: AUDIT_PAGE_SIZE.maximumEntries,
        description: `Events per page, 1..${AUDIT_PAGE_SIZE.maximumEntries}; ${AUDIT_PAGE_SIZE.defaultEntries} by default.`,
      }),
    ),
    cursor: Type.Optional(Type.String({ minLength: 1, maxLength: 100, description: 'The nextCursor of an earlier answer: continue after its last event.' })),
  },
  { additionalProperties: false },
);

export const AuditEventSchema = Type.Object({
  id: Uuid,
  occurredAt: Type.String({ format: 'date-time' }),
  actor: Type.String({ description: 'Who made the change: "user:EMAIL", "client:CLIENT_ID", or what the service did (a run, the command line).' }),
  actorName: Type.String({ description: "Who made the change in words: the person's email, the API client's name, or the actor as written." }),
  action: Type.String({ description: `One of ${AUDIT_ACTIONS.join(', ')}.` }),
  transactionId: NullableUuid,
  relatedTransactionId: Type.Union([Uuid, Type.Null()], { description: 'For match events, the target transaction (transactionId is the origin).' }),
  matchId: NullableUuid,
  groupId: NullableUuid,
  before: Type.Unknown({ description: 'The state before the change; null for a creation.' }),
  after: Type.Unknown({ description: 'The state after the change; null for a deletion.' }),
  note: Type.Union([Type.String(), Type.Null()]),
  requestId: Type.Union([Type.String(), Type.Null()], { description: 'The X-Request-Id of the request that made the change.' }),
});

export const AuditPageSchema = Type.Object({
  events: Type.Array(AuditEventSchema, { description: 'Oldest first, or newest first with order=newest.' }),
  nextCursor: Type.Union([Type.String(), Type.Null()], {
    description: 'Pass as cursor to continue after the last event; also given on the last page, to follow the trail as it grows.',
  }),
  hasMore: Type.Boolean({ description: 'Whether more events match beyond this page.' }),
});
