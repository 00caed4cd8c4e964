import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { api, createTestOrganization, startTestServer, storeKinds, type TestOrganization, type TestServer } from '../../support/harness.ts';

for (const kind of storeKinds()) {
  describe(`API conventions (${kind})`, () => {
    let server: TestServer;
    let organization: TestOrganization;
    let base: string;
    let datasetId: string;

    before(async () => {
      server = await startTestServer(kind);
      organization = await createTestOrganization(server);
      base = `/v1/api/${organization.orgId}`;
      const source = await api(server, organization.token, 'POST', `${base}/sources`, { name: 'Bank' });
      const dataset = await api(server, organization.token, 'POST', `${base}/sources/${source.body.id}/datasets`, {
        name: 'Statements',
        columns: [{ name: 'counterparty', type: 'string' }],
      });
      datasetId = dataset.body.id;
    });
    after(async () => server.close());

    it('refuses a NUL character with a 400 naming the record and column, and stores nothing', async () => {
      const response = await api(server, organization.token, 'POST', `${base}/datasets/${datasetId}/transactions`, {
        records: [
          { timestamp: 1, description: 'fine' },
          { timestamp: 2, counterparty: 'bad\u0000name' },
        ],
      });
      assert.equal(response.status, 400, JSON.stringify(response.body));
      assert.ok(
        response.body.error.details.some((detail: { path: string }) => detail.path === '/records/1/counterparty'),
        JSON.stringify(response.body),
      );
      const page = await api(server, organization.token, 'POST', `${base}/transactions`, { datasetId });
      assert.deepEqual(page.body, []);
    });

    it('answers a NUL character anywhere else with a 400, never a 500', async () => {
      const source = await api(server, organization.token, 'POST', `${base}/sources`, { name: 'a\u0000b' });
      assert.equal(source.status, 400, JSON.stringify(source.body));
      assert.deepEqual(
        source.body.error.details.map((detail: { path: string }) => detail.path),
        ['/name'],
      );
      assert.match(source.body.error.message, /NUL/);
      const search = await api(server, organization.token, 'POST', `${base}/transactions`, {
        datasetId,
        search: [{ path: 'description', search: { type: 'string', value: 'a\u0000b' } }],
      });
      assert.equal(search.status, 400, JSON.stringify(search.body));
      assert.equal(search.body.error.details[0].path, '/search/0/search/value');
    });

    it('says in one sentence what an integer field takes', async () => {
      for (const limit of [1.5, 'abc', true]) {
        const response = await api(server, organization.token, 'POST', `${base}/transactions`, { datasetId, limit });
        assert.equal(response.status, 400);
        assert.deepEqual(response.body.error.details, [
          { path: '/limit', message: 'must be an integer from 1 to 1000 (a string of digits such as "100" is accepted too)' },
        ]);
      }
    });

    it('reports every malformed SearchQuery by its index, with the valid paths', async () => {
      const malformed = [
        { path: 'description', search: { type: 'strng', value: 'x' } },
        { path: 'description', search: { type: 'string', value: 'x', bogus: 1 } },
        { path: 'description' },
        { path: 'description', search: { type: 'string' } },
        { path: 'amount', search: { type: 'money', value: { start: '100000000000000000.1', end: '100000000000000000.0' } } },
      ];
      for (const query of malformed) {
        const response = await api(server, organization.token, 'POST', `${base}/transactions`, {
          datasetId,
          search: [{ path: 'type', search: { type: 'string', value: 'fee' } }, query],
        });
        assert.equal(response.status, 400, JSON.stringify(query));
        assert.match(response.body.error.details[0].path, /^\/search\/1(\/|$)/, JSON.stringify(response.body));
        assert.match(response.body.error.message, /counterparty/, `valid paths are listed: ${response.body.error.message}`);
      }
    });

    it('names a misspelt required field, and lists the allowed values of a choice', async () => {
      const misspelt = await api(server, organization.token, 'POST', `${base}/transactions`, { datasetid: datasetId });
      assert.equal(misspelt.status, 400);
      assert.deepEqual(misspelt.body.error.details, [
        { path: '/datasetId', message: 'is required; unknown property "datasetid" found instead (check the spelling)' },
      ]);
      const role = await api(server, organization.token, 'POST', `${base}/clients`, { name: 'robot', role: 'viewer' });
      assert.equal(role.status, 400);
      assert.match(role.body.error.message, /\/role: must be one of "Administrator", "Full member", "View-only"/);
    });

    it('answers a body of another media type with 415, and takes a bodiless DELETE sent with a JSON content type', async () => {
      const plain = await api(server, organization.token, 'POST', `${base}/transactions`, JSON.stringify({ datasetId }), { 'content-type': 'text/plain' });
      assert.equal(plain.status, 415, JSON.stringify(plain.body));
      assert.match(plain.body.error.message, /application\/json/);
      const deletion = await api(server, organization.token, 'DELETE', `${base}/matches/00000000-0000-4000-8000-000000000000`, undefined, {
        'content-type': 'application/json',
      });
      assert.equal(deletion.status, 404, JSON.stringify(deletion.body));
    });

    it('says how to send money that a JSON number cannot carry exactly, and that an allocation must be positive', async () => {
      const long = await api(server, organization.token, 'POST', `${base}/datasets/${datasetId}/transactions`, {
        // eslint-disable-next-line no-loss-of-precision -- the point: an amount a JSON number cannot carry exactly
        records: [{ timestamp: 3, amount: 12345678901234567.5 }],
      });
      assert.equal(long.status, 400);
      assert.match(long.body.error.message, /more than 15 significant digits.*send the amount as a decimal string/);
      const negative = await api(server, organization.token, 'POST', `${base}/matches`, {
        links: [{ originId: '00000000-0000-4000-8000-000000000001', targetId: '00000000-0000-4000-8000-000000000002', amount: '-5' }],
      });
      assert.equal(negative.status, 400);
      assert.match(negative.body.error.message, /must be a positive decimal amount such as "125.00"/);
    });

    it('accepts the organization id in capitals: UUIDs are case-insensitive', async () => {
      const response = await api(server, organization.token, 'POST', `/v1/api/${organization.orgId.toUpperCase()}/transactions`, { datasetId });
      assert.equal(response.status, 200, JSON.stringify(response.body));
    });
  });

  describe(`API rate limit (${kind})`, () => {
    let server: TestServer;
    before(async () => {
      server = await startTestServer(kind, { apiRequestsPerMinute: 3 });
    });
    after(async () => server.close());

    it('answers 429 with Retry-After in the error envelope once a client exceeds its limit', async () => {
      const organization = await createTestOrganization(server);
      const statuses: number[] = [];
      let last: Awaited<ReturnType<typeof api>> | null = null;
      for (let request = 0; request < 4; request++) {
        last = await api(server, organization.token, 'GET', `/v1/api/${organization.orgId}/sources`);
        statuses.push(last.status);
      }
      assert.deepEqual(statuses, [200, 200, 200, 429]);
      assert.ok(Number(last!.headers.get('retry-after')) >= 1);
      assert.equal(last!.body.error.code, 429);
      assert.equal(last!.body.error.status, 'Too Many Requests');
      assert.match(last!.body.error.message, /more than 3 requests a minute; retry after \d+ seconds/);
      // Another client of the same organization has its own allowance.
      const other = await createTestOrganization(server);
      assert.equal((await api(server, other.token, 'GET', `/v1/api/${other.orgId}/sources`)).status, 200);
    });
  });
}
