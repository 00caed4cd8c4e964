-- Connections (docs/CONNECTIONS.md): bank files that arrive on their own, from an SFTP server or
-- a watched folder, picked up on a schedule and imported through the import pipeline.

-- A place files are fetched from. An SFTP connection's secret (its private key or password) is
-- sealed with AES-256-GCM under SECRET_ENCRYPTION_KEY and never leaves the service; its server's
-- host key is pinned (host_key_sha256) once a person has confirmed the fingerprint a test showed.
CREATE TABLE connections (
  organization_id uuid NOT NULL REFERENCES organizations (id),
  id uuid NOT NULL,
  name text NOT NULL CHECK (length(name) BETWEEN 1 AND 200),
  kind text NOT NULL CHECK (kind IN ('sftp', 'folder')),
  host text CHECK (length(host) BETWEEN 1 AND 255),
  port integer CHECK (port BETWEEN 1 AND 65535),
  username text CHECK (length(username) BETWEEN 1 AND 100),
  -- generated_key: made by the service (its public half is shown); uploaded_key; password.
  auth_method text CHECK (auth_method IN ('generated_key', 'uploaded_key', 'password')),
  sealed_secret text,
  public_key text,
  host_key_sha256 text,
  folder_path text CHECK (length(folder_path) BETWEEN 1 AND 1000),
  last_success_at timestamptz,
  last_error text,
  last_error_at timestamptz,
  consecutive_failures integer NOT NULL DEFAULT 0,
  failing_since timestamptz,
  created_at timestamptz NOT NULL DEFAULT now(),
  created_by text NOT NULL,
  updated_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (organization_id, id),
  CHECK ((kind = 'sftp') = (host IS NOT NULL AND port IS NOT NULL AND username IS NOT NULL AND auth_method IS NOT NULL AND sealed_secret IS NOT NULL)),
  CHECK ((kind = 'folder') = (folder_path IS NOT NULL))
);
CREATE INDEX connections_listing ON connections (organization_id, created_at, id);

-- What to fetch from a connection, how often, and where it goes: one dataset, or the dataset
-- whose account is the statement's (routing by account).
CREATE TABLE pickups (
  organization_id uuid NOT NULL,
  id uuid NOT NULL,
  connection_id uuid NOT NULL,
  path text NOT NULL CHECK (length(path) BETWEEN 1 AND 1000),
  pattern text NOT NULL CHECK (length(pattern) BETWEEN 1 AND 200),
  interval_minutes integer NOT NULL CHECK (interval_minutes BETWEEN 1 AND 10080),
  format text,
  mapping_name text,
  dataset_id uuid,
  route_by_account boolean NOT NULL DEFAULT false,
  after_import text NOT NULL CHECK (after_import IN ('leave', 'move', 'delete')),
  archive_path text CHECK (length(archive_path) BETWEEN 1 AND 1000),
  enabled boolean NOT NULL DEFAULT true,
  next_run_at timestamptz NOT NULL DEFAULT now(),
  -- The last listing's size and modification time of each file: a file is taken only once a
  -- listing finds it as the one before did (a file the bank is still writing changes between them).
  last_listing jsonb NOT NULL DEFAULT '{}',
  -- The run that holds the pickup, and which execution of it (a token of the process running it):
  -- one run of a pickup at a time, whichever process runs it, until held_until passes.
  held_by_run uuid,
  held_token uuid,
  held_until timestamptz,
  created_at timestamptz NOT NULL DEFAULT now(),
  created_by text NOT NULL,
  updated_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (organization_id, id),
  FOREIGN KEY (organization_id, connection_id) REFERENCES connections (organization_id, id) ON DELETE CASCADE,
  FOREIGN KEY (organization_id, dataset_id) REFERENCES datasets (organization_id, id),
  CHECK (route_by_account = (dataset_id IS NULL)),
  CHECK ((after_import = 'move') = (archive_path IS NOT NULL))
);
CREATE INDEX pickups_of_connection ON pickups (organization_id, connection_id, created_at, id);
CREATE INDEX pickups_due ON pickups (next_run_at) WHERE enabled;

