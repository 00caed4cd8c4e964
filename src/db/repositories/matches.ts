import type { Queryable } from '../database.ts';
import { MATCH_JSON_SQL } from './transaction-records.ts';
import { LINK_ALLOCATION_SQL } from './transactions.ts';

/** A Match in the shape of SPEC §4, as the database writes it. */
export interface MatchJson {
  id: string;
  groupId: string;
  originId: string;
  originDatasetId: string;
  targetId: string;
  targetDatasetId: string;
  amount: string | null;
  method: 'manual' | 'rule';
  ruleId: string | null;
  ruleVersion: number | null;
  runId: string | null;
  createdAt: string;
  createdBy: string;
}

export async function insertMatchGroup(
  transaction: Queryable,
  group: { id: string; organizationId: string; method: 'manual' | 'rule'; ruleId: string | null; note: string | null; createdBy: string },
): Promise<void> {
  await transaction.query('INSERT INTO match_groups (id, organization_id, method, rule_id, note, created_by) VALUES ($1, $2, $3, $4, $5, $6)', [
    group.id,
    group.organizationId,
    group.method,
    group.ruleId,
    group.note,
    group.createdBy,
  ]);
}

export async function markMatchGroupForced(transaction: Queryable, organizationId: string, groupId: string): Promise<void> {
  await transaction.query('UPDATE match_groups SET forced = true WHERE organization_id = $1 AND id = $2', [organizationId, groupId]);
}

/** What is left to allocate on both sides of a link, and the amount the link would allocate. */
export interface LinkAllocation {
  /** What is left of the origin's absolute amount; null when it carries no (or a zero) amount. */
  originRemaining: string | null;
  targetRemaining: string | null;
  /** The requested amount, or by default the smaller of what is left on both sides. */
  amount: string | null;
  /** The default came out zero or negative: one side is already fully allocated. */
  nothingLeft: boolean;
  exceedsOrigin: boolean;
  exceedsTarget: boolean;
}

/**
 * Decides a link's amount with SQL numeric arithmetic, from the matches as they stand in the
 * caller's transaction (so links earlier in the same request count). The transactions must be
 * locked by the caller, so that nothing changes between this and the insert.
 */
export async function computeLinkAllocation(
  transaction: Queryable,
  organizationId: string,
  link: { originId: string; targetId: string; requestedAmount: string | null },
): Promise<LinkAllocation> {
  const rows = await transaction.query<LinkAllocation>(
    `WITH sides AS (
       SELECT t.id,
              CASE WHEN t.amount IS NULL OR t.amount = 0 THEN NULL
                   ELSE abs(t.amount)
                        - coalesce((SELECT sum(${LINK_ALLOCATION_SQL('origin')}) FROM matches m
                                     WHERE m.organization_id = t.organization_id AND m.origin_id = t.id), 0)
                        - coalesce((SELECT sum(${LINK_ALLOCATION_SQL('target')}) FROM matches m
                                     WHERE m.organization_id = t.organization_id AND m.target_id = t.id), 0) END AS remaining
         FROM transactions t
        WHERE t.organization_id = $1 AND t.id IN ($2, $3)),
     decided AS (
       SELECT origin.remaining AS origin_remaining, target.remaining AS target_remaining,
              coalesce($4::numeric, least(origin.remaining, target.remaining)) AS amount
         FROM (SELECT remaining FROM sides WHERE id = $2) AS origin,
              (SELECT remaining FROM sides WHERE id = $3) AS target)
     SELECT origin_remaining::text AS "originRemaining",
            target_remaining::text AS "targetRemaining",
            amount::text AS amount,
            coalesce(amount <= 0, false) AS "nothingLeft",
            coalesce(amount > origin_remaining, false) AS "exceedsOrigin",
            coalesce(amount > target_remaining, false) AS "exceedsTarget"
       FROM decided`,
    [organizationId, link.originId, link.targetId, link.requestedAmount],
  );
  return rows[0]!;
}

