import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { InvalidRequest, OAuthError, TemporarilyUnavailable } from '../../../domain/auth/oauth-errors.ts';
import type { TokenRequest } from '../../../domain/auth/client-credentials-grant.ts';
import type { IssuedToken } from '../../../domain/auth/access-tokens.ts';
import type { Services } from '../../../domain/services.ts';
import { AppError, quoteInput } from '../../../errors.ts';
import { transientDatabaseError } from '../../../domain/storage.ts';
import { describeErrorForLog, sendOAuthError } from '../../error-handler.ts';
import { isStorableText, unstorableTextProblem } from '../../../domain/text.ts';
import { isUtf8 } from 'node:buffer';

/** A token request is a handful of short parameters; anything bigger is refused unread. */
const TOKEN_BODY_LIMIT_BYTES = 16 * 1024;
/** More parameters than any client-credentials request needs are refused, to bound the work. */
const PARAMETER_COUNT_LIMIT = 32;

const NO_STORE_HEADERS = { 'cache-control': 'no-store', pragma: 'no-cache' } as const;
/** The parameters of a client-credentials token request. */
const TOKEN_PARAMETERS: ReadonlySet<string> = new Set(['grant_type', 'client_id', 'client_secret', 'audience', 'scope']);

/**
 * POST /oauth/token. The transport's part is small: read the form or JSON body and the Basic
 * header into a TokenRequest, hand it to the grant, write the RFC 6749 answer. Every answer of
 * this route, including failures Fastify raises while reading the body, is JSON in the OAuth
 * error format and carries Cache-Control: no-store and Pragma: no-cache.
 */
export async function tokenRoutes(app: FastifyInstance, options: { services: Services }) {
  const { grant } = options.services;
  // Only the two media types of the token endpoint are read here (this plugin is encapsulated,
  // so the API's parsers are unaffected). Fastify matches the media type and ignores parameters
  // such as ";charset=UTF-8".
  app.removeAllContentTypeParsers();
  const parser =
    (parse: (body: string) => Record<string, string>) =>
    (_request: FastifyRequest, body: string | Buffer, done: (error: Error | null, value?: unknown) => void) => {
      try {
        done(null, checkParameterText(parse(utf8Text(body as Buffer))));
      } catch (error) {
        done(error as Error);
      }
    };
  app.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'buffer', bodyLimit: TOKEN_BODY_LIMIT_BYTES }, parser(parseForm));
  app.addContentTypeParser('application/json', { parseAs: 'buffer', bodyLimit: TOKEN_BODY_LIMIT_BYTES }, parser(parseJsonParameters));

  // Whatever is wrong with the request becomes an RFC 6749 error: the API's request errors
  // (raised by checks shared with the API, such as the query string's) as invalid_request,
  // and only a fault of the server as server_error.
  app.setErrorHandler((error, request, reply) => {
    if (error instanceof OAuthError) return sendOAuthError(reply, error);
    if (error instanceof AppError && error.kind === 'invalid_request') return sendOAuthError(reply, new InvalidRequest(error.message));
    const unavailable = error instanceof AppError && error.kind === 'service_unavailable' ? error : transientDatabaseError(error);
    if (unavailable !== null) {
      return sendOAuthError(reply, new TemporarilyUnavailable(unavailable.message, unavailable.hints.retryAfterSeconds ?? 1));
    }
    const statusCode = (error as { statusCode?: number }).statusCode ?? (error instanceof AppError ? 400 : undefined);
    if (statusCode !== undefined && statusCode < 500) {
      return sendOAuthError(reply, new InvalidRequest(describeTransportError((error as { code?: string }).code)));
    }
    request.log.error({ err: describeErrorForLog(error) }, 'token request failed');
    return reply
      .code(500)
      .headers(NO_STORE_HEADERS)
      .type('application/json; charset=utf-8')
      .send({
        error: 'server_error',
        error_description: `internal error; quote request id ${request.id} when reporting it`,
      });
  });

  // A client asking again within the same second gets the same IssuedToken object (see
  // AccessTokens.issue), so its answer text is kept beside it rather than serialized again.
  const answers = new WeakMap<IssuedToken, string>();
  // Parameters the endpoint does not know are ignored in the URL as in the body (RFC 6749 §3.2),
  // so the API's refusal of unknown query parameters does not apply here; the token request's
  // own parameters do not belong in the URL, which proxies and servers write to their logs.
  app.post('/oauth/token', { schema: { hide: true }, config: { acceptsAnyQuery: true } }, async (request, reply) => {
    const inUrl = Object.keys(request.query as Record<string, unknown>).find((name) => TOKEN_PARAMETERS.has(name));
    if (inUrl !== undefined) {
      throw new InvalidRequest(
        `parameter ${quoteInput(inUrl)} was sent in the URL; send the token request's parameters in the body, never in the URL, which is kept in logs`,
      );
    }
    const issued = await grant.grant(tokenRequestOf(request));
    let answer = answers.get(issued);
    if (answer === undefined) {
      answer = JSON.stringify({ access_token: issued.accessToken, token_type: 'Bearer', expires_in: issued.expiresInSeconds, scope: issued.scope });
      answers.set(issued, answer);
    }
    return reply.headers(NO_STORE_HEADERS).type('application/json; charset=utf-8').send(answer);
  });

  // The token endpoint only takes POST (RFC 6749 §3.2); other methods get a clear answer in
  // the same format instead of the API's generic 404.
  app.route({
    method: ['GET', 'PUT', 'PATCH', 'DELETE'],
    url: '/oauth/token',
    schema: { hide: true },
    config: { acceptsAnyQuery: true },
    handler: async (_request, reply: FastifyReply) => {
      reply.code(405).header('allow', 'POST');
      return reply.headers(NO_STORE_HEADERS).type('application/json; charset=utf-8').send({
        error: 'invalid_request',
        error_description: 'the token endpoint takes POST requests only',
      });
    },
  });
}

