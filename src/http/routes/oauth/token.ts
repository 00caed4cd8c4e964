import type { FastifyInstance, FastifyRequest } from 'fastify';
import { InvalidRequest, OAuthError } from '../../../domain/auth/oauth-errors.ts';
import type { TokenRequest } from '../../../domain/auth/client-credentials-grant.ts';
import type { Services } from '../../../domain/services.ts';
import { sendOAuthError } from '../../error-handler.ts';

const TOKEN_BODY_LIMIT_BYTES = 16 * 1024;

/**
 * POST /oauth/token. The transport's part is small: read the form or JSON body and the Basic
 * header into a TokenRequest, hand it to the grant, write the RFC 6749 answer.
 */
export async function tokenRoutes(app: FastifyInstance, options: { services: Services }) {
  const { grant } = options.services;
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string', bodyLimit: TOKEN_BODY_LIMIT_BYTES }, (_request, body, done) => {
    try {
      done(null, parseForm(body as string));
    } catch (error) {
      done(error as Error);
    }
  });
  app.addContentTypeParser('application/json', { parseAs: 'string', bodyLimit: TOKEN_BODY_LIMIT_BYTES }, (_request, body, done) => {
    try {
      done(null, parseJsonParameters(body as string));
    } catch (error) {
      done(error as Error);
    }
  });
  // Every failure of this route, including the ones Fastify raises while reading the body, is
  // answered in the OAuth error format.
  app.setErrorHandler((error, request, reply) => {
    if (error instanceof OAuthError) return sendOAuthError(reply, error);
    const statusCode = (error as { statusCode?: number }).statusCode;
    if (statusCode !== undefined && statusCode < 500) {
      const description =
        (error as { code?: string }).code === 'FST_ERR_CTP_INVALID_MEDIA_TYPE'
          ? 'send the token request as application/x-www-form-urlencoded or application/json'
          : 'the request body could not be read';
      return sendOAuthError(reply, new InvalidRequest(description));
    }
    request.log.error({ err: error }, 'token request failed');
    return reply.code(500).headers({ 'cache-control': 'no-store', pragma: 'no-cache' }).send({
      error: 'server_error',
      error_description: `internal error; quote request id ${request.id} when reporting it`,
    });
  });

  app.post('/oauth/token', { schema: { hide: true } }, async (request, reply) => {
    const issued = await grant.grant(tokenRequestOf(request));
    return reply
      .headers({ 'cache-control': 'no-store', pragma: 'no-cache' })
      .type('application/json; charset=utf-8')
      .send({ access_token: issued.accessToken, token_type: 'Bearer', expires_in: issued.expiresInSeconds, scope: issued.scope });
  });
}

function tokenRequestOf(request: FastifyRequest): TokenRequest {
  const parameters = (request.body ?? {}) as Record<string, string>;
  return { parameters, basic: basicCredentials(request.headers.authorization) };
}

/** RFC 6749 §2.3.1: both parts are form-urlencoded before base64, so both are decoded here. */
function basicCredentials(header: string | undefined): TokenRequest['basic'] {
  if (!header || !/^Basic /i.test(header)) return null;
  const decoded = Buffer.from(header.slice(6).trim(), 'base64').toString('utf8');
  const separator = decoded.indexOf(':');
  if (separator < 0) throw new InvalidRequest('the Basic Authorization header must carry "client_id:client_secret"');
  try {
    return {
      clientId: formDecode(decoded.slice(0, separator)),
      clientSecret: formDecode(decoded.slice(separator + 1)),
    };
  } catch {
    throw new InvalidRequest('the Basic Authorization credentials are not correctly form-urlencoded');
  }
}

function formDecode(value: string): string {
  return decodeURIComponent(value.replace(/\+/g, ' '));
}

function parseForm(body: string): Record<string, string> {
  const parameters: Record<string, string> = {};
  for (const [name, value] of new URLSearchParams(body)) {
    if (Object.hasOwn(parameters, name)) throw new InvalidRequest(`parameter "${name}" is repeated; send each parameter once`);
    parameters[name] = value;
  }
  return parameters;
}

function parseJsonParameters(body: string): Record<string, string> {
  let parsed: unknown;
  try {
    parsed = body.trim() === '' ? {} : JSON.parse(body);
  } catch {
    throw new InvalidRequest('the request body is not valid JSON');
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
    throw new InvalidRequest('the request body must be a JSON object of parameters');
  }
  const parameters: Record<string, string> = {};
  for (const [name, value] of Object.entries(parsed)) {
    if (typeof value !== 'string') throw new InvalidRequest(`parameter "${name}" must be a string`);
    parameters[name] = value;
  }
  return parameters;
}
