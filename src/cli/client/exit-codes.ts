import { LedgerReconError } from '@ledger-recon/sdk';

/**
 * The exit codes of the client commands, for scripts to branch on (docs/CLI.md lists them).
 * 0 is success; 1 an error the server reported that fits no other code or an unexpected one.
 */
export const ExitCode = {
  success: 0,
  failure: 1,
  /** The command line is wrong (unknown option, missing argument). */
  usage: 2,
  /** Not logged in, a bad profile, or the server refused the credentials (401) or the role (403). */
  configuration: 3,
  /** What the command names does not exist (404). */
  notFound: 4,
  /** The server refused the change as it stands (409: changed since, already done, nothing to run). */
  conflict: 5,
  /** The server could not be reached, or kept answering 429/5xx until the retries ran out. */
  unavailable: 6,
  /** The request was understood but the data is not valid (400, 413, 415, 422; a rule that does not validate). */
  invalid: 7,
  /** An import or a run ended failed. */
  jobFailed: 8,
} as const;

export type ExitCodeValue = (typeof ExitCode)[keyof typeof ExitCode];

/** An error the CLI explains itself: printed as its message, exit with its code. */
export class CliError extends Error {
  override readonly name = 'CliError';
  constructor(
    readonly exitCode: ExitCodeValue,
    message: string,
  ) {
    super(message);
  }
}

function exitCodeOfApiError(error: LedgerReconError): ExitCodeValue {
  if (error.code === 0 || error.code === 429 || error.code >= 500) return ExitCode.unavailable;
  if (error.code === 401 || error.code === 403) return ExitCode.configuration;
  if (error.code === 404) return ExitCode.notFound;
  if (error.code === 409) return ExitCode.conflict;
  if ([400, 413, 415, 422].includes(error.code)) return ExitCode.invalid;
  return ExitCode.failure;
}

/** What to do next, for the errors a person meets most. */
function hintOf(error: LedgerReconError): string | null {
  if (error.code === 401 && error.error === 'invalid_client') {
    return 'the client id or secret is wrong, or the client was revoked: an Administrator makes a new secret on the Developer page of the web app (for the demo, "npx ledger-recon demo" with the server stopped also does), then run "ledger-recon login" again';
  }
  if (error.code === 401) return 'the server refused the credentials: run "ledger-recon login" again';
  if (error.code === 403) return "this client's role does not allow it: use a client with the Full member or Administrator role";
  if (error.code === 404) return 'check the id: "ledger-recon datasets", "runs" and "suggestions" list what exists';
  if (error.code === 429) return `the server is rate limiting this client; try again${error.retryAfterSeconds ? ` in ${error.retryAfterSeconds} s` : ' later'}`;
  return null;
}

/** The lines printed for an error, and the exit code. */
export function describeError(error: unknown): { lines: string[]; exitCode: ExitCodeValue } {
  if (error instanceof CliError) return { lines: [error.message], exitCode: error.exitCode };
  if (error instanceof LedgerReconError) {
    const lines = [error.message];
    for (const detail of error.details) {
      if (!error.message.includes(detail.message)) lines.push(`  ${detail.path || '(body)'}: ${detail.message}`);
    }
    const hint = hintOf(error);
    if (hint !== null) lines.push(hint);
    if (error.request !== null) lines.push(`(request ${error.request})`);
    return { lines, exitCode: exitCodeOfApiError(error) };
  }
  const text = error instanceof Error ? (error.stack ?? error.message) : String(error);
  return { lines: [text], exitCode: ExitCode.failure };
}
