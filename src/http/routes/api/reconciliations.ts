import type { FastifyInstance } from 'fastify';
import type { Static } from '@sinclair/typebox';
import { Scopes } from '../../../domain/auth/roles.ts';
import { RECONCILIATIONS_PAGE_SIZE } from '../../../domain/close/reconciliations.ts';
import type { Services } from '../../../domain/services.ts';
import { IdempotencyKeyHeaders, sendIdempotentWrite } from '../../idempotency.ts';
import { errorResponses, OrganizationParams, readPageSize } from '../../schemas/common.ts';
import {
  ApproveBody,
  CreateReconciliationBody,
  PeriodParams,
  PeriodSchema,
  PeriodsSchema,
  PrepareBody,
  ReconciliationPageSchema,
  ReconciliationParams,
  ReconciliationSchema,
  ReconciliationsQuery,
  ReopenBody,
  StatementQuery,
  StatementSchema,
  UpdateReconciliationBody,
} from '../../schemas/close.ts';

/**
 * Month-end close (SPEC §14, docs/CLOSE.md): reconciliations, the statement of a period, and the
 * sign-off of periods. Reading needs read:data; creating, changing, preparing and reopening
 * write:data; approving read:data, as a Reviewer's token carries no more: whether the caller may
 * approve (an Administrator or a Reviewer, not the preparer) and reopen (an Administrator) is
 * decided by its role.
 */
