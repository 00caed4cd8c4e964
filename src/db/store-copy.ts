import type { Database, Queryable } from './database.ts';

/**
 * Copies every row of one store into another with the same schema (the embedded store into a
 * PostgreSQL server, when a demo becomes production). The copy is one transaction on the target:
 * it lands whole or not at all.
 */

/**
 * The tables copied, parents before children. A table added by a migration must be named here
 * or in NOT_COPIED (a test checks that every table of the schema is one or the other).
 */
export const COPIED_TABLES = [
  'instance_settings',
  'organizations',
  'users',
  'sessions',
  'invitations',
  'api_clients',
  'api_client_secrets',
  'signing_keys',
  'sources',
  'datasets',
  'jobs',
  'imports',
  'import_file_chunks',
  'import_mappings',
  'transactions',
  'rules',
  'rule_versions',
  'runs',
  'run_progress',
  'run_results',
  'run_result_transactions',
  'suggestions',
  'rejected_options',
  'match_groups',
  'matches',
  'audit_events',
  'idempotency_keys',
  'dataset_status_counts',
  // Month-end close: reconciliations, their periods and signed statements, the follow-up of
  // exceptions and the digests sent (so that nobody is mailed twice on the day of the copy).
  'reconciliations',
  'reconciliation_datasets',
  'close_periods',
  'close_signoffs',
  'exception_followups',
  'exception_comments',
  'exception_digests',
  // Connections with their sealed secrets (the target must have the same SECRET_ENCRYPTION_KEY),
  // pickups, their runs and the files they settled (so that nothing is imported twice after the copy).
  'connections',
  'pickups',
  'pickup_runs',
  'pickup_files',
  // Last: the triggers that write events while rows are copied then find no endpoint to
  // deliver them to (and those events are removed at the end, see copyStore).
  'webhook_endpoints',
] as const;

/** Tables left out, and why. */
export const NOT_COPIED: Record<string, string> = {
  schema_migrations: 'the target records its own migrations when it is migrated',
  token_failures: 'failed token attempts are throttling state of the moment, not data',
  login_failures: 'failed sign-ins are throttling state of the moment, not data',
  events: 'the feed of the new store starts with its first change; a consumer starts again without a cursor (the copy itself emits no events)',
  webhook_deliveries: "the delivery history of the old store; its endpoints are copied and receive the new store's events",
  webhook_delivery_attempts: 'the attempts of the deliveries left out',
  event_removals: 'how far retention removed the old feed; the new feed starts empty, with nothing removed',
  job_key_states:
    'how deliveries to each endpoint have been going lately; the deliveries are left out, and the new store judges its endpoints by their own first attempts',
};

/** Rows read and written per statement. */
const ROWS_PER_BATCH = 5000;

export interface CopyReport {
  /** Rows copied per table. */
  rows: Record<string, number>;
}

/** The tables of the schema (public), sorted. */
export async function listTables(database: Queryable): Promise<string[]> {
  const rows = await database.query<{ name: string }>(
    `SELECT table_name AS name FROM information_schema.tables WHERE table_schema = 'public' AND table_type = 'BASE TABLE' ORDER BY table_name`,
  );
  return rows.map((row) => row.name);
}

async function primaryKeyColumns(database: Queryable, table: string): Promise<string[]> {
  const rows = await database.query<{ name: string }>(
    `SELECT a.attname AS name
       FROM pg_index i
       JOIN pg_attribute a ON a.attrelid = i.indrelid AND a.attnum = ANY (i.indkey)
      WHERE i.indrelid = $1::regclass AND i.indisprimary
      ORDER BY array_position(i.indkey::int2[], a.attnum)`,
    [table],
  );
  return rows.map((row) => row.name);
}

function identifier(name: string): string {
  return `"${name.replace(/"/g, '""')}"`;
}

