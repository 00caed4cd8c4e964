-- Month-end close, the core (SPEC §14): the Reviewer role, who reads everything and approves a
-- prepared period, and the events of reconciliations and of their periods' sign-off.

ALTER TABLE users DROP CONSTRAINT users_role_check;
ALTER TABLE users ADD CONSTRAINT users_role_check CHECK (role IN ('Administrator', 'Full member', 'View-only', 'Reviewer'));
ALTER TABLE api_clients DROP CONSTRAINT api_clients_role_check;
ALTER TABLE api_clients ADD CONSTRAINT api_clients_role_check CHECK (role IN ('Administrator', 'Full member', 'View-only', 'Reviewer'));
ALTER TABLE invitations DROP CONSTRAINT invitations_role_check;
ALTER TABLE invitations ADD CONSTRAINT invitations_role_check CHECK (role IN ('Administrator', 'Full member', 'View-only', 'Reviewer'));

ALTER TABLE events DROP CONSTRAINT events_type_check;
ALTER TABLE events ADD CONSTRAINT events_type_check CHECK (type IN (
  'transaction.status_changed', 'match_group.created', 'match_group.deleted', 'suggestion.created',
  'run.completed', 'run.failed', 'run.reverted', 'import.completed', 'import.failed', 'import.undone',
  'reconciliation.created', 'reconciliation.updated',
  'close_period.prepared', 'close_period.approved', 'close_period.reopened'));

-- reconciliation.created and reconciliation.updated (an archive is an update with archived true).
CREATE FUNCTION events_reconciliation_created() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO events (organization_id, type, data)
  SELECT organization_id, 'reconciliation.created',
         jsonb_build_object('reconciliationId', id, 'name', name, 'currency', currency, 'createdBy', created_by)
    FROM new_rows ORDER BY id;
  RETURN NULL;
END;
$$;
CREATE TRIGGER events_reconciliation_created AFTER INSERT ON reconciliations
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION events_reconciliation_created();

CREATE FUNCTION events_reconciliation_updated() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO events (organization_id, type, data)
  SELECT n.organization_id, 'reconciliation.updated',
         jsonb_build_object('reconciliationId', n.id, 'name', n.name, 'currency', n.currency, 'archived', n.archived)
    FROM new_rows n ORDER BY n.id;
  RETURN NULL;
END;
$$;
CREATE TRIGGER events_reconciliation_updated AFTER UPDATE ON reconciliations
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION events_reconciliation_updated();

-- close_period.prepared / approved / reopened: one per step of a sign-off.
CREATE FUNCTION events_close_signoff() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO events (organization_id, type, data)
  SELECT s.organization_id,
         CASE s.step WHEN 'prepare' THEN 'close_period.prepared' WHEN 'approve' THEN 'close_period.approved' ELSE 'close_period.reopened' END,
         jsonb_build_object('reconciliationId', p.reconciliation_id, 'periodStart', p.period_start::text, 'periodEnd', p.period_end::text,
                            'actor', s.actor, 'note', s.note,
                            'unexplainedDifference', s.statement ->> 'unexplainedDifference')
    FROM new_rows s JOIN close_periods p ON p.organization_id = s.organization_id AND p.id = s.period_id
   ORDER BY s.sequence;
  RETURN NULL;
END;
$$;
CREATE TRIGGER events_close_signoff AFTER INSERT ON close_signoffs
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION events_close_signoff();

-- A dataset belongs to at most one reconciliation (on one side), so that the closed period of a
-- transaction's dataset is one join away.
CREATE UNIQUE INDEX reconciliation_datasets_one ON reconciliation_datasets (organization_id, dataset_id);
