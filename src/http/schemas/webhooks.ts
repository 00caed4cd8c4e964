import { Type } from '@sinclair/typebox';
import { EVENT_TYPES, EVENTS_PAGE_SIZE } from '../../domain/events.ts';
import { DELIVERIES_PAGE_SIZE, ENDPOINTS_LIMIT, SECRET_OVERLAP_SECONDS } from '../../domain/webhooks/endpoints.ts';
import { IntegerLike, Uuid } from './common.ts';

const Timestamp = Type.String({ format: 'date-time' });
const NullableTimestamp = Type.Union([Timestamp, Type.Null()]);

export const EventType = Type.Union(
  EVENT_TYPES.map((type) => Type.Literal(type)),
  { description: 'An event type.' },
);

export const EventsQuery = Type.Object(
  {
    type: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: 500,
        description: `Only events of these types, comma-separated: ${EVENT_TYPES.join(', ')}.`,
      }),
    ),
    cursor: Type.Optional(Type.String({ minLength: 1, maxLength: 100, description: 'The nextCursor of an earlier answer: continue after its last event.' })),
    limit: Type.Optional(
      IntegerLike({
        minimum: 1,
        maximum: EVENTS_PAGE_SIZE.maximumEntries,
        description: `Events per page, 1..${EVENTS_PAGE_SIZE.maximumEntries}; ${EVENTS_PAGE_SIZE.defaultEntries} by default.`,
      }),
    ),
  },
  { additionalProperties: false },
);

export const EventSchema = Type.Object({
  id: Uuid,
  type: Type.String({ description: `One of ${EVENT_TYPES.join(', ')}.` }),
  occurredAt: Timestamp,
  data: Type.Record(Type.String(), Type.Unknown(), {
    description:
      'What changed. transaction.status_changed: transactionId, datasetId, externalId, before and after ({reconciliationStatus, allocatedAmount, matchCount}); ' +
      'match_group.created / deleted: matchGroupId, method, ruleId, runId; suggestion.created: suggestionId, reason, ruleId, runId, transactionIds; ' +
      'run.*: runId, mode, trigger, status, error, and for run.completed examined and totals ({matched, suggested, ambiguous, classified, boundsHit, closedPeriodSkipped}); ' +
      'import.*: importId, datasetId, fileName, format, status, rowsRead, inserted, duplicates, error, runId (the run it queued, or null). Amounts are decimal strings.',
  }),
});

export const EventPageSchema = Type.Object({
  events: Type.Array(EventSchema, { description: 'In the order they were committed.' }),
  nextCursor: Type.Union([Type.String(), Type.Null()], {
    description: 'Pass as cursor to continue after the last event; also given on the last page, so that a consumer keeps its place and asks again later.',
  }),
  hasMore: Type.Boolean({ description: 'Whether more events are ready beyond this page.' }),
  eventsRemovedAfterCursor: Type.Boolean({
    description:
      'Whether events after the cursor (without a cursor: at the start of the feed) were removed before they were read: events are kept EVENT_RETENTION_DAYS days (30 by default). ' +
      'The page goes on from the oldest event kept; what was removed can no longer be read.',
  }),
});

export const EndpointParams = Type.Object({ orgId: Uuid, endpointId: Uuid }, { additionalProperties: false });
export const DeliveryParams = Type.Object({ orgId: Uuid, endpointId: Uuid, deliveryId: Uuid }, { additionalProperties: false });

const Url = Type.String({
  minLength: 1,
  maxLength: 2000,
  description:
    'Where deliveries are POSTed. In production mode an https:// URL whose host resolves only to public addresses (checked now and at every delivery); ' +
    'WEBHOOK_ALLOW_PRIVATE_TARGETS=true on the server also allows http:// and private addresses, for development.',
});
const EventTypes = Type.Array(EventType, { maxItems: EVENT_TYPES.length, description: 'The event types to send; empty (the default) sends every type.' });
const Description = Type.String({ maxLength: 200, description: 'What the endpoint is for, e.g. "ERP sync".' });

export const CreateEndpointBody = Type.Object(
  {
    url: Url,
    description: Type.Optional(Description),
    eventTypes: Type.Optional(EventTypes),
    enabled: Type.Optional(Type.Boolean({ description: 'true by default.' })),
  },
  { additionalProperties: false },
);

