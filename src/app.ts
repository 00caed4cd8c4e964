import Fastify, { type FastifyInstance, type FastifyRequest } from 'fastify';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import { createHash, randomUUID } from 'node:crypto';
import type { Config } from './config.ts';
import type { Services } from './domain/services.ts';
import { describeErrorForLog, registerErrorHandling, sendClientError, sendFrameworkError, URL_LENGTH_LIMIT } from './http/error-handler.ts';
import { parseQueryString, QUERY_PROBLEMS, type QueryProblem } from './http/request-text.ts';
import type { GracefulShutdown } from './http/graceful-shutdown.ts';
import { registerLingeringClose } from './http/lingering-close.ts';
import { acceptAnyQuery, registerQueryParameterCheck } from './http/query-parameters.ts';
import { requestErrors } from './errors.ts';
import { apiRoutes } from './http/routes/api/index.ts';
import { discoveryRoutes } from './http/routes/oauth/discovery.ts';
import { tokenRoutes } from './http/routes/oauth/token.ts';
import { sessionRoutes } from './http/routes/auth/session.ts';
import { webAppRoutes } from './http/routes/web-app.ts';
import { openApiDocumentation } from './http/openapi.ts';
import { Type } from '@sinclair/typebox';
import { ErrorEnvelope } from './http/schemas/common.ts';
import { SearchQuery } from './http/schemas/transactions.ts';
import { ImportReportSchema } from './http/schemas/imports.ts';
import { UUID_PATTERN } from './domain/identifiers.ts';

/**
 * The one inline style of the API documentation: Swagger UI draws its logo as an SVG that
 * carries this <style>. It is allowed by its hash; a release of Swagger UI that changes it is
 * refused, and the browser test of /docs, which fails on any refusal, says so.
 */
const SWAGGER_LOGO_STYLE = '.logo_small_svg__cls-2{fill:#fff}.logo_small_svg__cls-3{fill:#85ea2d}';
/**
 * The API documentation (Swagger UI at /docs) loads its scripts, styles and images from this
 * server only, runs no inline script, sends requests ("Try it out") only here, and no other site
 * may frame it. Some of its pictures are data: URLs in its stylesheet.
 */
const DOCS_CONTENT_SECURITY_POLICY =
  `default-src 'self'; img-src 'self' data:; style-src 'self' 'sha256-${createHash('sha256').update(SWAGGER_LOGO_STYLE).digest('base64')}'; ` +
  "script-src 'self'; connect-src 'self'; font-src 'self' data:; object-src 'none'; frame-ancestors 'none'; base-uri 'none'; form-action 'self'";

/** The default body limit; operations that take more (ingest) raise it for themselves. */
const BODY_LIMIT_BYTES = 1024 * 1024;

export interface AppOptions {
  services: Services;
  /** Drains requests on shutdown (server.ts); tests that build apps directly need none. */
  shutdown?: GracefulShutdown;
  /** Pino logger options; false silences the log (tests). */
  logger?: boolean | Record<string, unknown>;
}

/**
 * How a request appears in the log: without its query string, which a careless client may fill
 * with a token or a secret (they are refused there, but must not be written down either).
 */
function requestForLog(request: FastifyRequest) {
  const [rawPath = '', query] = request.url.split('?', 2);
  // An invitation link's secret is in its path; the log keeps that there was one, not the secret.
  const path = rawPath.replace(/\/invitations\/[^/]+/, '/invitations/[secret omitted]');
  return {
    method: request.method,
    url: query === undefined ? path : `${path}?[query omitted]`,
    remoteAddress: request.ip,
  };
}

/** A hop count trusts that many proxies from the server's side, as Fastify's own number option does. */
function trustProxyOption(setting: Config['trustProxy']) {
  return typeof setting === 'number' ? (_address: string, hop: number) => hop < setting : setting;
}

/** Builds the HTTP application; server.ts makes it listen. */
export async function buildApp({ services, logger = false, shutdown }: AppOptions): Promise<FastifyInstance> {
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
    // While closing, requests are answered by GracefulShutdown in the API's envelope with
    // Retry-After, not by Fastify's own 503.
    return503OnClosing: false,
    forceCloseConnections: false,
    // request.ip is the connection's address unless TRUST_PROXY names the proxies in front.
    trustProxy: trustProxyOption(services.config.trustProxy),
    // Query strings are decoded strictly; what does not decode is refused before validation.
    routerOptions: { querystringParser: parseQueryString },
    clientErrorHandler: sendClientError,
    frameworkErrors: sendFrameworkError,
  });

  // Every answer, whatever produced it (a route, an error, a 404, a static file), tells the
  // browser to take its content type as given rather than guess one from the bytes: a JSON error
  // that quotes input is never run as a page or a script.
  app.addHook('onSend', async (_request, reply, payload) => {
    reply.header('x-content-type-options', 'nosniff');
    return payload;
  });
  shutdown?.attach(app);
  app.addHook('onRequest', async (request, reply) => {
    reply.header('x-request-id', request.id);
    if (request.url.length > URL_LENGTH_LIMIT) {
      throw requestErrors.urlTooLong(URL_LENGTH_LIMIT);
    }
  });
  // Runs after authentication and body parsing, before schema validation: the query string's
  // problems are named by parameter, as the body's are by JSON pointer.
  app.addHook('preValidation', async (request) => {
    const problems = (request.query as Record<symbol, QueryProblem[] | undefined> | undefined)?.[QUERY_PROBLEMS];
    if (problems && problems.length > 0) {
      throw requestErrors.fieldProblems(problems.map((problem) => ({ path: problem.pointer, message: problem.message })));
    }
  });
  registerQueryParameterCheck(app);
  registerErrorHandling(app);
  registerLingeringClose(app);
  // What goes wrong outside requests (jobs, a failure that could not be recorded) is logged too.
  const stopLoggingProblems = services.problems.listen((problem) =>
    app.log.error({ err: describeErrorForLog(problem.error), ...problem.facts }, problem.message),
  );
  app.addHook('onClose', async () => stopLoggingProblems());

  app.addSchema(ErrorEnvelope);
  app.addSchema(SearchQuery);
  app.addSchema(ImportReportSchema);
  await app.register(swagger, openApiDocumentation(services.config.publicUrl));
  await app.register(async (docs) => {
    acceptAnyQuery(docs);
    docs.addHook('onRequest', async (_request, reply) => {
      reply.headers({ 'content-security-policy': DOCS_CONTENT_SECURITY_POLICY, 'x-frame-options': 'DENY', 'referrer-policy': 'same-origin' });
    });
    await docs.register(swaggerUi, { routePrefix: '/docs' });
  });
  app.get('/openapi.json', { schema: { hide: true } }, async () => app.swagger());

  app.get(
    '/health',
    {
      schema: {
        operationId: 'getHealth',
        summary: 'Whether the server is up',
        description:
          'Answers 200 while the server takes requests; while it is stopping, 503 with Retry-After. Needs no token; for load balancers and monitors.',
        tags: ['Health'],
        security: [],
        response: {
          200: Type.Object({ status: Type.Literal('ok') }, { additionalProperties: false }),
          503: Type.Ref(ErrorEnvelope),
        },
      },
    },
    async () => ({ status: 'ok' as const }),
  );

  await app.register(tokenRoutes, { services });
  await app.register(discoveryRoutes, { services });
  await app.register(sessionRoutes, { services });
  await app.register(webAppRoutes);
  await app.register(apiRoutes, { services, prefix: '/v1/api/:orgId' });
  return app;
}
