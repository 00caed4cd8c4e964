-- A dataset holds the statements of one bank account, and any import can be taken out again.
--
-- datasets.account_id / currency: the account (an IBAN or the bank's account number) and currency
-- of the statements the dataset holds. The first statement import fills them when they are
-- empty; a later statement of another account is refused unless the import says it is meant
-- (imports.allow_other_account). Both can be edited.
ALTER TABLE datasets ADD COLUMN account_id text CHECK (length(account_id) BETWEEN 1 AND 100);
ALTER TABLE datasets ADD COLUMN currency text CHECK (currency ~ '^[A-Z]{3}$');

ALTER TABLE imports ADD COLUMN allow_other_account boolean NOT NULL DEFAULT false;

-- transactions.import_id: the import that created the row (null for rows from the JSON ingest
-- and from before this migration). An undo deletes exactly these rows. It is not a foreign key:
-- the check would cost a lookup per stored row on every import, and import rows are never
-- deleted (an undone import keeps its row, with status 'undone', for the history).
ALTER TABLE transactions ADD COLUMN import_id uuid;
CREATE INDEX transactions_import ON transactions (organization_id, import_id) WHERE import_id IS NOT NULL;

-- An undone import: its transactions were removed, its row stays for the history.
ALTER TABLE imports DROP CONSTRAINT imports_status_check;
ALTER TABLE imports ADD CONSTRAINT imports_status_check CHECK (status IN ('running', 'completed', 'failed', 'undone'));
ALTER TABLE imports ADD COLUMN undone_at timestamptz;
ALTER TABLE imports ADD COLUMN undone_by text;

ALTER TABLE events DROP CONSTRAINT events_type_check;
ALTER TABLE events ADD CONSTRAINT events_type_check CHECK (type IN (
  'transaction.status_changed', 'match_group.created', 'match_group.deleted', 'suggestion.created',
  'run.completed', 'run.failed', 'run.reverted', 'import.completed', 'import.failed', 'import.undone'));

-- The settling trigger of 0011 also reports an undo, in the same shape.
CREATE OR REPLACE FUNCTION events_import_settled_update() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO events (organization_id, type, data)
  SELECT n.organization_id, 'import.' || n.status, events_import_data(n)
    FROM new_rows n JOIN old_rows o ON o.id = n.id
   WHERE n.status IN ('completed', 'failed', 'undone') AND n.status IS DISTINCT FROM o.status
   ORDER BY n.id;
  RETURN NULL;
END;
$$;
