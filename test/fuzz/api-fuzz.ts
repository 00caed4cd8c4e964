import fc from 'fast-check';
import { INPUT_EXCERPT_MAX_LENGTH } from '../../src/errors.ts';
import { api, createTestOrganization, startTestServer, type StoreKind, type TestOrganization, type TestServer } from '../support/harness.ts';

/**
 * Property-based requests against the real server: generated bodies, query strings and headers
 * for the token endpoint, the transactions query, ingest, matches and the PATCH of a
 * transaction. Every answer must hold the same properties whatever was sent:
 * - never a 5xx;
 * - every 4xx in the operation's error format (the API envelope with the request id, or the
 *   OAuth error form at the token endpoint);
 * - no piece of the input longer than the excerpt limit echoed back;
 * - no 2xx for a request that breaks a rule (the generated cases that are known to break one).
 * Used by the test suite (a few thousand cases, seeded) and by `npm run fuzz` (long runs).
 */

export interface FuzzContext {
  server: TestServer;
  organization: TestOrganization;
  base: string;
  datasetId: string;
  transactionIds: string[];
}

export interface FuzzRequest {
  method: string;
  path: string;
  headers: Record<string, string>;
  body?: string | Uint8Array;
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
  /** The API envelope, or the OAuth error form of the token endpoint. */
  errorForm: 'api' | 'oauth';
  cases: (context: FuzzContext) => fc.Arbitrary<FuzzRequest>;
}

/** Starts a server over a fresh store with the data the targets refer to. */
export async function startFuzzContext(kind: StoreKind): Promise<FuzzContext> {
  // The per-client request limit would answer most of a long run with 429: it is lifted here.
  const server = await startTestServer(kind, { apiRequestsPerMinute: 0 });
  const organization = await createTestOrganization(server, 'Fuzz');
  const base = `/v1/api/${organization.orgId}`;
  const source = await api(server, organization.token, 'POST', `${base}/sources`, { name: 'Fuzz bank' });
  const dataset = await api(server, organization.token, 'POST', `${base}/sources/${source.body.id}/datasets`, {
    name: 'Fuzz statement',
    columns: [
      { name: 'memo', type: 'string' },
      { name: 'vatRate', type: 'number' },
      { name: 'paid', type: 'boolean' },
      { name: 'dueDate', type: 'date' },
      { name: 'fee', type: 'money' },
    ],
  });
  const datasetId = dataset.body.id as string;
  await api(server, organization.token, 'POST', `${base}/datasets/${datasetId}/transactions`, {
    records: Array.from({ length: 40 }, (_, index) => ({
      externalId: `fuzz-${index}`,
      timestamp: 1_700_000_000_000 + index * 60_000,
      description: `payment ${index}`,
      reference: `INV-${index}`,
      currency: index % 2 ? 'EUR' : 'USD',
      amount: `${index + 1}.50`,
      memo: 'seed',
      vatRate: 21,
      paid: index % 3 === 0,
      dueDate: '2024-01-31',
      fee: '0.25',
    })),
  });
  const page = await api(server, organization.token, 'POST', `${base}/transactions`, { datasetId, limit: 100 });
  return { server, organization, base, datasetId, transactionIds: (page.body as { id: string }[]).map((record) => record.id) };
}

// ---------------------------------------------------------------------------------------------
// Building blocks

/** Text as clients get it wrong: any UTF-16 (lone surrogates included), NUL, long runs, escapes. */
const nastyText = fc.oneof(
  { weight: 4, arbitrary: fc.string({ maxLength: 20 }) },
  { weight: 2, arbitrary: fc.string({ unit: 'binary', maxLength: 20 }) },
  { weight: 1, arbitrary: fc.constantFrom('\u0000', 'a\u0000b', '\ud800', '\udfff\udfff', 'ß\udc00"', '%FF', '\\', '"', '💶', '') },
  { weight: 1, arbitrary: fc.nat({ max: 3 }).map((exponent) => 'x'.repeat(10 ** (exponent + 2))) },
);

