-- A payout nets: the bank deposit is the charges a provider settles less the refunds, fees and
-- chargebacks it took back (SPEC §16). Each provider row has its one link to the deposit, for its
-- own amount, and is fully allocated by it; a refund's or a fee's link lowers what the deposit
-- has allocated instead of adding to it.
--
-- matches.reduces: the end ('origin' or 'target') whose allocated total the link lowers by its
-- amount; NULL (every link before this migration) adds to both ends, as always. The other end
-- counts the amount as usual. A link's amount stays positive: it is the part of the netted row's
-- amount that the link allocates.
ALTER TABLE matches ADD COLUMN reduces text CHECK (reduces IN ('origin', 'target'));
