import type { CheckedRule } from '../../domain/model.ts';
import { SCORE_WEIGHTS } from '../matching/score-weights.ts';
import type { Queryable } from '../database.ts';
import { inClosedPeriodSql } from '../repositories/closed-periods.ts';
import { Parameters } from '../repositories/transaction-query.ts';
import {
  amountConditionOf,
  dateTermSql,
  groupKeySql,
  originConditionsSql,
  pairConditionsSql,
  pairEvidenceReadableLater,
  pairEvidenceSql,
  pairScoreSql,
  remainingSql,
  sidePoolSql,
  signSql,
  textTermSql,
  toleranceSql,
  type AmountUse,
} from './rule-sql.ts';

/**
 * The statements of a rule run (SPEC §8.2), all inside the run's database transaction. The work
 * is set-based: candidate pairs come from one join of the two sides' open transactions, the
 * best-first choice runs as window functions over them, and decisions are written with
 * INSERT … SELECT. Scratch tables are temporary and dropped with the transaction.
 *
 * Tables:
 * - run_claimed (id): transactions a rule of this run already matched or classified; later rules
 *   do not see them.
 * - run_pairs (origin_unit, target_unit, score, …): candidate pairs of the current rule. A unit is
 *   a transaction, or a group of transactions sharing a groupBy key (run_units lists members).
 * - run_open: the pairs still undecided while the choice goes round.
 * - run_chosen (origin_unit, target_unit, score, contested): the choice.
 */

export interface RunScope {
  organizationId: string;
  /** Only these datasets take part (the run's datasetIds), or all the rule names. */
  datasetIds: string[] | null;
  /** Origins dated within [fromMs, toMs] (epoch ms), when given. */
  fromMs: number | null;
  toMs: number | null;
  /**
   * Whether the organization has closed periods (month-end close): then transactions dated in one
   * are left out of every pool (and counted, countClosedPeriodSkipped). Without any, the pools
   * carry no such condition, so a run of an organization that does not close periods pays nothing.
   */
  closedPeriods: boolean;
}

/**
 * Prepares the run's transaction; its first statement. A run's statements read whole datasets, so the limits meant
 * for requests do not fit it: no statement timeout (the job's lease and cancel bound it), more
 * memory for hashing, and neither nested-loop nor merge joins. The planner cannot estimate how
 * many pairs a rule's keys (what is left of an amount, a normalized reference) will join, and
 * guesses "a few": with that guess it picks a nested loop, which over two datasets of a million
 * rows each would not finish, or a merge join, which sorts both sides in full (measured on
 * 100,000 × 100,000: twice the time of a hash join on the same keys).
 */
export async function prepareRunTransaction(transaction: Queryable): Promise<void> {
  // One snapshot for the whole run: what it scores is what it records and carries out. A
  // transaction changed meanwhile by another writer makes the run's lock fail with a
  // serialization error, and the job starts again on fresh data.
  await transaction.query('SET TRANSACTION ISOLATION LEVEL REPEATABLE READ');
  await transaction.query(`SET LOCAL statement_timeout = 0`);
  await transaction.query(`SET LOCAL work_mem = '64MB'`);
  await transaction.query(`SET LOCAL enable_nestloop = off`);
  await transaction.query(`SET LOCAL enable_mergejoin = off`);
  await createRunTables(transaction);
}

/**
 * Below this many rows (origins a run examines, results it carries out) a run's statements are
 * left to the plain executor. The settings above turn nested loops off, and a statement that
 * cannot avoid one (every read of a result's JSON array is a loop over it) is then costed at
 * PostgreSQL's penalty for a disabled plan, far above every JIT threshold: each such statement
 * was compiled with LLVM, inlined and optimized, whatever its size. On a small run that
 * compiling was nearly all of the time (100 matches carried out in 1.4 to 2.5 s, 115 ms without
 * it); on a large run it is a small fixed part, and the server's own setting decides.
 */
export const JIT_MIN_ROWS = 50_000;

/** Turns PostgreSQL's JIT compiling off for the rest of the run's transaction (see JIT_MIN_ROWS). */
export async function turnOffJit(transaction: Queryable): Promise<void> {
  await transaction.query(`SET LOCAL jit = off`);
}

export async function createRunTables(transaction: Queryable): Promise<void> {
  await transaction.query('CREATE TEMP TABLE IF NOT EXISTS run_claimed (id uuid PRIMARY KEY) ON COMMIT DROP');
}

/** Empties the per-rule scratch tables (created on first use). */
async function resetRuleTables(transaction: Queryable): Promise<void> {
  await transaction.query(`DROP TABLE IF EXISTS run_pairs, run_open, run_chosen, run_units`);
  await transaction.query(`CREATE TEMP TABLE run_pairs (
      origin_unit uuid NOT NULL, target_unit uuid NOT NULL, score numeric NOT NULL,
      date_term numeric NOT NULL, text_term numeric NOT NULL,
      origin_remaining numeric, target_remaining numeric) ON COMMIT DROP`);
  // contested: another candidate pair shares an end with the chosen one, so it may have runners-up.
  await transaction.query(
    `CREATE TEMP TABLE run_chosen (origin_unit uuid NOT NULL, target_unit uuid NOT NULL, score numeric NOT NULL, contested boolean NOT NULL) ON COMMIT DROP`,
  );
  await transaction.query(`CREATE TEMP TABLE run_units (unit uuid NOT NULL, side text NOT NULL, member uuid NOT NULL) ON COMMIT DROP`);
}

/** Indexes the candidate pairs by either end (runners-up are looked up by end) and gives the planner their statistics. */
async function indexPairs(transaction: Queryable): Promise<void> {
  await transaction.query('CREATE INDEX ON run_pairs (origin_unit, score DESC)');
  await transaction.query('CREATE INDEX ON run_pairs (target_unit, score DESC)');
  await transaction.query('ANALYZE run_pairs');
}

/**
 * Pool conditions for alias `alias` of one side, with the run's scope and the run's claims. The
 * organization is not among them: each statement writes its own organization condition, where
 * a reader (and test/db/organization-scope.test.ts) can see it.
 */
function poolSql(
  rule: CheckedRule,
  side: 'origin' | 'target',
  alias: string,
  parameters: Parameters,
  scope: RunScope,
  options: { inRun: boolean; closed?: 'include' } = { inRun: true },
): string {
  const definition = side === 'origin' ? rule.origin : rule.target!;
  const parts = [sidePoolSql(definition, alias, parameters, { datasetIds: scope.datasetIds })];
  if (options.inRun) parts.push(`NOT EXISTS (SELECT 1 FROM run_claimed c WHERE c.id = ${alias}.id)`);
  if (scope.closedPeriods && options.closed !== 'include') parts.push(`NOT ${inClosedPeriodSql(alias)}`);
  if (side === 'origin' && scope.fromMs !== null) parts.push(`${alias}.timestamp_ms >= ${parameters.add(scope.fromMs, 'bigint')}`);
  if (side === 'origin' && scope.toMs !== null) parts.push(`${alias}.timestamp_ms <= ${parameters.add(scope.toMs, 'bigint')}`);
  return parts.join(' AND ');
}

/** Rejected options (SPEC §8.4) are never candidates again; the check is skipped when there are none. */
async function rejectedPairsSql(transaction: Queryable, organizationId: string, parameters: Parameters): Promise<string> {
  const rows = await transaction.query('SELECT 1 FROM rejected_options WHERE organization_id = $1 LIMIT 1', [organizationId]);
  if (rows.length === 0) return 'true';
  return `NOT EXISTS (SELECT 1 FROM rejected_options r WHERE r.organization_id = ${parameters.add(organizationId, 'uuid')} AND r.option_key = o.id::text || '>' || t.id::text)`;
}

/**
 * Counts the open transactions the run's rules would have looked at (either side, within the run's
 * scope) that lie in closed periods and were left alone: the run's closedPeriodSkipped. One
 * statement for all rules; nothing to count without closed periods.
 */
export async function countClosedPeriodSkipped(transaction: Queryable, rules: readonly CheckedRule[], scope: RunScope): Promise<number> {
  if (!scope.closedPeriods || rules.length === 0) return 0;
  const parameters = new Parameters();
  const organization = parameters.add(scope.organizationId, 'uuid');
  const pools = rules.flatMap((rule) =>
    (rule.target ? (['origin', 'target'] as const) : (['origin'] as const)).map(
      (side) => `(${poolSql(rule, side, 'x', parameters, scope, { inRun: false, closed: 'include' })})`,
    ),
  );
  const rows = await transaction.query<{ count: number }>(
    `SELECT count(*)::integer AS count FROM transactions x
      WHERE x.organization_id = ${organization} AND (${pools.join(' OR ')}) AND ${inClosedPeriodSql('x')}`,
    parameters.values,
  );
  return rows[0]!.count;
}

