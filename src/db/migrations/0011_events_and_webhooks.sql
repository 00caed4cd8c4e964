-- Events (SPEC §11): every change that matters, written by the triggers below in the same
-- database transaction as the change itself, so that a change that rolls back emits nothing and
-- one that commits is never lost, whichever code path made it (an API request, a rule run, a
-- file import, a revert). The triggers are statement-level with transition tables: a run that
-- settles a million transactions writes its events in one set-based statement, not row by row.
CREATE TABLE events (
  sequence bigserial PRIMARY KEY,
  id uuid NOT NULL DEFAULT gen_random_uuid() UNIQUE,
  organization_id uuid NOT NULL,
  type text NOT NULL CHECK (type IN (
    'transaction.status_changed', 'match_group.created', 'match_group.deleted', 'suggestion.created',
    'run.completed', 'run.failed', 'run.reverted', 'import.completed', 'import.failed')),
  data jsonb NOT NULL,
  occurred_at timestamptz NOT NULL DEFAULT now(),
  -- The place in the organization's feed, given after the event is committed (see events.ts):
  -- sequences are taken before commit, so a transaction that commits late can hold a smaller
  -- sequence than events a consumer has already read; positions are handed out in commit order,
  -- so nothing can appear behind a cursor.
  position bigint
);
CREATE SEQUENCE events_position_seq AS bigint;
CREATE UNIQUE INDEX events_feed ON events (organization_id, position);
CREATE INDEX events_feed_by_type ON events (organization_id, type, position);
CREATE INDEX events_unplaced ON events (organization_id, sequence) WHERE position IS NULL;

CREATE FUNCTION events_transaction_status_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO events (organization_id, type, data)
  SELECT n.organization_id, 'transaction.status_changed',
         jsonb_build_object(
           'transactionId', n.id, 'datasetId', n.dataset_id, 'externalId', n.external_id,
           'before', jsonb_build_object('reconciliationStatus', o.reconciliation_status, 'allocatedAmount', o.allocated_amount::text, 'matchCount', o.match_count),
           'after', jsonb_build_object('reconciliationStatus', n.reconciliation_status, 'allocatedAmount', n.allocated_amount::text, 'matchCount', n.match_count))
    FROM new_rows n JOIN old_rows o ON o.id = n.id
   WHERE (n.reconciliation_status, n.allocated_amount, n.match_count) IS DISTINCT FROM (o.reconciliation_status, o.allocated_amount, o.match_count)
   ORDER BY n.id;
  RETURN NULL;
END;
$$;
CREATE TRIGGER events_transaction_status_changed AFTER UPDATE ON transactions
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION events_transaction_status_changed();

CREATE FUNCTION events_match_group_created() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO events (organization_id, type, data)
  SELECT organization_id, 'match_group.created',
         jsonb_build_object('matchGroupId', id, 'method', method, 'ruleId', rule_id, 'ruleVersion', rule_version, 'runId', run_id,
                            'suggestionId', suggestion_id, 'createdBy', created_by)
    FROM new_rows ORDER BY id;
  RETURN NULL;
END;
$$;
CREATE TRIGGER events_match_group_created AFTER INSERT ON match_groups
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION events_match_group_created();

CREATE FUNCTION events_match_group_deleted() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO events (organization_id, type, data)
  SELECT organization_id, 'match_group.deleted',
         jsonb_build_object('matchGroupId', id, 'method', method, 'ruleId', rule_id, 'runId', run_id)
    FROM old_rows ORDER BY id;
  RETURN NULL;
END;
$$;
CREATE TRIGGER events_match_group_deleted AFTER DELETE ON match_groups
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION events_match_group_deleted();

CREATE FUNCTION events_suggestion_created() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO events (organization_id, type, data)
  SELECT organization_id, 'suggestion.created',
         jsonb_build_object('suggestionId', id, 'reason', reason, 'ruleId', rule_id, 'runId', run_id, 'transactionIds', to_jsonb(transaction_ids))
    FROM new_rows ORDER BY id;
  RETURN NULL;
END;
$$;
CREATE TRIGGER events_suggestion_created AFTER INSERT ON suggestions
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION events_suggestion_created();

