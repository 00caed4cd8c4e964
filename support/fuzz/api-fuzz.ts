import type { Writable } from 'node:stream';
import fc from 'fast-check';
import { INPUT_EXCERPT_MAX_LENGTH } from '../../src/errors.ts';
import { api, createTestOrganization, startTestServer, type StoreKind } from '../harness.ts';
import {
  decimalText,
  idLike,
  jsonRequest,
  longStrings,
  nastyText,
  rawBodies,
  scalar,
  segment,
  smallNumber,
  anyJson,
  type FuzzAnswer,
  type FuzzContext,
  type FuzzRequest,
  type FuzzTarget,
} from './blocks.ts';
import { fileTargets } from './file-fuzz.ts';
import { operationTargets } from './operation-fuzz.ts';

export { documentedOperations } from './operation-fuzz.ts';

export type { FuzzAnswer, FuzzContext, FuzzRequest, FuzzTarget } from './blocks.ts';

/**
 * Property-based requests against the real server, for every operation of docs/openapi.json:
 * hand-written cases for the token endpoint, the transactions query, ingest, matches, the PATCH
 * of a transaction and file imports and previews (file-fuzz.ts), and cases derived from the
 * document's schemas for every other operation (operation-fuzz.ts), so that an operation added
 * later is fuzzed without being listed here. Every answer must hold the same properties
 * whatever was sent:
 * - never a 5xx;
 * - every 4xx in the operation's error format (the API envelope with the request id, or the
 *   OAuth error form at the token endpoint);
 * - no piece of the input longer than the excerpt limit echoed back;
 * - no 2xx for a request that breaks a rule (the generated cases that are known to break one).
 * Used by the test suite (a few thousand cases, seeded) and by `npm run fuzz` (long runs).
 */

/**
 * Starts a server over a fresh store with the data the targets refer to: transactions in two
 * datasets, a match, a rule and the run and suggestion it made, an import and a saved mapping,
 * a webhook endpoint (at a closed local port) and a delivery, a spare API client, an invitation
 * and a signed-in session.
 */
