-- People sign in to the web app with an email and a password; their sessions and invitations
-- live here. A session is known to the browser only by a random secret in an HttpOnly cookie;
-- the store keeps its SHA-256, so a stolen copy of the database cannot sign anyone in.
ALTER TABLE users ADD COLUMN deactivated_at timestamptz;
ALTER TABLE users ADD COLUMN deactivated_by text;
ALTER TABLE users ADD COLUMN password_changed_at timestamptz;
ALTER TABLE users ADD COLUMN last_login_at timestamptz;
ALTER TABLE users ADD COLUMN invited_by text;
-- An email identifies a person at sign-in without regard to case.
CREATE UNIQUE INDEX users_email_per_organization ON users (organization_id, lower(email));
CREATE INDEX users_email ON users (lower(email));

CREATE TABLE sessions (
  id uuid PRIMARY KEY,
  organization_id uuid NOT NULL REFERENCES organizations (id),
  user_id uuid NOT NULL REFERENCES users (id),
  secret_hash bytea NOT NULL UNIQUE,
  created_at timestamptz NOT NULL DEFAULT now(),
  last_seen_at timestamptz NOT NULL DEFAULT now(),
  expires_at timestamptz NOT NULL,
  ended_at timestamptz,
  ended_reason text CHECK (ended_reason IN ('logout', 'password changed', 'deactivated', 'expired')),
  address text,
  user_agent text CHECK (length(user_agent) <= 500)
);
CREATE INDEX sessions_user ON sessions (organization_id, user_id) WHERE ended_at IS NULL;

CREATE TABLE invitations (
  id uuid PRIMARY KEY,
  organization_id uuid NOT NULL REFERENCES organizations (id),
  email text NOT NULL CHECK (length(email) BETWEEN 3 AND 320),
  role text NOT NULL CHECK (role IN ('Administrator', 'Full member', 'View-only')),
  secret_hash bytea NOT NULL UNIQUE,
  created_at timestamptz NOT NULL DEFAULT now(),
  created_by text NOT NULL,
  expires_at timestamptz NOT NULL,
  accepted_at timestamptz,
  user_id uuid REFERENCES users (id),
  revoked_at timestamptz
);
CREATE INDEX invitations_organization ON invitations (organization_id, created_at);
