/**
 * Matching on PostgreSQL (a section of `npm run bench`; not part of the tests). The real server
 * runs as a child process on a database of its own; rules and runs go through HTTP as a client
 * would send them, and the outcome is read back from the database. Three parts, one run:
 *
 * - scale: a 1:1 rule (equal amount, equal reference, dates within ±3 days) over 1,000,000 bank
 *   × 1,000,000 ledger transactions, loaded with COPY. Its dry run is timed against the join
 *   alone (a SELECT count(*) of the same join), its commit against a hand-written statement that
 *   joins the same keys and inserts the same match groups and matches (run in a transaction that
 *   is rolled back, so that the engine then meets the same data). Two floors are printed beside
 *   them for information: the join writing one narrow row per pair (the least a dry run that
 *   records its decisions writes), and the insert with the status update and the audit rows a
 *   commit must also write.
 * - sets: a 1:N rule that searches sets of up to 5 invoices per deposit (customer number, exact
 *   sum, date window) over about 10,000 deposits × 50,000 invoices: throughput and the share of
 *   the true sets it finds.
 * - quality: the truth set of bench/truth-set.ts (about 5,000 invoices) under the rules a finance
 *   team would write; precision, recall per case, and what became of the ambiguous cases.
 *
 * Settings: DATABASE_URL (required; a server where it creates its own database),
 * BENCH_MATCHING_PARTS (default "quality,sets,scale"), BENCH_MATCHING_ROWS (transactions per side
 * of the scale part, default 1000000), BENCH_MATCHING_INVOICES (sets part, default 50000; about a
 * fifth as many deposits), BENCH_MATCHING_TRUTH_INVOICES (quality part, default 5000),
 * BENCH_MATCHING_SEED (default 20260101), BENCH_MATCHING_RUN_TIMEOUT_SECONDS (default 3600),
 * BENCH_KEEP_DATABASE=1 to keep the database afterwards.
 */
import { randomUUID } from 'node:crypto';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import pg from 'pg';
import { from as copyFrom } from 'pg-copy-streams';
import { loadConfig, type Config } from '../src/config.ts';
import { openDatabase, type Database } from '../src/db/database.ts';
import { migrate } from '../src/db/migrate.ts';
import { createOrganization } from '../src/domain/organizations.ts';
import { createServices } from '../src/domain/services.ts';
import {
  callApi,
  clientCredentialsToken,
  dropDatabase,
  format,
  freePort,
  log,
  positiveInteger,
  printTable,
  recreateDatabase,
  startServer,
  stopServer,
  type TableRow,
} from './support.ts';
import {
  PATTERNS,
  TRUE_CASES,
  TRUTH_LIMITS,
  AMBIGUOUS_CASES,
  centsToDecimal,
  describeTruthSet,
  generateTruthSet,
  type IngestRecord,
  type TrueCase,
  type TruthSet,
} from './truth-set.ts';

const BENCH_DATABASE = 'bench_ledger_recon_matching';
const DAY_MS = 86_400_000;
const INGEST_BATCH = 10_000;
const PARTS = ['quality', 'sets', 'scale'] as const;
type Part = (typeof PARTS)[number];

const TARGETS = {
  precision: 0.999,
  recallOneToOne: 0.98,
  recallSets: 0.95,
  dryRunOverJoin: 1.5,
  commitOverBaseline: 2,
} as const;

interface Api {
  baseUrl: string;
  orgId: string;
  token: string;
}

export interface Bench {
  baseUrl: string;
  config: Config;
  database: Database;
  services: ReturnType<typeof createServices>;
  /** A connection of the bench's own, for loading, baselines and reading results. */
  client: pg.Client;
  runTimeoutMs: number;
}

interface RunCounts {
  ruleId: string;
  matched: number;
  suggested: number;
  ambiguous: number;
  classified: number;
  boundsHit: number;
}

interface Run {
  id: string;
  status: string;
  progress?: { examined: number; total: number };
  counts?: RunCounts[];
  timings?: Record<string, unknown>;
  error?: unknown;
}

// ---------------------------------------------------------------------------------------------
// The API, as a client uses it
// ---------------------------------------------------------------------------------------------

/** A new organization (made in-process, as the command line does) and a token of its API client. */
export async function newOrganization(bench: Bench, name: string): Promise<Api> {
  const organization = await createOrganization(bench.database, bench.services.apiClients, {
    name,
    adminEmail: `${name.toLowerCase().replace(/[^a-z]/g, '')}@example.com`,
    createdBy: 'bench',
  });
  const token = await clientCredentialsToken(bench.baseUrl, organization.client, bench.config.audience);
  return { baseUrl: bench.baseUrl, orgId: organization.orgId, token };
}

export async function createDatasets(api: Api, sourceName: string, names: string[]): Promise<string[]> {
  const source = await callApi<{ id: string }>(api, 'POST', '/sources', { name: sourceName });
  const ids: string[] = [];
  for (const name of names) ids.push((await callApi<{ id: string }>(api, 'POST', `/sources/${source.body.id}/datasets`, { name, columns: [] })).body.id);
  return ids;
}

export async function ingest(api: Api, datasetId: string, records: readonly IngestRecord[]): Promise<void> {
  for (let start = 0; start < records.length; start += INGEST_BATCH) {
    const batch = records.slice(start, start + INGEST_BATCH);
    const { body } = await callApi<{ inserted: number; duplicates: number }>(api, 'POST', `/datasets/${datasetId}/transactions`, { records: batch }, [200]);
    if (body.inserted !== batch.length) throw new Error(`ingest stored ${body.inserted} of ${batch.length} records (${body.duplicates} duplicates)`);
  }
}

export async function createRule(api: Api, rule: Record<string, unknown>): Promise<string> {
  const { body } = await callApi<{ id: string }>(api, 'POST', '/rules', rule, [201]);
  return body.id;
}

/** The 1:1 rule the benches match by: the same reference, the same sign, dates within three days. */
export function exactReferenceRule(bank: string, ledger: string, runOnIngest: boolean): Record<string, unknown> {
  return {
    name: 'Exact reference, ±3 days',
    priority: 10,
    enabled: true,
    origin: { datasetIds: [bank] },
    target: { datasetIds: [ledger] },
    cardinality: '1:1',
    conditions: [
      { type: 'amount', sign: 'same' },
      { type: 'equals', origin: { path: 'reference' }, target: { path: 'reference' } },
      { type: 'date', path: 'timestamp', min: '-P3D', max: 'P3D' },
    ],
    outcome: 'match',
    runOnIngest,
  };
}

