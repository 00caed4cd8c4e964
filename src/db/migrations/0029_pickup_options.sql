-- Pickups (docs/CONNECTIONS.md) scheduled at times of day in a time zone ("06:00 and 14:30 in
-- Europe/Berlin") instead of every N minutes: a pickup has one schedule or the other.
ALTER TABLE pickups ALTER COLUMN interval_minutes DROP NOT NULL;
ALTER TABLE pickups ADD COLUMN times_of_day text[];
ALTER TABLE pickups ADD COLUMN time_zone text CHECK (length(time_zone) BETWEEN 1 AND 100);
ALTER TABLE pickups ADD CONSTRAINT pickups_one_schedule CHECK (
  (interval_minutes IS NULL) = (times_of_day IS NOT NULL) AND (times_of_day IS NULL) = (time_zone IS NULL)
  AND (times_of_day IS NULL OR cardinality(times_of_day) BETWEEN 1 AND 24));

-- A pickup may wait for the bank's marker of a complete file: file.xml is taken once
-- file.xml<ready_marker> (file.xml.done) is beside it; the marker itself is never imported.
ALTER TABLE pickups ADD COLUMN ready_marker text CHECK (length(ready_marker) BETWEEN 1 AND 50);

-- The host key fingerprint the last connection test saw: a fingerprint confirmed is that one, so a
-- mistyped fingerprint is never pinned. Forgotten, like the confirmed one, when the host or port changes.
ALTER TABLE connections ADD COLUMN host_key_seen text;
