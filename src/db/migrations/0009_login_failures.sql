-- Failed sign-ins of people, counted per key (an account, or all accounts of one address) and
-- address in fixed windows, as token_failures counts failed token requests. Kept apart from it:
-- the two have their own windows, and the sweep of one must not cut the other's windows short.
CREATE TABLE login_failures (
  client_id text NOT NULL,
  address text NOT NULL DEFAULT '',
  window_start timestamptz NOT NULL,
  failures integer NOT NULL,
  PRIMARY KEY (client_id, address)
);
CREATE INDEX login_failures_window_start ON login_failures (window_start);
