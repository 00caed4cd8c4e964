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
  transactionsCursorOfOtherSort: (cursorSort: string, requestSort: string) =>
    invalidField(
      '/cursor',
      `continues the transactions sorted by ${cursorSort}, but this request sorts them by ${requestSort}; send it with the sort of the request that returned it, or start again without a cursor`,
    ),
  transactionsCursorRowGone: () =>
    invalidField(
      '/cursor',
      'continues after a transaction that is no longer in the dataset (its import was undone); start again without a cursor, or page by offset',
    ),
  transactionsPageSizeOutOfRange: (minimumEntries: number, maximumEntries: number, found: number) =>
    invalidField('/limit', `must be an integer from ${minimumEntries} to ${maximumEntries}, got ${found}`),
});

/** The transport: what a request itself gets wrong, and a server that cannot take it now. */
export const requestErrors = catalogue('requests', {
  /** Several fields wrong at once: each named with its problem, the first ones in the message. */
  fieldProblems: (details: ErrorDetail[]) => new AppError('invalid_request', details.map((detail) => `${detail.path}: ${detail.message}`).join('; '), details),
  /** Query parameters sent to an operation that takes none (`names`: the first few of them). */
  unknownQueryParameters: (names: readonly string[], writes: boolean) => {
    const where = writes ? '; what it takes goes in the JSON body' : '';
    const details = names.map((name) => ({
      path: `/querystring/${pointerSegment(name)}`,
      message: `unknown parameter ${quoteInput(name)}: this operation takes no query parameters${where}`,
    }));
    return new AppError('invalid_request', details.map((detail) => `${detail.path}: ${detail.message}`).join('; '), details);
  },
  urlTooLong: (maximumCharacters: number) =>
    new AppError('uri_too_long', `the URL is longer than ${maximumCharacters} characters; send the data in the body instead of the URL`),
  /** An error in the "mapping" part of an import's form, its pointers moved under /mapping. */
  mappingPartInvalid: (error: AppError) =>
    new AppError(
      'invalid_request',
      `the "mapping" part: ${error.message}`,
      error.details.map((detail) => ({ ...detail, path: `/mapping${detail.path}` })),
    ),
  shuttingDown: (retryAfterSeconds: number) =>
    new AppError('service_unavailable', 'the server is shutting down and did not start this request; send it again (it has not been carried out)', [], {
      retryAfterSeconds,
      closeConnection: true,
    }),
  /** The database failed in a way that passes (`reason`); `advice` says when to send the request again. */
  databaseUnavailable: (reason: string, advice: string, retryAfterSeconds: number) =>
    new AppError('service_unavailable', `${reason}; ${advice}`, [], { retryAfterSeconds }),
});

/** The same error in other words: how a transport names a field its own way (the command line's options). */
export function reworded(error: AppError, message: string): AppError {
  const copy = new AppError(error.kind, message, error.details, error.hints);
  copy.messageId = error.messageId;
  return copy;
}

/** Idempotency keys (SPEC: a write sent again with its key gets the first answer). */
export const idempotencyErrors = catalogue('idempotency', {
  keyOfOtherCredentials: () =>
    new AppError(
      'idempotency_key_reused',
      'this Idempotency-Key was already used by other credentials of this organization; use a new, unique key for each request',
    ),
  keyOfOtherRequest: () =>
    new AppError(
      'idempotency_key_reused',
      'this Idempotency-Key was already used for a different request (another operation, target or body); use a new key for a new request, or resend exactly the first request to get its answer',
    ),
  keyOfOtherImport: () =>
    new AppError(
      'idempotency_key_reused',
      'this Idempotency-Key was already used for a different request (another file, dataset or settings); use a new key for a new request',
    ),
  keyInUseAtOnce: () => conflict('a request with this Idempotency-Key was being processed at the same moment; send the request again'),
  keyInUse: () => conflict('a request with this Idempotency-Key is being processed; send the request again in a moment'),
  importNeverStarted: () => conflict('the first request with this Idempotency-Key did not get to start its import; send the request again with a new key'),
});

