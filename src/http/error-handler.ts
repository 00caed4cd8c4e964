import { randomUUID } from 'node:crypto';
import type { Socket } from 'node:net';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { transientDatabaseError } from '../domain/storage.ts';
import { AppError, placedFieldMessage, quoteInput, type ErrorDetail, type ErrorKind, type FieldPlace } from '../errors.ts';
import { InvalidClient, OAuthError, TemporarilyUnavailable, TooManyRequests, type OAuthErrorCode } from '../domain/auth/oauth-errors.ts';
import { describeValidationErrors } from './validation.ts';

const statusOfKind: Record<ErrorKind, number> = {
  invalid_request: 400,
  unauthenticated: 401,
  invalid_token: 401,
  forbidden: 403,
  insufficient_scope: 403,
  not_found: 404,
  conflict: 409,
  idempotency_key_reused: 422,
  too_many_requests: 429,
  uri_too_long: 414,
  unprocessable: 422,
  unsupported_media_type: 415,
  payload_too_large: 413,
  service_unavailable: 503,
  query_timeout: 504,
};

const reasonPhrases: Record<number, string> = {
  400: 'Bad Request',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'Not Found',
  405: 'Method Not Allowed',
  408: 'Request Timeout',
  409: 'Conflict',
  413: 'Payload Too Large',
  414: 'URI Too Long',
  415: 'Unsupported Media Type',
  422: 'Unprocessable Entity',
  429: 'Too Many Requests',
  431: 'Request Header Fields Too Large',
  500: 'Internal Server Error',
  503: 'Service Unavailable',
  504: 'Gateway Timeout',
};

/** The protection space named in every WWW-Authenticate challenge, Bearer and Basic alike. */
export const BEARER_REALM = 'ledger-recon';

/**
 * The API's error envelope: {"error": {code, status, request, message, messageId?, details?}};
 * messageId is the catalogue's name of the message (AppError.messageId), which a client that
 * words errors its own way (the web app) keys on.
 */
function errorEnvelope(statusCode: number, requestId: string, message: string, details: readonly ErrorDetail[] = [], messageId?: string) {
  const error: Record<string, unknown> = {
    code: statusCode,
    status: reasonPhrases[statusCode] ?? 'Error',
    request: requestId,
    message: bounded(message, MESSAGE_LENGTH_LIMIT),
  };
  if (messageId !== undefined) error.messageId = messageId;
  if (details.length > 0) {
    error.details = details
      .slice(0, DETAILS_LIMIT)
      .map((detail) => ({ path: bounded(detail.path, POINTER_LENGTH_LIMIT), message: bounded(detail.message, MESSAGE_LENGTH_LIMIT) }));
  }
  return { error };
}

/**
 * Bounds on what an error answer carries. Messages quote input only as short excerpts
 * (quoteInput); these are the backstop that keeps every error small whatever a message holds.
 */
const MESSAGE_LENGTH_LIMIT = 2000;
const POINTER_LENGTH_LIMIT = 300;
const DETAILS_LIMIT = 20;

function bounded(text: string, limit: number): string {
  return text.length <= limit ? text : `${text.slice(0, limit)}…`;
}

export function sendApiError(
  request: FastifyRequest,
  reply: FastifyReply,
  statusCode: number,
  message: string,
  details: ErrorDetail[] = [],
  messageId?: string,
) {
  return reply
    .code(statusCode)
    .type('application/json; charset=utf-8')
    .send(errorEnvelope(statusCode, request.id, message, details, messageId));
}

/**
 * Node answers some requests itself, before Fastify sees them: headers too large, a request
 * that is not HTTP, a request that took too long to arrive. They get the API's envelope and an
 * X-Request-Id like every other answer, and the connection is closed, since what follows on it
 * cannot be trusted.
 */