export const UpdateEndpointBody = Type.Object(
  {
    url: Type.Optional(Url),
    description: Type.Optional(Description),
    eventTypes: Type.Optional(EventTypes),
    enabled: Type.Optional(
      Type.Boolean({ description: 'false stops deliveries; true starts them again (and clears the failure record of an endpoint disabled for failing).' }),
    ),
  },
  { additionalProperties: false, minProperties: 1 },
);

export const EndpointSchema = Type.Object({
  id: Uuid,
  url: Type.String(),
  description: Type.String(),
  eventTypes: Type.Array(Type.String(), { description: 'Empty: every type.' }),
  enabled: Type.Boolean(),
  disabledReason: Type.Union([Type.Literal('requested'), Type.Literal('failing'), Type.Null()], {
    description: 'requested: turned off by a person; failing: turned off after every delivery failed for the give-up period (3 days by default).',
  }),
  disabledAt: NullableTimestamp,
  failingSince: Type.Union([Timestamp, Type.Null()], { description: 'Since when every attempt has failed; null after a success.' }),
  previousSecretExpiresAt: Type.Union([Timestamp, Type.Null()], { description: 'During a rotation, until when the previous secret signs too.' }),
  createdAt: Timestamp,
  createdBy: Type.String(),
  updatedAt: Timestamp,
});

export const EndpointListSchema = Type.Array(EndpointSchema, { description: `Oldest first; at most ${ENDPOINTS_LIMIT}.` });

export const CreatedEndpointSchema = Type.Intersect([
  EndpointSchema,
  Type.Object({
    secret: Type.String({
      description: 'The signing secret (whsec_…), shown in this answer only: give it to your receiver, which verifies each webhook-signature with it.',
    }),
  }),
]);

export const RotatedSecretSchema = Type.Object({
  endpointId: Uuid,
  secret: Type.String({ description: 'The new signing secret, shown in this answer only.' }),
  previousSecretExpiresAt: Type.String({
    format: 'date-time',
    description: `Until then (${SECRET_OVERLAP_SECONDS / 3600} hours) deliveries carry signatures of both secrets, so the receiver can switch at any moment.`,
  }),
});

export const DeliverySchema = Type.Object({
  id: Uuid,
  endpointId: Uuid,
  messageId: Type.String({ format: 'uuid', description: 'The webhook-id header: the event id (or a test message id), the same on every attempt.' }),
  eventType: Type.String(),
  status: Type.Union([Type.Literal('pending'), Type.Literal('succeeded'), Type.Literal('failed')]),
  attempts: Type.Integer(),
  lastAttemptAt: NullableTimestamp,
  lastResponseStatus: Type.Union([Type.Integer(), Type.Null()], {
    description: 'The HTTP status of the last answer; null when none came (timeout, refused connection).',
  }),
  lastDurationMilliseconds: Type.Union([Type.Integer(), Type.Null()]),
  lastError: Type.Union([Type.String(), Type.Null()]),
  nextAttemptAt: Type.Union([Timestamp, Type.Null()], { description: 'When a pending delivery is tried next.' }),
  createdAt: Timestamp,
  deliveredAt: NullableTimestamp,
});

export const DeliveryWithAttemptsSchema = Type.Intersect([
  DeliverySchema,
  Type.Object({
    attemptList: Type.Array(
      Type.Object({
        attemptedAt: Timestamp,
        responseStatus: Type.Union([Type.Integer(), Type.Null()]),
        durationMilliseconds: Type.Integer(),
        error: Type.Union([Type.String(), Type.Null()]),
      }),
      { description: 'The attempts, oldest first (the last 100).' },
    ),
  }),
]);

export const DeliveriesQuery = Type.Object(
  {
    status: Type.Optional(Type.Union([Type.Literal('pending'), Type.Literal('succeeded'), Type.Literal('failed')])),
    cursor: Type.Optional(Type.String({ minLength: 1, maxLength: 200, description: 'The nextCursor of an earlier answer.' })),
    limit: Type.Optional(
      IntegerLike({
        minimum: 1,
        maximum: DELIVERIES_PAGE_SIZE.maximumEntries,
        description: `Deliveries per page, 1..${DELIVERIES_PAGE_SIZE.maximumEntries}; ${DELIVERIES_PAGE_SIZE.defaultEntries} by default.`,
      }),
    ),
  },
  { additionalProperties: false },
);

export const DeliveryPageSchema = Type.Object({
  deliveries: Type.Array(DeliverySchema, { description: 'Newest first.' }),
  nextCursor: Type.Union([Type.String(), Type.Null()]),
});