/** People and clients: signing in, sessions, invitations, roles, request rates. */
export const authErrors = catalogue('auth', {
  signInsThrottled: (retryAfterSeconds: number) =>
    new AppError('too_many_requests', `too many failed sign-ins; try again in ${retryAfterSeconds} seconds`, [], { retryAfterSeconds }),
  wrongEmailOrPassword: () => new AppError('unauthenticated', 'the email or the password is wrong'),
  severalOrganizations: (organizationIds: readonly string[]) =>
    conflict('this email and password belong to several organizations; send organizationId to choose one', [
      { path: '/organizationId', message: `one of ${organizationIds.join(', ')}` },
    ]),
  notSignedIn: () => new AppError('unauthenticated', 'you are not signed in, or the session has ended; sign in again'),
  crossSiteSession: (publicOrigin: string) => forbidden(`a request from another site cannot use a session; the web app is served from ${publicOrigin}`),
  alreadyAUser: (email: string) => conflict(`${email} is already a user of this organization`),
  invitedAlreadyAUser: (email: string) => conflict(`${email} is already a user of this organization; sign in instead`),
  invitationNotValid: () => new AppError('not_found', 'this invitation link is not valid; ask an Administrator for a new one'),
  invitationUsed: () => conflict('this invitation has been used already; sign in instead'),
  invitationExpired: () => conflict('this invitation has expired (links are good for 72 hours); ask an Administrator for a new one'),
  lastAdministrator: () => conflict('this is the last active Administrator; make another user Administrator first'),
  clientRateLimited: (requestsPerMinute: number, retryAfterSeconds: number) =>
    new AppError('too_many_requests', `this client sent more than ${requestsPerMinute} requests a minute; retry after ${retryAfterSeconds} seconds`, [], {
      retryAfterSeconds,
    }),
});

/** The transactions query's search and columns. */
export const queryErrors = catalogue('query', {
  /** One query of `search` or `columns`, named by its index, with the paths the dataset has. */
  searchQueryInvalid: (list: 'search' | 'columns', index: number, pointer: string, problem: string, validPaths: string) => {
    const path = `/${list}/${index}${pointer}`;
    return new AppError('invalid_request', `${list}[${index}] (${path}): ${problem}. Valid paths: ${validPaths}`, [{ path, message: problem }]);
  },
  tooManySearchQueries: (maximum: number, found: number) =>
    new AppError('invalid_request', `search: at most ${maximum} queries, got ${found}`, [{ path: '/search', message: `must have at most ${maximum} queries` }]),
  tooManyColumnQueries: (maximum: number, found: number) =>
    new AppError('invalid_request', `columns: at most ${maximum} columns, got ${found}`, [
      { path: '/columns', message: `must have at most ${maximum} columns` },
    ]),
});

/** Matches, rules and runs. */
export const matchingErrors = catalogue('matching', {
  linkTransactionNotFound: (transactionId: string, index: number, side: 'originId' | 'targetId') =>
    new AppError('not_found', `transaction ${transactionId} (link ${index}, ${side}) was not found in this organization`, [
      { path: `/links/${index}/${side}`, message: 'no transaction with this id in this organization' },
    ]),
  /** Rules a reorder names that do not exist, each at its place in the list. */
  rulesNotFound: (missing: ErrorDetail[]) =>
    new AppError(
      'not_found',
      `${missing[0]!.path}: ${missing[0]!.message}${missing.length > 1 ? ` (and ${missing.length - 1} more)` : ''}; the list of rules shows every rule`,
      missing,
    ),
  /** Rules a run names that cannot run, each at its place in the list. */
  ruleIdsInvalid: (problems: ErrorDetail[]) =>
    new AppError(
      'invalid_request',
      `${problems[0]!.path}: ${problems[0]!.message}${problems.length > 1 ? ` (and ${problems.length - 1} more)` : ''}`,
      problems,
    ),
  /** An invalid rule: the first problem as the message, all of them (but `omitted`) as details. */
  ruleInvalid: (problems: readonly ErrorDetail[], omitted: number) => {
    const first = problems[0] ?? { path: '', message: 'is not a valid rule' };
    const more = problems.length - 1 + omitted;
    return new AppError(
      'invalid_request',
      `${first.path || '/'}: ${first.message}${more > 0 ? ` (and ${more} more problem${more === 1 ? '' : 's'}; see details, or validate the rule for the full list)` : ''}`,
      problems.map((problem) => ({ path: problem.path, message: problem.message })),
    );
  },
  ruleVersionInvalid: (index: number) => new AppError('invalid_request', `rule version ${index} is not a rule id (a UUID) with an integer version`),
  nettedMatchAlone: (matchId: string, groupId: string) =>
    conflict(
      `match ${matchId} is part of match group ${groupId}, a payout whose refunds and fees are netted against its deposit; it cannot be deleted alone, because the deposit would then count more than its amount; delete the whole match group instead`,
    ),
  noEnabledRule: () => conflict('there is no enabled rule to run; create a rule, or enable one (set its "enabled" to true)'),
  /** Only a dry run never committed is discarded: one that made its matches is reverted. */
  runNotDiscardable: (runId: string, why: 'commit run' | 'committed') =>
    conflict(
      `run ${runId} ${why === 'commit run' ? 'is a commit run' : 'is a dry run that was committed'}: its matches are made, so it cannot be discarded; revert it instead (POST /runs/${runId}/revert), which removes its matches and keeps its record`,
    ),
  runRuleDeleted: (runId: string, ruleNames: readonly string[]) =>
    conflict(
      `run ${runId} decided by rule${ruleNames.length === 1 ? '' : 's'} ${ruleNames.map((name) => `"${name}"`).join(', ')}, deleted since; a dry run of a deleted rule is not committed; start a new dry run of the rules there are`,
    ),
});

