-- Month-end close: a run leaves alone the open transactions dated in a closed (approved) period of
-- a reconciliation of their dataset, and counts them here (the run's totals.closedPeriodSkipped).
ALTER TABLE runs ADD COLUMN closed_period_skipped integer NOT NULL DEFAULT 0;