export async function startFuzzContext(kind: StoreKind, options: { logStream?: Writable } = {}): Promise<FuzzContext> {
  // The per-client request limit would answer most of a long run with 429: it is lifted here.
  // Webhook targets may be local, so that the fuzz's endpoint points at a closed port here
  // rather than at a host on the internet.
  const server = await startTestServer(kind, { apiRequestsPerMinute: 0, webhookAllowPrivateTargets: true }, options);
  const organization = await createTestOrganization(server, 'Fuzz');
  const base = `/v1/api/${organization.orgId}`;
  const call = async (method: string, path: string, body?: unknown) => {
    const answer = await api(server, organization.token, method, `${base}${path}`, body);
    if (answer.status >= 300) throw new Error(`fuzz setup: ${method} ${path} answered ${answer.status}: ${JSON.stringify(answer.body)}`);
    return answer.body;
  };
  const source = await call('POST', '/sources', { name: 'Fuzz bank' });
  const datasetBody = {
    name: 'Fuzz statement',
    columns: [
      { name: 'memo', type: 'string' },
      { name: 'vatRate', type: 'number' },
      { name: 'paid', type: 'boolean' },
      { name: 'dueDate', type: 'date' },
      { name: 'fee', type: 'money' },
    ],
  };
  const datasetId = (await call('POST', `/sources/${source.id}/datasets`, datasetBody)).id as string;
  const ingestBody = {
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
  };
  await call('POST', `/datasets/${datasetId}/transactions`, ingestBody);
  const transactionIds = ((await call('POST', '/transactions', { datasetId, limit: 100 })) as { id: string }[]).map((record) => record.id);

  // A ledger whose two equal lines make the rule's run leave a suggestion; a third is matched by hand.
  const ledgerId = (await call('POST', `/sources/${source.id}/datasets`, { name: 'Fuzz ledger' })).id as string;
  await call('POST', `/datasets/${ledgerId}/transactions`, {
    records: [
      { externalId: 'ledger-1', timestamp: 1_700_000_000_000, amount: '1.50', currency: 'USD' },
      { externalId: 'ledger-2', timestamp: 1_700_000_000_000, amount: '1.50', currency: 'USD' },
      { externalId: 'ledger-3', timestamp: 1_700_000_600_000, amount: '11.50', currency: 'USD' },
    ],
  });
  const ledgerIds = ((await call('POST', '/transactions', { datasetId: ledgerId, limit: 10 })) as { id: string }[]).map((record) => record.id);
  const matchBody = { links: [{ originId: transactionIds[10]!, targetId: ledgerIds[2]! }], note: 'fuzz' };
  const match = await call('POST', '/matches', matchBody);
  const ruleBody = {
    name: 'Fuzz rule',
    origin: { datasetIds: [datasetId] },
    target: { datasetIds: [ledgerId] },
    cardinality: '1:1',
    conditions: [
      { type: 'amount', sign: 'same' },
      { type: 'date', path: 'timestamp', min: '-P2D', max: 'P2D' },
    ],
  };
  const rule = await call('POST', '/rules', ruleBody);
  const runBody = { mode: 'commit' };
  let run = await call('POST', '/runs', runBody);
  for (let attempt = 0; ['queued', 'running'].includes(run.status) && attempt < 600; attempt += 1) {
    await new Promise((resolve) => setTimeout(resolve, 100));
    run = await call('GET', `/runs/${run.id}`);
  }
  const suggestions = (await call('GET', '/suggestions')).suggestions as { id: string }[];

  const mappingBody = { columns: { timestamp: 'Date', amount: 'Amount' }, currency: 'EUR', dateFormat: 'DD.MM.YYYY' };
  await call('PUT', `/datasets/${datasetId}/import-mappings/fuzz`, mappingBody);
  const imported = await api(
    server,
    organization.token,
    'POST',
    `${base}/datasets/${ledgerId}/imports?fileName=fuzz.csv`,
    'timestamp,amount,currency\n2024-03-01,1.00,EUR\n',
    {
      'content-type': 'text/csv',
    },
  );
  if (imported.status !== 201) throw new Error(`fuzz setup: the import answered ${imported.status}`);

  const endpointBody = { url: 'http://127.0.0.1:9/fuzz', description: 'fuzz', eventTypes: ['import.completed'] };
  const endpoint = await call('POST', '/webhook-endpoints', endpointBody);
  const delivery = await call('POST', `/webhook-endpoints/${endpoint.id}/test`);
  // A client of its own for the operations that revoke one: the fuzz's own client must keep working.
  const spare = await call('POST', '/clients', { name: 'Fuzz spare', role: 'View-only' });
  const spareSecret = await call('POST', `/clients/${spare.clientId}/secrets`);
  const users = await call('GET', '/users');
  const invitation = await call('POST', '/invitations', { email: 'fuzz-invitee@example.com', role: 'View-only' });

  const signIn = await fetch(`${server.baseUrl}/auth/sign-in`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email: organization.user!.email, password: organization.user!.password }),
  });
  const sessionCookie = (signIn.headers.get('set-cookie') ?? '').split(';')[0]!;
  if (signIn.status !== 200 || sessionCookie === '') throw new Error(`fuzz setup: sign-in answered ${signIn.status}`);

  return {
    server,
    organization,
    base,
    datasetId,
    transactionIds,
    ids: {
      orgId: [organization.orgId],
      datasetId: [datasetId, ledgerId],
      sourceId: [source.id],
      transactionId: [...transactionIds.slice(0, 5), ...ledgerIds],
      matchId: (match.matches as { id: string }[]).map((entry) => entry.id),
      groupId: [match.groupId],
      ruleId: [rule.id],
      runId: [run.id],
      suggestionId: suggestions.map((suggestion) => suggestion.id),
      importId: [imported.body.id],
      name: ['fuzz'],
      endpointId: [endpoint.id],
      deliveryId: [delivery.id],
      clientId: [spare.clientId],
      secretId: [spareSecret.secretId],
      userId: (users.users as { id: string }[]).map((user) => user.id),
      secret: [new URL(invitation.invitationUrl).pathname.split('/').pop()!],
    },
    samples: {
      createSource: { name: 'Fuzz source' },
      createDataset: datasetBody,
      ingestTransactions: ingestBody,
      createMatches: matchBody,
      createRule: ruleBody,
      validateRule: ruleBody,
      updateRule: { name: 'Fuzz rule renamed', enabled: true },
      reorderRules: { ruleIds: [rule.id] },
      startRun: { mode: 'dry-run', ruleIds: [rule.id] },
      revertRun: { note: 'fuzz' },
      confirmSuggestion: { option: 1 },
      rejectSuggestion: { reason: 'fuzz' },
      saveImportMapping: mappingBody,
      createWebhookEndpoint: endpointBody,
      updateWebhookEndpoint: { description: 'fuzz', enabled: true },
      createClient: { name: 'Fuzz client', role: 'View-only' },
      inviteUser: { email: 'someone@example.com', role: 'Full member' },
      updateUser: { role: 'Full member' },
      signIn: { email: organization.user!.email, password: 'not the password' },
      changePassword: { currentPassword: 'not the password', newPassword: 'a new long password 123' },
      acceptInvitation: { password: 'a long enough password 123' },
    },
    sessionCookie,
  };
}

