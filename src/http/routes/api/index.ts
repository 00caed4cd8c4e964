import type { FastifyInstance } from 'fastify';
import type { Services } from '../../../domain/services.ts';
import { registerAuthentication } from '../../plugins/authenticate.ts';
import { registerJsonBodies } from '../../plugins/json-bodies.ts';
import { auditEventRoutes } from './audit-events.ts';
import { clientRoutes } from './clients.ts';
import { connectionRoutes } from './connections.ts';
import { datasetOverviewRoutes } from './dataset-overview.ts';
import { datasetSummaryRoutes } from './dataset-summary.ts';
import { datasetTransactionRoutes } from './dataset-transactions.ts';
import { eventRoutes } from './events.ts';
import { exceptionRoutes } from './exceptions.ts';
import { importRoutes } from './imports.ts';
import { invitationRoutes } from './invitations.ts';
import { matchGroupRoutes } from './match-groups.ts';
import { matchRoutes } from './matches.ts';
import { reconciliationRoutes } from './reconciliations.ts';
import { ruleRoutes } from './rules.ts';
import { runRoutes } from './runs.ts';
import { sourceRoutes } from './sources.ts';
import { suggestionRoutes } from './suggestions.ts';
import { transactionCandidateRoutes } from './transaction-candidates.ts';
import { transactionByIdRoutes } from './transactions-by-id.ts';
import { transactionRoutes } from './transactions.ts';
import { userByIdRoutes, userRoutes } from './users.ts';
import { webhookEndpointRoutes } from './webhook-endpoints.ts';

/** Every operation under /v1/api/{orgId}: authenticated, organization-checked, scoped. */
export async function apiRoutes(app: FastifyInstance, options: { services: Services }) {
  registerJsonBodies(app);
  registerAuthentication(app, options.services);
  // Only the services are passed on: forwarding this plugin's own options would hand the
  // children its "prefix" too, and Fastify would prepend it a second time.
  const childOptions = { services: options.services };
  // One file per URL family; the order of registration is the order of docs/openapi.json's paths.
  await app.register(transactionRoutes, childOptions);
  await app.register(transactionByIdRoutes, childOptions);
  await app.register(sourceRoutes, childOptions);
  await app.register(datasetTransactionRoutes, childOptions);
  await app.register(matchRoutes, childOptions);
  await app.register(matchGroupRoutes, childOptions);
  await app.register(auditEventRoutes, childOptions);
  await app.register(clientRoutes, childOptions);
  await app.register(importRoutes, childOptions);
  await app.register(runRoutes, childOptions);
  await app.register(suggestionRoutes, childOptions);
  await app.register(transactionCandidateRoutes, childOptions);
  await app.register(ruleRoutes, childOptions);
  await app.register(userRoutes, childOptions);
  await app.register(invitationRoutes, childOptions);
  await app.register(userByIdRoutes, childOptions);
  await app.register(datasetSummaryRoutes, childOptions);
  await app.register(datasetOverviewRoutes, childOptions);
  await app.register(eventRoutes, childOptions);
  await app.register(webhookEndpointRoutes, childOptions);
  await app.register(reconciliationRoutes, childOptions);
  await app.register(exceptionRoutes, childOptions);
  await app.register(connectionRoutes, childOptions);
}
