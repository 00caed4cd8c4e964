/**
 * Payouts on PostgreSQL (a section of `npm run bench -- payouts`; not part of the tests): N bank
 * deposits, each the net of M provider rows under its payout id (charges, a few refunds, one fee
 * row), matched by one 1:N rule grouped by payoutId (SPEC §16). The real server runs as a child
 * process; the rule and runs go through HTTP. The dry run is timed against a hand-written
 * statement that does the same work by key (group the provider's rows by payout id, compare the
 * signed sums with the deposits, write one narrow row per link), and a commit run against that
 * and hand-written statements that insert the same groups and matches, derive the statuses and
 * append the audit rows (in a transaction rolled back before the engine runs). Both floors
 * are measured in the same run, so the machine's speed cancels out of the ratios.
 *
 * Settings: DATABASE_URL (required), BENCH_PAYOUTS (default 100), BENCH_PAYOUT_ROWS (rows per
 * payout, default 100); the size is BENCH_PAYOUTS=1000 BENCH_PAYOUT_ROWS=500.
 */
import { createRule, ingest, newOrganization, runToEnd, timed, withBench } from './matching.ts';
import { callApi, log, positiveInteger, printTable, type TableRow } from './support.ts';
import type { IngestRecord } from './truth-set.ts';

const DAY_MS = 86_400_000;
const START_MS = Date.UTC(2026, 0, 5);
const TARGET_RATIO = 2;

/** The cents of row `row` of payout `payout`: charges of 5.00 to 204.99, every 50th a refund, the last the payout's fees. */
function rowCents(payout: number, row: number, rows: number): { cents: number; type: string } {
  if (row === rows - 1) return { cents: -(100 + ((payout * 37) % 900)), type: 'fee' };
  const cents = 500 + ((payout * 7919 + row * 104_729) % 20_000);
  return row % 50 === 49 ? { cents: -Math.floor(cents / 4), type: 'refund' } : { cents, type: 'charge' };
}

/** Cents as a decimal text, by integer arithmetic alone. */
function decimalOfCents(cents: number): string {
  const sign = cents < 0 ? '-' : '';
  const absolute = Math.abs(cents);
  return `${sign}${Math.floor(absolute / 100)}.${String(absolute % 100).padStart(2, '0')}`;
}

/** The hand-written work of a dry run: the keys' signed sums against the deposits, one narrow row per link. */
const DRY_FLOOR = `
CREATE TEMP TABLE bench_payout_links ON COMMIT DROP AS
WITH sums AS (
  SELECT custom ->> 'payoutId' AS key, sum(amount) AS net FROM transactions
   WHERE organization_id = $1 AND dataset_id = $3 AND reconciliation_status IN ('none', 'partial') GROUP BY 1),
matched AS (
  SELECT d.id AS deposit_id, d.custom ->> 'payoutId' AS key FROM transactions d JOIN sums s ON s.key = d.custom ->> 'payoutId' AND s.net = d.amount
   WHERE d.organization_id = $1 AND d.dataset_id = $2 AND d.reconciliation_status IN ('none', 'partial'))
SELECT gen_random_uuid() AS id, m.deposit_id, t.id AS row_id, abs(t.amount) AS amount, t.amount < 0 AS reduces
  FROM matched m JOIN transactions t ON t.organization_id = $1 AND t.dataset_id = $3 AND t.custom ->> 'payoutId' = m.key`;

