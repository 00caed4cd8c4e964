-- What every change of a dataset's transactions must also do, done by the database itself so
-- that no writer (the API, an import, the demo seed, a bulk load in SQL) can forget it:
--
-- 1. datasets.revision grows with every statement that inserts, updates or deletes transactions
--    of the dataset. The transactions query remembers page boundaries per revision, so a missed
--    bump would let it serve a page made stale by the change.
-- 2. dataset_status_counts holds the number of transactions per dataset and reconciliation
--    status, so that GET /sources reports them without counting every row of every dataset.
--
-- The triggers are per statement and read the transition tables, so a batch of 10,000 rows costs
-- one aggregate, not 10,000 trigger calls. Locks are always taken in the same order (transaction
-- rows by the writer, then datasets ordered by id, then counts ordered by key), which keeps
-- concurrent writers from deadlocking on one another.

CREATE TABLE dataset_status_counts (
  dataset_id uuid NOT NULL REFERENCES datasets (id),
  reconciliation_status text NOT NULL,
  transaction_count bigint NOT NULL,
  PRIMARY KEY (dataset_id, reconciliation_status)
);

INSERT INTO dataset_status_counts (dataset_id, reconciliation_status, transaction_count)
SELECT dataset_id, reconciliation_status, count(*) FROM transactions GROUP BY dataset_id, reconciliation_status;

-- Applies count changes given as (dataset, status, delta) rows and bumps the revision of every
-- dataset named in `touched`.
CREATE FUNCTION dataset_tracking_apply(touched uuid[], deltas jsonb) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  PERFORM 1 FROM datasets WHERE id = ANY (touched) ORDER BY id FOR UPDATE;
  UPDATE datasets SET revision = revision + 1 WHERE id = ANY (touched);
  INSERT INTO dataset_status_counts AS c (dataset_id, reconciliation_status, transaction_count)
  SELECT d.dataset_id, d.reconciliation_status, d.delta
    FROM jsonb_to_recordset(deltas) AS d (dataset_id uuid, reconciliation_status text, delta bigint)
   WHERE d.delta <> 0
   ORDER BY d.dataset_id, d.reconciliation_status
  ON CONFLICT (dataset_id, reconciliation_status)
    DO UPDATE SET transaction_count = c.transaction_count + excluded.transaction_count;
END;
$$;

CREATE FUNCTION transactions_track_insert() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM dataset_tracking_apply(
    (SELECT coalesce(array_agg(DISTINCT dataset_id), '{}') FROM new_rows),
    (SELECT coalesce(jsonb_agg(jsonb_build_object('dataset_id', dataset_id, 'reconciliation_status', reconciliation_status, 'delta', n)), '[]')
       FROM (SELECT dataset_id, reconciliation_status, count(*) AS n FROM new_rows GROUP BY dataset_id, reconciliation_status) AS grouped));
  RETURN NULL;
END;
$$;

CREATE FUNCTION transactions_track_update() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM dataset_tracking_apply(
    (SELECT coalesce(array_agg(DISTINCT dataset_id), '{}') FROM (SELECT dataset_id FROM new_rows UNION SELECT dataset_id FROM old_rows) AS touched),
    (SELECT coalesce(jsonb_agg(jsonb_build_object('dataset_id', dataset_id, 'reconciliation_status', reconciliation_status, 'delta', n)), '[]')
       FROM (SELECT dataset_id, reconciliation_status, sum(delta) AS n
               FROM (SELECT n.dataset_id, n.reconciliation_status, 1 AS delta
                       FROM new_rows n JOIN old_rows o ON o.id = n.id
                      WHERE (n.dataset_id, n.reconciliation_status) IS DISTINCT FROM (o.dataset_id, o.reconciliation_status)
                     UNION ALL
                     SELECT o.dataset_id, o.reconciliation_status, -1 AS delta
                       FROM new_rows n JOIN old_rows o ON o.id = n.id
                      WHERE (n.dataset_id, n.reconciliation_status) IS DISTINCT FROM (o.dataset_id, o.reconciliation_status)) AS changes
              GROUP BY dataset_id, reconciliation_status) AS grouped));
  RETURN NULL;
END;
$$;

CREATE FUNCTION transactions_track_delete() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM dataset_tracking_apply(
    (SELECT coalesce(array_agg(DISTINCT dataset_id), '{}') FROM old_rows),
    (SELECT coalesce(jsonb_agg(jsonb_build_object('dataset_id', dataset_id, 'reconciliation_status', reconciliation_status, 'delta', -n)), '[]')
       FROM (SELECT dataset_id, reconciliation_status, count(*) AS n FROM old_rows GROUP BY dataset_id, reconciliation_status) AS grouped));
  RETURN NULL;
END;
$$;

CREATE TRIGGER transactions_track_insert AFTER INSERT ON transactions
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION transactions_track_insert();
CREATE TRIGGER transactions_track_update AFTER UPDATE ON transactions
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION transactions_track_update();
CREATE TRIGGER transactions_track_delete AFTER DELETE ON transactions
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION transactions_track_delete();

-- Expired idempotency keys are swept per organization, oldest first.
CREATE INDEX idempotency_keys_expiry ON idempotency_keys (organization_id, created_at);