/** The body as text; bytes that are not UTF-8 are refused rather than replaced. */
function utf8Text(body: Buffer): string {
  if (!isUtf8(body)) throw new InvalidRequest('the request body is not valid UTF-8 text');
  return body.toString('utf8');
}

/** Parameters the store could not hold (NUL, a lone surrogate) are refused by name. */
function checkParameterText(parameters: Record<string, string>): Record<string, string> {
  for (const [name, value] of Object.entries(parameters)) {
    if (!isStorableText(name)) throw new InvalidRequest(`a parameter name ${unstorableTextProblem(name)}`);
    if (!isStorableText(value)) throw new InvalidRequest(`parameter ${quoteInput(name)} ${unstorableTextProblem(value)}`);
  }
  return parameters;
}

function describeTransportError(code: string | undefined): string {
  switch (code) {
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
    case 'FST_ERR_CTP_INVALID_CONTENT_LENGTH':
      return 'send the token request as application/x-www-form-urlencoded (or application/json)';
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return `the request body is larger than ${TOKEN_BODY_LIMIT_BYTES} bytes`;
    default:
      return 'the request body could not be read';
  }
}

function tokenRequestOf(request: FastifyRequest): TokenRequest {
  // No body at all (no content type) leaves every parameter missing, which the grant reports.
  const parameters = (request.body ?? {}) as Record<string, string>;
  return { parameters, basic: basicCredentials(request.headers.authorization), address: request.ip };
}

/**
 * Client credentials from an HTTP Basic Authorization header, or null when the request does
 * not use Basic. RFC 6749 §2.3.1: both parts are form-urlencoded before base64, so both are
 * decoded here ("a%3Ab" is the secret "a:b", "+" is a space).
 */