/** Starts a run and waits for its end; the time is from the request to the answer that says it ended. */
export async function runToEnd(bench: Bench, api: Api, request: Record<string, unknown>, label: string): Promise<{ run: Run; seconds: number }> {
  const started = performance.now();
  const { body, headers } = await callApi<Run>(api, 'POST', '/runs', request, [202]);
  if (!headers.get('location')) log(`  note: POST /runs answered 202 without a Location header`);
  const deadline = Date.now() + bench.runTimeoutMs;
  let lastReport = 0;
  for (;;) {
    const run = (await callApi<Run>(api, 'GET', `/runs/${body.id}`)).body;
    const elapsed = performance.now() - started;
    if (!['queued', 'running'].includes(run.status)) {
      const seconds = elapsed / 1000;
      log(
        `  ${label}: ${run.status} in ${seconds.toFixed(2)} s (engine timings ${JSON.stringify(run.timings ?? {})}); counts ${JSON.stringify(run.counts ?? [])}`,
      );
      if (run.status !== 'completed') throw new Error(`the run ${label} ended ${run.status}: ${JSON.stringify(run.error ?? run).slice(0, 2000)}`);
      return { run, seconds };
    }
    if (Date.now() > deadline)
      throw new Error(`the run ${label} did not end within ${bench.runTimeoutMs / 1000} s (last: ${JSON.stringify(run).slice(0, 500)})`);
    if (elapsed - lastReport > 30_000) {
      lastReport = elapsed;
      log(`  ${label}: ${run.status}, ${run.progress ? `${run.progress.examined} of ${run.progress.total} examined` : 'no progress yet'}`);
    }
    // Short polls while a run is young, so that small runs are timed closely.
    await new Promise((resolve) => setTimeout(resolve, Math.min(1000, 50 + elapsed / 50)));
  }
}

// ---------------------------------------------------------------------------------------------
// Reading what the engine made, and scoring it against the truth
// ---------------------------------------------------------------------------------------------

/** A match group as sets of external ids per side (bank: origins of the truth; ledger: targets). */
interface MadeGroup {
  key: string;
  ruleId: string | null;
  bank: string[];
  ledger: string[];
}

interface LinkRow {
  group_id: string;
  rule_id: string | null;
  origin_dataset: string;
  origin_external: string;
  target_dataset: string;
  target_external: string;
}

function groupsFromLinks(rows: LinkRow[], bankDatasetId: string): MadeGroup[] {
  const groups = new Map<string, { ruleId: string | null; bank: Set<string>; ledger: Set<string> }>();
  for (const row of rows) {
    let group = groups.get(row.group_id);
    if (!group) groups.set(row.group_id, (group = { ruleId: row.rule_id, bank: new Set(), ledger: new Set() }));
    (row.origin_dataset === bankDatasetId ? group.bank : group.ledger).add(row.origin_external);
    (row.target_dataset === bankDatasetId ? group.bank : group.ledger).add(row.target_external);
  }
  return [...groups.values()].map((group) => {
    const bank = [...group.bank].sort();
    const ledger = [...group.ledger].sort();
    return { key: groupKey(bank, ledger), ruleId: group.ruleId, bank, ledger };
  });
}

const groupKey = (bank: readonly string[], ledger: readonly string[]) => `${[...bank].sort().join('+')}|${[...ledger].sort().join('+')}`;

/** The groups rules made in an organization (committed matches). */
export async function committedGroups(client: pg.Client, orgId: string, bankDatasetId: string): Promise<MadeGroup[]> {
  const { rows } = await client.query<LinkRow>(
    `SELECT m.group_id, m.rule_id::text, o.dataset_id::text AS origin_dataset, o.external_id AS origin_external,
            t.dataset_id::text AS target_dataset, t.external_id AS target_external
       FROM matches m JOIN transactions o ON o.id = m.origin_id JOIN transactions t ON t.id = m.target_id
      WHERE m.organization_id = $1 AND m.method = 'rule'`,
    [orgId],
  );
  return groupsFromLinks(rows, bankDatasetId);
}

/** The groups a dry run would make, from its recorded results (run_results.links, or run_result_transactions for a payout's). */
async function dryRunGroups(client: pg.Client, runId: string, bankDatasetId: string): Promise<MadeGroup[]> {
  const { rows } = await client.query<LinkRow>(
    `SELECT r.sequence::text AS group_id, r.rule_id::text, o.dataset_id::text AS origin_dataset, o.external_id AS origin_external,
            t.dataset_id::text AS target_dataset, t.external_id AS target_external
       FROM run_results r CROSS JOIN LATERAL jsonb_array_elements(r.links) AS link
       JOIN transactions o ON o.id = (link->>'originId')::uuid JOIN transactions t ON t.id = (link->>'targetId')::uuid
      WHERE r.run_id = $1 AND r.kind = 'match'
     UNION ALL
     SELECT r.sequence::text, r.rule_id::text, o.dataset_id::text, o.external_id, t.dataset_id::text, t.external_id
       FROM run_result_transactions l JOIN run_results r ON r.organization_id = l.organization_id AND r.sequence = l.sequence
       JOIN transactions o ON o.id = l.origin_id JOIN transactions t ON t.id = l.target_id
      WHERE l.run_id = $1 AND r.kind = 'match'`,
    [runId],
  );
  return groupsFromLinks(rows, bankDatasetId);
}

/** Pending and other suggestions of an organization, as lists of external ids. */
export async function suggestionsOf(client: pg.Client, orgId: string): Promise<Array<{ status: string; reason: string; ids: string[] }>> {
  const { rows } = await client.query<{ status: string; reason: string; ids: string[] }>(
    `SELECT s.status, s.reason, array_agg(t.external_id ORDER BY t.external_id) AS ids
       FROM suggestions s CROSS JOIN LATERAL unnest(s.transaction_ids) AS member (id) JOIN transactions t ON t.id = member.id
      WHERE s.organization_id = $1 GROUP BY s.id, s.status, s.reason`,
    [orgId],
  );
  return rows;
}