// ---------------------------------------------------------------------------------------------
// Targets

const searchQuery = fc.record(
  {
    path: fc.oneof(
      fc.constantFrom(
        'description',
        'amount',
        'timestamp',
        'currency',
        'reference',
        'reconciliationStatus',
        'memo',
        'vatRate',
        'paid',
        'dueDate',
        'fee',
        'Description',
        'id',
      ),
      nastyText,
    ),
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
    search: fc.record({
      type: fc.constant('string'),
      value: fc.oneof(wellFormedText, fc.array(wellFormedText, { minLength: 1, maxLength: 3 })),
      exact: fc.boolean(),
    }),
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
    search: fc.record({
      type: fc.constant('date'),
      value: fc.tuple(epochMs, epochMs).map(([start, end]) => ({ start: Math.min(start, end), end: Math.max(start, end) })),
    }),
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
        columns: fc.array(fc.record({ path: fc.constantFrom('amount', 'reference', 'fee', 'memo', 'paid', 'dueDate', 'vatRate', 'currency') }), {
          maxLength: 4,
        }),
      },
      { requiredKeys: [] },
    )
    .map((body) => ({ ...jsonRequest(context, 'POST', `${context.base}/transactions`, { datasetId: context.datasetId, ...body }, false), mustSucceed: true }));

const transactionsQuery: FuzzTarget = {
  name: 'POST /transactions',
  operations: ['queryTransactions'],
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
  fc.oneof(
    fc.constantFrom('timestamp', 'description', 'type', 'reference', 'currency', 'amount', 'externalId', 'memo', 'vatRate', 'paid', 'dueDate', 'fee'),
    nastyText,
  ),
  fc.oneof(scalar, decimalText, fc.integer({ min: 0, max: 1_900_000_000_000 }), anyJson),
  { maxKeys: 8 },
);

