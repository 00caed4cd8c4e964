import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { api, createTestOrganization, startTestServer, storeKinds, type TestOrganization, type TestServer } from '../../support/harness.ts';
import { insertDataset, insertTransactions } from '../../support/fixtures.ts';

/**
 * POST /transactions sorted by amount and by description (the `sort` extension): paging by
 * cursor and by offset under each sort and direction gives every row once, in the exact order,
 * ties broken by id; a cursor continues only the sort it was issued for.
 */

const BASE_MS = 1_700_000_000_000;
const SORTS = ['timestamp', 'amount', 'description'] as const;
type Sort = (typeof SORTS)[number];

interface Row {
  id: string;
  timestampMs: number;
  amount: string | null;
  description: string | null;
}

/** Decimal strings compared exactly, as numeric compares them (never as floats). */
function compareDecimals(left: string, right: string): number {
  const scale = 30;
  const scaled = (text: string) => {
    const negative = text.startsWith('-');
    const [whole = '0', fraction = ''] = text.replace(/^-/, '').split('.');
    const value = BigInt(whole + fraction.padEnd(scale, '0'));
    return negative ? -value : value;
  };
  const difference = scaled(left) - scaled(right);
  return difference < 0n ? -1 : difference > 0n ? 1 : 0;
}

/** The expected ascending order: the key, missing values last, then the id. */
function ascending(sort: Sort): (left: Row, right: Row) => number {
  const byId = (left: Row, right: Row) => (left.id < right.id ? -1 : left.id > right.id ? 1 : 0);
  return (left, right) => {
    if (sort === 'timestamp') return left.timestampMs - right.timestampMs || byId(left, right);
    const a = sort === 'amount' ? left.amount : left.description;
    const b = sort === 'amount' ? right.amount : right.description;
    if (a === null || b === null) return a === b ? byId(left, right) : a === null ? 1 : -1;
    const keyOrder = sort === 'amount' ? compareDecimals(a, b) : a.toLowerCase() < b.toLowerCase() ? -1 : a.toLowerCase() > b.toLowerCase() ? 1 : 0;
    return keyOrder || byId(left, right);
  };
}

for (const kind of storeKinds()) {
  describe(`POST /transactions sorted (${kind})`, () => {
    let server: TestServer;
    let organization: TestOrganization;
    let datasetId: string;
    const rows: Row[] = [];

    const query = (body: Record<string, unknown>) =>
      api(server, organization.token, 'POST', `/v1/api/${organization.orgId}/transactions`, { datasetId, ...body });

    before(async () => {
      server = await startTestServer(kind);
      organization = await createTestOrganization(server);
      datasetId = await insertDataset(server.database, organization.orgId);
      // Many ties in each key; amounts that a float would make equal; missing values; cases.
      const amounts = ['10.00', '10', '-5.50', '0.1', '0.10000000000000000001', '1000000000000000.01', '1000000000000000.02', null, '10.00'];
      const descriptions = ['alpha', 'Alpha', 'BRAVO', 'bravo', 'charlie', null, '', 'alphabet', 'delta'];
      for (let index = 0; index < 61; index++) {
        rows.push({
          id: crypto.randomUUID(),
          timestampMs: BASE_MS + Math.floor(index / 3) * 60_000,
          amount: amounts[index % amounts.length]!,
          description: descriptions[(index * 7) % descriptions.length]!,
        });
      }
      await insertTransactions(server.database, organization.orgId, datasetId, rows);
    });
    after(async () => server.close());

    for (const sort of SORTS) {
      for (const order of ['asc', 'desc'] as const) {
        it(`pages by ${sort}, ${order}, by cursor and by offset, with no row twice and none left out`, async () => {
          const expected = [...rows].sort(ascending(sort)).map((row) => row.id);
          if (order === 'desc') expected.reverse();

          const byCursor: string[] = [];
          let cursor: string | undefined;
          for (let pages = 0; pages < 20; pages++) {
            const response = await query({ sort, order, limit: 7, ...(cursor ? { cursor } : {}) });
            assert.equal(response.status, 200, JSON.stringify(response.body));
            byCursor.push(...response.body.map((record: { id: string }) => record.id));
            cursor = response.headers.get('x-next-cursor') ?? undefined;
            if (cursor === undefined) break;
          }
          assert.deepEqual(byCursor, expected);

          // By offset twice: the second walk starts after the page boundaries the first one left.
          for (let walk = 0; walk < 2; walk++) {
            const byOffset: string[] = [];
            for (let offset = 0; offset < rows.length; offset += 7) {
              const response = await query({ sort, order, limit: 7, offset });
              assert.equal(response.status, 200, JSON.stringify(response.body));
              byOffset.push(...response.body.map((record: { id: string }) => record.id));
            }
            assert.deepEqual(byOffset, expected);
          }
        });
      }
    }

    it('sorts amounts as exact decimals', async () => {
      const response = await query({ sort: 'amount', columns: [{ path: 'amount' }], limit: 1000 });
      const amounts: string[] = response.body.map((record: { amount: string | null }) => record.amount);
      assert.ok(amounts.indexOf('0.1') < amounts.indexOf('0.10000000000000000001'));
      assert.ok(amounts.indexOf('1000000000000000.01') < amounts.indexOf('1000000000000000.02'));
      assert.equal(amounts.at(-1), null);
    });

    it('refuses a cursor of one sort sent with another, in words', async () => {
      const byAmount = (await query({ sort: 'amount', limit: 5 })).headers.get('x-next-cursor')!;
      const byTime = (await query({ limit: 5 })).headers.get('x-next-cursor')!;
      const mixed = [
        { body: { sort: 'description', cursor: byAmount }, words: /sorted by amount, but this request sorts them by description/ },
        { body: { cursor: byAmount }, words: /sorted by amount, but this request sorts them by timestamp/ },
        { body: { sort: 'amount', cursor: byTime }, words: /sorted by timestamp, but this request sorts them by amount/ },
        { body: { sort: 'amount', order: 'desc', cursor: byAmount }, words: /was issued for a different query/ },
      ];
      for (const { body, words } of mixed) {
        const response = await query(body);
        assert.equal(response.status, 400, JSON.stringify(response.body));
        assert.match(response.body.error.message, words);
        assert.ok(response.body.error.details.some((detail: { path: string }) => detail.path === '/cursor'));
      }
      // The published order's cursor is the same whether the sort is named or not.
      assert.equal((await query({ sort: 'timestamp', cursor: byTime })).status, 200);
    });

    it('refuses a cursor that continues after a row no longer there', async () => {
      const first = await query({ sort: 'description', limit: 3 });
      const last = first.body.at(-1).id as string;
      await server.database.query('DELETE FROM transactions WHERE id = $1', [last]);
      try {
        const response = await query({ sort: 'description', limit: 3, cursor: first.headers.get('x-next-cursor') });
        assert.equal(response.status, 400, JSON.stringify(response.body));
        assert.match(response.body.error.message, /no longer in the dataset/);
      } finally {
        const row = rows.find((candidate) => candidate.id === last)!;
        await insertTransactions(server.database, organization.orgId, datasetId, [row]);
      }
    });

    it('refuses a sort it does not know, naming the choices', async () => {
      const response = await query({ sort: 'reference' });
      assert.equal(response.status, 400);
      assert.match(JSON.stringify(response.body.error), /timestamp.*amount.*description/);
    });
  });
}