CREATE FUNCTION events_run_finished() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO events (organization_id, type, data)
  SELECT n.organization_id, 'run.' || n.status,
         jsonb_build_object('runId', n.id, 'mode', n.mode, 'trigger', n.trigger, 'status', n.status, 'error', n.error)
    FROM new_rows n JOIN old_rows o ON o.id = n.id
   WHERE n.status IN ('completed', 'failed', 'reverted') AND n.status IS DISTINCT FROM o.status
   ORDER BY n.id;
  RETURN NULL;
END;
$$;
CREATE TRIGGER events_run_finished AFTER UPDATE ON runs
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION events_run_finished();

-- Imports are settled by an update; an import refused before it started is written settled.
-- Both triggers describe the import the same way.
CREATE FUNCTION events_import_data(n imports) RETURNS jsonb LANGUAGE sql STABLE AS $$
  SELECT jsonb_build_object('importId', n.id, 'datasetId', n.dataset_id, 'fileName', n.file_name, 'format', n.format, 'status', n.status,
                            'rowsRead', n.rows_read, 'inserted', n.inserted, 'duplicates', n.duplicates, 'error', n.error)
$$;
CREATE FUNCTION events_import_settled_insert() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO events (organization_id, type, data)
  SELECT n.organization_id, 'import.' || n.status, events_import_data(n)
    FROM new_rows n
   WHERE n.status IN ('completed', 'failed')
   ORDER BY n.id;
  RETURN NULL;
END;
$$;
CREATE TRIGGER events_import_settled_insert AFTER INSERT ON imports
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION events_import_settled_insert();
CREATE FUNCTION events_import_settled_update() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO events (organization_id, type, data)
  SELECT n.organization_id, 'import.' || n.status, events_import_data(n)
    FROM new_rows n JOIN old_rows o ON o.id = n.id
   WHERE n.status IN ('completed', 'failed') AND n.status IS DISTINCT FROM o.status
   ORDER BY n.id;
  RETURN NULL;
END;
$$;
CREATE TRIGGER events_import_settled_update AFTER UPDATE ON imports
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION events_import_settled_update();

-- A run or an import whose job failed for good (its process died on every attempt) is failed
-- too, so that its own status says so and its failure is an event like any other.
CREATE FUNCTION jobs_settle_failed_work() RETURNS trigger LANGUAGE plpgsql AS $$
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
                       error = jsonb_build_object('code', 'job_failed', 'message', coalesce(n.last_error, 'the import''s job failed'))
    FROM new_rows n
   WHERE i.organization_id = n.organization_id AND i.job_id = n.id AND n.status = 'failed' AND i.status = 'running';
  RETURN NULL;
END;
$$;
CREATE TRIGGER jobs_settle_failed_work AFTER UPDATE ON jobs
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION jobs_settle_failed_work();

-- Webhook endpoints (SPEC §11). The signing secret is kept as it must be used: HMAC needs it.
CREATE TABLE webhook_endpoints (
  id uuid PRIMARY KEY,
  organization_id uuid NOT NULL REFERENCES organizations (id),
  url text NOT NULL CHECK (length(url) BETWEEN 1 AND 2000),
  description text NOT NULL DEFAULT '' CHECK (length(description) <= 200),
  -- Empty: every event type.
  event_types text[] NOT NULL DEFAULT '{}',
  enabled boolean NOT NULL DEFAULT true,
  -- Why a disabled endpoint is off: 'requested' (a person) or 'failing' (deliveries failed for the give-up period).
  disabled_reason text CHECK (disabled_reason IN ('requested', 'failing')),
  disabled_at timestamptz,
  secret text NOT NULL,
  -- During a rotation the previous secret signs too, until it expires.
  previous_secret text,
  previous_secret_expires_at timestamptz,
  -- Since when every delivery attempt has failed; NULL after a success.
  failing_since timestamptz,
  created_at timestamptz NOT NULL DEFAULT now(),
  created_by text NOT NULL,
  updated_at timestamptz NOT NULL DEFAULT now(),
  UNIQUE (organization_id, id)
);
CREATE INDEX webhook_endpoints_listing ON webhook_endpoints (organization_id, created_at, id);