/** The hand-written work of a commit, from the links: groups, matches, statuses, audit rows. */
const COMMIT_FLOOR = [
  `CREATE TEMP TABLE bench_payout_groups ON COMMIT DROP AS SELECT deposit_id, gen_random_uuid() AS group_id FROM bench_payout_links GROUP BY deposit_id`,
  `INSERT INTO match_groups (id, organization_id, method, rule_id, created_by) SELECT group_id, $1, 'rule', $2, 'bench-baseline' FROM bench_payout_groups`,
  `INSERT INTO matches (id, organization_id, group_id, origin_id, origin_dataset_id, target_id, target_dataset_id, amount, method, rule_id, created_by, reduces)
   SELECT l.id, $1, g.group_id, l.deposit_id, $3, l.row_id, $4, l.amount, 'rule', $2, 'bench-baseline', CASE WHEN l.reduces THEN 'origin' END
     FROM bench_payout_links l JOIN bench_payout_groups g USING (deposit_id)`,
  `UPDATE transactions t SET allocated_amount = s.allocated, match_count = s.links, reconciliation_status = CASE WHEN s.allocated >= abs(t.amount) THEN 'full' ELSE 'partial' END
     FROM (SELECT deposit_id AS id, sum(CASE WHEN reduces THEN -amount ELSE amount END) AS allocated, count(*) AS links FROM bench_payout_links GROUP BY 1
           UNION ALL SELECT row_id, amount, 1 FROM bench_payout_links) AS s
    WHERE t.organization_id = $1 AND t.id = s.id`,
  `INSERT INTO audit_events (id, organization_id, actor, action, transaction_id, related_transaction_id, match_id, group_id, after)
   SELECT gen_random_uuid(), $1, 'bench-baseline', 'match.created', origin_id, target_id, id, group_id,
          jsonb_build_object('id', id, 'groupId', group_id, 'originId', origin_id, 'targetId', target_id, 'amount', amount::text)
     FROM matches WHERE organization_id = $1 AND created_by = 'bench-baseline'`,
  `INSERT INTO audit_events (id, organization_id, actor, action, transaction_id, after)
   SELECT gen_random_uuid(), $1, 'bench-baseline', 'transaction.status_changed', t.id,
          jsonb_build_object('reconciliationStatus', t.reconciliation_status, 'allocatedAmount', t.allocated_amount::text, 'matchCount', t.match_count)
     FROM transactions t WHERE t.organization_id = $1 AND t.match_count > 0`,
];

function row(scenario: string, baseline: number, measured: number): TableRow {
  const ratio = measured / baseline;
  return {
    scenario,
    baseline: `${baseline.toFixed(2)} s`,
    measured: `${measured.toFixed(2)} s`,
    ratio: `${ratio.toFixed(2)}x`,
    target: `<= ${TARGET_RATIO}x`,
    verdict: ratio <= TARGET_RATIO ? 'ok' : 'over',
  };
}

