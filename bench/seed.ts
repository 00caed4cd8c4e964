import type { Queryable } from '../src/db/database.ts';

/**
 * Seeds the benchmark data set in a handful of set-based statements (generate_series), not row
 * by row: a bank statement of 900,000 lines and a ledger of 100,000 entries, with 250,000
 * matches between them (N:1: each ledger entry settles two or three bank lines). Allocated
 * amounts, match counts and reconciliation statuses are set exactly as the matching rules of
 * SPEC §4 derive them, so the data looks like what the write path would have produced. Runs
 * inside one transaction (the temporary table of links lives until its commit).
 */
export const BENCH_SIZES = {
  bankTransactions: 900_000,
  ledgerTransactions: 100_000,
  matches: 250_000,
} as const;

export interface SeededData {
  bankDatasetId: string;
  ledgerDatasetId: string;
}

/** 2023-11-14T22:13:20Z; one bank line a minute after it, two lines sharing each minute. */
const BASE_TIMESTAMP_MS = 1_700_000_000_000;

export async function seedBenchData(client: Queryable, organizationId: string): Promise<SeededData> {
  const bank = await client.query<{ dataset_id: string }>(
    `WITH source AS (INSERT INTO sources (id, organization_id, name) VALUES (gen_random_uuid(), $1, 'Bank') RETURNING id)
     INSERT INTO datasets (id, organization_id, source_id, name, columns)
     SELECT gen_random_uuid(), $1, source.id, 'Operating account',
            '[{"name": "counterparty", "type": "string"}, {"name": "vatRate", "type": "number"}, {"name": "valueDate", "type": "date"}]'::jsonb
       FROM source RETURNING id AS dataset_id`,
    [organizationId],
  );
  const ledger = await client.query<{ dataset_id: string }>(
    `WITH source AS (INSERT INTO sources (id, organization_id, name) VALUES (gen_random_uuid(), $1, 'ERP') RETURNING id)
     INSERT INTO datasets (id, organization_id, source_id, name)
     SELECT gen_random_uuid(), $1, source.id, 'General ledger' FROM source RETURNING id AS dataset_id`,
    [organizationId],
  );
  const bankDatasetId = bank[0]!.dataset_id;
  const ledgerDatasetId = ledger[0]!.dataset_id;

  // Bank lines: amounts from -5,000.00 to 4,999.99 (never zero), one in ten in USD, a counterparty among ten.
  await client.query(
    `INSERT INTO transactions (id, organization_id, dataset_id, external_id, timestamp_ms, description, type, reference, currency, amount, custom)
     SELECT gen_random_uuid(), $1, $2, 'B' || g, $4::bigint + (g / 2) * 60000,
            (ARRAY['Card payment', 'SEPA transfer', 'Direct debit', 'Standing order', 'Cash deposit'])[1 + g % 5] || ' ' || g,
            (ARRAY['DEBIT', 'CREDIT', 'FEE'])[1 + g % 3],
            'RF' || lpad((g % 100000)::text, 6, '0'),
            CASE WHEN g % 10 = 0 THEN 'USD' ELSE 'EUR' END,
            round(((g::bigint * 7919) % 1000000 - 500000 + CASE WHEN (g::bigint * 7919) % 1000000 = 500000 THEN 1 ELSE 0 END) / 100.0, 2),
            jsonb_build_object('counterparty', (ARRAY['Acme', 'Globex', 'Initech', 'Umbrella', 'Hooli', 'Stark', 'Wayne', 'Wonka', 'Tyrell', 'Cyberdyne'])[1 + g % 10],
                               'vatRate', (g % 4) * 5.5,
                               'valueDate', $4::bigint + (g / 2) * 60000 + 86400000)
       FROM generate_series(1::bigint, $3::bigint) AS g`,
    [organizationId, bankDatasetId, BENCH_SIZES.bankTransactions, BASE_TIMESTAMP_MS],
  );
  await client.query(
    `INSERT INTO transactions (id, organization_id, dataset_id, external_id, timestamp_ms, description, type, reference, currency)
     SELECT gen_random_uuid(), $1, $2, 'L' || g, $4::bigint + g * 60000 * 9 + 30000,
            'Ledger entry ' || g, 'JOURNAL', 'JE' || lpad(g::text, 6, '0'), 'EUR'
       FROM generate_series(1::bigint, $3::bigint) AS g`,
    [organizationId, ledgerDatasetId, BENCH_SIZES.ledgerTransactions, BASE_TIMESTAMP_MS],
  );

  // Five bank lines in every eighteen are matched (250,000 of 900,000, spread evenly over time,
  // so a page deep in the dataset looks like the first one). The k-th matched line is the origin
  // of a match whose target is ledger entry 1 + (k - 1) % 100,000; one in four is matched for
  // half its amount only (partial).
  await client.query(
    `CREATE TEMPORARY TABLE bench_links ON COMMIT DROP AS
     SELECT gen_random_uuid() AS match_id, gen_random_uuid() AS group_id,
            o.id AS origin_id, t.id AS target_id,
            CASE WHEN rank.k % 4 = 0 THEN round(abs(o.amount) / 2, 2) ELSE abs(o.amount) END AS amount
       FROM generate_series(1::bigint, $3::bigint) AS g
      CROSS JOIN LATERAL (SELECT (g / 18) * 5 + g % 18 AS k) AS rank
       JOIN transactions o ON o.dataset_id = $1 AND o.external_id = 'B' || g
       JOIN transactions t ON t.dataset_id = $2 AND t.external_id = 'L' || (1 + (rank.k - 1) % $4::bigint)
      WHERE g % 18 < 5`,
    [bankDatasetId, ledgerDatasetId, BENCH_SIZES.bankTransactions, BENCH_SIZES.ledgerTransactions],
  );
  await client.query(
    `INSERT INTO match_groups (id, organization_id, method, created_by)
     SELECT group_id, $1, 'manual', 'bench' FROM bench_links`,
    [organizationId],
  );
  await client.query(
    `INSERT INTO matches (id, organization_id, group_id, origin_id, origin_dataset_id, target_id, target_dataset_id, amount, method, created_by)
     SELECT match_id, $1, group_id, origin_id, $2, target_id, $3, amount, 'manual', 'bench' FROM bench_links`,
    [organizationId, bankDatasetId, ledgerDatasetId],
  );
  // Origins: full or partial by their allocation.
  await client.query(
    `UPDATE transactions t
        SET allocated_amount = l.amount, match_count = 1,
            reconciliation_status = CASE WHEN l.amount >= abs(t.amount) THEN 'full' ELSE 'partial' END
       FROM bench_links l WHERE t.id = l.origin_id`,
  );
  // Targets: a ledger entry's amount is minus what its bank lines allocate to it (money leaving
  // the ledger's clearing account), plus 10.00 on one entry in ten, which is then partial.
  await client.query(
    `UPDATE transactions t
        SET amount = -(s.total + CASE WHEN t.external_id::text LIKE '%0' THEN 10 ELSE 0 END),
            allocated_amount = s.total, match_count = s.links,
            reconciliation_status = CASE WHEN t.external_id::text LIKE '%0' THEN 'partial' ELSE 'full' END
       FROM (SELECT target_id, sum(amount) AS total, count(*) AS links FROM bench_links GROUP BY target_id) s
      WHERE t.id = s.target_id`,
  );
  // A few set statuses, on unmatched lines only (as SPEC §4 requires).
  await client.query(
    `UPDATE transactions SET status_override = CASE WHEN external_id::text LIKE '%7' THEN 'informative' ELSE 'out of scope' END,
            reconciliation_status = CASE WHEN external_id::text LIKE '%7' THEN 'informative' ELSE 'out of scope' END
      WHERE dataset_id = $1 AND match_count = 0 AND (external_id::text LIKE '%07' OR external_id::text LIKE '%13')`,
    [bankDatasetId],
  );
  return { bankDatasetId, ledgerDatasetId };
}