const uuid = fc.uuid();
const idLike = fc.oneof(uuid, nastyText, fc.constant('00000000-0000-0000-0000-000000000000'));
const smallNumber = fc.oneof(fc.integer({ min: -5, max: 2000 }), fc.double(), fc.constantFrom(Number.MAX_SAFE_INTEGER, 1e308, -0));
const anyJson = fc.jsonValue({ maxDepth: 3 });
const scalar = fc.oneof(nastyText, smallNumber, fc.boolean(), fc.constant(null));
const decimalText = fc.oneof(
  fc.tuple(fc.integer({ min: -99999, max: 99999 }), fc.integer({ min: 0, max: 99 })).map(([whole, cents]) => `${whole}.${String(cents).padStart(2, '0')}`),
  fc.constantFrom('1,50', '1e3', '-', '0.0000001', '123456789012345678901.5', ' 1', '+1'),
);

/** Collects every string of a value (keys included) that is longer than the excerpt limit. */
function longStrings(value: unknown, found: string[] = []): string[] {
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
function segment(text: string): string {
  return text.isWellFormed() ? encodeURIComponent(text) : '%ED%A0%80';
}

function jsonRequest(context: FuzzContext, method: string, path: string, body: unknown, breaksRule: boolean): FuzzRequest {
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
function rawBodies(context: FuzzContext, method: string, path: string): fc.Arbitrary<FuzzRequest> {
  const headers = { authorization: `Bearer ${context.organization.token}`, 'content-type': 'application/json' };
  return fc.oneof(
    fc.uint8Array({ maxLength: 64 }).map((bytes) => ({ method, path, headers, body: bytes, breaksRule: false, inputs: [] })),
    fc
      .tuple(fc.constantFrom('limit', 'datasetId', 'records', 'links', 'reconciliationStatus'), scalar, scalar)
      .map(([key, first, second]) => ({
        method,
        path,
        headers,
        body: `{"${key}": ${JSON.stringify(first)}, "${key}": ${JSON.stringify(second)}}`,
        breaksRule: true,
        inputs: [],
      })),
    fc.integer({ min: 30, max: 3000 }).map((depth) => ({ method, path, headers, body: '['.repeat(depth) + ']'.repeat(depth), breaksRule: depth > 32, inputs: [] })),
    fc
      .tuple(fc.string({ maxLength: 10 }), fc.uint8Array({ minLength: 1, maxLength: 4 }))
      .map(([text, bytes]) => ({
        method,
        path,
        headers,
        body: new Uint8Array([...Buffer.from(`{"name": "${text.replace(/["\\]/g, '')}`), 0xff, ...bytes, ...Buffer.from('"}')]),
        breaksRule: true,
        inputs: [],
      })),
  );
}

// ---------------------------------------------------------------------------------------------
// Targets

const searchQuery = fc.record(
  {
    path: fc.oneof(fc.constantFrom('description', 'amount', 'timestamp', 'currency', 'reference', 'reconciliationStatus', 'memo', 'vatRate', 'paid', 'dueDate', 'fee', 'Description', 'id'), nastyText),
    search: fc.record(
      {
        type: fc.oneof(fc.constantFrom('string', 'number', 'money', 'date', 'boolean'), nastyText),
        value: fc.oneof(
          scalar,
          fc.array(scalar, { maxLength: 4 }),
          fc.record({ operator: fc.oneof(fc.constantFrom('ne', 'ge', 'gt', 'le', 'lt'), nastyText), value: fc.oneof(smallNumber, decimalText) }),
          fc.record({ start: fc.oneof(smallNumber, decimalText), end: fc.oneof(smallNumber, decimalText), includeStart: fc.boolean() }, { requiredKeys: [] }),
        ),
        exact: fc.oneof(fc.boolean(), scalar),
        currencies: fc.array(nastyText, { maxLength: 3 }),
      },
      { requiredKeys: ['type'] },
    ),
  },
  { requiredKeys: [] },
);

/** Text that is valid (any Unicode, well formed, no NUL): what a careful client sends. */
const wellFormedText = fc.string({ unit: 'grapheme', maxLength: 12 });
const validDecimal = fc
  .tuple(fc.integer({ min: -999999, max: 999999 }), fc.integer({ min: 0, max: 99 }))
  .map(([whole, cents]) => `${whole}.${String(cents).padStart(2, '0')}`);
const epochMs = fc.integer({ min: 1_600_000_000_000, max: 1_800_000_000_000 });

/** SearchQueries that fit the fuzz dataset's columns: they must be answered 200. */
const wellFormedSearch = fc.oneof(
  fc.record({
    path: fc.constantFrom('description', 'reference', 'memo', 'currency', 'Description', 'reconciliationStatus', 'id'),
    search: fc.record({ type: fc.constant('string'), value: fc.oneof(wellFormedText, fc.array(wellFormedText, { minLength: 1, maxLength: 3 })), exact: fc.boolean() }),
  }),
  fc.record({
    path: fc.constantFrom('amount', 'fee'),
    search: fc
      .record(
        {
          type: fc.constantFrom('money', 'number'),
          value: fc.oneof(
            validDecimal,
            fc.array(validDecimal, { minLength: 1, maxLength: 3 }),
            fc.record({ operator: fc.constantFrom('ne', 'ge', 'gt', 'le', 'lt'), value: validDecimal }),
            fc.tuple(validDecimal, validDecimal).map(([start, end]) => (Number(start) <= Number(end) ? { start, end } : { start: end, end: start })),
          ),
          currencies: fc.array(fc.constantFrom('EUR', 'usd', 'GBP'), { minLength: 1, maxLength: 2 }),
        },
        { requiredKeys: ['type', 'value'] },
      )
      // Currencies belong to money filters only.
      .map(({ currencies, ...filter }) => (filter.type === 'money' && currencies ? { ...filter, currencies } : filter)),
  }),
  fc.record({
    path: fc.constantFrom('timestamp', 'dueDate'),
    search: fc.record({ type: fc.constant('date'), value: fc.tuple(epochMs, epochMs).map(([start, end]) => ({ start: Math.min(start, end), end: Math.max(start, end) })) }),
  }),
  fc.record({ path: fc.constant('paid'), search: fc.record({ type: fc.constant('boolean'), value: fc.boolean() }) }),
  fc.record({ path: fc.constant('vatRate'), search: fc.record({ type: fc.constant('number'), value: fc.integer({ min: 0, max: 30 }) }) }),
);

const wellFormedQuery = (context: FuzzContext) =>
  fc
    .record(
      {
        limit: fc.integer({ min: 1, max: 200 }),
        offset: fc.nat({ max: 60 }),
        from: epochMs,
        order: fc.constantFrom('asc', 'desc'),
        search: fc.array(wellFormedSearch, { maxLength: 3 }),
        columns: fc.array(fc.record({ path: fc.constantFrom('amount', 'reference', 'fee', 'memo', 'paid', 'dueDate', 'vatRate', 'currency') }), { maxLength: 4 }),
      },
      { requiredKeys: [] },
    )
    .map((body) => ({ ...jsonRequest(context, 'POST', `${context.base}/transactions`, { datasetId: context.datasetId, ...body }, false), mustSucceed: true }));

const transactionsQuery: FuzzTarget = {
  name: 'POST /transactions',
  errorForm: 'api',
  cases: (context) =>
    fc.oneof(
      { weight: 4, arbitrary: wellFormedQuery(context) },
      {
        weight: 4,
        arbitrary: fc
          .record(
            {
              datasetId: fc.oneof({ weight: 5, arbitrary: fc.constant(context.datasetId) }, { weight: 1, arbitrary: idLike }),
              limit: fc.oneof(fc.integer({ min: 1, max: 1000 }), smallNumber, nastyText),
              offset: fc.oneof(fc.nat({ max: 100 }), smallNumber, nastyText),
              offest: fc.oneof(fc.nat({ max: 100 }), nastyText),
              from: fc.oneof(fc.integer({ min: 1_600_000_000_000, max: 1_800_000_000_000 }), smallNumber),
              to: fc.oneof(fc.integer({ min: 1_600_000_000_000, max: 1_800_000_000_000 }), smallNumber),
              order: fc.oneof(fc.constantFrom('asc', 'desc'), nastyText),
              cursor: nastyText,
              search: fc.oneof(fc.array(searchQuery, { maxLength: 4 }), anyJson),
              columns: fc.oneof(fc.array(fc.record({ path: nastyText }), { maxLength: 4 }), anyJson),
            },
            { requiredKeys: [] },
          )
          .map((body) => jsonRequest(context, 'POST', `${context.base}/transactions`, body, false)),
      },
      {
        weight: 2,
        arbitrary: fc
          .oneof(
            fc.record({ limit: fc.constantFrom(0, 1001, -1, 1.5, 'abc') }),
            fc.record({ offset: fc.constantFrom(-1, 'x', 0.5) }),
            fc.record({ from: fc.constant(1_700_000_000_001), to: fc.constant(1_700_000_000_000) }),
            fc.record({ search: fc.constant([{ path: 'noSuchColumn', search: { type: 'string', value: 'a' } }]) }),
            fc.record({ search: fc.constant([{ path: 'amount', search: { type: 'string', value: 'a' } }]) }),
            fc.record({ unexpected: scalar }),
          )
          .map((body) => jsonRequest(context, 'POST', `${context.base}/transactions`, { datasetId: context.datasetId, ...body }, true)),
      },
      { weight: 1, arbitrary: rawBodies(context, 'POST', `${context.base}/transactions`) },
    ),
};

const record = fc.dictionary(
  fc.oneof(fc.constantFrom('timestamp', 'description', 'type', 'reference', 'currency', 'amount', 'externalId', 'memo', 'vatRate', 'paid', 'dueDate', 'fee'), nastyText),
  fc.oneof(scalar, decimalText, fc.integer({ min: 0, max: 1_900_000_000_000 }), anyJson),
  { maxKeys: 8 },
);

const ingest: FuzzTarget = {
  name: 'POST /datasets/{id}/transactions',
  errorForm: 'api',
  cases: (context) => {
    const path = (datasetId: string) => `${context.base}/datasets/${datasetId}/transactions`;
    const wellFormedRecord = fc.record(
      {
        timestamp: epochMs,
        externalId: fc.string({ minLength: 1, maxLength: 12 }),
        description: wellFormedText,
        reference: wellFormedText,
        currency: fc.constantFrom('EUR', 'USD', 'chf'),
        amount: validDecimal,
        memo: wellFormedText,
        vatRate: fc.integer({ min: 0, max: 30 }),
        paid: fc.boolean(),
        dueDate: fc.oneof(epochMs, fc.constant('2024-02-29')),
        fee: validDecimal,
      },
      { requiredKeys: ['timestamp'] },
    );
    return fc.oneof(
      { weight: 3, arbitrary: fc.record({ records: fc.array(wellFormedRecord, { maxLength: 5 }) }).map((body) => jsonRequest(context, 'POST', path(context.datasetId), body, false)) },
      { weight: 4, arbitrary: fc.record({ records: fc.array(record, { maxLength: 5 }) }).map((body) => jsonRequest(context, 'POST', path(context.datasetId), body, false)) },
      {
        weight: 2,
        arbitrary: fc
          .oneof(
            fc.constant({ timestamp: 1, amount: '1,50' }),
            fc.constant({ description: 'no timestamp' }),
            fc.constant({ timestamp: 1, noSuchColumn: 1 }),
            fc.constant({ timestamp: 1, externalId: '' }),
            fc.constant({ timestamp: 1, vatRate: 'high' }),
            fc.constant({ timestamp: 1, paid: 'yes' }),
            nastyText.map((text) => ({ timestamp: 1, description: `\u0000${text}` })),
          )
          .map((bad) => jsonRequest(context, 'POST', path(context.datasetId), { records: [{ timestamp: 2 }, bad] }, true)),
      },
      { weight: 1, arbitrary: idLike.map((id) => jsonRequest(context, 'POST', path(segment(id)), { records: [{ timestamp: 1 }] }, id !== context.datasetId)) },
      { weight: 1, arbitrary: rawBodies(context, 'POST', path(context.datasetId)) },
    );
  },
};

const matches: FuzzTarget = {
  name: 'POST /matches',
  errorForm: 'api',
  cases: (context) => {
    const knownId = fc.constantFrom(...context.transactionIds);
    return fc.oneof(
      {
        weight: 3,
        arbitrary: fc
          .tuple(knownId, knownId, fc.option(fc.constantFrom('0.01', '0.50', '1.00'), { nil: undefined }), fc.boolean())
          .filter(([origin, target]) => origin !== target)
          .map(([originId, targetId, amount, remove]) =>
            remove
              ? jsonRequest(context, 'DELETE', `${context.base}/match-groups/${originId}`, undefined, false)
              : jsonRequest(context, 'POST', `${context.base}/matches`, { links: [{ originId, targetId, ...(amount ? { amount } : {}) }], note: 'fuzz' }, false),
          ),
      },
      {
        weight: 4,
        arbitrary: fc
          .record(
            {
              links: fc.array(
                fc.record({ originId: fc.oneof(knownId, idLike), targetId: fc.oneof(knownId, idLike), amount: fc.oneof(decimalText, scalar) }, { requiredKeys: ['originId', 'targetId'] }),
                { maxLength: 4 },
              ),
              note: nastyText,
              force: fc.oneof(fc.boolean(), scalar),
            },
            { requiredKeys: ['links'] },
          )
          .map((body) => jsonRequest(context, 'POST', `${context.base}/matches`, body, false)),
      },
      {
        weight: 2,
        arbitrary: fc
          .oneof(
            knownId.map((id) => ({ links: [{ originId: id, targetId: id }] })),
            fc.tuple(knownId, knownId).map(([origin, target]) => ({ links: [{ originId: origin, targetId: target, amount: '-1.00' }] })),
            fc.constant({ links: [] }),
            fc.constant({ links: [{ originId: 'not-a-uuid', targetId: 'x' }] }),
          )
          .map((body) => jsonRequest(context, 'POST', `${context.base}/matches`, body, true)),
      },
      { weight: 1, arbitrary: idLike.map((id) => jsonRequest(context, 'DELETE', `${context.base}/matches/${segment(id)}?note=${encodeURIComponent('x')}`, undefined, false)) },
      { weight: 1, arbitrary: rawBodies(context, 'POST', `${context.base}/matches`) },
    );
  },
};

const patchTransaction: FuzzTarget = {
  name: 'PATCH /transactions/{id}',
  errorForm: 'api',
  cases: (context) => {
    const knownId = fc.constantFrom(...context.transactionIds);
    return fc.oneof(
      {
        weight: 5,
        arbitrary: fc
          .tuple(
            fc.oneof({ weight: 4, arbitrary: knownId }, { weight: 1, arbitrary: idLike }),
            fc.record({ reconciliationStatus: fc.oneof(fc.constantFrom('informative', 'out of scope', 'none'), nastyText), note: nastyText }, { requiredKeys: [] }),
          )
          .map(([id, body]) => jsonRequest(context, 'PATCH', `${context.base}/transactions/${segment(id)}`, body, false)),
      },
      {
        weight: 2,
        arbitrary: fc
          .tuple(knownId, fc.constantFrom('full', 'partial', '', 'Informative', 'out_of_scope'))
          .map(([id, status]) => jsonRequest(context, 'PATCH', `${context.base}/transactions/${id}`, { reconciliationStatus: status }, true)),
      },
      { weight: 1, arbitrary: fc.tuple(knownId, nastyText).map(([id, columns]) => jsonRequest(context, 'GET', `${context.base}/transactions/${id}?columns=${segment(columns)}`, undefined, false)) },
      { weight: 1, arbitrary: knownId.chain((id) => rawBodies(context, 'PATCH', `${context.base}/transactions/${id}`)) },
    );
  },
};

const tokenEndpoint: FuzzTarget = {
  name: 'POST /oauth/token',
  errorForm: 'oauth',
  cases: (context) => {
    const { clientId, clientSecret } = context.organization;
    const audience = context.server.config.audience;
    const parameters = fc.record(
      {
        grant_type: fc.oneof(fc.constant('client_credentials'), nastyText),
        client_id: fc.oneof(fc.constant(clientId), nastyText),
        client_secret: fc.oneof(fc.constant(`${clientSecret}x`), nastyText),
        audience: fc.oneof(fc.constant(audience), nastyText),
        scope: fc.oneof(fc.constantFrom('read:data', 'read:data write:data', 'admin'), nastyText),
      },
      { requiredKeys: [] },
    );
    const form = (values: Record<string, string>) =>
      Object.entries(values)
        .map(([key, value]) => `${encodeURIComponent(key.isWellFormed() ? key : 'x')}=${value.isWellFormed() ? encodeURIComponent(value) : '%ED%A0%80'}`)
        .join('&');
    const request = (body: string | Uint8Array, contentType: string, inputs: string[], extra: Record<string, string> = {}): FuzzRequest => ({
      method: 'POST',
      path: '/oauth/token',
      headers: { 'content-type': contentType, ...extra },
      body,
      // The right secret is never generated, so no case may get a token.
      breaksRule: true,
      inputs,
    });
    return fc.oneof(
      parameters.map((values) => request(form(values as Record<string, string>), 'application/x-www-form-urlencoded', longStrings(values))),
      parameters.map((values) => request(JSON.stringify(values), 'application/json', longStrings(values))),
      fc.tuple(nastyText, nastyText).map(([id, secret]) =>
        request(form({ grant_type: 'client_credentials', audience }), 'application/x-www-form-urlencoded', longStrings([id, secret]), {
          authorization: `Basic ${Buffer.from(`${id}:${secret}`).toString('base64')}`,
        }),
      ),
      fc.uint8Array({ maxLength: 64 }).map((bytes) => request(bytes, 'application/x-www-form-urlencoded', [])),
      fc.constantFrom('grant_type=client_credentials&grant_type=client_credentials', 'a=%zz', '{"grant_type": 1}', '{}', '[]').map((body) => request(body, body.startsWith('{') || body.startsWith('[') ? 'application/json' : 'application/x-www-form-urlencoded', [])),
    );
  },
};

export const FUZZ_TARGETS: FuzzTarget[] = [tokenEndpoint, transactionsQuery, ingest, matches, patchTransaction];

// ---------------------------------------------------------------------------------------------
// Sending and judging

export async function send(context: FuzzContext, request: FuzzRequest): Promise<FuzzAnswer> {
  const response = await fetch(`${context.server.baseUrl}${request.path}`, { method: request.method, headers: request.headers, body: request.body });
  return { status: response.status, headers: response.headers, text: await response.text() };
}

/** What is wrong with an answer, or null when it holds every property. */
export function judge(target: FuzzTarget, request: FuzzRequest, answer: FuzzAnswer): string | null {
  if (answer.status >= 500) return `status ${answer.status}: ${answer.text.slice(0, 300)}`;
  if (request.breaksRule && answer.status < 300) return `status ${answer.status} for a request that breaks a rule`;
  if (request.mustSucceed && answer.status >= 300) return `status ${answer.status} for a valid request: ${answer.text.slice(0, 300)}`;
  for (const input of request.inputs) {
    const echoed = [input, JSON.stringify(input).slice(1, -1)].some((form) => answer.text.includes(form.slice(0, INPUT_EXCERPT_MAX_LENGTH + 20)));
    if (echoed) return `echoed ${input.length} characters of input`;
  }
  if (answer.status >= 400) {
    let body: any;
    try {
      body = JSON.parse(answer.text);
    } catch {
      return `a ${answer.status} that is not JSON: ${answer.text.slice(0, 200)}`;
    }
    if (target.errorForm === 'oauth') {
      if (typeof body?.error !== 'string' || typeof body?.error_description !== 'string') return `not an OAuth error: ${answer.text.slice(0, 200)}`;
    } else {
      const envelope = body?.error;
      if (envelope?.code !== answer.status) return `envelope code ${envelope?.code} for status ${answer.status}`;
      if (typeof envelope?.message !== 'string' || envelope.request !== answer.headers.get('x-request-id')) return `not the API envelope: ${answer.text.slice(0, 200)}`;
    }
  }
  return null;
}