export function basicCredentials(header: string | undefined): TokenRequest['basic'] {
  if (!header || !/^Basic(\s|$)/i.test(header)) return null;
  const encoded = header.slice(5).trim();
  if (!/^[A-Za-z0-9+/]+={0,2}$/.test(encoded)) {
    throw new InvalidRequest('the Basic Authorization header must carry base64("client_id:client_secret")');
  }
  const decoded = Buffer.from(encoded, 'base64').toString('utf8');
  const separator = decoded.indexOf(':');
  if (separator < 0) throw new InvalidRequest('the Basic Authorization header must carry base64("client_id:client_secret")');
  try {
    return {
      clientId: formDecode(decoded.slice(0, separator)),
      clientSecret: formDecode(decoded.slice(separator + 1)),
    };
  } catch {
    throw new InvalidRequest('the Basic Authorization credentials are not correctly form-urlencoded');
  }
}

/**
 * Decodes one application/x-www-form-urlencoded component; throws on a malformed escape. The
 * token endpoint is hot, so the common cases (nothing to decode) skip the work.
 */
function formDecode(value: string): string {
  const spaced = value.includes('+') ? value.replaceAll('+', ' ') : value;
  return spaced.includes('%') ? decodeURIComponent(spaced) : spaced;
}

/**
 * Parses an application/x-www-form-urlencoded body strictly: a malformed percent escape or a
 * repeated parameter is an error (RFC 6749 §3.2: parameters must not be included more than
 * once), where URLSearchParams would silently guess.
 */
export function parseForm(body: string): Record<string, string> {
  const parameters: Record<string, string> = Object.create(null);
  let count = 0;
  for (const pair of body.split('&')) {
    if (pair === '') continue;
    if (++count > PARAMETER_COUNT_LIMIT) throw new InvalidRequest(`the request has more than ${PARAMETER_COUNT_LIMIT} parameters`);
    const separator = pair.indexOf('=');
    let name: string;
    let value: string;
    try {
      name = formDecode(separator < 0 ? pair : pair.slice(0, separator));
      value = separator < 0 ? '' : formDecode(pair.slice(separator + 1));
    } catch {
      throw new InvalidRequest('the request body is not correctly form-urlencoded (a "%" escape is malformed)');
    }
    if (Object.hasOwn(parameters, name)) throw new InvalidRequest(`parameter ${quoteInput(name)} is repeated; send each parameter once`);
    parameters[name] = value;
  }
  return { ...parameters };
}

/**
 * Parses a JSON body of string parameters (Auth0 accepts JSON too). A repeated member name is
 * an error as in the form encoding, although JSON.parse would silently keep the last one.
 */
export function parseJsonParameters(body: string): Record<string, string> {
  let parsed: unknown;
  try {
    parsed = JSON.parse(body);
  } catch {
    throw new InvalidRequest('the request body is not valid JSON');
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
    throw new InvalidRequest('the request body must be a JSON object of parameters');
  }
  const entries = Object.entries(parsed);
  if (entries.length > PARAMETER_COUNT_LIMIT) throw new InvalidRequest(`the request has more than ${PARAMETER_COUNT_LIMIT} parameters`);
  const parameters: Record<string, string> = {};
  for (const [name, value] of entries) {
    if (typeof value !== 'string') throw new InvalidRequest(`parameter ${quoteInput(name)} must be a string`);
    parameters[name] = value;
  }
  const repeated = firstRepeatedMemberName(body);
  if (repeated !== null) throw new InvalidRequest(`parameter ${quoteInput(repeated)} is repeated; send each parameter once`);
  return parameters;
}

/**
 * The first member name that occurs twice in the top-level object of a JSON text already known
 * to be valid, or null. Because every value was checked to be a string, the text is a flat
 * object, and a scan of its string tokens suffices: strings in key position alternate with
 * strings in value position.
 */
function firstRepeatedMemberName(validJson: string): string | null {
  const seen = new Set<string>();
  let expectingName = true;
  const stringToken = /"(?:[^"\\]|\\.)*"/gy;
  for (let index = 0; index < validJson.length; index++) {
    const character = validJson[index];
    if (character === '"') {
      stringToken.lastIndex = index;
      const token = stringToken.exec(validJson)![0];
      index += token.length - 1;
      if (expectingName) {
        const name = JSON.parse(token) as string;
        if (seen.has(name)) return name;
        seen.add(name);
      }
      expectingName = !expectingName;
    }
  }
  return null;
}
