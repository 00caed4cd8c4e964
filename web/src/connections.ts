import { useQuery } from '@tanstack/react-query';
import type { Connection, ConnectionTest, PickupFile, PickupRun } from '@ledger-recon/sdk';
import { asSentence, fitForPeople, problemInWords, TRANSLATIONS } from './messages.ts';
import { useSecondaryRequestsAllowed, useSession } from './session.tsx';

/**
 * The organization's connections (SFTP servers and folders whose files are picked up, docs/CONNECTIONS.md)
 * as the connections page and the dashboard read them, and what the server says of them in words.
 * Kept apart from the page's code so that the dashboard can flag a failing connection without
 * loading the page.
 */

export const CONNECTIONS_KEY = ['connections'];

/** A connection failing this long is flagged on the dashboard. */
export const FLAGGED_AFTER_MILLISECONDS = 24 * 3_600_000;

/**
 * The connections, read by Administrators only (a connection holds credentials: the API answers
 * no one else). The dashboard passes `secondary`: its flag can come a moment after the figures;
 * a screen that needs them only for some rows passes `needed`.
 */
export function useConnections({ secondary = false, needed = true }: { secondary?: boolean; needed?: boolean } = {}) {
  const { session, recon } = useSession();
  const allowed = useSecondaryRequestsAllowed();
  return useQuery({
    queryKey: CONNECTIONS_KEY,
    queryFn: () => recon.connections.list(),
    enabled: needed && session.user.role === 'Administrator' && (!secondary || allowed),
  });
}

/** Whether every run of the connection has failed for more than a day. */
export function failingForADay(connection: Connection, now = Date.now()): boolean {
  return connection.failingSince !== null && now - Date.parse(connection.failingSince) > FLAGGED_AFTER_MILLISECONDS;
}

/** Where a connection's card is, for links from other screens (the dashboard's flag). */
export function connectionAnchor(connectionId: string): string {
  return `connection-${connectionId}`;
}

/**
 * The catalogue's messages that the server also records as words (a connection's last error, a
 * run's error, a test's finding), known by how they start, so that they read as the same
 * message does when a request meets it.
 */
const RECORDED_MESSAGES: [string, string][] = [
  ["the server's host key has not been confirmed", 'connections.hostKeyNotConfirmed'],
  ["the server's host key has changed", 'connections.hostKeyChanged'],
  ['the server could not be reached', 'connections.unreachable'],
  ['the server refused the login', 'connections.loginRefused'],
  ['the server answered with an error', 'connections.remoteProblem'],
  ['the folder could not be used', 'connections.folderProblem'],
  ["the connection's folder is gone", 'connections.folderGone'],
  ['SFTP connections cannot be made', 'connections.encryptionKeyMissing'],
  ['folder connections cannot be made', 'connections.folderRootMissing'],
];

/**
 * What the server recorded of a connection's failure, in the app's words, with what to do. A
 * folder name the person gave stays as they wrote it; anything holding an id or a route is
 * cleaned.
 */
export function connectionProblemInWords(text: string): string {
  const known = RECORDED_MESSAGES.find(([start]) => text.startsWith(start));
  const translate = known ? TRANSLATIONS[known[1]] : undefined;
  if (translate) {
    const words = translate({ code: 409, message: text, messageId: known![1], details: [] });
    if (fitForPeople(words)) return words;
  }
  return serverWords(text, 'The connection failed. Test it to see what is wrong.');
}

/** A file's message that the catalogue words (a file over the import size limit), by how it starts. */
const RECORDED_FILE_MESSAGES: [RegExp, string][] = [[/^the file is .*the most an import takes/, 'connections.fileTooLarge']];

/** Whether a run's file was refused for its size (it is not fetched again while it stays the same). */
export function fileTooLarge(file: PickupFile): boolean {
  return file.outcome === 'failed' && file.message !== null && RECORDED_FILE_MESSAGES[0]![0].test(file.message);
}

/** What the server recorded of a file of a run (held, failed), in the app's words when the catalogue words it. */
export function fileProblemInWords(text: string, fallback: string): string {
  const known = RECORDED_FILE_MESSAGES.find(([start]) => start.test(text));
  const translate = known ? TRANSLATIONS[known[1]] : undefined;
  if (translate) {
    const words = translate({ code: 413, message: text, messageId: known![1], details: [] });
    if (fitForPeople(words)) return words;
  }
  return serverWords(text, fallback);
}

/** Words the server wrote for a person (a held file's reason, a failed import's error), as a sentence. */
export function serverWords(text: string, fallback: string): string {
  return fitForPeople(text) ? asSentence(text) : problemInWords(text, fallback);
}

