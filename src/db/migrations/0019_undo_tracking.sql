-- 1. A dataset's latest timestamp (datasets.latest_timestamp_ms, the published `latestTimestamp`)
--    is raised by the writers that store rows (markDatasetReceived), but nothing lowered it when
--    rows went: after an import was undone the dataset still reported the latest timestamp of
--    rows it no longer holds. The delete trigger of 0003, which keeps the counts per status, now
--    also takes it back to the latest timestamp the dataset still holds (null when it holds none)
--    whenever the deleted rows reached it, whichever writer deletes. The latest remaining row is
--    read from the index transactions_page (organization, dataset, timestamp), one step per
--    dataset. The datasets are already locked, in id order, by dataset_tracking_apply.
CREATE OR REPLACE FUNCTION transactions_track_delete() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM dataset_tracking_apply(
    (SELECT coalesce(array_agg(DISTINCT dataset_id), '{}') FROM old_rows),
    (SELECT coalesce(jsonb_agg(jsonb_build_object('dataset_id', dataset_id, 'reconciliation_status', reconciliation_status, 'delta', -n)), '[]')
       FROM (SELECT dataset_id, reconciliation_status, count(*) AS n FROM old_rows GROUP BY dataset_id, reconciliation_status) AS grouped));
  UPDATE datasets d
     SET latest_timestamp_ms = (SELECT max(t.timestamp_ms) FROM transactions t WHERE t.organization_id = d.organization_id AND t.dataset_id = d.id)
    FROM (SELECT dataset_id, max(timestamp_ms) AS latest FROM old_rows GROUP BY dataset_id) AS removed
   WHERE d.id = removed.dataset_id AND removed.latest >= d.latest_timestamp_ms;
  RETURN NULL;
END;
$$;

-- Datasets that already lost rows to an undo get the latest timestamp of the rows they hold.
UPDATE datasets d
   SET latest_timestamp_ms = (SELECT max(t.timestamp_ms) FROM transactions t WHERE t.organization_id = d.organization_id AND t.dataset_id = d.id)
 WHERE EXISTS (SELECT 1 FROM imports i WHERE i.organization_id = d.organization_id AND i.dataset_id = d.id AND i.status = 'undone');

-- 2. An import whose job failed for good (its process stopped on every attempt, or stopped
--    while the import was answered at once) is settled by the trigger below, not by the importer.
--    It did what the importer's failure does to the import itself, but not to its dataset: the
--    failure was not counted in the dataset's `failures` nor its file recorded as `lastFile`
--    (IMPORTS.md: an interrupted import counts in `failures` too), and the stored file of an
--    asynchronous import stayed in import_file_chunks for ever. It now does all three, in the
--    same order as the importer (the import, then its dataset).
CREATE OR REPLACE FUNCTION jobs_settle_failed_work() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  -- Claims and lease renewals update jobs all the time; only a failure has anything to settle.
  IF NOT EXISTS (SELECT 1 FROM new_rows WHERE status = 'failed') THEN
    RETURN NULL;
  END IF;
  UPDATE runs r SET status = 'failed', finished_at = now(),
                    error = jsonb_build_object('message', coalesce(n.last_error, 'the run''s job failed'))
    FROM new_rows n
   WHERE r.organization_id = n.organization_id AND r.job_id = n.id AND n.status = 'failed' AND r.status IN ('queued', 'running');
  WITH failed AS (
    UPDATE imports i SET status = 'failed', completed_at = now(),
                         error = import_failure('interrupted', 'the import did not finish: the server stopped or failed while importing the file; nothing of it was stored; send the file again', NULL, NULL, NULL)
      FROM new_rows n
     WHERE i.organization_id = n.organization_id AND i.job_id = n.id AND n.status = 'failed' AND i.status = 'running'
    RETURNING i.organization_id, i.id, i.dataset_id, i.file_name, i.created_at),
  counted AS (
    UPDATE datasets d SET failures = d.failures + f.failures, last_file = coalesce(f.last_file, d.last_file)
      FROM (SELECT organization_id, dataset_id, count(*) AS failures,
                   (array_agg(file_name ORDER BY created_at DESC, id DESC) FILTER (WHERE file_name IS NOT NULL))[1] AS last_file
              FROM failed GROUP BY organization_id, dataset_id) AS f
     WHERE d.organization_id = f.organization_id AND d.id = f.dataset_id)
  -- (A data-modifying WITH runs to completion whether or not the statement reads it.)
  DELETE FROM import_file_chunks c
   USING failed f
   WHERE c.organization_id = f.organization_id AND c.import_id = f.id;
  RETURN NULL;
END;
$$;

-- Files of imports that are settled already are of no more use.
DELETE FROM import_file_chunks c
 USING imports i
 WHERE i.organization_id = c.organization_id AND i.id = c.import_id AND i.status <> 'running';
