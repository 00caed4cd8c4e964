import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { openDatabase, type Database } from '../../src/db/database.ts';
import { queryTransactionPage, type TransactionPageQuery } from '../../src/db/repositories/transaction-query.ts';
import { AppError } from '../../src/errors.ts';
import { PageBoundaryCache } from '../../src/domain/transactions/page-boundaries.ts';
import { TransactionQueries, type TransactionQueryRequest } from '../../src/domain/transactions/query.ts';
import { openTestStore, storeKinds } from '../../support/harness.ts';
import {
  bumpRevision,
  datasetRevision,
  insertDataset,
  insertMatch,
  insertOrganization,
  insertTransactions,
  type FixtureTransaction,
} from '../../support/fixtures.ts';

/**
 * The transactions query against a real store, once on PGlite and once on PostgreSQL: every
 * filter type, inclusive bounds, order, paging by offset (with and without remembered
 * boundaries) and by cursor. Expected answers are computed independently from the fixture rows.
 */

const BASE_MS = 1_700_000_000_000;
const COLUMNS = [
  { name: 'counterparty', type: 'string' as const },
  { name: 'vatRate', type: 'number' as const },
  { name: 'fee', type: 'money' as const },
  { name: 'valueDate', type: 'date' as const },
  { name: 'disputed', type: 'boolean' as const },
];

interface Row extends FixtureTransaction {
  id: string;
  index: number;
}

const DESCRIPTIONS = ['Rent 100% paid', 'Card_fee', 'Payment', 'Salary', 'Transfer to savings'];

/** 30 rows; timestamps come in threes so that ties are ordered by id. Row 29 has no custom values. */
function fixtureRows(): Row[] {
  return Array.from({ length: 30 }, (_, index) => ({
    id: crypto.randomUUID(),
    index,
    timestampMs: BASE_MS + Math.floor(index / 3) * 1000,
    description: `${DESCRIPTIONS[index % 5]} ${index}`,
    type: index % 2 === 0 ? 'DEBIT' : 'CREDIT',
    reference: `REF-${index}`,
    currency: index % 4 === 0 ? 'USD' : 'EUR',
    amount: ((index - 15) * 10.5).toFixed(2),
    custom:
      index === 29
        ? {}
        : {
            counterparty: ['Acme', 'Globex', 'Initech'][index % 3],
            vatRate: [0, 5.5, 21][index % 3],
            fee: `${index}.10`,
            valueDate: BASE_MS + index * 86_400_000,
            disputed: index % 2 === 0,
          },
  }));
}

const byPosition = (left: Row, right: Row) => left.timestampMs - right.timestampMs || (left.id < right.id ? -1 : left.id > right.id ? 1 : 0);

function records(body: string): Array<Record<string, unknown>> {
  const parsed = JSON.parse(body);
  assert.ok(Array.isArray(parsed));
  return parsed;
}

