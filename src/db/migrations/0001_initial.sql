-- The initial schema. Every table that holds tenant data carries organization_id, and every
-- query of the repositories filters on it: that is what keeps one organization's data out of
-- another's answers.

CREATE TABLE instance_settings (
  name text PRIMARY KEY,
  value text NOT NULL
);

CREATE TABLE organizations (
  id uuid PRIMARY KEY,
  name text NOT NULL CHECK (length(name) BETWEEN 1 AND 200),
  created_at timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE users (
  id uuid PRIMARY KEY,
  organization_id uuid NOT NULL REFERENCES organizations (id),
  email text NOT NULL CHECK (length(email) BETWEEN 3 AND 320),
  password_hash text NOT NULL,
  role text NOT NULL CHECK (role IN ('Administrator', 'Full member', 'View-only')),
  created_at timestamptz NOT NULL DEFAULT now(),
  UNIQUE (organization_id, email)
);

-- API clients (machines). The id is the public client_id.
CREATE TABLE api_clients (
  id text PRIMARY KEY,
  organization_id uuid NOT NULL REFERENCES organizations (id),
  name text NOT NULL CHECK (length(name) BETWEEN 1 AND 200),
  role text NOT NULL CHECK (role IN ('Administrator', 'Full member', 'View-only')),
  created_at timestamptz NOT NULL DEFAULT now(),
  created_by text NOT NULL,
  revoked_at timestamptz
);
CREATE INDEX api_clients_organization ON api_clients (organization_id);

-- Secrets are stored only as a keyed hash (HMAC-SHA-256); the secret itself is shown once.
CREATE TABLE api_client_secrets (
  id uuid PRIMARY KEY,
  client_id text NOT NULL REFERENCES api_clients (id),
  secret_hash bytea NOT NULL,
  hint text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  revoked_at timestamptz
);
CREATE INDEX api_client_secrets_client ON api_client_secrets (client_id) WHERE revoked_at IS NULL;

-- Failed token requests per presented client_id and time window. Shared by every server
-- process through the database, so throttling holds however many processes run.
CREATE TABLE token_failures (
  client_id text NOT NULL,
  window_start timestamptz NOT NULL,
  failures integer NOT NULL,
  PRIMARY KEY (client_id, window_start)
);

CREATE TABLE signing_keys (
  kid text PRIMARY KEY,
  algorithm text NOT NULL CHECK (algorithm = 'RS256'),
  public_jwk jsonb NOT NULL,
  private_jwk jsonb NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  -- A key is published in the JWKS from creation and signs from activates_at on.
  activates_at timestamptz NOT NULL
);

CREATE TABLE sources (
  id uuid PRIMARY KEY,
  organization_id uuid NOT NULL REFERENCES organizations (id),
  name text NOT NULL CHECK (length(name) BETWEEN 1 AND 200),
  created_at timestamptz NOT NULL DEFAULT now(),
  UNIQUE (organization_id, id)
);

CREATE TABLE datasets (
  id uuid PRIMARY KEY,
  organization_id uuid NOT NULL,
  source_id uuid NOT NULL,
  name text NOT NULL CHECK (length(name) BETWEEN 1 AND 200),
  -- Custom columns beyond the standard ones: [{"name": "...", "type": "string|number|money|date|boolean"}].
  columns jsonb NOT NULL DEFAULT '[]',
  -- Increases with every write that changes the dataset's rows, their order or their status.
  revision bigint NOT NULL DEFAULT 0,
  status text NOT NULL DEFAULT 'active',
  created_at timestamptz NOT NULL DEFAULT now(),
  last_updated_at timestamptz NOT NULL DEFAULT now(),
  last_updated_by text,
  last_received_at timestamptz,
  latest_timestamp_ms bigint,
  failures integer NOT NULL DEFAULT 0,
  last_file text,
  UNIQUE (organization_id, id),
  FOREIGN KEY (organization_id, source_id) REFERENCES sources (organization_id, id)
);
CREATE INDEX datasets_source ON datasets (source_id);

CREATE TABLE transactions (
  id uuid PRIMARY KEY,
  organization_id uuid NOT NULL,
  dataset_id uuid NOT NULL,
  external_id text,
  timestamp_ms bigint NOT NULL,
  description text,
  type text,
  reference text,
  currency text,
  amount numeric,
  -- Values of the dataset's custom columns, keyed by column name; money values are JSON strings.
  custom jsonb NOT NULL DEFAULT '{}',
  -- Set statuses ('informative', 'out of scope'); NULL means the status is derived from matches.
  status_override text CHECK (status_override IN ('informative', 'out of scope')),
  -- Derived from matches in the same transaction that changes them (see repositories/matches.ts).
  allocated_amount numeric NOT NULL DEFAULT 0,
  match_count integer NOT NULL DEFAULT 0,
  reconciliation_status text NOT NULL DEFAULT 'none'
    CHECK (reconciliation_status IN ('none', 'partial', 'full', 'informative', 'out of scope')),
  created_at timestamptz NOT NULL DEFAULT now(),
  FOREIGN KEY (organization_id, dataset_id) REFERENCES datasets (organization_id, id)
);
-- The hot query pages through one dataset in (timestamp, id) order.
CREATE INDEX transactions_page ON transactions (dataset_id, timestamp_ms, id);
CREATE UNIQUE INDEX transactions_external_id ON transactions (dataset_id, external_id) WHERE external_id IS NOT NULL;

CREATE TABLE match_groups (
  id uuid PRIMARY KEY,
  organization_id uuid NOT NULL REFERENCES organizations (id),
  method text NOT NULL CHECK (method IN ('manual', 'rule')),
  rule_id uuid,
  forced boolean NOT NULL DEFAULT false,
  note text,
  created_at timestamptz NOT NULL DEFAULT now(),
  created_by text NOT NULL
);

CREATE TABLE matches (
  id uuid PRIMARY KEY,
  organization_id uuid NOT NULL,
  group_id uuid NOT NULL REFERENCES match_groups (id),
  origin_id uuid NOT NULL REFERENCES transactions (id),
  origin_dataset_id uuid NOT NULL,
  target_id uuid NOT NULL REFERENCES transactions (id),
  target_dataset_id uuid NOT NULL,
  -- The part of the origin's amount this link allocates; NULL when the transactions carry no amounts.
  amount numeric CHECK (amount > 0),
  method text NOT NULL CHECK (method IN ('manual', 'rule')),
  rule_id uuid,
  forced boolean NOT NULL DEFAULT false,
  created_at timestamptz NOT NULL DEFAULT now(),
  created_by text NOT NULL,
  CHECK (origin_id <> target_id)
);
CREATE INDEX matches_origin ON matches (origin_id);
CREATE INDEX matches_target ON matches (target_id);
CREATE INDEX matches_group ON matches (group_id);

-- The audit trail: appended to in the same transaction as the change it records, never edited.
CREATE TABLE audit_events (
  sequence bigserial PRIMARY KEY,
  id uuid NOT NULL UNIQUE,
  organization_id uuid NOT NULL,
  occurred_at timestamptz NOT NULL DEFAULT now(),
  actor text NOT NULL,
  action text NOT NULL,
  transaction_id uuid,
  related_transaction_id uuid,
  match_id uuid,
  group_id uuid,
  before jsonb,
  after jsonb,
  note text,
  request_id text
);
CREATE INDEX audit_events_organization ON audit_events (organization_id, sequence);
CREATE INDEX audit_events_transaction ON audit_events (transaction_id, sequence);
CREATE INDEX audit_events_related_transaction ON audit_events (related_transaction_id, sequence);

CREATE FUNCTION audit_events_are_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION 'audit_events is append-only: % is not allowed', TG_OP;
END;
$$;
CREATE TRIGGER audit_events_no_update BEFORE UPDATE OR DELETE ON audit_events
  FOR EACH ROW EXECUTE FUNCTION audit_events_are_append_only();
CREATE TRIGGER audit_events_no_truncate BEFORE TRUNCATE ON audit_events
  FOR EACH STATEMENT EXECUTE FUNCTION audit_events_are_append_only();

-- Idempotency keys of write requests: the first answer is stored in the same transaction as
-- the write, so a retry either finds the answer or finds nothing was written.
CREATE TABLE idempotency_keys (
  organization_id uuid NOT NULL,
  key text NOT NULL,
  principal text NOT NULL,
  request_hash text NOT NULL,
  response jsonb,
  created_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (organization_id, key)
);
