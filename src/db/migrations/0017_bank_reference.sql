-- The bank's reference of an entry (camt AcctSvcrRef, the MT940 "//" bank reference, the BAI2
-- bank reference, the OFX FITID) becomes a standard column, like `reference`: every dataset
-- has it, a transaction record gives it when asked, and searches and rules read it by name.
-- Until now imports kept it as a custom column "bankReference" added to the dataset on first
-- use; those values move into the new column and the declaration goes.
ALTER TABLE transactions ADD COLUMN bank_reference text;

UPDATE transactions t
   SET bank_reference = t.custom ->> 'bankReference',
       custom = t.custom - 'bankReference'
  FROM datasets d
 WHERE d.organization_id = t.organization_id AND d.id = t.dataset_id
   AND d.columns @> '[{"name": "bankReference", "type": "string"}]'
   AND t.custom ? 'bankReference';

UPDATE datasets
   SET columns = (SELECT coalesce(jsonb_agg(c ORDER BY position), '[]'::jsonb)
                    FROM jsonb_array_elements(columns) WITH ORDINALITY AS e (c, position)
                   WHERE c <> '{"name": "bankReference", "type": "string"}'::jsonb)
 WHERE columns @> '[{"name": "bankReference", "type": "string"}]';

-- A custom column of another type, or spelled in another case ("BankReference"), would now be
-- hidden behind the standard name (names are matched without regard to case): it is renamed
-- to "<name>_own", with its values.
UPDATE transactions t
   SET custom = (t.custom - r.name) || jsonb_build_object(r.name || '_own', t.custom -> r.name)
  FROM (SELECT d.organization_id, d.id AS dataset_id, c ->> 'name' AS name
          FROM datasets d, jsonb_array_elements(d.columns) AS c
         WHERE lower(c ->> 'name') = 'bankreference') AS r
 WHERE t.organization_id = r.organization_id AND t.dataset_id = r.dataset_id AND t.custom ? r.name;

UPDATE datasets
   SET columns = (SELECT jsonb_agg(CASE WHEN lower(c ->> 'name') = 'bankreference' THEN jsonb_set(c, '{name}', to_jsonb((c ->> 'name') || '_own')) ELSE c END ORDER BY position)
                    FROM jsonb_array_elements(columns) WITH ORDINALITY AS e (c, position))
 WHERE EXISTS (SELECT 1 FROM jsonb_array_elements(columns) AS c WHERE lower(c ->> 'name') = 'bankreference');
