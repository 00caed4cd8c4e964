import assert from 'node:assert/strict';
import { mkdir, mkdtemp } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { api, createTestOrganization, startTestServer, storeKinds, type TestOrganization, type TestServer } from '../../support/harness.ts';

/** What one organization owns, created through the API. */
interface Holdings {
  organization: TestOrganization;
  sourceId: string;
  datasetId: string;
  transactionIds: string[];
  matchId: string;
  groupId: string;
  clientId: string;
  secretId: string;
  importId: string;
  ruleId: string;
  runId: string;
  suggestionId: string;
  userId: string;
  endpointId: string;
  deliveryId: string;
  reconciliationId: string;
  connectionId: string;
  pickupId: string;
  pickupRunId: string;
  marker: string;
}

/** A CSV whose header names the standard columns: it imports without a mapping. */
const csvFile = (marker: string) => `timestamp,description,amount,currency\n2024-01-31,${marker} imported,12.50,EUR\n`;
const csvHeaders = { 'content-type': 'text/csv' };
const ruleBody = (marker: string, datasetId: string, targetDatasetId: string) => ({
  name: `${marker} rule`,
  origin: { datasetIds: [datasetId] },
  target: { datasetIds: [targetDatasetId] },
  conditions: [{ type: 'amount', sign: 'opposite' }],
});
const MAPPING = { columns: { timestamp: 'timestamp', description: 'description', amount: 'amount' }, currency: 'EUR' };

/** Where the organizations' webhook endpoints point: a receiver that accepts everything. */
let receiverUrl = '';
/** CONNECTOR_FOLDER_ROOT: each organization's folder connection reads a folder of it. */
let folderRoot = '';

