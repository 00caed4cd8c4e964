import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { FastifyInstance } from 'fastify';
import { requestErrors } from '../errors.ts';

/** How long the listener keeps accepting after the signal, so connections already queued by the kernel are taken and answered. */
const ACCEPT_GRACE_MILLISECONDS = 50;
/** How long the server must be idle (nothing in flight, nothing new arriving) before remaining connections are closed. */
const QUIET_MILLISECONDS = 200;
/** What a request refused while stopping tells the client: try again (elsewhere) soon. */
export const RETRY_AFTER_SHUTDOWN_SECONDS = 2;

export const shuttingDown = () => requestErrors.shuttingDown(RETRY_AFTER_SHUTDOWN_SECONDS);

/**
 * Stopping without leaving a client guessing. On SIGTERM every request that reached the server
 * gets an answer: one already running finishes normally, and one read after the signal (its
 * bytes may have arrived just before it) is answered 503 with Retry-After and
 * `Connection: close`, so the client knows it was not carried out. Only then are the remaining
 * idle connections closed. Node's own close() would instead drop every connection that has not
 * started a request yet, including those whose request is already in the socket's buffer.
 */
export class GracefulShutdown {
  #draining = false;
  #inFlight = 0;
  #lastActivityMilliseconds = Date.now();
  #idle: (() => void) | null = null;

  get draining(): boolean {
    return this.#draining;
  }

  /** Counts requests and refuses new ones once draining; call before the app listens. */
  attach(app: FastifyInstance): void {
    app.addHook('onRequest', async () => {
      if (this.#draining) throw shuttingDown();
    });
    app.addHook('onSend', async (_request, reply, payload) => {
      if (this.#draining) reply.header('connection', 'close');
      return payload;
    });
    app.server.on('request', (_request: IncomingMessage, response: ServerResponse) => {
      this.#inFlight += 1;
      this.#lastActivityMilliseconds = Date.now();
      response.once('close', () => {
        this.#inFlight -= 1;
        this.#lastActivityMilliseconds = Date.now();
        this.#idle?.();
      });
    });
  }

  /**
   * Drains and stops the app: refuse new requests, stop accepting connections, let running
   * requests finish and pending ones be answered, then close what is left.
   */
  async drain(app: FastifyInstance): Promise<void> {
    this.#draining = true;
    const server = app.server as Server;
    const closeIdleConnections = server.closeIdleConnections.bind(server);
    // Node's close() closes idle connections at once; while draining, a connection counted as
    // idle may hold a request not parsed yet, so they are closed here, later, on purpose.
    server.closeIdleConnections = () => {};
    await new Promise((resolve) => setTimeout(resolve, ACCEPT_GRACE_MILLISECONDS));
    const closed = app.close();
    await this.#quiet();
    closeIdleConnections();
    server.closeAllConnections();
    await closed;
  }

  /** Resolves once nothing is in flight and nothing new has arrived for QUIET_MILLISECONDS. */
  #quiet(): Promise<void> {
    return new Promise((resolve) => {
      const check = () => {
        const quietForMilliseconds = Date.now() - this.#lastActivityMilliseconds;
        if (this.#inFlight === 0 && quietForMilliseconds >= QUIET_MILLISECONDS) {
          this.#idle = null;
          resolve();
          return;
        }
        timer = setTimeout(check, this.#inFlight === 0 ? QUIET_MILLISECONDS - quietForMilliseconds : QUIET_MILLISECONDS);
      };
      let timer = setTimeout(check, 0);
      this.#idle = () => {
        clearTimeout(timer);
        timer = setTimeout(check, QUIET_MILLISECONDS);
      };
    });
  }
}
