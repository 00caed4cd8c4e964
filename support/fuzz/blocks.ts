import fc from 'fast-check';
import { INPUT_EXCERPT_MAX_LENGTH } from '../../src/errors.ts';
import type { TestOrganization, TestServer } from '../harness.ts';

/** What the fuzz targets (api-fuzz.ts, file-fuzz.ts, operation-fuzz.ts) are made of. */

export interface FuzzContext {
  server: TestServer;
  organization: TestOrganization;
  base: string;
  datasetId: string;
  transactionIds: string[];
  /** Ids that exist, by the name of the path parameter that takes them (datasetId, runId, ...). */
  ids: Record<string, string[]>;
  /** A valid body of an operation (by operationId), which generated cases mutate. */
  samples: Record<string, unknown>;
  /** The session cookie of the organization's Administrator, for the operations under /auth. */
  sessionCookie: string;
}

export interface FuzzRequest {
  method: string;
  path: string;
  headers: Record<string, string>;
  body?: string | Uint8Array | FormData;
  /** Whether the request is known to break a rule of the operation, so that a 2xx is wrong. */
  breaksRule: boolean;
  /** Whether the request is known to be valid, so that anything but a 2xx is wrong. */
  mustSucceed?: boolean;
  /** Strings of the input that must not be echoed beyond the excerpt limit. */
  inputs: string[];
}

export interface FuzzAnswer {
  status: number;
  headers: Headers;
  text: string;
}

export interface FuzzTarget {
  name: string;
  /** The operations of docs/openapi.json (operationIds) whose requests it generates. */
  operations: string[];
  /** The API envelope, or the OAuth error form of the token endpoint. */
  errorForm: 'api' | 'oauth';
  /** Its share of a run's requests, against 1 for a hand-written target (whose cases reach further). */
  share?: number;
  cases: (context: FuzzContext) => fc.Arbitrary<FuzzRequest>;
}

/** Text as clients get it wrong: any UTF-16 (lone surrogates included), NUL, long runs, escapes. */
export const nastyText = fc.oneof(
  { weight: 4, arbitrary: fc.string({ maxLength: 20 }) },
  { weight: 2, arbitrary: fc.string({ unit: 'binary', maxLength: 20 }) },
  { weight: 1, arbitrary: fc.constantFrom('\u0000', 'a\u0000b', '\ud800', '\udfff\udfff', 'ß\udc00"', '%FF', '\\', '"', '💶', '') },
  { weight: 1, arbitrary: fc.nat({ max: 3 }).map((exponent) => 'x'.repeat(10 ** (exponent + 2))) },
);

export const uuid = fc.uuid();
export const idLike = fc.oneof(uuid, nastyText, fc.constant('00000000-0000-0000-0000-000000000000'));
export const smallNumber = fc.oneof(fc.integer({ min: -5, max: 2000 }), fc.double(), fc.constantFrom(Number.MAX_SAFE_INTEGER, 1e308, -0));
export const anyJson = fc.jsonValue({ maxDepth: 3 });
export const scalar = fc.oneof(nastyText, smallNumber, fc.boolean(), fc.constant(null));
export const decimalText = fc.oneof(
  fc.tuple(fc.integer({ min: -99999, max: 99999 }), fc.integer({ min: 0, max: 99 })).map(([whole, cents]) => `${whole}.${String(cents).padStart(2, '0')}`),
  fc.constantFrom('1,50', '1e3', '-', '0.0000001', '123456789012345678901.5', ' 1', '+1'),
);

/** A value in one case of eight, else undefined (an unknown member or parameter, tried now and then). */
export function nowAndThen<T>(arbitrary: fc.Arbitrary<T>): fc.Arbitrary<T | undefined> {
  return fc.oneof({ weight: 7, arbitrary: fc.constant(undefined) }, { weight: 1, arbitrary });
}

/** Collects every string of a value (keys included) that is longer than the excerpt limit. */
export function longStrings(value: unknown, found: string[] = []): string[] {
  if (typeof value === 'string') {
    if (value.length > INPUT_EXCERPT_MAX_LENGTH + 20) found.push(value);
  } else if (Array.isArray(value)) {
    for (const item of value) longStrings(item, found);
  } else if (value !== null && typeof value === 'object') {
    for (const [key, item] of Object.entries(value)) {
      longStrings(key, found);
      longStrings(item, found);
    }
  }
  return found;
}

/** A path segment from generated text; text that is not well formed is sent as the bytes of a lone surrogate. */
export function segment(text: string): string {
  return text.isWellFormed() ? encodeURIComponent(text) : '%ED%A0%80';
}

export function jsonRequest(context: FuzzContext, method: string, path: string, body: unknown, breaksRule: boolean): FuzzRequest {
  return {
    method,
    path,
    headers: { authorization: `Bearer ${context.organization.token}`, 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
    breaksRule,
    inputs: longStrings(body),
  };
}

/** Raw bodies that are not what a JSON reader expects: invalid UTF-8, repeated names, deep nesting, junk. */
export function rawBodies(context: FuzzContext, method: string, path: string): fc.Arbitrary<FuzzRequest> {
  const headers = { authorization: `Bearer ${context.organization.token}`, 'content-type': 'application/json' };
  return fc.oneof(
    fc.uint8Array({ maxLength: 64 }).map((bytes) => ({ method, path, headers, body: bytes, breaksRule: false, inputs: [] })),
    fc.tuple(fc.constantFrom('limit', 'datasetId', 'records', 'links', 'reconciliationStatus'), scalar, scalar).map(([key, first, second]) => ({
      method,
      path,
      headers,
      body: `{"${key}": ${JSON.stringify(first)}, "${key}": ${JSON.stringify(second)}}`,
      breaksRule: true,
      inputs: [],
    })),
    fc
      .integer({ min: 30, max: 3000 })
      .map((depth) => ({ method, path, headers, body: '['.repeat(depth) + ']'.repeat(depth), breaksRule: depth > 32, inputs: [] })),
    fc.tuple(fc.string({ maxLength: 10 }), fc.uint8Array({ minLength: 1, maxLength: 4 })).map(([text, bytes]) => ({
      method,
      path,
      headers,
      body: new Uint8Array([...Buffer.from(`{"name": "${text.replace(/["\\]/g, '')}`), 0xff, ...bytes, ...Buffer.from('"}')]),
      breaksRule: true,
      inputs: [],
    })),
  );
}