interface Score {
  made: number;
  correct: number;
  wrong: MadeGroup[];
  perCase: Map<TrueCase, { total: number; found: number; missed: string[] }>;
}

export function scoreGroups(truth: TruthSet, made: readonly MadeGroup[]): Score {
  const trueKeys = new Map(truth.groups.map((group) => [groupKey(group.originExternalIds, group.targetExternalIds), group]));
  const perCase = new Map<TrueCase, { total: number; found: number; missed: string[] }>();
  for (const name of TRUE_CASES) perCase.set(name, { total: 0, found: 0, missed: [] });
  const madeKeys = new Set(made.map((group) => group.key));
  for (const [key, group] of trueKeys) {
    const entry = perCase.get(group.case)!;
    entry.total += 1;
    if (madeKeys.has(key)) entry.found += 1;
    else entry.missed.push(key);
  }
  const wrong = made.filter((group) => !trueKeys.has(group.key));
  return { made: made.length, correct: made.length - wrong.length, wrong, perCase };
}

const percent = (part: number, whole: number) => (whole === 0 ? 'n/a' : `${((100 * part) / whole).toFixed(2)}%`);

function shareRow(scenario: string, part: number, whole: number, target: number, wholeLabel: string, partLabel: string): TableRow {
  const share = whole === 0 ? 1 : part / whole;
  return {
    scenario,
    baseline: `${whole.toLocaleString('en')} ${wholeLabel}`,
    measured: `${part.toLocaleString('en')} ${partLabel}`,
    ratio: percent(part, whole),
    target: `>= ${(target * 100).toFixed(target >= 0.999 ? 1 : 0)}%`,
    verdict: whole === 0 ? 'n/a' : share >= target ? 'PASS' : 'FAIL',
  };
}

/** Logs what went wrong in a form that reproduces it: the records, the truth about them, the rule. */
function logFailures(truth: TruthSet, score: Score, ruleNames: Map<string, string>, label: string): void {
  const records = new Map([...truth.bank, ...truth.ledger].map((record) => [record.externalId, record]));
  const truthOf = new Map<string, string>();
  for (const group of truth.groups)
    for (const id of [...group.originExternalIds, ...group.targetExternalIds])
      truthOf.set(id, `${group.case} ${groupKey(group.originExternalIds, group.targetExternalIds)}`);
  for (const item of truth.ambiguous)
    for (const id of [...item.originExternalIds, ...item.targetExternalIds]) truthOf.set(id, `${item.case} (must not be matched)`);
  const show = (id: string) => {
    const record = records.get(id);
    return `      ${id}: ${record ? `${record.amount} ${record.currency} ${new Date(record.timestamp).toISOString().slice(0, 10)} ref=${JSON.stringify(record.reference)} "${record.description}"` : '?'} — truth: ${truthOf.get(id) ?? 'no counterpart'}`;
  };
  for (const group of score.wrong.slice(0, 10)) {
    log(`  ${label}: WRONG group by rule "${ruleNames.get(group.ruleId ?? '') ?? group.ruleId}": ${group.key}`);
    for (const id of [...group.bank, ...group.ledger]) log(show(id));
  }
  if (score.wrong.length > 10) log(`  ${label}: ... and ${score.wrong.length - 10} more wrong groups`);
  for (const [name, entry] of score.perCase) {
    for (const key of entry.missed.slice(0, 3)) {
      log(`  ${label}: missed ${name}: ${key}`);
      for (const id of key.split(/[|+]/)) log(show(id));
    }
    if (entry.missed.length > 3) log(`  ${label}: ... and ${entry.missed.length - 3} more missed in ${name}`);
  }
}

// ---------------------------------------------------------------------------------------------
// Quality: the truth set under a finance team's rules
// ---------------------------------------------------------------------------------------------

/** The rules a finance team would write for a bank account against its sales and purchase ledger. */
export function qualityRules(bankDatasetId: string, ledgerDatasetId: string): Array<Record<string, unknown>> {
  const sides = { origin: { datasetIds: [bankDatasetId] }, target: { datasetIds: [ledgerDatasetId] } };
  const invoiceNumberInText = { path: 'description', extract: PATTERNS.invoiceNumber, normalize: ['digits', 'trim-zeros'] };
  const invoiceNumber = { path: 'reference', normalize: ['digits', 'trim-zeros'] };
  // Target minus origin: the invoice is dated up to 5 days before the payment (a day of slack each way).
  const paidAfterInvoice = { type: 'date', path: 'timestamp', min: '-P6D', max: 'P1D' };
  const common = { enabled: true, outcome: 'match', runOnIngest: false, ...sides };
  return [
    {
      name: 'Exact reference',
      priority: 10,
      ...common,
      cardinality: '1:1',
      conditions: [{ type: 'amount', sign: 'same' }, { type: 'equals', origin: { path: 'reference' }, target: { path: 'reference' } }, paidAfterInvoice],
    },
    {
      name: 'Invoice number in the bank text',
      priority: 20,
      ...common,
      cardinality: '1:1',
      conditions: [{ type: 'amount', sign: 'same' }, { type: 'equals', origin: invoiceNumberInText, target: invoiceNumber }, paidAfterInvoice],
    },
    {
      name: 'USD invoice paid at another rate',
      priority: 30,
      ...common,
      cardinality: '1:1',
      conditions: [
        { type: 'amount', sign: 'same', tolerance: { percent: TRUTH_LIMITS.fxTolerancePercent } },
        { type: 'equals', origin: invoiceNumberInText, target: invoiceNumber },
        { type: 'contains', origin: { value: 'USD' }, target: { path: 'description' } },
        paidAfterInvoice,
      ],
      adjustment: { reason: 'fx' },
    },
    {
      name: 'Bank charges deducted',
      priority: 40,
      ...common,
      cardinality: '1:1',
      conditions: [
        { type: 'amount', sign: 'same', tolerance: { absolute: TRUTH_LIMITS.feeToleranceAbsolute } },
        { type: 'equals', origin: invoiceNumberInText, target: invoiceNumber },
        paidAfterInvoice,
      ],
      adjustment: { reason: 'fee' },
    },
    {
      name: 'Invoice paid in instalments',
      priority: 50,
      ...common,
      cardinality: 'N:1',
      maxGroupSize: TRUTH_LIMITS.maxGroupSize,
      conditions: [
        { type: 'amount', sign: 'same' },
        { type: 'equals', origin: invoiceNumberInText, target: invoiceNumber },
        { type: 'date', path: 'timestamp', min: '-P60D', max: 'P1D' },
      ],
    },
    customerDepositRule(bankDatasetId, ledgerDatasetId, 60),
  ];
}

