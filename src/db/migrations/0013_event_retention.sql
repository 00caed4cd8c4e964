-- Retention of events and webhook deliveries (EVENT_RETENTION_DAYS, WEBHOOK_DELIVERY_RETENTION_DAYS;
-- domain/retention.ts). The sweep removes one organization's oldest rows in bounded batches; these
-- indexes let each batch start at the oldest row instead of scanning the organization's history.
CREATE INDEX events_by_age ON events (organization_id, occurred_at);
CREATE INDEX webhook_deliveries_finished_by_age ON webhook_deliveries (organization_id, created_at) WHERE status <> 'pending';
-- An event is kept while a delivery of it is pending (its body is built from the event when
-- sent); pending deliveries are few, so this index stays small.
CREATE INDEX webhook_deliveries_pending_by_message ON webhook_deliveries (organization_id, message_id) WHERE status = 'pending';
-- A delivery's job is the queue's bookkeeping of it; finished ones go with the deliveries' retention.
CREATE INDEX jobs_finished ON jobs (kind, finished_at) WHERE status IN ('completed', 'failed', 'cancelled');

-- The highest feed place removed from each organization's feed, so that a consumer whose cursor
-- is older is told that events after it are gone, instead of silently going on without them.
CREATE TABLE event_removals (
  organization_id uuid PRIMARY KEY REFERENCES organizations (id),
  removed_through_position bigint NOT NULL
);
