-- The exceptions queue (SPEC §14): what its notifications need to remember, and its events.

-- When the exception was last given to its assignee (the digest lists what was given since the
-- assignee's last digest), and the due date the assignee was last told was passed (an exception
-- is reported overdue once per due date, by e-mail and as an event).
ALTER TABLE exception_followups ADD COLUMN assigned_at timestamptz;
ALTER TABLE exception_followups ADD COLUMN overdue_notified_for date;

-- One digest per person per day: the row is written in the transaction that sends the mail, so a
-- second run on the same day finds it and sends nothing.
CREATE TABLE exception_digests (
  organization_id uuid NOT NULL,
  user_id uuid NOT NULL,
  digest_date date NOT NULL,
  sent_at timestamptz NOT NULL DEFAULT now(),
  items integer NOT NULL,
  PRIMARY KEY (organization_id, user_id, digest_date)
);

ALTER TABLE events DROP CONSTRAINT events_type_check;
ALTER TABLE events ADD CONSTRAINT events_type_check CHECK (type IN (
  'transaction.status_changed', 'match_group.created', 'match_group.deleted', 'suggestion.created',
  'run.completed', 'run.failed', 'run.reverted', 'import.completed', 'import.failed', 'import.undone',
  'exception.assigned', 'exception.updated', 'exception.commented', 'exception.resolved', 'exception.reopened', 'exception.overdue'));

-- A follow-up row is first written blank (nothing to report) and then changed by an update, so
-- only updates emit: one event per kind of change, in the transaction of the change.
CREATE FUNCTION events_exception_followup_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO events (organization_id, type, data)
  SELECT e.organization_id, e.type, e.data FROM (
    SELECT n.organization_id, n.transaction_id, 1 AS step, 'exception.assigned' AS type,
           jsonb_build_object('transactionId', n.transaction_id, 'datasetId', t.dataset_id,
                              'assigneeUserId', n.assignee_user_id, 'previousAssigneeUserId', o.assignee_user_id, 'dueDate', n.due_date) AS data
      FROM new_rows n JOIN old_rows o ON o.transaction_id = n.transaction_id AND o.organization_id = n.organization_id
      JOIN transactions t ON t.organization_id = n.organization_id AND t.id = n.transaction_id
     WHERE n.assignee_user_id IS DISTINCT FROM o.assignee_user_id
    UNION ALL
    SELECT n.organization_id, n.transaction_id, 2, 'exception.updated',
           jsonb_build_object('transactionId', n.transaction_id, 'datasetId', t.dataset_id,
                              'dueDate', n.due_date, 'holdReason', n.hold_reason,
                              'before', jsonb_build_object('dueDate', o.due_date, 'holdReason', o.hold_reason))
      FROM new_rows n JOIN old_rows o ON o.transaction_id = n.transaction_id AND o.organization_id = n.organization_id
      JOIN transactions t ON t.organization_id = n.organization_id AND t.id = n.transaction_id
     WHERE (n.due_date, n.hold_reason) IS DISTINCT FROM (o.due_date, o.hold_reason)
    UNION ALL
    SELECT n.organization_id, n.transaction_id, 3, CASE WHEN n.resolution IS NULL THEN 'exception.reopened' ELSE 'exception.resolved' END,
           jsonb_build_object('transactionId', n.transaction_id, 'datasetId', t.dataset_id,
                              'resolution', coalesce(n.resolution, o.resolution), 'note', n.resolution_note, 'resolvedBy', coalesce(n.resolved_by, o.resolved_by))
      FROM new_rows n JOIN old_rows o ON o.transaction_id = n.transaction_id AND o.organization_id = n.organization_id
      JOIN transactions t ON t.organization_id = n.organization_id AND t.id = n.transaction_id
     WHERE n.resolution IS DISTINCT FROM o.resolution
    UNION ALL
    SELECT n.organization_id, n.transaction_id, 4, 'exception.overdue',
           jsonb_build_object('transactionId', n.transaction_id, 'datasetId', t.dataset_id,
                              'assigneeUserId', n.assignee_user_id, 'dueDate', n.due_date)
      FROM new_rows n JOIN old_rows o ON o.transaction_id = n.transaction_id AND o.organization_id = n.organization_id
      JOIN transactions t ON t.organization_id = n.organization_id AND t.id = n.transaction_id
     WHERE n.overdue_notified_for IS NOT NULL AND n.overdue_notified_for IS DISTINCT FROM o.overdue_notified_for
  ) e
  ORDER BY e.transaction_id, e.step;
  RETURN NULL;
END;
$$;
CREATE TRIGGER events_exception_followup_changed AFTER UPDATE ON exception_followups
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION events_exception_followup_changed();

CREATE FUNCTION events_exception_commented() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO events (organization_id, type, data)
  SELECT n.organization_id, 'exception.commented',
         jsonb_build_object('transactionId', n.transaction_id, 'datasetId', t.dataset_id, 'commentId', n.id, 'author', n.author, 'body', n.body)
    FROM new_rows n JOIN transactions t ON t.organization_id = n.organization_id AND t.id = n.transaction_id
   ORDER BY n.created_at, n.id;
  RETURN NULL;
END;
$$;
CREATE TRIGGER events_exception_commented AFTER INSERT ON exception_comments
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION events_exception_commented();