/** File imports: the file, its format and encoding, its mapping, the dataset's account. */
export const importErrors = catalogue('imports', {
  fileEmpty: () => new AppError('unprocessable', 'the file is empty; send the statement file itself'),
  /** A file of a kind people send by mistake (`found`: what it is), with advice when there is some. */
  fileOfOtherKind: (found: string, advice: string, formats: string) =>
    new AppError('unsupported_media_type', `the file is ${found}, which is not a format this service imports${advice}; the formats are ${formats}`),
  formatNotRecognised: (firstLine: string, formats: string) =>
    new AppError(
      'unsupported_media_type',
      `the file's format was not recognised: it starts with ${quoteInput(firstLine)}, which is none of the formats this service imports ` +
        `(${formats}) and not delimited text; if the file is one of them, name it with the "format" parameter`,
    ),
  encodingUnknown: (requested: string) =>
    new AppError(
      'invalid_request',
      `encoding ${quoteInput(requested)} is not one this service reads; use a WHATWG label such as "utf-8", "windows-1252", "iso-8859-1", "utf-16le", or a DOS code page "cp437", "cp850", "cp852"`,
      [{ path: '/encoding', in: 'query', message: 'is not a known encoding' }],
    ),
  fileTooLarge: (maximumBytes: number) =>
    new AppError(
      'payload_too_large',
      `the file is larger than ${maximumBytes} bytes, the most an import takes (IMPORT_MAX_BYTES); split the statement into several files, or raise IMPORT_MAX_BYTES on the server`,
    ),
  /** A file that does not follow its format: what happened (`outcome`), then where the file is at fault. */
  fileRefused: (outcome: string, problem: string) => new AppError('unprocessable', `${outcome}: ${problem}`, [{ path: '/file', message: problem }]),
  /** An import refused before its file was read (its mapping); `error` says why. */
  importRefused: (importId: string, error: AppError) =>
    new AppError('invalid_request', `import ${importId} failed, nothing of the file was stored: ${error.message}`, error.details),
  /** An import whose mapping did not fit the file; `pointer` is within the mapping. */
  importMappingFailed: (importId: string, pointer: string, problem: string) =>
    new AppError('invalid_request', `import ${importId} failed, nothing of the file was stored: ${problem}`, [
      { path: `/mapping${pointer}`, message: problem },
    ]),
  /** The first request of a key sent again: its import failed. */
  replayedImportFailed: (importId: string, problem: string | undefined) =>
    new AppError('unprocessable', `import ${importId} failed, nothing of the file was stored: ${problem ?? 'unknown error'}`, [
      { path: '/file', message: problem ?? 'the import failed' },
    ]),
  /** A mapping that does not fit the dataset; `pointer` is within the mapping. */
  mappingInvalid: (pointer: string, problem: string) => new AppError('invalid_request', problem, [{ path: `/mapping${pointer}`, message: problem }]),
  /** A CSV file whose header does not name the dataset's columns (the first ones are quoted). */
  mappingRequired: (headerColumns: readonly string[]) =>
    new AppError(
      'invalid_request',
      `this CSV file needs a mapping: its header (${headerColumns
        .slice(0, 12)
        .map((column) => quoteInput(column, 30))
        .join(', ')}) does not name the dataset's columns. ` +
        'Send a mapping with the file, or name one saved on the dataset; a preview of the file proposes one ' +
        "(the settlement reports of Stripe, Adyen and PayPal need none: they are recognised by their header, which this file's is not)",
      [{ path: '/mapping', message: 'is required for this file' }],
    ),
  otherAccount: (fileAccount: string, line: number, datasetName: string, datasetAccount: string) =>
    conflict(
      `the file holds a statement of account ${fileAccount} (line ${line}), but the dataset "${datasetName}" holds the statements of account ${datasetAccount}. ` +
        'Import the file into the dataset of that account, or send allowOtherAccount=true to import it into this dataset anyway',
      [{ path: '/allowOtherAccount', in: 'query', message: `account ${fileAccount} is not the dataset's account ${datasetAccount}` }],
    ),
  interrupted: () =>
    new AppError('service_unavailable', 'the import was interrupted before it finished and nothing of the file was stored; send the file again', [], {
      retryAfterSeconds: 1,
    }),
});