/** One deposit for one or more invoices of the customer it names: set search on the exact sum. */
function customerDepositRule(bankDatasetId: string, ledgerDatasetId: string, priority: number): Record<string, unknown> {
  const customerNumber = { path: 'description', extract: PATTERNS.customerNumber };
  return {
    name: 'Customer deposit for one or more invoices',
    priority,
    enabled: true,
    outcome: 'match',
    runOnIngest: false,
    origin: { datasetIds: [bankDatasetId] },
    target: { datasetIds: [ledgerDatasetId] },
    cardinality: '1:N',
    maxGroupSize: TRUTH_LIMITS.maxGroupSize,
    conditions: [
      { type: 'amount', sign: 'same' },
      { type: 'equals', origin: customerNumber, target: customerNumber },
      { type: 'date', path: 'timestamp', min: '-P6D', max: 'P1D' },
    ],
  };
}

async function benchQuality(bench: Bench, seed: number): Promise<TableRow[]> {
  const invoices = positiveInteger('BENCH_MATCHING_TRUTH_INVOICES', 5000);
  const truth = generateTruthSet({ seed, invoices });
  log(`quality: truth set of ${describeTruthSet(truth)}`);
  const api = await newOrganization(bench, 'Bench quality');
  const [bank, ledger] = (await createDatasets(api, 'Bench quality', ['Bank statement', 'Sales and purchase ledger'])) as [string, string];
  await ingest(api, bank, truth.bank);
  await ingest(api, ledger, truth.ledger);
  const ruleNames = new Map<string, string>();
  const ruleIds: string[] = [];
  for (const rule of qualityRules(bank, ledger)) {
    const id = await createRule(api, rule);
    ruleIds.push(id);
    ruleNames.set(id, rule.name as string);
  }

  // A dry run first: what it would do must be what the commit then does.
  const dry = await runToEnd(bench, api, { mode: 'dry-run', ruleIds }, 'quality dry run');
  let dryGroups: MadeGroup[] | null = null;
  try {
    dryGroups = await dryRunGroups(bench.client, dry.run.id, bank);
  } catch (error) {
    log(`  quality: could not read the dry run's results from run_results (${(error as Error).message})`);
  }
  const commit = await runToEnd(bench, api, { mode: 'commit', ruleIds }, 'quality commit');
  const made = await committedGroups(bench.client, api.orgId, bank);
  if (dryGroups !== null) {
    const dryKeys = new Set(dryGroups.map((group) => group.key));
    const madeKeys = new Set(made.map((group) => group.key));
    const onlyDry = [...dryKeys].filter((key) => !madeKeys.has(key));
    const onlyCommit = [...madeKeys].filter((key) => !dryKeys.has(key));
    log(
      `  quality: dry run ${dryKeys.size} groups, commit ${madeKeys.size}; only in the dry run ${onlyDry.length}, only in the commit ${onlyCommit.length}` +
        (onlyDry.length + onlyCommit.length > 0 ? ` (e.g. ${[...onlyDry, ...onlyCommit].slice(0, 3).join(', ')})` : ''),
    );
  }
  const score = scoreGroups(truth, made);
  logFailures(truth, score, ruleNames, 'quality');
  const perRule = new Map<string, number>();
  for (const group of made)
    perRule.set(ruleNames.get(group.ruleId ?? '') ?? String(group.ruleId), (perRule.get(ruleNames.get(group.ruleId ?? '') ?? String(group.ruleId)) ?? 0) + 1);
  log(`  quality: groups per rule ${JSON.stringify(Object.fromEntries(perRule))}`);

  const touched = new Set(made.flatMap((group) => [...group.bank, ...group.ledger]));
  const suggestions = await suggestionsOf(bench.client, api.orgId);
  const suggested = new Set(suggestions.filter((suggestion) => suggestion.status === 'pending').flatMap((suggestion) => suggestion.ids));
  log(`  quality: ${suggestions.length} suggestions (${suggestions.filter((s) => s.reason === 'ambiguous').length} ambiguous)`);

  const rows: TableRow[] = [shareRow('(c) precision: groups made that are true groups', score.correct, score.made, TARGETS.precision, 'made', 'true')];
  for (const [name, entry] of score.perCase) {
    const target = name.startsWith('1:1') ? TARGETS.recallOneToOne : TARGETS.recallSets;
    rows.push(shareRow(`(c) recall ${name}`, entry.found, entry.total, target, 'true', 'found'));
  }
  for (const name of AMBIGUOUS_CASES) {
    const cases = truth.ambiguous.filter((item) => item.case === name);
    const ids = (item: (typeof cases)[number]) => [...item.originExternalIds, ...item.targetExternalIds];
    const matchedCases = cases.filter((item) => ids(item).some((id) => touched.has(id))).length;
    const suggestedCases = cases.filter((item) => ids(item).every((id) => suggested.has(id))).length;
    rows.push({
      scenario: `(c) ${name}: cases matched automatically`,
      baseline: `${cases.length} cases`,
      measured: `${matchedCases} matched`,
      ratio: percent(matchedCases, cases.length),
      target: '= 0',
      verdict: matchedCases === 0 ? 'PASS' : 'FAIL',
    });
    rows.push({
      scenario: `(c) ${name}: cases fully in pending suggestions`,
      baseline: `${cases.length} cases`,
      measured: `${suggestedCases} suggested`,
      ratio: percent(suggestedCases, cases.length),
      target: name === 'decoy' ? 'report' : 'report (all expected)',
      verdict: '-',
    });
  }
  rows.push({
    scenario: '(c) quality runs: dry run / commit time',
    baseline: `${truth.bank.length + truth.ledger.length} transactions`,
    measured: `${format(dry.seconds, 's')} / ${format(commit.seconds, 's')}`,
    ratio: '-',
    target: 'report',
    verdict: '-',
  });
  return rows;
}