/** Counts the open origins a rule looks at: the run's progress is counted in them. */
export async function countOrigins(transaction: Queryable, rule: CheckedRule, scope: RunScope): Promise<number> {
  const parameters = new Parameters();
  const organization = parameters.add(scope.organizationId, 'uuid');
  const rows = await transaction.query<{ count: number }>(
    `SELECT count(*)::integer AS count FROM transactions o WHERE o.organization_id = ${organization} AND ${poolSql(rule, 'origin', 'o', parameters, scope)}`,
    parameters.values,
  );
  return rows[0]!.count;
}

/**
 * Fills run_pairs with every (origin, target) pair of open transactions that satisfies the
 * rule's conditions, scored. One INSERT … SELECT over a join that PostgreSQL plans itself: equal
 * keys (reference, amount without tolerance) become hash joins.
 */
export async function collectPairs(transaction: Queryable, rule: CheckedRule, scope: RunScope, amountUse: AmountUse): Promise<number> {
  await resetRuleTables(transaction);
  const parameters = new Parameters();
  const organization = parameters.add(scope.organizationId, 'uuid');
  const rejected = await rejectedPairsSql(transaction, scope.organizationId, parameters);
  const statement = `WITH inserted AS (
       INSERT INTO run_pairs (origin_unit, target_unit, score, date_term, text_term, origin_remaining, target_remaining)
       SELECT o.id, t.id, ${pairScoreSql(rule, parameters)}, ${dateTermSql(rule, parameters)}, ${textTermSql(rule, parameters)},
              ${remainingSql('o')}, ${remainingSql('t')}
         FROM transactions o, transactions t
        WHERE o.organization_id = ${organization} AND t.organization_id = ${organization}
          AND ${poolSql(rule, 'origin', 'o', parameters, scope)}
          AND ${poolSql(rule, 'target', 't', parameters, scope)}
          AND ${pairConditionsSql(rule, parameters, amountUse)}
          AND ${rejected}
       RETURNING 1)
     SELECT count(*)::integer AS count FROM inserted`;
  const rows = await transaction.query<{ count: number }>(statement, parameters.values);
  await indexPairs(transaction);
  return rows[0]!.count;
}

/** A key group left out of a rule's candidates because it is larger than a limit: the run reports it. */
export interface OversizedKeyGroup {
  /** `origin` or `target`: that side's group is too large; `pairs`: the key's origins times its targets are. */
  side: 'origin' | 'target' | 'pairs';
  key: string;
  size: number;
  /** The key's origins and targets (for `pairs`). */
  origins: number;
  targets: number;
  ids: string[];
}

/**
 * Forms groups by equal groupBy keys (SPEC §8.1, §16) and fills run_pairs with (origin unit,
 * target unit) candidates: the "many" sides of the cardinality are grouped by key, the other
 * side's transactions are their own units. A candidate needs every member pair to satisfy the
 * rule's conditions other than amount, and the two totals to fit the amount condition. Groups
 * are summed, not searched: their cost grows with their size. A group with more than
 * `limits.transactionsPerSide` transactions, or a key whose origins times targets exceed
 * `limits.memberPairs` (each pair's conditions are checked), is left out and returned, to be
 * reported.
 */
export async function collectGroupPairs(
  transaction: Queryable,
  rule: CheckedRule,
  scope: RunScope,
  limits: { transactionsPerSide: number; memberPairs: number },
): Promise<{ pairs: number; oversized: OversizedKeyGroup[] }> {
  await resetRuleTables(transaction);
  const groupBy = rule.groupBy!;
  const originGrouped = rule.cardinality === 'N:1' || rule.cardinality === 'N:M';
  const targetGrouped = rule.cardinality === '1:N' || rule.cardinality === 'N:M';
  const members = new Parameters();
  const memberOrganization = members.add(scope.organizationId, 'uuid');
  const originKey = groupKeySql(groupBy.origin, 'o', members);
  const targetKey = groupKeySql(groupBy.target, 't', members);
  // A unit id: the transaction's own id, or a uuid derived from the side and key of its group.
  const unitOf = (grouped: boolean, alias: string, key: string, side: string) =>
    grouped ? `md5(${members.add(side, 'text')} || ${key})::uuid` : `${alias}.id`;
  await transaction.query(
    `CREATE TEMP TABLE run_members ON COMMIT DROP AS
     WITH origin_side AS (
       SELECT o.id, ${originKey} AS key, ${unitOf(originGrouped, 'o', originKey, 'origin')} AS unit, ${remainingSql('o')} AS remaining
         FROM transactions o WHERE o.organization_id = ${memberOrganization} AND ${poolSql(rule, 'origin', 'o', members, scope)} AND ${originKey} IS NOT NULL),
     target_side AS (
       SELECT t.id, ${targetKey} AS key, ${unitOf(targetGrouped, 't', targetKey, 'target')} AS unit, ${remainingSql('t')} AS remaining
         FROM transactions t WHERE t.organization_id = ${memberOrganization} AND ${poolSql(rule, 'target', 't', members, scope)} AND ${targetKey} IS NOT NULL),
     sides AS (
       SELECT 'origin'::text AS side, id, key, unit, remaining, count(*) OVER (PARTITION BY unit) AS size FROM origin_side
       UNION ALL
       SELECT 'target'::text, id, key, unit, remaining, count(*) OVER (PARTITION BY unit) FROM target_side)
     -- What a key brings on each side: the member pairs checked for it are their product.
     SELECT s.*, count(*) FILTER (WHERE side = 'origin') OVER (PARTITION BY key) AS key_origins,
                 count(*) FILTER (WHERE side = 'target') OVER (PARTITION BY key) AS key_targets
       FROM sides s`,
    members.values,
  );
  const oversized = await transaction.query<OversizedKeyGroup>(
    `WITH too_large AS (
       SELECT side, key, max(size)::integer AS size, max(key_origins)::integer AS origins, max(key_targets)::integer AS targets,
              (array_agg(id ORDER BY id))[1:20]::text[] AS ids
         FROM run_members WHERE size > $1 GROUP BY side, key),
     too_many_pairs AS (
       SELECT 'pairs'::text AS side, key, max(key_origins * key_targets)::float8 AS size, max(key_origins)::integer AS origins,
              max(key_targets)::integer AS targets, (array_agg(id ORDER BY id))[1:20]::text[] AS ids
         FROM run_members
        WHERE key_origins * key_targets > $2 AND key NOT IN (SELECT key FROM too_large)
        GROUP BY key)
     SELECT * FROM (SELECT * FROM too_large UNION ALL SELECT * FROM too_many_pairs) AS found ORDER BY key, side LIMIT 1000`,
    [limits.transactionsPerSide, limits.memberPairs],
  );
  // A key with a group too large takes no part at all: its other side is left open too.
  await transaction.query(
    `DELETE FROM run_members m WHERE m.key_origins * m.key_targets > $2
        OR m.key IN (SELECT key FROM run_members WHERE size > $1)`,
    [limits.transactionsPerSide, limits.memberPairs],
  );
  await transaction.query(`ANALYZE run_members`);
  await transaction.query(`INSERT INTO run_units (unit, side, member) SELECT unit, side, id FROM run_members`);
  const parameters = new Parameters();
  const organization = parameters.add(scope.organizationId, 'uuid');
  const rejected = await rejectedPairsSql(transaction, scope.organizationId, parameters);
  const amount = amountConditionOf(rule);
  // 1:N and N:1 net (SPEC §16): the grouped side's total is the signed sum of its members, seen
  // from the one transaction on the other side: a member whose sign is as the amount condition
  // says (a charge) adds, one of the other sign (a refund, a fee, a chargeback) subtracts. The one
  // side has a single member, so each grouped member is in exactly one member pair of the unit
  // pair, and the sum over the pairs is the group's. N:M groups keep one sign throughout.
  const netted = rule.cardinality === '1:N' || rule.cardinality === 'N:1';
  const normal = amount ? signSql(amount.sign) : 'true';
  const signed = (alias: string) => `CASE WHEN ${normal} THEN ${alias}.remaining ELSE -${alias}.remaining END`;
  const parts = netted
    ? rule.cardinality === '1:N'
      ? { origin: 'om.remaining', target: signed('tm'), totals: 'max(p.origin_part) AS origin_total, sum(p.target_part) AS target_total' }
      : { origin: signed('om'), target: 'tm.remaining', totals: 'sum(p.origin_part) AS origin_total, max(p.target_part) AS target_total' }
    : { origin: 'om.remaining', target: 'tm.remaining', totals: 'min(ot.total) AS origin_total, min(tt.total) AS target_total' };
  const tolerance = amount ? toleranceSql(amount, 'u.origin_total', parameters) : '0';
  const fits = [amount ? `abs(u.origin_total - u.target_total) <= ${tolerance}` : 'true', ...(netted ? ['u.origin_total > 0', 'u.target_total > 0'] : [])].join(
    ' AND ',
  );
  const amountTerm =
    amount && (amount.toleranceAbsolute !== null || amount.tolerancePercent !== null)
      ? `CASE WHEN ${tolerance} > 0 THEN least(1::numeric, abs(u.origin_total - u.target_total) / ${tolerance}) ELSE 0 END`
      : '0';
  const rows = await transaction.query<{ count: number }>(
    `WITH member_pairs AS (
       SELECT om.unit AS origin_unit, tm.unit AS target_unit, ${dateTermSql(rule, parameters)} AS date_term, ${textTermSql(rule, parameters)} AS text_term,
              ${parts.origin} AS origin_part, ${parts.target} AS target_part
         FROM run_members om JOIN transactions o ON o.organization_id = ${organization} AND o.id = om.id,
              run_members tm JOIN transactions t ON t.organization_id = ${organization} AND t.id = tm.id
        WHERE om.side = 'origin' AND tm.side = 'target'
          AND om.key = tm.key
          AND ${pairConditionsSql(rule, parameters, netted ? 'netted' : 'sign-only')}
          AND ${rejected}),
     totals AS (
       SELECT side, unit, sum(remaining) AS total, count(*) AS size FROM run_members GROUP BY side, unit),
     units AS (
       SELECT p.origin_unit, p.target_unit, count(*) AS pairs, avg(p.date_term) AS date_term, avg(p.text_term) AS text_term,
              ${parts.totals}, min(ot.size) AS origin_size, min(tt.size) AS target_size
         FROM member_pairs p
         JOIN totals ot ON ot.side = 'origin' AND ot.unit = p.origin_unit
         JOIN totals tt ON tt.side = 'target' AND tt.unit = p.target_unit
        GROUP BY p.origin_unit, p.target_unit),
     inserted AS (
       INSERT INTO run_pairs (origin_unit, target_unit, score, date_term, text_term, origin_remaining, target_remaining)
       SELECT u.origin_unit, u.target_unit,
              round(1 - ${SCORE_WEIGHTS.amount} * (${amountTerm}) - ${SCORE_WEIGHTS.date} * u.date_term - ${SCORE_WEIGHTS.text} * (1 - u.text_term), 6),
              u.date_term, u.text_term, u.origin_total, u.target_total
         FROM units u
        WHERE u.pairs = u.origin_size * u.target_size AND ${fits}
       RETURNING 1)
     SELECT count(*)::integer AS count FROM inserted`,
    parameters.values,
  );
  await transaction.query('DROP TABLE run_members');
  await indexPairs(transaction);
  return { pairs: rows[0]!.count, oversized };
}