-- One run of a pickup (a job of the queue): every file it saw, with what happened to it.
CREATE TABLE pickup_runs (
  organization_id uuid NOT NULL,
  id uuid NOT NULL,
  pickup_id uuid NOT NULL,
  connection_id uuid NOT NULL,
  trigger text NOT NULL CHECK (trigger IN ('schedule', 'manual')),
  status text NOT NULL CHECK (status IN ('queued', 'running', 'completed', 'failed', 'skipped')),
  files jsonb NOT NULL DEFAULT '[]',
  error text,
  created_at timestamptz NOT NULL DEFAULT now(),
  started_at timestamptz,
  finished_at timestamptz,
  PRIMARY KEY (organization_id, id),
  FOREIGN KEY (organization_id, pickup_id) REFERENCES pickups (organization_id, id) ON DELETE CASCADE
);
CREATE INDEX pickup_runs_listing ON pickup_runs (organization_id, pickup_id, created_at DESC, id DESC);

-- The files a pickup has settled, by content: the same bytes are imported once, under whatever name.
CREATE TABLE pickup_files (
  organization_id uuid NOT NULL,
  pickup_id uuid NOT NULL,
  sha256 text NOT NULL,
  file_name text NOT NULL,
  import_id uuid,
  outcome text NOT NULL CHECK (outcome IN ('imported', 'failed')),
  error text,
  created_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (organization_id, pickup_id, sha256),
  FOREIGN KEY (organization_id, pickup_id) REFERENCES pickups (organization_id, id) ON DELETE CASCADE
);

-- Every type so far, with the two of connections.
ALTER TABLE events DROP CONSTRAINT events_type_check;
ALTER TABLE events ADD CONSTRAINT events_type_check CHECK (type IN (
  'transaction.status_changed', 'match_group.created', 'match_group.deleted', 'suggestion.created',
  'run.completed', 'run.failed', 'run.reverted', 'import.completed', 'import.failed', 'import.undone',
  'reconciliation.created', 'reconciliation.updated',
  'close_period.prepared', 'close_period.approved', 'close_period.reopened',
  'exception.assigned', 'exception.updated', 'exception.commented', 'exception.resolved', 'exception.reopened', 'exception.overdue',
  'journal_entry.proposed',
  'connection.failed', 'pickup.completed'));

-- pickup.completed: a run of a pickup ended (completed or failed), with what it did to each file
-- counted; connection.failed: a connection failed once more (a refused login, a changed host
-- key, a server that cannot be reached). Written by triggers, as every event is.
CREATE FUNCTION events_pickup_completed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO events (organization_id, type, data)
  VALUES (NEW.organization_id, 'pickup.completed', jsonb_build_object(
    'pickupRunId', NEW.id, 'pickupId', NEW.pickup_id, 'connectionId', NEW.connection_id, 'status', NEW.status, 'error', NEW.error,
    'files', jsonb_array_length(NEW.files),
    'imported', (SELECT count(*) FROM jsonb_array_elements(NEW.files) f WHERE f ->> 'outcome' = 'imported'),
    'held', (SELECT count(*) FROM jsonb_array_elements(NEW.files) f WHERE f ->> 'outcome' = 'held'),
    'failed', (SELECT count(*) FROM jsonb_array_elements(NEW.files) f WHERE f ->> 'outcome' = 'failed')));
  RETURN NULL;
END $$;
CREATE TRIGGER events_pickup_completed AFTER UPDATE OF status ON pickup_runs
  FOR EACH ROW WHEN (OLD.status IN ('queued', 'running') AND NEW.status IN ('completed', 'failed'))
  EXECUTE FUNCTION events_pickup_completed();

CREATE FUNCTION events_connection_failed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO events (organization_id, type, data)
  VALUES (NEW.organization_id, 'connection.failed', jsonb_build_object(
    'connectionId', NEW.id, 'name', NEW.name, 'error', NEW.last_error, 'consecutiveFailures', NEW.consecutive_failures,
    'failingSince', to_char(NEW.failing_since AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')));
  RETURN NULL;
END $$;
CREATE TRIGGER events_connection_failed AFTER UPDATE OF consecutive_failures ON connections
  FOR EACH ROW WHEN (NEW.consecutive_failures > OLD.consecutive_failures)
  EXECUTE FUNCTION events_connection_failed();
