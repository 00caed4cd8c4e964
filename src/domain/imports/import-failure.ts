import { AppError, importErrors } from '../../errors.ts';
import { MappingError } from './formats/csv/index.ts';
import { ImportFormatError } from './statement-entries.ts';

/**
 * Why and where an import failed: the one shape of a failed import's `error`, whatever the way it
 * failed (the file, its mapping, a server that stopped, an upload cut short). The API's schema
 * (http/schemas/imports.ts) is built from this module, the importer and the queue's handler
 * record failures made here, and the database builds the same shape with `import_failure()`
 * (migration 0015) where it settles an import itself (a job that failed for good); a CHECK on
 * `imports.error` refuses any other shape, so no writer can make the history unreadable.
 */

export { IMPORT_FAILURE_REASONS, type ImportFailure, type ImportFailureReason } from '../model.ts';
import type { ImportFailure, ImportFailureReason } from '../model.ts';

function failure(
  reason: ImportFailureReason,
  message: string,
  where: { line?: number | null; column?: string | null; xmlPath?: string | null } = {},
): ImportFailure {
  return { reason, message: storableText(message), line: where.line ?? null, column: where.column ?? null, xmlPath: where.xmlPath ?? null };
}

/**
 * A message as the database can keep it in JSON: PostgreSQL refuses a NUL and a lone surrogate
 * in jsonb, and a message that quotes the file must never stop its failure from being recorded.
 */
function storableText(text: string): string {
  return text.toWellFormed().replaceAll('\u0000', '\uFFFD');
}

/** The server stopped while it imported the file (a synchronous import whose process died). */
export const SERVER_STOPPED = failure('interrupted', 'the server stopped while importing this file; nothing of it was stored; send the file again');

/** The file of an asynchronous import is not all there: the server stopped (or failed) while storing it. */
export const UPLOAD_INTERRUPTED = failure(
  'upload',
  'the file was not stored whole (the server stopped or failed while storing it); nothing of it was imported; send the file again',
);

/** An import whose entries were not all stored or matched: it fails whole rather than report counts that do not add up. */
export class ImportCountMismatch extends Error {
  override name = 'ImportCountMismatch';
}

/** The failure an error thrown while importing stands for. */
export function importFailureOf(error: unknown): ImportFailure {
  if (error instanceof ImportFormatError) return failure('file', error.message, error);
  // The server's own check that every entry was stored or known: its message says which lines.
  if (error instanceof ImportCountMismatch) return failure('internal', error.message);
  if (error instanceof MappingError) return failure('mapping', error.message);
  if (error instanceof AppError) return failure('refused', error.message);
  return failure('internal', 'the server failed while importing this file; nothing of it was stored; send the file again');
}

/**
 * The answer to a file that does not follow its format, for an import and a preview alike: a 422
 * whose message says what happened (`outcome`) and where the file is at fault.
 */
export function fileRefused(error: ImportFormatError, outcome: string): AppError {
  return importErrors.fileRefused(outcome, error.message);
}