export async function insertMatch(
  transaction: Queryable,
  match: Omit<MatchJson, 'createdAt' | 'ruleVersion' | 'runId'> & { organizationId: string; forced: boolean },
): Promise<MatchJson> {
  const rows = await transaction.query<{ match: MatchJson }>(
    `INSERT INTO matches AS m (id, organization_id, group_id, origin_id, origin_dataset_id, target_id, target_dataset_id, amount, method, rule_id, forced, created_by)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8::numeric, $9, $10, $11, $12)
     RETURNING ${MATCH_JSON_SQL} AS match`,
    [
      match.id,
      match.organizationId,
      match.groupId,
      match.originId,
      match.originDatasetId,
      match.targetId,
      match.targetDatasetId,
      match.amount,
      match.method,
      match.ruleId,
      match.forced,
      match.createdBy,
    ],
  );
  return rows[0]!.match;
}

/** The transactions a match links, or undefined when the organization has no such match. */
/**
 * The two transactions a match links, its group, and whether the group is netted (a payout whose
 * refunds and fees lower the deposit's total: matches.reduces, migration 0020).
 */
export async function findMatchEnds(
  database: Queryable,
  organizationId: string,
  matchId: string,
): Promise<{ originId: string; targetId: string; groupId: string; netted: boolean } | undefined> {
  const rows = await database.query<{ originId: string; targetId: string; groupId: string; netted: boolean }>(
    `SELECT m.origin_id AS "originId", m.target_id AS "targetId", m.group_id AS "groupId",
            EXISTS (SELECT 1 FROM matches n WHERE n.organization_id = m.organization_id AND n.group_id = m.group_id AND n.reduces IS NOT NULL) AS netted
       FROM matches m WHERE m.organization_id = $1 AND m.id = $2`,
    [organizationId, matchId],
  );
  return rows[0];
}

/** The transactions the matches of a group link; undefined when the organization has no such group. */
export async function findMatchGroupEnds(database: Queryable, organizationId: string, groupId: string): Promise<string[] | undefined> {
  const rows = await database.query<{ found: boolean; ids: string[] | null }>(
    `SELECT EXISTS (SELECT 1 FROM match_groups WHERE organization_id = $1 AND id = $2) AS found,
            (SELECT array_agg(DISTINCT id) FROM (
               SELECT origin_id AS id FROM matches WHERE organization_id = $1 AND group_id = $2
               UNION ALL
               SELECT target_id FROM matches WHERE organization_id = $1 AND group_id = $2) AS ends) AS ids`,
    [organizationId, groupId],
  );
  const row = rows[0]!;
  return row.found ? (row.ids ?? []) : undefined;
}

/** The transactions the matches of groups link, in one statement however many groups. */
export async function findEndsOfMatchGroups(database: Queryable, organizationId: string, groupIds: readonly string[]): Promise<string[]> {
  const rows = await database.query<{ id: string }>(
    `SELECT origin_id AS id FROM matches WHERE organization_id = $1 AND group_id = ANY ($2::uuid[])
     UNION
     SELECT target_id FROM matches WHERE organization_id = $1 AND group_id = ANY ($2::uuid[])`,
    [organizationId, [...new Set(groupIds)]],
  );
  return rows.map((row) => row.id);
}

/** Deletes matches (one by id, or all of some groups) and returns them as they were, with whether they were forced. */
export async function deleteMatches(
  transaction: Queryable,
  organizationId: string,
  which: { matchId: string } | { groupIds: readonly string[] },
): Promise<{ match: MatchJson; forced: boolean }[]> {
  const [condition, value] = 'matchId' in which ? ['m.id = $2', which.matchId] : ['m.group_id = ANY ($2::uuid[])', [...new Set(which.groupIds)]];
  return transaction.query<{ match: MatchJson; forced: boolean }>(
    `DELETE FROM matches AS m WHERE m.organization_id = $1 AND ${condition}
     RETURNING ${MATCH_JSON_SQL} AS match, m.forced`,
    [organizationId, value],
  );
}

/** Removes groups left without matches, so that a group id either has matches or is gone. */
export async function deleteEmptyMatchGroups(transaction: Queryable, organizationId: string, groupIds: readonly string[]): Promise<void> {
  await transaction.query(
    `DELETE FROM match_groups g
      WHERE g.organization_id = $1 AND g.id = ANY ($2::uuid[])
        AND NOT EXISTS (SELECT 1 FROM matches m WHERE m.organization_id = g.organization_id AND m.group_id = g.id)`,
    [organizationId, [...new Set(groupIds)]],
  );
}