/**
 * Chooses pairs best first (SPEC §8.2), in rounds: a pair is chosen when it is the best of its
 * origin and the best of its target, and no other pair of either comes within `margin` of it (a
 * tie is never broken by guessing). Chosen units leave the remaining pairs, which may make other
 * pairs the unique best of theirs in the next round. Ends when a round chooses nothing, or after
 * `maxRounds`. Returns the number chosen.
 */
export async function chooseBestFirst(
  transaction: Queryable,
  margin: number,
  maxRounds: number,
  signal: AbortSignal,
): Promise<{ chosen: number; rounds: number; roundsExhausted: boolean }> {
  // The first round sees every pair, so it can tell a pair without competitors (most of them,
  // for a rule with exact keys), whose evidence then needs no search for runners-up. A pair
  // chosen in a later round lost the first round to a competitor, so it is contested.
  const roundSql = (source: string) => `
    WITH best AS (
      SELECT origin_unit, target_unit, score,
             max(score) OVER (PARTITION BY origin_unit) AS origin_best,
             max(score) OVER (PARTITION BY target_unit) AS target_best,
             ${source === 'run_pairs' ? '(count(*) OVER (PARTITION BY origin_unit) > 1 OR count(*) OVER (PARTITION BY target_unit) > 1)' : 'true'} AS contested
        FROM ${source}),
    near AS (
      SELECT *, count(*) FILTER (WHERE score >= origin_best - $1::numeric) OVER (PARTITION BY origin_unit) AS origin_near,
                count(*) FILTER (WHERE score >= target_best - $1::numeric) OVER (PARTITION BY target_unit) AS target_near
        FROM best),
    chosen AS (
      INSERT INTO run_chosen (origin_unit, target_unit, score, contested)
      SELECT origin_unit, target_unit, score, contested FROM near
       WHERE score = origin_best AND score = target_best AND origin_near = 1 AND target_near = 1
      RETURNING 1)
    SELECT count(*)::integer AS count FROM chosen`;
  let chosen = (await transaction.query<{ count: number }>(roundSql('run_pairs'), [margin]))[0]!.count;
  await transaction.query(
    `CREATE TEMP TABLE run_open ON COMMIT DROP AS
       SELECT p.* FROM run_pairs p
        WHERE NOT EXISTS (SELECT 1 FROM run_chosen c WHERE c.origin_unit = p.origin_unit)
          AND NOT EXISTS (SELECT 1 FROM run_chosen c WHERE c.target_unit = p.target_unit)`,
  );
  let rounds = 1;
  let roundsExhausted = true;
  while (rounds < maxRounds) {
    if (signal.aborted) throw signal.reason;
    const before = chosen;
    chosen += (await transaction.query<{ count: number }>(roundSql('run_open'), [margin]))[0]!.count;
    rounds += 1;
    if (chosen === before) {
      roundsExhausted = false;
      break;
    }
    await transaction.query(
      `DELETE FROM run_open p WHERE EXISTS (SELECT 1 FROM run_chosen c WHERE c.origin_unit = p.origin_unit)
                               OR EXISTS (SELECT 1 FROM run_chosen c WHERE c.target_unit = p.target_unit)`,
    );
  }
  return { chosen, rounds, roundsExhausted };
}

export interface OpenOption {
  originUnit: string;
  targetUnit: string;
  score: string;
}

/**
 * The undecided pairs after the choice, as ambiguities: for each origin with two or more pairs
 * within `margin` of its best, those pairs; for each target with two or more, when none of its
 * origins is already listed, those pairs. At most `limit` ambiguities, each with at most
 * `optionLimit` options, best first.
 */
export async function findAmbiguities(
  transaction: Queryable,
  margin: number,
  limit: number,
  optionLimit: number,
): Promise<{ anchorSide: 'origin' | 'target'; anchor: string; options: OpenOption[] }[]> {
  return transaction.query(
    `WITH best AS (
       SELECT origin_unit, target_unit, score,
              max(score) OVER (PARTITION BY origin_unit) AS origin_best,
              max(score) OVER (PARTITION BY target_unit) AS target_best
         FROM run_open),
     near AS (
       SELECT *, count(*) FILTER (WHERE score >= origin_best - $1::numeric) OVER (PARTITION BY origin_unit) AS origin_near,
                 count(*) FILTER (WHERE score >= target_best - $1::numeric) OVER (PARTITION BY target_unit) AS target_near
         FROM best),
     by_origin AS (
       SELECT 'origin' AS "anchorSide", origin_unit AS anchor,
              (jsonb_agg(jsonb_build_object('originUnit', origin_unit, 'targetUnit', target_unit, 'score', score::text) ORDER BY score DESC, target_unit)
                 FILTER (WHERE score >= origin_best - $1::numeric)) AS options
         FROM near WHERE origin_near >= 2 GROUP BY origin_unit),
     by_target AS (
       SELECT 'target' AS "anchorSide", target_unit AS anchor,
              (jsonb_agg(jsonb_build_object('originUnit', origin_unit, 'targetUnit', target_unit, 'score', score::text) ORDER BY score DESC, origin_unit)
                 FILTER (WHERE score >= target_best - $1::numeric)) AS options
         FROM near n WHERE target_near >= 2
        GROUP BY target_unit
       HAVING bool_and(origin_near < 2))
     SELECT "anchorSide", anchor, (SELECT jsonb_agg(option) FROM (SELECT jsonb_array_elements(options) AS option LIMIT $3) AS first) AS options
       FROM (SELECT * FROM by_origin UNION ALL SELECT * FROM by_target) AS ambiguities
      ORDER BY "anchorSide", anchor
      LIMIT $2`,
    [margin, limit, optionLimit],
  );
}

