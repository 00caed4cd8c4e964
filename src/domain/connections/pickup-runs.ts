import { randomUUID } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Database } from '../../db/database.ts';
import { findImportMapping } from '../../db/repositories/imports.ts';
import {
  datasetExists,
  datasetsWithAccounts,
  findConnection,
  findImportOfContent,
  findPickup,
  findAbandonedPickupRuns,
  findPickupRun,
  finishPickupRun,
  findSettledFile,
  holdPickup,
  markListedTooLarge,
  readListing,
  recordConnectionFailure,
  recordConnectionSuccess,
  recordSettledFile,
  releasePickup,
  saveListing,
  startPickupRun,
  lockDuePickups,
  setNextRun,
  type ConnectionRow,
  type Listing,
  type PickupFileOutcome,
  type PickupRow,
} from '../../db/repositories/connections.ts';
import { AppError, connectionErrors } from '../../errors.ts';
import type { WriteContext } from '../audit.ts';
import type { Clock } from '../clock.ts';
import { accountIdOf } from '../identifiers.ts';
import { JobInterrupted, RetryJobLater, type JobQueue } from '../jobs/job-queue.ts';
import { accountForPeople, statementAccountsOf } from '../imports/importer.ts';
import type { Imports } from '../imports/imports.ts';
import { fileFromPath } from '../imports/spooled-file.ts';
import { IMPORT_FORMATS, type ImportFormat } from '../imports/statement-entries.ts';
import { PICKUP_RUN_JOB, type Connections } from './connections.ts';
import { patternToRegExp, type FileSource, type ListedFile } from './file-sources.ts';
import { nextRunAfter } from './schedules.ts';

/** The recurring job that queues the runs of pickups that are due. */
export const PICKUP_SCHEDULE_JOB = 'pickup-schedule';
/** How often each process looks for due pickups. */
const SCHEDULE_CHECK_SECONDS = 60;
/** Pickups queued per look. */
const DUE_PER_CHECK = 500;
/** When a pickup's next time cannot be computed (its zone unknown to this runtime), it looks again after this. */
const UNKNOWN_ZONE_RETRY_MILLISECONDS = 60 * 60 * 1000;

export interface PickupRunSettings {
  importMaxBytes: number;
  /** Seconds to wait to list a new or changed file again in the same run; 0: the next run looks again. */
  settleSeconds: number;
  /** How long a run holds its pickup between two files; renewed file by file. */
  holdSeconds: number;
}

/**
 * Runs pickups (docs/CONNECTIONS.md): each run is a job of the queue that lists the pickup's
 * folder, takes the files whose size and modification time held still between two listings,
 * imports each through the import pipeline, and records every file seen with what became of it.
 *
 * Exactly once: a pickup is held by one run at a time (whichever process runs it); the bytes of
 * a file settled by the pickup are not imported again under any name (pickup_files), nor are
 * bytes the organization already imported (imports.sha256), which also covers a run that died
 * between an import's commit and its record; and the import itself is all-or-nothing, with the
 * identity of its entries making a repeated statement add nothing.
 */
export class PickupRuns {
  constructor(
    private readonly database: Database,
    private readonly jobs: JobQueue,
    private readonly connections: Connections,
    private readonly imports: Imports,
    private readonly settings: PickupRunSettings,
    private readonly clock: Clock,
    private readonly sleep: (milliseconds: number, signal: AbortSignal) => Promise<void> = abortableSleep,
  ) {
    jobs.register(PICKUP_RUN_JOB, (job, context) => this.execute(String(job.organizationId), String(job.payload.runId), context.signal), { maxAttempts: 3 });
    jobs.registerRecurring(PICKUP_SCHEDULE_JOB, () => this.queueDue().then(() => {}), { intervalSeconds: SCHEDULE_CHECK_SECONDS });
  }

  /** Queues a run of every pickup due now, each once whatever the number of processes looking. Answers how many. */
  async queueDue(): Promise<number> {
    const now = this.clock.now();
    const queued = await this.database.transaction(async (transaction) => {
      const due = await lockDuePickups(transaction, new Date(now).toISOString(), DUE_PER_CHECK);
      for (const pickup of due) {
        // A zone the runtime's time zone data no longer knows gives no next time (Intl refuses it):
        // such a pickup looks again in an hour rather than stopping this check for every organization.
        const nextAt = nextRunOrRetry(pickup, now);
        await setNextRun(transaction, pickup.organizationId, pickup.id, new Date(nextAt).toISOString());
        await this.connections.queueRun(transaction, pickup.organizationId, pickup.id, pickup.connectionId, 'schedule');
      }
      return due.length;
    });
    if (queued > 0) this.jobs.wake();
    await this.#endAbandonedRuns();
    return queued;
  }

