import pg from 'pg';
import { from as copyFrom } from 'pg-copy-streams';
import path from 'node:path';
import { Worker } from 'node:worker_threads';
import { invalidRequest } from '../errors.ts';
import type { SerializedError, StatementReply, WorkerReply, WorkerRequest } from './embedded-worker.ts';

/**
 * The one doorway to SQL. Both stores (embedded PGlite and a PostgreSQL server) are reached
 * through this interface so that every repository runs the same SQL text on both.
 */
export interface Queryable {
  /** Runs one parameterized statement and returns its rows. */
  query<Row = Record<string, unknown>>(text: string, parameters?: readonly unknown[]): Promise<Row[]>;
  /**
   * Starts `COPY ... FROM STDIN` (text format) on this transaction's connection, for loads where
   * the statement per batch costs more than the rows. PostgreSQL only: the embedded store has
   * no such stream, and its callers take the path of batched statements there.
   */
  copyIn?(statement: string): CopyWriter;
  /**
   * Inside a transaction: calls `callback` once the transaction has committed (never if it rolls
   * back), to tell others of what it made (wake the job queue for a job it queued). Absent on the
   * database itself, whose statements commit as they run.
   */
  afterCommit?(callback: () => void): void;
}

/** Runs the callbacks of a committed transaction; one that throws does not keep the others from running. */
function runCommitted(callbacks: readonly (() => void)[]): void {
  for (const callback of callbacks) {
    try {
      callback();
    } catch {
      // A notification is a hint (the job queue polls anyway); the commit stands.
    }
  }
}

/**
 * The rows of a COPY as text, written in pieces. No other statement may run on the connection
 * until it has ended (`end`) or been abandoned (`abort`, which makes the server refuse the COPY,
 * so that the transaction can roll back).
 */
export interface CopyWriter {
  /** Resolves once the piece may be followed by another (the connection has taken what it had). */
  write(text: string): Promise<void>;
  /** Ends the COPY; resolves once the server has stored every row. */
  end(): Promise<void>;
  abort(reason: Error): Promise<void>;
}

/** A COPY FROM STDIN on a pg client, as a CopyWriter. */
function copyWriter(client: pg.PoolClient, statement: string): CopyWriter {
  const stream = client.query(copyFrom(statement));
  let failure: Error | null = null;
  const settled = new Promise<void>((resolve, reject) => {
    stream.on('finish', resolve);
    stream.on('error', (error: Error) => {
      failure = error;
      reject(error);
    });
  });
  // Observed by end() or abort(); an error before either must not go unhandled.
  settled.catch(() => {});
  return {
    async write(text) {
      if (failure) throw translateOrSelf(failure);
      if (!stream.write(text)) {
        await new Promise<void>((resolve) => {
          const done = () => {
            stream.off('drain', done);
            stream.off('error', done);
            resolve();
          };
          stream.on('drain', done);
          stream.on('error', done);
        });
      }
      if (failure) throw translateOrSelf(failure);
    },
    async end() {
      stream.end();
      await settled.catch((error: unknown) => translateStoreError(error));
    },
    async abort(reason) {
      if (stream.destroyed || stream.writableFinished) return;
      stream.destroy(reason);
      await settled.catch(() => {});
    },
  };
}

