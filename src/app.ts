import Fastify, { type FastifyInstance, type FastifyRequest } from 'fastify';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import { randomUUID } from 'node:crypto';
import type { Services } from './domain/services.ts';
import { registerErrorHandling } from './http/error-handler.ts';
import { apiRoutes } from './http/routes/api/index.ts';
import { discoveryRoutes } from './http/routes/oauth/discovery.ts';
import { tokenRoutes } from './http/routes/oauth/token.ts';
import { openApiDocumentation } from './http/openapi.ts';
import { ErrorEnvelope } from './http/schemas/common.ts';
import { SearchQuery } from './http/schemas/transactions.ts';

const UUID_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
/** The default body limit; operations that take more (ingest) raise it for themselves. */
const BODY_LIMIT_BYTES = 1024 * 1024;

export interface AppOptions {
  services: Services;
  /** Pino logger options; false silences the log (tests). */
  logger?: boolean | Record<string, unknown>;
}

/**
 * How a request appears in the log: without its query string, which a careless client may fill
 * with a token or a secret (they are refused there, but must not be written down either).
 */
function requestForLog(request: FastifyRequest) {
  const [path, query] = request.url.split('?', 2);
  return {
    method: request.method,
    url: query === undefined ? path : `${path}?[query omitted]`,
    remoteAddress: request.ip,
  };
}

/** Builds the HTTP application; server.ts makes it listen. */
export async function buildApp({ services, logger = false }: AppOptions): Promise<FastifyInstance> {
  const app = Fastify({
    logger: logger === false ? false : { ...(logger === true ? {} : logger), serializers: { req: requestForLog } },
    bodyLimit: BODY_LIMIT_BYTES,
    // A caller's own X-Request-Id is kept when it is a UUID, so a request can be traced end to end.
    genReqId: (request) => {
      const incoming = request.headers['x-request-id'];
      return typeof incoming === 'string' && UUID_PATTERN.test(incoming) ? incoming : randomUUID();
    },
    ajv: {
      customOptions: {
        // Unknown properties are refused, not silently dropped; types are never coerced (the
        // schemas say where a numeric string is welcome).
        removeAdditional: false,
        coerceTypes: false,
        useDefaults: true,
        allErrors: false,
        // Failures carry their schema, so messages can state the rule (an integer's bounds).
        verbose: true,
      },
    },
    return503OnClosing: true,
  });

  app.addHook('onRequest', async (request, reply) => {
    reply.header('x-request-id', request.id);
  });
  registerErrorHandling(app);

  app.addSchema(ErrorEnvelope);
  app.addSchema(SearchQuery);
  await app.register(swagger, openApiDocumentation(services.config.publicUrl));
  await app.register(swaggerUi, { routePrefix: '/docs' });
  app.get('/openapi.json', { schema: { hide: true } }, async () => app.swagger());

  app.get('/health', { schema: { hide: true } }, async () => ({ status: 'ok' }));

  await app.register(tokenRoutes, { services });
  await app.register(discoveryRoutes, { services });
  await app.register(apiRoutes, { services, prefix: '/v1/api/:orgId' });
  return app;
}