  /**
   * A run whose job ended without it (interrupted more times than a job may be, or given up while
   * another process held its pickup) would show as running for ever and keep "run now" waiting:
   * it is ended as failed, its files left for the next run.
   */
  async #endAbandonedRuns(): Promise<void> {
    for (const run of await findAbandonedPickupRuns(this.database, PICKUP_RUN_JOB, DUE_PER_CHECK)) {
      await finishPickupRun(this.database, run.organizationId, run.id, {
        status: 'failed',
        files: [],
        error: 'the run was interrupted too many times and was given up; the next run takes its files',
      });
    }
  }

  async execute(organizationId: string, runId: string, signal: AbortSignal): Promise<void> {
    const run = await findPickupRun(this.database, organizationId, runId);
    if (!run || (run.status !== 'queued' && run.status !== 'running')) return;
    const pickup = await findPickup(this.database, organizationId, run.connectionId, run.pickupId);
    const connection = await findConnection(this.database, organizationId, run.connectionId);
    if (!pickup || !connection) {
      await finishPickupRun(this.database, organizationId, runId, { status: 'skipped', files: [], error: 'the pickup was deleted' });
      return;
    }
    const token = randomUUID();
    const hold = await holdPickup(this.database, organizationId, pickup.id, { runId, token, seconds: this.settings.holdSeconds });
    if (!hold.held) {
      // This very run, executed elsewhere (a process that stalled past its job's lease, or died):
      // tried again once that hold has passed, never two executions of one run at once.
      if (hold.byRun === runId) throw new RetryJobLater('this run is being executed by another process', this.settings.holdSeconds);
      await finishPickupRun(this.database, organizationId, runId, {
        status: 'skipped',
        files: [],
        error: 'another run of this pickup was going on; it takes the files',
      });
      return;
    }
    // The hold is renewed while the run goes on, a long import included (and file by file below).
    const renewal = setInterval(
      () => void holdPickup(this.database, organizationId, pickup.id, { runId, token, seconds: this.settings.holdSeconds }).catch(() => {}),
      (this.settings.holdSeconds * 1000) / 3,
    );
    renewal.unref();
    const files: PickupFileOutcome[] = [];
    let source: FileSource | null = null;
    try {
      await startPickupRun(this.database, organizationId, runId);
      source = await this.connections.open(organizationId, connection);
      await this.#pick(organizationId, { runId, token }, connection, pickup, source, files, signal);
      await recordConnectionSuccess(this.database, organizationId, connection.id);
      await finishPickupRun(this.database, organizationId, runId, { status: 'completed', files, error: null });
    } catch (error) {
      // A stopping process: the job is taken again, and the run with it.
      if (signal.aborted || error instanceof JobInterrupted) throw error;
      const message = error instanceof AppError ? error.message : 'the pickup stopped on an unexpected error; it is tried again at its next run';
      // The run is over and recorded; the schedule tries again, later the more the connection fails.
      await recordConnectionFailure(this.database, organizationId, connection.id, message);
      await finishPickupRun(this.database, organizationId, runId, { status: 'failed', files, error: message });
      if (!(error instanceof AppError)) throw error;
    } finally {
      clearInterval(renewal);
      await source?.close();
      await releasePickup(this.database, organizationId, pickup.id, token).catch(() => {});
    }
  }

  async #pick(
    organizationId: string,
    hold: { runId: string; token: string },
    connection: ConnectionRow,
    pickup: PickupRow,
    source: FileSource,
    files: PickupFileOutcome[],
    signal: AbortSignal,
  ): Promise<void> {
    const pattern = patternToRegExp(pickup.pattern);
    const marker = pickup.readyMarker;
    let names = new Set<string>();
    const listFiles = async () => {
      const all = await source.list(pickup.path);
      names = new Set(all.map((file) => file.name));
      // A marker is the bank's word that its file is complete, never a file to import.
      return all.filter((file) => pattern.test(file.name) && (marker === null || !file.name.endsWith(marker)));
    };
    const previous = await readListing(this.database, organizationId, pickup.id);
    let listed = await listFiles();
    const still = (file: ListedFile, earlier: Listing[string] | undefined) =>
      earlier !== undefined && earlier.size === file.size && earlier.mtime === file.mtime;
    let ready: ListedFile[];
    if (marker !== null) ready = listed.filter((file) => names.has(`${file.name}${marker}`));
    else {
      ready = listed.filter((file) => still(file, previous[file.name]));
      if (ready.length < listed.length && this.settings.settleSeconds > 0) {
        // New or changed since the last run: looked at again after a while, in this run.
        const first: Listing = Object.fromEntries(listed.map((file) => [file.name, { size: file.size, mtime: file.mtime }]));
        await this.sleep(this.settings.settleSeconds * 1000, signal);
        listed = await listFiles();
        ready = listed.filter((file) => still(file, previous[file.name]) || still(file, first[file.name]));
      }
    }
    // A file found over the size limit stays known as such while its size and time stay the same.
    const tooLarge = (file: ListedFile) => still(file, previous[file.name]) && previous[file.name]!.tooLarge === true;
    await saveListing(
      this.database,
      organizationId,
      pickup.id,
      Object.fromEntries(listed.map((file) => [file.name, { size: file.size, mtime: file.mtime, ...(tooLarge(file) ? { tooLarge: true as const } : {}) }])),
    );
    const readyNames = new Set(ready.map((file) => file.name));
    for (const file of listed.filter((candidate) => !readyNames.has(candidate.name)).sort(byName)) {
      files.push(
        outcome(file, 'waiting', {
          message:
            marker !== null
              ? `the file is taken once the marker ${file.name}${marker} is beside it, which the sender puts there when the file is complete`
              : 'the file is new or still changing (its size or time changed since the last look); it is taken once it stays the same between two looks',
        }),
      );
    }
    const context: WriteContext = { organizationId, actor: `connection:${connection.id}`, requestId: null };
    const workspace = await mkdtemp(path.join(tmpdir(), 'pickup-'));
    try {
      for (const file of ready.sort(byName)) {
        if (signal.aborted) throw new JobInterrupted('the process is stopping');
        // Renewed file by file; a hold lost meanwhile (this process stalled) stops the run.
        if (!(await holdPickup(this.database, organizationId, pickup.id, { ...hold, seconds: this.settings.holdSeconds })).held) {
          throw new JobInterrupted('the pickup is held by another execution');
        }
        // Over the import size limit, as listed or as found by an earlier download: never fetched (again).
        if (file.size > this.settings.importMaxBytes || tooLarge(file)) {
          const tooLargeError = connectionErrors.fileTooLarge(file.size > this.settings.importMaxBytes ? file.size : null, this.settings.importMaxBytes);
          files.push(outcome(file, 'failed', { message: tooLargeError.message }));
          continue;
        }
        files.push(await this.#take(context, pickup, source, file, path.join(workspace, `${files.length}`), signal));
      }
    } finally {
      await rm(workspace, { recursive: true, force: true });
    }
  }

  /** Takes one file: identity, target, import, and what happens to it afterwards. */
  async #take(
    context: WriteContext,
    pickup: PickupRow,
    source: FileSource,
    listed: ListedFile,
    local: string,
    signal: AbortSignal,
  ): Promise<PickupFileOutcome> {
    const organizationId = context.organizationId;
    const remote = path.posix.join(pickup.path, listed.name);
    await source.download(remote, local);
    let file;
    try {
      file = await fileFromPath(local, this.settings.importMaxBytes);
    } catch (error) {
      if (!(error instanceof AppError)) throw error;
      if (error.kind !== 'payload_too_large') return outcome(listed, 'failed', { message: error.message });
      // Larger than the listing said (a server that lists sizes wrongly, a file still growing): remembered by name, size and time.
      await markListedTooLarge(this.database, organizationId, pickup.id, listed.name);
      return outcome(listed, 'failed', { message: connectionErrors.fileTooLarge(null, this.settings.importMaxBytes).message });
    }
    const settled = await findSettledFile(this.database, organizationId, pickup.id, file.sha256);
    if (settled?.outcome === 'failed') {
      return outcome(listed, 'failed', {
        importId: settled.importId,
        message: `the same contents failed to import before (as ${settled.fileName}), and are not tried again: ${settled.error ?? ''}`.trim(),
      });
    }
    // A file already imported by hand into another dataset is still owed to the pickup's own dataset.
    const earlier = settled ?? (await findImportOfContent(this.database, organizationId, file.sha256, pickup.routeByAccount ? null : pickup.datasetId));
    if (earlier) {
      if (!settled)
        await this.#settle(organizationId, pickup.id, file.sha256, { importId: earlier.importId, outcome: 'imported', error: null, fileName: listed.name });
      return outcome(listed, 'already_imported', { importId: earlier.importId, ...(await this.#afterImport(pickup, source, remote, signal)) });
    }
    const format = (IMPORT_FORMATS as readonly string[]).includes(pickup.format ?? '') ? (pickup.format as ImportFormat) : null;
    let datasetId = pickup.datasetId;
    if (pickup.routeByAccount) {
      let accounts: string[];
      try {
        accounts = (await statementAccountsOf(file, format)).accounts;
      } catch (error) {
        if (!(error instanceof AppError) && !(error instanceof Error && error.name === 'ImportFormatError')) throw error;
        const message = `the file could not be read to find its account: ${error.message}`;
        await this.#settle(organizationId, pickup.id, file.sha256, { importId: null, outcome: 'failed', error: message, fileName: listed.name });
        return outcome(listed, 'failed', { message });
      }
      const routed = await this.#route(organizationId, accounts);
      if ('held' in routed) return outcome(listed, 'held', { message: routed.held });
      datasetId = routed.datasetId;
    }
    // A target that cannot take the file now is the pickup's to mend, not the file's fault: held, and tried again next run.
    const unavailable = await this.#targetUnavailable(organizationId, pickup, datasetId!);
    if (unavailable !== null) return outcome(listed, 'held', { datasetId, message: unavailable });
    const importId = randomUUID();
    try {
      const imported = await this.imports.importNow(
        context,
        {
          datasetId: datasetId!,
          format,
          encoding: null,
          fileName: listed.name,
          mapping: null,
          mappingName: pickup.mappingName,
          importId,
          allowOtherAccount: false,
        },
        file,
      );
      await this.#settle(organizationId, pickup.id, file.sha256, { importId: imported.id, outcome: 'imported', error: null, fileName: listed.name });
      return outcome(listed, 'imported', { importId: imported.id, datasetId, ...(await this.#afterImport(pickup, source, remote, signal)) });
    } catch (error) {
      if (signal.aborted || !(error instanceof AppError)) throw error;
      // The service could not take the file now (the database busy, the process stopping): tried again next run.
      if (error.kind === 'service_unavailable' || error.kind === 'query_timeout') {
        return outcome(listed, 'failed', { datasetId, message: `${error.message}; the file is tried again at the next run` });
      }
      // The target changed under the import (its dataset or mapping went meanwhile): held, not the file's fault.
      const recordedId = (await this.imports.findIfExists(organizationId, importId)) ? importId : null;
      const unavailableNow = await this.#targetUnavailable(organizationId, pickup, datasetId!);
      if (unavailableNow !== null || error.kind === 'not_found') {
        return outcome(listed, 'held', { importId: recordedId, datasetId, message: unavailableNow ?? error.message });
      }
      // The file itself: recorded, so that the same bytes are not tried again and again.
      await this.#settle(organizationId, pickup.id, file.sha256, { importId: recordedId, outcome: 'failed', error: error.message, fileName: listed.name });
      return outcome(listed, 'failed', {
        importId: recordedId,
        datasetId,
        message: `${error.message}; the same contents are not tried again: mend the file (or the mapping) and put it back under any name`,
      });
    }
  }

  async #settle(organizationId: string, pickupId: string, sha256: string, file: Parameters<typeof recordSettledFile>[4]): Promise<void> {
    await recordSettledFile(this.database, organizationId, pickupId, sha256, file);
  }

  /**
   * Why the pickup's target cannot take a file now (its dataset gone, its CSV mapping not saved on
   * the dataset), in words that say what to mend; null when it can. Such a file is held, never
   * recorded as failed: once the target is mended, the next run imports it.
   */
  async #targetUnavailable(organizationId: string, pickup: PickupRow, datasetId: string): Promise<string | null> {
    if (!(await datasetExists(this.database, organizationId, datasetId))) {
      return "the pickup's dataset is not in the organization any more; choose the dataset its files go to, and the next run imports the file";
    }
    if (pickup.mappingName !== null && !(await findImportMapping(this.database, organizationId, datasetId, pickup.mappingName))) {
      return (
        `the dataset has no CSV mapping named ${JSON.stringify(pickup.mappingName)}; save a mapping under that name on the dataset (or change the ` +
        "pickup's mapping name), and the next run imports the file"
      );
    }
    return null;
  }

  /** The dataset of the statement's account, or why the file is held. */
  async #route(organizationId: string, accounts: readonly string[]): Promise<{ datasetId: string } | { held: string }> {
    if (accounts.length === 0) {
      return { held: 'the file names no account (a CSV file, or a statement without one), so routing by account cannot place it; import it by hand' };
    }
    if (accounts.length > 1) {
      return {
        held: `the file holds statements of ${accounts.length} accounts (${accounts.map(accountForPeople).join(', ')}); routing by account takes a file of one account`,
      };
    }
    const account = accounts[0]!;
    const datasets = (await datasetsWithAccounts(this.database, organizationId)).filter((dataset) => accountIdOf(dataset.accountId) === account);
    if (datasets.length === 0) {
      return {
        held: `no dataset has the account ${accountForPeople(account)}; name that account on the dataset its statements belong to, and the next run imports the file`,
      };
    }
    if (datasets.length > 1) {
      return {
        held: `${datasets.length} datasets have the account ${accountForPeople(account)} (${datasets.map((dataset) => dataset.name).join(', ')}); leave it on one`,
      };
    }
    return { datasetId: datasets[0]!.id };
  }

  /**
   * The after-import action of a file that is imported, and of its marker (after the file: a
   * marker left without its file is harmless, a file left without its marker would wait for it).
   * When it cannot be done (the archive folder missing, no right to delete), the file stays
   * imported and the outcome says why it stayed where it is; the next run finds it already
   * imported and tries the action again.
   */
  async #afterImport(pickup: PickupRow, source: FileSource, remote: string, signal: AbortSignal): Promise<Pick<PickupFileOutcome, 'afterImport' | 'message'>> {
    let afterImport: PickupFileOutcome['afterImport'];
    try {
      afterImport = await this.#after(pickup, source, remote);
    } catch (error) {
      if (signal.aborted || !(error instanceof AppError)) throw error;
      return { afterImport: null, message: `imported, but left where it is: ${error.message}` };
    }
    if (pickup.readyMarker !== null && afterImport !== 'left') {
      const marker = `${remote}${pickup.readyMarker}`;
      try {
        await this.#after(pickup, source, marker);
      } catch (error) {
        if (signal.aborted || !(error instanceof AppError)) throw error;
        return { afterImport, message: `imported and ${afterImport}, but its marker ${path.posix.basename(marker)} stayed: ${error.message}` };
      }
    }
    return { afterImport, message: null };
  }

  /** What the pickup does with a file once imported; the service deletes a file only when told to. */
  async #after(pickup: PickupRow, source: FileSource, remote: string): Promise<PickupFileOutcome['afterImport']> {
    if (pickup.afterImport === 'leave') return 'left';
    if (pickup.afterImport === 'delete') {
      await source.remove(remote);
      return 'deleted';
    }
    await source.move(remote, pickup.archivePath!);
    return 'moved';
  }
}

