-- run.completed carries what the run did, in counts: a consumer learns that a large run finished,
-- and how much it matched, from one event instead of following every transaction.status_changed
-- and match_group.created it caused. The totals are those of the run's own record (GET /runs/{id}):
-- summed over its rules; for a commit run `matched` is the match groups it created. No event type
-- is added, so events_type_check stays as migration 0025 defined it.
CREATE OR REPLACE FUNCTION events_run_finished() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO events (organization_id, type, data)
  SELECT n.organization_id, 'run.' || n.status,
         jsonb_build_object('runId', n.id, 'mode', n.mode, 'trigger', n.trigger, 'status', n.status, 'error', n.error)
         || CASE WHEN n.status = 'completed' THEN jsonb_build_object(
              'examined', n.examined,
              'totals', (SELECT jsonb_build_object(
                           'matched', coalesce(sum((c ->> 'matched')::bigint), 0),
                           'suggested', coalesce(sum((c ->> 'suggested')::bigint), 0),
                           'ambiguous', coalesce(sum((c ->> 'ambiguous')::bigint), 0),
                           'classified', coalesce(sum((c ->> 'classified')::bigint), 0),
                           'boundsHit', coalesce(sum((c ->> 'boundsHit')::bigint), 0),
                           'closedPeriodSkipped', n.closed_period_skipped)
                           FROM jsonb_array_elements(n.counts) AS c))
            ELSE '{}'::jsonb END
    FROM new_rows n JOIN old_rows o ON o.id = n.id
   WHERE n.status IN ('completed', 'failed', 'reverted') AND n.status IS DISTINCT FROM o.status
   ORDER BY n.id;
  RETURN NULL;
END;
$$;

-- import.completed names the run it queued (the rules with runOnIngest), so that a consumer can
-- wait for that run's run.completed rather than count the changes it makes; null when the import
-- stored nothing new, no rule runs on ingest, or a run already waiting took the new rows too.
ALTER TABLE imports ADD COLUMN run_id uuid;
CREATE OR REPLACE FUNCTION events_import_data(n imports) RETURNS jsonb LANGUAGE sql STABLE AS $$
  SELECT jsonb_build_object('importId', n.id, 'datasetId', n.dataset_id, 'fileName', n.file_name, 'format', n.format, 'status', n.status,
                            'rowsRead', n.rows_read, 'inserted', n.inserted, 'duplicates', n.duplicates, 'error', n.error, 'runId', n.run_id)
$$;
