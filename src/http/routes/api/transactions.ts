import { Type } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import { Scopes } from '../../../domain/auth/roles.ts';
import type { Services } from '../../../domain/services.ts';
import { TRANSACTIONS_PAGE_SIZE } from '../../../domain/transactions/query.ts';
import { errorResponses, readInteger, readPageSize } from '../../schemas/common.ts';
import { TransactionRecordSchema } from '../../schemas/transaction-records.ts';
import { TransactionQueryBody } from '../../schemas/transactions.ts';

/**
 * POST /v1/api/{orgId}/transactions, the published query and the product's hot path. The page
 * arrives from PostgreSQL as finished JSON text and is sent as it is: nothing here parses or
 * rebuilds records.
 */
export async function transactionRoutes(app: FastifyInstance, options: { services: Services }) {
  const { transactionQueries } = options.services;

  app.post<{ Body: TransactionQueryBody; Params: { orgId: string } }>(
    '/transactions',
    {
      config: { scope: Scopes.read },
      schema: {
        operationId: 'queryTransactions',
        summary: 'List the transactions of a dataset, with their matches and reconciliation status',
        description:
          'Returns one page as a bare JSON array, in (timestamp, id) order unless sort asks for another. X-Has-More says whether more follow; X-Next-Cursor, ' +
          'sent back as cursor with the same query, continues at constant cost. Paging by offset stays cheap however deep it goes.',
        tags: ['Transactions'],
        params: Type.Object({ orgId: Type.String({ format: 'uuid' }) }),
        body: TransactionQueryBody,
        response: {
          200: Type.Array(TransactionRecordSchema, {
            description: 'The page; an empty array when nothing matches.',
            headers: {
              'X-Has-More': Type.String({ enum: ['true', 'false'], description: 'Whether more transactions follow this page.' }),
              'X-Next-Cursor': Type.String({ description: 'Send as cursor to get the next page; absent when nothing follows.' }),
            },
          }),
          ...errorResponses(404, 504),
        },
      },
    },
    async (request, reply) => {
      const body = request.body;
      const page = await transactionQueries.query(request.principal.organizationId, {
        datasetId: body.datasetId,
        limit: readPageSize(body.limit, TRANSACTIONS_PAGE_SIZE, '/limit'),
        offset: readInteger(body.offset, '/offset', { minimum: 0 }),
        offest: readInteger(body.offest, '/offest', { minimum: 0 }),
        fromMs: readInteger(body.from, '/from'),
        toMs: readInteger(body.to, '/to'),
        order: body.order,
        sort: body.sort,
        cursor: body.cursor,
        search: body.search,
        columns: body.columns,
      });
      reply.header('x-has-more', page.hasMore ? 'true' : 'false');
      if (page.nextCursor !== null) reply.header('x-next-cursor', page.nextCursor);
      return reply.type('application/json; charset=utf-8').send(page.body);
    },
  );
}