CREATE TABLE webhook_deliveries (
  id uuid PRIMARY KEY,
  organization_id uuid NOT NULL,
  endpoint_id uuid NOT NULL,
  -- The webhook-id of every attempt: the event's id (or a test message's), the same on retries
  -- and redeliveries, so that a receiver can drop what it has seen.
  message_id uuid NOT NULL,
  event_type text NOT NULL,
  -- The body of a test message; an event's body is built from the event when sent.
  test_payload jsonb,
  status text NOT NULL CHECK (status IN ('pending', 'succeeded', 'failed')),
  attempts integer NOT NULL DEFAULT 0,
  last_attempt_at timestamptz,
  last_response_status integer,
  last_duration_milliseconds integer,
  last_error text CHECK (length(last_error) <= 500),
  next_attempt_at timestamptz,
  -- Retries go on until this is the give-up period old; a redelivery starts it again.
  window_started_at timestamptz NOT NULL DEFAULT now(),
  created_at timestamptz NOT NULL DEFAULT now(),
  delivered_at timestamptz,
  FOREIGN KEY (organization_id, endpoint_id) REFERENCES webhook_endpoints (organization_id, id) ON DELETE CASCADE
);
CREATE INDEX webhook_deliveries_listing ON webhook_deliveries (endpoint_id, created_at DESC, id DESC);

CREATE TABLE webhook_delivery_attempts (
  sequence bigserial PRIMARY KEY,
  delivery_id uuid NOT NULL REFERENCES webhook_deliveries (id) ON DELETE CASCADE,
  organization_id uuid NOT NULL,
  attempted_at timestamptz NOT NULL DEFAULT now(),
  response_status integer,
  duration_milliseconds integer NOT NULL,
  error text CHECK (length(error) <= 500),
  -- The process that made the attempt.
  process_id text NOT NULL
);
CREATE INDEX webhook_delivery_attempts_delivery ON webhook_delivery_attempts (delivery_id, sequence);

-- Jobs that share a concurrency key (a webhook endpoint) run at most a few at a time, so that a
-- slow receiver holds only its own deliveries back.
ALTER TABLE jobs ADD COLUMN concurrency_key text;
CREATE INDEX jobs_running_by_key ON jobs (concurrency_key) WHERE status = 'running' AND concurrency_key IS NOT NULL;
-- A claim walks the due jobs of one kind in time order and stops at the first it can take
-- (jobs_ready, by time alone, made a claim for one kind walk past another kind's backlog).
CREATE INDEX jobs_due ON jobs (kind, run_after) WHERE status = 'queued';
DROP INDEX jobs_ready;

-- Each event becomes one delivery per enabled endpoint that wants its type, and each delivery a
-- job, in the transaction that wrote the event: a committed event is never without its deliveries.
CREATE FUNCTION events_fan_out() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF NOT EXISTS (SELECT 1 FROM webhook_endpoints w WHERE w.enabled AND w.organization_id IN (SELECT DISTINCT organization_id FROM new_rows)) THEN
    RETURN NULL;
  END IF;
  WITH created AS (
    INSERT INTO webhook_deliveries (id, organization_id, endpoint_id, message_id, event_type, status, next_attempt_at)
    SELECT gen_random_uuid(), e.organization_id, w.id, e.id, e.type, 'pending', now()
      FROM new_rows e
      JOIN webhook_endpoints w ON w.organization_id = e.organization_id AND w.enabled
                              AND (cardinality(w.event_types) = 0 OR e.type = ANY (w.event_types))
     ORDER BY e.sequence, w.id
    RETURNING id, organization_id, endpoint_id)
  INSERT INTO jobs (id, organization_id, kind, payload, status, max_attempts, concurrency_key)
  SELECT gen_random_uuid(), organization_id, 'webhook-delivery', jsonb_build_object('deliveryId', id), 'queued', 100, endpoint_id::text
    FROM created;
  RETURN NULL;
END;
$$;
CREATE TRIGGER events_fan_out AFTER INSERT ON events
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION events_fan_out();
