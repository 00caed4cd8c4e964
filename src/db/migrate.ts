import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import path from 'node:path';
import type { Database } from './database.ts';

const migrationsDirectory = path.join(path.dirname(fileURLToPath(import.meta.url)), 'migrations');

/** An arbitrary constant that serializes migration runs of several processes sharing one database. */
const MIGRATION_LOCK_ID = 740_311_202;

export interface Migration {
  version: number;
  name: string;
  sql: string;
}

export function listMigrations(): Migration[] {
  return readdirSync(migrationsDirectory)
    .filter((file) => /^\d{4}_[a-z0-9_]+\.sql$/.test(file))
    .sort()
    .map((file) => ({
      version: Number(file.slice(0, 4)),
      name: file.replace(/\.sql$/, ''),
      sql: readFileSync(path.join(migrationsDirectory, file), 'utf8'),
    }));
}

/**
 * Applies the numbered migrations not yet applied, each in its own transaction, in order.
 * Migrations are forward-only: a file, once applied, is never edited; a change is a new file.
 * `through` stops after that version (a test of a migration prepares the rows it repairs).
 * Returns the names applied by this call.
 */
export async function migrate(database: Database, options: { through?: number } = {}): Promise<string[]> {
  await database.executeScript(`
    CREATE TABLE IF NOT EXISTS schema_migrations (
      version integer PRIMARY KEY,
      name text NOT NULL,
      applied_at timestamptz NOT NULL DEFAULT now()
    )`);
  const applied: string[] = [];
  for (const migration of listMigrations().filter((candidate) => candidate.version <= (options.through ?? Infinity))) {
    const done = await database.transaction(async (transaction) => {
      await transaction.query('SELECT pg_advisory_xact_lock($1)', [MIGRATION_LOCK_ID]);
      const existing = await transaction.query('SELECT 1 FROM schema_migrations WHERE version = $1', [migration.version]);
      if (existing.length > 0) return false;
      // Statements run one by one so that the same file works on both stores inside a transaction.
      for (const statement of splitStatements(migration.sql)) await transaction.query(statement);
      await transaction.query('INSERT INTO schema_migrations (version, name) VALUES ($1, $2)', [migration.version, migration.name]);
      return true;
    });
    if (done) applied.push(migration.name);
  }
  return applied;
}

/**
 * Splits a migration file on semicolons that end a line, keeping dollar-quoted function
 * bodies whole. Migration files are written to this rule: one statement ends with ";" at the
 * end of a line, and function bodies use $$ quoting.
 */
export function splitStatements(sql: string): string[] {
  const statements: string[] = [];
  let current = '';
  let insideDollarQuote = false;
  for (const line of sql.split('\n')) {
    if (/^\s*--/.test(line) && !insideDollarQuote) continue;
    current += line + '\n';
    const dollarQuotes = line.match(/\$\$/g)?.length ?? 0;
    if (dollarQuotes % 2 === 1) insideDollarQuote = !insideDollarQuote;
    if (!insideDollarQuote && /;\s*$/.test(line)) {
      statements.push(current.trim());
      current = '';
    }
  }
  if (current.trim() !== '') statements.push(current.trim());
  return statements;
}