function outcome(
  file: ListedFile,
  kind: PickupFileOutcome['outcome'],
  details: Partial<Pick<PickupFileOutcome, 'importId' | 'datasetId' | 'message' | 'afterImport'>>,
): PickupFileOutcome {
  return {
    name: file.name,
    sizeBytes: file.size,
    outcome: kind,
    importId: details.importId ?? null,
    datasetId: details.datasetId ?? null,
    message: details.message ?? null,
    afterImport: details.afterImport ?? null,
  };
}

function byName(left: ListedFile, right: ListedFile): number {
  return left.name < right.name ? -1 : left.name > right.name ? 1 : 0;
}

function abortableSleep(milliseconds: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(resolve, milliseconds);
    signal.addEventListener(
      'abort',
      () => {
        clearTimeout(timer);
        reject(new JobInterrupted('the process is stopping'));
      },
      { once: true },
    );
  });
}

/** When a due pickup runs next; an hour on when its schedule gives no time (see queueDue). */
function nextRunOrRetry(pickup: Parameters<typeof nextRunAfter>[0] & { consecutiveFailures: number }, now: number): number {
  try {
    const next = nextRunAfter(pickup, now, pickup.consecutiveFailures);
    if (Number.isFinite(next)) return next;
  } catch {
    // RangeError: the time zone is unknown to this runtime.
  }
  return now + UNKNOWN_ZONE_RETRY_MILLISECONDS;
}
