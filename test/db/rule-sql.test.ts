import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Database } from '../../src/db/database.ts';
import { pairConditionsSql, pairScoreSql } from '../../src/db/matching/rule-sql.ts';
import { Parameters } from '../../src/db/repositories/transaction-query.ts';
import type { CheckedCondition, CheckedRule, CheckedValue } from '../../src/domain/matching/rule-definition.ts';
import { insertDataset, insertOrganization, insertTransactions } from '../../support/fixtures.ts';
import { openTestStore, storeKinds } from '../../support/harness.ts';

/**
 * The rule compiler against a real store, on PGlite and on PostgreSQL: each condition kind and
 * each normalization turned into SQL and run over fixture rows, the expected pairs written out
 * by hand from the fixture.
 */

const DAY = 86_400_000;
const BASE = 1_700_000_000_000;

const field = (path: string, options: Partial<Extract<CheckedValue, { kind: 'field' }>> = {}): CheckedValue => ({
  kind: 'field',
  path,
  field: path === 'invoice' ? { source: 'custom', name: 'invoice', type: 'string' } : { source: 'standard', name: path as 'reference', type: 'string' },
  extract: null,
  normalize: [],
  ...options,
});

function ruleWith(conditions: CheckedCondition[], options: Partial<CheckedRule> = {}): CheckedRule {
  return {
    id: '00000000-0000-4000-8000-000000000001',
    version: 1,
    name: 'test',
    enabled: true,
    priority: 10,
    origin: { datasetIds: [], audience: new Map() },
    target: { datasetIds: [], audience: new Map() },
    cardinality: '1:1',
    conditions,
    groupBy: null,
    maxGroupSize: 5,
    outcome: { kind: 'match' },
    adjustmentReason: null,
    anyCurrency: false,
    runOnIngest: false,
    ...options,
  };
}