/** The close reports: the statement written as a file. */
export const closeReportErrors = catalogue('closeReports', {
  amountTooLongForSpreadsheet: (amount: string) =>
    new AppError(
      'unprocessable',
      `the amount ${amount} has more than 15 significant digits, which a spreadsheet cannot hold exactly as a number; download the statement as PDF or its items as CSV instead`,
    ),
});

/** The adjustments of a period proposed as journal entries for the ledger. */
export const journalEntryErrors = catalogue('journalEntries', {
  reasonsNotMapped: (reasons: readonly string[], reconciliationName: string) =>
    conflict(
      `the period has ${reasons.join(', ')} adjustments, but the reconciliation "${reconciliationName}" maps no ledger account for ${reasons.length === 1 ? 'that reason' : 'those reasons'}; ` +
        'map each adjustment reason to a ledger account on the reconciliation, then propose the journal entries again',
    ),
  cashAccountNotMapped: (reconciliationName: string) =>
    conflict(
      `the reconciliation "${reconciliationName}" names no ledger account for its bank account (the cash account the adjustments are posted against); ` +
        'set it on the reconciliation, then propose the journal entries again',
    ),
});

/** Closed periods of month-end close: what a write may not change once a period is signed off. */
export const closedPeriodErrors = catalogue('closedPeriods', {
  /**
   * A write that would change a closed period: `period` names it in words ("March 2026 of
   * Operating account EUR ↔ GL 1200"), `approval` who approved it and when; `touched` is how many
   * of what the write touches (`noun`: "transactions", "rows of the file") are dated in it, and
   * `otherPeriods` how many more closed periods it touches.
   */
  periodClosed: (period: string, approval: string, touched: number, noun: 'transaction' | 'row of the file', otherPeriods: number) => {
    const things = touched === 1 ? `1 ${noun} is` : `${touched} ${noun === 'transaction' ? 'transactions are' : 'rows of the file are'}`;
    const others = otherPeriods === 0 ? '' : ` (and this touches ${otherPeriods} more closed period${otherPeriods === 1 ? '' : 's'})`;
    return conflict(
      `${period} is closed (${approval}): ${things} dated in it${others}, and nothing that changes the reconciliation statement of a closed period may happen; an Administrator can reopen the period with a reason, and then it can be changed again`,
    );
  },
});

/** "a", "a and b", "a, b and c". */
function wordsList(words: readonly string[]): string {
  return words.length <= 1 ? (words[0] ?? '') : `${words.slice(0, -1).join(', ')} and ${words.at(-1)}`;
}

