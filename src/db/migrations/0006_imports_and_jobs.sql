-- Jobs: long work (asynchronous imports; later rule runs and webhook deliveries) queued in the
-- database, so that any server process can take a job and a job outlives the process that
-- queued it. A process takes a job with FOR UPDATE SKIP LOCKED and holds it by a lease that it
-- renews; a job whose lease ran out belonged to a process that died, and is taken again or
-- marked failed.
CREATE TABLE jobs (
  id uuid PRIMARY KEY,
  organization_id uuid REFERENCES organizations (id),
  kind text NOT NULL CHECK (length(kind) BETWEEN 1 AND 50),
  payload jsonb NOT NULL DEFAULT '{}',
  status text NOT NULL CHECK (status IN ('queued', 'running', 'completed', 'failed', 'cancelled')),
  attempts integer NOT NULL DEFAULT 0,
  max_attempts integer NOT NULL DEFAULT 3 CHECK (max_attempts BETWEEN 1 AND 100),
  run_after timestamptz NOT NULL DEFAULT now(),
  locked_by text,
  lease_until timestamptz,
  created_at timestamptz NOT NULL DEFAULT now(),
  started_at timestamptz,
  finished_at timestamptz,
  last_error text
);
CREATE INDEX jobs_ready ON jobs (run_after) WHERE status = 'queued';
CREATE INDEX jobs_leased ON jobs (lease_until) WHERE status = 'running';

-- One row per file sent to a dataset: its identity (name, size, sha256), how it was read, and
-- what came of it. Written before the import starts and kept after it fails, so that a failed
-- import is listed with its error.
CREATE TABLE imports (
  id uuid PRIMARY KEY,
  organization_id uuid NOT NULL,
  dataset_id uuid NOT NULL,
  job_id uuid REFERENCES jobs (id),
  format text,
  file_name text CHECK (length(file_name) <= 255),
  sha256 text,
  size_bytes bigint,
  encoding text,
  mapping jsonb,
  status text NOT NULL CHECK (status IN ('running', 'completed', 'failed')),
  created_at timestamptz NOT NULL DEFAULT now(),
  completed_at timestamptz,
  created_by text NOT NULL,
  rows_read bigint NOT NULL DEFAULT 0,
  inserted bigint NOT NULL DEFAULT 0,
  duplicates bigint NOT NULL DEFAULT 0,
  statements jsonb NOT NULL DEFAULT '[]',
  warnings jsonb NOT NULL DEFAULT '[]',
  error jsonb,
  FOREIGN KEY (organization_id, dataset_id) REFERENCES datasets (organization_id, id)
);
CREATE INDEX imports_listing ON imports (organization_id, created_at DESC, id DESC);
CREATE INDEX imports_dataset ON imports (dataset_id, created_at DESC, id DESC);

-- The file of an asynchronous import, kept until its job has run, so that whichever process
-- takes the job (or retries it after a crash) can read it.
CREATE TABLE import_file_chunks (
  import_id uuid NOT NULL REFERENCES imports (id) ON DELETE CASCADE,
  ordinal integer NOT NULL,
  data bytea NOT NULL,
  PRIMARY KEY (import_id, ordinal)
);

-- Named CSV mappings saved on a dataset (SPEC §7).
CREATE TABLE import_mappings (
  organization_id uuid NOT NULL,
  dataset_id uuid NOT NULL,
  name text NOT NULL CHECK (length(name) BETWEEN 1 AND 100),
  mapping jsonb NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  updated_by text NOT NULL,
  PRIMARY KEY (dataset_id, name),
  FOREIGN KEY (organization_id, dataset_id) REFERENCES datasets (organization_id, id)
);
