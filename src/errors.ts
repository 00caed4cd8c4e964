/**
 * The error catalogue of the domain. Domain code throws these and knows nothing of HTTP;
 * src/http/error-handler.ts is the one place that turns them into HTTP answers.
 */
export type ErrorKind =
  | 'invalid_request'
  | 'unauthenticated'
  | 'invalid_token'
  | 'forbidden'
  | 'insufficient_scope'
  | 'not_found'
  | 'conflict'
  | 'idempotency_key_reused'
  | 'too_many_requests'
  | 'uri_too_long'
  | 'unprocessable'
  | 'unsupported_media_type'
  | 'payload_too_large'
  | 'service_unavailable'
  | 'query_timeout';

export interface ErrorDetail {
  /**
   * JSON pointer of the offending value within where it was sent: the body unless `in` says
   * otherwise, e.g. "/search/0/path" in the body, "/cursor" among the query's fields.
   */
  path: string;
  message: string;
  /** Set when the value is not part of the document sent (FieldPlace). */
  in?: FieldPlace;
}

/**
 * Where a field is when it is not part of the document sent: among the fields that select or shape
 * what is asked for (a cursor, a time range, a file's name and format), or the name of the thing
 * acted on. The domain names the field; each transport names its place: the API as
 * "/querystring/cursor" or "/params/name" (http/error-handler.ts), the command line as an option.
 */
export type FieldPlace = 'query' | 'path';

export class AppError extends Error {
  override name = 'AppError';
  /**
   * The catalogue's name for this message (`area.factory`, e.g. "lists.cursorNotOurs"), which a
   * translation keys on; set by the factories of the catalogue below, absent on the generic ones
   * whose words come from their caller.
   */
  messageId: string | undefined;
  constructor(
    readonly kind: ErrorKind,
    message: string,
    readonly details: ErrorDetail[] = [],
    /** Extra facts the transport may need (a required scope, seconds to wait). */
    readonly hints: { scope?: string; retryAfterSeconds?: number; closeConnection?: boolean } = {},
  ) {
    super(message);
  }
}

/** The longest excerpt of a caller's input that a message quotes: enough to recognise it, never an echo of the request. */
export const INPUT_EXCERPT_MAX_LENGTH = 60;

/**
 * A piece of the caller's input as messages quote it: JSON-quoted (so control characters show as
 * escapes) and cut to a short excerpt, marked as cut, with the length of the whole.
 */
export function quoteInput(text: string, maxLength = INPUT_EXCERPT_MAX_LENGTH): string {
  if (text.length <= maxLength) return JSON.stringify(text);
  // A cut must not split a surrogate pair, which would turn the excerpt into invalid text.
  let end = maxLength;
  const last = text.charCodeAt(end - 1);
  if (last >= 0xd800 && last <= 0xdbff) end -= 1;
  return `${JSON.stringify(text.slice(0, end))}… (${text.length} characters)`;
}

/**
 * A member name as a segment of a JSON pointer in an error: escaped as RFC 6901 says, and cut
 * like any quoted input, so that a pointer names a field without echoing a huge name.
 */