/** Month-end close (SPEC §14): reconciliations, their statements and the sign-off of their periods. */
export const closeErrors = catalogue('close', {
  datasetNotFound: (pointer: string, datasetId: string) =>
    new AppError('invalid_request', `${pointer}: dataset ${datasetId} is not a dataset of this organization`, [
      { path: pointer, message: `dataset ${datasetId} is not a dataset of this organization` },
    ]),
  datasetOnBothSides: (pointer: string, datasetName: string) =>
    new AppError('invalid_request', `${pointer}: the dataset "${datasetName}" is on both sides; a dataset is either the bank's or the ledger's`, [
      { path: pointer, message: `the dataset "${datasetName}" is on both sides` },
    ]),
  datasetCurrencyDiffers: (pointer: string, datasetName: string, datasetCurrency: string, currency: string) =>
    new AppError('invalid_request', `${pointer}: the dataset "${datasetName}" holds ${datasetCurrency}, not ${currency}; a reconciliation is of one currency`, [
      { path: pointer, message: `the dataset "${datasetName}" holds ${datasetCurrency}, not ${currency}` },
    ]),
  datasetInOtherReconciliation: (datasetName: string, reconciliationName: string) =>
    conflict(
      `the dataset "${datasetName}" already belongs to the reconciliation "${reconciliationName}"; a dataset belongs to one reconciliation — take it out of that one first`,
    ),
  ruleNotFound: (pointer: string, ruleId: string) =>
    new AppError('invalid_request', `${pointer}: rule ${ruleId} is not a rule of this organization`, [
      { path: pointer, message: `rule ${ruleId} is not a rule of this organization` },
    ]),
  nameTaken: (name: string) => conflict(`a reconciliation named ${quoteInput(name)} exists already; choose another name`),
  periodEndInvalid: (periodEnd: string, expected: string) =>
    invalidFieldIn('query', 'periodEnd', `${quoteInput(periodEnd, 20)} is not the last day of a period of this reconciliation; the nearest is ${expected}`),
  periodBeforeOpening: (periodEnd: string, openingDate: string) =>
    invalidFieldIn('query', 'periodEnd', `the period ending ${periodEnd} begins before the ledger's opening balance of ${openingDate}; choose a later period`),
  periodEndsOnOpening: (periodEnd: string, openingDate: string, firstPeriodEnd: string) =>
    invalidFieldIn(
      'query',
      'periodEnd',
      `the period ending ${periodEnd} ends on the ledger's opening date ${openingDate}, so there is nothing to close in it; the first period ends ${firstPeriodEnd}`,
    ),
  otherCurrencyRows: (total: number, datasetName: string, count: number, currency: string, reconciliationCurrency: string) =>
    new AppError(
      'unprocessable',
      `${total} transaction${total === 1 ? '' : 's'} on or before the period end ${total === 1 ? 'is' : 'are'} not in ${reconciliationCurrency}: ` +
        `${count} in ${currency} in the dataset "${datasetName}"${total > count ? ', and others' : ''}. A statement is of one currency: ` +
        'move those transactions to a dataset of their own currency, or mark them out of scope',
    ),
  differenceNotZero: (difference: string, currency: string) =>
    conflict(`the unexplained difference is ${difference} ${currency}, not 0.00; explain it (match, adjust or correct the data) before preparing the period`),
  periodNotOpen: (periodEnd: string, state: string) => conflict(`the period ending ${periodEnd} is ${state}, not open; reopen it first to prepare it again`),
  periodNotPrepared: (periodEnd: string, state: string) => conflict(`the period ending ${periodEnd} is ${state}; only a prepared period can be approved`),
  periodNotSigned: (periodEnd: string) => conflict(`the period ending ${periodEnd} is open already; there is nothing to reopen`),
  preparerCannotApprove: () => forbidden('the period was prepared by you; another person (an Administrator or a Reviewer) must approve it'),
  approverRoleNeeded: () => forbidden('only an Administrator or a Reviewer may approve a period'),
  reopenNeedsAdministrator: () => forbidden('only an Administrator may reopen a period'),
  signedFiguresWouldChange: (fields: readonly string[], periodName: string, otherApproved: number) =>
    conflict(
      `changing ${wordsList(fields)} would alter the figures of ${periodName}, which is approved and closed` +
        `${otherApproved === 0 ? '' : ` (and of ${otherApproved} earlier approved period${otherApproved === 1 ? '' : 's'})`}. ` +
        `An Administrator must reopen ${otherApproved === 0 ? 'it' : 'the approved periods'} first, with a reason; ` +
        'the name, the rules and the accounts can be changed at any time.',
    ),
  reconciliationArchived: (name: string) => conflict(`the reconciliation "${name}" is archived; restore it (archived: false) before signing its periods`),
});

