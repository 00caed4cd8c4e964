-- How the jobs of a concurrency key (a webhook endpoint) have been going lately, so that a key
-- whose attempts fail or are slow takes fewer of the processes' slots (domain/jobs/job-queue.ts,
-- docs/WEBHOOKS.md "Who waits for whom"). A key without a row is healthy: its last attempt
-- succeeded quickly, or it has had none. The queue is instance-wide, and so is this table: it
-- lives beside `jobs` on the coordinator (docs/SCALING.md).
CREATE TABLE job_key_states (
  concurrency_key text PRIMARY KEY,
  -- Failed attempts since the last success.
  failures integer NOT NULL CHECK (failures >= 0),
  -- Pauses begun since the last success; while there has been one, the key runs one job at a time.
  pauses integer NOT NULL CHECK (pauses >= 0),
  -- No job of the key is taken before this.
  resume_at timestamptz,
  -- Whether the last attempt took long (a third of its timeout or more), success or not.
  slow boolean NOT NULL,
  updated_at timestamptz NOT NULL DEFAULT now()
);

-- A process takes the job of an organization it does not serve yet before the backlog of those
-- it serves (claimJobOfNewcomer): the organizations with queued jobs are listed one probe each,
-- and each one's jobs walked from its oldest, instead of walking every organization's backlog.
CREATE INDEX jobs_due_by_organization ON jobs (kind, organization_id, run_after) WHERE status = 'queued';
