import type { FastifyInstance } from 'fastify';
import { typedRoutes } from '../../type-provider.ts';
import type { Static } from '@sinclair/typebox';
import { Scopes } from '../../../domain/auth/roles.ts';
import { SUGGESTIONS_PAGE_SIZE } from '../../../domain/matching/suggestions.ts';
import type { Services } from '../../../domain/services.ts';
import { IdempotencyKeyHeaders, sendIdempotentWrite } from '../../idempotency.ts';
import { errorResponses, OrganizationParams, readInteger, readPageSize } from '../../schemas/common.ts';
import {
  BulkAnswerSchema,
  BulkBody,
  ConfirmBody,
  RejectBody,
  SuggestionPageSchema,
  SuggestionParams,
  SuggestionSchema,
  SuggestionsQuery,
} from '../../schemas/suggestions.ts';

/** Suggestions to confirm or reject (SPEC §8.4). */
export async function suggestionRoutes(parent: FastifyInstance, options: { services: Services }) {
  const app = typedRoutes(parent);
  const { services } = options;

  app.get(
    '/suggestions',
    {
      config: { scope: Scopes.read },
      schema: {
        operationId: 'listSuggestions',
        summary: 'List suggestions',
        description: 'Suggestions, oldest first, by status (pending, confirmed, rejected, superseded), dataset and rule; page with cursor.',
        tags: ['Suggestions'],
        params: OrganizationParams,
        querystring: SuggestionsQuery,
        response: { 200: SuggestionPageSchema, ...errorResponses() },
      },
    },
    async (request) => {
      const query = request.query;
      return services.suggestions.list(request.principal.organizationId, {
        status: query.status ?? null,
        datasetId: query.datasetId ?? null,
        ruleId: query.ruleId ?? null,
        cursor: query.cursor ?? null,
        limit: readPageSize(query.limit, SUGGESTIONS_PAGE_SIZE),
      });
    },
  );

  app.get(
    '/suggestions/:suggestionId',
    {
      config: { scope: Scopes.read },
      schema: {
        operationId: 'getSuggestion',
        summary: 'Get a suggestion',
        tags: ['Suggestions'],
        params: SuggestionParams,
        response: { 200: SuggestionSchema, ...errorResponses(404) },
      },
    },
    async (request) => {
      const { suggestionId } = request.params;
      return services.suggestions.get(request.principal.organizationId, suggestionId);
    },
  );

  app.post(
    '/suggestions/:suggestionId/confirm',
    {
      config: { scope: Scopes.write },
      schema: {
        operationId: 'confirmSuggestion',
        summary: 'Confirm a suggestion',
        description:
          'The chosen option (by index; required when there are several) becomes a match group, method "rule", created by the caller. ' +
          '409 when a transaction of it was matched or set informative / out of scope since.',
        tags: ['Suggestions'],
        params: SuggestionParams,
        headers: IdempotencyKeyHeaders,
        body: ConfirmBody,
        response: { 200: SuggestionSchema, ...errorResponses(404, 409) },
      },
    },
    async (request, reply) => {
      const { suggestionId } = request.params;
      const body = (request.body ?? {}) as Static<typeof ConfirmBody>;
      return sendIdempotentWrite(request, reply, services, 200, (transaction, context) =>
        services.suggestions.confirm(transaction, context, {
          suggestionId,
          option: readInteger(body.option, '/option', { minimum: 0, maximum: 100 }) ?? null,
          note: body.note ?? null,
        }),
      );
    },
  );

  app.post(
    '/suggestions/:suggestionId/reject',
    {
      config: { scope: Scopes.write },
      schema: {
        operationId: 'rejectSuggestion',
        summary: 'Reject a suggestion',
        description: 'None of its options is suggested (or matched by a rule) again.',
        tags: ['Suggestions'],
        params: SuggestionParams,
        headers: IdempotencyKeyHeaders,
        body: RejectBody,
        response: { 200: SuggestionSchema, ...errorResponses(404, 409) },
      },
    },
    async (request, reply) => {
      const { suggestionId } = request.params;
      const body = (request.body ?? {}) as Static<typeof RejectBody>;
      return sendIdempotentWrite(request, reply, services, 200, (transaction, context) =>
        services.suggestions.reject(transaction, context, { suggestionId, reason: body.reason ?? null }),
      );
    },
  );

  app.post(
    '/suggestions/bulk',
    {
      config: { scope: Scopes.write },
      schema: {
        operationId: 'decideSuggestions',
        summary: 'Confirm or reject several suggestions',
        description: 'All or nothing, in the order given; confirming needs suggestions with a single option.',
        tags: ['Suggestions'],
        params: OrganizationParams,
        headers: IdempotencyKeyHeaders,
        body: BulkBody,
        response: { 200: BulkAnswerSchema, ...errorResponses(404, 409) },
      },
    },
    async (request, reply) => {
      const body = request.body;
      return sendIdempotentWrite(request, reply, services, 200, (transaction, context) =>
        services.suggestions.bulk(transaction, context, { ids: body.ids, action: body.action, reason: body.reason ?? null }),
      );
    },
  );
}