/** A member of a group unit, as allocation reads it. */
export interface UnitMember {
  id: string;
  datasetId: string;
  remaining: string;
  status: string;
  allocated: string;
  /** -1, 0 or 1: the sign of the amount, which a payout nets by (SPEC §16). */
  sign: number;
  /** The transaction's type (charge, refund, fee...), which a payout's evidence sums by. */
  type: string | null;
}

/**
 * Members of group units, in allocation order (date, then what is left, then id). Read as plain
 * rows and gathered here: a payout brings thousands of members per unit, and building them into
 * JSON in the database took longer than the rest of reading them (measured: 1.4 s of a 5 s dry
 * run of 100 payouts of 500 rows).
 */
export async function findUnitMembers(transaction: Queryable, organizationId: string, units: readonly string[]): Promise<Map<string, UnitMember[]>> {
  const rows = await transaction.query<UnitMember & { unit: string }>(
    `SELECT u.unit, x.id, x.dataset_id AS "datasetId", (abs(x.amount) - x.allocated_amount)::text AS remaining, x.reconciliation_status AS status,
            x.allocated_amount::text AS allocated, coalesce(sign(x.amount)::integer, 0) AS sign, x.type
       FROM (SELECT DISTINCT unit, member FROM run_units WHERE unit = ANY ($1::uuid[])) AS u
       JOIN transactions x ON x.organization_id = $2 AND x.id = u.member
      ORDER BY u.unit, x.timestamp_ms, abs(x.amount) - x.allocated_amount, x.external_id, x.id`,
    [[...new Set(units)], organizationId],
  );
  const members = new Map<string, UnitMember[]>();
  for (const { unit, ...member } of rows) {
    const list = members.get(unit);
    if (list === undefined) members.set(unit, [member]);
    else list.push(member);
  }
  return members;
}

/** The chosen unit pairs (for grouped rules): read back to allocate them in the application. */
export async function findChosenUnits(transaction: Queryable): Promise<{ originUnit: string; targetUnit: string; score: string }[]> {
  return transaction.query(
    `SELECT origin_unit AS "originUnit", target_unit AS "targetUnit", score::text AS score FROM run_chosen ORDER BY origin_unit, target_unit`,
  );
}

/** The best losing pairs of a chosen unit pair: what evidence calls the runners-up. */
export async function findRunnersUp(
  transaction: Queryable,
  chosen: readonly { originUnit: string; targetUnit: string }[],
  limit: number,
): Promise<Map<string, { originUnit: string; targetUnit: string; score: string }[]>> {
  if (chosen.length === 0) return new Map();
  const rows = await transaction.query<{ key: string; runnersUp: { originUnit: string; targetUnit: string; score: string }[] }>(
    `SELECT c.origin_unit::text || '>' || c.target_unit::text AS key,
            coalesce((SELECT jsonb_agg(r ORDER BY r.score DESC) FROM (
                SELECT p.origin_unit AS "originUnit", p.target_unit AS "targetUnit", p.score::text AS score FROM run_pairs p
                 WHERE (p.origin_unit = c.origin_unit OR p.target_unit = c.target_unit) AND NOT (p.origin_unit = c.origin_unit AND p.target_unit = c.target_unit)
                 ORDER BY p.score DESC, p.origin_unit, p.target_unit LIMIT $3) AS r), '[]'::jsonb) AS "runnersUp"
       FROM unnest($1::uuid[], $2::uuid[]) AS c (origin_unit, target_unit)`,
    [chosen.map((pair) => pair.originUnit), chosen.map((pair) => pair.targetUnit), limit],
  );
  return new Map(rows.map((row) => [row.key, row.runnersUp]));
}

/**
 * Writes the chosen 1:1 pairs as results, set-based: links with what is left of the smaller
 * side, the adjustment when the rule makes one, the evidence of every condition, the runners-up
 * (best losing pairs of either end) and the state of both transactions. Claims both ends.
 */
export async function insertPairResults(
  transaction: Queryable,
  input: { runId: string; organizationId: string; rule: CheckedRule; kind: 'match' | 'suggestion'; runnersUp: number; claim: boolean },
): Promise<number> {
  const parameters = new Parameters();
  const organization = parameters.add(input.organizationId, 'uuid');
  const { rule } = input;
  const amount = amountConditionOf(rule);
  const adjust = rule.adjustmentReason !== null && amount !== null;
  const origin = remainingSql('o');
  const target = remainingSql('t');
  const linkAmount = `least(${origin}, ${target})`;
  const originAdjustment = adjust ? `greatest(${origin} - ${target}, 0)` : '0';
  const targetAdjustment = adjust ? `greatest(${target} - ${origin}, 0)` : '0';
  const runnersUp = `CASE WHEN NOT c.contested THEN '[]'::jsonb ELSE coalesce((SELECT jsonb_agg(r ORDER BY r.score DESC) FROM (
        SELECT p.origin_unit AS "originId", p.target_unit AS "targetId", p.score::text AS score FROM run_pairs p
         WHERE p.origin_unit = c.origin_unit AND p.target_unit <> c.target_unit
        UNION ALL
        SELECT p.origin_unit, p.target_unit, p.score::text FROM run_pairs p
         WHERE p.target_unit = c.target_unit AND p.origin_unit <> c.origin_unit
        ORDER BY 3 DESC, 1, 2 LIMIT ${parameters.add(input.runnersUp, 'integer')}) AS r), '[]'::jsonb) END`;
  const link = `jsonb_build_object('originId', o.id, 'originDatasetId', o.dataset_id, 'targetId', t.id, 'targetDatasetId', t.dataset_id,
        'amount', ${linkAmount}::text, 'originAdjustment', (${originAdjustment})::text, 'targetAdjustment', (${targetAdjustment})::text)`;
  const adjustment = adjust
    ? `CASE WHEN ${origin} <> ${target} THEN jsonb_build_object('amount', abs(${origin} - ${target})::text, 'reason', ${parameters.add(rule.adjustmentReason, 'text')}) END`
    : 'NULL::jsonb';
  const state = (alias: string) =>
    `jsonb_build_object('id', ${alias}.id, 'status', ${alias}.reconciliation_status, 'allocated', ${alias}.allocated_amount::text)`;
  // The amount entry of a chosen pair held (the pair satisfied every condition to be a candidate).
  // A match keeps, instead of each condition's evidence, what was left of both amounts: the rest
  // is read back from the two transactions when asked for (completeRecordedEvidence). Writing
  // it out took 30% of the time of writing the results and 40% of their size.
  const recorded = input.kind === 'match' && pairEvidenceReadableLater(rule);
  const conditions = recorded
    ? `'remainders', jsonb_build_object('origin', (${origin})::text, 'target', (${target})::text)`
    : `'conditions', ${pairEvidenceSql(rule, parameters, { amountHeld: true })}`;
  const evidence = `jsonb_build_object(${conditions}, 'score', c.score::text, 'runnersUp', ${runnersUp})`;
  // A match claims both ends straight from the choice: every chosen pair is written.
  const claims =
    input.kind === 'match' && input.claim
      ? `, claimed AS (
       INSERT INTO run_claimed (id) SELECT end_unit FROM run_chosen c, LATERAL (VALUES (c.origin_unit), (c.target_unit)) AS ends (end_unit)
       ON CONFLICT DO NOTHING)`
      : '';
  const statement = `WITH written AS (
       INSERT INTO run_results (run_id, organization_id, kind, rule_id, rule_version, transactions, links, adjustment, evidence, score, group_id, options)
       SELECT ${parameters.add(input.runId, 'uuid')}, ${organization}, ${parameters.add(input.kind, 'text')},
              ${parameters.add(rule.id, 'uuid')}, ${parameters.add(rule.version, 'integer')},
              jsonb_build_array(${state('o')}, ${state('t')}), d.links, d.adjustment, d.evidence, c.score,
              ${input.kind === 'match' ? 'gen_random_uuid()' : 'NULL::uuid'},
              ${
                input.kind === 'suggestion'
                  ? `jsonb_build_array(jsonb_build_object('key', o.id::text || '>' || t.id::text, 'links', d.links, 'adjustment', d.adjustment,
                                                          'score', c.score::text, 'evidence', d.evidence))`
                  : 'NULL::jsonb'
              }
         FROM run_chosen c
         JOIN transactions o ON o.organization_id = ${organization} AND o.id = c.origin_unit
         JOIN transactions t ON t.organization_id = ${organization} AND t.id = c.target_unit,
              LATERAL (SELECT jsonb_build_array(${link}) AS links, ${adjustment} AS adjustment, ${evidence} AS evidence) AS d
        ORDER BY o.timestamp_ms, o.id
       RETURNING 1)${claims}
     SELECT count(*)::integer AS count FROM written`;
  const rows = await transaction.query<{ count: number }>(statement, parameters.values);
  return rows[0]!.count;
}

