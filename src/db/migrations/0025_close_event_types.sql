-- The events of the month-end close together: the reconciliations' and their periods' (0022) and
-- the exceptions queue's (0024), each of which wrote the list of event types without the other's.
ALTER TABLE events DROP CONSTRAINT events_type_check;
ALTER TABLE events ADD CONSTRAINT events_type_check CHECK (type IN (
  'transaction.status_changed', 'match_group.created', 'match_group.deleted', 'suggestion.created',
  'run.completed', 'run.failed', 'run.reverted', 'import.completed', 'import.failed', 'import.undone',
  'reconciliation.created', 'reconciliation.updated', 'close_period.prepared', 'close_period.approved', 'close_period.reopened',
  'exception.assigned', 'exception.updated', 'exception.commented', 'exception.resolved', 'exception.reopened', 'exception.overdue'));
