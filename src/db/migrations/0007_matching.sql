-- Matching (SPEC §8): rules and their versions, runs and what they decided, suggestions, and
-- what a rule-made match group records about itself.

-- Trigram similarity for "similar" conditions; the embedded store loads the same extension.
CREATE EXTENSION IF NOT EXISTS pg_trgm;

-- A rule as it stands now. Every change of what it matches (a PATCH) makes a new version, kept
-- in rule_versions, so that a match can always show the rule as it was when it was made. A
-- deleted rule is kept (deleted_at) because matches and evidence name it.
CREATE TABLE rules (
  id uuid PRIMARY KEY,
  organization_id uuid NOT NULL REFERENCES organizations (id),
  version integer NOT NULL CHECK (version >= 1),
  name text NOT NULL CHECK (length(name) BETWEEN 1 AND 200),
  enabled boolean NOT NULL,
  priority integer NOT NULL,
  run_on_ingest boolean NOT NULL,
  -- The rule as the caller wrote it, with defaults filled in (name, priority and enabled included).
  body jsonb NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  created_by text NOT NULL,
  updated_at timestamptz NOT NULL DEFAULT now(),
  updated_by text NOT NULL,
  deleted_at timestamptz,
  UNIQUE (organization_id, id)
);
CREATE INDEX rules_by_priority ON rules (organization_id, priority, created_at, id) WHERE deleted_at IS NULL;

CREATE TABLE rule_versions (
  organization_id uuid NOT NULL,
  rule_id uuid NOT NULL,
  version integer NOT NULL,
  body jsonb NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  created_by text NOT NULL,
  PRIMARY KEY (rule_id, version),
  FOREIGN KEY (organization_id, rule_id) REFERENCES rules (organization_id, id)
);

-- A run applies rules, as a job. A dry run records what it would do in run_results; a commit
-- run does it and records the same. `rules` pins the versions the run uses.
CREATE TABLE runs (
  id uuid PRIMARY KEY,
  organization_id uuid NOT NULL REFERENCES organizations (id),
  job_id uuid REFERENCES jobs (id),
  mode text NOT NULL CHECK (mode IN ('dry-run', 'commit')),
  trigger text NOT NULL CHECK (trigger IN ('request', 'ingest')),
  status text NOT NULL CHECK (status IN ('queued', 'running', 'completed', 'failed', 'cancelled', 'reverted')),
  rules jsonb NOT NULL,
  dataset_ids uuid[],
  from_ms bigint,
  to_ms bigint,
  -- For a run started by an ingest or import: the new transactions it looks at.
  transaction_ids uuid[],
  examined bigint NOT NULL DEFAULT 0,
  total bigint NOT NULL DEFAULT 0,
  counts jsonb NOT NULL DEFAULT '[]',
  timings jsonb NOT NULL DEFAULT '{}',
  cancel_requested boolean NOT NULL DEFAULT false,
  created_at timestamptz NOT NULL DEFAULT now(),
  created_by text NOT NULL,
  request_id text,
  started_at timestamptz,
  finished_at timestamptz,
  -- A dry run whose results were committed later.
  committed_at timestamptz,
  committed_by text,
  reverted_at timestamptz,
  reverted_by text,
  revert_report jsonb,
  error jsonb,
  UNIQUE (organization_id, id)
);
CREATE INDEX runs_listing ON runs (organization_id, created_at DESC, id DESC);

-- The progress of a running run, written outside the run's own transaction so that readers see
-- it move; kept apart from runs so that these writes never conflict with the run's final update.
CREATE TABLE run_progress (
  run_id uuid PRIMARY KEY REFERENCES runs (id),
  examined bigint NOT NULL,
  total bigint NOT NULL,
  updated_at timestamptz NOT NULL DEFAULT now()
);

-- What a run decided, one row per decision, in the order the run made them (sequence).
CREATE TABLE run_results (
  sequence bigserial PRIMARY KEY,
  run_id uuid NOT NULL REFERENCES runs (id),
  organization_id uuid NOT NULL,
  kind text NOT NULL CHECK (kind IN ('match', 'suggestion', 'ambiguous', 'classified', 'bounds')),
  rule_id uuid NOT NULL,
  rule_version integer NOT NULL,
  -- Every transaction the decision involves, with its state when the run decided, so that a
  -- later commit can tell which of them changed since: [{id, status, allocated}].
  transactions jsonb NOT NULL,
  -- A match: [{originId, targetId, amount, originAdjustment, targetAdjustment}].
  links jsonb,
  adjustment jsonb,
  -- A suggestion or an ambiguity: the options, each {links, score, evidence}.
  options jsonb,
  evidence jsonb,
  score numeric,
  -- A classification: the status set.
  status text,
  message text,
  -- What committing the decision made.
  group_id uuid,
  suggestion_id uuid
);
CREATE INDEX run_results_by_kind ON run_results (run_id, kind, sequence);

CREATE TABLE suggestions (
  id uuid PRIMARY KEY,
  organization_id uuid NOT NULL REFERENCES organizations (id),
  run_id uuid,
  rule_id uuid NOT NULL,
  rule_version integer NOT NULL,
  status text NOT NULL CHECK (status IN ('pending', 'confirmed', 'rejected', 'superseded')),
  -- Why it exists: the rule's outcome is "suggest", or the evidence was ambiguous.
  reason text NOT NULL CHECK (reason IN ('suggest', 'ambiguous')),
  transaction_ids uuid[] NOT NULL,
  dataset_ids uuid[] NOT NULL,
  -- The options, best first: [{key, links, adjustment, score, evidence}].
  options jsonb NOT NULL,
  -- The options' keys, sorted and joined: one pending suggestion per set of options.
  options_key text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  decided_at timestamptz,
  decided_by text,
  decision_note text,
  group_id uuid,
  UNIQUE (organization_id, id)
);
CREATE INDEX suggestions_listing ON suggestions (organization_id, status, created_at, id);
CREATE INDEX suggestions_transactions ON suggestions USING gin (transaction_ids);
CREATE UNIQUE INDEX suggestions_pending_once ON suggestions (organization_id, options_key) WHERE status = 'pending';

-- Options a person rejected: "a rejected pair is not suggested again". The key names the
-- transactions of both sides, so the same pair is recognised whichever rule proposes it.
CREATE TABLE rejected_options (
  organization_id uuid NOT NULL REFERENCES organizations (id),
  option_key text NOT NULL,
  rejected_at timestamptz NOT NULL DEFAULT now(),
  rejected_by text NOT NULL,
  suggestion_id uuid,
  PRIMARY KEY (organization_id, option_key)
);

-- A rule-made group explains itself, and a confirmed suggestion says which it was.
ALTER TABLE match_groups
  ADD COLUMN rule_version integer,
  ADD COLUMN run_id uuid,
  ADD COLUMN suggestion_id uuid,
  ADD COLUMN evidence jsonb,
  -- {amount, reason}: the difference a tolerance closed, counted toward the allocated totals.
  ADD COLUMN adjustment jsonb;
CREATE INDEX match_groups_run ON match_groups (run_id) WHERE run_id IS NOT NULL;

-- An adjustment adds to the allocated total of one end of a link beyond the link's amount
-- (a bank fee deducted from a payment: the invoice counts as fully paid).
ALTER TABLE matches
  ADD COLUMN rule_version integer,
  ADD COLUMN run_id uuid,
  ADD COLUMN origin_adjustment numeric NOT NULL DEFAULT 0 CHECK (origin_adjustment >= 0),
  ADD COLUMN target_adjustment numeric NOT NULL DEFAULT 0 CHECK (target_adjustment >= 0);
