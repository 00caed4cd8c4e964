import type { FastifyInstance } from 'fastify';
import { requestErrors } from '../errors.ts';

declare module 'fastify' {
  interface FastifyContextConfig {
    /**
     * The route's query string is its own business, not parameters of the API: a page of the web
     * app or of the API documentation (the page reads it in the browser), their files, and the
     * token endpoint (RFC 6749 §3.2 has it ignore what it does not know).
     */
    acceptsAnyQuery?: boolean;
  }
}

/** Unknown parameters named in one answer, at most. */
const UNKNOWN_PARAMETERS_LISTED = 5;

/**
 * Unknown query parameters are refused, as unknown body members are: a misspelt parameter
 * (`?limt=5`) or one sent in the URL instead of the body (`POST /transactions?limit=5`) must not
 * be silently ignored, which would quietly widen a query. A route with a querystring schema
 * refuses them through it (every such schema says additionalProperties: false); a route without
 * one takes no parameter, and any it is sent is refused here, naming it.
 */
export function registerQueryParameterCheck(app: FastifyInstance): void {
  // What the check relies on is made sure of when a route is registered.
  app.addHook('onRoute', (route) => {
    const schema = route.schema?.querystring as { additionalProperties?: unknown } | undefined;
    if (schema !== undefined && schema.additionalProperties !== false) {
      throw new Error(
        `${String(route.method)} ${route.url}: its querystring schema must say additionalProperties: false, so that unknown parameters are refused`,
      );
    }
  });
  app.addHook('preValidation', async (request) => {
    if (request.is404 || request.routeOptions.schema?.querystring !== undefined || request.routeOptions.config.acceptsAnyQuery) return;
    const names = Object.keys((request.query as Record<string, unknown> | undefined) ?? {});
    if (names.length === 0) return;
    throw requestErrors.unknownQueryParameters(names.slice(0, UNKNOWN_PARAMETERS_LISTED), ['POST', 'PUT', 'PATCH'].includes(request.method));
  });
}

/** Marks every route registered in `app` (a plugin's own scope) as taking any query string. */
export function acceptAnyQuery(app: FastifyInstance): void {
  app.addHook('onRoute', (route) => {
    route.config = { ...route.config, acceptsAnyQuery: true };
  });
}
