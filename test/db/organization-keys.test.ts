// The schema stays ready to be split by organization on a distributed PostgreSQL (Citus; see
// docs/SCALING.md). Citus checks uniqueness within one shard and follows a foreign key within
// one shard, so on a table distributed by organization_id it requires that column in every
// primary key and unique index, and on both sides of every foreign key between two such tables;
// a foreign key from a distributed table to a table kept on the coordinator alone is refused.
// This test reads the catalog of a freshly migrated store (embedded and PostgreSQL) and fails
// on any key that breaks those rules, and on any table not placed in src/db/placement.ts.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Database } from '../../src/db/database.ts';
import { COORDINATOR_TABLES, DISTRIBUTED_TABLES, DISTRIBUTION_COLUMN, REFERENCE_TABLES } from '../../src/db/placement.ts';
import { openTestStore, storeKinds } from '../../support/harness.ts';

interface Placement {
  distributed: readonly string[];
  reference: readonly string[];
  coordinator: readonly string[];
}

interface TableRow {
  table_name: string;
  has_column: boolean;
  column_not_null: boolean;
}
interface UniqueRow {
  table_name: string;
  index_name: string;
  columns: string[];
}
interface ForeignKeyRow {
  table_name: string;
  constraint_name: string;
  referenced_table: string;
  columns: string[];
  referenced_columns: string[];
}

/** Every broken rule of the schema `schema`, one sentence each, naming the table and the fix. */
async function findKeyProblems(database: Database, schema: string, placement: Placement): Promise<string[]> {
  const problems: string[] = [];
  const place = (table: string) =>
    placement.distributed.includes(table)
      ? 'distributed'
      : placement.reference.includes(table)
        ? 'reference'
        : placement.coordinator.includes(table)
          ? 'coordinator'
          : null;

  const tables = await database.query<TableRow>(
    `SELECT c.relname AS table_name, a.attname IS NOT NULL AS has_column, coalesce(a.attnotnull, false) AS column_not_null
       FROM pg_class c
       JOIN pg_namespace n ON n.oid = c.relnamespace
       LEFT JOIN pg_attribute a ON a.attrelid = c.oid AND a.attname = $2 AND NOT a.attisdropped
      WHERE n.nspname = $1 AND c.relkind IN ('r', 'p')
      ORDER BY c.relname`,
    [schema, DISTRIBUTION_COLUMN],
  );
  for (const table of tables) {
    const where = place(table.table_name);
    if (where === null) {
      problems.push(`table ${table.table_name} is not placed: add it to one list of src/db/placement.ts (and to docs/SCALING.md)`);
    } else if (where === 'distributed' && !(table.has_column && table.column_not_null)) {
      problems.push(`distributed table ${table.table_name} has no NOT NULL ${DISTRIBUTION_COLUMN}: add the column and fill it from the parent row`);
    }
  }
  const present = new Set(tables.map((table) => table.table_name));
  for (const table of [...placement.distributed, ...placement.reference, ...placement.coordinator]) {
    if (!present.has(table)) problems.push(`src/db/placement.ts places ${table}, which the schema does not have: remove it from the list`);
  }

  const uniques = await database.query<UniqueRow>(
    `SELECT t.relname AS table_name, i.relname AS index_name,
            array(SELECT coalesce(a.attname::text, '(expression)') FROM unnest(x.indkey) WITH ORDINALITY AS k (attnum, position)
                  LEFT JOIN pg_attribute a ON a.attrelid = t.oid AND a.attnum = k.attnum ORDER BY k.position) AS columns
       FROM pg_index x
       JOIN pg_class t ON t.oid = x.indrelid
       JOIN pg_class i ON i.oid = x.indexrelid
       JOIN pg_namespace n ON n.oid = t.relnamespace
      WHERE n.nspname = $1 AND x.indisunique
      ORDER BY t.relname, i.relname`,
    [schema],
  );
  for (const unique of uniques) {
    if (place(unique.table_name) === 'distributed' && !unique.columns.includes(DISTRIBUTION_COLUMN)) {
      problems.push(
        `unique index ${unique.index_name} on distributed table ${unique.table_name} is (${unique.columns.join(', ')}): ` +
          `add ${DISTRIBUTION_COLUMN} to it (uniqueness is checked within one shard)`,
      );
    }
  }

  const foreignKeys = await database.query<ForeignKeyRow>(
    `SELECT t.relname AS table_name, c.conname AS constraint_name, r.relname AS referenced_table,
            array(SELECT a.attname::text FROM unnest(c.conkey) WITH ORDINALITY AS k (attnum, position)
                  JOIN pg_attribute a ON a.attrelid = c.conrelid AND a.attnum = k.attnum ORDER BY k.position) AS columns,
            array(SELECT a.attname::text FROM unnest(c.confkey) WITH ORDINALITY AS k (attnum, position)
                  JOIN pg_attribute a ON a.attrelid = c.confrelid AND a.attnum = k.attnum ORDER BY k.position) AS referenced_columns
       FROM pg_constraint c
       JOIN pg_class t ON t.oid = c.conrelid
       JOIN pg_class r ON r.oid = c.confrelid
       JOIN pg_namespace n ON n.oid = t.relnamespace
      WHERE n.nspname = $1 AND c.contype = 'f'
      ORDER BY t.relname, c.conname`,
    [schema],
  );
  for (const foreignKey of foreignKeys) {
    const from = place(foreignKey.table_name);
    const to = place(foreignKey.referenced_table);
    const described = `foreign key ${foreignKey.constraint_name} from ${foreignKey.table_name} (${foreignKey.columns.join(', ')}) to ${foreignKey.referenced_table} (${foreignKey.referenced_columns.join(', ')})`;
    if (to === 'distributed' && from !== 'distributed') {
      problems.push(`${described} points from a ${from ?? 'unplaced'} table into a distributed one, which Citus refuses: drop it and keep the link in code`);
    } else if (from === 'distributed' && to === 'coordinator') {
      problems.push(`${described} points from a distributed table to one kept on the coordinator, which Citus refuses: drop it and keep the link in code`);
    } else if (from === 'distributed' && to === 'distributed') {
      const position = foreignKey.columns.indexOf(DISTRIBUTION_COLUMN);
      if (position < 0 || foreignKey.referenced_columns[position] !== DISTRIBUTION_COLUMN) {
        problems.push(
          `${described} does not carry ${DISTRIBUTION_COLUMN} on both sides: make it (${DISTRIBUTION_COLUMN}, …) REFERENCES ${foreignKey.referenced_table} (${DISTRIBUTION_COLUMN}, …)`,
        );
      }
    } else if (from === 'reference' && to !== 'reference') {
      problems.push(`${described} points from a reference table to a ${to ?? 'unplaced'} table, which Citus refuses`);
    }
  }
  return problems;
}

