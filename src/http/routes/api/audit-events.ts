import type { FastifyInstance } from 'fastify';
import { typedRoutes } from '../../type-provider.ts';
import { AUDIT_PAGE_SIZE } from '../../../domain/audit.ts';
import { Scopes } from '../../../domain/auth/roles.ts';
import type { Services } from '../../../domain/services.ts';
import { AuditEventsQuery, AuditPageSchema } from '../../schemas/audit-events.ts';
import { errorResponses, OrganizationParams, readInteger, readPageSize } from '../../schemas/common.ts';

/** The audit trail of matches and statuses; read-only, as no operation can edit it. */
export async function auditEventRoutes(parent: FastifyInstance, options: { services: Services }) {
  const app = typedRoutes(parent);
  const { services } = options;

  app.get(
    '/audit-events',
    {
      config: { scope: Scopes.read },
      schema: {
        operationId: 'listAuditEvents',
        summary: 'List audit events',
        description:
          'Every change, oldest first (newest first with order=newest): matches and reconciliation statuses, rules, suggestions, imports, sources and datasets, API clients and people; ' +
          'who, when, what, the state before and after, the request id and the note. Filter by actor, action, object, transaction and time; ' +
          'page with cursor (the nextCursor of the previous answer); from and to are inclusive epoch milliseconds.',
        tags: ['Audit'],
        params: OrganizationParams,
        querystring: AuditEventsQuery,
        response: { 200: AuditPageSchema, ...errorResponses(404) },
      },
    },
    async (request) => {
      const query = request.query;
      return services.auditTrail.list(request.principal.organizationId, {
        transactionId: query.transactionId ?? null,
        fromMs: readInteger(query.from, '/querystring/from', { minimum: 0 }) ?? null,
        toMs: readInteger(query.to, '/querystring/to', { minimum: 0 }) ?? null,
        actor: query.actor ?? null,
        action: query.action ?? null,
        object: query.object ?? null,
        order: query.order ?? 'oldest',
        limit: readPageSize(query.limit, AUDIT_PAGE_SIZE),
        cursor: query.cursor ?? null,
      });
    },
  );
}