for (const kind of storeKinds()) {
  describe(`rule compiler (${kind})`, () => {
    let store: { database: Database; drop: () => Promise<void> };
    let bank: string;
    let ledger: string;

    before(async () => {
      store = await openTestStore(kind);
      const organizationId = await insertOrganization(store.database);
      bank = await insertDataset(store.database, organizationId, { name: 'Bank' });
      ledger = await insertDataset(store.database, organizationId, { name: 'Ledger', columns: [{ name: 'invoice', type: 'string' }] });
      await insertTransactions(store.database, organizationId, bank, [
        { externalId: 'b1', timestampMs: BASE, amount: '100.00', currency: 'EUR', reference: 'INV-0042', description: 'SEPA CT ACME GMBH RF INV-0042 THANKS' },
        { externalId: 'b2', timestampMs: BASE + 2 * DAY, amount: '-49.99', currency: 'eur', reference: ' inv 77 ', description: 'Card payment Widgets Ltd' },
        { externalId: 'b3', timestampMs: BASE, amount: '10.00', currency: 'USD', reference: '', description: 'Fee' },
      ]);
      await insertTransactions(store.database, organizationId, ledger, [
        {
          externalId: 'l1',
          timestampMs: BASE + DAY,
          amount: '100.00',
          currency: 'EUR',
          reference: 'inv-0042',
          description: 'Invoice 42 ACME',
          custom: { invoice: '42' },
        },
        {
          externalId: 'l2',
          timestampMs: BASE - 5 * DAY,
          amount: '49.99',
          currency: 'EUR',
          reference: 'INV77',
          description: 'Widgets Limited invoice',
          custom: { invoice: '77' },
        },
        { externalId: 'l3', timestampMs: BASE, amount: '10.40', currency: 'EUR', reference: null, description: 'Bank fee' },
      ]);
    });
    after(async () => store.drop());

    /** The (origin, target) external ids of every bank × ledger pair the rule's conditions accept. */
    async function pairsOf(rule: CheckedRule, amountUse: 'pair' | 'sign-only' = 'pair'): Promise<string[]> {
      const parameters = new Parameters();
      const rows = await store.database.query<{ pair: string }>(
        `SELECT o.external_id || '>' || t.external_id AS pair FROM transactions o, transactions t
          WHERE o.dataset_id = ${parameters.add(bank, 'uuid')} AND t.dataset_id = ${parameters.add(ledger, 'uuid')}
            AND ${pairConditionsSql(rule, parameters, amountUse)} ORDER BY 1`,
        parameters.values,
      );
      return rows.map((row) => row.pair);
    }

    it('amount: same sign, opposite sign, absolute; no tolerance means equal to the cent', async () => {
      assert.deepEqual(await pairsOf(ruleWith([{ type: 'amount', sign: 'same', toleranceAbsolute: null, tolerancePercent: null }], { anyCurrency: true })), [
        'b1>l1',
      ]);
      assert.deepEqual(
        await pairsOf(ruleWith([{ type: 'amount', sign: 'opposite', toleranceAbsolute: null, tolerancePercent: null }], { anyCurrency: true })),
        ['b2>l2'],
      );
      assert.deepEqual(
        await pairsOf(ruleWith([{ type: 'amount', sign: 'absolute', toleranceAbsolute: null, tolerancePercent: null }], { anyCurrency: true })),
        ['b1>l1', 'b2>l2'],
      );
    });

    it('amount tolerance: absolute and percent, the larger applies', async () => {
      const absolute = ruleWith([{ type: 'amount', sign: 'same', toleranceAbsolute: '0.40', tolerancePercent: null }], { anyCurrency: true });
      assert.deepEqual(await pairsOf(absolute), ['b1>l1', 'b3>l3']);
      const tooSmall = ruleWith([{ type: 'amount', sign: 'same', toleranceAbsolute: '0.39', tolerancePercent: null }], { anyCurrency: true });
      assert.deepEqual(await pairsOf(tooSmall), ['b1>l1']);
      // 4% of 10.00 is 0.40.
      const percent = ruleWith([{ type: 'amount', sign: 'same', toleranceAbsolute: '0.01', tolerancePercent: '4' }], { anyCurrency: true });
      assert.deepEqual(await pairsOf(percent), ['b1>l1', 'b3>l3']);
    });

    it('date: target minus origin within the window, bounds included', async () => {
      const window = (min: number, max: number) =>
        ruleWith(
          [{ type: 'date', path: 'timestamp', field: { source: 'standard', name: 'timestamp', type: 'date' }, minMilliseconds: min, maxMilliseconds: max }],
          { anyCurrency: true },
        );
      assert.deepEqual(await pairsOf(window(0, DAY)), ['b1>l1', 'b1>l3', 'b3>l1', 'b3>l3']);
      assert.deepEqual(await pairsOf(window(-7 * DAY, -7 * DAY)), ['b2>l2']);
    });

    it('equals with each normalization, and extract with one group', async () => {
      const equals = (origin: CheckedValue, target: CheckedValue) => ruleWith([{ type: 'equals', origin, target }], { anyCurrency: true });
      assert.deepEqual(await pairsOf(equals(field('reference'), field('reference'))), []);
      assert.deepEqual(await pairsOf(equals(field('reference', { normalize: ['casefold'] }), field('reference', { normalize: ['casefold'] }))), ['b1>l1']);
      assert.deepEqual(
        await pairsOf(equals(field('reference', { normalize: ['alnum', 'casefold'] }), field('reference', { normalize: ['alnum', 'casefold'] }))),
        ['b1>l1', 'b2>l2'],
      );
      assert.deepEqual(await pairsOf(equals(field('reference', { normalize: ['digits', 'trim-zeros'] }), field('invoice'))), ['b1>l1', 'b2>l2']);
      const extracted = field('description', { extract: 'INV-0*([0-9]+)' });
      assert.deepEqual(await pairsOf(equals(extracted, field('invoice'))), ['b1>l1']);
      // An extract that finds nothing never matches, not even an empty value.
      assert.deepEqual(await pairsOf(equals(field('description', { extract: 'NOPE([0-9]*)' }), field('reference'))), []);
      assert.deepEqual(await pairsOf(equals({ kind: 'constant', value: 'Fee' }, field('description', { extract: '(Fee)' }))), []);
    });

    it('contains: the target text contains the origin value', async () => {
      const rule = ruleWith([{ type: 'contains', origin: field('invoice'), target: field('reference') }], { anyCurrency: true });
      // Reversed sides: the bank reference contains nothing of the ledger; with origin = ledger fields this is the ledger invoice in bank text.
      assert.deepEqual(await pairsOf(rule), []);
      const inBankText = ruleWith([{ type: 'contains', origin: field('reference', { normalize: ['digits', 'trim-zeros'] }), target: field('description') }], {
        anyCurrency: true,
      });
      assert.deepEqual(await pairsOf(inBankText), ['b1>l1']);
    });

    it('similar: trigram similarity at least min', async () => {
      const rule = (min: number) =>
        ruleWith(
          [{ type: 'similar', origin: field('description', { normalize: ['casefold'] }), target: field('description', { normalize: ['casefold'] }), min }],
          { anyCurrency: true },
        );
      assert.ok((await pairsOf(rule(0.3))).includes('b3>l3'));
      assert.deepEqual(await pairsOf(rule(0.99)), []);
    });

    it('any: alternatives, and currencies equal unless "any"', async () => {
      const alternatives = ruleWith([
        {
          type: 'any',
          alternatives: [
            { type: 'equals', origin: field('reference', { normalize: ['casefold'] }), target: field('reference', { normalize: ['casefold'] }) },
            { type: 'amount', sign: 'opposite', toleranceAbsolute: null, tolerancePercent: null },
          ],
        },
      ]);
      assert.deepEqual(await pairsOf(alternatives), ['b1>l1', 'b2>l2']);
      const fee = [{ type: 'amount', sign: 'same', toleranceAbsolute: '1.00', tolerancePercent: null }] as CheckedCondition[];
      assert.deepEqual(await pairsOf(ruleWith(fee)), ['b1>l1'], 'USD against EUR is refused');
      assert.deepEqual(await pairsOf(ruleWith(fee, { anyCurrency: true })), ['b1>l1', 'b3>l3']);
    });

    it('scores a closer date and a smaller difference higher, exactly reproducibly', async () => {
      const rule = ruleWith(
        [
          { type: 'amount', sign: 'same', toleranceAbsolute: '1.00', tolerancePercent: null },
          {
            type: 'date',
            path: 'timestamp',
            field: { source: 'standard', name: 'timestamp', type: 'date' },
            minMilliseconds: -5 * DAY,
            maxMilliseconds: 5 * DAY,
          },
        ],
        { anyCurrency: true },
      );
      const parameters = new Parameters();
      const rows = await store.database.query<{ pair: string; score: string }>(
        `SELECT o.external_id || '>' || t.external_id AS pair, (${pairScoreSql(rule, parameters)})::text AS score FROM transactions o, transactions t
          WHERE o.dataset_id = ${parameters.add(bank, 'uuid')} AND t.dataset_id = ${parameters.add(ledger, 'uuid')} AND ${pairConditionsSql(rule, parameters, 'pair')} ORDER BY 1`,
        parameters.values,
      );
      // b1>l1: equal amounts, one day apart: 1 - 0.3 * 1/5 = 0.94. b3>l3: 0.40 of 1.00 apart, same day: 1 - 0.5 * 0.4 = 0.8.
      assert.deepEqual(
        rows.map((row) => [row.pair, Number(row.score)]),
        [
          ['b1>l1', 0.94],
          ['b3>l3', 0.8],
        ],
      );
    });
  });
}