export async function reconciliationRoutes(app: FastifyInstance, options: { services: Services }) {
  const { services } = options;
  const tags = ['Month-end close'];

  app.get(
    '/reconciliations',
    {
      config: { scope: Scopes.read },
      schema: {
        operationId: 'listReconciliations',
        summary: 'List reconciliations',
        description: 'The reconciliations of the organization in the order they were created; archived ones only with includeArchived=true. Page with cursor.',
        tags,
        params: OrganizationParams,
        querystring: ReconciliationsQuery,
        response: { 200: ReconciliationPageSchema, ...errorResponses() },
      },
    },
    async (request) => {
      const query = request.query as Static<typeof ReconciliationsQuery>;
      return services.reconciliations.list(request.principal.organizationId, {
        limit: readPageSize(query.limit, RECONCILIATIONS_PAGE_SIZE),
        cursor: query.cursor ?? null,
        includeArchived: query.includeArchived === 'true',
      });
    },
  );

  app.post(
    '/reconciliations',
    {
      config: { scope: Scopes.write },
      schema: {
        operationId: 'createReconciliation',
        summary: 'Create a reconciliation',
        description:
          "Pairs bank datasets with ledger datasets of one currency. Every dataset must be the organization's, on one side only, in no other reconciliation (409), " +
          "and of the reconciliation's currency when it declares one; every rule must be the organization's. The name is unique (409).",
        tags,
        params: OrganizationParams,
        headers: IdempotencyKeyHeaders,
        body: CreateReconciliationBody,
        response: { 201: ReconciliationSchema, ...errorResponses(409, 422) },
      },
    },
    async (request, reply) => {
      const body = request.body as Static<typeof CreateReconciliationBody>;
      return sendIdempotentWrite(request, reply, services, 201, (transaction, context) => services.reconciliations.create(transaction, context, body));
    },
  );

  app.get(
    '/reconciliations/:reconciliationId',
    {
      config: { scope: Scopes.read },
      schema: {
        operationId: 'getReconciliation',
        summary: 'Get a reconciliation',
        description: 'The reconciliation, archived or not.',
        tags,
        params: ReconciliationParams,
        response: { 200: ReconciliationSchema, ...errorResponses(404) },
      },
    },
    async (request) => {
      const { reconciliationId } = request.params as Static<typeof ReconciliationParams>;
      return services.reconciliations.get(request.principal.organizationId, reconciliationId);
    },
  );

  app.patch(
    '/reconciliations/:reconciliationId',
    {
      config: { scope: Scopes.write },
      schema: {
        operationId: 'updateReconciliation',
        summary: 'Change or archive a reconciliation',
        description:
          'The fields given replace the reconciliation\'s (a dataset list replaces the whole list), checked as on creation; "archived": true archives it, false restores it. ' +
          'Signed periods keep the statements they stored.',
        tags,
        params: ReconciliationParams,
        headers: IdempotencyKeyHeaders,
        body: UpdateReconciliationBody,
        response: { 200: ReconciliationSchema, ...errorResponses(404, 409, 422) },
      },
    },
    async (request, reply) => {
      const { reconciliationId } = request.params as Static<typeof ReconciliationParams>;
      const body = request.body as Static<typeof UpdateReconciliationBody>;
      return sendIdempotentWrite(request, reply, services, 200, (transaction, context) =>
        services.reconciliations.update(transaction, context, reconciliationId, body),
      );
    },
  );

  app.get(
    '/reconciliations/:reconciliationId/periods',
    {
      config: { scope: Scopes.read },
      schema: {
        operationId: 'listReconciliationPeriods',
        summary: 'List the periods of a reconciliation',
        description:
          "Every period from the one holding the ledger's opening date to the one holding today, latest first: its state (open, prepared, approved), " +
          'its unexplained difference, who prepared and approved it and when, and every step of its sign-off (reopens included).',
        tags,
        params: ReconciliationParams,
        response: { 200: PeriodsSchema, ...errorResponses(404) },
      },
    },
    async (request) => {
      const { reconciliationId } = request.params as Static<typeof ReconciliationParams>;
      return services.closeSignoff.periods(request.principal.organizationId, reconciliationId);
    },
  );

  app.get(
    '/reconciliations/:reconciliationId/statement',
    {
      config: { scope: Scopes.read },
      schema: {
        operationId: 'getReconciliationStatement',
        summary: 'Get the reconciliation statement of a period',
        description:
          'The bank reconciliation statement at periodEnd (the last day of a period): balance per bank, items in the ledger not yet in the bank, items in the bank not yet ' +
          'in the ledger, the adjusted bank balance, adjustments, balance per ledger and the unexplained difference, each line with its items (docs/CLOSE.md). ' +
          "An open period's statement is computed from the data; a prepared or approved period's is the one stored when it was prepared. " +
          'Transactions of another currency in the datasets are a 422 naming how many and where.',
        tags,
        params: ReconciliationParams,
        querystring: StatementQuery,
        response: { 200: StatementSchema, ...errorResponses(404, 422) },
      },
    },
    async (request) => {
      const { reconciliationId } = request.params as Static<typeof ReconciliationParams>;
      const { periodEnd } = request.query as Static<typeof StatementQuery>;
      return services.closeSignoff.statement(request.principal.organizationId, reconciliationId, periodEnd);
    },
  );

  app.post(
    '/reconciliations/:reconciliationId/periods/:periodEnd/prepare',
    {
      config: { scope: Scopes.write },
      schema: {
        operationId: 'prepareReconciliationPeriod',
        summary: 'Prepare a period',
        description:
          'Signs an open period as its preparer: its unexplained difference must be exactly 0.00 (409 naming it otherwise). The statement as it stands is stored with the note ' +
          'and is what the period shows from then on.',
        tags,
        params: PeriodParams,
        headers: IdempotencyKeyHeaders,
        body: PrepareBody,
        response: { 200: PeriodSchema, ...errorResponses(404, 409, 422) },
      },
    },
    async (request, reply) => {
      const { reconciliationId, periodEnd } = request.params as Static<typeof PeriodParams>;
      const { note } = request.body as Static<typeof PrepareBody>;
      return sendIdempotentWrite(request, reply, services, 200, (transaction, context) =>
        services.closeSignoff.prepare(transaction, context, reconciliationId, periodEnd, note),
      );
    },
  );

  app.post(
    '/reconciliations/:reconciliationId/periods/:periodEnd/approve',
    {
      config: { scope: Scopes.read },
      schema: {
        operationId: 'approveReconciliationPeriod',
        summary: 'Approve a period',
        description:
          'Approves a prepared period, which closes it. Only an Administrator or a Reviewer may approve (403), and not the one who prepared it (403). ' +
          'The scope needed is read:data, as a Reviewer has no other; the role decides.',
        tags,
        params: PeriodParams,
        headers: IdempotencyKeyHeaders,
        body: ApproveBody,
        response: { 200: PeriodSchema, ...errorResponses(403, 404, 409, 422) },
      },
    },
    async (request, reply) => {
      const { reconciliationId, periodEnd } = request.params as Static<typeof PeriodParams>;
      const { note } = request.body as Static<typeof ApproveBody>;
      const signer = { userId: request.principal.userId, clientId: request.principal.clientId };
      return sendIdempotentWrite(request, reply, services, 200, (transaction, context) =>
        services.closeSignoff.approve(transaction, context, signer, reconciliationId, periodEnd, note ?? null),
      );
    },
  );

  app.post(
    '/reconciliations/:reconciliationId/periods/:periodEnd/reopen',
    {
      config: { scope: Scopes.write },
      schema: {
        operationId: 'reopenReconciliationPeriod',
        summary: 'Reopen a period',
        description:
          "Takes a prepared or approved period back to open, with a reason; Administrators only (403). The statements signed before stay in the period's record.",
        tags,
        params: PeriodParams,
        headers: IdempotencyKeyHeaders,
        body: ReopenBody,
        response: { 200: PeriodSchema, ...errorResponses(403, 404, 409, 422) },
      },
    },
    async (request, reply) => {
      const { reconciliationId, periodEnd } = request.params as Static<typeof PeriodParams>;
      const { reason } = request.body as Static<typeof ReopenBody>;
      const signer = { userId: request.principal.userId, clientId: request.principal.clientId };
      return sendIdempotentWrite(request, reply, services, 200, (transaction, context) =>
        services.closeSignoff.reopen(transaction, context, signer, reconciliationId, periodEnd, reason),
      );
    },
  );
}
