-- One failure window per presented client_id. With the window start in the primary key, two
-- processes counting the first failure of a client at the same moment could each open a window
-- of their own and undercount; keyed by client_id alone, every failure is one atomic upsert.
DELETE FROM token_failures older
  USING token_failures newer
  WHERE older.client_id = newer.client_id AND older.window_start < newer.window_start;
ALTER TABLE token_failures DROP CONSTRAINT token_failures_pkey;
ALTER TABLE token_failures ADD PRIMARY KEY (client_id);
-- The periodic sweep of expired windows scans by window start.
CREATE INDEX token_failures_window_start ON token_failures (window_start);
