-- When an API client last got a token, to the minute: the developer page shows it, so that an
-- Administrator can tell a client in use from one that can be revoked.
ALTER TABLE api_clients ADD COLUMN last_used_at timestamptz;