/** The exceptions queue of the month-end close (close/exceptions.ts). */
export const exceptionErrors = catalogue('exceptions', {
  bulkChangeEmpty: () => invalidField('/', 'say what to change: assigneeUserId, dueDate or holdReason (or several)'),
  assigneeNotActive: (path: string, userId: string) =>
    invalidField(path, `${userId} is not an active user of this organization; choose one of its users (the users list names them)`),
  mineNeedsPerson: () =>
    invalidFieldIn('query', 'view', '"mine" lists the exceptions of the person signed in, and this request is not made by a person; pass assignee instead'),
  transactionsNotFound: (missing: readonly { index: number; id: string }[]) =>
    new AppError(
      'not_found',
      `${missing.length} of the transactions were not found in this organization; nothing was assigned`,
      missing.map(({ index, id }) => ({ path: `/transactionIds/${index}`, message: `transaction ${id} was not found in this organization` })),
    ),
  alreadyResolved: (transactionId: string) => conflict(`the exception of transaction ${transactionId} is resolved already; reopen it first`),
  notResolvedByNote: (transactionId: string, resolution: string | null) =>
    conflict(
      resolution === null
        ? `the exception of transaction ${transactionId} is not resolved, so there is nothing to reopen`
        : `the exception of transaction ${transactionId} was resolved by ${resolution === 'matched' ? 'a match' : 'an adjustment'}; delete the match to reopen it`,
    ),
  notOpen: (transactionId: string) => conflict(`transaction ${transactionId} is not open (it is matched in full or set aside), so it needs no resolution`),
  dueDateBeforeToday: (today: string) => invalidField('/dueDate', `is before today (${today}); give today or a later day, or null to clear the due date`),
  dueDateTooFar: (latest: string, years: number) => invalidField('/dueDate', `is more than ${years} years ahead; give a day on or before ${latest}`),
});

/** Connections and their pickups (domain/connections/, docs/CONNECTIONS.md). */
/** A size as people read it: 900 bytes, 2 KB, 1.5 MB, 3 GB (1 KB = 1024 bytes). */
function bytesInWords(bytes: number): string {
  const units = ['KB', 'MB', 'GB', 'TB'];
  if (bytes < 1024) return `${bytes} bytes`;
  let value = bytes / 1024;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit += 1;
  }
  return `${Number(value.toFixed(1))} ${units[unit]}`;
}