// ---------------------------------------------------------------------------------------------
// Sets: a 1:N set search at volume
// ---------------------------------------------------------------------------------------------

async function benchSets(bench: Bench, seed: number): Promise<TableRow[]> {
  const invoices = positiveInteger('BENCH_MATCHING_INVOICES', 50_000);
  const truth = generateTruthSet({
    seed: seed + 1000,
    invoices,
    customers: Math.max(10, Math.round(invoices / 20)),
    days: 90,
    mix: { '1:N deposit': 0.6, unpaid: 0.4 },
    depositSize: { min: 1, max: TRUTH_LIMITS.maxGroupSize },
    bankNoise: 0,
    unique: false,
  });
  log(`sets: ${describeTruthSet(truth)}`);
  const api = await newOrganization(bench, 'Bench sets');
  const [bank, ledger] = (await createDatasets(api, 'Bench sets', ['Deposits', 'Invoices'])) as [string, string];
  const loadStarted = performance.now();
  await ingest(api, bank, truth.bank);
  await ingest(api, ledger, truth.ledger);
  log(`  sets: ingested ${truth.bank.length + truth.ledger.length} records through the API in ${((performance.now() - loadStarted) / 1000).toFixed(1)} s`);
  await bench.client.query('ANALYZE transactions');
  const rule = customerDepositRule(bank, ledger, 10);
  const ruleId = await createRule(api, rule);
  const { run, seconds } = await runToEnd(bench, api, { mode: 'commit', ruleIds: [ruleId] }, 'sets commit');
  const made = await committedGroups(bench.client, api.orgId, bank);
  const score = scoreGroups(truth, made);
  logFailures(truth, score, new Map([[ruleId, rule.name as string]]), 'sets');
  const deposits = truth.groups.length;
  const found = score.perCase.get('1:N deposit')!.found;
  const counts = run.counts?.find((entry) => entry.ruleId === ruleId);
  const sizes = new Map<number, { total: number; found: number }>();
  const madeKeys = new Set(made.map((group) => group.key));
  for (const group of truth.groups) {
    const entry = sizes.get(group.targetExternalIds.length) ?? { total: 0, found: 0 };
    entry.total += 1;
    if (madeKeys.has(groupKey(group.originExternalIds, group.targetExternalIds))) entry.found += 1;
    sizes.set(group.targetExternalIds.length, entry);
  }
  // Where the data itself offers a second set that fits, the engine may legitimately prefer it
  // (a closer date scores higher); such wrong groups say more about the data than the engine.
  const coincidentBank = new Set(truth.coincidences.flatMap((text) => text.match(/BNK-\d+/g) ?? []));
  const wrongOnCoincidences = score.wrong.filter((group) => group.bank.some((id) => coincidentBank.has(id))).length;
  log(
    `  sets: found by set size ${JSON.stringify(Object.fromEntries([...sizes].sort(([a], [b]) => a - b).map(([size, entry]) => [size, `${entry.found}/${entry.total}`])))}; ${truth.coincidentalFits} payments have a coincidental second fit`,
  );
  return [
    {
      scenario: `(b) 1:N set search (<= ${TRUTH_LIMITS.maxGroupSize}), ${deposits.toLocaleString('en')} deposits x ${truth.ledger.length.toLocaleString('en')} invoices: commit run`,
      baseline: '-',
      measured: `${format(seconds, 's')}: ${format(deposits / seconds, 'deposits/s')}, ${format((truth.bank.length + truth.ledger.length) / seconds, 'tx/s')}`,
      ratio: '-',
      target: 'report',
      verdict: '-',
    },
    shareRow('(b) share of the true sets found', found, deposits, TARGETS.recallSets, 'true sets', 'found'),
    shareRow('(b) precision: groups made that are true sets', score.correct, score.made, TARGETS.precision, 'made', 'true'),
    {
      scenario: '(b) wrong groups on a deposit that a second set fits too',
      baseline: `${truth.coincidentalFits} such fits in the data`,
      measured: `${wrongOnCoincidences} of ${score.wrong.length} wrong`,
      ratio: '-',
      target: 'report',
      verdict: '-',
    },
    {
      scenario: '(b) run counts: ambiguous / bounds hit',
      baseline: '-',
      measured: counts ? `${counts.ambiguous} ambiguous, ${counts.boundsHit} bounds hit` : 'no counts',
      ratio: '-',
      target: 'report',
      verdict: '-',
    },
  ];
}

// ---------------------------------------------------------------------------------------------
// Scale: a 1:1 rule over 1,000,000 × 1,000,000 against hand-written SQL
// ---------------------------------------------------------------------------------------------

const SCALE_START_MS = Date.UTC(2025, 0, 1);
const WINDOW_MS = 3 * DAY_MS;

function mix32(value: number): number {
  let x = value >>> 0;
  x = Math.imul(x ^ (x >>> 16), 0x7feb352d);
  x = Math.imul(x ^ (x >>> 15), 0x846ca68b);
  return (x ^ (x >>> 16)) >>> 0;
}
const hash = (ordinal: number, salt: number) => mix32(mix32(ordinal) ^ Math.imul(salt + 1, 0x9e3779b9));

interface ScaleRow {
  externalId: string;
  timestampMs: number;
  description: string;
  reference: string;
  currency: string;
  amount: string;
}

/**
 * The n-th pair of the scale data: a bank line and a ledger entry. 90 % of ledger entries carry
 * the bank line's reference and amount, dated within ±3 days of it (the true pairs); 4 % are
 * dated 3 to 6 days away, 3 % differ by a cent, 3 % carry another reference.
 */