export function sendClientError(this: FastifyInstance, error: Error & { code?: string; rawPacket?: unknown }, socket: Socket) {
  if (error.code === 'ECONNRESET' || socket.destroyed) return;
  const packet = Buffer.isBuffer(error.rawPacket) ? error.rawPacket : Buffer.alloc(0);
  let statusCode = 400;
  let message = 'the request is not valid HTTP/1.1; check the request line and the headers';
  if (error.code === 'ERR_HTTP_REQUEST_TIMEOUT') {
    statusCode = 408;
    message = 'the request did not arrive in time; send it again';
  } else if (error.code === 'HPE_HEADER_OVERFLOW') {
    const requestLineEnd = packet.indexOf('\r\n');
    if (requestLineEnd === -1 || requestLineEnd > URL_LENGTH_LIMIT) {
      statusCode = 414;
      message = `the request line is longer than ${URL_LENGTH_LIMIT} characters; send the data in the body instead of the URL`;
    } else {
      statusCode = 431;
      message = 'the request headers are larger than this server accepts (16 KiB in all); send fewer or shorter headers';
    }
  }
  const requestId = randomUUID();
  this.log.debug({ code: error.code, requestId }, 'refused a malformed request');
  if (socket.writable) {
    // A token request gets the token endpoint's own error form (RFC 6749 §5.2), which its
    // clients read; everything else the API's envelope.
    const tokenRequest = /^[A-Z]+ \/oauth\/token[ ?]/.test(packet.subarray(0, 64).toString('latin1'));
    const body = JSON.stringify(tokenRequest ? { error: 'invalid_request', error_description: message } : errorEnvelope(statusCode, requestId, message));
    socket.write(
      `HTTP/1.1 ${statusCode} ${reasonPhrases[statusCode]}\r\ncontent-type: application/json; charset=utf-8\r\n` +
        `content-length: ${Buffer.byteLength(body)}\r\nx-request-id: ${requestId}\r\nx-content-type-options: nosniff\r\n` +
        `${tokenRequest ? 'cache-control: no-store\r\npragma: no-cache\r\n' : ''}connection: close\r\n\r\n${body}`,
    );
  }
  socket.destroy();
}

/**
 * Answers Fastify gives before routing (a path with a malformed escape, a path segment longer
 * than any id) in the API's envelope, with the request id, instead of Fastify's own body, which
 * would also quote the whole path.
 */
export function sendFrameworkError(error: FastifyError, request: FastifyRequest, reply: FastifyReply) {
  // No hook runs for these answers: what every answer carries is set here.
  reply.headers({ 'x-request-id': request.id, 'x-content-type-options': 'nosniff' });
  if (error.code === 'FST_ERR_BAD_URL') {
    return sendApiError(request, reply, 400, 'the path has a malformed or non-UTF-8 percent escape; percent-encode UTF-8 text');
  }
  if (error.code === 'FST_ERR_MAX_PARAM_LENGTH') {
    return sendApiError(request, reply, 414, 'a path parameter is longer than 100 characters, longer than any id of the API; check the URL');
  }
  request.log.error({ err: describeErrorForLog(error) }, 'request failed before routing');
  return sendApiError(request, reply, 500, `internal error; quote request id ${request.id} when reporting it`);
}

/** The longest URL (path and query) the API takes; longer ones are refused with 414. */
export const URL_LENGTH_LIMIT = 8192;

