import { createHash } from 'node:crypto';
import { Type } from '@sinclair/typebox';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Queryable } from '../db/database.ts';
import { IDEMPOTENCY_KEY_MAX_LENGTH } from '../domain/idempotency.ts';
import type { Services } from '../domain/services.ts';
import type { WriteContext } from '../domain/audit.ts';

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

/** Sorted keys, so that the same JSON written in another property order is the same request. */
function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    return `{${Object.keys(value)
      .sort()
      .map((key) => `${JSON.stringify(key)}:${canonicalJson((value as Record<string, unknown>)[key])}`)
      .join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

/** What makes two requests the same request: method, path with query, and body. */
function fingerprintOf(request: FastifyRequest): string {
  return createHash('sha256')
    .update(canonicalJson([request.method, request.url, request.body ?? null]))
    .digest('base64url');
}

/**
 * Runs a write of an authenticated request inside one database transaction, at most once per
 * Idempotency-Key, and sends its answer. `write` receives the transaction and must do all its
 * reads and writes through it; what it returns is the answer, stored under the key in that same
 * transaction. A replayed answer carries `Idempotent-Replayed: true`.
 *
 * Note that the stored answer is kept in the database for the retention period: an operation
 * whose answer holds a secret should not store that secret through here.
 */
export async function sendIdempotentWrite(
  request: FastifyRequest,
  reply: FastifyReply,
  services: Pick<Services, 'idempotency'>,
  write: (transaction: Queryable) => Promise<WriteAnswer>,
): Promise<FastifyReply> {
  const header = request.headers['idempotency-key'];
  const key = typeof header === 'string' ? header : null;
  const { answer, replayed } = await services.idempotency.run(
    {
      organizationId: request.principal.organizationId,
      principal: request.principal.actor,
      key,
      fingerprint: fingerprintOf(request),
    },
    write,
  );
  if (replayed) reply.header('idempotent-replayed', 'true');
  reply.code(answer.statusCode);
  return answer.body === null || answer.body === undefined ? reply.send() : reply.send(answer.body);
}

/** The write context of an authenticated request: organization, actor and request id. */
export function writeContextOf(request: FastifyRequest): WriteContext {
  return { organizationId: request.principal.organizationId, actor: request.principal.actor, requestId: request.id };
}
