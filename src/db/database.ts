import pg from 'pg';
import { PGlite } from '@electric-sql/pglite';
import { invalidRequest } from '../errors.ts';
import { mkdirSync } from 'node:fs';
import path from 'node:path';

/**
 * The one doorway to SQL. Both stores (embedded PGlite and a PostgreSQL server) are reached
 * through this interface so that every repository runs the same SQL text on both.
 */
export interface Queryable {
  /** Runs one parameterized statement and returns its rows. */
  query<Row = Record<string, unknown>>(text: string, parameters?: readonly unknown[]): Promise<Row[]>;
}

export interface Database extends Queryable {
  readonly kind: 'pglite' | 'postgres';
  /** Runs `work` inside BEGIN/COMMIT; any throw rolls everything back. */
  transaction<T>(work: (transaction: Queryable) => Promise<T>): Promise<T>;
  /** Runs a script of several statements without parameters (migrations). */
  executeScript(script: string): Promise<void>;
  close(): Promise<void>;
}

const INT8_OID = 20;

/** SQLSTATEs of text the database cannot store: NUL characters and invalid encodings. */
const UNSTORABLE_TEXT_STATES = new Set(['22P05', '22021']);

/**
 * Turns the store's refusal of a value into a request error, as a backstop for the checks of the
 * domain (which name the field): a NUL character anywhere must be a 400, never a 500.
 */
function translateStoreError(error: unknown): never {
  const state = (error as { code?: unknown } | null)?.code;
  if (typeof state === 'string' && UNSTORABLE_TEXT_STATES.has(state)) {
    throw invalidRequest('a text value contains a character that cannot be stored (the NUL character \\u0000); remove it and send again');
  }
  throw error;
}

/**
 * int8 values in this schema are epoch milliseconds, counts and serial ids, all far below 2^53,
 * so they are returned as JavaScript numbers. numeric stays a string: money never becomes a
 * float.
 */
function parseInt8(value: string): number {
  return Number(value);
}

class PostgresDatabase implements Database {
  readonly kind = 'postgres' as const;
  readonly #pool: pg.Pool;

  constructor(connectionString: string, poolSize: number, statementTimeoutMilliseconds: number) {
    this.#pool = new pg.Pool({
      connectionString,
      max: poolSize,
      statement_timeout: statementTimeoutMilliseconds,
      types: {
        getTypeParser: ((oid: number, format?: 'text' | 'binary') =>
          oid === INT8_OID ? parseInt8 : pg.types.getTypeParser(oid, format as 'text')) as typeof pg.types.getTypeParser,
      },
    });
    // An idle client that loses its connection must not crash the process.
    this.#pool.on('error', () => {});
  }

  async query<Row>(text: string, parameters: readonly unknown[] = []): Promise<Row[]> {
    const result = await this.#pool.query(text, parameters as unknown[]).catch(translateStoreError);
    return result.rows as Row[];
  }

  async transaction<T>(work: (transaction: Queryable) => Promise<T>): Promise<T> {
    const client = await this.#pool.connect();
    try {
      await client.query('BEGIN');
      const transaction: Queryable = {
        query: async <Row>(text: string, parameters: readonly unknown[] = []) =>
          (await client.query(text, parameters as unknown[]).catch(translateStoreError)).rows as Row[],
      };
      const result = await work(transaction);
      await client.query('COMMIT');
      return result;
    } catch (error) {
      await client.query('ROLLBACK').catch(() => {});
      throw error;
    } finally {
      client.release();
    }
  }

  async executeScript(script: string): Promise<void> {
    await this.#pool.query(script);
  }

  async close(): Promise<void> {
    await this.#pool.end();
  }
}

class EmbeddedDatabase implements Database {
  readonly kind = 'pglite' as const;
  readonly #store: PGlite;

  constructor(dataDirectory: string | null) {
    // The database files live in a subdirectory: PostgreSQL's initdb wants a directory of its
    // own, and DATA_DIR also holds the lock file of the process that has the store open.
    const databaseDirectory = dataDirectory === null ? undefined : path.join(dataDirectory, 'pgdata');
    if (databaseDirectory !== undefined) mkdirSync(databaseDirectory, { recursive: true });
    this.#store = new PGlite(databaseDirectory, { parsers: { [INT8_OID]: parseInt8 } });
  }

  async query<Row>(text: string, parameters: readonly unknown[] = []): Promise<Row[]> {
    const result = await this.#store.query<Row>(text, parameters as unknown[]).catch(translateStoreError);
    return result.rows;
  }

  async transaction<T>(work: (transaction: Queryable) => Promise<T>): Promise<T> {
    return this.#store.transaction(async (inner) =>
      work({
        query: async <Row>(text: string, parameters: readonly unknown[] = []) =>
          (await inner.query<Row>(text, parameters as unknown[]).catch(translateStoreError)).rows,
      }),
    );
  }

  async executeScript(script: string): Promise<void> {
    await this.#store.exec(script);
  }

  async close(): Promise<void> {
    await this.#store.close();
  }
}

export interface DatabaseOptions {
  databaseUrl: string | null;
  /** Directory of the embedded store; null keeps it in memory (tests). */
  dataDirectory: string | null;
  poolSize?: number;
  statementTimeoutMilliseconds?: number;
}

export function openDatabase(options: DatabaseOptions): Database {
  if (options.databaseUrl) {
    return new PostgresDatabase(options.databaseUrl, options.poolSize ?? 10, options.statementTimeoutMilliseconds ?? 10000);
  }
  return new EmbeddedDatabase(options.dataDirectory);
}