/** Whether the target holds no organization yet; a copy is only made into an empty store. */
export async function storeIsEmpty(database: Queryable): Promise<boolean> {
  const rows = await database.query<{ count: number }>('SELECT count(*)::int AS count FROM organizations');
  return rows[0]!.count === 0;
}

/**
 * Copies the rows of COPIED_TABLES from `source` into `target`, which must be migrated to the
 * same schema and empty. Rows are read in primary-key order, a batch at a time, as JSON, and
 * written with json_populate_recordset, so every column type travels as its text form and no
 * value is converted on the way (money stays numeric). The counters the triggers keep on the
 * target while rows arrive (dataset revisions, counts per status) are replaced by the source's
 * own at the end, and the sequences of the audit trail, of run results and of sign-offs continue after the copied rows.
 */
export async function copyStore(source: Database, target: Database, onTable: (table: string, rows: number) => void = () => {}): Promise<CopyReport> {
  const rows: Record<string, number> = {};
  await target.transaction(async (transaction) => {
    for (const table of COPIED_TABLES) {
      const keys = await primaryKeyColumns(source, table);
      const keyList = keys.map(identifier).join(', ');
      if (table === 'dataset_status_counts') await transaction.query('DELETE FROM dataset_status_counts');
      let after: unknown[] | null = null;
      let copied = 0;
      for (;;) {
        const condition = after === null ? '' : `WHERE (${keyList}) > (${keys.map((_, index) => `$${index + 2}`).join(', ')})`;
        // The rows travel as JSON text and are never parsed here: a numeric would otherwise
        // become a JavaScript number on the way. Only the last row's key (uuid, text or
        // integer columns) is read, to continue after it.
        const [batch] = await source.query<{ rows: string | null; count: number; last: string | null }>(
          `WITH batch AS (SELECT * FROM ${identifier(table)} ${condition} ORDER BY ${keyList} LIMIT $1)
           SELECT (SELECT json_agg(b ORDER BY ${keys.map((key) => `b.${identifier(key)}`).join(', ')})::text FROM batch b) AS rows,
                  (SELECT count(*)::int FROM batch) AS count,
                  (SELECT json_build_array(${keyList})::text FROM batch ORDER BY ${keys.map((key) => `${identifier(key)} DESC`).join(', ')} LIMIT 1) AS last`,
          [ROWS_PER_BATCH, ...(after ?? [])],
        );
        if (!batch || batch.count === 0 || batch.rows === null || batch.last === null) break;
        await transaction.query(`INSERT INTO ${identifier(table)} SELECT * FROM json_populate_recordset(NULL::${identifier(table)}, $1::json)`, [batch.rows]);
        copied += batch.count;
        after = JSON.parse(batch.last) as unknown[];
        if (batch.count < ROWS_PER_BATCH) break;
      }
      rows[table] = copied;
      onTable(table, copied);
    }
    // Inserting transactions moved the target's revisions on; the copy keeps the source's.
    const revisions = await source.query<{ id: string; revision: number }>('SELECT id, revision FROM datasets');
    await transaction.query(`UPDATE datasets d SET revision = r.revision FROM json_to_recordset($1::json) AS r (id uuid, revision bigint) WHERE d.id = r.id`, [
      JSON.stringify(revisions),
    ]);
    await transaction.query(`SELECT setval(pg_get_serial_sequence('audit_events', 'sequence'), greatest((SELECT max(sequence) FROM audit_events), 1))`);
    await transaction.query(`SELECT setval(pg_get_serial_sequence('run_results', 'sequence'), greatest((SELECT max(sequence) FROM run_results), 1))`);
    await transaction.query(`SELECT setval(pg_get_serial_sequence('close_signoffs', 'sequence'), greatest((SELECT max(sequence) FROM close_signoffs), 1))`);
    // Copying match groups, suggestions and settled imports set off the event triggers; those
    // events describe the copy, not a change, and the target held nothing before it.
    await transaction.query('DELETE FROM events');
  });
  return { rows };
}