/** The state of transactions as a run records it, with what is left of each; keyed by id. */
export async function findTransactionStates(
  transaction: Queryable,
  organizationId: string,
  ids: readonly string[],
): Promise<Map<string, { id: string; datasetId: string; remaining: string | null; status: string; allocated: string; position: number }>> {
  if (ids.length === 0) return new Map();
  // position: the allocation order of findUnitMembers (date, what is left, external id), ids last.
  const rows = await transaction.query<{ id: string; datasetId: string; remaining: string | null; status: string; allocated: string; position: number }>(
    `SELECT id, dataset_id AS "datasetId", (abs(amount) - allocated_amount)::text AS remaining, reconciliation_status AS status, allocated_amount::text AS allocated,
            row_number() OVER (ORDER BY timestamp_ms, abs(amount) - allocated_amount, external_id, id)::integer AS position
       FROM transactions WHERE organization_id = $1 AND id = ANY ($2::uuid[])`,
    [organizationId, [...new Set(ids)]],
  );
  return new Map(rows.map((row) => [row.id, row]));
}

/** Every candidate pair of the current rule, for the connected-group search of N:M; at most `limit`. */
export async function findAllPairs(
  transaction: Queryable,
  limit: number,
): Promise<{ originUnit: string; targetUnit: string; score: string; dateTerm: number; textTerm: number }[]> {
  return transaction.query(
    `SELECT origin_unit AS "originUnit", target_unit AS "targetUnit", score::text AS score, date_term::float8 AS "dateTerm", text_term::float8 AS "textTerm"
       FROM run_pairs ORDER BY origin_unit, target_unit LIMIT $1`,
    [limit],
  );
}

/**
 * Evidence of the rule's conditions for given pairs of transactions, keyed "origin>target". With
 * `remainders` (a match's recorded evidence read back), the amount entry compares what was left
 * of each side when the pair was decided, and held, as it did for the pair to be chosen.
 */
export async function findPairEvidence(
  transaction: Queryable,
  organizationId: string,
  rule: CheckedRule,
  pairs: readonly { originId: string; targetId: string; remainders?: { origin: string; target: string } }[],
): Promise<Map<string, unknown[]>> {
  if (pairs.length === 0) return new Map();
  const parameters = new Parameters();
  const organization = parameters.add(organizationId, 'uuid');
  const origins = parameters.add(
    pairs.map((pair) => pair.originId),
    'uuid[]',
  );
  const targets = parameters.add(
    pairs.map((pair) => pair.targetId),
    'uuid[]',
  );
  const recorded = pairs.every((pair) => pair.remainders !== undefined);
  const originRemainders = parameters.add(
    pairs.map((pair) => pair.remainders?.origin ?? null),
    'numeric[]',
  );
  const targetRemainders = parameters.add(
    pairs.map((pair) => pair.remainders?.target ?? null),
    'numeric[]',
  );
  const options = recorded ? { amountHeld: true, remainders: { origin: 'p.origin_remaining', target: 'p.target_remaining' } } : {};
  const rows = await transaction.query<{ key: string; evidence: unknown[] }>(
    `SELECT o.id::text || '>' || t.id::text AS key, ${pairEvidenceSql(rule, parameters, options)} AS evidence
       FROM unnest(${origins}, ${targets}, ${originRemainders}, ${targetRemainders}) AS p (origin_id, target_id, origin_remaining, target_remaining)
       JOIN transactions o ON o.id = p.origin_id AND o.organization_id = ${organization}
       JOIN transactions t ON t.id = p.target_id AND t.organization_id = ${organization}`,
    parameters.values,
  );
  return new Map(rows.map((row) => [row.key, row.evidence]));
}

/** Candidate lists for the set search: per anchor (the "one" side), its counterparts ranked. */
export interface CandidateList {
  anchor: { id: string; datasetId: string; remaining: string; status: string; allocated: string };
  /** How many counterparts fit before the list was cut. */
  total: number;
  candidates: { id: string; datasetId: string; remaining: string; status: string; allocated: string; dateTerm: number; textTerm: number; score: string }[];
}

/**
 * For `1:N` (anchor: origin) or `N:1` (anchor: target) without groupBy: each anchor's
 * counterparts from run_pairs, best first, cut at `limit`, with the anchors in a deterministic
 * order that does not depend on ids (date, amount left, external id), ids last.
 */
export async function findCandidateLists(
  transaction: Queryable,
  organizationId: string,
  anchorSide: 'origin' | 'target',
  limit: number,
): Promise<CandidateList[]> {
  const [anchorColumn, otherColumn] = anchorSide === 'origin' ? ['origin_unit', 'target_unit'] : ['target_unit', 'origin_unit'];
  const otherRemaining = anchorSide === 'origin' ? 'target_remaining' : 'origin_remaining';
  return transaction.query<CandidateList>(
    `WITH ranked AS (
       SELECT p.${anchorColumn} AS anchor, p.${otherColumn} AS other, p.${otherRemaining} AS remaining, p.date_term, p.text_term, p.score,
              row_number() OVER (PARTITION BY p.${anchorColumn} ORDER BY p.score DESC, x.timestamp_ms, x.external_id, x.id) AS position,
              count(*) OVER (PARTITION BY p.${anchorColumn}) AS total,
              x.dataset_id, x.reconciliation_status, x.allocated_amount, x.timestamp_ms, x.external_id
         FROM run_pairs p JOIN transactions x ON x.organization_id = $2 AND x.id = p.${otherColumn})
     SELECT jsonb_build_object('id', a.id, 'datasetId', a.dataset_id, 'remaining', (abs(a.amount) - a.allocated_amount)::text,
                               'status', a.reconciliation_status, 'allocated', a.allocated_amount::text) AS anchor,
            max(r.total)::integer AS total,
            jsonb_agg(jsonb_build_object('id', r.other, 'datasetId', r.dataset_id, 'remaining', r.remaining::text, 'status', r.reconciliation_status,
                                         'allocated', r.allocated_amount::text, 'dateTerm', r.date_term::float8, 'textTerm', r.text_term::float8,
                                         'score', r.score::text)
                      ORDER BY r.position) AS candidates
       FROM ranked r JOIN transactions a ON a.organization_id = $2 AND a.id = r.anchor
      WHERE r.position <= $1
      GROUP BY a.id, a.dataset_id, a.amount, a.allocated_amount, a.reconciliation_status, a.timestamp_ms, a.external_id
      ORDER BY a.timestamp_ms, abs(a.amount) - a.allocated_amount, a.external_id, a.id`,
    [limit, organizationId],
  );
}

/** Result rows written from the application (set search, groups, ambiguities, classifications). */
export interface ResultInsert {
  kind: 'match' | 'suggestion' | 'ambiguous' | 'classified' | 'bounds';
  transactions: { id: string; status: string; allocated: string }[];
  links: unknown[] | null;
  adjustment: unknown;
  options: unknown[] | null;
  evidence: unknown;
  score: string | null;
  status: string | null;
  message: string | null;
}

/**
 * Writes results in one statement per batch and, when `claim`, claims the transactions of
 * matches and classifications for the run's later rules.
 */
export async function insertResults(
  transaction: Queryable,
  input: { runId: string; organizationId: string; ruleId: string; ruleVersion: number; claim: boolean },
  results: readonly ResultInsert[],
): Promise<void> {
  const batchSize = 2000;
  const claims = input.claim
    ? `INSERT INTO run_claimed (id)
       SELECT (x ->> 'id')::uuid FROM written, jsonb_array_elements(written.transactions) AS x WHERE written.kind IN ('match', 'classified')
       ON CONFLICT DO NOTHING`
    : 'SELECT count(*) FROM written';
  for (let start = 0; start < results.length; start += batchSize) {
    const batch = results.slice(start, start + batchSize);
    // The batch is read as json, not jsonb: each result's parts are then parsed once, into the
    // jsonb of their columns, instead of the whole batch being parsed into jsonb first (a batch of
    // 100 payouts of 500 rows: 1 s to bind as jsonb).
    await transaction.query(
      `WITH written AS (
         INSERT INTO run_results (run_id, organization_id, kind, rule_id, rule_version, transactions, links, adjustment, options, evidence, score, status, message, group_id)
         SELECT $1::uuid, $2::uuid, r.kind, $3::uuid, $4::integer, r.transactions, r.links, r.adjustment, r.options, r.evidence, r.score, r.status, r.message,
                CASE WHEN r.kind = 'match' THEN gen_random_uuid() END
           FROM json_to_recordset($5::json) AS r (ordinal integer, kind text, transactions jsonb, links jsonb, adjustment jsonb, options jsonb, evidence jsonb,
                                                    score numeric, status text, message text)
          ORDER BY r.ordinal
         RETURNING kind, transactions)
       ${claims}`,
      [input.runId, input.organizationId, input.ruleId, input.ruleVersion, JSON.stringify(batch.map((result, ordinal) => ({ ordinal, ...result })))],
    );
  }
}