const PLACEMENT: Placement = { distributed: DISTRIBUTED_TABLES, reference: REFERENCE_TABLES, coordinator: COORDINATOR_TABLES };

for (const kind of storeKinds()) {
  describe(`keys are ready to split the data by organization (${kind})`, () => {
    let store: Awaited<ReturnType<typeof openTestStore>>;
    before(async () => {
      store = await openTestStore(kind);
    });
    after(async () => store.drop());

    it('has every table placed, and organization_id in every distributed key and foreign key', async () => {
      assert.deepEqual(await findKeyProblems(store.database, 'public', PLACEMENT), []);
    });

    it('reports keys that break the rules (the check can fail)', async () => {
      // A scratch schema of tables that break each rule once; dropped afterwards.
      await store.database.transaction(async (transaction) => {
        for (const statement of [
          'CREATE SCHEMA key_rules_probe',
          'CREATE TABLE key_rules_probe.tenants (id uuid PRIMARY KEY)',
          'CREATE TABLE key_rules_probe.queue (id uuid PRIMARY KEY)',
          'CREATE TABLE key_rules_probe.parents (id uuid PRIMARY KEY, organization_id uuid NOT NULL REFERENCES key_rules_probe.tenants (id), UNIQUE (organization_id, id))',
          `CREATE TABLE key_rules_probe.children (id uuid, organization_id uuid NOT NULL, parent_id uuid REFERENCES key_rules_probe.parents (id),
             queue_id uuid REFERENCES key_rules_probe.queue (id), PRIMARY KEY (id, organization_id),
             FOREIGN KEY (organization_id, parent_id) REFERENCES key_rules_probe.parents (organization_id, id))`,
          'CREATE TABLE key_rules_probe.loose (id uuid PRIMARY KEY)',
          'CREATE TABLE key_rules_probe.stray (id uuid PRIMARY KEY)',
        ]) {
          await transaction.query(statement);
        }
      });
      try {
        const problems = await findKeyProblems(store.database, 'key_rules_probe', {
          distributed: ['parents', 'children', 'loose'],
          reference: ['tenants'],
          coordinator: ['queue', 'gone'],
        });
        const expected = [
          /table stray is not placed/,
          /distributed table loose has no NOT NULL organization_id/,
          /places gone, which the schema does not have/,
          /unique index parents_pkey on distributed table parents is \(id\)/,
          /unique index loose_pkey on distributed table loose is \(id\)/,
          /foreign key children_parent_id_fkey .* does not carry organization_id on both sides/,
          /foreign key children_queue_id_fkey .* to one kept on the coordinator/,
        ];
        for (const pattern of expected)
          assert.ok(
            problems.some((problem) => pattern.test(problem)),
            `expected a problem matching ${pattern}, got:\n${problems.join('\n')}`,
          );
        assert.equal(problems.length, expected.length, problems.join('\n'));
      } finally {
        await store.database.query('DROP SCHEMA key_rules_probe CASCADE');
      }
    });
  });
}
