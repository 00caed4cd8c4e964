import type { FastifyInstance } from 'fastify';
import { typedRoutes } from '../../type-provider.ts';
import { Scopes } from '../../../domain/auth/roles.ts';
import type { Services } from '../../../domain/services.ts';
import { IdempotencyKeyHeaders, sendIdempotentWrite } from '../../idempotency.ts';
import { errorResponses } from '../../schemas/common.ts';
import { DatasetParams, IngestBody, IngestResultSchema } from '../../schemas/sources.ts';

/** An ingest request carries up to 10,000 records; the default body limit would refuse most such batches. */
const INGEST_BODY_LIMIT_BYTES = 20 * 1024 * 1024;

/** JSON ingest of records into a dataset: POST /datasets/{id}/transactions. */
export async function datasetTransactionRoutes(parent: FastifyInstance, options: { services: Services }) {
  const app = typedRoutes(parent);
  const { services } = options;

  app.post(
    '/datasets/:datasetId/transactions',
    {
      bodyLimit: INGEST_BODY_LIMIT_BYTES,
      config: { scope: Scopes.write },
      schema: {
        operationId: 'ingestTransactions',
        summary: 'Add transactions to a dataset',
        description:
          'Stores up to 10,000 records, all or nothing: a record with a value that does not fit its column is a 400 naming the record and the column, and nothing is stored. ' +
          'Idempotent on externalId within the dataset: records whose externalId the dataset already holds are skipped and counted in duplicates. ' +
          'Records without externalId are always inserted.',
        tags: ['Transactions'],
        params: DatasetParams,
        headers: IdempotencyKeyHeaders,
        body: IngestBody,
        response: { 200: IngestResultSchema, ...errorResponses(404, 413, 422) },
      },
    },
    async (request, reply) => {
      const { datasetId } = request.params;
      const body = request.body;
      return sendIdempotentWrite(request, reply, services, 200, (transaction, context) => services.ingest(transaction, context, datasetId, body.records));
    },
  );
}