/** Origins a classification rule sets a status on: open, in the audience, satisfying conditions that need no target. */
export async function insertClassifications(
  transaction: Queryable,
  input: { runId: string; organizationId: string; rule: CheckedRule; status: string; claim: boolean },
  scope: RunScope,
): Promise<number> {
  const parameters = new Parameters();
  const organization = parameters.add(input.organizationId, 'uuid');
  const rows = await transaction.query<{ count: number }>(
    `WITH written AS (
       INSERT INTO run_results (run_id, organization_id, kind, rule_id, rule_version, transactions, status, evidence)
       SELECT ${parameters.add(input.runId, 'uuid')}, ${organization}, 'classified',
              ${parameters.add(input.rule.id, 'uuid')}, ${parameters.add(input.rule.version, 'integer')},
              jsonb_build_array(jsonb_build_object('id', o.id, 'status', o.reconciliation_status, 'allocated', o.allocated_amount::text)),
              ${parameters.add(input.status, 'text')}, jsonb_build_object('conditions', '[]'::jsonb, 'audience', true)
         FROM transactions o
        WHERE o.organization_id = ${organization} AND ${poolSql(input.rule, 'origin', 'o', parameters, scope)} AND o.reconciliation_status = 'none'
          AND ${originConditionsSql(input.rule, parameters)}
        ORDER BY o.timestamp_ms, o.id
       RETURNING transactions)${
         input.claim
           ? `,
     claimed AS (
       INSERT INTO run_claimed (id) SELECT (x ->> 'id')::uuid FROM written, jsonb_array_elements(written.transactions) AS x ON CONFLICT DO NOTHING RETURNING 1)`
           : ''
       }
     SELECT count(*)::integer AS count FROM written`,
    parameters.values,
  );
  return rows[0]!.count;
}

/** How the amount condition is used when one side is a single transaction, by cardinality. */
const CANDIDATE_AMOUNT_USE: Record<CheckedRule['cardinality'], AmountUse> = {
  '1:1': 'pair',
  '1:N': 'part-of-target-set',
  'N:1': 'part-of-origin-set',
  'N:M': 'sign-only',
};

/**
 * The counterparts one transaction has under one rule, best first, with evidence: the rule's
 * candidate SQL with the transaction on whichever side its dataset is.
 */
export async function findCandidatesFor(
  database: Queryable,
  organizationId: string,
  rule: CheckedRule,
  transactionId: string,
  limit: number,
): Promise<{ transactionId: string; side: 'origin' | 'target'; ruleId: string; ruleVersion: number; ruleName: string; score: string; evidence: unknown }[]> {
  const found = [];
  // A transaction of a closed period is nobody's candidate, whether the organization has any or not.
  const scope: RunScope = { organizationId, datasetIds: null, fromMs: null, toMs: null, closedPeriods: true };
  for (const side of ['origin', 'target'] as const) {
    const parameters = new Parameters();
    const organization = parameters.add(organizationId, 'uuid');
    const self = side === 'origin' ? 'o' : 't';
    const other = side === 'origin' ? 't' : 'o';
    const rejected = await rejectedPairsSql(database, organizationId, parameters);
    const rows = await database.query<{ transactionId: string; score: string; evidence: unknown }>(
      `SELECT ${other}.id AS "transactionId", (${pairScoreSql(rule, parameters)})::text AS score, ${pairEvidenceSql(rule, parameters)} AS evidence
         FROM transactions o, transactions t
        WHERE ${self}.id = ${parameters.add(transactionId, 'uuid')}
          AND o.organization_id = ${organization} AND t.organization_id = ${organization}
          AND ${poolSql(rule, 'origin', 'o', parameters, scope, { inRun: false })}
          AND ${poolSql(rule, 'target', 't', parameters, scope, { inRun: false })}
          AND ${pairConditionsSql(rule, parameters, CANDIDATE_AMOUNT_USE[rule.cardinality])}
          AND ${rejected}
        ORDER BY 2 DESC, ${other}.timestamp_ms, ${other}.id
        LIMIT ${parameters.add(limit, 'integer')}`,
      parameters.values,
    );
    for (const row of rows)
      found.push({
        ...row,
        side: side === 'origin' ? ('target' as const) : ('origin' as const),
        ruleId: rule.id,
        ruleVersion: rule.version,
        ruleName: rule.name,
      });
  }
  return found;
}

/** Rejected options of more than two transactions (sets and groups), which the pair SQL cannot check. */
export async function findRejectedGroupKeys(transaction: Queryable, organizationId: string, limit: number): Promise<Set<string>> {
  const rows = await transaction.query<{ key: string }>(
    `SELECT option_key AS key FROM rejected_options WHERE organization_id = $1 AND option_key LIKE '%,%' ORDER BY rejected_at DESC LIMIT $2`,
    [organizationId, limit],
  );
  return new Set(rows.map((row) => row.key));
}

/** What writing a rule's chosen payouts made: matches or suggestions, and groups that could not be allocated. */
export interface NettedWritten {
  decided: number;
  bounds: number;
}

/**
 * Writes the chosen unit pairs of a netted rule (1:N or N:1 grouped by key: payouts, SPEC §16)
 * as results, set-based: one statement gathers the members of every chosen group in allocation
 * order (date, what is left, external id, id) with their group's net, and one writes a result
 * per group. It is the engine's allocateNetted and its evidence summary (run-engine.ts), done by
 * the database over all groups at once rather than by the application group by group: a payout
 * of 500 rows is one result with 500 links, and 1,000 of them took the application longer to
 * allocate and send back than the database to decide.
 *
 * Per group, with the one transaction of the other side (the deposit) as its anchor:
 * - each member has one link for all it has left; a member against the anchor's sign (as the
 *   amount condition reads signs: a refund, a fee) offsets, its link reduces the anchor's side;
 * - the net is the members' signed sum; when it is more than the anchor, the last member of the
 *   anchor's sign gives up the difference (its adjustment with `adjust`); when less, with
 *   `adjust`, the difference is the anchor's adjustment, on that same member's link;
 * - a group with a member or an anchor with nothing left, a net of zero or less, or a difference
 *   larger than the member that would give it up is a result of kind bounds, never dropped;
 * - a group whose option a person rejected is left out (the run's rejected keys, up to
 *   `rejectedKeys` of the latest, as findRejectedGroupKeys reads them);
 * - decimals are written at the largest scale of the amounts they come from, as the exact
 *   arithmetic of allocation.ts writes them (round(x, scale) pads a numeric to that scale).
 */
