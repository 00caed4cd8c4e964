import type { FastifyInstance } from 'fastify';
import type { Static } from '@sinclair/typebox';
import { Scopes } from '../../../domain/auth/roles.ts';
import { BULK_ASSIGN_MAX_TRANSACTIONS, checkPeriodEnd, EXCEPTIONS_PAGE_SIZE, type AgeBucket } from '../../../domain/close/exceptions.ts';
import type { Services } from '../../../domain/services.ts';
import { IdempotencyKeyHeaders, sendIdempotentWrite } from '../../idempotency.ts';
import { errorResponses, OrganizationParams, readPageSize } from '../../schemas/common.ts';
import {
  AssigneesSchema,
  BulkAssignBody,
  BulkAssignResultSchema,
  CommentBody,
  ExceptionCommentSchema,
  ExceptionDetailSchema,
  ExceptionListQuery,
  ExceptionPageSchema,
  ExceptionParams,
  PatchExceptionBody,
  ReconciliationExceptionsParams,
  ReopenBody,
  ResolveBody,
} from '../../schemas/exceptions.ts';

const TAGS = ['Exceptions'];

/**
 * The exceptions queue of the month-end close: the open items of a reconciliation
 * (/reconciliations/{id}/exceptions) and the follow-up of each (/exceptions/{transactionId}).
 */
