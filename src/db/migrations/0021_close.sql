-- Month-end close (SPEC §14): reconciliations, their periods and sign-offs, and the follow-up of
-- the exceptions (open items) a finance team works through before a period can be signed.

-- A reconciliation pairs bank datasets with ledger datasets of one currency. The ledger's opening
-- balance is given by hand (ledger exports seldom carry balances); the period length is in months.
CREATE TABLE reconciliations (
  id uuid NOT NULL,
  organization_id uuid NOT NULL REFERENCES organizations (id),
  name text NOT NULL CHECK (length(name) BETWEEN 1 AND 200),
  currency text NOT NULL CHECK (currency ~ '^[A-Z]{3}$'),
  ledger_opening_balance numeric NOT NULL DEFAULT 0,
  ledger_opening_date date NOT NULL,
  period_months integer NOT NULL DEFAULT 1 CHECK (period_months BETWEEN 1 AND 12),
  -- The rules that serve it (ids of rules), for the statement page to offer a run.
  rule_ids uuid[] NOT NULL DEFAULT '{}',
  -- Ledger accounts that adjustments post to, by reason: {"fee": "6500", "fx": "7900", ...}.
  adjustment_accounts jsonb NOT NULL DEFAULT '{}',
  archived boolean NOT NULL DEFAULT false,
  created_at timestamptz NOT NULL DEFAULT now(),
  created_by text NOT NULL,
  updated_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (id, organization_id),
  UNIQUE (organization_id, name)
);

-- The datasets of a reconciliation, each on its side. A dataset serves at most one reconciliation
-- per side, so a closed period of a dataset is found by one join.
CREATE TABLE reconciliation_datasets (
  organization_id uuid NOT NULL,
  reconciliation_id uuid NOT NULL,
  dataset_id uuid NOT NULL,
  side text NOT NULL CHECK (side IN ('bank', 'ledger')),
  PRIMARY KEY (reconciliation_id, dataset_id, organization_id),
  FOREIGN KEY (organization_id, reconciliation_id) REFERENCES reconciliations (organization_id, id),
  FOREIGN KEY (organization_id, dataset_id) REFERENCES datasets (organization_id, id)
);
CREATE INDEX reconciliation_datasets_dataset ON reconciliation_datasets (organization_id, dataset_id);

-- A period of a reconciliation, by its last day, and where its sign-off stands:
-- open -> prepared -> approved (closed). A reopened period goes back to open; the statements
-- signed before stay in close_signoffs for the record.
CREATE TABLE close_periods (
  id uuid NOT NULL,
  organization_id uuid NOT NULL,
  reconciliation_id uuid NOT NULL,
  period_start date NOT NULL,
  period_end date NOT NULL CHECK (period_end >= period_start),
  state text NOT NULL DEFAULT 'open' CHECK (state IN ('open', 'prepared', 'approved')),
  updated_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (id, organization_id),
  UNIQUE (reconciliation_id, period_end, organization_id),
  FOREIGN KEY (organization_id, reconciliation_id) REFERENCES reconciliations (organization_id, id)
);
-- Closed periods are looked up on every write that touches a transaction's date.
CREATE INDEX close_periods_closed ON close_periods (organization_id, reconciliation_id, period_start, period_end) WHERE state = 'approved';

-- Every step of a sign-off, in order: prepare (with the statement as it stood, stored, never
-- recomputed), approve, reopen (with the reason). Actors are user ids; names are read at display.
CREATE TABLE close_signoffs (
  sequence bigserial NOT NULL,
  organization_id uuid NOT NULL,
  period_id uuid NOT NULL,
  step text NOT NULL CHECK (step IN ('prepare', 'approve', 'reopen')),
  actor text NOT NULL,
  note text CHECK (length(note) <= 2000),
  statement jsonb,
  created_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (sequence, organization_id),
  FOREIGN KEY (organization_id, period_id) REFERENCES close_periods (organization_id, id)
);
CREATE INDEX close_signoffs_period ON close_signoffs (organization_id, period_id, sequence);

-- The follow-up of an open item (an exception): who owns it, by when, whether it waits on
-- something, and how it was resolved. One row per transaction that has been followed up; an open
-- transaction without a row is an unassigned exception.
CREATE TABLE exception_followups (
  organization_id uuid NOT NULL,
  transaction_id uuid NOT NULL,
  -- A user of the organization (checked by the domain: users are keyed by id within it).
  assignee_user_id uuid,
  due_date date,
  hold_reason text CHECK (length(hold_reason) BETWEEN 1 AND 500),
  resolution text CHECK (resolution IN ('matched', 'adjustment', 'note')),
  resolution_note text CHECK (length(resolution_note) <= 2000),
  resolved_at timestamptz,
  resolved_by text,
  updated_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (organization_id, transaction_id),
  -- An undone import takes its transactions' follow-ups (and comments) with it.
  FOREIGN KEY (organization_id, transaction_id) REFERENCES transactions (organization_id, id) ON DELETE CASCADE
);
CREATE INDEX exception_followups_assignee ON exception_followups (organization_id, assignee_user_id);

-- The comment thread of an exception.
CREATE TABLE exception_comments (
  id uuid NOT NULL,
  organization_id uuid NOT NULL,
  transaction_id uuid NOT NULL,
  author text NOT NULL,
  body text NOT NULL CHECK (length(body) BETWEEN 1 AND 4000),
  created_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (id, organization_id),
  FOREIGN KEY (organization_id, transaction_id) REFERENCES transactions (organization_id, id) ON DELETE CASCADE
);
CREATE INDEX exception_comments_transaction ON exception_comments (organization_id, transaction_id, created_at);
