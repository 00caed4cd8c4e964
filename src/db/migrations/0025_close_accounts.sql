-- Month-end close, the ledger accounts of a reconciliation's journal entries (SPEC §14,
-- docs/CLOSE.md "Journal entries"): the bank's own account in the ledger (the cash account the
-- adjustments are posted against; the accounts per adjustment reason are in adjustment_accounts
-- since 0021), and the entries a period proposed when it was prepared, kept with its sign-off.

ALTER TABLE reconciliations ADD COLUMN cash_account text CHECK (length(cash_account) BETWEEN 1 AND 100);

-- The journal entries proposed when the period was prepared (a prepare step only): an array of
-- {journalNumber, date, debitAccount, creditAccount, amount, currency, memo, reason, bankReference,
-- matchGroupId}; null when the reconciliation did not map every account the adjustments needed.
ALTER TABLE close_signoffs ADD COLUMN journal_entries jsonb;

-- Every type so far (the close's exception types too, whichever migration adds their triggers).
ALTER TABLE events DROP CONSTRAINT events_type_check;
ALTER TABLE events ADD CONSTRAINT events_type_check CHECK (type IN (
  'transaction.status_changed', 'match_group.created', 'match_group.deleted', 'suggestion.created',
  'run.completed', 'run.failed', 'run.reverted', 'import.completed', 'import.failed', 'import.undone',
  'reconciliation.created', 'reconciliation.updated',
  'close_period.prepared', 'close_period.approved', 'close_period.reopened',
  'exception.assigned', 'exception.updated', 'exception.commented', 'exception.resolved', 'exception.reopened', 'exception.overdue',
  'journal_entry.proposed'));

-- journal_entry.proposed: one per entry a prepared period proposes, after its close_period.prepared
-- (statement triggers of one table fire in the order of their names).
CREATE FUNCTION events_journal_entries_proposed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO events (organization_id, type, data)
  SELECT s.organization_id, 'journal_entry.proposed',
         jsonb_build_object('reconciliationId', p.reconciliation_id, 'periodStart', p.period_start::text, 'periodEnd', p.period_end::text) || e.entry
    FROM new_rows s
    JOIN close_periods p ON p.organization_id = s.organization_id AND p.id = s.period_id
    CROSS JOIN LATERAL jsonb_array_elements(s.journal_entries) WITH ORDINALITY AS e (entry, place)
   WHERE s.step = 'prepare' AND jsonb_typeof(s.journal_entries) = 'array'
   ORDER BY s.sequence, e.place;
  RETURN NULL;
END;
$$;
CREATE TRIGGER events_journal_entries_proposed AFTER INSERT ON close_signoffs
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION events_journal_entries_proposed();