export async function exceptionRoutes(app: FastifyInstance, options: { services: Services }) {
  const { services } = options;

  app.get(
    '/reconciliations/:reconciliationId/exceptions',
    {
      config: { scope: Scopes.read },
      schema: {
        operationId: 'listReconciliationExceptions',
        summary: "List a reconciliation's exceptions",
        description:
          "The open items of the reconciliation's datasets dated on or before the period end — transactions neither matched in full nor set aside, " +
          'nor resolved by a note — oldest first, each with its follow-up: assignee, due date, hold, comments. `view` narrows to mine, unassigned, ' +
          'overdue, on-hold or resolved; `age` to an age bucket; `assignee` to one user.',
        tags: TAGS,
        params: ReconciliationExceptionsParams,
        querystring: ExceptionListQuery,
        response: { 200: ExceptionPageSchema, ...errorResponses(400, 404) },
      },
    },
    async (request) => {
      const { reconciliationId } = request.params as Static<typeof ReconciliationExceptionsParams>;
      const query = request.query as Static<typeof ExceptionListQuery>;
      return services.exceptions.list(request.principal.organizationId, {
        reconciliationId,
        periodEnd: checkPeriodEnd(query.periodEnd),
        view: query.view ?? null,
        age: (query.age as AgeBucket | undefined) ?? null,
        assigneeUserId: query.assignee ?? null,
        userId: request.principal.userId ?? null,
        limit: readPageSize(query.limit, EXCEPTIONS_PAGE_SIZE),
        cursor: query.cursor ?? null,
      });
    },
  );

  app.get(
    '/assignees',
    {
      config: { scope: Scopes.read },
      schema: {
        operationId: 'listAssignees',
        summary: 'List the people an exception can be assigned to',
        description:
          "The organization's active users, by id and name, for any member (the users list, with roles and sign-ins, is for Administrators): what an " +
          "assignee picker offers. A user's name is their e-mail, the name exceptions already show for their assignee and comments for their author.",
        tags: TAGS,
        params: OrganizationParams,
        response: { 200: AssigneesSchema, ...errorResponses() },
      },
    },
    async (request) => services.exceptions.assignees(request.principal.organizationId),
  );

  app.post(
    '/exceptions/assign',
    {
      config: { scope: Scopes.write },
      schema: {
        operationId: 'assignExceptions',
        summary: 'Assign many exceptions, give them a due date, or put them on hold, at once',
        description:
          `Changes every listed transaction (at most ${BULK_ASSIGN_MAX_TRANSACTIONS}) as PATCH /exceptions/{transactionId} would, all or nothing: assigneeUserId ` +
          '(null unassigns), dueDate (null clears it), holdReason (null takes them off hold); what is left out stays. A transaction not found in the ' +
          'organization, or an assignee who is not one of its active users, and nothing changes. Each change is in the audit trail and emits ' +
          'exception.assigned or exception.updated, one per exception, as single changes do.',
        tags: TAGS,
        headers: IdempotencyKeyHeaders,
        body: BulkAssignBody,
        response: { 200: BulkAssignResultSchema, ...errorResponses(400, 404, 422) },
      },
    },
    async (request, reply) => {
      const body = request.body as Static<typeof BulkAssignBody>;
      return sendIdempotentWrite(request, reply, services, 200, (transaction, context) => services.exceptions.changeMany(transaction, context, body));
    },
  );

  app.get(
    '/exceptions/:transactionId',
    {
      config: { scope: Scopes.read },
      schema: {
        operationId: 'getException',
        summary: 'Get one exception with its comments',
        description: 'A transaction as an exception: its follow-up and its comment thread, oldest first (whether or not it is still open).',
        tags: TAGS,
        params: ExceptionParams,
        response: { 200: ExceptionDetailSchema, ...errorResponses(404) },
      },
    },
    async (request) => {
      const { transactionId } = request.params as Static<typeof ExceptionParams>;
      return services.exceptions.get(request.principal.organizationId, transactionId);
    },
  );

  app.patch(
    '/exceptions/:transactionId',
    {
      config: { scope: Scopes.write },
      schema: {
        operationId: 'updateException',
        summary: 'Assign an exception, give it a due date, or put it on hold',
        description:
          'Changes what is sent and keeps the rest: assigneeUserId (an active user of the organization; null unassigns), dueDate (null clears it), ' +
          'holdReason (null takes it off hold). Changes are in the audit trail and emit exception.assigned and exception.updated.',
        tags: TAGS,
        params: ExceptionParams,
        headers: IdempotencyKeyHeaders,
        body: PatchExceptionBody,
        response: { 200: ExceptionDetailSchema, ...errorResponses(400, 404, 422) },
      },
    },
    async (request, reply) => {
      const { transactionId } = request.params as Static<typeof ExceptionParams>;
      const body = request.body as Static<typeof PatchExceptionBody>;
      return sendIdempotentWrite(request, reply, services, 200, (transaction, context) =>
        services.exceptions.update(transaction, context, { transactionId, ...body }),
      );
    },
  );

  app.post(
    '/exceptions/:transactionId/comments',
    {
      config: { scope: Scopes.write },
      schema: {
        operationId: 'commentException',
        summary: 'Comment on an exception',
        description: 'Adds a comment to the thread, by the caller; it is in the audit trail and emits exception.commented.',
        tags: TAGS,
        params: ExceptionParams,
        headers: IdempotencyKeyHeaders,
        body: CommentBody,
        response: { 201: ExceptionCommentSchema, ...errorResponses(400, 404) },
      },
    },
    async (request, reply) => {
      const { transactionId } = request.params as Static<typeof ExceptionParams>;
      const body = request.body as Static<typeof CommentBody>;
      return sendIdempotentWrite(request, reply, services, 201, (transaction, context) =>
        services.exceptions.comment(transaction, context, { transactionId, body: body.body }),
      );
    },
  );

  app.post(
    '/exceptions/:transactionId/resolve',
    {
      config: { scope: Scopes.write },
      schema: {
        operationId: 'resolveException',
        summary: 'Resolve an exception by a note',
        description:
          'Resolves an open exception by hand, with a note saying why nothing more is to be done; it leaves the open items and takes it off hold. ' +
          'A match or an adjustment resolves an exception by itself. 409 when it is resolved already or not open.',
        tags: TAGS,
        params: ExceptionParams,
        headers: IdempotencyKeyHeaders,
        body: ResolveBody,
        response: { 200: ExceptionDetailSchema, ...errorResponses(400, 404, 409) },
      },
    },
    async (request, reply) => {
      const { transactionId } = request.params as Static<typeof ExceptionParams>;
      const body = request.body as Static<typeof ResolveBody>;
      return sendIdempotentWrite(request, reply, services, 200, (transaction, context) =>
        services.exceptions.resolve(transaction, context, { transactionId, note: body.note }),
      );
    },
  );

  app.post(
    '/exceptions/:transactionId/reopen',
    {
      config: { scope: Scopes.write },
      schema: {
        operationId: 'reopenException',
        summary: 'Reopen an exception resolved by a note',
        description: 'Puts an exception resolved by a note back among the open items. One resolved by a match is reopened by deleting the match (409 here).',
        tags: TAGS,
        params: ExceptionParams,
        headers: IdempotencyKeyHeaders,
        body: ReopenBody,
        response: { 200: ExceptionDetailSchema, ...errorResponses(400, 404, 409) },
      },
    },
    async (request, reply) => {
      const { transactionId } = request.params as Static<typeof ExceptionParams>;
      const body = (request.body ?? {}) as Static<typeof ReopenBody>;
      return sendIdempotentWrite(request, reply, services, 200, (transaction, context) =>
        services.exceptions.reopen(transaction, context, { transactionId, note: body.note ?? null }),
      );
    },
  );
}