export function pointerSegment(name: string): string {
  const escaped = name.replace(/~/g, '~0').replace(/\//g, '~1');
  return escaped.length <= INPUT_EXCERPT_MAX_LENGTH ? escaped : `${escaped.slice(0, INPUT_EXCERPT_MAX_LENGTH)}…`;
}

export const invalidRequest = (message: string, details: ErrorDetail[] = []) => new AppError('invalid_request', message, details);

/** A request error about one field: the message names the field and says how to fix it. */
export const invalidField = (path: string, message: string) => new AppError('invalid_request', `${path}: ${message}`, [{ path, message }]);

/**
 * A request error about one field outside the document (FieldPlace): the message starts with the
 * field's name, which a transport replaces with its own name for it (placedFieldMessage). An error
 * that wraps it may put words before it, ending in ": ".
 */
export const invalidFieldIn = (place: FieldPlace, name: string, message: string) =>
  new AppError('invalid_request', `${name}: ${message}`, [{ path: `/${pointerSegment(name)}`, in: place, message }]);

/**
 * The message of an error about a field outside the document (invalidFieldIn), with the field's
 * name as `nameOf` writes it: how a transport shows the domain's field in its own terms.
 */
export function placedFieldMessage(error: AppError, nameOf: (place: FieldPlace, name: string) => string): string {
  const first = error.details[0];
  if (first?.in === undefined) return error.message;
  const name = first.path.slice(1);
  const at = error.message.startsWith(`${name}: `) ? 0 : error.message.indexOf(`: ${name}: `) + 2;
  if (at === 1) return error.message; // indexOf found nothing: the message does not name the field
  return `${error.message.slice(0, at)}${nameOf(first.in, name)}${error.message.slice(at + name.length)}`;
}

export const notFound = (what: string, id: string) => new AppError('not_found', `${what} ${id} was not found in this organization`);

export const conflict = (message: string, details: ErrorDetail[] = []) => new AppError('conflict', message, details);

export const forbidden = (message: string) => new AppError('forbidden', message);

export const insufficientScope = (scope: string) =>
  new AppError('insufficient_scope', `this operation needs the scope "${scope}", which the credentials' role does not grant`, [], { scope });

export const unauthenticated = (message: string) => new AppError('unauthenticated', message);

export const invalidToken = (message: string) => new AppError('invalid_token', message);

export const queryTimeout = () =>
  new AppError('query_timeout', 'the query took longer than its time budget; lower "limit" or narrow "from"/"to" (or the search) and try again');

/*
 * The catalogue of named errors: every message the service words itself, grouped by area. Each
 * factory's name is the message's stable id (AppError.messageId, "area.name"); code elsewhere
 * throws these and never builds an AppError of its own (errors.test.ts checks). A new error goes
 * into the area it belongs to, with its words here and its values as parameters.
 */

type ErrorFactory = (...args: never[]) => AppError;

/** Names each factory's errors after the factory: `area.name`. */
function catalogue<Factories extends Record<string, ErrorFactory>>(area: string, factories: Factories): Factories {
  const named: Record<string, ErrorFactory> = {};
  for (const [name, make] of Object.entries(factories)) {
    named[name] = (...args: never[]) => {
      const error = make(...args);
      error.messageId = `${area}.${name}`;
      return error;
    };
  }
  return named as Factories;
}

/** Lists: their cursors. */
export const listErrors = catalogue('lists', {
  cursorNotOurs: () =>
    invalidFieldIn(
      'query',
      'cursor',
      'is not a cursor this service issued; pass the nextCursor of an earlier answer unchanged, or leave it out to start at the beginning',
    ),
  /** The cursors of the imports list have always been refused in these words. */
  importsCursorNotOurs: () => invalidFieldIn('query', 'cursor', 'is not a cursor this service issued; pass the nextCursor of an earlier answer unchanged'),
  cursorOfEarlierVersion: () =>
    invalidFieldIn(
      'query',
      'cursor',
      'was issued by an earlier version of this service, whose cursors are no longer taken; leave it out to start at the beginning (entries already seen come again, with the same ids)',
    ),
  transactionsCursorNotOurs: () => invalidField('/cursor', 'is not a cursor this service issued; send the cursor that came with the previous page, unchanged'),
  transactionsCursorOfOtherQuery: () =>
    invalidField(
      '/cursor',
      'was issued for a different query; send it with the same datasetId, from, to, search and order as the request that returned it, or start again without a cursor',
    ),
  pageSizeOutOfRange: (minimumEntries: number, maximumEntries: number, found: number) =>
    invalidField('/limit', `must be an integer from ${minimumEntries} to ${maximumEntries}, got ${found}`),
});
