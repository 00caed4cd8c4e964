/**
 * The one place where the app words what went wrong. The API's messages are written for
 * programs and the engineers who write them: they name fields by JSON pointers, things by ids,
 * operations by their HTTP routes and roles by their scopes. The app keeps them as they are and
 * says the same here in words a person acts on: what happened, and what to do, naming things by
 * their names. A message of the service's catalogue is known by its name (the envelope's
 * messageId, e.g. "imports.fileEmpty"); any other by its status, and its words are cleaned of
 * what a person cannot use.
 */
import { LedgerReconError } from '@ledger-recon/sdk';

/** What of an error the app reads: the SDK's LedgerReconError has all of it. */
export interface ApiProblem {
  code: number;
  message: string;
  messageId?: string | undefined;
  details: readonly { path: string; message: string }[];
  retryAfterSeconds?: number | undefined;
}

/** What no message shown to a person may hold; the tests look for the same. */
export const UNFIT_FOR_PEOPLE: readonly { name: string; pattern: RegExp }[] = [
  { name: 'a UUID', pattern: /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/i },
  { name: 'an epoch-millisecond number', pattern: /(?<![\d.,])\d{13}(?![\d.,])/ },
  { name: 'an HTTP verb', pattern: /\b(GET|POST|PUT|PATCH|DELETE) (?=\/|\{|h)/ },
  { name: 'an API path', pattern: /\/v1\/api|\/oauth\/|\/auth\// },
  {
    name: 'a JSON pointer',
    pattern:
      /(?:^|[\s("'`:])\/(?:[a-z][A-Za-z]*|\d+)(?:\/[\w~.-]+)+|(?:^|[\s("'`])\/(?:querystring|params|body|mapping|columns|search|links|file|allowOtherAccount|organizationId)\b/,
  },
  { name: 'a scope name', pattern: /\b(read|write|manage):(data|credentials)\b/ },
  { name: 'a request field to send', pattern: /send [`"]?force[`"]?|"force": true|\bsend `?\w+`?=true\b/i },
];

/** What `cleaned` does not turn into words: such a text is not shown at all. */
const CANNOT_CLEAN = new Set(['an epoch-millisecond number', 'an HTTP verb', 'an API path', 'a scope name']);

/** Whether a text is fit to show a person: none of UNFIT_FOR_PEOPLE. */
export function fitForPeople(text: string): boolean {
  return UNFIT_FOR_PEOPLE.every(({ pattern }) => !pattern.test(text));
}

const UUID_PATTERN = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/gi;

/** The names of things the API puts before their ids ("run 3f2…"), as a person calls them. */
const THINGS = [
  'API client',
  'reconciliation',
  'webhook endpoint',
  'webhook delivery',
  'match group',
  'import mapping',
  'suggestion',
  'transaction',
  'dataset',
  'source',
  'import',
  'match',
  'rule',
  'run',
  'user',
  'secret',
];

/** Fields the API names, in the words of the screens. */
const FIELD_WORDS: Record<string, string> = {
  name: 'name',
  email: 'email',
  password: 'password',
  role: 'role',
  columns: 'columns',
  type: 'type',
  datasetId: 'dataset',
  datasetIds: 'datasets',
  origin: 'origin',
  target: 'target',
  conditions: 'conditions',
  mapping: 'mapping',
  file: 'file',
  amount: 'amount',
  url: 'address',
  eventTypes: 'events',
  description: 'description',
  cursor: 'position in the list',
  limit: 'page size',
  encoding: 'encoding',
  reconciliationStatus: 'status',
};

/** A field the API names by a pointer, in words: "/columns/1/name" → "column 2, name". */
export function pointerInWords(pointer: string): string {
  const segments = pointer
    .replace(/^\/(querystring|params|body)(?=\/|$)/, '')
    .split('/')
    .slice(1)
    .map((segment) => segment.replace(/~1/g, '/').replace(/~0/g, '~'));
  const words: string[] = [];
  for (let at = 0; at < segments.length; at++) {
    const segment = segments[at]!;
    const next = segments[at + 1];
    if (next !== undefined && /^\d+$/.test(next)) {
      // "columns", 1 → "column 2": a place in a list, counted from one as people count.
      const singular = (FIELD_WORDS[segment] ?? wordsOf(segment)).replace(/s$/, '');
      words.push(`${singular} ${Number(next) + 1}`);
      at += 1;
    } else if (/^\d+$/.test(segment)) {
      words.push(`item ${Number(segment) + 1}`);
    } else {
      words.push(FIELD_WORDS[segment] ?? wordsOf(segment));
    }
  }
  return words.join(', ') || 'the request';
}

/** A camelCase name as words: "valueDate" → "value date". */
function wordsOf(name: string): string {
  return name.replace(/([a-z])([A-Z])/g, '$1 $2').toLowerCase();
}

/**
 * A message of the service cleaned for a person: ids become "this run", "the transaction";
 * pointers become the field's words; a clause telling a program what to send goes. Null when what
 * is left is still not fit to show.
 */
export function cleaned(text: string): string | null {
  // What cannot be put in words here: an operation by its route, a scope, an epoch number.
  if (UNFIT_FOR_PEOPLE.some(({ name, pattern }) => CANNOT_CLEAN.has(name) && pattern.test(text))) return null;
  let result = text;
  for (const thing of THINGS) {
    result = result.replace(new RegExp(`\\b${thing}\\(?s?\\)? ${UUID_PATTERN.source}`, 'gi'), `this ${thing}`);
  }
  result = result
    // Lists of ids ("transaction(s) a, b were matched").
    .replace(new RegExp(`(?:${UUID_PATTERN.source})(?:, (?:${UUID_PATTERN.source}))*`, 'gi'), 'some')
    // Clauses that tell a program what to send.
    .replace(/[;,]? (?:or )?send "?force"?: true[^;.]*/gi, '')
    .replace(/[;,]? (?:or )?send \w+=true[^;.]*/gi, '')
    .replace(/ \(PATCH \{[^)]*\}\)/g, '')
    // A field named by its pointer at the start ("/name: must not be empty").
    .replace(/^(\/[\w~./-]*): /, (_, pointer: string) => `${capitalised(pointerInWords(pointer))}: `)
    .replace(/(?<=^|[\s(])(\/[a-z][\w~.-]*(?:\/[\w~.-]+)*)/g, (pointer: string) => pointerInWords(pointer))
    .replace(/\s+/g, ' ')
    .trim();
  return fitForPeople(result) ? result : null;
}

/** A text with a capital first letter. */
export function capitalised(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

/** A text as a sentence: a capital first letter and a full stop at the end. */
export function asSentence(text: string): string {
  const trimmed = text.trim();
  return capitalised(trimmed) + (/[.!?]$/.test(trimmed) ? '' : '.');
}

/** The problem a detail states, cleaned; the first one when there are several. */
function firstDetail(problem: ApiProblem): string | null {
  const detail = problem.details[0];
  return detail === undefined ? null : cleaned(detail.message);
}

/** The first detail's message as the server wrote it. */
function firstDetailText(problem: ApiProblem): string | null {
  return problem.details[0]?.message ?? null;
}

/** What follows "outcome: " in a message, cleaned. */
function after(message: string, separator = ': '): string | null {
  const at = message.indexOf(separator);
  return at === -1 ? null : cleaned(message.slice(at + separator.length));
}

function waitFor(problem: ApiProblem, fallbackSeconds = 60): string {
  const seconds = problem.retryAfterSeconds ?? fallbackSeconds;
  return seconds <= 90 ? `${seconds} second${seconds === 1 ? '' : 's'}` : `${Math.ceil(seconds / 60)} minutes`;
}

type Translation = (problem: ApiProblem) => string;

const SEND_AGAIN = 'Nothing was changed; try again.';

/**
 * The messages of the service's catalogue (src/errors.ts) in the app's words, by their names.
 * Every message the app can meet has one (a test checks each name of the catalogue against
 * this table and NOT_MET_BY_THE_APP).
 */
export const TRANSLATIONS: Record<string, Translation> = {
  // Lists: the app passes positions on as it got them; one refused means the list changed or the app was upgraded.
  'lists.cursorNotOurs': () => 'The list could not be continued from where it was. Reload the page to read it from the start.',
  'lists.importsCursorNotOurs': () => 'The list of imports could not be continued from where it was. Reload the page to read it from the start.',
  'lists.cursorOfEarlierVersion': () => 'The service was upgraded while the list was open. Reload the page to read it from the start.',
  'lists.transactionsCursorNotOurs': () => 'The transactions could not be continued from where they were. Reload the page to read them from the start.',
  'lists.transactionsCursorOfOtherQuery': () => 'The filters changed while the transactions were loading. Apply the filters again.',
  'lists.transactionsCursorOfOtherSort': () => 'The order of the transactions changed while they were loading. Reload the page to read them from the start.',
  'lists.transactionsCursorRowGone': () =>
    'A transaction the list was continuing from is no longer there (its import was undone). Reload the page to read the list from the start.',
  'lists.transactionsPageSizeOutOfRange': () => 'The page of transactions asked for is too large or too small. Reload the page.',

  'requests.fieldProblems': (problem) => fieldProblems(problem),
  'requests.unknownQueryParameters': () => 'The app asked the server in a way it does not understand. Reload the page (the app may have been upgraded).',
  'requests.urlTooLong': () => 'The search is too long. Use fewer or shorter filters.',
  'requests.mappingPartInvalid': (problem) => `The CSV mapping is not valid: ${firstDetail(problem) ?? 'check it'}. Correct the mapping, then import again.`,
  'requests.shuttingDown': (problem) => `The server is restarting and did not do this. Try again in ${waitFor(problem, 5)}.`,
  'requests.databaseUnavailable': (problem) => `The server is busy and did not do this. Try again in ${waitFor(problem, 5)}.`,

  'idempotency.keyOfOtherCredentials': () => SEND_AGAIN,
  'idempotency.keyOfOtherRequest': () => SEND_AGAIN,
  'idempotency.keyOfOtherImport': () => 'The file was not imported. Choose it again and import it.',
  'idempotency.keyInUseAtOnce': () => 'The same action was sent twice at the same moment; the first one is being done. Wait a moment and reload the page.',
  'idempotency.keyInUse': () => 'This is still being done. Wait a moment and reload the page.',
  'idempotency.importNeverStarted': () => 'The file was not imported. Choose it again and import it.',

  'auth.signInsThrottled': (problem) => `Too many failed sign-ins. Try again in ${waitFor(problem)}.`,
  'auth.wrongEmailOrPassword': () => 'The email or the password is wrong.',
  'auth.severalOrganizations': () => 'This email and password belong to several organizations. Ask an Administrator which one to use.',
  'auth.notSignedIn': () => 'Your session has ended. Sign in again to continue.',
  'auth.crossSiteSession': () => 'This page was opened from another site, which cannot use your session. Open the app from its own address.',
  'auth.alreadyAUser': () => 'This person is already a user of this organization.',
  'auth.invitedAlreadyAUser': () => 'This email is already a user of this organization. Sign in instead.',
  'auth.invitationNotValid': () => 'This invitation link is not valid. Ask an Administrator for a new one.',
  'auth.invitationUsed': () => 'This invitation has been used already. Sign in instead.',
  'auth.invitationExpired': () => 'This invitation has expired (links are good for 72 hours). Ask an Administrator for a new one.',
  'auth.lastAdministrator': () => 'This is the last active Administrator. Make another user Administrator first.',
  'auth.clientRateLimited': (problem) => `Too many requests in a minute. Try again in ${waitFor(problem)}.`,

  'query.searchQueryInvalid': (problem) =>
    `A filter cannot be used on this dataset: ${firstDetail(problem) ?? 'check the filters'}. Change the filters and apply them again.`,
  'query.tooManySearchQueries': () => 'There are too many filters at once. Remove some and apply them again.',
  'query.tooManyColumnQueries': () => 'There are too many columns chosen. Choose fewer columns.',

  'matching.linkTransactionNotFound': () => 'One of the transactions no longer exists: someone may have undone its import. Reload the page.',
  'matching.rulesNotFound': () => 'One of the rules no longer exists: someone may have deleted it. Reload the page.',
  'matching.ruleIdsInvalid': () => 'One of the rules chosen cannot run (it may have been disabled or deleted). Reload the page and choose again.',
  'matching.ruleInvalid': (problem) => ruleProblems(problem),
  'matching.ruleVersionInvalid': () => 'One of the rules chosen is not known. Reload the page and choose again.',
  'matching.nettedMatchAlone': () =>
    'This match is part of a payout whose refunds and fees are netted against its deposit, so it cannot be removed alone. Unmatch the whole group instead.',
  'matching.noEnabledRule': () => 'There is no enabled rule to run. Create a rule, or enable one, then run again.',
  'matching.runNotDiscardable': () =>
    'This run is committed: its matches are made, so it cannot be discarded. To take its matches back, revert the run instead.',
  'matching.runRuleDeleted': () =>
    'A rule of this dry run has been deleted since it ran (a rule tried from the rule form is deleted once tried), so its matches are not made. Start a new dry run of the rules there are.',

  'exceptions.assigneeNotActive': () => 'This person is no longer an active user of the organization. Reload the page and choose someone else.',
  'exceptions.mineNeedsPerson': () => 'Only a person who is signed in has exceptions of their own. Choose a person instead.',
  'exceptions.transactionsNotFound': () =>
    'Some of the chosen items no longer exist (their import may have been undone), so nobody was assigned. Reload the page and choose again.',
  'exceptions.alreadyResolved': () => 'This exception is resolved already. Reopen it first.',
  'exceptions.bulkChangeEmpty': () => 'Choose what to change for the selected exceptions: the person, the due date or the hold.',
  'exceptions.notResolvedByNote': () => 'This exception was resolved by a match, not by a note. Unmatch it to reopen it.',
  'exceptions.notOpen': () => 'This item is matched in full or set aside, so it needs no resolution.',
  'exceptions.dueDateBeforeToday': () => 'The due date is before today. Choose today or a later day, or clear the due date.',
  'exceptions.dueDateTooFar': () => 'The due date is more than 5 years ahead. Choose a nearer day.',

  'imports.fileEmpty': () => 'The file is empty. Choose the statement file itself.',
  'imports.fileOfOtherKind': (problem) =>
    `${asSentence(cleaned(problem.message.replace(/; the formats are .*$/, '')) ?? 'This file is not a bank statement')} Choose a bank statement (camt.053, camt.052, camt.054, MT940, MT942, BAI2, OFX) or a CSV file.`,
  'imports.formatNotRecognised': () =>
    'The file is not one of the formats that can be imported (camt.053, camt.052, camt.054, MT940, MT942, BAI2, OFX or CSV). Check that it is the statement file the bank gave you.',
  'imports.encodingUnknown': () =>
    'The encoding chosen is not one the service reads. Leave the encoding empty to have it detected, or choose UTF-8 or Windows-1252.',
  'imports.fileTooLarge': () => 'The file is too large to import in one go. Split the statement into several files and import each.',
  'imports.fileRefused': (problem) =>
    `The file could not be imported, nothing of it was kept: ${firstDetail(problem) ?? after(problem.message) ?? 'it does not follow its format'}.`,
  'imports.importRefused': (problem) => `The file was not imported, nothing of it was kept: ${after(problem.message, 'was stored: ') ?? 'check the mapping'}.`,
  'imports.importMappingFailed': (problem) =>
    `The file was not imported, nothing of it was kept: ${firstDetail(problem) ?? 'the mapping does not fit the file'}. Correct the mapping, then import again.`,
  'imports.replayedImportFailed': (problem) => `The file was not imported, nothing of it was kept: ${firstDetail(problem) ?? 'the import failed'}.`,
  'imports.mappingInvalid': (problem) =>
    `The CSV mapping does not fit this dataset: ${firstDetail(problem) ?? 'check it'}. Correct the mapping, then import again.`,
  'imports.mappingRequired': () =>
    'This CSV file needs a mapping: its header does not name the dataset’s columns. Use the proposed mapping, or write one, then import again.',
  'imports.otherAccount': (problem) => {
    const accounts = /account (\S+) \(line \d+\), but the dataset "(.*)" holds the statements of account (\S+)\./.exec(problem.message);
    return accounts
      ? `The file is a statement of account ${accounts[1]}, but the dataset ${accounts[2]} holds the statements of account ${accounts[3]}. Import it into the dataset of that account, or import it here anyway.`
      : 'The file is a statement of another account than this dataset’s. Import it into the dataset of that account, or import it here anyway.';
  },
  'imports.interrupted': () => 'The import was interrupted and nothing of the file was kept. Import the file again.',

  'closeReports.amountTooLongForSpreadsheet': () =>
    'An amount of this statement is too long for a spreadsheet to hold exactly. Download the statement as PDF, or its items as CSV, instead.',
  'journalEntries.reasonsNotMapped': () =>
    'Some adjustments of this period have no ledger account to be posted to. Map each adjustment reason (bank charges, exchange differences, rounding, write-off) to a ledger account on the reconciliation, then propose the journal entries again.',
  'journalEntries.cashAccountNotMapped': () =>
    'The reconciliation names no ledger account for its bank account. Set it on the reconciliation, then propose the journal entries again.',
  'closedPeriods.periodClosed': (problem) => {
    const closed = /([^:]+ is closed \((?:approved[^)]*)\)): (\d+ (?:transactions? (?:is|are)|rows? of the file (?:is|are))) dated in it/.exec(problem.message);
    return closed
      ? `${closed[1]!.trim()}, and ${closed[2]} dated in it. Nothing in a closed period can be changed, so nothing was done. An Administrator can reopen the period with a reason.`
      : 'This touches a closed period, where nothing can be changed, so nothing was done. An Administrator can reopen the period with a reason.';
  },
  // Month-end close: reconciliations and the sign-off of their periods.
  'close.datasetNotFound': () => 'One of the accounts chosen no longer exists. Reload the page and choose again.',
  'close.datasetOnBothSides': () => 'An account is chosen on both sides. Choose each account for the bank or for the ledger, not both.',
  'close.datasetCurrencyDiffers': (problem) =>
    `${asSentence(firstDetail(problem) ?? 'An account holds another currency')} Choose accounts of the reconciliation's currency.`,
  'close.datasetInOtherReconciliation': (problem) => asSentence(cleaned(problem.message) ?? 'This account belongs to another reconciliation already'),
  'close.ruleNotFound': () => 'One of the rules chosen no longer exists. Reload the page and choose again.',
  'close.nameTaken': () => 'A reconciliation of this name exists already. Choose another name.',
  'close.periodEndInvalid': () => 'This date is not the last day of a period of this reconciliation. Choose a period from the list.',
  'close.periodBeforeOpening': () => "This period begins before the ledger's opening balance. Choose a later period.",
  'close.periodEndsOnOpening': () => 'This period ends on the day the ledger opens, so there is nothing to close in it. Choose a later period.',
  'close.signedFiguresWouldChange': () =>
    'This change would alter the figures of a period that is approved and closed. An Administrator must reopen that period first, with a reason. The name, the rules and the accounts can be changed at any time.',
  'close.otherCurrencyRows': (problem) =>
    asSentence(cleaned(problem.message) ?? 'Some transactions of these accounts are in another currency, and a statement is of one currency'),
  'close.differenceNotZero': (problem) =>
    asSentence(cleaned(problem.message) ?? 'The unexplained difference is not 0.00; explain it before preparing the period'),
  'close.periodNotOpen': () => 'This period has been prepared already. Reload the page to see who signed it.',
  'close.periodNotPrepared': () => 'Only a prepared period can be approved. Reload the page to see where it stands.',
  'close.periodNotSigned': () => 'This period is open already. There is nothing to reopen.',
  'close.preparerCannotApprove': () => 'You prepared this period, so another person must approve it: an Administrator or a Reviewer.',
  'close.approverRoleNeeded': () => 'Only an Administrator or a Reviewer may approve a period.',
  'close.reopenNeedsAdministrator': () => 'Only an Administrator may reopen a period.',
  'close.reconciliationArchived': () => 'This reconciliation is archived. Restore it before signing its periods.',

  // Connections: SFTP servers and folders whose files are picked up (the connections screen). The
  // server also records some of these as a connection's last error and a run's error (connections.ts).
  'connections.encryptionKeyMissing': () =>
    'SFTP connections cannot be added until the operator of this installation sets the key that seals their passwords and private keys (SECRET_ENCRYPTION_KEY). Ask the operator to set it; a folder connection works without it.',
  'connections.folderRootMissing': () =>
    'Folder connections cannot be added until the operator of this installation names the directory they may read (CONNECTOR_FOLDER_ROOT). Ask the operator to set it.',
  'connections.folderOutsideRoot': () => 'This folder is outside the directory the operator allows connections to read. Choose a folder inside it.',
  'connections.folderMissing': () => 'There is no folder of this name that the service can read. Create it, or check its name.',
  'connections.folderGone': () =>
    "The connection's folder is gone or cannot be read. Check that it still exists, or give the connection the folder where the files are now.",
  'connections.privateKeyInvalid': (problem) => {
    const why = /\((.*)\);/.exec(firstDetailText(problem) ?? '')?.[1];
    const because = why === undefined ? null : cleaned(why);
    return `This is not a private key the service can use${because ? ` (${because})` : ''}. Paste an OpenSSH or PEM private key without a passphrase, or let the service generate a key.`;
  },
  'connections.credentialsOfOtherMethod': () => 'The sign-in chosen does not use what was sent with it. Choose how the service signs in again, then save.',
  'connections.credentialMissing': (problem) =>
    problem.details[0]?.path.endsWith('password') ? 'Enter the password the bank gave.' : 'Paste the private key the service signs in with.',
  'connections.fieldOfOtherKind': () =>
    'A folder connection has no server, user or password, and an SFTP connection has no folder. Choose the kind of connection again, then save.',
  'connections.fieldMissing': (problem) => {
    const field = problem.details[0]?.path ?? '';
    if (field.endsWith('host')) return "Enter the server's host name, as the bank gave it.";
    if (field.endsWith('username')) return 'Enter the user name the bank gave.';
    if (field.endsWith('folderPath')) return 'Enter the folder the files are put in.';
    return 'Choose how the service signs in: a key it generates, a private key you paste, or a password.';
  },
  'connections.datasetOrRouting': () => 'Choose where the files go: into one dataset, or each statement into the dataset of its account.',
  'connections.archivePathNeeded': () => 'Name the archive folder the files are moved to after their import.',
  'connections.patternInvalid': () =>
    'File names are a name pattern such as *.xml or camt053_*.xml, without a slash or two dots. Put the folder in the folder field.',
  'connections.pickupFolderMissing': (problem) =>
    problem.details[0]?.path === '/archivePath'
      ? "The archive folder is not a folder inside the connection's folder. Create it there first, or check its name."
      : "The folder is not a folder inside the connection's folder. Create it there first, or check its name (/ is the connection's folder itself).",
  'connections.pathInvalid': () => 'A folder is a path on the server, without two dots in a row or control characters. Check it.',
  'connections.hostKeyNotConfirmed': () =>
    "The server's host key has not been confirmed yet, so nothing is sent to the server. Test the connection, check the fingerprint it shows with the bank, and confirm it.",
  'connections.hostKeyChanged': (problem) => {
    const keys = /it was (SHA256:\S+) and is now (SHA256:\S+?)\./.exec(problem.message);
    const which = keys && fitForPeople(`${keys[1]} ${keys[2]}`) ? ` It was ${keys[1]} and is now ${keys[2]}.` : '';
    return `Stop: the server's host key has changed, so the service sent it nothing.${which} This is what a server pretending to be the bank's would look like. Ask the bank whether they changed their key, and confirm the new fingerprint only if they did.`;
  },
  'connections.fingerprintInvalid': () =>
    'This is not a fingerprint as the connection test shows it. Test the connection again, and confirm the fingerprint it shows.',
  'connections.fingerprintNotSeen': () =>
    'This is not the fingerprint the last connection test showed, so it was not trusted. Test the connection again and trust the fingerprint it shows, once the bank has confirmed it.',
  'connections.fileTooLarge': (problem) => {
    const sizes = /the file is (?:larger than|([\d.]+ (?:bytes|KB|MB|GB|TB)), more than) ([\d.]+ (?:bytes|KB|MB|GB|TB)), the most an import takes/.exec(
      problem.message,
    );
    const size = sizes
      ? `The file is ${sizes[1] ? `${sizes[1]}, more than` : 'larger than'} ${sizes[2]}, the most an import takes`
      : 'The file is larger than an import takes';
    return `${size}, so it was not imported; it is not tried again while its name, size and time stay the same. Ask the sender to split it into smaller files, or the operator of this installation to raise the import size limit (IMPORT_MAX_BYTES).`;
  },
  'connections.scheduleBoth': () => 'Choose one schedule for the pickup: every so many minutes, or at times of day, not both.',
  'connections.scheduleMissing': () => 'Choose when the folder is looked at: every so many minutes, or at times of day such as 06:00 and 14:30.',
  'connections.timeZoneMissing': () => 'Choose the time zone the times of day are read in, such as Europe/Berlin.',
  'connections.timeZoneWithoutTimes': () =>
    'A time zone goes with times of day only. Enter the times of day the folder is looked at, or choose every so many minutes.',
  'connections.timeZoneUnknown': () => 'This time zone is not one the service knows. Choose a time zone from the list, such as Europe/Berlin.',
  'connections.datasetNotFound': () => 'The dataset chosen no longer exists: someone may have deleted it. Reload the page and choose again.',
  'connections.connectionsLimit': () => 'This organization has as many connections as it may have. Delete one it no longer uses first.',
  'connections.pickupsLimit': () => 'This connection has as many pickups as it may have. Delete one it no longer needs first.',
  'connections.unreachable': (problem) => {
    const why = after(problem.message.replace(/; check the host and port.*$/, ''));
    return `The server could not be reached${why ? ` (${why})` : ''}. Check the host and port, and that the bank's server lets this service's address in.`;
  },
  'connections.loginRefused': () =>
    'The server refused the login. Check the user name, and that the bank has installed the public key (or that the password is right).',
  'connections.remoteProblem': (problem) =>
    `The server answered with an error: ${after(problem.message) ?? 'it refused what was asked'}. Check the folder of the pickup.`,
  'connections.folderProblem': (problem) => asSentence(`The folder could not be used: ${after(problem.message) ?? 'the system refused it'}`),
};

/**
 * Names of the catalogue the app cannot meet, each with the reason; a new name of the catalogue is
 * either translated above or listed here, or the test of this table fails.
 */
export const NOT_MET_BY_THE_APP: Record<string, string> = {};

/** The first problems of an error, each as a sentence that starts with its field in words. */
function detailSentences(problem: ApiProblem): string[] {
  return problem.details
    .slice(0, 3)
    .map((detail) => cleaned(detail.path ? `${capitalised(pointerInWords(detail.path))}: ${detail.message}` : detail.message))
    .filter((part): part is string => part !== null)
    .map(asSentence);
}

/** Several fields wrong at once, each by its words. */
function fieldProblems(problem: ApiProblem): string {
  const parts = detailSentences(problem);
  return parts.length === 0 ? 'Some of what was entered is not valid. Check the form and try again.' : parts.join(' ');
}

/** A rule refused: its first problems, each with the field in words. */
function ruleProblems(problem: ApiProblem): string {
  const parts = detailSentences(problem);
  const more = problem.details.length > 3 ? ` And ${problem.details.length - 3} more.` : '';
  return `The rule was not saved. ${parts.length === 0 ? 'It is not a valid rule.' : parts.join(' ')}${more}`;
}

/** By status, for a message the catalogue does not name (its words come from where it happened). */
function byStatus(problem: ApiProblem): string {
  const words = cleaned(problem.message);
  switch (problem.code) {
    case 0:
      return 'The server could not be reached. Check your connection, then try again.';
    case 401:
      return 'Your session has ended. Sign in again to continue.';
    case 403:
      return 'Your role does not allow this. Ask an Administrator to do it, or to give you a role that can.';
    case 404: {
      const thing = THINGS.find((candidate) => new RegExp(`^${candidate} `, 'i').test(problem.message));
      return `${thing ? `This ${thing}` : 'What you asked for'} no longer exists: someone may have deleted it. Reload the page to see what is there now.`;
    }
    case 413:
      return 'The file is too large to import in one go. Split it into several files and import each.';
    case 429:
      return `Too many requests at once. Try again in ${waitFor(problem)}.`;
    case 503:
      return `The server is busy and did not do this. Try again in ${waitFor(problem, 5)}.`;
    case 504:
      return 'This took too long. Narrow the search (fewer days, or a smaller range of amounts) and try again.';
    default:
      if (problem.code >= 500) return 'Something went wrong on the server, and nothing was changed. Try again; if it happens again, tell an Administrator.';
      if (problem.details.length > 0 && (words === null || problem.message.startsWith('invalid request'))) return fieldProblems(problem);
      return words === null ? 'This could not be done as asked. Check what you entered and try again.' : asSentence(words);
  }
}

/** The words for an error of the API, by its catalogue name when it has one, else by its status. */
export function describeProblem(problem: ApiProblem): string {
  const translate = problem.messageId === undefined ? undefined : TRANSLATIONS[problem.messageId];
  const text = translate ? translate(problem) : byStatus(problem);
  // A last guard: a translation built from the server's words falls back to the status's words.
  return fitForPeople(text) ? text : byStatus({ ...problem, message: '', details: [] });
}

/** A person-readable message of any error: the API's, a network failure, or the app's own. */
export function messageOf(error: unknown): string {
  if (error instanceof LedgerReconError) {
    // The token endpoint's errors (a session that ended) come in the OAuth form.
    if (error.error === 'invalid_grant' || error.error === 'invalid_client') return 'Your session has ended. Sign in again to continue.';
    return describeProblem(error);
  }
  const text = error instanceof Error ? error.message : String(error);
  return asSentence(cleaned(text) ?? 'Something went wrong. Reload the page and try again');
}

/**
 * A problem the server words outside an error answer (an import's report, a run that failed),
 * cleaned for a person; `fallback` when nothing of it is fit to show.
 */
export function problemInWords(text: string, fallback: string): string {
  return asSentence(cleaned(text) ?? fallback);
}
