-- One shape for a failed import's error, whatever the way the import failed:
-- {reason, message, line, column, xmlPath} (src/domain/imports/import-failure.ts). The trigger
-- that settles an import whose job failed for good (0011) wrote {code, message} instead, which the
-- API's schema does not describe: every page of the import history holding such an import could
-- not be answered. The database now builds the shape with one function, used by that trigger and
-- by the repository that records the importer's failures, and a CHECK refuses any other shape.

CREATE FUNCTION import_failure(reason text, message text, line integer, "column" text, xml_path text) RETURNS jsonb LANGUAGE sql IMMUTABLE AS $$
  SELECT jsonb_build_object('reason', $1, 'message', $2, 'line', $3, 'column', $4, 'xmlPath', $5)
$$;

-- Whether a value has that shape: exactly these five members, of these types, and a reason of the
-- list in import-failure.ts.
CREATE FUNCTION is_import_failure(error jsonb) RETURNS boolean LANGUAGE sql IMMUTABLE AS $$
  SELECT jsonb_typeof($1) = 'object'
     AND $1 - ARRAY['reason', 'message', 'line', 'column', 'xmlPath'] = '{}'::jsonb
     AND $1 ?& ARRAY['reason', 'message', 'line', 'column', 'xmlPath']
     AND $1 ->> 'reason' IN ('file', 'mapping', 'refused', 'interrupted', 'upload', 'internal')
     AND jsonb_typeof($1 -> 'message') = 'string'
     AND jsonb_typeof($1 -> 'line') IN ('number', 'null')
     AND jsonb_typeof($1 -> 'column') IN ('string', 'null')
     AND jsonb_typeof($1 -> 'xmlPath') IN ('string', 'null')
$$;

-- A job that failed for good leaves its import failed, in the shape above. The job's own error
-- (last_error) is not shown: it is written for the log, and people read the import's message.
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
  UPDATE imports i SET status = 'failed', completed_at = now(),
                       error = import_failure('interrupted', 'the import did not finish: the server stopped or failed while importing the file; nothing of it was stored; send the file again', NULL, NULL, NULL)
    FROM new_rows n
   WHERE i.organization_id = n.organization_id AND i.job_id = n.id AND n.status = 'failed' AND i.status = 'running';
  RETURN NULL;
END;
$$;

-- Imports already stored in the old shapes get the new one. Their reason is read from what they
-- hold: the trigger's {code, message}; the importer's messages, which say what failed (a file's
-- error names what was found and expected); a mapping's error starts with its JSON pointer.
UPDATE imports SET error = NULL WHERE status <> 'failed' AND error IS NOT NULL;
UPDATE imports
   SET error = CASE
     WHEN error IS NULL OR jsonb_typeof(error) <> 'object' OR jsonb_typeof(error -> 'message') IS DISTINCT FROM 'string' OR error ? 'code'
       THEN import_failure('interrupted', 'the import did not finish: the server stopped or failed while importing the file; nothing of it was stored; send the file again', NULL, NULL, NULL)
     WHEN error ->> 'message' = 'internal error while importing'
       THEN import_failure('internal', 'the server failed while importing this file; nothing of it was stored; send the file again', NULL, NULL, NULL)
     WHEN error ->> 'message' LIKE 'the server stopped while importing%'
       THEN import_failure('interrupted', error ->> 'message', NULL, NULL, NULL)
     WHEN error ->> 'message' LIKE 'the file did not arrive whole%'
       THEN import_failure('upload', error ->> 'message', NULL, NULL, NULL)
     WHEN jsonb_typeof(error -> 'line') = 'number' OR jsonb_typeof(error -> 'column') = 'string' OR jsonb_typeof(error -> 'xmlPath') = 'string'
          OR error ->> 'message' ~ '(^|: )found .*; expected '
       THEN import_failure('file', error ->> 'message',
                           CASE WHEN jsonb_typeof(error -> 'line') = 'number' THEN (error ->> 'line')::numeric::integer END,
                           CASE WHEN jsonb_typeof(error -> 'column') = 'string' THEN error ->> 'column' END,
                           CASE WHEN jsonb_typeof(error -> 'xmlPath') = 'string' THEN error ->> 'xmlPath' END)
     WHEN error ->> 'message' ~ '^(/|the mapping: )'
       THEN import_failure('mapping', error ->> 'message', NULL, NULL, NULL)
     ELSE import_failure('refused', error ->> 'message', NULL, NULL, NULL)
   END
 WHERE status = 'failed' AND (error IS NULL OR NOT is_import_failure(error));

ALTER TABLE imports ADD CONSTRAINT imports_error_shape CHECK (error IS NULL OR is_import_failure(error));
-- A failed import says why; no other import carries an error.
ALTER TABLE imports ADD CONSTRAINT imports_failed_with_error CHECK ((status = 'failed') = (error IS NOT NULL));
