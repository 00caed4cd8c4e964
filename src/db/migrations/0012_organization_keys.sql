-- Keys that let the data be partitioned by organization (docs/SCALING.md).
--
-- On a distributed PostgreSQL (Citus) every table that holds one organization's data is split
-- by `organization_id`. There, a primary key or unique index must contain the distribution
-- column (uniqueness is checked within one shard), a foreign key between two distributed tables
-- must contain it on both sides (the referenced row must live on the same shard), and a foreign
-- key from a distributed table to a table kept on the coordinator alone is refused. This
-- migration makes the schema meet those rules on a single server already, so that the step to
-- several is a placement decision and not a schema change; test/db/organization-keys.test.ts
-- reads the catalog and keeps it so.
--
-- Primary keys become (id, organization_id): `id` leads, so a lookup by id alone is still one
-- index probe, and `organization_id` is there because Citus requires it. The unique
-- (organization_id, id) constraints that composite foreign keys used to point at are replaced
-- by these keys (a foreign key may name the key's columns in any order).

-- 1. The four tables that reached their organization only through a parent row get the column.
ALTER TABLE api_client_secrets ADD COLUMN organization_id uuid;
UPDATE api_client_secrets s SET organization_id = c.organization_id FROM api_clients c WHERE c.id = s.client_id;
ALTER TABLE api_client_secrets ALTER COLUMN organization_id SET NOT NULL;

ALTER TABLE dataset_status_counts ADD COLUMN organization_id uuid;
UPDATE dataset_status_counts c SET organization_id = d.organization_id FROM datasets d WHERE d.id = c.dataset_id;
ALTER TABLE dataset_status_counts ALTER COLUMN organization_id SET NOT NULL;

ALTER TABLE import_file_chunks ADD COLUMN organization_id uuid;
UPDATE import_file_chunks f SET organization_id = i.organization_id FROM imports i WHERE i.id = f.import_id;
ALTER TABLE import_file_chunks ALTER COLUMN organization_id SET NOT NULL;

ALTER TABLE run_progress ADD COLUMN organization_id uuid;
UPDATE run_progress p SET organization_id = r.organization_id FROM runs r WHERE r.id = p.run_id;
ALTER TABLE run_progress ALTER COLUMN organization_id SET NOT NULL;

-- 2. Foreign keys between organization tables are dropped here and made again in step 4, since
--    the keys they point at change in step 3. The two that point at the job queue go for good:
--    the queue is instance-wide (it stays on the coordinator), and the queue code keeps
--    imports.job_id and runs.job_id consistent instead.
ALTER TABLE api_client_secrets DROP CONSTRAINT api_client_secrets_client_id_fkey;
ALTER TABLE datasets DROP CONSTRAINT datasets_organization_id_source_id_fkey;
ALTER TABLE transactions DROP CONSTRAINT transactions_organization_id_dataset_id_fkey;
ALTER TABLE matches DROP CONSTRAINT matches_group_id_fkey;
ALTER TABLE matches DROP CONSTRAINT matches_origin_id_fkey;
ALTER TABLE matches DROP CONSTRAINT matches_target_id_fkey;
ALTER TABLE dataset_status_counts DROP CONSTRAINT dataset_status_counts_dataset_id_fkey;
ALTER TABLE imports DROP CONSTRAINT imports_job_id_fkey;
ALTER TABLE imports DROP CONSTRAINT imports_organization_id_dataset_id_fkey;
ALTER TABLE import_file_chunks DROP CONSTRAINT import_file_chunks_import_id_fkey;
ALTER TABLE import_mappings DROP CONSTRAINT import_mappings_organization_id_dataset_id_fkey;
ALTER TABLE rule_versions DROP CONSTRAINT rule_versions_organization_id_rule_id_fkey;
ALTER TABLE runs DROP CONSTRAINT runs_job_id_fkey;
ALTER TABLE run_progress DROP CONSTRAINT run_progress_run_id_fkey;
ALTER TABLE run_results DROP CONSTRAINT run_results_run_id_fkey;
ALTER TABLE sessions DROP CONSTRAINT sessions_user_id_fkey;
ALTER TABLE invitations DROP CONSTRAINT invitations_user_id_fkey;
ALTER TABLE webhook_deliveries DROP CONSTRAINT webhook_deliveries_organization_id_endpoint_id_fkey;
ALTER TABLE webhook_delivery_attempts DROP CONSTRAINT webhook_delivery_attempts_delivery_id_fkey;

-- 3. Primary keys and unique indexes that contain organization_id.
ALTER TABLE users DROP CONSTRAINT users_pkey, ADD PRIMARY KEY (id, organization_id);
ALTER TABLE api_clients DROP CONSTRAINT api_clients_pkey, ADD PRIMARY KEY (id, organization_id);
ALTER TABLE api_client_secrets DROP CONSTRAINT api_client_secrets_pkey, ADD PRIMARY KEY (id, organization_id);
ALTER TABLE sources DROP CONSTRAINT sources_pkey, DROP CONSTRAINT sources_organization_id_id_key, ADD PRIMARY KEY (id, organization_id);
ALTER TABLE datasets DROP CONSTRAINT datasets_pkey, DROP CONSTRAINT datasets_organization_id_id_key, ADD PRIMARY KEY (id, organization_id);
ALTER TABLE transactions DROP CONSTRAINT transactions_pkey, ADD PRIMARY KEY (id, organization_id);
ALTER TABLE match_groups DROP CONSTRAINT match_groups_pkey, ADD PRIMARY KEY (id, organization_id);
ALTER TABLE matches DROP CONSTRAINT matches_pkey, ADD PRIMARY KEY (id, organization_id);
ALTER TABLE audit_events DROP CONSTRAINT audit_events_pkey, DROP CONSTRAINT audit_events_id_key,
  ADD PRIMARY KEY (sequence, organization_id), ADD UNIQUE (id, organization_id);
ALTER TABLE dataset_status_counts DROP CONSTRAINT dataset_status_counts_pkey,
  ADD PRIMARY KEY (dataset_id, reconciliation_status, organization_id);
ALTER TABLE imports DROP CONSTRAINT imports_pkey, ADD PRIMARY KEY (id, organization_id);
ALTER TABLE import_file_chunks DROP CONSTRAINT import_file_chunks_pkey, ADD PRIMARY KEY (import_id, ordinal, organization_id);
ALTER TABLE import_mappings DROP CONSTRAINT import_mappings_pkey, ADD PRIMARY KEY (dataset_id, name, organization_id);
ALTER TABLE rules DROP CONSTRAINT rules_pkey, DROP CONSTRAINT rules_organization_id_id_key, ADD PRIMARY KEY (id, organization_id);
ALTER TABLE rule_versions DROP CONSTRAINT rule_versions_pkey, ADD PRIMARY KEY (rule_id, version, organization_id);
ALTER TABLE runs DROP CONSTRAINT runs_pkey, DROP CONSTRAINT runs_organization_id_id_key, ADD PRIMARY KEY (id, organization_id);
ALTER TABLE run_progress DROP CONSTRAINT run_progress_pkey, ADD PRIMARY KEY (run_id, organization_id);
ALTER TABLE run_results DROP CONSTRAINT run_results_pkey, ADD PRIMARY KEY (sequence, organization_id);
ALTER TABLE suggestions DROP CONSTRAINT suggestions_pkey, DROP CONSTRAINT suggestions_organization_id_id_key, ADD PRIMARY KEY (id, organization_id);
ALTER TABLE sessions DROP CONSTRAINT sessions_pkey, DROP CONSTRAINT sessions_secret_hash_key,
  ADD PRIMARY KEY (id, organization_id), ADD UNIQUE (secret_hash, organization_id);
ALTER TABLE invitations DROP CONSTRAINT invitations_pkey, DROP CONSTRAINT invitations_secret_hash_key,
  ADD PRIMARY KEY (id, organization_id), ADD UNIQUE (secret_hash, organization_id);
ALTER TABLE events DROP CONSTRAINT events_pkey, DROP CONSTRAINT events_id_key,
  ADD PRIMARY KEY (sequence, organization_id), ADD UNIQUE (id, organization_id);
ALTER TABLE webhook_endpoints DROP CONSTRAINT webhook_endpoints_pkey, DROP CONSTRAINT webhook_endpoints_organization_id_id_key,
  ADD PRIMARY KEY (id, organization_id);
ALTER TABLE webhook_deliveries DROP CONSTRAINT webhook_deliveries_pkey, ADD PRIMARY KEY (id, organization_id);
ALTER TABLE webhook_delivery_attempts DROP CONSTRAINT webhook_delivery_attempts_pkey, ADD PRIMARY KEY (sequence, organization_id);

DROP INDEX transactions_external_id;
CREATE UNIQUE INDEX transactions_external_id ON transactions (dataset_id, external_id, organization_id) WHERE external_id IS NOT NULL;

-- 4. Foreign keys between organization tables, each carrying organization_id on both sides.
ALTER TABLE api_client_secrets ADD FOREIGN KEY (organization_id, client_id) REFERENCES api_clients (organization_id, id);
ALTER TABLE datasets ADD FOREIGN KEY (organization_id, source_id) REFERENCES sources (organization_id, id);
ALTER TABLE transactions ADD FOREIGN KEY (organization_id, dataset_id) REFERENCES datasets (organization_id, id);
ALTER TABLE matches ADD FOREIGN KEY (organization_id, group_id) REFERENCES match_groups (organization_id, id);
ALTER TABLE matches ADD FOREIGN KEY (organization_id, origin_id) REFERENCES transactions (organization_id, id);
ALTER TABLE matches ADD FOREIGN KEY (organization_id, target_id) REFERENCES transactions (organization_id, id);
ALTER TABLE dataset_status_counts ADD FOREIGN KEY (organization_id, dataset_id) REFERENCES datasets (organization_id, id);
ALTER TABLE imports ADD FOREIGN KEY (organization_id, dataset_id) REFERENCES datasets (organization_id, id);
ALTER TABLE import_file_chunks ADD FOREIGN KEY (organization_id, import_id) REFERENCES imports (organization_id, id) ON DELETE CASCADE;
ALTER TABLE import_mappings ADD FOREIGN KEY (organization_id, dataset_id) REFERENCES datasets (organization_id, id);
ALTER TABLE rule_versions ADD FOREIGN KEY (organization_id, rule_id) REFERENCES rules (organization_id, id);
ALTER TABLE run_progress ADD FOREIGN KEY (organization_id, run_id) REFERENCES runs (organization_id, id);
ALTER TABLE run_results ADD FOREIGN KEY (organization_id, run_id) REFERENCES runs (organization_id, id);
ALTER TABLE sessions ADD FOREIGN KEY (organization_id, user_id) REFERENCES users (organization_id, id);
ALTER TABLE invitations ADD FOREIGN KEY (organization_id, user_id) REFERENCES users (organization_id, id);
ALTER TABLE webhook_deliveries ADD FOREIGN KEY (organization_id, endpoint_id) REFERENCES webhook_endpoints (organization_id, id) ON DELETE CASCADE;
ALTER TABLE webhook_delivery_attempts ADD FOREIGN KEY (organization_id, delivery_id) REFERENCES webhook_deliveries (organization_id, id) ON DELETE CASCADE;

-- 5. The status counts are kept by the database itself (0003); their rows now carry the
--    organization of their dataset.
CREATE OR REPLACE FUNCTION dataset_tracking_apply(touched uuid[], deltas jsonb) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  PERFORM 1 FROM datasets WHERE id = ANY (touched) ORDER BY id FOR UPDATE;
  UPDATE datasets SET revision = revision + 1 WHERE id = ANY (touched);
  INSERT INTO dataset_status_counts AS c (organization_id, dataset_id, reconciliation_status, transaction_count)
  SELECT s.organization_id, d.dataset_id, d.reconciliation_status, d.delta
    FROM jsonb_to_recordset(deltas) AS d (dataset_id uuid, reconciliation_status text, delta bigint)
    JOIN datasets s ON s.id = d.dataset_id
   WHERE d.delta <> 0
   ORDER BY d.dataset_id, d.reconciliation_status
  ON CONFLICT (organization_id, dataset_id, reconciliation_status)
    DO UPDATE SET transaction_count = c.transaction_count + excluded.transaction_count;
END;
$$;

-- 6. Lookup indexes that statements walk without visiting the table carry organization_id too,
--    since every statement now also filters on it: the page of the transactions query skips
--    rows of transactions_page (an offset reads only the index), and whether a transaction has
--    matches is answered from the matches indexes alone.
DROP INDEX transactions_page;
CREATE INDEX transactions_page ON transactions (organization_id, dataset_id, timestamp_ms, id);
DROP INDEX matches_origin;
CREATE INDEX matches_origin ON matches (origin_id, organization_id);
DROP INDEX matches_target;
CREATE INDEX matches_target ON matches (target_id, organization_id);
DROP INDEX matches_group;
CREATE INDEX matches_group ON matches (group_id, organization_id);
