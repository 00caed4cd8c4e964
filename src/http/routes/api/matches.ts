import type { FastifyInstance } from 'fastify';
import type { Static } from '@sinclair/typebox';
import { Type } from '@sinclair/typebox';
import { Scopes } from '../../../domain/auth/roles.ts';
import type { Services } from '../../../domain/services.ts';
import { IdempotencyKeyHeaders, sendIdempotentWrite } from '../../idempotency.ts';
import { errorResponses, OrganizationParams } from '../../schemas/common.ts';
import { MatchGroupSchema } from '../../schemas/suggestions.ts';
import { CreatedMatchGroupSchema, CreateMatchesBody, MatchGroupParams, MatchParams, NoteQuery } from '../../schemas/matches.ts';

/** Manual matching: create a match group, delete a match or a whole group. */
export async function matchRoutes(app: FastifyInstance, options: { services: Services }) {
  const { services } = options;

  app.post(
    '/matches',
    {
      config: { scope: Scopes.write },
      schema: {
        operationId: 'createMatches',
        summary: 'Match transactions',
        description:
          'Creates one match group from the links, all or nothing, processed in order. Each link allocates an amount of the origin to the target: by default what is left ' +
          'of both sides. A transaction that is informative or out of scope cannot be matched (409); an allocation beyond what is left of either side, or a link between ' +
          'different currencies, is a 409 unless "force": true, which is recorded. Statuses of the linked transactions are derived anew.',
        tags: ['Matches'],
        params: OrganizationParams,
        headers: IdempotencyKeyHeaders,
        body: CreateMatchesBody,
        response: { 201: CreatedMatchGroupSchema, ...errorResponses(404, 409, 422) },
      },
    },
    async (request, reply) => {
      const body = request.body as Static<typeof CreateMatchesBody>;
      return sendIdempotentWrite(request, reply, services, 201, (transaction, context) =>
        services.matching.create(transaction, context, { links: body.links, note: body.note ?? null, force: body.force ?? false }),
      );
    },
  );

  app.delete(
    '/matches/:matchId',
    {
      config: { scope: Scopes.write },
      schema: {
        operationId: 'deleteMatch',
        summary: 'Delete a match',
        description: 'Deletes one match; the statuses of both transactions are derived anew. The deletion is recorded in the audit trail with the note.',
        tags: ['Matches'],
        params: MatchParams,
        querystring: NoteQuery,
        headers: IdempotencyKeyHeaders,
        response: { 204: Type.Null({ description: 'Deleted.' }), ...errorResponses(404, 422) },
      },
    },
    async (request, reply) => {
      const { matchId } = request.params as Static<typeof MatchParams>;
      const { note } = request.query as Static<typeof NoteQuery>;
      return sendIdempotentWrite(request, reply, services, 204, (transaction, context) =>
        services.matching.deleteMatch(transaction, context, { matchId, note: note ?? null }),
      );
    },
  );

  app.get(
    '/match-groups/:groupId',
    {
      config: { scope: Scopes.read },
      schema: {
        operationId: 'getMatchGroup',
        summary: 'Get a match group',
        description: 'A match group with its matches; a rule-made group also shows its rule version, run, adjustment and evidence.',
        tags: ['Matches'],
        params: MatchGroupParams,
        response: { 200: MatchGroupSchema, ...errorResponses(404) },
      },
    },
    async (request) => {
      const { groupId } = request.params as Static<typeof MatchGroupParams>;
      return services.suggestions.matchGroup(request.principal.organizationId, groupId);
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
      const { groupId } = request.params as Static<typeof MatchGroupParams>;
      const { note } = request.query as Static<typeof NoteQuery>;
      return sendIdempotentWrite(request, reply, services, 204, (transaction, context) =>
        services.matching.deleteGroup(transaction, context, { groupId, note: note ?? null }),
      );
    },
  );
}
