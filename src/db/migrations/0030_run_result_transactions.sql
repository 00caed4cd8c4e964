-- A payout's result names hundreds of transactions, each with its own link (SPEC §16): kept as
-- JSON in run_results (transactions, links), 1,000 payouts of 500 rows made some 130 MB of JSON
-- that the run built and wrote whether anybody read it or not. Such a result keeps its
-- transactions here instead, one narrow row each: the state the run saw (for the check before a
-- commit) and, for a transaction with a link of its own, that link. Its run_results row then has
-- transactions and links NULL; the JSON the API shows is built from these rows when a page of
-- results is read, in the same order and with the same values as the JSON was.
--
-- No foreign key to run_results: each would check every one of the rows a run writes (500,000 for
-- the payouts above); the rows are deleted with their results (src/db/repositories/runs.ts).
ALTER TABLE run_results ALTER COLUMN transactions DROP NOT NULL;

CREATE TABLE run_result_transactions (
  organization_id uuid NOT NULL,
  run_id uuid NOT NULL,
  -- The result (run_results.sequence) and the transaction's place in its list.
  sequence bigint NOT NULL,
  position integer NOT NULL,
  transaction_id uuid NOT NULL,
  -- What the run saw of the transaction when it decided.
  status text NOT NULL,
  allocated numeric NOT NULL,
  -- Its link, as matches has them; NULL for a transaction without a link of its own (a payout's
  -- deposit, whose links are its members'; every member of a group that could not be allocated).
  origin_id uuid,
  origin_dataset_id uuid,
  target_id uuid,
  target_dataset_id uuid,
  amount numeric,
  origin_adjustment numeric,
  target_adjustment numeric,
  reduces text CHECK (reduces IN ('origin', 'target')),
  PRIMARY KEY (organization_id, run_id, sequence, position)
);
