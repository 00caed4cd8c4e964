import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { api, createTestOrganization, startTestServer, storeKinds, type TestServer } from '../../support/harness.ts';
import { addTransactions, createDataset } from '../../support/recon-fixtures.ts';

/**
 * The statement's identity on random months: whatever the data, adjusted bank balance −
 * adjustments − ledger balance is the unexplained difference, and the unexplained difference is
 * exactly what nothing explains. Here the bank has no statement (its balance is its entries) and
 * every match pairs equal money, so what is unexplained is the money of the rows set apart
 * (bank minus ledger) less the opening balance — computed by the test from the rows it made,
 * independently of the service, as are both lines item by item.
 */

/** A small deterministic generator (mulberry32), so that a failing seed can be replayed. */
function generator(seed: number) {
  let state = seed >>> 0;
  const next = () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  return { next, integer: (low: number, high: number) => low + Math.floor(next() * (high - low + 1)) };
}

const cents = (value: bigint) => {
  const negative = value < 0n;
  const absolute = negative ? -value : value;
  return `${negative ? '-' : ''}${absolute / 100n}.${(absolute % 100n).toString().padStart(2, '0')}`;
};
const toCents = (text: string) => {
  const negative = text.startsWith('-');
  const [units = '0', fraction = ''] = text.replace('-', '').split('.');
  const value = BigInt(units) * 100n + BigInt(fraction.padEnd(2, '0').slice(0, 2));
  return negative ? -value : value;
};

interface Row {
  key: string;
  side: 'bank' | 'ledger';
  day: number;
  cents: bigint;
  apart: 'informative' | 'out of scope' | null;
}

const PERIOD_END_DAY = 58; // 2026-03-31 is day 58 from 2026-02-01 (day 0).
const dateOf = (day: number) => Date.UTC(2026, 1, 1 + day, 10);

