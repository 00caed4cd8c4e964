-- Failed token requests are counted per presented client_id AND source address, so that a
-- stranger who knows a client_id (it is in every token's sub claim) can exhaust only their own
-- allowance, not the real client's. A per-client total across all addresses is the sum of the
-- rows; it has a much higher ceiling that only a distributed attack reaches.
ALTER TABLE token_failures ADD COLUMN address text NOT NULL DEFAULT '';
ALTER TABLE token_failures DROP CONSTRAINT token_failures_pkey;
ALTER TABLE token_failures ADD PRIMARY KEY (client_id, address);