function scalePair(ordinal: number, rows: number): { bank: ScaleRow; ledger: ScaleRow; pair: boolean } {
  const timestampMs = SCALE_START_MS + Math.floor((ordinal * 365 * DAY_MS) / rows);
  const cents = (1 + (hash(ordinal, 1) % 2_000_000)) * (hash(ordinal, 2) % 10 < 3 ? -1 : 1);
  const currency = hash(ordinal, 5) % 20 === 0 ? 'USD' : 'EUR';
  const reference = `RF${String(ordinal).padStart(9, '0')}`;
  const bank: ScaleRow = {
    externalId: `B${ordinal}`,
    timestampMs,
    description: `SEPA transfer ${reference} customer ${hash(ordinal, 6) % 50_000}`,
    reference,
    currency,
    amount: centsToDecimal(cents),
  };
  const variant = hash(ordinal, 3) % 100;
  const ledger: ScaleRow = { ...bank, externalId: `L${ordinal}`, description: `Invoice ${reference}` };
  if (variant < 90) ledger.timestampMs = timestampMs + (hash(ordinal, 4) % (2 * WINDOW_MS + 1)) - WINDOW_MS;
  else if (variant < 94) ledger.timestampMs = timestampMs + (hash(ordinal, 7) % 2 === 0 ? 1 : -1) * (WINDOW_MS + 1 + (hash(ordinal, 4) % WINDOW_MS));
  else if (variant < 97) ledger.amount = centsToDecimal(cents + Math.sign(cents));
  else ledger.reference = `RX${String(ordinal).padStart(9, '0')}`;
  return { bank, ledger, pair: variant < 90 };
}

/** Loads one side of the scale data with COPY, as the importer would store it. */
async function copyScaleSide(client: pg.Client, orgId: string, datasetId: string, rows: number, side: 'bank' | 'ledger'): Promise<void> {
  const copy = client.query(
    copyFrom(
      'COPY transactions (id, organization_id, dataset_id, external_id, timestamp_ms, description, type, reference, currency, amount, custom, reconciliation_status) FROM STDIN',
    ),
  );
  await pipeline(
    Readable.from(
      (function* () {
        let chunk = '';
        for (let ordinal = 0; ordinal < rows; ordinal++) {
          const row = scalePair(ordinal, rows)[side];
          chunk += `${randomUUID()}\t${orgId}\t${datasetId}\t${row.externalId}\t${row.timestampMs}\t${row.description}\t\\N\t${row.reference}\t${row.currency}\t${row.amount}\t{}\tnone\n`;
          if (chunk.length > 1 << 16) {
            yield chunk;
            chunk = '';
          }
        }
        yield chunk;
      })(),
    ),
    copy,
  );
}

/** The join of the rule, written by hand: what both baselines select from. */
const SCALE_JOIN = `
  FROM transactions o
  JOIN transactions t
    ON t.dataset_id = $2 AND t.reference = o.reference AND t.amount = o.amount AND t.currency = o.currency
   AND t.timestamp_ms BETWEEN o.timestamp_ms - ${WINDOW_MS} AND o.timestamp_ms + ${WINDOW_MS}
   AND t.reconciliation_status IN ('none', 'partial')
 WHERE o.dataset_id = $1 AND o.reconciliation_status IN ('none', 'partial')`;

const SCALE_JOIN_COUNT = `SELECT count(*)::bigint AS pairs ${SCALE_JOIN}`;

/** The hand-written commit: one statement that inserts a match group and a match per pair of the join. */
const SCALE_BASELINE_INSERT = `
WITH pairs AS MATERIALIZED (
  SELECT gen_random_uuid() AS group_id, gen_random_uuid() AS match_id, o.id AS origin_id, t.id AS target_id, abs(o.amount) AS amount
  ${SCALE_JOIN}
), groups AS (
  INSERT INTO match_groups (id, organization_id, method, rule_id, created_by)
  SELECT group_id, $3, 'rule', $4, 'bench-baseline' FROM pairs
)
INSERT INTO matches (id, organization_id, group_id, origin_id, origin_dataset_id, target_id, target_dataset_id, amount, method, rule_id, created_by)
SELECT match_id, $3, group_id, origin_id, $1, target_id, $2, amount, 'rule', $4, 'bench-baseline' FROM pairs`;

/** Both ends of each match the hand-written INSERT made, with the amount it allocates ($1 the organization). */
const BASELINE_MATCH_ENDS = `SELECT origin_id AS id, amount FROM matches WHERE created_by = 'bench-baseline' AND organization_id = $1
        UNION ALL
        SELECT target_id, amount FROM matches WHERE created_by = 'bench-baseline' AND organization_id = $1`;

/** What a commit must also do (SPEC §4): the matched transactions' allocated totals and statuses. */
const SCALE_BASELINE_STATUS = `
UPDATE transactions t
   SET allocated_amount = t.allocated_amount + m.amount, match_count = t.match_count + 1,
       reconciliation_status = CASE WHEN t.allocated_amount + m.amount >= abs(t.amount) THEN 'full' ELSE 'partial' END
  FROM (${BASELINE_MATCH_ENDS}) AS m
 WHERE t.id = m.id`;

/**
 * The audit rows a commit appends with its matches (SPEC §9): match.created for each match and
 * transaction.status_changed, with before and after, for each transaction it settles.
 */
const SCALE_BASELINE_AUDIT = `
WITH made AS (
  INSERT INTO audit_events (id, organization_id, actor, action, transaction_id, related_transaction_id, match_id, group_id, after)
  SELECT gen_random_uuid(), $1, 'bench-baseline', 'match.created', origin_id, target_id, id, group_id,
         jsonb_build_object('id', id, 'groupId', group_id, 'originId', origin_id, 'targetId', target_id, 'amount', amount::text)
    FROM matches WHERE created_by = 'bench-baseline' AND organization_id = $1
  RETURNING 1)
INSERT INTO audit_events (id, organization_id, actor, action, transaction_id, before, after)
SELECT gen_random_uuid(), $1, 'bench-baseline', 'transaction.status_changed', t.id,
       jsonb_build_object('reconciliationStatus', 'none', 'allocatedAmount', '0', 'matchCount', 0),
       jsonb_build_object('reconciliationStatus', t.reconciliation_status, 'allocatedAmount', t.allocated_amount::text, 'matchCount', t.match_count)
  FROM transactions t
 WHERE t.organization_id = $1
   AND t.id IN (SELECT ends.id FROM (${BASELINE_MATCH_ENDS}) AS ends)`;

/**
 * The least a dry run that records its decisions (to list them by cursor and commit them later)
 * must write: one narrow row per pair of the join (a key of its own for the cursor, origin,
 * target), into a table of its own. No choice between candidates, no state to tell later changes by, no evidence: a floor
 * under such designs, not a design.
 */