function quoted(value: string): string {
  return value.replace(/["\\]/g, "'");
}

function sendAppError(request: FastifyRequest, reply: FastifyReply, error: AppError) {
  const statusCode = statusOfKind[error.kind];
  if (error.kind === 'unauthenticated') {
    reply.header('www-authenticate', `Bearer realm="${BEARER_REALM}"`);
  } else if (error.kind === 'invalid_token') {
    reply.header('www-authenticate', `Bearer realm="${BEARER_REALM}", error="invalid_token", error_description="${quoted(error.message)}"`);
  } else if (error.kind === 'insufficient_scope') {
    reply.header('www-authenticate', `Bearer realm="${BEARER_REALM}", error="insufficient_scope", scope="${quoted(error.hints.scope ?? '')}"`);
  }
  if (error.hints.retryAfterSeconds !== undefined) reply.header('retry-after', String(error.hints.retryAfterSeconds));
  if (error.hints.closeConnection) reply.header('connection', 'close');
  return sendApiError(
    request,
    reply,
    statusCode,
    placedFieldMessage(error, (place, name) => `${PLACES[place]}/${name}`),
    error.details.map(inRequest),
    error.messageId,
  );
}

/** Where the API's pointers put a field outside the body, as Fastify's own validation writes them. */
const PLACES: Record<FieldPlace, string> = { query: '/querystring', path: '/params' };

/** A detail with its place in the request: the domain's pointers are relative to that place. */
function inRequest(detail: ErrorDetail): ErrorDetail {
  return detail.in === undefined ? detail : { path: `${PLACES[detail.in]}${detail.path}`, message: detail.message };
}

const statusOfOAuthError: Record<OAuthErrorCode, number> = {
  invalid_request: 400,
  invalid_client: 401,
  unsupported_grant_type: 400,
  access_denied: 403,
  invalid_scope: 400,
  too_many_requests: 429,
  temporarily_unavailable: 503,
};

/** OAuth endpoints answer in RFC 6749 §5.2 form, never in the API envelope. */
export function sendOAuthError(reply: FastifyReply, error: OAuthError) {
  reply.code(statusOfOAuthError[error.error]).headers({ 'cache-control': 'no-store', pragma: 'no-cache' });
  if (error instanceof InvalidClient && error.usedBasicAuthentication) {
    reply.header('www-authenticate', `Basic realm="${BEARER_REALM}"`);
  }
  if (error instanceof TooManyRequests || error instanceof TemporarilyUnavailable) reply.header('retry-after', String(error.retryAfterSeconds));
  if (error instanceof TemporarilyUnavailable) reply.header('connection', 'close');
  return reply.type('application/json; charset=utf-8').send({ error: error.error, error_description: error.message });
}

/** The one place that turns a thrown error into an HTTP answer. */
export function registerErrorHandling(app: FastifyInstance) {
  app.setErrorHandler((raw: FastifyError | Error, request, reply) => {
    if (raw instanceof OAuthError) return sendOAuthError(reply, raw);
    if (raw instanceof AppError) return sendAppError(request, reply, raw);
    const error = raw as FastifyError;
    if (error.validation) {
      const details = describeValidationErrors(error.validation, error.validationContext ?? 'body');
      const message = details.map((detail) => `${detail.path || '(root)'}: ${detail.message}`).join('; ');
      return sendApiError(request, reply, 400, `invalid request: ${message}`, details);
    }
    // Errors Fastify raises itself before a handler runs (malformed JSON, media type, size).
    if (typeof error.statusCode === 'number' && error.statusCode >= 400 && error.statusCode < 500) {
      return sendApiError(request, reply, error.statusCode, clientErrorMessage(error, request));
    }
    // A database that is busy, locked or out of reach is a reason to retry, not a defect.
    const transient = transientDatabaseError(error);
    if (transient !== null) {
      request.log.warn({ err: describeErrorForLog(error) }, 'request not carried out: the database was unavailable');
      return sendAppError(request, reply, transient);
    }
    request.log.error({ err: describeErrorForLog(error) }, 'request failed');
    return sendApiError(request, reply, 500, `internal error; quote request id ${request.id} when reporting it`);
  });

  app.setNotFoundHandler((request, reply) =>
    sendApiError(
      request,
      reply,
      404,
      `no operation ${request.method} ${quoteInput(request.url.split('?')[0] ?? '', 120)}; see /openapi.json for the operations`,
    ),
  );
}

/**
 * What the log keeps of an unexpected error: its kind, code and stack, never the values it
 * carries. A database error's message and fields (detail, where, internal query) can quote the
 * rows of a request, which are customer data; its SQLSTATE and the constraint, table and column
 * it names are enough to find the cause.
 */
export function describeErrorForLog(error: unknown): Record<string, unknown> {
  if (!(error instanceof Error)) return { type: typeof error };
  const fields = error as Error & { code?: unknown; severity?: unknown; constraint?: unknown; table?: unknown; column?: unknown; routine?: unknown };
  const fromDatabase = typeof fields.severity === 'string' || (typeof fields.code === 'string' && /^[0-9A-Z]{5}$/.test(fields.code));
  const message = fromDatabase ? `database error ${String(fields.code)}` : error.message;
  const stackFrames = (error.stack ?? '').split('\n').filter((line) => /^\s+at /.test(line));
  return {
    type: error.name,
    message,
    ...(typeof fields.code === 'string' ? { code: fields.code } : {}),
    ...(fromDatabase ? { constraint: fields.constraint, table: fields.table, column: fields.column, routine: fields.routine } : {}),
    stack: [`${error.name}: ${message}`, ...stackFrames].join('\n'),
  };
}

function clientErrorMessage(error: FastifyError, request: FastifyRequest): string {
  switch (error.code) {
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
      return request.routeOptions.url?.includes('/imports')
        ? 'unsupported content type; send the file as application/octet-stream (or text/csv, application/xml, text/plain, application/x-ofx), or as the "file" part of multipart/form-data'
        : 'unsupported content type; send the body as application/json';
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
      return 'the body is empty; send a JSON object';
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return (
        `the body is larger than ${request.routeOptions.bodyLimit ?? 'the limit of'} bytes, the most this operation takes; ` +
        'send the data in several smaller requests (an ingest in batches of fewer records, for example)'
      );
    case 'FST_ERR_BAD_URL':
      return 'the path has a malformed or non-UTF-8 percent escape; percent-encode UTF-8 text';
    case 'FST_ERR_CTP_INVALID_CONTENT_LENGTH':
      return 'the Content-Length header does not match the body that was sent';
    default:
      // Fastify's own messages can quote the request; an excerpt is all that is echoed.
      return error.message.length <= 200 ? error.message : `${error.message.slice(0, 200)}…`;
  }
}
