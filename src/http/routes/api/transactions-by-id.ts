import type { FastifyInstance } from 'fastify';
import { typedRoutes } from '../../type-provider.ts';
import { Type } from '@sinclair/typebox';
import { Scopes } from '../../../domain/auth/roles.ts';
import type { Services } from '../../../domain/services.ts';
import { IdempotencyKeyHeaders, sendIdempotentWrite } from '../../idempotency.ts';
import { errorResponses } from '../../schemas/common.ts';
import { PatchTransactionBody, TransactionParams } from '../../schemas/matches.ts';
import { TransactionRecordSchema } from '../../schemas/transaction-records.ts';

const TransactionColumnsQuery = Type.Object(
  {
    columns: Type.Optional(Type.String({ maxLength: 2000, description: 'Comma-separated paths of fields to add to the record, e.g. "amount,currency".' })),
  },
  { additionalProperties: false },
);

/** One transaction: read it, set or clear its reconciliation status. */
export async function transactionByIdRoutes(parent: FastifyInstance, options: { services: Services }) {
  const app = typedRoutes(parent);
  const { services } = options;

  app.get(
    '/transactions/:transactionId',
    {
      config: { scope: Scopes.read },
      schema: {
        operationId: 'getTransaction',
        summary: 'Get one transaction',
        description:
          'The transaction record with its incoming and outgoing matches; `columns` adds fields to it as the transactions query does ' +
          '(e.g. ?columns=amount,currency,counterparty).',
        tags: ['Transactions'],
        params: TransactionParams,
        querystring: TransactionColumnsQuery,
        response: { 200: TransactionRecordSchema, ...errorResponses(404) },
      },
    },
    async (request) => {
      const { transactionId } = request.params;
      const { columns } = request.query;
      const paths =
        columns === undefined
          ? []
          : columns
              .split(',')
              .map((path) => path.trim())
              .filter((path) => path !== '');
      return services.transactionStatus.find(request.principal.organizationId, transactionId, paths);
    },
  );

  app.patch(
    '/transactions/:transactionId',
    {
      config: { scope: Scopes.write },
      schema: {
        operationId: 'setTransactionStatus',
        summary: "Set or clear a transaction's status",
        description:
          '"informative" or "out of scope" can be set only on a transaction without matches (409 otherwise); "none" clears the set status and returns the ' +
          'transaction to the status derived from its matches. Every change is recorded in the audit trail with the note.',
        tags: ['Transactions'],
        params: TransactionParams,
        headers: IdempotencyKeyHeaders,
        body: PatchTransactionBody,
        response: { 200: TransactionRecordSchema, ...errorResponses(404, 409, 422) },
      },
    },
    async (request, reply) => {
      const { transactionId } = request.params;
      const body = request.body;
      return sendIdempotentWrite(request, reply, services, 200, (transaction, context) =>
        services.transactionStatus.change(transaction, context, { transactionId, status: body.reconciliationStatus, note: body.note ?? null }),
      );
    },
  );
}
