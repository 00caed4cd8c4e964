import assert from 'node:assert/strict';
import { api, createTestOrganization, type TestOrganization, type TestServer } from './harness.ts';

/** One organization on a server, with helpers that go through the API like any client. */
export async function workspace(server: TestServer) {
  const organization: TestOrganization = await createTestOrganization(server);
  const base = `/v1/api/${organization.orgId}`;
  const call = async (method: string, path: string, body?: unknown, expected?: number) => {
    const response = await api(server, organization.token, method, `${base}${path}`, body);
    if (expected !== undefined) assert.equal(response.status, expected, `${method} ${path}: ${JSON.stringify(response.body)}`);
    return response;
  };
  const source = (await call('POST', '/sources', { name: 'Bank' }, 201)).body;
  const bank = (await call('POST', `/sources/${source.id}/datasets`, { name: 'Statements' }, 201)).body.id as string;
  const ledger = (await call('POST', `/sources/${source.id}/datasets`, { name: 'Ledger' }, 201)).body.id as string;
  let counter = 0;
  /** Ingests one bank and one ledger line of the same amount and matches them: 3 events. */
  const matchPair = async () => {
    counter += 1;
    const record = (side: string) => ({
      externalId: `${side}-${counter}`,
      timestamp: 1_700_000_000_000 + counter,
      description: `${side} ${counter}`,
      amount: '42.10',
      currency: 'EUR',
    });
    await call('POST', `/datasets/${bank}/transactions`, { records: [record('bank')] }, 200);
    await call('POST', `/datasets/${ledger}/transactions`, { records: [record('ledger')] }, 200);
    const find = async (datasetId: string, description: string) =>
      (await call('POST', '/transactions', { datasetId, limit: 1000 }, 200)).body.find(
        (transaction: { description: string }) => transaction.description === description,
      );
    const origin = await find(bank, `bank ${counter}`);
    const target = await find(ledger, `ledger ${counter}`);
    const matched = (await call('POST', '/matches', { links: [{ originId: origin.id, targetId: target.id }] }, 201)).body;
    return { originId: origin.id as string, targetId: target.id as string, groupId: matched.groupId as string };
  };
  const events = async (query = '') => (await call('GET', `/events${query}`, undefined, 200)).body;
  /** Every event from the start of the feed. */
  const allEvents = async () => {
    const found: any[] = [];
    let cursor: string | null = null;
    for (;;) {
      const page: any = await events(`?limit=1000${cursor ? `&cursor=${cursor}` : ''}`);
      found.push(...page.events);
      cursor = page.nextCursor;
      if (!page.hasMore) return found;
    }
  };
  const createEndpoint = async (url: string, extra: Record<string, unknown> = {}) => (await call('POST', '/webhook-endpoints', { url, ...extra }, 201)).body;
  /** An endpoint's deliveries, newest first (up to 200). */
  const deliveries = async (endpointId: string) =>
    (await call('GET', `/webhook-endpoints/${endpointId}/deliveries?limit=200`, undefined, 200)).body.deliveries as any[];
  return { organization, call, bank, ledger, matchPair, events, allEvents, createEndpoint, deliveries };
}