const ingest: FuzzTarget = {
  name: 'POST /datasets/{id}/transactions',
  operations: ['ingestTransactions'],
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
      {
        weight: 3,
        arbitrary: fc
          .record({ records: fc.array(wellFormedRecord, { maxLength: 5 }) })
          .map((body) => jsonRequest(context, 'POST', path(context.datasetId), body, false)),
      },
      {
        weight: 4,
        arbitrary: fc.record({ records: fc.array(record, { maxLength: 5 }) }).map((body) => jsonRequest(context, 'POST', path(context.datasetId), body, false)),
      },
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
  operations: ['createMatches'],
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
              : jsonRequest(
                  context,
                  'POST',
                  `${context.base}/matches`,
                  { links: [{ originId, targetId, ...(amount ? { amount } : {}) }], note: 'fuzz' },
                  false,
                ),
          ),
      },
      {
        weight: 4,
        arbitrary: fc
          .record(
            {
              links: fc.array(
                fc.record(
                  { originId: fc.oneof(knownId, idLike), targetId: fc.oneof(knownId, idLike), amount: fc.oneof(decimalText, scalar) },
                  { requiredKeys: ['originId', 'targetId'] },
                ),
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
      {
        weight: 1,
        arbitrary: idLike.map((id) =>
          jsonRequest(context, 'DELETE', `${context.base}/matches/${segment(id)}?note=${encodeURIComponent('x')}`, undefined, false),
        ),
      },
      { weight: 1, arbitrary: rawBodies(context, 'POST', `${context.base}/matches`) },
    );
  },
};

const patchTransaction: FuzzTarget = {
  name: 'PATCH /transactions/{id}',
  operations: ['setTransactionStatus', 'getTransaction'],
  errorForm: 'api',
  cases: (context) => {
    const knownId = fc.constantFrom(...context.transactionIds);
    return fc.oneof(
      {
        weight: 5,
        arbitrary: fc
          .tuple(
            fc.oneof({ weight: 4, arbitrary: knownId }, { weight: 1, arbitrary: idLike }),
            fc.record(
              { reconciliationStatus: fc.oneof(fc.constantFrom('informative', 'out of scope', 'none'), nastyText), note: nastyText },
              { requiredKeys: [] },
            ),
          )
          .map(([id, body]) => jsonRequest(context, 'PATCH', `${context.base}/transactions/${segment(id)}`, body, false)),
      },
      {
        weight: 2,
        arbitrary: fc
          .tuple(knownId, fc.constantFrom('full', 'partial', '', 'Informative', 'out_of_scope'))
          .map(([id, status]) => jsonRequest(context, 'PATCH', `${context.base}/transactions/${id}`, { reconciliationStatus: status }, true)),
      },
      {
        weight: 1,
        arbitrary: fc
          .tuple(knownId, nastyText)
          .map(([id, columns]) => jsonRequest(context, 'GET', `${context.base}/transactions/${id}?columns=${segment(columns)}`, undefined, false)),
      },
      { weight: 1, arbitrary: knownId.chain((id) => rawBodies(context, 'PATCH', `${context.base}/transactions/${id}`)) },
    );
  },
};

const tokenEndpoint: FuzzTarget = {
  name: 'POST /oauth/token',
  operations: ['requestToken'],
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
      fc
        .constantFrom('grant_type=client_credentials&grant_type=client_credentials', 'a=%zz', '{"grant_type": 1}', '{}', '[]')
        .map((body) => request(body, body.startsWith('{') || body.startsWith('[') ? 'application/json' : 'application/x-www-form-urlencoded', [])),
    );
  },
};

const HAND_WRITTEN_TARGETS: FuzzTarget[] = [tokenEndpoint, transactionsQuery, ingest, matches, patchTransaction, ...fileTargets];

/** The hand-written targets, then one target per operation of docs/openapi.json that none of them covers. */
export const FUZZ_TARGETS: FuzzTarget[] = [...HAND_WRITTEN_TARGETS, ...operationTargets(HAND_WRITTEN_TARGETS.flatMap((target) => target.operations))];

/** How many of `total` requests each target gets, by its share. */
export function requestsPerTarget(total: number): Map<FuzzTarget, number> {
  const shares = FUZZ_TARGETS.reduce((sum, target) => sum + (target.share ?? 1), 0);
  return new Map(FUZZ_TARGETS.map((target) => [target, Math.max(1, Math.round((total * (target.share ?? 1)) / shares))]));
}

// ---------------------------------------------------------------------------------------------
// Sending and judging

/** Sends a request; a connection that ends without an answer is status 0, which no property allows. */
export async function send(context: FuzzContext, request: FuzzRequest): Promise<FuzzAnswer> {
  try {
    const response = await fetch(`${context.server.baseUrl}${request.path}`, { method: request.method, headers: request.headers, body: request.body });
    return { status: response.status, headers: response.headers, text: await response.text() };
  } catch (error) {
    const cause = (error as { cause?: { code?: string; message?: string } }).cause;
    return { status: 0, headers: new Headers(), text: `no answer: ${cause?.code ?? cause?.message ?? String(error)}` };
  }
}

/** What is wrong with an answer, or null when it holds every property. */
export function judge(target: FuzzTarget, request: FuzzRequest, answer: FuzzAnswer): string | null {
  if (answer.status === 0) return answer.text;
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
      if (typeof envelope?.message !== 'string' || envelope.request !== answer.headers.get('x-request-id'))
        return `not the API envelope: ${answer.text.slice(0, 200)}`;
    }
  }
  return null;
}
