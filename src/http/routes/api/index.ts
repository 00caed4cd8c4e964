import type { FastifyInstance } from 'fastify';
import type { Services } from '../../../domain/services.ts';
import { registerAuthentication } from '../../plugins/authenticate.ts';
import { auditEventRoutes } from './audit-events.ts';
import { clientRoutes } from './clients.ts';
import { matchRoutes } from './matches.ts';
import { sourceRoutes } from './sources.ts';
import { transactionByIdRoutes } from './transactions-by-id.ts';
import { transactionRoutes } from './transactions.ts';

/** Every operation under /v1/api/{orgId}: authenticated, organization-checked, scoped. */
export async function apiRoutes(app: FastifyInstance, options: { services: Services }) {
  registerAuthentication(app, options.services);
  await app.register(transactionRoutes, options);
  await app.register(transactionByIdRoutes, options);
  await app.register(sourceRoutes, options);
  await app.register(matchRoutes, options);
  await app.register(auditEventRoutes, options);
  await app.register(clientRoutes, options);
}