function translateOrSelf(error: Error): unknown {
  try {
    translateStoreError(error);
  } catch (translated) {
    return translated;
  }
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
    const committed: (() => void)[] = [];
    try {
      await client.query('BEGIN');
      const transaction: Queryable = {
        query: async <Row>(text: string, parameters: readonly unknown[] = []) =>
          (await client.query(text, parameters as unknown[]).catch(translateStoreError)).rows as Row[],
        copyIn: (statement: string) => copyWriter(client, statement),
        afterCommit: (callback) => void committed.push(callback),
      };
      const result = await work(transaction);
      await client.query('COMMIT');
      runCommitted(committed);
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

/**
 * The embedded store, reached through a worker thread that runs PGlite (embedded-worker.ts), so
 * that SQL never runs on the server's thread. Statements are messages; a transaction is opened
 * in the worker and its statements are sent with its id, so the interface and the semantics are
 * those of a connection to a PostgreSQL server.
 */
class EmbeddedDatabase implements Database {
  readonly kind = 'pglite' as const;
  readonly #worker: Worker;
  readonly #pending = new Map<number, { resolve: (reply: StatementReply & { ok: true }) => void; reject: (error: Error) => void }>();
  readonly #ready: Promise<void>;
  #nextId = 1;
  #failure: Error | null = null;

  constructor(dataDirectory: string | null, image: Uint8Array | null) {
    // The database files live in a subdirectory: PostgreSQL's initdb wants a directory of its
    // own, and DATA_DIR also holds the lock file of the process that has the store open.
    const databaseDirectory = dataDirectory === null ? null : path.resolve(dataDirectory, 'pgdata');
    this.#worker = new Worker(new URL('./embedded-worker.mjs', import.meta.url), { workerData: { databaseDirectory, image } });
    this.#ready = new Promise((resolve, reject) => {
      const onMessage = (message: WorkerReply) => {
        if (!('kind' in message)) return this.#settle(message);
        if (message.kind === 'ready') resolve();
        else reject(this.#fail(rebuildError(message.error)));
      };
      this.#worker.on('message', onMessage);
      this.#worker.on('error', (error) => reject(this.#fail(error)));
      this.#worker.on('exit', (code) => reject(this.#fail(new Error(`the embedded database stopped (exit code ${code})`))));
    });
    // Nothing may wait on a worker that is gone; every waiting statement fails with the cause.
    this.#ready.catch(() => {});
  }

  #fail(error: Error): Error {
    this.#failure ??= error;
    for (const waiting of this.#pending.values()) waiting.reject(this.#failure);
    this.#pending.clear();
    return this.#failure;
  }

  #settle(message: StatementReply): void {
    const waiting = this.#pending.get(message.id);
    if (!waiting) return;
    this.#pending.delete(message.id);
    if (message.ok) waiting.resolve(message);
    else waiting.reject(rebuildError(message.error));
  }

  async #send(request: DistributiveOmit<WorkerRequest, 'id'>): Promise<unknown[] | undefined> {
    return (await this.#request(request)).rows;
  }

  async #request(request: DistributiveOmit<WorkerRequest, 'id'>): Promise<StatementReply & { ok: true }> {
    await this.#ready;
    if (this.#failure) throw this.#failure;
    const id = this.#nextId++;
    return new Promise((resolve, reject) => {
      this.#pending.set(id, { resolve, reject });
      this.#worker.postMessage({ ...request, id });
    });
  }

  async query<Row>(text: string, parameters: readonly unknown[] = []): Promise<Row[]> {
    const rows = await this.#send({ kind: 'query', text, parameters: [...parameters], transactionId: null }).catch(translateStoreError);
    return rows as Row[];
  }

  async transaction<T>(work: (transaction: Queryable) => Promise<T>): Promise<T> {
    const transactionId = this.#nextId++;
    await this.#send({ kind: 'begin', transactionId });
    const committed: (() => void)[] = [];
    let result: T;
    try {
      result = await work({
        query: async <Row>(text: string, parameters: readonly unknown[] = []) =>
          (await this.#send({ kind: 'query', text, parameters: [...parameters], transactionId }).catch(translateStoreError)) as Row[],
        afterCommit: (callback) => void committed.push(callback),
      });
    } catch (error) {
      await this.#send({ kind: 'end', transactionId, commit: false }).catch(() => {});
      throw error;
    }
    await this.#send({ kind: 'end', transactionId, commit: true }).catch(translateStoreError);
    runCommitted(committed);
    return result;
  }

  async executeScript(script: string): Promise<void> {
    await this.#send({ kind: 'exec', text: script });
  }

  /** The whole store as an image that `openDatabase({ image })` loads. */
  async dumpImage(): Promise<Uint8Array> {
    const { image } = await this.#request({ kind: 'dump' });
    if (!image) throw new Error('the embedded database returned no image');
    return image;
  }

  async close(): Promise<void> {
    if (this.#failure) return;
    const exited = new Promise((resolve) => this.#worker.once('exit', resolve));
    await this.#send({ kind: 'close' }).catch(() => {});
    await exited;
  }
}

type DistributiveOmit<T, K extends PropertyKey> = T extends unknown ? Omit<T, K> : never;

/** An error of the worker as an Error of this thread, with the same PostgreSQL fields (code...). */
function rebuildError(serialized: SerializedError): Error {
  const error = new Error(serialized.message);
  error.name = serialized.name;
  return Object.assign(error, serialized.fields);
}

export interface DatabaseOptions {
  databaseUrl: string | null;
  /** Directory of the embedded store; null keeps it in memory (tests). */
  dataDirectory: string | null;
  /**
   * An image of an embedded store made by `dumpEmbeddedImage`, loaded instead of starting empty:
   * the tests open a store that is migrated already, which skips PostgreSQL's initdb and the
   * migrations (seconds per store).
   */
  image?: Uint8Array;
  poolSize?: number;
  statementTimeoutMilliseconds?: number;
}

export function openDatabase(options: DatabaseOptions): Database {
  if (options.databaseUrl) {
    return new PostgresDatabase(options.databaseUrl, options.poolSize ?? 10, options.statementTimeoutMilliseconds ?? 10000);
  }
  return new EmbeddedDatabase(options.dataDirectory, options.image ?? null);
}

/** The image of an embedded store, for `openDatabase({ image })`. */
export function dumpEmbeddedImage(database: Database): Promise<Uint8Array> {
  if (!(database instanceof EmbeddedDatabase)) throw new Error('only an embedded store has an image');
  return database.dumpImage();
}
