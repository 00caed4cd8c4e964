/**
 * The transactions and links of a run's results (run_results), in either of their two forms:
 * as JSON in the result's row (transactions: [{id, status, allocated}], links: [{originId, …}]),
 * or, for a result naming many transactions (a payout's group, migration 0030), as narrow rows of
 * run_result_transactions, one per transaction in the order of the list, with its link when it
 * has one of its own. A result's row has `transactions` NULL exactly when its transactions are
 * rows. Every reader of a result's transactions or links reads them through this file.
 */

/**
 * Every transaction of the results of run `run` (SQL) of organization `organization` (SQL) whose
 * kind is in `kinds` (a list in SQL, `('match', 'classified')`), as rows (sequence, kind,
 * result_status, id, status, allocated): the transaction's id and the state the run saw, as
 * text (a bounds result of an oversized group names ids without a state: NULL for both).
 */
export function resultTransactionsSql(run: string, organization: string, kinds: string): string {
  return `SELECT r.sequence, r.kind, r.status AS result_status, (x ->> 'id')::uuid AS id, x ->> 'status' AS status, x ->> 'allocated' AS allocated
    FROM run_results r, jsonb_array_elements(r.transactions) AS x
   WHERE r.organization_id = ${organization} AND r.run_id = ${run} AND r.kind IN ${kinds}
  UNION ALL
  SELECT r.sequence, r.kind, r.status, rt.transaction_id, rt.status, rt.allocated::text
    FROM run_result_transactions rt
    JOIN run_results r ON r.organization_id = ${organization} AND r.organization_id = rt.organization_id AND r.sequence = rt.sequence
   WHERE rt.organization_id = ${organization} AND rt.run_id = ${run} AND r.run_id = ${run} AND r.kind IN ${kinds}`;
}

/**
 * Every link of the results of run `run` of organization `organization` whose kind is in
 * `kinds`, as rows (sequence, ordinality, origin_id, origin_dataset_id, target_id,
 * target_dataset_id, amount, origin_adjustment, target_adjustment, reduces) in the columns of
 * matches, ordered within a result by `ordinality`.
 */
export function resultLinksSql(run: string, organization: string, kinds: string): string {
  return `SELECT r.sequence, l.ordinality, (l.link ->> 'originId')::uuid AS origin_id, (l.link ->> 'originDatasetId')::uuid AS origin_dataset_id,
         (l.link ->> 'targetId')::uuid AS target_id, (l.link ->> 'targetDatasetId')::uuid AS target_dataset_id, (l.link ->> 'amount')::numeric AS amount,
         coalesce((l.link ->> 'originAdjustment')::numeric, 0) AS origin_adjustment, coalesce((l.link ->> 'targetAdjustment')::numeric, 0) AS target_adjustment,
         l.link ->> 'reduces' AS reduces
    FROM run_results r, jsonb_array_elements(r.links) WITH ORDINALITY AS l (link, ordinality)
   WHERE r.organization_id = ${organization} AND r.run_id = ${run} AND r.kind IN ${kinds}
  UNION ALL
  SELECT r.sequence, rt.position, rt.origin_id, rt.origin_dataset_id, rt.target_id, rt.target_dataset_id, rt.amount,
         coalesce(rt.origin_adjustment, 0), coalesce(rt.target_adjustment, 0), rt.reduces
    FROM run_result_transactions rt
    JOIN run_results r ON r.organization_id = ${organization} AND r.organization_id = rt.organization_id AND r.sequence = rt.sequence
   WHERE rt.organization_id = ${organization} AND rt.run_id = ${run} AND r.run_id = ${run} AND r.kind IN ${kinds} AND rt.origin_id IS NOT NULL`;
}

/**
 * A result's transaction ids as the API lists them (a JSON array, in the result's order), for a
 * row `r` of run_results.
 */
export const RESULT_TRANSACTION_IDS_SQL = `CASE WHEN r.transactions IS NOT NULL THEN (SELECT json_agg(x -> 'id') FROM jsonb_array_elements(r.transactions) AS x)
  ELSE (SELECT json_agg(rt.transaction_id ORDER BY rt.position) FROM run_result_transactions rt
         WHERE rt.organization_id = r.organization_id AND rt.run_id = r.run_id AND rt.sequence = r.sequence) END`;

/**
 * A result's links as the API shows them, for a row `r` of run_results: the JSON of its row, or
 * the same JSON built from its rows (jsonb, so that its keys come in jsonb's order, as the
 * stored JSON's do; `reduces` only on a link that has it); NULL for a result without links.
 */
export const RESULT_LINKS_SQL = `CASE WHEN r.transactions IS NOT NULL THEN r.links
  ELSE (SELECT jsonb_agg(CASE WHEN rt.reduces IS NULL THEN jsonb_build_object(${linkFields('rt')})
                              ELSE jsonb_build_object(${linkFields('rt')}, 'reduces', rt.reduces) END ORDER BY rt.position)
          FROM run_result_transactions rt
         WHERE rt.organization_id = r.organization_id AND rt.run_id = r.run_id AND rt.sequence = r.sequence AND rt.origin_id IS NOT NULL) END`;

function linkFields(alias: string): string {
  return `'originId', ${alias}.origin_id, 'originDatasetId', ${alias}.origin_dataset_id, 'targetId', ${alias}.target_id,
          'targetDatasetId', ${alias}.target_dataset_id, 'amount', ${alias}.amount::text,
          'originAdjustment', ${alias}.origin_adjustment::text, 'targetAdjustment', ${alias}.target_adjustment::text`;
}

/** How many links a result has, for a row `r` of run_results. */
export const RESULT_LINK_COUNT_SQL = `CASE WHEN r.transactions IS NOT NULL THEN coalesce(jsonb_array_length(r.links), 0)
  ELSE (SELECT count(*)::integer FROM run_result_transactions rt
         WHERE rt.organization_id = r.organization_id AND rt.run_id = r.run_id AND rt.sequence = r.sequence AND rt.origin_id IS NOT NULL) END`;