for (const kind of storeKinds()) {
  describe(`transactions query (${kind})`, () => {
    let database: Database;
    let drop: () => Promise<void>;
    let databaseUrl: string | null;
    let organizationId: string;
    let otherOrganizationId: string;
    let datasetId: string;
    let otherDatasetId: string;
    let rows: Row[];
    let sorted: Row[];
    let queries: TransactionQueries;

    const run = async (request: Omit<TransactionQueryRequest, 'datasetId'> & { datasetId?: string }) => {
      const page = await queries.query(organizationId, { datasetId, ...request });
      return { ...page, records: records(page.body) };
    };
    const idsOf = async (request: Omit<TransactionQueryRequest, 'datasetId'>) => (await run({ limit: 1000, ...request })).records.map((record) => record.id);
    const expectIds = (predicate: (row: Row) => boolean) => sorted.filter(predicate).map((row) => row.id);

    before(async () => {
      ({ database, drop, databaseUrl } = await openTestStore(kind));
      organizationId = await insertOrganization(database, 'Query');
      otherOrganizationId = await insertOrganization(database, 'Other');
      datasetId = await insertDataset(database, organizationId, { columns: COLUMNS });
      otherDatasetId = await insertDataset(database, otherOrganizationId, { columns: COLUMNS });
      rows = fixtureRows();
      await insertTransactions(database, organizationId, datasetId, rows);
      await insertTransactions(database, otherOrganizationId, otherDatasetId, fixtureRows());
      sorted = [...rows].sort(byPosition);
      queries = new TransactionQueries(database);
    });
    after(async () => drop());

    it('answers the published record, eight fields in order, by (timestamp, id) ascending', async () => {
      const page = await run({});
      assert.equal(page.records.length, 30);
      assert.deepEqual(Object.keys(page.records[0]!), [
        'id',
        'datasetId',
        'reconciliationStatus',
        'incomingMatches',
        'outgoingMatches',
        'description',
        'type',
        'timestamp',
      ]);
      assert.deepEqual(
        page.records.map((record) => record.id),
        sorted.map((row) => row.id),
      );
      assert.deepEqual(page.records[0], {
        id: sorted[0]!.id,
        datasetId,
        reconciliationStatus: 'none',
        incomingMatches: [],
        outgoingMatches: [],
        description: sorted[0]!.description,
        type: sorted[0]!.type,
        timestamp: sorted[0]!.timestampMs,
      });
      assert.equal(page.hasMore, false);
      assert.equal(page.nextCursor, null);
    });

    it('orders descending on request', async () => {
      assert.deepEqual(
        await idsOf({ order: 'desc' }),
        [...sorted].reverse().map((row) => row.id),
      );
    });

    it('shows matches in both directions: incoming where the transaction is the origin', async () => {
      const secondDataset = await insertDataset(database, organizationId, { name: 'Ledger' });
      const [ledgerId] = await insertTransactions(database, organizationId, secondDataset, [{ timestampMs: BASE_MS, amount: '-50.00' }]);
      const origin = rows.find((row) => row.index === 20)!;
      const { matchId, groupId } = await insertMatch(database, organizationId, { originId: origin.id, targetId: ledgerId!, amount: '10.50' });
      const bank = (await run({ search: [{ path: 'id', search: { type: 'string', value: origin.id, exact: true } }] })).records[0]!;
      assert.equal(bank.reconciliationStatus, 'partial');
      assert.deepEqual(bank.outgoingMatches, []);
      const incoming = bank.incomingMatches as Array<Record<string, unknown>>;
      assert.equal(incoming.length, 1);
      assert.deepEqual(
        { ...incoming[0], createdAt: undefined },
        {
          id: matchId,
          groupId,
          originId: origin.id,
          originDatasetId: datasetId,
          targetId: ledgerId,
          targetDatasetId: secondDataset,
          amount: '10.50',
          method: 'manual',
          ruleId: null,
          ruleVersion: null,
          runId: null,
          createdAt: undefined,
          createdBy: 'test',
        },
      );
      assert.match(String(incoming[0]!.createdAt), /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
      const ledger = records((await queries.query(organizationId, { datasetId: secondDataset })).body)[0]!;
      assert.deepEqual(ledger.incomingMatches, []);
      assert.deepEqual(
        (ledger.outgoingMatches as Array<Record<string, unknown>>).map((match) => match.id),
        [matchId],
      );
    });

    it('treats from and to as inclusive bounds', async () => {
      const from = BASE_MS + 2000;
      const to = BASE_MS + 4000;
      assert.deepEqual(
        await idsOf({ fromMs: from, toMs: to }),
        expectIds((row) => row.timestampMs >= from && row.timestampMs <= to),
      );
      assert.deepEqual(
        await idsOf({ fromMs: from, toMs: from }),
        expectIds((row) => row.timestampMs === from),
      );
      assert.equal((await idsOf({ fromMs: from })).length, 24);
      assert.equal((await idsOf({ toMs: from })).length, 9);
    });

    it('filters strings: case-insensitive substring, LIKE wildcards taken literally, exact equality, any of several', async () => {
      const search = (value: unknown, exact?: boolean, path = 'description') => idsOf({ search: [{ path, search: { type: 'string', value, exact } }] });
      assert.deepEqual(
        await search('RENT'),
        expectIds((row) => row.description!.startsWith('Rent')),
      );
      assert.deepEqual(
        await search('0%'),
        expectIds((row) => row.description!.includes('0%')),
      );
      assert.deepEqual(
        await search('d_f'),
        expectIds((row) => row.description!.toLowerCase().includes('d_f')),
      );
      assert.deepEqual(
        await search('%'),
        expectIds((row) => row.description!.includes('%')),
      );
      assert.deepEqual(
        await search('_'),
        expectIds((row) => row.description!.includes('_')),
      );
      assert.deepEqual(await search('\\'), []);
      assert.deepEqual(
        await search('Salary 3', true),
        expectIds((row) => row.description === 'Salary 3'),
      );
      assert.deepEqual(await search('salary 3', true), []);
      assert.deepEqual(
        await search(['salary', 'CARD']),
        expectIds((row) => /salary|card/i.test(row.description!)),
      );
      assert.deepEqual(
        await search('glob', false, 'Counterparty'),
        expectIds((row) => row.custom?.counterparty === 'Globex'),
      );
      assert.deepEqual(
        await search(['Acme', 'Initech'], true, 'counterparty'),
        expectIds((row) => ['Acme', 'Initech'].includes(row.custom?.counterparty as string)),
      );
      assert.deepEqual(
        await search('none', true, 'reconciliationStatus'),
        expectIds((row) => row.index !== 20),
      );
      assert.deepEqual(
        await search('usd', false, 'currency'),
        expectIds((row) => row.currency === 'USD'),
      );
      assert.deepEqual(
        await search('REF-1', true, 'reference'),
        expectIds((row) => row.reference === 'REF-1'),
      );
      assert.deepEqual(
        await search(sorted[4]!.id.slice(0, 13).toUpperCase(), false, 'id'),
        expectIds((row) => row.id.startsWith(sorted[4]!.id.slice(0, 13))),
      );
      assert.deepEqual(
        await search('DEBIT', true, 'TYPE'),
        expectIds((row) => row.type === 'DEBIT'),
      );
    });

    it('filters booleans', async () => {
      const search = (value: boolean) => idsOf({ search: [{ path: 'disputed', search: { type: 'boolean', value } }] });
      assert.deepEqual(
        await search(true),
        expectIds((row) => row.custom?.disputed === true),
      );
      assert.deepEqual(
        await search(false),
        expectIds((row) => row.custom?.disputed === false),
      );
    });

    it('filters dates by ranges, inclusive unless told otherwise', async () => {
      const search = (path: string, value: unknown) => idsOf({ search: [{ path, search: { type: 'date', value } }] });
      const start = BASE_MS + 3000;
      const end = BASE_MS + 5000;
      assert.deepEqual(
        await search('timestamp', { start, end }),
        expectIds((row) => row.timestampMs >= start && row.timestampMs <= end),
      );
      assert.deepEqual(
        await search('timestamp', { start, end, includeStart: false, includeEnd: false }),
        expectIds((row) => row.timestampMs > start && row.timestampMs < end),
      );
      assert.deepEqual(
        await search('timestamp', { end }),
        expectIds((row) => row.timestampMs <= end),
      );
      const day = 86_400_000;
      assert.deepEqual(
        await search('valueDate', { start: BASE_MS + 10 * day, end: BASE_MS + 12 * day }),
        expectIds((row) => row.index >= 10 && row.index <= 12),
      );
      assert.deepEqual(
        await search('valueDate', {}),
        expectIds((row) => row.index !== 29),
      );
    });

    it('filters numbers: a value, any of several, each operator, ranges', async () => {
      const search = (value: unknown) => idsOf({ search: [{ path: 'vatRate', search: { type: 'number', value } }] });
      const rate = (row: Row) => row.custom?.vatRate as number | undefined;
      assert.deepEqual(
        await search(5.5),
        expectIds((row) => rate(row) === 5.5),
      );
      assert.deepEqual(
        await search([0, 21]),
        expectIds((row) => rate(row) === 0 || rate(row) === 21),
      );
      assert.deepEqual(
        await search({ operator: 'ne', value: 0 }),
        expectIds((row) => rate(row) !== undefined && rate(row) !== 0),
      );
      assert.deepEqual(
        await search({ operator: 'gt', value: 5.5 }),
        expectIds((row) => rate(row)! > 5.5),
      );
      assert.deepEqual(
        await search({ operator: 'ge', value: 5.5 }),
        expectIds((row) => rate(row)! >= 5.5),
      );
      assert.deepEqual(
        await search({ operator: 'lt', value: 5.5 }),
        expectIds((row) => rate(row)! < 5.5),
      );
      assert.deepEqual(
        await search({ operator: 'le', value: 5.5 }),
        expectIds((row) => rate(row)! <= 5.5),
      );
      assert.deepEqual(
        await search({ start: 0, end: 5.5 }),
        expectIds((row) => rate(row)! >= 0 && rate(row)! <= 5.5),
      );
      assert.deepEqual(
        await search({ start: 0, end: 5.5, includeStart: false }),
        expectIds((row) => rate(row)! > 0 && rate(row)! <= 5.5),
      );
      const timestamps = await idsOf({ search: [{ path: 'timestamp', search: { type: 'number', value: [BASE_MS, BASE_MS + 9000] } }] });
      assert.deepEqual(
        timestamps,
        expectIds((row) => row.timestampMs === BASE_MS || row.timestampMs === BASE_MS + 9000),
      );
    });

    it('filters money exactly, as decimals, with currencies', async () => {
      const search = (value: unknown, currencies?: string[], path = 'amount') =>
        idsOf({ search: [{ path, search: { type: 'money', value, ...(currencies ? { currencies } : {}) } }] });
      const cents = (row: Row) => Math.round(Number(row.amount) * 100);
      assert.deepEqual(
        await search('-52.50'),
        expectIds((row) => cents(row) === -5250),
      );
      assert.deepEqual(
        await search('-52.5'),
        expectIds((row) => cents(row) === -5250),
      );
      assert.deepEqual(
        await search(-52.5),
        expectIds((row) => cents(row) === -5250),
      );
      assert.deepEqual(
        await search({ start: '-21.00', end: 21 }),
        expectIds((row) => cents(row) >= -2100 && cents(row) <= 2100),
      );
      assert.deepEqual(
        await search({ start: '-21.00', end: 21, includeEnd: false }),
        expectIds((row) => cents(row) >= -2100 && cents(row) < 2100),
      );
      assert.deepEqual(
        await search({ operator: 'lt', value: '0' }, ['eur']),
        expectIds((row) => cents(row) < 0 && row.currency === 'EUR'),
      );
      assert.deepEqual(
        await search({}, ['USD']),
        expectIds((row) => row.currency === 'USD'),
      );
      assert.deepEqual(
        await search(['3.10', '4.1'], undefined, 'fee'),
        expectIds((row) => row.index === 3 || row.index === 4),
      );
      assert.deepEqual(
        await search({ operator: 'ge', value: '27.1' }, undefined, 'fee'),
        expectIds((row) => row.index >= 27 && row.index !== 29),
      );
    });

    it('compares money beyond double precision exactly', async () => {
      const dataset = await insertDataset(database, organizationId, { name: 'Large amounts' });
      const [small, large] = await insertTransactions(database, organizationId, dataset, [
        { timestampMs: BASE_MS, amount: '100000000000000000.01' },
        { timestampMs: BASE_MS, amount: '100000000000000000.02' },
      ]);
      const search = async (value: unknown) =>
        records((await queries.query(organizationId, { datasetId: dataset, search: [{ path: 'amount', search: { type: 'money', value } }] })).body).map(
          (record) => record.id,
        );
      assert.deepEqual(await search('100000000000000000.02'), [large]);
      assert.deepEqual(await search({ operator: 'lt', value: '100000000000000000.02' }), [small]);
    });

    it('combines several queries with AND', async () => {
      assert.deepEqual(
        await idsOf({
          search: [
            { path: 'counterparty', search: { type: 'string', value: 'Acme', exact: true } },
            { path: 'disputed', search: { type: 'boolean', value: true } },
            { path: 'amount', search: { type: 'money', value: { start: '0' } } },
          ],
        }),
        expectIds((row) => row.custom?.counterparty === 'Acme' && row.custom?.disputed === true && Number(row.amount) >= 0),
      );
    });

    it('adds requested columns under their declared names, money as decimal strings', async () => {
      const page = await run({
        columns: [
          { path: 'VATRATE' },
          { path: 'fee' },
          { path: 'valueDate' },
          { path: 'disputed' },
          { path: 'counterparty' },
          { path: 'amount' },
          { path: 'currency' },
          { path: 'reference' },
          { path: 'timestamp' },
        ],
      });
      const first = page.records[0]!;
      const row = sorted[0]!;
      assert.deepEqual(Object.keys(first).slice(8), ['vatRate', 'fee', 'valueDate', 'disputed', 'counterparty', 'amount', 'currency', 'reference']);
      assert.deepEqual(
        {
          vatRate: first.vatRate,
          fee: first.fee,
          valueDate: first.valueDate,
          disputed: first.disputed,
          counterparty: first.counterparty,
          amount: first.amount,
          currency: first.currency,
          reference: first.reference,
        },
        { ...row.custom, amount: row.amount, currency: row.currency, reference: row.reference },
      );
      const missing = page.records.find((record) => record.id === rows[29]!.id)!;
      assert.equal(missing.vatRate, null);
      assert.equal(missing.fee, null);
    });

    it('pages by offset without repeating or skipping a row, and says whether more follow', async () => {
      const seen: unknown[] = [];
      for (let offset = 0; ; offset += 7) {
        const page = await run({ limit: 7, offset });
        seen.push(...page.records.map((record) => record.id));
        assert.equal(page.hasMore, offset + 7 < 30);
        assert.equal(page.nextCursor !== null, page.hasMore);
        if (!page.hasMore) break;
      }
      assert.deepEqual(
        seen,
        sorted.map((row) => row.id),
      );
      const descending: unknown[] = [];
      for (let offset = 0; offset < 30; offset += 4) {
        descending.push(...(await run({ limit: 4, offset, order: 'desc', fromMs: BASE_MS + 1000 })).records.map((record) => record.id));
      }
      assert.deepEqual(
        descending,
        [...sorted]
          .reverse()
          .filter((row) => row.timestampMs >= BASE_MS + 1000)
          .map((row) => row.id),
      );
      assert.deepEqual((await run({ offset: 30 })).records, []);
      assert.deepEqual((await run({ offset: 1_000_000_000 })).records, []);
    });

    it('pages through remembered boundaries, and falls back correctly when the dataset changed', async () => {
      const dataset = await insertDataset(database, organizationId, { name: 'Boundaries' });
      const inserted: Array<{ id: string; timestampMs: number }> = [];
      const add = async (timestamps: number[]) => {
        const batch = timestamps.map((timestampMs) => ({ id: crypto.randomUUID(), timestampMs }));
        await insertTransactions(database, organizationId, dataset, batch);
        inserted.push(...batch);
      };
      const expected = () => [...inserted].sort((left, right) => left.timestampMs - right.timestampMs || (left.id < right.id ? -1 : 1)).map((row) => row.id);
      await add(Array.from({ length: 40 }, (_, index) => BASE_MS + index * 10));
      const cache = new PageBoundaryCache();
      const paging = new TransactionQueries(database, { boundaryCache: cache });
      const page = async (offset: number, limit = 10) =>
        records((await paging.query(organizationId, { datasetId: dataset, offset, limit })).body).map((record) => record.id);

      assert.deepEqual([...(await page(0)), ...(await page(10)), ...(await page(20))], expected().slice(0, 30));
      assert.ok(cache.size > 0, 'pages by offset leave boundaries behind');

      // Rows that land before the remembered boundaries move every later row; the revision bump
      // that comes with them must make the next page fall back to counting from the start.
      const revisionBefore = await datasetRevision(database, dataset);
      await add([BASE_MS - 5, BASE_MS + 15]);
      assert.ok((await datasetRevision(database, dataset)) > revisionBefore);
      assert.deepEqual(await page(30), expected().slice(30, 40));
      assert.deepEqual(await page(35, 3), expected().slice(35, 38));
      // A bump without a visible change is handled the same way.
      await bumpRevision(database, dataset);
      assert.deepEqual(await page(40), expected().slice(40, 50));
      assert.deepEqual(await page(10, 25), expected().slice(10, 35));
    });

    it('checks the revision inside the statement: a boundary is used only at its revision', async () => {
      const revision = await datasetRevision(database, datasetId);
      // A deliberately wrong boundary (claims offset 5 is after the 20th row): believed at the
      // current revision, which proves the keyset path is taken; ignored at any other.
      const wrongBoundary = { timestampMs: sorted[19]!.timestampMs, id: sorted[19]!.id };
      const base: TransactionPageQuery = {
        organizationId,
        datasetId,
        fromMs: null,
        toMs: null,
        filters: [],
        columns: [],
        order: 'asc',
        limit: 3,
        start: { kind: 'offset', offset: 5 },
      };
      const ids = async (start: TransactionPageQuery['start']) =>
        records((await queryTransactionPage(database, { ...base, start })).body).map((record) => record.id);
      assert.deepEqual(
        await ids({ kind: 'boundary', after: wrongBoundary, skip: 0, revision, fallbackOffset: 5 }),
        sorted.slice(20, 23).map((row) => row.id),
      );
      assert.deepEqual(
        await ids({ kind: 'boundary', after: wrongBoundary, skip: 0, revision: revision - 1, fallbackOffset: 5 }),
        sorted.slice(5, 8).map((row) => row.id),
      );
      assert.deepEqual(
        await ids({ kind: 'boundary', after: wrongBoundary, skip: 2, revision, fallbackOffset: 5 }),
        sorted.slice(22, 25).map((row) => row.id),
      );
    });

    it('pages by cursor in both orders, the cursor staying with its query', async () => {
      for (const order of ['asc', 'desc'] as const) {
        const seen: unknown[] = [];
        let cursor: string | undefined;
        for (;;) {
          const page = await run({ limit: 4, order, cursor, search: [{ path: 'amount', search: { type: 'money', value: { start: '-100' } } }] });
          seen.push(...page.records.map((record) => record.id));
          if (!page.hasMore) {
            assert.equal(page.nextCursor, null);
            break;
          }
          cursor = page.nextCursor!;
        }
        const expected = expectIds((row) => Number(row.amount) >= -100);
        assert.deepEqual(seen, order === 'asc' ? expected : expected.reverse());
      }
      const first = await run({ limit: 4 });
      const cursor = first.nextCursor!;
      const following = await run({ limit: 4, cursor });
      assert.deepEqual(
        following.records.map((record) => record.id),
        sorted.slice(4, 8).map((row) => row.id),
      );
      await assert.rejects(run({ limit: 4, cursor, order: 'desc' }), /\/cursor: was issued for a different query/);
      await assert.rejects(run({ limit: 4, cursor, fromMs: BASE_MS }), /\/cursor: was issued for a different query/);
      await assert.rejects(run({ limit: 4, cursor, search: [{ path: 'type', search: { type: 'string', value: 'D' } }] }), /different query/);
      await assert.rejects(run({ limit: 4, cursor, datasetId: otherDatasetId }), /not found|different query/);
      await assert.rejects(run({ cursor, offset: 4 }), /\/cursor: send either "cursor" or "offset"/);
      await assert.rejects(run({ cursor: 'bm9wZQ' }), /\/cursor: is not a cursor/);
    });

    it("refuses an unknown dataset and another organization's dataset with not found", async () => {
      for (const unknown of [crypto.randomUUID(), otherDatasetId]) {
        for (const request of [{}, { search: [{ path: 'vatRate', search: { type: 'number', value: 1 } }] }]) {
          await assert.rejects(queries.query(organizationId, { datasetId: unknown, ...request }), (error: unknown) => {
            assert.ok(error instanceof AppError);
            assert.equal(error.kind, 'not_found');
            return true;
          });
        }
      }
    });

    it('checks the request: limit, offset and its alias, from and to', async () => {
      await assert.rejects(run({ limit: 0 }), /\/limit/);
      await assert.rejects(run({ limit: 1001 }), /\/limit/);
      await assert.rejects(run({ offset: 3, offest: 4 }), /\/offest: .*different values/);
      assert.deepEqual((await run({ offset: 3, offest: 3, limit: 1 })).records[0]!.id, sorted[3]!.id);
      assert.deepEqual((await run({ offest: 3, limit: 1 })).records[0]!.id, sorted[3]!.id);
      await assert.rejects(run({ fromMs: 5, toMs: 4 }), /\/from: "from" \(5\) is after "to" \(4\)/);
      await assert.rejects(run({ fromMs: BASE_MS, toMs: 1_700_000_100 }), /\/to: .*looks like seconds/);
    });

    if (kind === 'postgres') {
      it('turns a statement that exceeds its time budget into a query timeout', async () => {
        const dataset = await insertDataset(database, organizationId, { name: 'Slow' });
        await database.query(
          `INSERT INTO transactions (id, organization_id, dataset_id, timestamp_ms, description)
           SELECT gen_random_uuid(), $1, $2, $3::bigint + g, 'row ' || g FROM generate_series(1, 60000) AS g`,
          [organizationId, dataset, BASE_MS],
        );
        const impatient = openDatabase({ databaseUrl, dataDirectory: null, poolSize: 1, statementTimeoutMilliseconds: 1 });
        try {
          const slow = new TransactionQueries(impatient);
          await assert.rejects(
            slow.query(organizationId, { datasetId: dataset, search: [{ path: 'description', search: { type: 'string', value: 'no such text' } }] }),
            (error: unknown) => {
              assert.ok(error instanceof AppError, String(error));
              assert.equal(error.kind, 'query_timeout');
              assert.match(error.message, /lower "limit" or narrow "from"\/"to"/);
              return true;
            },
          );
        } finally {
          await impatient.close();
        }
      });
    }
  });
}
