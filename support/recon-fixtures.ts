import assert from 'node:assert/strict';
import { api, type TestOrganization, type TestServer } from './harness.ts';

/** Creates a source with one dataset through the API and returns their ids. */
export async function createDataset(
  server: TestServer,
  organization: TestOrganization,
  options: { name?: string; columns?: { name: string; type: string }[]; sourceId?: string } = {},
): Promise<{ sourceId: string; datasetId: string }> {
  let sourceId = options.sourceId;
  if (!sourceId) {
    const source = await api(server, organization.token, 'POST', `/v1/api/${organization.orgId}/sources`, { name: 'Bank' });
    assert.equal(source.status, 201, JSON.stringify(source.body));
    sourceId = source.body.id as string;
  }
  const dataset = await api(server, organization.token, 'POST', `/v1/api/${organization.orgId}/sources/${sourceId}/datasets`, {
    name: options.name ?? 'Account',
    columns: options.columns ?? [],
  });
  assert.equal(dataset.status, 201, JSON.stringify(dataset.body));
  return { sourceId, datasetId: dataset.body.id as string };
}

/**
 * Ingests records that all carry an externalId and returns the ids the service gave them, keyed
 * by externalId (read from the store, as no operation answers with them).
 */
export async function addTransactions(
  server: TestServer,
  organization: TestOrganization,
  datasetId: string,
  records: ({ externalId: string } & Record<string, unknown>)[],
): Promise<Record<string, string>> {
  const response = await api(server, organization.token, 'POST', `/v1/api/${organization.orgId}/datasets/${datasetId}/transactions`, { records });
  assert.equal(response.status, 200, JSON.stringify(response.body));
  const rows = await server.database.query<{ id: string; external_id: string }>(
    'SELECT id, external_id FROM transactions WHERE dataset_id = $1 AND external_id = ANY ($2::text[])',
    [datasetId, records.map((record) => record.externalId)],
  );
  return Object.fromEntries(rows.map((row) => [row.external_id, row.id]));
}

/** The reconciliation facts of a transaction as stored. */
export async function reconciliationOf(server: TestServer, transactionId: string) {
  const rows = await server.database.query<{ status: string; allocated: string; match_count: number; override: string | null }>(
    'SELECT reconciliation_status AS status, allocated_amount::text AS allocated, match_count, status_override AS override FROM transactions WHERE id = $1',
    [transactionId],
  );
  return rows[0]!;
}

export async function revisionOf(server: TestServer, datasetId: string): Promise<number> {
  const rows = await server.database.query<{ revision: number }>('SELECT revision FROM datasets WHERE id = $1', [datasetId]);
  return Number(rows[0]!.revision);
}
