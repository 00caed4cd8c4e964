import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { AppError, type ErrorDetail, type ErrorKind } from '../errors.ts';
import { InvalidClient, OAuthError, TooManyRequests, type OAuthErrorCode } from '../domain/auth/oauth-errors.ts';
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
  query_timeout: 504,
};

const reasonPhrases: Record<number, string> = {
  400: 'Bad Request',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'Not Found',
  405: 'Method Not Allowed',
  409: 'Conflict',
  413: 'Payload Too Large',
  415: 'Unsupported Media Type',
  422: 'Unprocessable Entity',
  429: 'Too Many Requests',
  500: 'Internal Server Error',
  503: 'Service Unavailable',
  504: 'Gateway Timeout',
};

/** The protection space named in every WWW-Authenticate challenge, Bearer and Basic alike. */
export const BEARER_REALM = 'ledger-recon';

/** The API's error envelope: {"error": {code, status, request, message, details?}}. */
export function sendApiError(
  request: FastifyRequest,
  reply: FastifyReply,
  statusCode: number,
  message: string,
  details: ErrorDetail[] = [],
) {
  const error: Record<string, unknown> = {
    code: statusCode,
    status: reasonPhrases[statusCode] ?? 'Error',
    request: request.id,
    message,
  };
  if (details.length > 0) error.details = details;
  return reply.code(statusCode).type('application/json; charset=utf-8').send({ error });
}

function quoted(value: string): string {
  return value.replace(/["\\]/g, "'");
}

function sendAppError(request: FastifyRequest, reply: FastifyReply, error: AppError) {
  const statusCode = statusOfKind[error.kind];
  if (error.kind === 'unauthenticated') {
    reply.header('www-authenticate', `Bearer realm="${BEARER_REALM}"`);
  } else if (error.kind === 'invalid_token') {
    reply.header(
      'www-authenticate',
      `Bearer realm="${BEARER_REALM}", error="invalid_token", error_description="${quoted(error.message)}"`,
    );
  } else if (error.kind === 'insufficient_scope') {
    reply.header(
      'www-authenticate',
      `Bearer realm="${BEARER_REALM}", error="insufficient_scope", scope="${quoted(error.hints.scope ?? '')}"`,
    );
  }
  if (error.hints.retryAfterSeconds !== undefined) reply.header('retry-after', String(error.hints.retryAfterSeconds));
  return sendApiError(request, reply, statusCode, error.message, error.details);
}

const statusOfOAuthError: Record<OAuthErrorCode, number> = {
  invalid_request: 400,
  invalid_client: 401,
  unsupported_grant_type: 400,
  access_denied: 403,
  invalid_scope: 400,
  too_many_requests: 429,
};

/** OAuth endpoints answer in RFC 6749 §5.2 form, never in the API envelope. */
export function sendOAuthError(reply: FastifyReply, error: OAuthError) {
  reply.code(statusOfOAuthError[error.error]).headers({ 'cache-control': 'no-store', pragma: 'no-cache' });
  if (error instanceof InvalidClient && error.usedBasicAuthentication) {
    reply.header('www-authenticate', `Basic realm="${BEARER_REALM}"`);
  }
  if (error instanceof TooManyRequests) reply.header('retry-after', String(error.retryAfterSeconds));
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
    request.log.error({ err: error }, 'request failed');
    return sendApiError(request, reply, 500, `internal error; quote request id ${request.id} when reporting it`);
  });

  app.setNotFoundHandler((request, reply) =>
    sendApiError(request, reply, 404, `no operation ${request.method} ${request.url.split('?')[0]}; see /openapi.json for the operations`),
  );
}

function clientErrorMessage(error: FastifyError, request: FastifyRequest): string {
  switch (error.code) {
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
      return 'unsupported content type; send the body as application/json';
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
      return 'the body is empty; send a JSON object';
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return (
        `the body is larger than ${request.routeOptions.bodyLimit ?? 'the limit of'} bytes, the most this operation takes; ` +
        'send the data in several smaller requests (an ingest in batches of fewer records, for example)'
      );
    default:
      return error.message.startsWith('Body is not valid JSON') || error instanceof SyntaxError
        ? `the body is not valid JSON: ${error.message}`
        : error.message;
  }
}
