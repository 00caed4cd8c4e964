import type { FastifyInstance } from 'fastify';
import { typedRoutes } from '../../type-provider.ts';
import { Type } from '@sinclair/typebox';
import { Scopes } from '../../../domain/auth/roles.ts';
import type { Services } from '../../../domain/services.ts';
import { IdempotencyKeyHeaders, sendIdempotentWrite } from '../../idempotency.ts';
import { errorResponses, OrganizationParams } from '../../schemas/common.ts';
import {
  CreateDatasetBody,
  CreateSourceBody,
  DatasetParams,
  DatasetSchema,
  ListSourcesQuery,
  RenameSourceBody,
  SourceParams,
  SourceSchema,
  UpdateDatasetBody,
} from '../../schemas/sources.ts';

/** Sources and their datasets: /sources and /sources/{id}/datasets. */
export async function sourceRoutes(parent: FastifyInstance, options: { services: Services }) {
  const app = typedRoutes(parent);
  const { services } = options;

  app.get(
    '/sources',
    {
      config: { scope: Scopes.read },
      schema: {
        operationId: 'listSources',
        summary: 'List sources with their datasets',
        description:
          'Every source of the organization with its datasets, their columns and their counts of transactions per reconciliation status. ' +
          'Archived datasets are left out unless includeArchived=true.',
        tags: ['Sources'],
        params: OrganizationParams,
        querystring: ListSourcesQuery,
        response: { 200: Type.Array(SourceSchema), ...errorResponses() },
      },
    },
    async (request) => {
      const query = request.query;
      return services.sources.list(request.principal.organizationId, { includeArchived: query.includeArchived === 'true' });
    },
  );

  app.patch(
    '/sources/:sourceId',
    {
      config: { scope: Scopes.write },
      schema: {
        operationId: 'updateSource',
        summary: 'Rename a source',
        description: 'The rename is recorded in the audit trail (source.updated). Answers the source with all its datasets, archived ones included.',
        tags: ['Sources'],
        params: SourceParams,
        headers: IdempotencyKeyHeaders,
        body: RenameSourceBody,
        response: { 200: SourceSchema, ...errorResponses(404, 422) },
      },
    },
    async (request, reply) => {
      const { sourceId } = request.params;
      const body = request.body;
      return sendIdempotentWrite(request, reply, services, 200, (transaction, context) => services.sources.rename(transaction, context, sourceId, body));
    },
  );

  app.post(
    '/sources',
    {
      config: { scope: Scopes.write },
      schema: {
        operationId: 'createSource',
        summary: 'Create a source',
        tags: ['Sources'],
        params: OrganizationParams,
        headers: IdempotencyKeyHeaders,
        body: CreateSourceBody,
        response: { 201: SourceSchema, ...errorResponses(409, 422) },
      },
    },
    async (request, reply) => {
      const body = request.body;
      return sendIdempotentWrite(request, reply, services, 201, (transaction, context) => services.sources.create(transaction, context, { name: body.name }));
    },
  );

  app.post(
    '/sources/:sourceId/datasets',
    {
      config: { scope: Scopes.write },
      schema: {
        operationId: 'createDataset',
        summary: 'Create a dataset in a source',
        description:
          'Every dataset has the standard columns timestamp (date, required in each record), description, type, reference, currency (strings) and amount (money); ' +
          'it may declare more. Column names that collide with the standard columns, with externalId or with a field of the transaction record are refused.',
        tags: ['Sources'],
        params: SourceParams,
        headers: IdempotencyKeyHeaders,
        body: CreateDatasetBody,
        response: { 201: DatasetSchema, ...errorResponses(404, 409, 422) },
      },
    },
    async (request, reply) => {
      const { sourceId } = request.params;
      const body = request.body;
      return sendIdempotentWrite(request, reply, services, 201, (transaction, context) =>
        services.datasets.create(transaction, context, { sourceId, name: body.name, columns: body.columns ?? [] }),
      );
    },
  );

  app.patch(
    '/datasets/:datasetId',
    {
      config: { scope: Scopes.write },
      schema: {
        operationId: 'updateDataset',
        summary: 'Rename, archive or restore a dataset, or change its account and currency',
        description:
          'accountId is the bank account whose statements the dataset holds (an IBAN is checked and kept without spaces), currency its ISO 4217 code; ' +
          'a field left out stays as it is, null clears it. A statement import of another account is refused (409) unless it sends allowOtherAccount=true. ' +
          'archived=true hides the dataset from GET /sources (unless includeArchived=true) and keeps its transactions and matches; archived=false restores it. ' +
          'Every change is recorded in the audit trail (dataset.updated, dataset.archived, dataset.restored).',
        tags: ['Sources'],
        params: DatasetParams,
        headers: IdempotencyKeyHeaders,
        body: UpdateDatasetBody,
        response: { 200: DatasetSchema, ...errorResponses(404, 422) },
      },
    },
    async (request, reply) => {
      const { datasetId } = request.params;
      const body = request.body;
      return sendIdempotentWrite(request, reply, services, 200, (transaction, context) => services.datasets.update(transaction, context, datasetId, body));
    },
  );
}
