import type { FastifyInstance } from 'fastify';
import { typedRoutes } from '../../type-provider.ts';
import { Scopes } from '../../../domain/auth/roles.ts';
import { EVENT_TYPES, EVENTS_PAGE_SIZE, type EventType } from '../../../domain/events.ts';
import type { Services } from '../../../domain/services.ts';
import { invalidField } from '../../../errors.ts';
import { errorResponses, OrganizationParams, readPageSize } from '../../schemas/common.ts';
import { EventPageSchema, EventsQuery } from '../../schemas/webhooks.ts';

/** The event feed (SPEC §11): what webhooks deliver, readable in order by a consumer catching up. */
export async function eventRoutes(parent: FastifyInstance, options: { services: Services }) {
  const app = typedRoutes(parent);
  const { services } = options;

  app.get(
    '/events',
    {
      config: { scope: Scopes.read },
      schema: {
        operationId: 'listEvents',
        summary: 'List events',
        description:
          'Every change that matters, in the order it was committed: status changes of transactions (before and after), match groups made and removed, ' +
          'suggestions, runs completed, failed or reverted, imports completed or failed. A consumer keeps the nextCursor of its last page and asks again ' +
          'with it later: it gets what happened since, each event once. Events of a change still being committed appear when it commits.',
        tags: ['Events and webhooks'],
        params: OrganizationParams,
        querystring: EventsQuery,
        response: { 200: EventPageSchema, ...errorResponses() },
      },
    },
    async (request) => {
      const query = request.query;
      return services.events.list(request.principal.organizationId, {
        types: query.type === undefined ? null : eventTypesOf(query.type),
        cursor: query.cursor ?? null,
        limit: readPageSize(query.limit, EVENTS_PAGE_SIZE),
      });
    },
  );
}

function eventTypesOf(raw: string): EventType[] {
  const types = raw.split(',').map((type) => type.trim());
  const unknown = types.find((type) => !(EVENT_TYPES as readonly string[]).includes(type));
  if (unknown !== undefined) {
    throw invalidField(
      '/querystring/type',
      `${JSON.stringify(unknown.slice(0, 60))} is not an event type; use one or more of ${EVENT_TYPES.join(', ')}, separated by commas`,
    );
  }
  return types as EventType[];
}
