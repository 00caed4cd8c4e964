import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Static } from '@sinclair/typebox';
import { Scopes } from '../../../domain/auth/roles.ts';
import { RUN_RESULTS_PAGE_SIZE, RUNS_PAGE_SIZE } from '../../../domain/matching/runs.ts';
import type { Services } from '../../../domain/services.ts';
import { IdempotencyKeyHeaders, sendIdempotentWrite } from '../../idempotency.ts';
import { errorResponses, OrganizationParams, readInteger, readPageSize } from '../../schemas/common.ts';
import { RevertRunBody, RunPageSchema, RunParams, RunResultsQuery, RunResultsSchema, RunSchema, RunsQuery, StartRunBody } from '../../schemas/runs.ts';
import { typedRoutes } from '../../type-provider.ts';

/** Runs of matching rules (SPEC §8.3): start, follow, read results, commit a dry run, revert, cancel. */
export async function runRoutes(parent: FastifyInstance, options: { services: Services }) {
  const app = typedRoutes(parent);
  const { services } = options;
  const location = (request: FastifyRequest, body: unknown) => ({
    location: `/v1/api/${request.principal.organizationId}/runs/${(body as { id: string }).id}`,
  });

  app.post(
    '/runs',
    {
      config: { scope: Scopes.write },
      schema: {
        operationId: 'startRun',
        summary: 'Start a run',
        description:
          'Queues a run of the rules (all enabled rules by default, in priority order) as a job; answers 202 with the run and its URL in Location. ' +
          'A dry run records what it would do (GET /runs/{id}/results); a commit run does it in one database transaction, so it is carried out whole or not at all.',
        tags: ['Runs'],
        params: OrganizationParams,
        headers: IdempotencyKeyHeaders,
        body: StartRunBody,
        response: { 202: RunSchema, ...errorResponses(409, 422) },
      },
    },
    async (request, reply) => {
      const body = request.body;
      const answer = await sendIdempotentWrite(
        request,
        reply,
        services,
        202,
        (transaction, context) =>
          services.runs.start(transaction, context, {
            mode: body.mode,
            ruleIds: body.ruleIds ?? null,
            datasetIds: body.datasetIds ?? null,
            fromMs: readInteger(body.from, '/from', { minimum: 0 }) ?? null,
            toMs: readInteger(body.to, '/to', { minimum: 0 }) ?? null,
          }),
        { headersOf: (run) => location(request, run) },
      );
      services.runs.wake();
      return answer;
    },
  );

  app.get(
    '/runs',
    {
      config: { scope: Scopes.read },
      schema: {
        operationId: 'listRuns',
        summary: 'List runs',
        description: 'Runs, newest first; page with cursor.',
        tags: ['Runs'],
        params: OrganizationParams,
        querystring: RunsQuery,
        response: { 200: RunPageSchema, ...errorResponses() },
      },
    },
    async (request) => {
      const query = request.query;
      return services.runs.list(request.principal.organizationId, {
        limit: readPageSize(query.limit, RUNS_PAGE_SIZE),
        cursor: query.cursor ?? null,
        status: query.status ?? null,
      });
    },
  );

  app.get(
    '/runs/:runId',
    {
      config: { scope: Scopes.read },
      schema: {
        operationId: 'getRun',
        summary: 'Get a run',
        description: 'Status, progress (examined of total), per-rule counts and timings.',
        tags: ['Runs'],
        params: RunParams,
        response: { 200: RunSchema, ...errorResponses(404) },
      },
    },
    async (request) => {
      const { runId } = request.params;
      return services.runs.get(request.principal.organizationId, runId);
    },
  );

  app.get(
    '/runs/:runId/results',
    {
      config: { scope: Scopes.read },
      schema: {
        operationId: 'listRunResults',
        summary: 'List what a run did',
        description: 'What the run did, or for a dry run would do, by kind, with evidence; page with cursor.',
        tags: ['Runs'],
        params: RunParams,
        querystring: RunResultsQuery,
        response: { 200: RunResultsSchema, ...errorResponses(404) },
      },
    },
    async (request) => {
      const { runId } = request.params;
      const query = request.query;
      return services.runs.results(request.principal.organizationId, runId, {
        kind: query.kind as never,
        cursor: query.cursor ?? null,
        limit: readPageSize(query.limit, RUN_RESULTS_PAGE_SIZE),
        includeTransactions: query.include === 'transactions',
      });
    },
  );

  app.post(
    '/runs/:runId/commit',
    {
      config: { scope: Scopes.write },
      schema: {
        operationId: 'commitRun',
        summary: 'Commit a dry run',
        description:
          "Carries out a completed dry run's decisions if none of the transactions involved changed since; 409 naming them otherwise. " +
          'A run that is still queued or running is a 409 at once: try again after it ends.',
        tags: ['Runs'],
        params: RunParams,
        headers: IdempotencyKeyHeaders,
        response: { 200: RunSchema, ...errorResponses(404, 409) },
      },
    },
    async (request, reply) => {
      const { runId } = request.params;
      services.runs.refuseWhileExecutingHere(request.principal.organizationId, runId);
      return sendIdempotentWrite(request, reply, services, 200, (transaction, context) => services.runs.commit(transaction, context, runId));
    },
  );

  app.post(
    '/runs/:runId/revert',
    {
      config: { scope: Scopes.write },
      schema: {
        operationId: 'revertRun',
        summary: 'Revert a run',
        description:
          'Deletes the match groups the run made that nobody changed since and clears the statuses it set, deriving statuses anew; all in the audit trail. ' +
          "Groups changed since are listed in the run's revert report and left. A run that is still queued or running is a 409 at once: try again after it ends.",
        tags: ['Runs'],
        params: RunParams,
        headers: IdempotencyKeyHeaders,
        body: RevertRunBody,
        response: { 200: RunSchema, ...errorResponses(404, 409) },
      },
    },
    async (request, reply) => {
      const { runId } = request.params;
      const body = (request.body ?? {}) as Static<typeof RevertRunBody>;
      services.runs.refuseWhileExecutingHere(request.principal.organizationId, runId);
      return sendIdempotentWrite(request, reply, services, 200, (transaction, context) => services.runs.revert(transaction, context, runId, body.note ?? null));
    },
  );

  app.post(
    '/runs/:runId/cancel',
    {
      config: { scope: Scopes.write },
      schema: {
        operationId: 'cancelRun',
        summary: 'Cancel a run',
        description: 'Cancels a queued or running run; a running one stops at its next step and changes nothing.',
        tags: ['Runs'],
        params: RunParams,
        headers: IdempotencyKeyHeaders,
        response: { 200: RunSchema, ...errorResponses(404, 409) },
      },
    },
    async (request, reply) => {
      const { runId } = request.params;
      services.runs.interruptHere(request.principal.organizationId, runId);
      return sendIdempotentWrite(request, reply, services, 200, (transaction, context) => services.runs.cancel(transaction, context, runId));
    },
  );
}
