import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import pg from 'pg';
import { api, createTestOrganization, postgresSkipReason, startTestServer, type TestOrganization, type TestServer } from '../../support/harness.ts';

/**
 * A request that meets a busy database (here: a lock held by other work past the store's
 * statement timeout) is answered 503 with Retry-After and a message that says nothing was
 * changed, and the same request succeeds once the database is free. PostgreSQL only: the
 * embedded store serves one connection, so nothing else can hold a lock while a request waits.
 */
describe('a busy database (postgres)', { skip: postgresSkipReason }, () => {
  let server: TestServer;
  let organization: TestOrganization;
  let holder: pg.Client;

  before(async () => {
    server = await startTestServer('postgres', { queryTimeoutMilliseconds: 300 });
    organization = await createTestOrganization(server);
    holder = new pg.Client({ connectionString: server.config.databaseUrl! });
    await holder.connect();
  });
  after(async () => {
    await holder.end();
    await server.close();
  });

  it('answers 503 with Retry-After while the events feed is locked by other work, and 200 once it is free', async () => {
    const path = `/v1/api/${organization.orgId}/events`;
    // A schema change, say, holds the events table; reading the feed waits past the statement timeout.
    await holder.query('BEGIN');
    let busy: Awaited<ReturnType<typeof api>>;
    try {
      await holder.query('LOCK TABLE events IN ACCESS EXCLUSIVE MODE');
      busy = await api(server, organization.token, 'GET', path);
    } finally {
      await holder.query('ROLLBACK');
    }
    assert.equal(busy.status, 503, JSON.stringify(busy.body));
    assert.equal(busy.headers.get('retry-after'), '1');
    assert.equal(busy.body.error.code, 503);
    assert.match(busy.body.error.message, /did not answer in time.*nothing was changed; send the request again/);

    const free = await api(server, organization.token, 'GET', path);
    assert.equal(free.status, 200, JSON.stringify(free.body));
  });

  it("answers a token request 503 temporarily_unavailable, in the token endpoint's own form, while the clients table is locked", async () => {
    const request = () =>
      fetch(`${server.baseUrl}/oauth/token`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({
          grant_type: 'client_credentials',
          client_id: organization.clientId,
          client_secret: organization.clientSecret,
          audience: server.config.audience,
        }),
      });
    // The token endpoint reads a client at most once a second (CLIENT_CACHE_MILLISECONDS): past
    // that, the next request reads the table.
    server.clock.advance(1_100);
    // A schema change, say, holds the table; every read of it waits past the statement timeout.
    await holder.query('BEGIN');
    let busy: Response;
    try {
      await holder.query('LOCK TABLE api_clients IN ACCESS EXCLUSIVE MODE');
      busy = await request();
    } finally {
      await holder.query('ROLLBACK');
    }
    const body = (await busy.json()) as { error: string; error_description: string };
    assert.equal(busy.status, 503, JSON.stringify(body));
    assert.equal(busy.headers.get('retry-after'), '1');
    assert.equal(busy.headers.get('cache-control'), 'no-store');
    assert.equal(body.error, 'temporarily_unavailable');
    assert.match(body.error_description, /did not answer in time/);
    assert.equal((await request()).status, 200);
  });

  it('answers 503 to a write that waits on a locked row, and the write is not carried out', async () => {
    const source = await api(server, organization.token, 'POST', `/v1/api/${organization.orgId}/sources`, { name: 'Bank' });
    assert.equal(source.status, 201, JSON.stringify(source.body));
    const dataset = await api(server, organization.token, 'POST', `/v1/api/${organization.orgId}/sources/${source.body.id}/datasets`, {
      name: 'Statement',
      columns: [],
    });
    assert.equal(dataset.status, 201, JSON.stringify(dataset.body));
    const records = [{ externalId: 'B-1', timestamp: 1735689600000, description: 'Payment', amount: '10.00', currency: 'EUR' }];
    const ingest = () =>
      api(
        server,
        organization.token,
        'POST',
        `/v1/api/${organization.orgId}/datasets/${dataset.body.id}/transactions`,
        { records },
        { 'idempotency-key': 'busy-ingest-1' },
      );

    // Another session holds the dataset's row, which every ingest into it locks first.
    await holder.query('BEGIN');
    await holder.query('SELECT 1 FROM datasets WHERE id = $1 FOR UPDATE', [dataset.body.id]);
    const busy = await ingest();
    await holder.query('ROLLBACK');
    assert.equal(busy.status, 503, JSON.stringify(busy.body));
    assert.equal(busy.headers.get('retry-after'), '1');
    const stored = await server.database.query<{ count: number }>('SELECT count(*)::integer AS count FROM transactions WHERE dataset_id = $1', [
      dataset.body.id,
    ]);
    assert.equal(stored[0]!.count, 0, 'the refused ingest stored nothing');

    // The same request, with the same key, is carried out once the row is free: the key was not spent.
    const retried = await ingest();
    assert.equal(retried.status, 200, JSON.stringify(retried.body));
    assert.equal(retried.headers.get('idempotent-replayed'), null);
    assert.equal(retried.body.inserted, 1);
  });
});