const SCALE_DRY_FLOOR_TABLE = `CREATE TABLE bench_dry_floor (id uuid NOT NULL, origin_id uuid NOT NULL, target_id uuid NOT NULL)`;
const SCALE_DRY_FLOOR = `INSERT INTO bench_dry_floor (id, origin_id, target_id) SELECT gen_random_uuid(), o.id, t.id ${SCALE_JOIN}`;

export async function timed<T>(action: () => Promise<T>): Promise<{ value: T; seconds: number }> {
  const started = performance.now();
  const value = await action();
  return { value, seconds: (performance.now() - started) / 1000 };
}

/** The join alone, the baseline insert (and status update) in a transaction that is rolled back. */
export async function scaleBaselines(client: pg.Client, ids: { orgId: string; bank: string; ledger: string; ruleId: string | null }) {
  // The first count warms the cache for everyone; the second is the one timed.
  await client.query(SCALE_JOIN_COUNT, [ids.bank, ids.ledger]);
  const join = await timed(async () => Number((await client.query<{ pairs: string }>(SCALE_JOIN_COUNT, [ids.bank, ids.ledger])).rows[0]!.pairs));
  log(`  scale: the join alone counts ${join.value.toLocaleString('en')} pairs in ${join.seconds.toFixed(2)} s`);
  await client.query('BEGIN');
  let dryFloor: { value: number; seconds: number };
  let insert: { value: number; seconds: number };
  let status: { value: number; seconds: number };
  let audit: { value: number; seconds: number };
  try {
    await client.query(SCALE_DRY_FLOOR_TABLE);
    dryFloor = await timed(async () => (await client.query(SCALE_DRY_FLOOR, [ids.bank, ids.ledger])).rowCount ?? 0);
    log(`  scale: the join wrote ${dryFloor.value.toLocaleString('en')} narrow rows (key, origin, target) in ${dryFloor.seconds.toFixed(2)} s`);
    insert = await timed(async () => (await client.query(SCALE_BASELINE_INSERT, [ids.bank, ids.ledger, ids.orgId, ids.ruleId])).rowCount ?? 0);
    log(`  scale: the hand-written INSERT made ${insert.value.toLocaleString('en')} matches in ${insert.seconds.toFixed(2)} s`);
    status = await timed(async () => (await client.query(SCALE_BASELINE_STATUS, [ids.orgId])).rowCount ?? 0);
    log(`  scale: the hand-written status UPDATE changed ${status.value.toLocaleString('en')} transactions in ${status.seconds.toFixed(2)} s`);
    audit = await timed(async () => (await client.query(SCALE_BASELINE_AUDIT, [ids.orgId])).rowCount ?? 0);
    log(`  scale: the hand-written audit rows took ${audit.seconds.toFixed(2)} s`);
  } finally {
    await client.query('ROLLBACK');
  }
  await client.query('VACUUM ANALYZE match_groups');
  await client.query('VACUUM ANALYZE matches');
  await client.query('VACUUM ANALYZE transactions');
  return { join, dryFloor, insert, status, audit };
}

/** A new organization with the scale data loaded (COPY) and analysed. */
export async function prepareScale(bench: Bench, rows: number): Promise<{ api: Api; bank: string; ledger: string; expectedPairs: number }> {
  const api = await newOrganization(bench, 'Bench scale');
  const [bank, ledger] = (await createDatasets(api, 'Bench scale', ['Bank', 'Ledger'])) as [string, string];
  let expectedPairs = 0;
  for (let ordinal = 0; ordinal < rows; ordinal++) if (scalePair(ordinal, rows).pair) expectedPairs += 1;
  log(`scale: loading ${rows.toLocaleString('en')} x ${rows.toLocaleString('en')} transactions with COPY (${expectedPairs.toLocaleString('en')} true pairs)`);
  const load = await timed(async () => {
    await copyScaleSide(bench.client, api.orgId, bank, rows, 'bank');
    await copyScaleSide(bench.client, api.orgId, ledger, rows, 'ledger');
    await bench.client.query('ANALYZE transactions');
  });
  log(`  scale: loaded and analysed in ${load.seconds.toFixed(1)} s`);
  return { api, bank, ledger, expectedPairs };
}

