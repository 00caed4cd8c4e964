import { Type, type Static } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import { OVERVIEW_MONTHS_LIMIT } from '../../../domain/catalog/dataset-overview.ts';
import { Scopes } from '../../../domain/auth/roles.ts';
import type { Services } from '../../../domain/services.ts';
import { OrganizationParams, Uuid, errorResponses } from '../../schemas/common.ts';

const Month = (description: string) => Type.String({ pattern: '^[0-9]{4}-(0[1-9]|1[0-2])$', description });
const Query = Type.Object(
  {
    from: Type.Optional(Month('The first month of the period, YYYY-MM; by default eleven months before the last.')),
    to: Type.Optional(Month('The last month of the period, YYYY-MM; by default the current month (UTC).')),
  },
  { additionalProperties: false },
);
const Money = (description: string) => Type.String({ description });
const Overview = Type.Object({
  from: Type.String({ description: 'The first month of the period, YYYY-MM.' }),
  to: Type.String({ description: 'The last month of the period, YYYY-MM.' }),
  months: Type.Array(Type.String(), { description: 'Every month of the period, YYYY-MM, oldest first, months without transactions included.' }),
  datasets: Type.Array(
    Type.Object({
      datasetId: Uuid,
      name: Type.String(),
      sourceName: Type.String(),
      accountId: Type.Union([Type.String(), Type.Null()]),
      currency: Type.Union([Type.String(), Type.Null()], { description: "The dataset's currency, when known." }),
      count: Type.Integer({ description: "The period's transactions." }),
      reconciledCount: Type.Integer({ description: 'Of them, with status full.' }),
      excludedCount: Type.Integer({ description: 'Of them, informative or out of scope: left out of the reconciled share.' }),
      open: Type.Array(
        Type.Object({
          currency: Type.Union([Type.String(), Type.Null()]),
          count: Type.Integer({ description: 'Open transactions (none, partial) of the period in this currency.' }),
          moneyIn: Money('What is left to match of the open money in (positive amounts): a sum, zero or positive.'),
          moneyOut: Money('What is left to match of the open money out (negative amounts): a sum, zero or negative.'),
          net: Money('moneyIn + moneyOut: the signed sum of what is left open, as the statement sums its entries.'),
        }),
        { description: 'Per currency; empty when nothing of the period is open.' },
      ),
      months: Type.Array(Type.Object({ month: Type.String(), count: Type.Integer(), reconciledCount: Type.Integer(), excludedCount: Type.Integer() }), {
        description: 'The months of the period that have transactions, oldest first.',
      }),
      closingBalance: Type.Union(
        [
          Type.Object({
            amount: Money('Signed: a debit balance is negative.'),
            currency: Type.Union([Type.String(), Type.Null()]),
            date: Type.String({ description: 'The calendar date of the balance as the bank wrote it, YYYY-MM-DD.' }),
          }),
          Type.Null(),
        ],
        { description: "The closing balance of the latest statement dated on or before the period's last day." },
      ),
    }),
    { description: 'Every bank dataset: one with an account, or with bank statements imported.' },
  ),
});

export async function datasetOverviewRoutes(app: FastifyInstance, options: { services: Services }) {
  app.get<{ Querystring: Static<typeof Query> }>(
    '/dataset-overview',
    {
      config: { scope: Scopes.read },
      schema: {
        operationId: 'getDatasetOverview',
        summary: 'Every bank account at a glance',
        description:
          `For each bank dataset over a period of months (at most ${OVERVIEW_MONTHS_LIMIT}): its transactions and how many are reconciled, ` +
          'what is left open as money in and money out per currency, its transactions by month, and its latest closing balance.',
        tags: ['Sources and datasets'],
        params: OrganizationParams,
        querystring: Query,
        response: { 200: Overview, ...errorResponses() },
      },
    },
    async (request) =>
      options.services.datasetOverviews.overview(request.principal.organizationId, { from: request.query.from ?? null, to: request.query.to ?? null }),
  );
}