export async function insertNettedResults(
  transaction: Queryable,
  input: {
    runId: string;
    organizationId: string;
    rule: CheckedRule;
    kind: 'match' | 'suggestion';
    runnersUp: number;
    rejectedKeys: number;
    claim: boolean;
    /** The key of an option longer than this is its digest (optionKey in run-engine.ts). */
    optionKeyLengthLimit: number;
    boundsMessage: string;
  },
): Promise<NettedWritten> {
  const { rule } = input;
  const anchorSide = rule.cardinality === '1:N' ? 'origin' : 'target';
  const memberSide = anchorSide === 'origin' ? 'target' : 'origin';
  const [anchorUnit, memberUnit] = anchorSide === 'origin' ? ['origin_unit', 'target_unit'] : ['target_unit', 'origin_unit'];
  const amount = amountConditionOf(rule);
  const adjust = rule.adjustmentReason !== null && amount !== null;
  const members = new Parameters();
  const memberOrganization = members.add(input.organizationId, 'uuid');
  // A member against the anchor's sign, as the amount condition reads signs, offsets it.
  const offsets =
    amount === null || amount.sign === 'absolute'
      ? 'false'
      : `coalesce(sign(x.amount)::integer, 0) <> ${amount.sign === 'same' ? '' : '-'}coalesce(sign(a.amount)::integer, 0)`;
  const group = 'PARTITION BY s.origin_unit, s.target_unit';
  // The planner knows nothing of the run's scratch tables and overestimates these statements by
  // orders of magnitude: compiling them (JIT) took longer than running them. Off for them alone.
  const [{ jit }] = (await transaction.query<{ jit: string }>(`SELECT current_setting('jit') AS jit`)) as [{ jit: string }];
  await transaction.query(`SET LOCAL jit = off`);
  await transaction.query('ANALYZE run_chosen');
  await transaction.query('DROP TABLE IF EXISTS run_netted');
  await transaction.query(
    `CREATE TEMP TABLE run_netted ON COMMIT DROP AS
     SELECT s.*,
            sum(CASE WHEN s.offsets THEN -s.remaining ELSE s.remaining END) OVER (${group}) AS net,
            count(*) OVER (${group}) AS size,
            coalesce(bool_and(coalesce(s.remaining, 0) > 0) OVER (${group}), false) AS positive,
            max(coalesce(scale(s.remaining), 0)) OVER (${group}) AS member_scale,
            -- The last member of the anchor's sign.
            max(CASE WHEN NOT s.offsets THEN s.position END) OVER (${group}) AS last
       FROM (
         SELECT c.origin_unit, c.target_unit, c.score, c.contested,
                a.id AS anchor_id, a.dataset_id AS anchor_dataset_id, ${remainingSql('a')} AS anchor_remaining,
                a.reconciliation_status AS anchor_status, a.allocated_amount AS anchor_allocated,
                x.id, x.dataset_id, ${remainingSql('x')} AS remaining, x.reconciliation_status AS status, x.allocated_amount AS allocated,
                x.type, coalesce(sign(x.amount)::integer, 0) AS sign, ${offsets} AS offsets,
                row_number() OVER (PARTITION BY c.origin_unit, c.target_unit
                                   ORDER BY x.timestamp_ms, ${remainingSql('x')}, x.external_id, x.id) AS position
           FROM run_chosen c
           JOIN transactions a ON a.organization_id = ${memberOrganization} AND a.id = c.${anchorUnit}
           JOIN (SELECT DISTINCT unit, member FROM run_units) AS u ON u.unit = c.${memberUnit}
           JOIN transactions x ON x.organization_id = ${memberOrganization} AND x.id = u.member) AS s`,
    members.values,
  );

  const parameters = new Parameters();
  const organization = parameters.add(input.organizationId, 'uuid');
  const decimal = (value: string, scale: string) => `round(${value}, ${scale})::text`;
  // The group's totals as the amount condition compares them: the anchor's remainder as it is
  // written, the net at the scale of all the group's amounts.
  const net = 'round(g.net, g.scale_all)';
  const [originTotal, targetTotal] = anchorSide === 'origin' ? ['g.anchor_remaining', net] : [net, 'g.anchor_remaining'];
  // The tolerance of toleranceFor: the larger of the absolute one and the percentage of the
  // origin's total, written at the largest scale among them (a percentage's product at the
  // scales of the total and the percentage, plus two for the hundredth).
  const absolute = amount?.toleranceAbsolute != null ? parameters.add(amount.toleranceAbsolute, 'numeric') : null;
  const percent = amount?.tolerancePercent != null ? parameters.add(amount.tolerancePercent, 'numeric') : null;
  const toleranceValue = `greatest(0::numeric${absolute ? `, ${absolute}` : ''}${percent ? `, ${originTotal} * ${percent} * 0.01` : ''})`;
  const toleranceScale = `greatest(0${absolute ? `, scale(${absolute})` : ''}${percent ? `, scale(${originTotal}) + scale(${percent}) + 2` : ''})`;
  const differenceScale = `greatest(scale(${originTotal}), scale(${targetTotal}), ${toleranceScale})`;
  const difference = `${originTotal} - ${targetTotal}`;
  const otherConditions = parameters.add(
    [...rule.conditions.filter((condition) => condition.type !== 'amount').map((condition) => condition.type), ...(rule.anyCurrency ? [] : ['currency'])],
    'text[]',
  );
  const conditions = `${
    amount
      ? `jsonb_build_array(jsonb_build_object('type', 'amount', 'sign', ${parameters.add(amount.sign, 'text')},
           'origin', (${originTotal})::text, 'target', (${targetTotal})::text, 'difference', ${decimal(difference, differenceScale)},
           'tolerance', ${decimal(toleranceValue, toleranceScale)}, 'held', abs(${difference}) <= ${toleranceValue}))`
      : `'[]'::jsonb`
  } || coalesce((SELECT jsonb_agg(jsonb_build_object('type', condition.type, 'held', true, 'pairs', g.size) ORDER BY condition.position)
                   FROM unnest(${otherConditions}) WITH ORDINALITY AS condition (type, position)), '[]'::jsonb)`;
  const evidence = `jsonb_build_object('conditions', ${conditions},
       'group', jsonb_build_object('side', ${parameters.add(memberSide, 'text')}, 'transactions', g.size, 'byType', coalesce(g.by_type, '[]'::jsonb),
                                   'total', ${decimal('g.net', 'g.scale_all')},
                                   'counterpart', jsonb_build_object('id', g.anchor_id, 'remaining', g.anchor_remaining::text),
                                   'difference', ${decimal(difference, differenceScale)}),
       'score', g.score::text)`;
  const adjustment = adjust
    ? `CASE WHEN g.net <> g.anchor_remaining THEN jsonb_build_object('amount', ${decimal('abs(g.net - g.anchor_remaining)', 'g.scale_all')},
                                                                      'reason', ${parameters.add(rule.adjustmentReason, 'text')}) END`
    : 'NULL::jsonb';
  // A runner-up's group is listed by its members when it is a chosen group (whose members were
  // read), and by its unit otherwise; an anchor's unit is its transaction.
  const runnerUpSide = (unit: string, side: 'origin' | 'target') =>
    side === anchorSide
      ? `jsonb_build_array(${unit})`
      : `coalesce((SELECT jsonb_agg(m.id ORDER BY m.position) FROM run_netted m WHERE m.${memberUnit} = ${unit}), jsonb_build_array(${unit}))`;
  const runnersUp = `CASE WHEN NOT g.contested THEN '[]'::jsonb ELSE coalesce((SELECT jsonb_agg(r ORDER BY r.score DESC) FROM (
        SELECT ${runnerUpSide('p.origin_unit', 'origin')} AS origins, ${runnerUpSide('p.target_unit', 'target')} AS targets, p.score::text AS score
          FROM run_pairs p
         WHERE (p.origin_unit = g.origin_unit OR p.target_unit = g.target_unit) AND NOT (p.origin_unit = g.origin_unit AND p.target_unit = g.target_unit)
         ORDER BY p.score DESC, p.origin_unit, p.target_unit LIMIT ${parameters.add(input.runnersUp, 'integer')}) AS r), '[]'::jsonb) END`;
  const anyRejected =
    (await transaction.query(`SELECT 1 FROM rejected_options WHERE organization_id = $1 AND option_key LIKE '%,%' LIMIT 1`, [input.organizationId])).length > 0;
  const suggestion = input.kind === 'suggestion';
  const keyed = anyRejected || suggestion;
  // The groups, with what each result says of its group, numbered as their results will be.
  const grouping = new Parameters();
  // The option's key (optionKey): its transactions' ids, sorted as text, origins before targets.
  const sortedMembers = `string_agg(r.id::text, ',' ORDER BY r.id::text COLLATE "C")`;
  const plainKey = anchorSide === 'origin' ? `g.anchor_id::text || '>' || g.member_ids` : `g.member_ids || '>' || g.anchor_id::text`;
  const key = () => `CASE WHEN length(${plainKey}) <= ${grouping.add(input.optionKeyLengthLimit, 'integer')} THEN ${plainKey}
                    ELSE 'sha256,' || encode(sha256(convert_to(${plainKey}, 'UTF8')), 'hex') END`;
  const rejected = anyRejected
    ? `AND NOT EXISTS (SELECT 1 FROM (SELECT option_key FROM rejected_options WHERE organization_id = ${grouping.add(input.organizationId, 'uuid')} AND option_key LIKE '%,%'
                                       ORDER BY rejected_at DESC LIMIT ${grouping.add(input.rejectedKeys, 'integer')}) AS k
                        WHERE k.option_key = g.key)`
    : '';
  // A member's link: all it has left, less what the last member of the anchor's sign gives up.
  const givesUp = `CASE WHEN r.position = r.last AND r.net > r.anchor_remaining THEN r.net - r.anchor_remaining ELSE 0 END`;
  const anchorExtra = adjust ? `CASE WHEN r.position = r.last AND r.net < r.anchor_remaining THEN r.anchor_remaining - r.net ELSE 0 END` : '0';
  const memberExtra = adjust ? givesUp : '0';
  const [originOf, targetOf] =
    anchorSide === 'origin'
      ? [
          ['r.anchor_id', 'r.anchor_dataset_id'],
          ['r.id', 'r.dataset_id'],
        ]
      : [
          ['r.id', 'r.dataset_id'],
          ['r.anchor_id', 'r.anchor_dataset_id'],
        ];
  const [originExtra, targetExtra] = anchorSide === 'origin' ? [anchorExtra, memberExtra] : [memberExtra, anchorExtra];
  // A suggestion's option lists its links as JSON (suggestions keep their options so); a
  // result's own links are rows of run_result_transactions, written below.
  const linkFields = `'originId', ${originOf[0]}, 'originDatasetId', ${originOf[1]}, 'targetId', ${targetOf[0]}, 'targetDatasetId', ${targetOf[1]},
        'amount', ${decimal(`r.remaining - ${givesUp}`, 'r.scale_all')}, 'originAdjustment', ${decimal(originExtra, 'r.scale_all')},
        'targetAdjustment', ${decimal(targetExtra, 'r.scale_all')}`;
  const link = () =>
    `CASE WHEN r.offsets THEN json_build_object(${linkFields}, 'reduces', ${grouping.add(anchorSide, 'text')}) ELSE json_build_object(${linkFields}) END`;
  await transaction.query('DROP TABLE IF EXISTS run_netted_groups');
  await transaction.query(
    `CREATE TEMP TABLE run_netted_groups ON COMMIT DROP AS
     WITH members AS (
       SELECT n.*, greatest(n.member_scale, coalesce(scale(n.anchor_remaining), 0)) AS scale_all FROM run_netted n),
     groups AS (
       SELECT r.origin_unit, r.target_unit, min(r.score) AS score, bool_or(r.contested) AS contested,
              (array_agg(r.anchor_id))[1] AS anchor_id, min(r.anchor_remaining) AS anchor_remaining,
              min(r.anchor_status) AS anchor_status, min(r.anchor_allocated) AS anchor_allocated,
              min(r.net) AS net, min(r.size) AS size, min(r.scale_all) AS scale_all,
              coalesce(min(r.anchor_remaining) > 0 AND bool_and(r.positive) AND min(r.net) > 0
                       AND (min(r.net) <= min(r.anchor_remaining) OR max(r.remaining) FILTER (WHERE r.position = r.last) > min(r.net) - min(r.anchor_remaining)),
                       false) AS allocated,
              -- Built as json and read as jsonb once: half the time of building each link as jsonb.
              ${suggestion ? `json_agg(${link()} ORDER BY r.position)::jsonb` : 'NULL::jsonb'} AS links,
              ${keyed ? sortedMembers : 'NULL::text'} AS member_ids
         FROM members r
        GROUP BY r.origin_unit, r.target_unit),
     by_type AS (
       -- Count and signed sum per type, the most frequent first, then by type (lower case first, as a person reads them).
       SELECT origin_unit, target_unit,
              jsonb_agg(jsonb_build_object('type', type, 'count', count, 'sum', round(total, scale)::text)
                        ORDER BY count DESC, lower(coalesce(type, 'null')) COLLATE "C", coalesce(type, 'null') COLLATE "C" DESC) AS by_type
         FROM (SELECT origin_unit, target_unit, type, count(*) AS count, max(member_scale) AS scale,
                      sum(CASE WHEN sign < 0 THEN -coalesce(remaining, 0) ELSE coalesce(remaining, 0) END) AS total
                 FROM run_netted GROUP BY origin_unit, target_unit, type) AS types
        GROUP BY origin_unit, target_unit),
     keyed AS (
       SELECT g.*, ${keyed ? key() : 'NULL::text'} AS key, b.by_type
         FROM groups g LEFT JOIN by_type b ON b.origin_unit = g.origin_unit AND b.target_unit = g.target_unit),
     kept AS (
       SELECT g.*, row_number() OVER (ORDER BY g.origin_unit, g.target_unit) AS ordinal FROM keyed g WHERE true ${rejected}),
     -- The results' sequence numbers, drawn first and given out in the groups' order: the order of the run's decisions.
     numbers AS (
       SELECT drawn.sequence, row_number() OVER (ORDER BY drawn.sequence) AS ordinal
         FROM (SELECT nextval(pg_get_serial_sequence('run_results', 'sequence')) AS sequence FROM kept) AS drawn)
     SELECT k.*, n.sequence FROM kept k JOIN numbers n ON n.ordinal = k.ordinal`,
    grouping.values,
  );
  const option = `jsonb_build_object('key', g.key, 'links', g.links, 'adjustment', ${adjustment}, 'score', g.score::text, 'evidence', ${evidence})`;
  const run = parameters.add(input.runId, 'uuid');
  await transaction.query(
    `INSERT INTO run_results (sequence, run_id, organization_id, kind, rule_id, rule_version, transactions, links, adjustment, options, evidence, score, message, group_id)
     SELECT g.sequence, ${run}, ${organization}, CASE WHEN g.allocated THEN ${parameters.add(input.kind, 'text')} ELSE 'bounds' END,
            ${parameters.add(rule.id, 'uuid')}, ${parameters.add(rule.version, 'integer')}, NULL, NULL,
            CASE WHEN g.allocated THEN ${adjustment} END,
            ${suggestion ? `CASE WHEN g.allocated THEN jsonb_build_array(${option}) END` : 'NULL::jsonb'},
            CASE WHEN g.allocated THEN ${evidence} || jsonb_build_object('runnersUp', ${runnersUp})
                 ELSE jsonb_build_object('score', g.score::text) END,
            g.score,
            CASE WHEN g.allocated THEN NULL ELSE ${parameters.add(input.boundsMessage, 'text')} END,
            ${suggestion ? 'NULL::uuid' : 'CASE WHEN g.allocated THEN gen_random_uuid() END'}
       FROM run_netted_groups g
      ORDER BY g.sequence`,
    parameters.values,
  );
  // Each result's transactions, one narrow row each, in the order of its list (the anchor first
  // for 1:N, last for N:1), with the state the run saw and, for a member of an allocated group,
  // its link. The link's decimals at the group's scale, as the JSON of a link writes them.
  const anchorPosition = anchorSide === 'origin' ? '0' : '(g.size + 1)::integer';
  const stored = new Parameters();
  const storedOrganization = stored.add(input.organizationId, 'uuid');
  const storedRun = stored.add(input.runId, 'uuid');
  const linked = (value: string) => `CASE WHEN g.allocated THEN ${value} END`;
  await transaction.query(
    `INSERT INTO run_result_transactions (organization_id, run_id, sequence, position, transaction_id, status, allocated,
                                          origin_id, origin_dataset_id, target_id, target_dataset_id, amount, origin_adjustment, target_adjustment, reduces)
     SELECT ${storedOrganization}, ${storedRun}, g.sequence, ${anchorPosition}, g.anchor_id, g.anchor_status, g.anchor_allocated,
            NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL
       FROM run_netted_groups g
     UNION ALL
     SELECT ${storedOrganization}, ${storedRun}, g.sequence, r.position::integer, r.id, r.status, r.allocated,
            ${linked(originOf[0]!)}, ${linked(originOf[1]!)}, ${linked(targetOf[0]!)}, ${linked(targetOf[1]!)},
            ${linked(`round(r.remaining - ${givesUp}, g.scale_all)`)}, ${linked(`round(${originExtra}, g.scale_all)`)},
            ${linked(`round(${targetExtra}, g.scale_all)`)},
            CASE WHEN g.allocated AND r.offsets THEN ${stored.add(anchorSide, 'text')} END
       FROM run_netted r JOIN run_netted_groups g ON g.origin_unit = r.origin_unit AND g.target_unit = r.target_unit`,
    stored.values,
  );
  if (input.claim && !suggestion)
    await transaction.query(
      `INSERT INTO run_claimed (id)
       SELECT g.anchor_id FROM run_netted_groups g WHERE g.allocated
       UNION
       SELECT r.id FROM run_netted r JOIN run_netted_groups g ON g.origin_unit = r.origin_unit AND g.target_unit = r.target_unit WHERE g.allocated
       ON CONFLICT DO NOTHING`,
    );
  const rows = await transaction.query<{ decided: number; bounds: number }>(
    `SELECT (count(*) FILTER (WHERE allocated))::integer AS decided, (count(*) FILTER (WHERE NOT allocated))::integer AS bounds FROM run_netted_groups`,
  );
  await transaction.query('DROP TABLE run_netted_groups');
  await transaction.query('DROP TABLE run_netted');
  await transaction.query(`SELECT set_config('jit', $1, true)`, [jit]);
  return rows[0]!;
}