async function populate(server: TestServer, marker: string): Promise<Holdings> {
  const organization = await createTestOrganization(server, `Isolation ${marker}`);
  const call = async (method: string, path: string, body?: unknown) => {
    const response = await api(server, organization.token, method, `/v1/api/${organization.orgId}${path}`, body);
    assert.ok(response.status < 300, `${method} ${path}: ${response.status} ${JSON.stringify(response.body)}`);
    return response.body;
  };
  const source = await call('POST', '/sources', { name: `${marker} bank` });
  const dataset = await call('POST', `/sources/${source.id}/datasets`, { name: `${marker} statements`, columns: [] });
  await call('POST', `/datasets/${dataset.id}/transactions`, {
    records: [0, 1, 2].map((index) => ({
      externalId: `${marker}-${index}`,
      timestamp: 1_700_000_000_000 + index,
      description: `${marker} payment ${index}`,
      amount: '100.00',
      currency: 'EUR',
    })),
  });
  const page = await call('POST', '/transactions', { datasetId: dataset.id });
  const transactionIds = page.map((record: { id: string }) => record.id);
  const matched = await call('POST', '/matches', { links: [{ originId: transactionIds[0], targetId: transactionIds[1] }] });
  const client = await call('POST', '/clients', { name: `${marker} robot`, role: 'View-only' });
  const secret = await call('POST', `/clients/${client.clientId}/secrets`);
  const imported = await api(server, organization.token, 'POST', `/v1/api/${organization.orgId}/datasets/${dataset.id}/imports`, csvFile(marker), csvHeaders);
  assert.equal(imported.status, 201, JSON.stringify(imported.body));
  await call('PUT', `/datasets/${dataset.id}/import-mappings/${marker}-mapping`, MAPPING);
  // A bank account: the dashboard's overview lists the dataset by its name.
  await call('PATCH', `/datasets/${dataset.id}`, { accountId: 'DE89370400440532013000' });
  const ledger = await call('POST', `/sources/${source.id}/datasets`, { name: `${marker} ledger`, columns: [] });
  const rule = await call('POST', '/rules', ruleBody(marker, dataset.id, ledger.id));
  // A run of a rule that only suggests leaves a run, its results and a pending suggestion.
  await call('POST', `/datasets/${ledger.id}/transactions`, {
    records: [{ externalId: `${marker}-3`, timestamp: 1_700_000_000_003, description: `${marker} payment 3`, amount: '100.00', currency: 'EUR' }],
  });
  const suggesting = await call('POST', '/rules', {
    ...ruleBody(`${marker} suggesting`, dataset.id, ledger.id),
    conditions: [{ type: 'amount', sign: 'same' }],
    outcome: 'suggest',
  });
  const started = await call('POST', '/runs', { mode: 'commit', ruleIds: [suggesting.id] });
  let run = started;
  for (let attempt = 0; attempt < 200 && ['queued', 'running'].includes(run.status); attempt += 1) {
    await new Promise((resolve) => setTimeout(resolve, 50));
    run = await call('GET', `/runs/${started.id}`);
  }
  assert.equal(run.status, 'completed', JSON.stringify(run));
  const suggestions = await call('GET', '/suggestions?status=pending');
  assert.ok(suggestions.suggestions.length > 0, 'the run suggested the open payment for the ledger line');
  await call('POST', '/invitations', { email: `${marker}-invited@example.com`, role: 'View-only' });
  const people = await call('GET', '/users');
  const endpoint = await call('POST', '/webhook-endpoints', { url: `${receiverUrl}/${marker}`, description: `${marker} hooks` });
  const delivery = await call('POST', `/webhook-endpoints/${endpoint.id}/test`);
  const reconciliation = await call('POST', '/reconciliations', {
    name: `${marker} reconciliation`,
    currency: 'EUR',
    bankDatasetIds: [dataset.id],
    ledgerDatasetIds: [ledger.id],
    ledgerOpeningDate: '2023-11-01',
  });
  await mkdir(path.join(folderRoot, marker), { recursive: true });
  const connection = await call('POST', '/connections', { name: `${marker} folder`, kind: 'folder', folderPath: marker });
  // Off the schedule, so that nothing of beta's changes by itself while the matrix runs.
  const pickup = await call('POST', `/connections/${connection.id}/pickups`, {
    path: '/',
    pattern: '*.xml',
    intervalMinutes: 60,
    datasetId: dataset.id,
    enabled: false,
  });
  const pickupRun = await call('POST', `/connections/${connection.id}/pickups/${pickup.id}/run`);
  for (let attempt = 0; attempt < 200; attempt += 1) {
    if ((await call('GET', `/connections/${connection.id}/pickups/${pickup.id}/runs/${pickupRun.id}`)).status === 'completed') break;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return {
    organization,
    sourceId: source.id,
    datasetId: dataset.id,
    transactionIds,
    matchId: matched.matches[0].id,
    groupId: matched.groupId,
    clientId: client.clientId,
    secretId: secret.secretId,
    importId: imported.body.id,
    ruleId: rule.id,
    runId: run.id,
    suggestionId: suggestions.suggestions[0].id,
    userId: people.users[0].id,
    endpointId: endpoint.id,
    deliveryId: delivery.id,
    reconciliationId: reconciliation.id,
    connectionId: connection.id,
    pickupId: pickup.id,
    pickupRunId: pickupRun.id,
    marker,
  };
}

interface Probe {
  method: string;
  /** The OpenAPI path template below /v1/api/{orgId}. */
  template: string;
  path: (holdings: Holdings) => string;
  body?: (holdings: Holdings) => unknown;
  headers?: Record<string, string>;
  /** Whether the request names the other organization's ids (else it can only answer with the caller's own data). */
  namesForeignIds: boolean;
}

/** Every operation under /v1/api/{orgId}; the test fails if a route is missing here. */
const probes: Probe[] = [
  { method: 'POST', template: '/transactions', path: () => '/transactions', body: (h) => ({ datasetId: h.datasetId }), namesForeignIds: true },
  { method: 'GET', template: '/transactions/{transactionId}', path: (h) => `/transactions/${h.transactionIds[0]}`, namesForeignIds: true },
  {
    method: 'PATCH',
    template: '/transactions/{transactionId}',
    path: (h) => `/transactions/${h.transactionIds[2]}`,
    body: () => ({ reconciliationStatus: 'out of scope' }),
    namesForeignIds: true,
  },
  { method: 'GET', template: '/sources', path: () => '/sources', namesForeignIds: false },
  { method: 'POST', template: '/sources', path: () => '/sources', body: () => ({ name: 'intruder source' }), namesForeignIds: false },
  { method: 'PATCH', template: '/sources/{sourceId}', path: (h) => `/sources/${h.sourceId}`, body: () => ({ name: 'intruder source' }), namesForeignIds: true },
  {
    method: 'POST',
    template: '/sources/{sourceId}/datasets',
    path: (h) => `/sources/${h.sourceId}/datasets`,
    body: () => ({ name: 'intruder dataset', columns: [] }),
    namesForeignIds: true,
  },
  {
    method: 'POST',
    template: '/datasets/{datasetId}/transactions',
    path: (h) => `/datasets/${h.datasetId}/transactions`,
    body: () => ({ records: [{ timestamp: 1_700_000_000_999, description: 'intruder' }] }),
    namesForeignIds: true,
  },
  {
    method: 'POST',
    template: '/matches',
    path: () => '/matches',
    body: (h) => ({ links: [{ originId: h.transactionIds[1], targetId: h.transactionIds[2] }] }),
    namesForeignIds: true,
  },
  { method: 'DELETE', template: '/matches/{matchId}', path: (h) => `/matches/${h.matchId}`, namesForeignIds: true },
  { method: 'DELETE', template: '/match-groups/{groupId}', path: (h) => `/match-groups/${h.groupId}`, namesForeignIds: true },
  { method: 'GET', template: '/audit-events', path: (h) => `/audit-events?transactionId=${h.transactionIds[0]}`, namesForeignIds: true },
  { method: 'GET', template: '/clients', path: () => '/clients', namesForeignIds: false },
  { method: 'POST', template: '/clients', path: () => '/clients', body: () => ({ name: 'intruder client', role: 'View-only' }), namesForeignIds: false },
  { method: 'DELETE', template: '/clients/{clientId}', path: (h) => `/clients/${h.clientId}`, namesForeignIds: true },
  { method: 'POST', template: '/clients/{clientId}/secrets', path: (h) => `/clients/${h.clientId}/secrets`, namesForeignIds: true },
  {
    method: 'DELETE',
    template: '/clients/{clientId}/secrets/{secretId}',
    path: (h) => `/clients/${h.clientId}/secrets/${h.secretId}`,
    namesForeignIds: true,
  },
  {
    method: 'POST',
    template: '/datasets/{datasetId}/imports',
    path: (h) => `/datasets/${h.datasetId}/imports`,
    body: () => csvFile('intruder'),
    headers: csvHeaders,
    namesForeignIds: true,
  },
  {
    method: 'POST',
    template: '/datasets/{datasetId}/imports/preview',
    path: (h) => `/datasets/${h.datasetId}/imports/preview`,
    body: () => csvFile('intruder'),
    headers: csvHeaders,
    namesForeignIds: true,
  },
  { method: 'GET', template: '/imports', path: (h) => `/imports?datasetId=${h.datasetId}`, namesForeignIds: true },
  { method: 'GET', template: '/imports/{importId}', path: (h) => `/imports/${h.importId}`, namesForeignIds: true },
  { method: 'GET', template: '/imports/{importId}/undo-preview', path: (h) => `/imports/${h.importId}/undo-preview`, namesForeignIds: true },
  { method: 'DELETE', template: '/imports/{importId}', path: (h) => `/imports/${h.importId}?unmatch=true`, namesForeignIds: true },
  {
    method: 'PATCH',
    template: '/datasets/{datasetId}',
    path: (h) => `/datasets/${h.datasetId}`,
    body: () => ({ accountId: 'DE89370400440532013000', currency: 'USD' }),
    namesForeignIds: true,
  },
  { method: 'GET', template: '/datasets/{datasetId}/import-mappings', path: (h) => `/datasets/${h.datasetId}/import-mappings`, namesForeignIds: true },
  {
    method: 'GET',
    template: '/datasets/{datasetId}/import-mappings/{name}',
    path: (h) => `/datasets/${h.datasetId}/import-mappings/${h.marker}-mapping`,
    namesForeignIds: true,
  },
  {
    method: 'PUT',
    template: '/datasets/{datasetId}/import-mappings/{name}',
    path: (h) => `/datasets/${h.datasetId}/import-mappings/${h.marker}-mapping`,
    body: () => MAPPING,
    namesForeignIds: true,
  },
  {
    method: 'DELETE',
    template: '/datasets/{datasetId}/import-mappings/{name}',
    path: (h) => `/datasets/${h.datasetId}/import-mappings/${h.marker}-mapping`,
    namesForeignIds: true,
  },
  { method: 'GET', template: '/rules', path: () => '/rules', namesForeignIds: false },
  // A rule naming another organization's dataset is a rule problem (400 at /origin/datasetIds/0), not a 404.
  { method: 'POST', template: '/rules', path: () => '/rules', body: (h) => ruleBody('intruder', h.datasetId, h.datasetId), namesForeignIds: false },
  {
    method: 'POST',
    template: '/rules/validate',
    path: (h) => `/rules/validate?ruleId=${h.ruleId}`,
    body: () => ({ name: 'intruder rule' }),
    namesForeignIds: true,
  },
  { method: 'POST', template: '/rules/reorder', path: () => '/rules/reorder', body: (h) => ({ ruleIds: [h.ruleId] }), namesForeignIds: true },
  { method: 'GET', template: '/rules/{ruleId}', path: (h) => `/rules/${h.ruleId}`, namesForeignIds: true },
  { method: 'PATCH', template: '/rules/{ruleId}', path: (h) => `/rules/${h.ruleId}`, body: () => ({ name: 'intruder rule' }), namesForeignIds: true },
  { method: 'DELETE', template: '/rules/{ruleId}', path: (h) => `/rules/${h.ruleId}`, namesForeignIds: true },
  { method: 'GET', template: '/rules/{ruleId}/versions', path: (h) => `/rules/${h.ruleId}/versions`, namesForeignIds: true },
  // Another organization's rule ids are a request problem (400 at /ruleIds/0), never a run.
  { method: 'POST', template: '/runs', path: () => '/runs', body: (h) => ({ mode: 'dry-run', ruleIds: [h.ruleId] }), namesForeignIds: false },
  { method: 'GET', template: '/runs', path: () => '/runs', namesForeignIds: false },
  { method: 'GET', template: '/runs/{runId}', path: (h) => `/runs/${h.runId}`, namesForeignIds: true },
  { method: 'GET', template: '/runs/{runId}/results', path: (h) => `/runs/${h.runId}/results?kind=suggestions`, namesForeignIds: true },
  { method: 'POST', template: '/runs/{runId}/commit', path: (h) => `/runs/${h.runId}/commit`, namesForeignIds: true },
  { method: 'POST', template: '/runs/{runId}/revert', path: (h) => `/runs/${h.runId}/revert`, body: () => ({ note: 'intruder' }), namesForeignIds: true },
  { method: 'POST', template: '/runs/{runId}/cancel', path: (h) => `/runs/${h.runId}/cancel`, namesForeignIds: true },
  { method: 'DELETE', template: '/runs/{runId}', path: (h) => `/runs/${h.runId}`, namesForeignIds: true },
  { method: 'GET', template: '/suggestions', path: () => '/suggestions', namesForeignIds: false },
  { method: 'GET', template: '/suggestions/{suggestionId}', path: (h) => `/suggestions/${h.suggestionId}`, namesForeignIds: true },
  {
    method: 'POST',
    template: '/suggestions/{suggestionId}/confirm',
    path: (h) => `/suggestions/${h.suggestionId}/confirm`,
    body: () => ({ option: 0 }),
    namesForeignIds: true,
  },
  {
    method: 'POST',
    template: '/suggestions/{suggestionId}/reject',
    path: (h) => `/suggestions/${h.suggestionId}/reject`,
    body: () => ({ reason: 'intruder' }),
    namesForeignIds: true,
  },
  {
    method: 'POST',
    template: '/suggestions/bulk',
    path: () => '/suggestions/bulk',
    body: (h) => ({ ids: [h.suggestionId], action: 'reject' }),
    namesForeignIds: true,
  },
  { method: 'GET', template: '/match-groups/{groupId}', path: (h) => `/match-groups/${h.groupId}`, namesForeignIds: true },
  { method: 'GET', template: '/users', path: () => '/users', namesForeignIds: false },
  { method: 'GET', template: '/datasets/{datasetId}/summary', path: (h) => `/datasets/${h.datasetId}/summary`, namesForeignIds: true },
  { method: 'GET', template: '/dataset-overview', path: () => '/dataset-overview', namesForeignIds: false },
  {
    method: 'POST',
    template: '/invitations',
    path: () => '/invitations',
    body: () => ({ email: 'intruder@example.com', role: 'Administrator' }),
    namesForeignIds: false,
  },
  { method: 'PATCH', template: '/users/{userId}', path: (h) => `/users/${h.userId}`, body: () => ({ active: false }), namesForeignIds: true },
  {
    method: 'GET',
    template: '/transactions/{transactionId}/candidates',
    path: (h) => `/transactions/${h.transactionIds[2]}/candidates`,
    namesForeignIds: true,
  },
  { method: 'GET', template: '/events', path: () => '/events?limit=1000', namesForeignIds: false },
  { method: 'GET', template: '/webhook-endpoints', path: () => '/webhook-endpoints', namesForeignIds: false },
  {
    method: 'POST',
    template: '/webhook-endpoints',
    path: () => '/webhook-endpoints',
    body: () => ({ url: `${receiverUrl}/intruder` }),
    namesForeignIds: false,
  },
  { method: 'GET', template: '/webhook-endpoints/{endpointId}', path: (h) => `/webhook-endpoints/${h.endpointId}`, namesForeignIds: true },
  {
    method: 'PATCH',
    template: '/webhook-endpoints/{endpointId}',
    path: (h) => `/webhook-endpoints/${h.endpointId}`,
    body: () => ({ enabled: false }),
    namesForeignIds: true,
  },
  { method: 'DELETE', template: '/webhook-endpoints/{endpointId}', path: (h) => `/webhook-endpoints/${h.endpointId}`, namesForeignIds: true },
  {
    method: 'POST',
    template: '/webhook-endpoints/{endpointId}/rotate-secret',
    path: (h) => `/webhook-endpoints/${h.endpointId}/rotate-secret`,
    namesForeignIds: true,
  },
  { method: 'POST', template: '/webhook-endpoints/{endpointId}/test', path: (h) => `/webhook-endpoints/${h.endpointId}/test`, namesForeignIds: true },
  {
    method: 'GET',
    template: '/webhook-endpoints/{endpointId}/deliveries',
    path: (h) => `/webhook-endpoints/${h.endpointId}/deliveries`,
    namesForeignIds: true,
  },
  {
    method: 'GET',
    template: '/webhook-endpoints/{endpointId}/deliveries/{deliveryId}',
    path: (h) => `/webhook-endpoints/${h.endpointId}/deliveries/${h.deliveryId}`,
    namesForeignIds: true,
  },
  {
    method: 'POST',
    template: '/webhook-endpoints/{endpointId}/deliveries/{deliveryId}/redeliver',
    path: (h) => `/webhook-endpoints/${h.endpointId}/deliveries/${h.deliveryId}/redeliver`,
    namesForeignIds: true,
  },
  { method: 'GET', template: '/reconciliations', path: () => '/reconciliations', namesForeignIds: false },
  // Another organization's datasets are a request problem (400 at /bankDatasetIds/0), not a 404.
  {
    method: 'POST',
    template: '/reconciliations',
    path: () => '/reconciliations',
    body: (h) => ({ name: 'intruder', currency: 'EUR', bankDatasetIds: [h.datasetId], ledgerDatasetIds: [h.datasetId], ledgerOpeningDate: '2023-11-01' }),
    namesForeignIds: false,
  },
  { method: 'GET', template: '/reconciliations/{reconciliationId}', path: (h) => `/reconciliations/${h.reconciliationId}`, namesForeignIds: true },
  {
    method: 'PATCH',
    template: '/reconciliations/{reconciliationId}',
    path: (h) => `/reconciliations/${h.reconciliationId}`,
    body: () => ({ name: 'intruder' }),
    namesForeignIds: true,
  },
  {
    method: 'GET',
    template: '/reconciliations/{reconciliationId}/periods',
    path: (h) => `/reconciliations/${h.reconciliationId}/periods`,
    namesForeignIds: true,
  },
  {
    method: 'GET',
    template: '/reconciliations/{reconciliationId}/statement',
    path: (h) => `/reconciliations/${h.reconciliationId}/statement?periodEnd=2023-11-30`,
    namesForeignIds: true,
  },
  {
    method: 'GET',
    template: '/reconciliations/{reconciliationId}/statement-items',
    path: (h) => `/reconciliations/${h.reconciliationId}/statement-items?periodEnd=2023-11-30&line=bank-payments`,
    namesForeignIds: true,
  },
  ...(['statement.pdf', 'statement.xlsx', 'statement-items.csv', 'journal-entries', 'journal-entries.csv'] as const).map((file) => ({
    method: 'GET',
    template: `/reconciliations/{reconciliationId}/${file}`,
    path: (h: Holdings) => `/reconciliations/${h.reconciliationId}/${file}?periodEnd=2023-11-30`,
    namesForeignIds: true,
  })),
  ...(['prepare', 'approve', 'reopen'] as const).map((step) => ({
    method: 'POST',
    template: `/reconciliations/{reconciliationId}/periods/{periodEnd}/${step}`,
    path: (h: Holdings) => `/reconciliations/${h.reconciliationId}/periods/2023-11-30/${step}`,
    body: () => (step === 'reopen' ? { reason: 'intruder' } : { note: 'intruder' }),
    namesForeignIds: true,
  })),
  // The exceptions queue. Beta has no reconciliation here: its dataset's id stands for a foreign id.
  {
    method: 'GET',
    template: '/reconciliations/{reconciliationId}/exceptions',
    path: (h) => `/reconciliations/${h.datasetId}/exceptions`,
    namesForeignIds: true,
  },
  { method: 'GET', template: '/assignees', path: () => '/assignees', namesForeignIds: false },
  {
    method: 'POST',
    template: '/exceptions/assign',
    path: () => '/exceptions/assign',
    body: (h) => ({ transactionIds: [h.transactionIds[2]], assigneeUserId: null }),
    namesForeignIds: true,
  },
  { method: 'GET', template: '/exceptions/{transactionId}', path: (h) => `/exceptions/${h.transactionIds[2]}`, namesForeignIds: true },
  {
    method: 'PATCH',
    template: '/exceptions/{transactionId}',
    path: (h) => `/exceptions/${h.transactionIds[2]}`,
    body: () => ({ holdReason: 'intruder' }),
    namesForeignIds: true,
  },
  {
    method: 'POST',
    template: '/exceptions/{transactionId}/comments',
    path: (h) => `/exceptions/${h.transactionIds[2]}/comments`,
    body: () => ({ body: 'intruder' }),
    namesForeignIds: true,
  },
  {
    method: 'POST',
    template: '/exceptions/{transactionId}/resolve',
    path: (h) => `/exceptions/${h.transactionIds[2]}/resolve`,
    body: () => ({ resolution: 'note', note: 'intruder' }),
    namesForeignIds: true,
  },
  {
    method: 'POST',
    template: '/exceptions/{transactionId}/reopen',
    path: (h) => `/exceptions/${h.transactionIds[2]}/reopen`,
    body: () => ({}),
    namesForeignIds: true,
  },
  // Connections: another organization's connection, pickup or run is a 404 however it is named.
  { method: 'GET', template: '/connections', path: () => '/connections', namesForeignIds: false },
  {
    method: 'POST',
    template: '/connections',
    path: () => '/connections',
    body: () => ({ name: 'intruder', kind: 'folder', folderPath: '.' }),
    namesForeignIds: false,
  },
  { method: 'GET', template: '/connections/{connectionId}', path: (h) => `/connections/${h.connectionId}`, namesForeignIds: true },
  {
    method: 'PATCH',
    template: '/connections/{connectionId}',
    path: (h) => `/connections/${h.connectionId}`,
    body: () => ({ name: 'intruder' }),
    namesForeignIds: true,
  },
  { method: 'DELETE', template: '/connections/{connectionId}', path: (h) => `/connections/${h.connectionId}`, namesForeignIds: true },
  { method: 'POST', template: '/connections/{connectionId}/test', path: (h) => `/connections/${h.connectionId}/test`, namesForeignIds: true },
  { method: 'GET', template: '/connections/{connectionId}/pickups', path: (h) => `/connections/${h.connectionId}/pickups`, namesForeignIds: true },
  {
    method: 'POST',
    template: '/connections/{connectionId}/pickups',
    path: (h) => `/connections/${h.connectionId}/pickups`,
    body: () => ({ path: '/', pattern: '*', intervalMinutes: 5, routeByAccount: true }),
    namesForeignIds: true,
  },
  {
    method: 'GET',
    template: '/connections/{connectionId}/pickups/{pickupId}',
    path: (h) => `/connections/${h.connectionId}/pickups/${h.pickupId}`,
    namesForeignIds: true,
  },
  {
    method: 'PATCH',
    template: '/connections/{connectionId}/pickups/{pickupId}',
    path: (h) => `/connections/${h.connectionId}/pickups/${h.pickupId}`,
    body: () => ({ enabled: false }),
    namesForeignIds: true,
  },
  {
    method: 'DELETE',
    template: '/connections/{connectionId}/pickups/{pickupId}',
    path: (h) => `/connections/${h.connectionId}/pickups/${h.pickupId}`,
    namesForeignIds: true,
  },
  {
    method: 'POST',
    template: '/connections/{connectionId}/pickups/{pickupId}/run',
    path: (h) => `/connections/${h.connectionId}/pickups/${h.pickupId}/run`,
    namesForeignIds: true,
  },
  {
    method: 'GET',
    template: '/connections/{connectionId}/pickups/{pickupId}/runs',
    path: (h) => `/connections/${h.connectionId}/pickups/${h.pickupId}/runs`,
    namesForeignIds: true,
  },
  {
    method: 'GET',
    template: '/connections/{connectionId}/pickups/{pickupId}/runs/{runId}',
    path: (h) => `/connections/${h.connectionId}/pickups/${h.pickupId}/runs/${h.pickupRunId}`,
    namesForeignIds: true,
  },
];

for (const kind of storeKinds()) {
  describe(`tenant isolation matrix (${kind})`, () => {
    let server: TestServer;
    let alpha: Holdings;
    let beta: Holdings;
    let betaSnapshot: string;

    /** Everything of beta's that a request could read or change, as one comparable text. */
    async function snapshotOf(holdings: Holdings): Promise<string> {
      const base = `/v1/api/${holdings.organization.orgId}`;
      const token = holdings.organization.token;
      const parts = await Promise.all([
        api(server, token, 'GET', `${base}/sources`),
        api(server, token, 'POST', `${base}/transactions`, { datasetId: holdings.datasetId, limit: 1000 }),
        api(server, token, 'GET', `${base}/clients`),
        api(server, token, 'GET', `${base}/audit-events?limit=1000`),
        api(server, token, 'GET', `${base}/imports?limit=200`),
        api(server, token, 'GET', `${base}/datasets/${holdings.datasetId}/import-mappings`),
        api(server, token, 'GET', `${base}/rules`),
        api(server, token, 'GET', `${base}/runs`),
        api(server, token, 'GET', `${base}/suggestions`),
        api(server, token, 'GET', `${base}/users`),
        api(server, token, 'GET', `${base}/webhook-endpoints`),
        api(server, token, 'GET', `${base}/connections`),
        api(server, token, 'GET', `${base}/connections/${holdings.connectionId}/pickups`),
        api(server, token, 'GET', `${base}/events?limit=1000`),
      ]);
      for (const part of parts) assert.equal(part.status, 200, JSON.stringify(part.body));
      return JSON.stringify(parts.map((part) => part.body));
    }

    let receiver: Server;

    before(async () => {
      receiver = createServer((request, response) => {
        request.resume();
        request.on('end', () => response.writeHead(204).end());
      });
      await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
      receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}`;
      folderRoot = await mkdtemp(path.join(tmpdir(), 'isolation-folders-'));
      server = await startTestServer(kind, { webhookAllowPrivateTargets: true, connectorFolderRoot: folderRoot });
      alpha = await populate(server, 'ALPHA');
      beta = await populate(server, 'BETA');
      betaSnapshot = await snapshotOf(beta);
    });
    after(async () => {
      await server.close();
      await new Promise((resolve) => receiver.close(resolve));
    });

    it('covers every operation of the API', async () => {
      const document = (await api(server, null, 'GET', '/openapi.json')).body as { paths: Record<string, Record<string, unknown>> };
      const operations = Object.entries(document.paths)
        .filter(([path]) => path.startsWith('/v1/api/{orgId}'))
        .flatMap(([path, methods]) => Object.keys(methods).map((method) => `${method.toUpperCase()} ${path.slice('/v1/api/{orgId}'.length)}`));
      const covered = new Set(probes.map((probe) => `${probe.method} ${probe.template}`));
      const missing = operations.filter((operation) => !covered.has(operation));
      assert.deepEqual(missing, [], 'add these operations to the isolation matrix');
    });

    for (const probe of probes) {
      it(`${probe.method} ${probe.template}: alpha's token never reaches beta's data`, async () => {
        const token = alpha.organization.token;
        // Alpha's token on beta's organization path is refused outright.
        const onBetaPath = await api(server, token, probe.method, `/v1/api/${beta.organization.orgId}${probe.path(beta)}`, probe.body?.(beta), probe.headers);
        assert.equal(onBetaPath.status, 403, JSON.stringify(onBetaPath.body));
        assert.ok(!JSON.stringify(onBetaPath.body).includes(beta.marker));

        // Alpha's token on alpha's path: beta's ids are unknown here, and beta's data never shows.
        const onAlphaPath = await api(server, token, probe.method, `/v1/api/${alpha.organization.orgId}${probe.path(beta)}`, probe.body?.(beta), probe.headers);
        if (probe.namesForeignIds) {
          assert.ok(onAlphaPath.status >= 400 && onAlphaPath.status < 500, `${onAlphaPath.status} ${JSON.stringify(onAlphaPath.body)}`);
          assert.equal(onAlphaPath.status, 404, JSON.stringify(onAlphaPath.body));
        }
        assert.ok(!JSON.stringify(onAlphaPath.body).includes(beta.marker), JSON.stringify(onAlphaPath.body));
      });
    }

    it("leaves beta's data exactly as it was", async () => {
      assert.equal(await snapshotOf(beta), betaSnapshot);
      // And beta's credentials still work.
      const response = await api(server, beta.organization.token, 'GET', `/v1/api/${beta.organization.orgId}/sources`);
      assert.equal(response.status, 200);
    });
  });
}