async function benchScale(bench: Bench): Promise<TableRow[]> {
  const rows = positiveInteger('BENCH_MATCHING_ROWS', 1_000_000);
  const size = `${rows.toLocaleString('en')} x ${rows.toLocaleString('en')}`;
  const { api, bank, ledger, expectedPairs } = await prepareScale(bench, rows);

  const rule = exactReferenceRule(bank, ledger, false);
  const ruleId = await createRule(api, rule);
  const baselines = await scaleBaselines(bench.client, { orgId: api.orgId, bank, ledger, ruleId });
  if (baselines.join.value !== expectedPairs) log(`  scale: WARNING the join counts ${baselines.join.value} pairs, the generator made ${expectedPairs}`);

  const dry = await runToEnd(bench, api, { mode: 'dry-run', ruleIds: [ruleId] }, 'scale dry run');
  const dryMatched = dry.run.counts?.find((entry) => entry.ruleId === ruleId)?.matched ?? null;
  const commit = await runToEnd(bench, api, { mode: 'commit', ruleIds: [ruleId] }, 'scale commit');
  const check = (
    await bench.client.query<{ links: string; groups: string; violating: string }>(
      `SELECT count(*) AS links, count(DISTINCT m.group_id) AS groups,
              count(*) FILTER (WHERE NOT (o.dataset_id = $2 AND t.dataset_id = $3 AND o.reference = t.reference AND o.amount = t.amount
                                          AND abs(t.timestamp_ms - o.timestamp_ms) <= ${WINDOW_MS})) AS violating
         FROM matches m JOIN transactions o ON o.id = m.origin_id JOIN transactions t ON t.id = m.target_id
        WHERE m.rule_id = $1 AND m.created_by <> 'bench-baseline'`,
      [ruleId, bank, ledger],
    )
  ).rows[0]!;
  const statuses = (
    await bench.client.query<{ status: string; n: string }>(
      `SELECT reconciliation_status AS status, count(*) AS n FROM transactions WHERE dataset_id IN ($1, $2) GROUP BY 1 ORDER BY 1`,
      [bank, ledger],
    )
  ).rows;
  log(
    `  scale: the commit made ${check.links} matches in ${check.groups} groups, ${check.violating} outside the rule; statuses ${statuses.map((row) => `${row.status} ${row.n}`).join(', ')}`,
  );
  const committed = Number(check.links);
  const ratio = (measured: number, baseline: number, target: number, label: string): TableRow => ({
    scenario: label,
    baseline: format(baseline, 's'),
    measured: format(measured, 's'),
    ratio: `${(measured / baseline).toFixed(2)}x`,
    target: `<= ${target}x`,
    verdict: measured / baseline <= target ? 'PASS' : 'FAIL',
  });
  return [
    ratio(dry.seconds, baselines.join.seconds, TARGETS.dryRunOverJoin, `(a) 1:1 rule ${size}: dry run vs the join alone (count)`),
    ratio(commit.seconds, baselines.insert.seconds, TARGETS.commitOverBaseline, `(a) 1:1 rule ${size}: commit vs hand-written INSERT`),
    {
      scenario: `(a) commit vs hand-written INSERT + status UPDATE (info)`,
      baseline: format(baselines.insert.seconds + baselines.status.seconds, 's'),
      measured: format(commit.seconds, 's'),
      ratio: `${(commit.seconds / (baselines.insert.seconds + baselines.status.seconds)).toFixed(2)}x`,
      target: 'report',
      verdict: '-',
    },
    {
      scenario: `(a) dry run vs the join writing one narrow row per pair, the floor of a dry run that records its pairs (info)`,
      baseline: format(baselines.dryFloor.seconds, 's'),
      measured: format(dry.seconds, 's'),
      ratio: `${(dry.seconds / baselines.dryFloor.seconds).toFixed(2)}x`,
      target: 'report',
      verdict: '-',
    },
    {
      scenario: `(a) commit vs hand-written INSERT + status UPDATE + audit rows, the floor of a commit (info)`,
      baseline: format(baselines.insert.seconds + baselines.status.seconds + baselines.audit.seconds, 's'),
      measured: format(commit.seconds, 's'),
      ratio: `${(commit.seconds / (baselines.insert.seconds + baselines.status.seconds + baselines.audit.seconds)).toFixed(2)}x`,
      target: 'report',
      verdict: '-',
    },
    {
      scenario: '(a) matches: dry run / commit vs join pairs',
      baseline: `${baselines.join.value.toLocaleString('en')} pairs`,
      measured: `${dryMatched === null ? '?' : dryMatched.toLocaleString('en')} / ${committed.toLocaleString('en')}`,
      ratio: '-',
      target: 'equal, none outside the rule',
      verdict: dryMatched === baselines.join.value && committed === baselines.join.value && Number(check.violating) === 0 ? 'PASS' : 'FAIL',
    },
  ];
}

// ---------------------------------------------------------------------------------------------
// The section
// ---------------------------------------------------------------------------------------------

/**
 * A fresh database, the server on it as a child process (with `environment` added to its own),
 * and a connection of the bench's own; all closed after `action`.
 */
export async function withBench<T>(
  action: (bench: Bench) => Promise<T>,
  databaseName: string = BENCH_DATABASE,
  environment: Record<string, string> = {},
): Promise<T> {
  const adminUrl = process.env.DATABASE_URL;
  if (!adminUrl) throw new Error('the matching section needs DATABASE_URL (a PostgreSQL server where it creates its own database)');
  const databaseUrl = await recreateDatabase(adminUrl, databaseName);
  const port = await freePort();
  const config = loadConfig({ ...process.env, DATABASE_URL: databaseUrl, PORT: String(port), HOST: '127.0.0.1', SEED_DEMO: 'false' });
  const database = openDatabase({ databaseUrl, dataDirectory: null, poolSize: 2, statementTimeoutMilliseconds: 600_000 });
  const client = new pg.Client({ connectionString: databaseUrl });
  let server: Awaited<ReturnType<typeof startServer>> | null = null;
  try {
    await migrate(database);
    const services = createServices(config, database);
    await services.signingKeys.ensureKey();
    await client.connect();
    await client.query('SET statement_timeout = 0');
    server = await startServer(port, { ...environment, DATABASE_URL: databaseUrl, SEED_DEMO: 'false' });
    return await action({
      baseUrl: `http://127.0.0.1:${port}`,
      config,
      database,
      services,
      client,
      runTimeoutMs: positiveInteger('BENCH_MATCHING_RUN_TIMEOUT_SECONDS', 3600) * 1000,
    });
  } finally {
    if (server) await stopServer(server.child);
    await client.end().catch(() => undefined);
    await database.close();
    if (process.env.BENCH_KEEP_DATABASE !== '1') await dropDatabase(adminUrl, databaseName);
  }
}

export async function benchMatching(): Promise<TableRow[]> {
  const parts = (process.env.BENCH_MATCHING_PARTS ?? PARTS.join(','))
    .split(',')
    .map((part) => part.trim())
    .filter(Boolean) as Part[];
  const unknown = parts.filter((part) => !(PARTS as readonly string[]).includes(part));
  if (unknown.length > 0) throw new Error(`unknown BENCH_MATCHING_PARTS ${unknown.join(', ')}; the parts are ${PARTS.join(', ')}`);
  const seed = positiveInteger('BENCH_MATCHING_SEED', 20260101);
  return withBench(async (bench) => {
    const run: Record<Part, () => Promise<TableRow[]>> = {
      quality: () => benchQuality(bench, seed),
      sets: () => benchSets(bench, seed),
      scale: () => benchScale(bench),
    };
    const rows: TableRow[] = [];
    for (const part of PARTS) {
      if (!parts.includes(part)) continue;
      const partRows = await run[part]();
      rows.push(...partRows);
      console.log(`\nledger-recon bench: matching, ${part}`);
      printTable(partRows);
    }
    return rows;
  });
}

/** The table of every part, when more than one ran (each part prints its own as it ends). */
export function printMatchingTable(rows: TableRow[]): void {
  if (new Set(rows.map((row) => row.scenario.slice(0, 3))).size < 2) return;
  console.log('\nledger-recon bench: matching on PostgreSQL, all parts (rules and runs through HTTP; baselines and scores read from the database)');
  printTable(rows);
}
