import type { FastifyInstance } from 'fastify';
import { typedRoutes } from '../../type-provider.ts';
import { Type } from '@sinclair/typebox';
import { Scopes } from '../../../domain/auth/roles.ts';
import type { Services } from '../../../domain/services.ts';
import { IdempotencyKeyHeaders, sendIdempotentWrite } from '../../idempotency.ts';
import { errorResponses, readPageSize } from '../../schemas/common.ts';
import { MATCH_GROUP_MATCHES_PAGE_SIZE } from '../../../domain/matching/suggestions.ts';
import { MatchGroupPageSchema, MatchGroupQuery } from '../../schemas/suggestions.ts';
import { MatchGroupParams, NoteQuery } from '../../schemas/matches.ts';

/** Match groups: read one with its matches and evidence, or delete it whole. */
export async function matchGroupRoutes(parent: FastifyInstance, options: { services: Services }) {
  const app = typedRoutes(parent);
  const { services } = options;

  app.get(
    '/match-groups/:groupId',
    {
      config: { scope: Scopes.read },
      schema: {
        operationId: 'getMatchGroup',
        summary: 'Get a match group',
        description:
          'A match group with its matches; a rule-made group also shows its rule version, run, adjustment and evidence. A payout may have thousands of matches: ask for them a page at a time with limit and cursor.',
        tags: ['Matches'],
        params: MatchGroupParams,
        querystring: MatchGroupQuery,
        response: { 200: MatchGroupPageSchema, ...errorResponses(404) },
      },
    },
    async (request) => {
      const { groupId } = request.params;
      const query = request.query;
      const page =
        query.limit === undefined && query.cursor === undefined
          ? null
          : { limit: readPageSize(query.limit, MATCH_GROUP_MATCHES_PAGE_SIZE), cursor: query.cursor ?? null };
      return services.suggestions.matchGroup(request.principal.organizationId, groupId, page);
    },
  );

  app.delete(
    '/match-groups/:groupId',
    {
      config: { scope: Scopes.write },
      schema: {
        operationId: 'deleteMatchGroup',
        summary: 'Delete a match group',
        description: 'Deletes every match of the group and the group; the statuses of the transactions are derived anew.',
        tags: ['Matches'],
        params: MatchGroupParams,
        querystring: NoteQuery,
        headers: IdempotencyKeyHeaders,
        response: { 204: Type.Null({ description: 'Deleted.' }), ...errorResponses(404, 422) },
      },
    },
    async (request, reply) => {
      const { groupId } = request.params;
      const { note } = request.query;
      return sendIdempotentWrite(request, reply, services, 204, (transaction, context) =>
        services.matching.deleteGroup(transaction, context, { groupId, note: note ?? null }),
      );
    },
  );
}
