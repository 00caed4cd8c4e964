import { Type, type Static } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import { SUMMARY_MONTHS_LIMIT } from '../../../domain/catalog/dataset-summary.ts';
import { Scopes } from '../../../domain/auth/roles.ts';
import type { Services } from '../../../domain/services.ts';
import { Uuid, errorResponses } from '../../schemas/common.ts';

const Params = Type.Object({ orgId: Uuid, datasetId: Uuid }, { additionalProperties: false });
const Money = Type.String({ description: 'A decimal amount, absolute values summed (the size of the work, money in and out alike).' });
const Summary = Type.Object({
  datasetId: Uuid,
  months: Type.Array(
    Type.Object({
      month: Type.String({ description: "YYYY-MM of the transactions' time (UTC)." }),
      count: Type.Integer(),
      reconciledCount: Type.Integer({ description: 'Transactions with status full.' }),
      excludedCount: Type.Integer({ description: 'Informative and out of scope: left out of the shares.' }),
      amount: Money,
      reconciledAmount: Money,
    }),
    { description: `Oldest first, the last ${SUMMARY_MONTHS_LIMIT} months that have transactions.` },
  ),
  openByAge: Type.Array(
    Type.Object({
      bucket: Type.String({ description: 'Days since the transaction: 0-7, 8-30, 31-90, >90.' }),
      count: Type.Integer(),
      amount: Type.String({ description: 'What is left open, signed (money out negative) and summed: the net open amount.' }),
    }),
    { description: 'Open transactions (none, partial) and what is left to match of them, by age.' },
  ),
  ruleHits: Type.Array(Type.Object({ ruleId: Uuid, name: Type.Union([Type.String(), Type.Null()]), matches: Type.Integer() }), {
    description: 'Matches made by each rule with this dataset on either side.',
  }),
});

export async function datasetSummaryRoutes(app: FastifyInstance, options: { services: Services }) {
  app.get<{ Params: Static<typeof Params> }>(
    '/datasets/:datasetId/summary',
    {
      config: { scope: Scopes.read },
      schema: {
        operationId: 'getDatasetSummary',
        summary: "A dataset's reconciliation at a glance",
        description: 'The reconciled share by month (by count and by amount), open amounts by age, and rule hit counts: what the dashboard shows.',
        tags: ['Sources and datasets'],
        params: Params,
        response: { 200: Summary, ...errorResponses(404) },
      },
    },
    async (request) => options.services.datasetSummaries.summarize(request.principal.organizationId, request.params.datasetId),
  );
}
