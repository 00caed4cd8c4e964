import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { api, createTestClient, createTestOrganization, startTestServer, storeKinds, type TestOrganization, type TestServer } from '../../support/harness.ts';
import { addTransactions, createDataset } from '../../support/recon-fixtures.ts';

const PUBLISHED_DATASET_FIELDS = [
  'id',
  'name',
  'revision',
  'status',
  'createdAt',
  'lastUpdatedBy',
  'lastUpdatedAt',
  'lastReceived',
  'latestTimestamp',
  'failures',
  'lastFile',
];

for (const kind of storeKinds()) {
  describe(`sources and datasets (${kind})`, () => {
    let server: TestServer;
    let organization: TestOrganization;
    let base: string;
    before(async () => {
      server = await startTestServer(kind);
      organization = await createTestOrganization(server);
      base = `/v1/api/${organization.orgId}`;
    });
    after(async () => server.close());

    const post = (path: string, body: unknown, token = organization.token) => api(server, token, 'POST', `${base}${path}`, body);

    it('creates a source and a dataset and lists them in the published shape, with columns and counts', async () => {
      const source = await post('/sources', { name: '  Bank of Example  ' });
      assert.equal(source.status, 201);
      assert.equal(source.body.name, 'Bank of Example');
      assert.deepEqual(source.body.datasets, []);
      const dataset = await post(`/sources/${source.body.id}/datasets`, {
        name: 'EUR current account',
        columns: [
          { name: 'vat', type: 'money' },
          { name: 'valueDate', type: 'date' },
          { name: 'booked', type: 'boolean' },
          { name: 'quantity', type: 'number' },
          { name: 'counterparty', type: 'string' },
        ],
      });
      assert.equal(dataset.status, 201, JSON.stringify(dataset.body));
      assert.equal(dataset.body.revision, 0);
      assert.equal(dataset.body.status, 'active');
      assert.equal(dataset.body.sourceId, source.body.id);
      assert.equal(dataset.body.lastUpdatedBy, `client:${organization.clientId}`);
      assert.equal(dataset.body.lastReceived, null);
      assert.equal(dataset.body.latestTimestamp, null);
      assert.deepEqual(
        dataset.body.columns.map((column: { name: string; type: string; standard: boolean }) => `${column.name}:${column.type}:${column.standard}`),
        [
          'timestamp:date:true',
          'description:string:true',
          'type:string:true',
          'reference:string:true',
          'bankReference:string:true',
          'currency:string:true',
          'amount:money:true',
          'vat:money:false',
          'valueDate:date:false',
          'booked:boolean:false',
          'quantity:number:false',
          'counterparty:string:false',
        ],
      );

      await addTransactions(server, organization, dataset.body.id, [
        { externalId: 'a', timestamp: 1_700_000_000_000, amount: '10.00' },
        { externalId: 'b', timestamp: 1_700_000_100_000, amount: '-10.00' },
      ]);

      const list = await api(server, organization.token, 'GET', `${base}/sources`);
      assert.equal(list.status, 200);
      const listed = list.body.find((entry: { id: string }) => entry.id === source.body.id);
      assert.deepEqual(Object.keys(listed).slice(0, 3), ['id', 'name', 'datasets']);
      const listedDataset = listed.datasets[0];
      for (const field of PUBLISHED_DATASET_FIELDS) assert.ok(field in listedDataset, `dataset lacks ${field}`);
      assert.deepEqual(Object.keys(listedDataset).slice(0, PUBLISHED_DATASET_FIELDS.length), PUBLISHED_DATASET_FIELDS);
      assert.equal(listedDataset.revision, 1);
      assert.equal(listedDataset.latestTimestamp, 1_700_000_100_000);
      assert.match(listedDataset.lastReceived, /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
      assert.equal(listedDataset.transactionCount, 2);
      assert.deepEqual(listedDataset.statusCounts, { none: 2, partial: 0, full: 0, informative: 0, 'out of scope': 0 });
    });

    it('refuses reserved, malformed and repeated column names, naming the column and the reason', async () => {
      const { sourceId } = await createDataset(server, organization);
      const cases: [string, RegExp][] = [
        ['amount', /standard column/],
        ['Timestamp', /standard column/],
        ['CURRENCY', /standard column/],
        ['externalId', /record's own id/],
        ['externalid', /record's own id/],
        ['reconciliationStatus', /published transaction record/],
        ['incomingMatches', /published transaction record/],
        ['outgoingmatches', /published transaction record/],
        ['datasetId', /published transaction record/],
        ['id', /published transaction record/],
        ['1st', /must start with a letter/],
        ['with space', /must start with a letter/],
        ['a'.repeat(65), /at most 64|must NOT have more than 64/],
      ];
      for (const [name, reason] of cases) {
        const response = await post(`/sources/${sourceId}/datasets`, {
          name: 'D',
          columns: [
            { name: 'fine', type: 'string' },
            { name, type: 'string' },
          ],
        });
        assert.equal(response.status, 400, name);
        assert.equal(response.body.error.details[0].path, '/columns/1/name', name);
        assert.match(response.body.error.message, reason, name);
      }
      const repeated = await post(`/sources/${sourceId}/datasets`, {
        name: 'D',
        columns: [
          { name: 'Vat', type: 'money' },
          { name: 'vAT', type: 'string' },
        ],
      });
      assert.equal(repeated.status, 400);
      assert.equal(repeated.body.error.details[0].path, '/columns/1/name');
      assert.match(repeated.body.error.message, /repeats column 0/);
    });

    it('refuses unknown column types, too many columns, unknown properties and empty names', async () => {
      const { sourceId } = await createDataset(server, organization);
      const badType = await post(`/sources/${sourceId}/datasets`, { name: 'D', columns: [{ name: 'x', type: 'float' }] });
      assert.equal(badType.status, 400);
      assert.equal(badType.body.error.details[0].path, '/columns/0/type');
      const tooMany = await post(`/sources/${sourceId}/datasets`, {
        name: 'D',
        columns: Array.from({ length: 51 }, (_, index) => ({ name: `c${index}`, type: 'string' })),
      });
      assert.equal(tooMany.status, 400);
      assert.equal(tooMany.body.error.details[0].path, '/columns');
      const fifty = await post(`/sources/${sourceId}/datasets`, {
        name: 'D',
        columns: Array.from({ length: 50 }, (_, index) => ({ name: `c${index}`, type: 'string' })),
      });
      assert.equal(fifty.status, 201);
      const unknown = await post(`/sources/${sourceId}/datasets`, { name: 'D', colums: [] });
      assert.equal(unknown.status, 400);
      assert.equal(unknown.body.error.details[0].path, '/colums');
      const blank = await post('/sources', { name: '   ' });
      assert.equal(blank.status, 400);
      assert.equal(blank.body.error.details[0].path, '/name');
      const missing = await post('/sources', {});
      assert.equal(missing.status, 400);
      assert.equal(missing.body.error.details[0].path, '/name');
    });

    it('answers 404 for an unknown source and for a source of another organization', async () => {
      const unknown = await post('/sources/00000000-0000-4000-8000-000000000000/datasets', { name: 'D', columns: [] });
      assert.equal(unknown.status, 404);
      const other = await createTestOrganization(server);
      const { sourceId } = await createDataset(server, other);
      const foreign = await post(`/sources/${sourceId}/datasets`, { name: 'D', columns: [] });
      assert.equal(foreign.status, 404);
      const list = await api(server, organization.token, 'GET', `${base}/sources`);
      assert.ok(!list.body.some((source: { id: string }) => source.id === sourceId));
      const malformed = await post('/sources/not-a-uuid/datasets', { name: 'D', columns: [] });
      assert.equal(malformed.status, 400);
    });

    it('lets a view-only client read but not write', async () => {
      const viewer = await createTestClient(server, organization.orgId, 'View-only');
      const list = await api(server, viewer.token, 'GET', `${base}/sources`);
      assert.equal(list.status, 200);
      const create = await post('/sources', { name: 'Nope' }, viewer.token);
      assert.equal(create.status, 403);
      assert.match(create.headers.get('www-authenticate') ?? '', /insufficient_scope/);
    });
  });
}
