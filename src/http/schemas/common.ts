import { Type, type TSchema } from '@sinclair/typebox';
import { invalidField } from '../../errors.ts';
import type { PageSize } from '../../domain/pages.ts';

/** Identifiers are UUIDs throughout the API. */
export const Uuid = Type.String({ format: 'uuid' });

/** The path parameters of an operation with no id beside the organization's. */
export const OrganizationParams = Type.Object({ orgId: Uuid }, { additionalProperties: false });

/**
 * An integer that may also arrive as a numeric string ("limit": "100"), because published
 * samples send integers that way. Bounds are checked by readInteger after the schema.
 */
export function IntegerLike(options: { minimum?: number; maximum?: number; description?: string; default?: number } = {}) {
  const { description, default: fallback, ...bounds } = options;
  return Type.Union([Type.Integer(bounds), Type.String({ pattern: '^-?[0-9]{1,16}$' })], {
    description,
    ...(fallback !== undefined ? { default: fallback } : {}),
  });
}

/** Converts an IntegerLike value and checks its bounds, naming the field when it is out of them. */
export function readInteger(value: number | string | undefined, path: string, bounds: { minimum?: number; maximum?: number } = {}): number | undefined {
  if (value === undefined) return undefined;
  const number = typeof value === 'number' ? value : Number(value);
  const outOfBounds = (bounds.minimum !== undefined && number < bounds.minimum) || (bounds.maximum !== undefined && number > bounds.maximum);
  if (!Number.isSafeInteger(number) || outOfBounds) throw invalidField(path, `${integerRule(bounds)}, got ${String(value)}`);
  return number;
}

/**
 * The number of entries a page of a list is to hold (`limit`), checked against the list's page
 * size; the list's default when none was sent.
 */
export function readPageSize(value: number | string | undefined, size: PageSize, path = '/querystring/limit'): number {
  return readInteger(value, path, { minimum: size.minimumEntries, maximum: size.maximumEntries }) ?? size.defaultEntries;
}

/** "must be an integer from 1 to 1000 (a string of digits such as "100" is accepted too)". */
export function integerRule(bounds: { minimum?: number; maximum?: number }): string {
  const range =
    bounds.minimum !== undefined && bounds.maximum !== undefined
      ? ` from ${bounds.minimum} to ${bounds.maximum}`
      : bounds.minimum !== undefined
        ? ` of at least ${bounds.minimum}`
        : bounds.maximum !== undefined
          ? ` of at most ${bounds.maximum}`
          : '';
  return `must be an integer${range} (a string of digits such as "100" is accepted too)`;
}

/** The error envelope, documented once and referenced by every operation's error answers. */
export const ErrorEnvelope = Type.Object(
  {
    error: Type.Object({
      code: Type.Integer({ description: 'The HTTP status.' }),
      status: Type.String({ description: 'The HTTP reason phrase.' }),
      request: Type.String({ description: 'The request id; equals the X-Request-Id response header.' }),
      message: Type.String({ description: 'What is wrong and how to fix it.' }),
      messageId: Type.Optional(
        Type.String({
          description:
            'The stable name of the message in the service\'s catalogue ("area.name", e.g. "imports.fileEmpty"), for a client that words its errors its own way; absent when the message has none.',
        }),
      ),
      details: Type.Optional(Type.Array(Type.Object({ path: Type.String(), message: Type.String() }))),
    }),
  },
  { $id: 'ErrorEnvelope', description: 'Every error of the /v1/api operations.' },
);

/**
 * The error answers common to every authenticated operation, for the OpenAPI document: a bad
 * request, authentication, permission, the per-client rate limit (429 with Retry-After) and a
 * server that is stopping or a database that is busy or out of reach (503 with Retry-After;
 * the request was not carried out).
 */
export function errorResponses(...statuses: number[]): Record<number, TSchema> {
  const responses: Record<number, TSchema> = {};
  for (const status of [...new Set([400, 401, 403, ...statuses, 429, 503])].sort()) responses[status] = Type.Ref(ErrorEnvelope);
  return responses;
}