export async function benchPayouts(): Promise<TableRow[]> {
  const payouts = positiveInteger('BENCH_PAYOUTS', 100);
  const rowsPerPayout = Math.max(2, positiveInteger('BENCH_PAYOUT_ROWS', 100));
  return withBench(async (bench) => {
    const api = await newOrganization(bench, 'Bench payouts');
    const source = await callApi<{ id: string }>(api, 'POST', '/sources', { name: 'Payouts' });
    const dataset = async (name: string) =>
      (await callApi<{ id: string }>(api, 'POST', `/sources/${source.body.id}/datasets`, { name, columns: [{ name: 'payoutId', type: 'string' }] })).body.id;
    const bank = await dataset('Bank');
    const provider = await dataset('Provider');
    log(
      `payouts: ${payouts.toLocaleString('en')} payouts x ${rowsPerPayout.toLocaleString('en')} provider rows against ${payouts.toLocaleString('en')} deposits`,
    );
    // IngestRecord and the columns of these datasets (type, payoutId).
    const deposits: (IngestRecord & { payoutId: string })[] = [];
    const providerRows: (IngestRecord & { payoutId: string; type: string })[] = [];
    for (let payout = 0; payout < payouts; payout++) {
      let net = 0;
      for (let index = 0; index < rowsPerPayout; index++) {
        const { cents, type } = rowCents(payout, index, rowsPerPayout);
        net += cents;
        providerRows.push({
          externalId: `p${payout}-${index}`,
          timestamp: START_MS + (payout % 30) * DAY_MS,
          amount: decimalOfCents(cents),
          currency: 'EUR',
          description: `${type} of payout po_${payout}`,
          reference: null,
          type,
          payoutId: `po_${payout}`,
        });
      }
      deposits.push({
        externalId: `d${payout}`,
        timestamp: START_MS + ((payout % 30) + 2) * DAY_MS,
        amount: decimalOfCents(net),
        currency: 'EUR',
        description: `PAYOUT po_${payout}`,
        reference: null,
        payoutId: `po_${payout}`,
      });
    }
    const loaded = await timed(async () => {
      await ingest(api, bank, deposits);
      await ingest(api, provider, providerRows);
      await bench.client.query('ANALYZE transactions');
    });
    log(`  payouts: loaded through the API in ${loaded.seconds.toFixed(1)} s`);

    const ruleId = await createRule(api, {
      name: 'Provider payouts',
      origin: { datasetIds: [bank] },
      target: { datasetIds: [provider] },
      cardinality: '1:N',
      groupBy: { origin: ['payoutId'], target: ['payoutId'] },
      conditions: [{ type: 'amount', sign: 'same' }],
    });

    // The floors, in a transaction rolled back, so that the engine then meets the same data.
    await bench.client.query('BEGIN');
    let dryFloor: { seconds: number };
    let commitFloor: { seconds: number };
    try {
      dryFloor = await timed(() => bench.client.query(DRY_FLOOR, [api.orgId, bank, provider]));
      const links = Number((await bench.client.query<{ count: string }>('SELECT count(*) AS count FROM bench_payout_links')).rows[0]!.count);
      log(`  payouts: the hand-written dry run found ${links.toLocaleString('en')} links in ${dryFloor.seconds.toFixed(2)} s`);
      commitFloor = await timed(async () => {
        const values = [api.orgId, ruleId, bank, provider];
        // Each statement takes the parameters it names: $1 the organization, $2 the rule, $3 the bank, $4 the provider.
        for (const statement of COMMIT_FLOOR)
          await bench.client.query(statement, values.slice(0, Math.max(0, ...[...statement.matchAll(/\$(\d)/g)].map((found) => Number(found[1])))));
      });
      log(`  payouts: the hand-written commit took ${commitFloor.seconds.toFixed(2)} s`);
    } finally {
      await bench.client.query('ROLLBACK');
    }
    await bench.client.query('VACUUM ANALYZE transactions');

    const dry = await runToEnd(bench, api, { mode: 'dry-run' }, 'payouts dry run');
    const matched = dry.run.counts?.reduce((total, count) => total + count.matched, 0) ?? 0;
    if (matched !== payouts) throw new Error(`the dry run matched ${matched} payouts of ${payouts}`);
    // A commit run decides again and carries out its decisions in one transaction: timed against
    // both floors. (Committing the dry run instead is a request, bound by QUERY_TIMEOUT_MS.)
    const committed = await runToEnd(bench, api, { mode: 'commit' }, 'payouts commit run');
    const open = await bench.client.query<{ count: string }>(
      `SELECT count(*) AS count FROM transactions WHERE organization_id = $1 AND reconciliation_status <> 'full'`,
      [api.orgId],
    );
    if (Number(open.rows[0]!.count) !== 0) throw new Error(`${open.rows[0]!.count} transactions are not fully matched after the commit`);
    const size = `${payouts.toLocaleString('en')} x ${rowsPerPayout.toLocaleString('en')}`;
    return [
      row(`payouts ${size}: dry run vs. hand-written SQL`, dryFloor.seconds, dry.seconds),
      row(`payouts ${size}: commit run vs. hand-written SQL`, dryFloor.seconds + commitFloor.seconds, committed.seconds),
    ];
  }, 'bench_ledger_recon_payouts');
}

export function printPayoutsTable(rows: TableRow[]): void {
  console.log('\nledger-recon bench: payouts on PostgreSQL (one 1:N rule grouped by payout id; every payout matched; floors measured in the same run)');
  printTable(rows);
}
