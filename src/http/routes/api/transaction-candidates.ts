import type { FastifyInstance } from 'fastify';
import { typedRoutes } from '../../type-provider.ts';
import { Type } from '@sinclair/typebox';
import { Scopes } from '../../../domain/auth/roles.ts';
import { CANDIDATES_PAGE_SIZE } from '../../../domain/matching/suggestions.ts';
import type { Services } from '../../../domain/services.ts';
import { errorResponses, readPageSize, Uuid } from '../../schemas/common.ts';
import { CandidatesQuery, CandidatesSchema } from '../../schemas/suggestions.ts';

const TransactionParams = Type.Object({ orgId: Uuid, transactionId: Uuid }, { additionalProperties: false });

/** The ranked candidates of one transaction: GET /transactions/{id}/candidates. */
export async function transactionCandidateRoutes(parent: FastifyInstance, options: { services: Services }) {
  const app = typedRoutes(parent);
  const { services } = options;

  app.get(
    '/transactions/:transactionId/candidates',
    {
      config: { scope: Scopes.read },
      schema: {
        operationId: 'listCandidates',
        summary: 'Rank the counterparts of a transaction',
        description:
          'The best counterparts of one open transaction under the enabled rules whose datasets include its dataset, ranked by score, with evidence.',
        tags: ['Suggestions'],
        params: TransactionParams,
        querystring: CandidatesQuery,
        response: { 200: CandidatesSchema, ...errorResponses(404) },
      },
    },
    async (request) => {
      const { transactionId } = request.params;
      const query = request.query;
      const limit = readPageSize(query.limit, CANDIDATES_PAGE_SIZE);
      return services.suggestions.candidates(request.principal.organizationId, transactionId, limit);
    },
  );
}