for (const kind of storeKinds()) {
  describe(`reconciliation statement property (${kind})`, () => {
    let server: TestServer;
    before(async () => {
      server = await startTestServer(kind);
    });
    after(() => server.close());

    for (const seed of [7, 1913, 424242]) {
      it(`adjusted bank − adjustments − ledger is exactly what nothing explains (seed ${seed})`, async () => {
        const random = generator(seed);
        const organization = await createTestOrganization(server);
        const base = `/v1/api/${organization.orgId}`;
        const { datasetId: bankId, sourceId } = await createDataset(server, organization, { name: 'Bank' });
        const { datasetId: ledgerId } = await createDataset(server, organization, { name: 'Ledger', sourceId });
        const rows: Row[] = [];
        const links: { origin: string; target: string; cents: bigint }[] = [];
        const amount = () => BigInt(random.integer(1, 500_000)) * (random.next() < 0.4 ? -1n : 1n);
        const day = () => random.integer(0, 88); // February to April
        for (let index = 0; index < 24; index += 1) {
          const bank: Row = { key: `b${index}`, side: 'bank', day: day(), cents: amount(), apart: null };
          rows.push(bank);
          const sign = bank.cents < 0n ? -1n : 1n;
          const size = bank.cents * sign;
          const shape = random.integer(0, 4);
          if (shape === 1) {
            // Matched whole to one ledger row.
            rows.push({ key: `l${index}`, side: 'ledger', day: day(), cents: bank.cents, apart: null });
            links.push({ origin: bank.key, target: `l${index}`, cents: size });
          } else if (shape === 2 && size > 1n) {
            // Split across two ledger rows, maybe either side of the period end.
            const part = BigInt(random.integer(1, Number(size - 1n)));
            rows.push({ key: `l${index}a`, side: 'ledger', day: day(), cents: part * sign, apart: null });
            rows.push({ key: `l${index}b`, side: 'ledger', day: day(), cents: (size - part) * sign, apart: null });
            links.push({ origin: bank.key, target: `l${index}a`, cents: part }, { origin: bank.key, target: `l${index}b`, cents: size - part });
          } else if (shape === 3 && size > 1n) {
            // Partly matched: the ledger row is larger than the bank's.
            const extra = BigInt(random.integer(1, 20_000));
            rows.push({ key: `l${index}`, side: 'ledger', day: day(), cents: (size + extra) * sign, apart: null });
            links.push({ origin: bank.key, target: `l${index}`, cents: size });
          } else if (shape === 4) {
            bank.apart = random.next() < 0.5 ? 'informative' : 'out of scope';
          }
        }
        for (let index = 0; index < 6; index += 1) {
          rows.push({ key: `x${index}`, side: 'ledger', day: day(), cents: amount(), apart: index === 0 ? 'out of scope' : null });
        }
        const opening = BigInt(random.integer(-100_000, 100_000));

        const records = (side: Row['side']) =>
          rows
            .filter((row) => row.side === side)
            .map((row) => ({ externalId: row.key, timestamp: dateOf(row.day), amount: cents(row.cents), currency: 'EUR', description: row.key }));
        const ids = {
          ...(await addTransactions(server, organization, bankId, records('bank'))),
          ...(await addTransactions(server, organization, ledgerId, records('ledger'))),
        };
        for (const link of links) {
          const made = await api(server, organization.token, 'POST', `${base}/matches`, {
            links: [{ originId: ids[link.origin], targetId: ids[link.target], amount: cents(link.cents) }],
          });
          assert.equal(made.status, 201, JSON.stringify(made.body));
        }
        for (const row of rows.filter((candidate) => candidate.apart !== null)) {
          const marked = await api(server, organization.token, 'PATCH', `${base}/transactions/${ids[row.key]}`, { reconciliationStatus: row.apart });
          assert.ok(marked.status < 300, JSON.stringify(marked.body));
        }
        const created = await api(server, organization.token, 'POST', `${base}/reconciliations`, {
          name: 'Random',
          currency: 'EUR',
          bankDatasetIds: [bankId],
          ledgerDatasetIds: [ledgerId],
          ledgerOpeningBalance: cents(opening),
          ledgerOpeningDate: '2026-02-01',
        });
        assert.equal(created.status, 201, JSON.stringify(created.body));
        const answer = await api(server, organization.token, 'GET', `${base}/reconciliations/${created.body.id}/statement?periodEnd=2026-03-31`);
        assert.equal(answer.status, 200, JSON.stringify(answer.body));
        const statement = answer.body;

        // The identity, in exact cents.
        assert.equal(
          toCents(statement.adjustedBankBalance) - toCents(statement.adjustments.total) - toCents(statement.ledgerBalance.amount),
          toCents(statement.unexplainedDifference),
        );
        assert.equal(
          toCents(statement.adjustedBankBalance),
          toCents(statement.bankBalance.amount) + toCents(statement.ledgerNotInBank.total) - toCents(statement.bankNotInLedger.total),
        );

        // Every figure from the rows made, independently.
        const inPeriod = (row: Row) => row.day <= PERIOD_END_DAY;
        const byKey = new Map(rows.map((row) => [row.key, row]));
        const sum = (values: bigint[]) => values.reduce((total, value) => total + value, 0n);
        const open = (row: Row) => {
          const taken = sum(
            links
              .filter(
                (link) => (link.origin === row.key || link.target === row.key) && inPeriod(byKey.get(link.origin === row.key ? link.target : link.origin)!),
              )
              .map((link) => link.cents),
          );
          const size = row.cents < 0n ? -row.cents : row.cents;
          return (row.cents < 0n ? -1n : 1n) * (size - taken > 0n ? size - taken : 0n);
        };
        const expectedLine = (side: Row['side']) =>
          rows
            .filter((row) => row.side === side && inPeriod(row) && row.apart === null && open(row) !== 0n)
            .map((row) => [row.key, cents(open(row))])
            .sort();
        const line = (items: { description: string; countedAmount: string }[]) => items.map((item) => [item.description, item.countedAmount]).sort();
        assert.deepEqual(line(statement.ledgerNotInBank.items), expectedLine('ledger'));
        assert.deepEqual(line(statement.bankNotInLedger.items), expectedLine('bank'));
        const bankBalance = sum(rows.filter((row) => row.side === 'bank' && inPeriod(row)).map((row) => row.cents));
        const ledgerBalance = opening + sum(rows.filter((row) => row.side === 'ledger' && inPeriod(row)).map((row) => row.cents));
        assert.equal(toCents(statement.bankBalance.amount), bankBalance);
        assert.equal(statement.bankBalance.source, 'computed');
        assert.equal(toCents(statement.ledgerBalance.amount), ledgerBalance);
        assert.equal(statement.adjustments.total, '0.00');
        const apart = (side: Row['side']) => sum(rows.filter((row) => row.side === side && inPeriod(row) && row.apart !== null).map((row) => row.cents));
        assert.equal(toCents(statement.unexplainedDifference), apart('bank') - apart('ledger') - opening);
        assert.equal(
          statement.setApart.informative.length + statement.setApart.outOfScope.length,
          rows.filter((row) => inPeriod(row) && row.apart !== null).length,
        );
      });
    }
  });
}
