import type { FastifyInstance } from 'fastify';
import { typedRoutes } from '../../type-provider.ts';
import { Type } from '@sinclair/typebox';
import { Scopes } from '../../../domain/auth/roles.ts';
import type { Services } from '../../../domain/services.ts';
import { IdempotencyKeyHeaders, sendIdempotentWrite } from '../../idempotency.ts';
import { errorResponses, OrganizationParams } from '../../schemas/common.ts';
import { CreatedMatchGroupSchema, CreateMatchesBody, MatchParams, NoteQuery } from '../../schemas/matches.ts';

/** Manual matching: create a match group (/matches) and delete a match (/matches/{id}). */
export async function matchRoutes(parent: FastifyInstance, options: { services: Services }) {
  const app = typedRoutes(parent);
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
      const body = request.body;
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
        description:
          'Deletes one match; the statuses of both transactions are derived anew. The deletion is recorded in the audit trail with the note. A match of a netted payout group (refunds and fees lowering the deposit) cannot be deleted alone (409): delete its match group.',
        tags: ['Matches'],
        params: MatchParams,
        querystring: NoteQuery,
        headers: IdempotencyKeyHeaders,
        response: { 204: Type.Null({ description: 'Deleted.' }), ...errorResponses(404, 409, 422) },
      },
    },
    async (request, reply) => {
      const { matchId } = request.params;
      const { note } = request.query;
      return sendIdempotentWrite(request, reply, services, 204, (transaction, context) =>
        services.matching.deleteMatch(transaction, context, { matchId, note: note ?? null }),
      );
    },
  );
}
