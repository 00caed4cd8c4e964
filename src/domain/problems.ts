/**
 * What went wrong where no request can say it: in a job, or in recording a failure after the
 * failure itself was answered. The server writes these to its log (app.ts listens); without a
 * listener (a command of the command line) they go to standard error, so none is ever silent.
 */

export interface Problem {
  /** What could not be done and what it leaves behind, for the operator. */
  message: string;
  error: unknown;
  /** Ids of what it concerns, for the log; never customer data. */
  facts: Record<string, string | number | null>;
}

export class Problems {
  #listener: ((problem: Problem) => void) | null = null;

  /** Sends every problem to `listener` (the server's log) until the returned function is called. */
  listen(listener: (problem: Problem) => void): () => void {
    this.#listener = listener;
    return () => {
      if (this.#listener === listener) this.#listener = null;
    };
  }

  report(message: string, error: unknown, facts: Problem['facts'] = {}): void {
    if (this.#listener) {
      this.#listener({ message, error, facts });
      return;
    }
    // A database error's message can quote row data: its code says enough.
    const code = (error as { code?: unknown } | null)?.code;
    const cause = error instanceof Error ? `${error.name}${typeof code === 'string' ? ` ${code}` : ''}` : typeof error;
    process.stderr.write(`ledger-recon: ${message} (${cause}; ${JSON.stringify(facts)})\n`);
  }
}
