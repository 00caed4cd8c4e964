import { Type } from '@sinclair/typebox';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Queryable } from '../domain/storage.ts';
import { IDEMPOTENCY_KEY_MAX_LENGTH } from '../domain/idempotency.ts';
import type { Services } from '../domain/services.ts';
import type { WriteContext } from '../domain/audit.ts';
import { conflict } from '../errors.ts';

/**
 * The Idempotency-Key request header of every write operation. Add it to a route's schema as
 * `headers: IdempotencyKeyHeaders` so that it is checked and documented, and answer the
 * request with `sendIdempotentWrite`.
 */
export const IdempotencyKeyHeaders = Type.Object({
  'idempotency-key': Type.Optional(
    Type.String({
      minLength: 1,
      maxLength: IDEMPOTENCY_KEY_MAX_LENGTH,
      pattern: '^[\\x21-\\x7E]+$',
      description:
        'A unique key of this write, 1 to 255 visible ASCII characters (a UUID is a good choice). A retry with the same key and the same request ' +
        'returns the first answer (status and body) and changes nothing; the key with a different request is refused with 422. Keys are kept for 24 hours.',
    }),
  ),
});

/** The answer of a write: what is stored under its key and sent again on a retry. */
export interface WriteAnswer {
  statusCode: number;
  /** The JSON body; null for an answer without one (204). */
  body: unknown;
}

/** What makes two requests the same request: method, path with query, and body. */
function identityOf(request: FastifyRequest): unknown {
  return [request.method, request.url, request.body ?? null];
}

/**
 * Runs a write of an authenticated request inside one database transaction, at most once per
 * Idempotency-Key, and sends its answer with `statusCode`. `write` receives the transaction and
 * the request's write context and must do all its reads and writes through the transaction;
 * what it returns is the body (null for none), stored under the key in that same transaction
 * together with the status. A replayed answer carries `Idempotent-Replayed: true`.
 *
 * Note that the stored answer is kept in the database for the retention period: an operation
 * whose answer holds a secret should not store that secret through here.
 */
export async function sendIdempotentWrite(
  request: FastifyRequest,
  reply: FastifyReply,
  services: Pick<Services, 'idempotency'> & Partial<Pick<Services, 'webhookJobs'>>,
  statusCode: number,
  write: (transaction: Queryable, context: WriteContext) => Promise<unknown>,
  options: { headersOf?: (body: unknown) => Record<string, string> } = {},
): Promise<FastifyReply> {
  const context = writeContextOf(request);
  const { answer, replayed } = await services.idempotency.run(idempotentRequestOf(request), async (transaction): Promise<WriteAnswer> => ({
    statusCode,
    body: (await write(transaction, context)) ?? null,
  }));
  // A committed write may have made events with deliveries: this process looks for them now
  // rather than at its next poll (other processes find them at theirs).
  if (!replayed) services.webhookJobs?.wake();
  if (replayed) reply.header('idempotent-replayed', 'true');
  // Headers derived from the answer (a Location) are the same on a replay as the first time.
  for (const [name, value] of Object.entries(options.headersOf?.(answer.body) ?? {})) reply.header(name, value);
  reply.code(answer.statusCode);
  return answer.body === null || answer.body === undefined ? reply.send() : reply.send(answer.body);
}

function idempotentRequestOf(request: FastifyRequest) {
  const header = request.headers['idempotency-key'];
  return {
    organizationId: request.principal.organizationId,
    principal: request.principal.actor,
    key: typeof header === 'string' ? header : null,
    identity: identityOf(request),
  };
}

/**
 * A write whose answer holds a secret that must be shown once and never stored: under its
 * Idempotency-Key only `identify(answer)` is kept, and a retry is refused with a 409 whose
 * message (`replayMessage`) says what the first request created and how to proceed, instead of
 * creating a second credential.
 */
export async function sendSecretBearingWrite<Answer extends object, Kept extends object>(
  request: FastifyRequest,
  reply: FastifyReply,
  services: Pick<Services, 'idempotency'>,
  write: (transaction: Queryable) => Promise<Answer>,
  identify: (answer: Answer) => Kept,
  replayMessage: (kept: Kept) => string,
): Promise<FastifyReply> {
  const result = await services.idempotency.run(idempotentRequestOf(request), write, identify);
  if (result.replayed) throw conflict(replayMessage(result.answer));
  return reply.code(201).header('cache-control', 'no-store').send(result.answer);
}

/** The write context of an authenticated request: organization, actor and request id. */
function writeContextOf(request: FastifyRequest): WriteContext {
  return { organizationId: request.principal.organizationId, actor: request.principal.actor, requestId: request.id };
}
