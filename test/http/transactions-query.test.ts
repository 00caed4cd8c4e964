import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { buildApp } from '../../src/app.ts';
import { openDatabase } from '../../src/db/database.ts';
import { createServices } from '../../src/domain/services.ts';
import { api, createTestClient, createTestOrganization, startTestServer, storeKinds, type TestOrganization, type TestServer } from '../../support/harness.ts';
import { insertDataset, insertMatch, insertTransactions } from '../../support/fixtures.ts';

/**
 * The request and response contract of POST /v1/api/{orgId}/transactions (SPEC §3), through
 * the real listening server.
 */

const BASE_MS = 1_700_000_000_000;

for (const kind of storeKinds()) {
  describe(`POST /transactions (${kind})`, () => {
    let server: TestServer;
    let organization: TestOrganization;
    let other: TestOrganization;
    let datasetId: string;
    let otherDatasetId: string;
    let emptyDatasetId: string;
    /** Ids of the 150 rows of datasetId in (timestamp, id) order. */
    let orderedIds: string[];

    const query = (body: unknown, token = organization.token, orgId = organization.orgId) => api(server, token, 'POST', `/v1/api/${orgId}/transactions`, body);
    const ids = (body: Array<{ id: string }>) => body.map((record) => record.id);

    /** Asserts a 400 in the API envelope whose details name `path`. */
    function assertBadRequest(response: { status: number; body: any }, path: string, messagePart?: RegExp) {
      assert.equal(response.status, 400, JSON.stringify(response.body));
      assert.equal(response.body.error.code, 400);
      assert.equal(response.body.error.status, 'Bad Request');
      const paths = (response.body.error.details ?? []).map((detail: { path: string }) => detail.path);
      assert.ok(paths.includes(path), `expected a detail for ${path}, got ${JSON.stringify(response.body.error)}`);
      if (messagePart) assert.match(response.body.error.message, messagePart);
    }

    before(async () => {
      server = await startTestServer(kind);
      organization = await createTestOrganization(server);
      other = await createTestOrganization(server);
      datasetId = await insertDataset(server.database, organization.orgId, {
        columns: [
          { name: 'vatRate', type: 'number' },
          { name: 'fee', type: 'money' },
          { name: 'disputed', type: 'boolean' },
        ],
      });
      emptyDatasetId = await insertDataset(server.database, organization.orgId, { name: 'Empty' });
      otherDatasetId = await insertDataset(server.database, other.orgId);
      const rows = Array.from({ length: 150 }, (_, index) => ({
        id: crypto.randomUUID(),
        timestampMs: BASE_MS + Math.floor(index / 2) * 1000,
        description: index % 10 === 0 ? `Rent ${index}` : `Card payment ${index}`,
        type: 'DEBIT',
        currency: index % 3 === 0 ? 'USD' : 'EUR',
        amount: `${index}.25`,
        custom: { vatRate: index % 2 === 0 ? 21 : 0, fee: `0.${String(index).padStart(2, '0')}`, disputed: index === 7 },
      }));
      await insertTransactions(server.database, organization.orgId, datasetId, rows);
      await insertTransactions(server.database, other.orgId, otherDatasetId, [{ timestampMs: BASE_MS, description: 'secret' }]);
      orderedIds = [...rows].sort((left, right) => left.timestampMs - right.timestampMs || (left.id < right.id ? -1 : 1)).map((row) => row.id);
      await insertMatch(server.database, organization.orgId, { originId: orderedIds[0]!, targetId: orderedIds[1]!, amount: '0.10' });
    });
    after(async () => server.close());

    it('answers 200 with a bare JSON array of published records, 100 by default, and the paging headers', async () => {
      const response = await query({ datasetId });
      assert.equal(response.status, 200);
      assert.match(response.headers.get('content-type') ?? '', /^application\/json/);
      assert.ok(Array.isArray(response.body));
      assert.equal(response.body.length, 100);
      assert.deepEqual(ids(response.body), orderedIds.slice(0, 100));
      assert.deepEqual(Object.keys(response.body[0]), [
        'id',
        'datasetId',
        'reconciliationStatus',
        'incomingMatches',
        'outgoingMatches',
        'description',
        'type',
        'timestamp',
      ]);
      assert.equal(response.body[0].incomingMatches.length, 1);
      assert.equal(response.body[1].outgoingMatches.length, 1);
      assert.equal(response.body[0].incomingMatches[0].id, response.body[1].outgoingMatches[0].id);
      assert.equal(response.body[0].reconciliationStatus, 'partial');
      assert.equal(response.headers.get('x-has-more'), 'true');
      assert.match(response.headers.get('x-next-cursor') ?? '', /^[A-Za-z0-9_-]+$/);
      assert.match(response.headers.get('x-request-id') ?? '', /^[0-9a-f-]{36}$/);
    });

    it('writes the page as compact JSON, like every other answer, with the columns asked for', async () => {
      const response = await fetch(`${server.baseUrl}/v1/api/${organization.orgId}/transactions`, {
        method: 'POST',
        headers: { authorization: `Bearer ${organization.token}`, 'content-type': 'application/json' },
        body: JSON.stringify({ datasetId, limit: 3, columns: [{ path: 'amount' }, { path: 'fee' }] }),
      });
      const text = await response.text();
      assert.doesNotMatch(text, /" : /);
      assert.equal(text.slice(0, 7), '[{"id":');
      assert.deepEqual(Object.keys(JSON.parse(text)[0]).slice(-2), ['amount', 'fee']);
    });

    it('answers an empty array, without a next cursor, when nothing matches', async () => {
      const response = await query({ datasetId: emptyDatasetId });
      assert.equal(response.status, 200);
      assert.deepEqual(response.body, []);
      assert.equal(response.headers.get('x-has-more'), 'false');
      assert.equal(response.headers.get('x-next-cursor'), null);
    });

    it('continues with X-Next-Cursor sent as cursor, and stops when X-Has-More is false', async () => {
      const first = await query({ datasetId, limit: 60 });
      const second = await query({ datasetId, limit: 60, cursor: first.headers.get('x-next-cursor') });
      const third = await query({ datasetId, limit: 60, cursor: second.headers.get('x-next-cursor') });
      assert.deepEqual([...ids(first.body), ...ids(second.body), ...ids(third.body)], orderedIds);
      assert.equal(third.headers.get('x-has-more'), 'false');
      assert.equal(third.headers.get('x-next-cursor'), null);
    });

    it('reads limit and offset, also as numeric strings, with no ceiling on offset', async () => {
      const response = await query({ datasetId, limit: '5', offset: '10' });
      assert.equal(response.status, 200);
      assert.deepEqual(ids(response.body), orderedIds.slice(10, 15));
      const last = await query({ datasetId, limit: 1000, offset: 140 });
      assert.deepEqual(ids(last.body), orderedIds.slice(140));
      assert.equal(last.headers.get('x-has-more'), 'false');
      const far = await query({ datasetId, offset: 5_000_000_000 });
      assert.equal(far.status, 200);
      assert.deepEqual(far.body, []);
    });

    it('refuses limit and offset out of bounds or not integers, naming the field', async () => {
      assertBadRequest(await query({ datasetId, limit: 0 }), '/limit', /\/limit/);
      assertBadRequest(await query({ datasetId, limit: 1001 }), '/limit', /from 1 to 1000/);
      assertBadRequest(await query({ datasetId, limit: '1001' }), '/limit', /from 1 to 1000/);
      assertBadRequest(await query({ datasetId, limit: 2.5 }), '/limit');
      assertBadRequest(await query({ datasetId, limit: 'ten' }), '/limit');
      assertBadRequest(await query({ datasetId, offset: -1 }), '/offset', /at least 0/);
      assertBadRequest(await query({ datasetId, offset: '1e3' }), '/offset');
    });

    it('accepts offest as an alias of offset, and refuses both with different values', async () => {
      const alias = await query({ datasetId, limit: 3, offest: 20 });
      assert.equal(alias.status, 200);
      assert.deepEqual(ids(alias.body), orderedIds.slice(20, 23));
      const same = await query({ datasetId, limit: 3, offest: '20', offset: 20 });
      assert.deepEqual(ids(same.body), orderedIds.slice(20, 23));
      assertBadRequest(await query({ datasetId, offest: 20, offset: 10 }), '/offest', /different values/);
    });

    it('accepts integrationId and ignores it', async () => {
      const response = await query({ datasetId, limit: 2, integrationId: crypto.randomUUID() });
      assert.equal(response.status, 200);
      assert.deepEqual(ids(response.body), orderedIds.slice(0, 2));
    });

    it('treats from and to as inclusive epoch milliseconds', async () => {
      const response = await query({ datasetId, from: BASE_MS + 10_000, to: String(BASE_MS + 12_000) });
      assert.equal(response.status, 200);
      assert.deepEqual(ids(response.body), orderedIds.slice(20, 26));
    });

    it('refuses from after to, and says when to looks like seconds', async () => {
      assertBadRequest(await query({ datasetId, from: BASE_MS + 1, to: BASE_MS }), '/from', /"from" .* is after "to"/);
      const seconds = await query({ datasetId, from: 1_700_000_000_000, to: 1_700_086_400 });
      assertBadRequest(seconds, '/to', /looks like seconds/);
      assert.match(seconds.body.error.message, /1700086400000/);
    });

    it('orders by timestamp then id, descending on request', async () => {
      const response = await query({ datasetId, limit: 1000, order: 'desc' });
      assert.deepEqual(ids(response.body), [...orderedIds].reverse());
      assertBadRequest(await query({ datasetId, order: 'newest' }), '/order', /must be one of/);
    });

    it('refuses a cursor together with offset, a cursor it did not issue, and a cursor of another query', async () => {
      const first = await query({ datasetId, limit: 10 });
      const cursor = first.headers.get('x-next-cursor');
      assertBadRequest(await query({ datasetId, cursor, offset: 10 }), '/cursor', /either "cursor" or "offset"/);
      assertBadRequest(await query({ datasetId, cursor, offest: 10 }), '/cursor');
      assertBadRequest(await query({ datasetId, cursor: 'garbage' }), '/cursor', /not a cursor/);
      assertBadRequest(await query({ datasetId, cursor, order: 'desc' }), '/cursor', /different query/);
      assertBadRequest(await query({ datasetId: emptyDatasetId, cursor }), '/cursor', /different query/);
      assertBadRequest(
        await query({ datasetId, cursor, search: [{ path: 'description', search: { type: 'string', value: 'Rent' } }] }),
        '/cursor',
        /different query/,
      );
    });

    it('refuses unknown properties, naming them, at every level', async () => {
      assertBadRequest(await query({ datasetId, offsett: 10 }), '/offsett', /unknown property "offsett"/);
      assertBadRequest(await query({ datasetId, search: [{ path: 'description', search: { type: 'string', value: 'a' }, sort: 1 }] }), '/search/0/sort');
      assertBadRequest(
        await query({ datasetId, search: [{ path: 'description', search: { type: 'string', value: 'a', exactly: true } }] }),
        '/search/0/search/exactly',
      );
      assertBadRequest(await query({ datasetId, columns: [{ path: 'fee', alias: 'x' }] }), '/columns/0/alias');
    });

    it("requires a datasetId that is a UUID, and answers 404 for one that is not the organization's", async () => {
      assertBadRequest(await query({}), '/datasetId', /required/);
      assertBadRequest(await query({ datasetId: 'bank' }), '/datasetId', /uuid/);
      for (const unknown of [crypto.randomUUID(), otherDatasetId]) {
        const response = await query({ datasetId: unknown });
        assert.equal(response.status, 404);
        assert.equal(response.body.error.code, 404);
        assert.equal(JSON.stringify(response.body).includes('secret'), false);
      }
    });

    it('filters with SearchQuery, paths matched without regard to case', async () => {
      const response = await query({
        datasetId,
        limit: 1000,
        search: [
          { path: 'Description', search: { type: 'string', value: 'rent' } },
          { path: 'AMOUNT', search: { type: 'money', value: { start: '20.25', end: 100.25 }, currencies: ['EUR'] } },
          { path: 'vatrate', search: { type: 'number', value: 21 } },
        ],
      });
      assert.equal(response.status, 200);
      // Rent rows are every tenth; EUR excludes multiples of three: 20, 40, 50, 70, 80, 100.
      const expected = [20, 40, 50, 70, 80, 100];
      assert.deepEqual(
        response.body.map((record: { description: string }) => record.description),
        expected.map((index) => `Rent ${index}`),
      );
    });

    it('refuses a bad SearchQuery with a 400 naming the query by index and listing the valid paths', async () => {
      const unknownPath = await query({
        datasetId,
        search: [
          { path: 'description', search: { type: 'string', value: 'a' } },
          { path: 'colour', search: { type: 'string', value: 'red' } },
        ],
      });
      assertBadRequest(
        unknownPath,
        '/search/1/path',
        /search\[1\].*unknown path "colour".*Valid paths: id \(string\).*vatRate \(number\), fee \(money\), disputed \(boolean\)/,
      );
      assertBadRequest(
        await query({ datasetId, search: [{ path: 'disputed', search: { type: 'money', value: 1 } }] }),
        '/search/0/search/type',
        /does not fit.*Valid paths/,
      );
      assertBadRequest(
        await query({ datasetId, search: [{ path: 'timestamp', search: { type: 'date', value: { start: 'yesterday' } } }] }),
        '/search/0/search/value/start',
        /search\[0\].*Valid paths: .*vatRate \(number\)/,
      );
      assertBadRequest(await query({ datasetId, search: [{ path: 'amount', search: { type: 'decimal', value: 1 } }] }), '/search/0/search/type');
      assertBadRequest(await query({ datasetId, search: [{ path: 'amount' }] }), '/search/0/search', /required/);
      const tooMany = Array.from({ length: 21 }, () => ({ path: 'description', search: { type: 'string', value: 'a' } }));
      assertBadRequest(await query({ datasetId, search: tooMany }), '/search');
    });

    it('adds the columns asked for, ignoring their search, under their declared names', async () => {
      const response = await query({
        datasetId,
        limit: 2,
        columns: [{ path: 'FEE', search: { type: 'money', value: 'ignored' } }, { path: 'amount' }, { path: 'disputed' }, { path: 'vatRate' }],
      });
      assert.equal(response.status, 200);
      assert.deepEqual(Object.keys(response.body[0]).slice(8), ['fee', 'amount', 'disputed', 'vatRate']);
      assert.equal(typeof response.body[0].fee, 'string');
      assert.equal(typeof response.body[0].amount, 'string');
      assert.equal(typeof response.body[0].vatRate, 'number');
      assert.equal(typeof response.body[0].disputed, 'boolean');
      assertBadRequest(await query({ datasetId, columns: [{ path: 'nope' }] }), '/columns/0/path', /Valid paths/);
    });

    it("is open to a view-only client, and closed to another organization's token", async () => {
      const viewer = await createTestClient(server, organization.orgId, 'View-only');
      assert.equal((await query({ datasetId, limit: 1 }, viewer.token)).status, 200);
      assert.equal((await query({ datasetId, limit: 1 }, other.token)).status, 403);
    });

    if (kind === 'postgres') {
      it('answers 504, telling to lower limit or narrow from/to, when the query exceeds its time budget', async () => {
        const slowDataset = await insertDataset(server.database, organization.orgId, { name: 'Slow' });
        await server.database.query(
          `INSERT INTO transactions (id, organization_id, dataset_id, timestamp_ms, description)
           SELECT gen_random_uuid(), $1, $2, $3::bigint + g, 'row ' || g FROM generate_series(1, 50000) AS g`,
          [organization.orgId, slowDataset, BASE_MS],
        );
        // A second server process over the same database, with a short statement timeout; the
        // search (100 patterns over every row) takes far longer than that.
        const impatient = openDatabase({ databaseUrl: server.config.databaseUrl, dataDirectory: null, poolSize: 2, statementTimeoutMilliseconds: 150 });
        const app = await buildApp({ services: createServices(server.config, impatient) });
        try {
          await app.listen({ port: 0, host: '127.0.0.1' });
          const address = app.server.address() as { port: number };
          const patterns = Array.from({ length: 100 }, (_, index) => `no such text ${index}`);
          const response = await api(
            { ...server, baseUrl: `http://127.0.0.1:${address.port}` },
            organization.token,
            'POST',
            `/v1/api/${organization.orgId}/transactions`,
            {
              datasetId: slowDataset,
              search: Array.from({ length: 10 }, () => ({ path: 'description', search: { type: 'string', value: patterns } })),
            },
          );
          assert.equal(response.status, 504, JSON.stringify(response.body));
          assert.equal(response.body.error.code, 504);
          assert.match(response.body.error.message, /lower "limit" or narrow "from"\/"to"/);
        } finally {
          await app.close();
          await impatient.close();
        }
      });
    }
  });
}
