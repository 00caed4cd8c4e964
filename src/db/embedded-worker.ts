import { parentPort, workerData } from 'node:worker_threads';
import { mkdirSync } from 'node:fs';
import { PGlite, type Transaction } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';

/**
 * The embedded PostgreSQL (PGlite) runs here, in a worker thread, because it executes SQL on
 * the thread that calls it: on the server's own thread, one large ingest or import would stop
 * every other request for as long as its statements run. The server thread sends statements as
 * messages (embedded-database.ts) and stays free to answer requests meanwhile.
 *
 * PGlite runs one statement at a time and keeps an open transaction to itself: a statement sent
 * outside the transaction waits until it ends, exactly as a second connection would wait for
 * its locks.
 */

export type WorkerRequest =
  | { id: number; kind: 'query'; text: string; parameters: unknown[]; transactionId: number | null }
  | { id: number; kind: 'exec'; text: string }
  | { id: number; kind: 'begin'; transactionId: number }
  | { id: number; kind: 'end'; transactionId: number; commit: boolean }
  | { id: number; kind: 'dump' }
  | { id: number; kind: 'close' };

/** The answer to one request. */
export type StatementReply = { id: number; ok: true; rows?: unknown[]; image?: Uint8Array } | { id: number; ok: false; error: SerializedError };
/** What the worker says of itself: ready to take statements, or unable to open the store. */
export type ControlReply = { kind: 'ready' } | { kind: 'failed'; error: SerializedError };
export type WorkerReply = StatementReply | ControlReply;

/** An error as it crosses threads: the message and the PostgreSQL fields (code, detail, where...). */
export interface SerializedError {
  name: string;
  message: string;
  fields: Record<string, unknown>;
}

const INT8_OID = 20;

function serializeError(error: unknown): SerializedError {
  if (!(error instanceof Error)) return { name: 'Error', message: String(error), fields: {} };
  const fields: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(error)) {
    if (value === null || ['string', 'number', 'boolean'].includes(typeof value)) fields[key] = value;
  }
  return { name: error.name, message: error.message, fields };
}

/** Thrown inside a transaction's callback to make PGlite roll it back. */
class RollbackRequested extends Error {}

interface OpenTransaction {
  handle: Transaction;
  finish: (commit: boolean) => void;
  settled: Promise<void>;
}

async function main(): Promise<void> {
  const port = parentPort!;
  const { databaseDirectory, image } = workerData as { databaseDirectory: string | null; image: Uint8Array | null };
  if (databaseDirectory !== null) mkdirSync(databaseDirectory, { recursive: true });
  // int8 values in this schema are epoch milliseconds, counts and serial ids, all far below 2^53,
  // so they travel as numbers; numeric stays a string, so money never becomes a float.
  // pg_trgm gives "similar" rule conditions the same trigram similarity as on a PostgreSQL server.
  // Options go in one object: with an undefined directory as a separate first argument, PGlite
  // ignores the extensions of the second.
  const database = new PGlite({
    ...(databaseDirectory !== null ? { dataDir: databaseDirectory } : {}),
    // A store dumped earlier (tests load a migrated one instead of creating and migrating each time).
    ...(image ? { loadDataDir: new Blob([image]) } : {}),
    parsers: { [INT8_OID]: (value: string) => Number(value) },
    extensions: { pg_trgm },
  });
  try {
    await database.waitReady;
  } catch (error) {
    port.postMessage({ kind: 'failed', error: serializeError(error) } satisfies WorkerReply);
    return;
  }
  const transactions = new Map<number, OpenTransaction>();

  const reply = (message: WorkerReply) => port.postMessage(message);

  port.on('message', (request: WorkerRequest) => {
    if (request.kind === 'dump') {
      void dump().then(
        (dumped) => port.postMessage({ id: request.id, ok: true, image: dumped } satisfies WorkerReply, [dumped.buffer as ArrayBuffer]),
        (error: unknown) => reply({ id: request.id, ok: false, error: serializeError(error) }),
      );
      return;
    }
    void handle(request).then(
      (rows) => reply({ id: request.id, ok: true, ...(rows === undefined ? {} : { rows }) }),
      (error: unknown) => reply({ id: request.id, ok: false, error: serializeError(error) }),
    );
  });

  /** The whole data directory as an uncompressed tar image, for loadDataDir. */
  async function dump(): Promise<Uint8Array> {
    return new Uint8Array(await (await database.dumpDataDir('none')).arrayBuffer());
  }

  async function handle(request: Exclude<WorkerRequest, { kind: 'dump' }>): Promise<unknown[] | undefined> {
    switch (request.kind) {
      case 'query': {
        if (request.transactionId === null) return (await database.query(request.text, request.parameters)).rows;
        const open = transactions.get(request.transactionId);
        if (!open) throw new Error(`transaction ${request.transactionId} is not open`);
        return (await open.handle.query(request.text, request.parameters)).rows;
      }
      case 'exec':
        await database.exec(request.text);
        return undefined;
      case 'begin':
        return begin(request.transactionId);
      case 'end': {
        const open = transactions.get(request.transactionId);
        if (!open) throw new Error(`transaction ${request.transactionId} is not open`);
        open.finish(request.commit);
        await open.settled;
        return undefined;
      }
      case 'close':
        await database.close();
        setImmediate(() => process.exit(0));
        return undefined;
    }
  }

  /** Opens a transaction and answers once it holds the database; it ends when "end" arrives. */
  function begin(transactionId: number): Promise<undefined> {
    return new Promise((resolveBegun, rejectBegun) => {
      let finish: (commit: boolean) => void = () => {};
      const decided = new Promise<boolean>((resolve) => (finish = resolve));
      let begun = false;
      const entry: Partial<OpenTransaction> = { finish };
      entry.settled = database
        .transaction(async (handle) => {
          entry.handle = handle;
          transactions.set(transactionId, entry as OpenTransaction);
          begun = true;
          resolveBegun(undefined);
          if (!(await decided)) throw new RollbackRequested();
        })
        .then(
          () => undefined,
          (error: unknown) => {
            if (!begun) rejectBegun(error);
            else if (!(error instanceof RollbackRequested)) throw error;
          },
        )
        .finally(() => transactions.delete(transactionId));
      // A failure to begin is reported through rejectBegun; this keeps it from also surfacing
      // as an unhandled rejection before "end" awaits it.
      entry.settled.catch(() => {});
    });
  }

  reply({ kind: 'ready' });
}

void main();