export const connectionErrors = catalogue('connections', {
  encryptionKeyMissing: () =>
    conflict(
      'SFTP connections cannot be made until the operator sets SECRET_ENCRYPTION_KEY, the key their passwords and private keys are sealed with; ask the operator to set it',
    ),
  folderRootMissing: () =>
    conflict('folder connections cannot be made until the operator sets CONNECTOR_FOLDER_ROOT, the directory they may read; ask the operator to set it'),
  folderOutsideRoot: () =>
    invalidField(
      '/folderPath',
      'is not inside the directory the operator allows folder connections to read (CONNECTOR_FOLDER_ROOT); choose a folder inside it',
    ),
  folderMissing: () => invalidField('/folderPath', 'is not a directory the service can read; create it, or check its name'),
  folderGone: () => conflict("the connection's folder is gone or cannot be read; check that it still exists in the directory the operator allows"),
  privateKeyInvalid: (problem: string) =>
    invalidField('/privateKey', `is not a private key the service can use (${problem}); send an OpenSSH or PEM private key without a passphrase`),
  credentialsOfOtherMethod: (field: string, method: string) => invalidField(`/${field}`, `is not used when the authentication is "${method}"; leave it out`),
  credentialMissing: (field: string, method: string) => invalidField(`/${field}`, `is needed when the authentication is "${method}"`),
  fieldOfOtherKind: (field: string, kind: string) => invalidField(`/${field}`, `is not used by a ${kind} connection; leave it out`),
  fieldMissing: (field: string, kind: string) => invalidField(`/${field}`, `is needed by a ${kind} connection`),
  datasetOrRouting: () => invalidField('/datasetId', 'give either a dataset or routing by account ("routeByAccount": true), not both and not neither'),
  archivePathNeeded: () => invalidField('/archivePath', 'is needed when files are moved after their import ("afterImport": "move"), and only then'),
  patternInvalid: () => invalidField('/pattern', 'is a file name pattern such as *.xml or camt053_*.xml: no "/", no ".."'),
  pickupFolderMissing: (field: 'path' | 'archivePath', value: string) =>
    invalidField(
      `/${field}`,
      `${JSON.stringify(value)} is not a folder inside the connection's folder; create it there, or check its name ("/" is the connection's folder itself)`,
    ),
  pathInvalid: (field: string) => invalidField(`/${field}`, 'is a folder path on the server such as /out/camt053, without ".." or control characters'),
  hostKeyNotConfirmed: () =>
    conflict("the server's host key has not been confirmed yet; test the connection, check the fingerprint with the bank, and confirm it"),
  hostKeyChanged: (expected: string, found: string) =>
    new AppError(
      'conflict',
      `the server's host key has changed: it was ${expected} and is now ${found}. This is what a server impersonating the bank's would look like; ` +
        'ask the bank whether they changed their key, and confirm the new fingerprint only if they did',
    ),
  fingerprintInvalid: () => invalidField('/hostKeyFingerprint', 'is a fingerprint as the connection test shows it: SHA256: and 43 characters of base64'),
  fingerprintNotSeen: (seen: string) =>
    invalidField(
      '/hostKeyFingerprint',
      `is not the fingerprint the last connection test saw (${seen}), so it is not confirmed: check it for a typing mistake, or test the connection ` +
        'again and confirm the fingerprint the test shows once the bank has confirmed it',
    ),
  datasetNotFound: (datasetId: string) => invalidField('/datasetId', `dataset ${datasetId} was not found in this organization`),
  connectionsLimit: (limit: number) => conflict(`this organization has ${limit} connections, the most it may have; delete one it no longer uses first`),
  pickupsLimit: (limit: number) => conflict(`this connection has ${limit} pickups, the most it may have; delete one it no longer needs first`),
  unreachable: (problem: string) =>
    new AppError(
      'service_unavailable',
      `the server could not be reached: ${problem}; check the host and port, and that the server lets the service's address in`,
    ),
  loginRefused: () =>
    new AppError('conflict', 'the server refused the login; check the user name, and that the bank has the public key (or the password is right)'),
  remoteProblem: (problem: string) => new AppError('conflict', `the server answered with an error: ${problem}`),
  folderProblem: (problem: string) => new AppError('conflict', `the folder could not be used: ${problem}`),
  fileTooLarge: (sizeBytes: number | null, limitBytes: number) =>
    new AppError(
      'payload_too_large',
      `the file is ${sizeBytes === null ? 'larger than' : `${bytesInWords(sizeBytes)}, more than`} ${bytesInWords(limitBytes)}, the most an import takes ` +
        '(IMPORT_MAX_BYTES); it is not fetched again while its name, size and time stay the same. Ask the sender to split it, or the operator to raise IMPORT_MAX_BYTES',
    ),
  scheduleBoth: () =>
    invalidField(
      '/timesOfDay',
      'is given with intervalMinutes: a pickup runs either every intervalMinutes or at timesOfDay in timeZone; leave one of the two out',
    ),
  scheduleMissing: () =>
    invalidField('/intervalMinutes', 'is needed, or timesOfDay with timeZone: a pickup runs every N minutes, or at times of day such as ["06:00", "14:30"]'),
  timeZoneMissing: () => invalidField('/timeZone', 'is needed with timesOfDay: the time zone the times are read in, such as Europe/Berlin'),
  timeZoneWithoutTimes: () => invalidField('/timeZone', 'is used only with timesOfDay; give timesOfDay too, or leave timeZone out'),
  timeZoneUnknown: (timeZone: string) =>
    invalidField('/timeZone', `${quoteInput(timeZone)} is not a time zone the service knows; give an IANA name such as Europe/Berlin, America/New_York or UTC`),
});