/** What a connection test found, as a sentence. */
export function testInWords(test: ConnectionTest, kind: 'sftp' | 'folder' = 'sftp'): string {
  if (test.ok && kind === 'folder') return "The connection works: the service can read the connection's folder, and the folder of every pickup it has.";
  if (test.ok) return 'The connection works: the service signed in and read the folder of every pickup it has.';
  if (test.hostKeyStatus === 'unconfirmed' && test.hostKeyFingerprint !== null && test.message.startsWith("the server's host key is ")) {
    return 'The server answered, but its host key is not confirmed yet, so nothing was sent to it: no password, no key.';
  }
  return connectionProblemInWords(test.message);
}

/** A run's state in words. */
export function runStatusInWords(run: PickupRun): string {
  switch (run.status) {
    case 'queued':
      return 'Waiting to start';
    case 'running':
      return 'Running';
    case 'completed':
      return run.files.length === 0 ? 'Done: no file fits the pattern' : 'Done';
    case 'failed':
      return 'Failed';
    case 'skipped':
      return 'Skipped: another run of this pickup was going on, and it takes the files';
  }
}

/** What a file's outcome is called. */
export const OUTCOME_WORDS: Record<PickupFile['outcome'], string> = {
  imported: 'Imported',
  already_imported: 'Already imported',
  held: 'Held',
  failed: 'Failed',
  waiting: 'Waiting',
};

/** What became of an imported file afterwards. */
export function afterImportInWords(file: PickupFile, archivePath: string | null): string | null {
  if (file.afterImport === 'left') return 'left where it was';
  if (file.afterImport === 'moved') return archivePath === null ? 'moved to the archive folder' : `moved to the archive folder ${archivePath}`;
  if (file.afterImport === 'deleted') return 'deleted from the folder';
  return null;
}

/** A run's counts, "2 imported, 1 held". */
export function runCounts(run: PickupRun): string {
  const counts = new Map<string, number>();
  for (const file of run.files) counts.set(file.outcome, (counts.get(file.outcome) ?? 0) + 1);
  return [...counts.entries()].map(([outcome, count]) => `${count} ${OUTCOME_WORDS[outcome as PickupFile['outcome']].toLowerCase()}`).join(', ');
}

/** Files in a size a person reads: "1.2 KB". */
export function sizeInWords(bytes: number): string {
  if (bytes < 1024) return `${bytes} ${bytes === 1 ? 'byte' : 'bytes'}`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KB`;
  return `${(bytes / 1024 / 1024).toFixed(1)} MB`;
}

/** A pickup's schedule in words: "every 15 minutes", or "at 06:00 and 14:30 (Europe/Berlin time)". */
export function scheduleInWords(pickup: { intervalMinutes: number | null; timesOfDay: string[] | null; timeZone: string | null }): string {
  if (pickup.intervalMinutes !== null) return intervalInWords(pickup.intervalMinutes);
  const times = pickup.timesOfDay ?? [];
  const listed = times.length > 1 ? `${times.slice(0, -1).join(', ')} and ${times.at(-1)}` : (times[0] ?? '');
  return `at ${listed} (${(pickup.timeZone ?? 'UTC').replace(/_/g, ' ')} time)`;
}

/**
 * When a pickup at times of day looks next, on the clock of its own zone ("Nov 28, 14:30"), so
 * that it reads as one of the times the schedule names; null for a pickup every N minutes.
 */
export function nextLookInItsZone(pickup: { timesOfDay: string[] | null; timeZone: string | null; nextRunAt: string }): string | null {
  if (pickup.timesOfDay === null || pickup.timeZone === null) return null;
  try {
    return new Intl.DateTimeFormat(undefined, {
      month: 'short',
      day: 'numeric',
      hour: '2-digit',
      minute: '2-digit',
      hourCycle: 'h23',
      timeZone: pickup.timeZone,
    }).format(new Date(pickup.nextRunAt));
  } catch {
    return null;
  }
}

/** What a ready marker means, for a pickup's card: "a file is taken once a file of its name followed by .done is beside it". */
export function readyMarkerInWords(marker: string): string {
  return `a file is taken once the sender puts a file of its name followed by ${marker} beside it (statement.xml waits for statement.xml${marker})`;
}

/** The time zones a person can choose from (the browser's list, with UTC), and the browser's own. */
export function timeZones(): string[] {
  const listed = typeof Intl.supportedValuesOf === 'function' ? Intl.supportedValuesOf('timeZone') : [];
  return listed.includes('UTC') ? listed : ['UTC', ...listed];
}

export function browserTimeZone(): string {
  return Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';
}

/** "every 15 minutes", "every hour", "every 2 hours", "every day". */
export function intervalInWords(minutes: number): string {
  if (minutes % 1440 === 0) return minutes === 1440 ? 'every day' : `every ${minutes / 1440} days`;
  if (minutes % 60 === 0) return minutes === 60 ? 'every hour' : `every ${minutes / 60} hours`;
  return minutes === 1 ? 'every minute' : `every ${minutes} minutes`;
}
