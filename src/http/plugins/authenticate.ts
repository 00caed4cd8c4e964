import type { FastifyInstance, FastifyRequest } from 'fastify';
import { forbidden, insufficientScope, unauthenticated } from '../../errors.ts';
import type { Principal } from '../../domain/auth/principal.ts';
import type { Scope } from '../../domain/auth/roles.ts';
import type { Services } from '../../domain/services.ts';

declare module 'fastify' {
  interface FastifyRequest {
    principal: Principal;
  }
  interface FastifyContextConfig {
    /** The scope an operation needs; every /v1/api route declares one. */
    scope?: Scope;
  }
}

const BEARER_PATTERN = /^Bearer +([A-Za-z0-9\-_.~+/]+=*) *$/;

/**
 * Authenticates every request of the encapsulating context (the /v1/api/{orgId} routes):
 * bearer token, then organization, then the route's scope, all before the body is parsed, so
 * that a caller without access learns nothing from validation errors.
 */
export function registerAuthentication(app: FastifyInstance, services: Services) {
  app.decorateRequest('principal', null as unknown as Principal);
  app.addHook('onRequest', async (request: FastifyRequest) => {
    const header = request.headers.authorization;
    if (!header || !/^Bearer\s/i.test(header)) {
      throw unauthenticated('send the access token in the Authorization header: "Authorization: Bearer <token>"');
    }
    const match = BEARER_PATTERN.exec(header.replace(/^bearer/i, 'Bearer'));
    if (!match) throw unauthenticated('the Authorization header must be "Bearer <token>"');
    const principal = await services.accessTokens.verify(match[1]!);
    const { orgId } = request.params as { orgId?: string };
    // UUIDs are case-insensitive; a path with the id in capitals names the same organization.
    if (orgId?.toLowerCase() !== principal.organizationId) {
      throw forbidden('the access token belongs to another organization than the one in the path');
    }
    services.requestRateLimit.take(principal.clientId);
    const needed = request.routeOptions.config.scope;
    if (needed === undefined) throw new Error(`route ${request.routeOptions.url} declares no scope`);
    if (!principal.scopes.includes(needed)) throw insufficientScope(needed);
    request.principal = principal;
  });
}
