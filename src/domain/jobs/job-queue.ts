import { createHash, randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import type { Database, Queryable } from '../../db/database.ts';
import {
  claimNextJob,
  completeJob,
  expireAllLeases,
  failJobAttempt,
  forgetKey,
  handOverJob,
  insertJob,
  queueRecurringJob,
  recordKeyOutcome,
  renewJobLease,
  type ClaimedJob,
  type JobRow,
  type KeyBackoff,
  type KeyOutcome,
} from '../../db/repositories/jobs.ts';

/**
 * The queue of long work (SPEC §12), kept in the database: asynchronous imports, rule runs and
 * webhook deliveries. Every server process runs one JobQueue; each takes jobs
 * with SKIP LOCKED, so two processes never take the same job, and holds a taken job by a lease
 * it renews while the job runs. When a process dies its leases run out and another process takes
 * the job again (or marks it failed after its last attempt).
 *
 * No PostgreSQL job-queue library was used: the maintained ones (pg-boss, graphile-worker) need
 * Node.js 22 and run only on a PostgreSQL server, and this queue must also run on the embedded
 * store; docs/ARCHITECTURE.md says more.
 */

export interface JobContext {
  /** Aborted when the process stops or the job is no longer this process's; a handler checks it between steps. */
  signal: AbortSignal;
  /**
   * Records how the attempt went for the job's concurrency key, so that a key whose attempts
   * fail backs off (paused, then one job at a time until a success) and one that fails or is slow
   * counts against troubledKeyConcurrency (see recordKeyOutcome in db/repositories/jobs.ts). A
   * quick success is recorded with the job's completion; nothing is recorded for a job without a key.
   */
  recordKeyOutcome(outcome: KeyOutcome, backoff: KeyBackoff): Promise<void>;
}

export type JobHandler = (job: JobRow, context: JobContext) => Promise<void>;

interface Registration {
  handler: JobHandler;
  maxAttempts: number;
  /** Seconds to wait before the given attempt (1-based) is retried. */
  retryDelaySeconds: (attempt: number) => number;
}

/** A failure that a retry cannot fix (a malformed file): the job fails at once. */
export class PermanentJobFailure extends Error {
  override name = 'PermanentJobFailure';
}

/** A failure to retry after a delay the handler chose (and recorded), instead of the registered schedule. */
export class RetryJobLater extends Error {
  override name = 'RetryJobLater';
  constructor(
    message: string,
    readonly delaySeconds: number,
  ) {
    super(message);
  }
}

/** Raised inside a handler whose signal was aborted by a stopping process; the job is queued again. */
export class JobInterrupted extends Error {
  override name = 'JobInterrupted';
}

/** How often each process checks whether a recurring job is due again. */
const RECURRING_CHECK_MILLISECONDS = 60_000;

interface Recurring {
  /** The job's one row: the same id in every process, derived from the kind. */
  id: string;
  kind: string;
  intervalSeconds: number;
}

export interface JobQueueOptions {
  /** How long a lease lasts; renewed every third of it while the job runs. */
  leaseSeconds?: number;
  /** How often an idle process looks for work. */
  pollMilliseconds?: number;
  /** Jobs one process runs at once. */
  concurrency?: number;
  /**
   * Jobs of one concurrency key (a webhook endpoint) running at once across all processes, so
   * that a slow key holds back only its own jobs; one for a key paused since its last success
   * (see recordKeyOutcome). Checked as a job is taken, without a lock, so two processes taking
   * jobs at the same moment can pass it by one each.
   */
  perKeyConcurrency?: number;
  /**
   * Jobs of one organization this process runs at once (unset: no limit), so that one
   * organization's backlog, however slow, leaves slots to the others. Jobs of an organization
   * that holds none of this process's slots are taken before those of one that does.
   */
  perOrganizationConcurrency?: number;
  /**
   * Jobs whose concurrency key is failing or slow that this process runs at once (unset: no
   * limit), so that such jobs never hold every slot and a healthy key always finds one.
   */
  troubledKeyConcurrency?: number;
  /** Called after each job this process ran, done or not (to wake another queue its work may feed). */
  afterEachJob?: () => void;
}

/** A job this process runs, with what the claim's limits count. */
interface RunningJob {
  controller: AbortController;
  organizationId: string | null;
  keyTroubled: boolean;
}

export class JobQueue {
  readonly processId = `${hostname()}:${process.pid}:${randomUUID().slice(0, 8)}`;
  readonly #registrations = new Map<string, Registration>();
  readonly #running = new Map<string, RunningJob>();
  readonly #recurring: Recurring[] = [];
  #recurringTimer: NodeJS.Timeout | null = null;
  readonly #leaseSeconds: number;
  readonly #pollMilliseconds: number;
  readonly #concurrency: number;
  readonly #perKeyConcurrency: number;
  readonly #perOrganizationConcurrency: number;
  readonly #troubledKeyConcurrency: number;
  readonly #afterEachJob: () => void;
  #timer: NodeJS.Timeout | null = null;
  #turn = 0;
  #polling = false;
  #pollAgain = false;
  #stopped = true;
  #idle: Promise<void> = Promise.resolve();

  constructor(
    private readonly database: Database,
    options: JobQueueOptions = {},
  ) {
    this.#leaseSeconds = options.leaseSeconds ?? 30;
    this.#pollMilliseconds = options.pollMilliseconds ?? 1000;
    this.#concurrency = options.concurrency ?? 2;
    this.#perKeyConcurrency = options.perKeyConcurrency ?? 4;
    this.#perOrganizationConcurrency = options.perOrganizationConcurrency ?? Number.POSITIVE_INFINITY;
    this.#troubledKeyConcurrency = options.troubledKeyConcurrency ?? Number.POSITIVE_INFINITY;
    this.#afterEachJob = options.afterEachJob ?? (() => {});
  }

  register(kind: string, handler: JobHandler, options: { maxAttempts?: number; retryDelaySeconds?: (attempt: number) => number } = {}): void {
    this.#registrations.set(kind, {
      handler,
      maxAttempts: options.maxAttempts ?? 3,
      retryDelaySeconds: options.retryDelaySeconds ?? ((attempt) => Math.min(3600, 5 * 2 ** (attempt - 1))),
    });
  }

  /**
   * Registers work to run every `intervalSeconds` on one process of all those sharing the
   * database (maintenance such as the retention sweep). The job has one row, with an id derived
   * from its kind; every running queue checks now and then whether its last run finished an
   * interval ago and queues it again if so (see queueRecurringJob). Like any job it is taken by one
   * process, held by a lease, and taken over when its process dies; a failed run is tried again
   * after the registered delays, and in any case at the next interval.
   */
  registerRecurring(kind: string, handler: JobHandler, options: { intervalSeconds: number; maxAttempts?: number }): void {
    this.register(kind, handler, { maxAttempts: options.maxAttempts });
    this.#recurring.push({ id: recurringJobId(kind), kind, intervalSeconds: options.intervalSeconds });
  }

  /**
   * Queues a job in the caller's transaction, so that it exists exactly when the change that
   * needs it commits. With `delaySeconds` it waits that long before it is taken. A job due now
   * wakes this process's queue as soon as the transaction commits, rather than at its next poll
   * (other processes find it at theirs).
   */
  async enqueue(
    transaction: Queryable,
    job: { organizationId: string | null; kind: string; payload: Record<string, unknown>; concurrencyKey?: string },
    options: { delaySeconds?: number } = {},
  ): Promise<string> {
    const registration = this.#registration(job.kind);
    const id = randomUUID();
    await insertJob(transaction, { id, ...job, maxAttempts: registration.maxAttempts, delaySeconds: options.delaySeconds ?? 0 });
    if (!options.delaySeconds) {
      if (transaction.afterCommit) transaction.afterCommit(() => this.wake());
      else this.wake();
    }
    return id;
  }

  /**
   * Queues a job in the caller's transaction that this process holds while it prepares the job's
   * input (an asynchronous import storing its file): the job is written running, under this
   * process's lease, and `prepare` keeps the lease and then hands the job to the queue. Should the
   * process die while preparing, the lease runs out within `leaseSeconds` and another process (or
   * this one, started again) takes the job, whose handler finds the input incomplete.
   */
  async enqueueHeld(transaction: Queryable, job: { organizationId: string | null; kind: string; payload: Record<string, unknown> }): Promise<string> {
    const registration = this.#registration(job.kind);
    const id = randomUUID();
    await insertJob(transaction, {
      id,
      ...job,
      maxAttempts: registration.maxAttempts,
      status: 'running',
      lockedBy: this.processId,
      leaseSeconds: this.#leaseSeconds,
    });
    return id;
  }

  /**
   * Runs `work` for a job queued with enqueueHeld, renewing its lease, and then queues the job,
   * due at once with all its attempts, whatever came of `work` (its handler judges the input).
   * Returns false when the job was no longer this process's to hand over (its lease ran out and
   * another process took it).
   */
  async prepare(jobId: string, work: () => Promise<void>): Promise<boolean> {
    const renewal = setInterval(
      () => void renewJobLease(this.database, jobId, this.processId, this.#leaseSeconds).catch(() => {}),
      (this.#leaseSeconds * 1000) / 3,
    );
    renewal.unref();
    let handedOver = false;
    try {
      await work();
    } finally {
      clearInterval(renewal);
      // After a failed preparation too: the handler finds what is missing and settles the work.
      // Should the hand-over fail as well, the lease runs out and another process takes the job.
      handedOver = await handOverJob(this.database, jobId, this.processId).catch(() => false);
      this.wake();
    }
    return handedOver;
  }

  /** Forgets a key's record of failures, in the caller's transaction (its target changed, or it was turned back on). */
  async forgetKey(transaction: Queryable, concurrencyKey: string): Promise<void> {
    await forgetKey(transaction, concurrencyKey);
  }

  /**
   * Creates a job already held by this process and runs `work` for it here, now (an import
   * answered synchronously). Its lease is renewed like any other; should this process die, the
   * job is found with an expired lease and its registered handler decides what a retry can do.
   */
  async runHere(
    job: { organizationId: string | null; kind: string; payload: Record<string, unknown> },
    work: (jobId: string, signal: AbortSignal) => Promise<void>,
  ): Promise<void> {
    const registration = this.#registration(job.kind);
    const id = randomUUID();
    await insertJob(this.database, {
      id,
      ...job,
      maxAttempts: registration.maxAttempts,
      status: 'running',
      lockedBy: this.processId,
      leaseSeconds: this.#leaseSeconds,
    });
    await this.#run(
      {
        id,
        organizationId: job.organizationId,
        kind: job.kind,
        payload: job.payload,
        status: 'running',
        attempts: 1,
        maxAttempts: registration.maxAttempts,
        concurrencyKey: null,
        keyTroubled: false,
      },
      {
        rethrow: true,
        work: (signal) => work(id, signal),
      },
    );
  }

  /**
   * Starts taking jobs. With `soleProcess` (the embedded store, which one process opens at a
   * time) every job still marked running belonged to a process that is gone, so it is taken
   * again at once instead of after its lease runs out.
   */
  async start(options: { soleProcess?: boolean } = {}): Promise<void> {
    if (!this.#stopped) return;
    if (options.soleProcess) await expireAllLeases(this.database);
    this.#stopped = false;
    if (this.#recurring.length > 0) {
      await this.#queueRecurring();
      const checkMilliseconds = Math.min(RECURRING_CHECK_MILLISECONDS, ...this.#recurring.map((recurring) => recurring.intervalSeconds * 1000));
      this.#recurringTimer = setInterval(() => void this.#queueRecurring(), checkMilliseconds);
      this.#recurringTimer.unref();
    }
    this.#schedule(0);
  }

  /** Looks for work now rather than at the next poll (after a job was queued in this process). */
  wake(): void {
    if (!this.#stopped) this.#schedule(0);
  }

  /**
   * Stops taking jobs and interrupts the running ones, which are queued again at once (their
   * work rolls back with their transaction); waits until they have let go.
   */
  async stop(): Promise<void> {
    this.#stopped = true;
    if (this.#timer) clearTimeout(this.#timer);
    if (this.#recurringTimer) clearInterval(this.#recurringTimer);
    this.#recurringTimer = null;
    for (const { controller } of this.#running.values()) controller.abort(new JobInterrupted('the process is stopping'));
    await this.#idle;
    while (this.#running.size > 0) await new Promise((resolve) => setTimeout(resolve, 20));
  }

  /** The registered kinds, starting one further each time, so that every kind gets its turn first. */
  #kindsInTurn(): string[] {
    const kinds = [...this.#registrations.keys()];
    this.#turn = (this.#turn + 1) % Math.max(1, kinds.length);
    return [...kinds.slice(this.#turn), ...kinds.slice(0, this.#turn)];
  }

  /** Queues the recurring jobs whose interval has passed since their last run; a database error waits for the next check. */
  async #queueRecurring(): Promise<void> {
    let queued = false;
    for (const recurring of this.#recurring) {
      const registration = this.#registration(recurring.kind);
      queued = (await queueRecurringJob(this.database, { ...recurring, maxAttempts: registration.maxAttempts }).catch(() => false)) || queued;
    }
    if (queued) this.wake();
  }

  #registration(kind: string): Registration {
    const registration = this.#registrations.get(kind);
    if (!registration) throw new Error(`no handler is registered for jobs of kind "${kind}"`);
    return registration;
  }

  #schedule(delayMilliseconds: number): void {
    if (this.#timer) clearTimeout(this.#timer);
    this.#timer = setTimeout(() => void this.#poll(), delayMilliseconds);
    this.#timer.unref();
  }

  async #poll(): Promise<void> {
    if (this.#stopped) return;
    if (this.#polling) {
      // Woken while claiming: the claims under way may have looked before the new job existed.
      this.#pollAgain = true;
      return;
    }
    this.#polling = true;
    this.#pollAgain = false;
    let resolveIdle!: () => void;
    this.#idle = new Promise((resolve) => (resolveIdle = resolve));
    try {
      while (!this.#stopped && this.#running.size < this.#concurrency) {
        const job = await this.#claim().catch(() => undefined);
        if (!job) break;
        void this.#run(job, { rethrow: false });
      }
    } finally {
      this.#polling = false;
      resolveIdle();
      if (!this.#stopped) this.#schedule(this.#pollAgain ? 0 : this.#pollMilliseconds);
    }
  }

  /**
   * Takes the next job this process may run now. An organization holding its share of the slots
   * (perOrganizationConcurrency) waits, and so do troubled keys once they hold their share
   * (troubledKeyConcurrency); of the rest, an organization that holds no slot here goes first,
   * so that a newcomer never queues behind the backlog of organizations already being served.
   */
  async #claim(): Promise<ClaimedJob | undefined> {
    const held = new Map<string, number>();
    let troubled = 0;
    for (const running of this.#running.values()) {
      if (running.organizationId !== null) held.set(running.organizationId, (held.get(running.organizationId) ?? 0) + 1);
      if (running.keyTroubled) troubled += 1;
    }
    const excludedOrganizations = [...held].filter(([, count]) => count >= this.#perOrganizationConcurrency).map(([organizationId]) => organizationId);
    // Which organization goes first matters once more jobs wait than slots are free; before
    // that, every job that may run gets a slot in this poll whatever the order, and the plain
    // claim, oldest first, is the cheaper statement. An organization at its share is passed over
    // by the claim by organization without walking its backlog.
    const byOrganization =
      Number.isFinite(this.#perOrganizationConcurrency) &&
      (excludedOrganizations.length > 0 || this.#concurrency - this.#running.size <= this.#perOrganizationConcurrency);
    return claimNextJob(this.database, this.processId, this.#leaseSeconds, this.#kindsInTurn(), {
      perKeyConcurrency: this.#perKeyConcurrency,
      excludedOrganizations,
      troubledKeysAllowed: troubled < this.#troubledKeyConcurrency,
      ...(byOrganization ? { servedOrganizations: [...held.keys()] } : {}),
    });
  }

  async #run(job: ClaimedJob, options: { rethrow: boolean; work?: (signal: AbortSignal) => Promise<void> }): Promise<void> {
    const registration = this.#registration(job.kind);
    const controller = new AbortController();
    this.#running.set(job.id, { controller, organizationId: job.organizationId, keyTroubled: job.keyTroubled });
    // The lease is renewed without waiting for the answer: on the embedded store the renewal
    // queues behind the job's own transaction, and the job must not wait on it.
    const renewal = setInterval(
      () => {
        renewJobLease(this.database, job.id, this.processId, this.#leaseSeconds).then(
          (held) => {
            if (!held) controller.abort(new JobInterrupted('the job is no longer held by this process'));
          },
          () => {},
        );
      },
      (this.#leaseSeconds * 1000) / 3,
    );
    renewal.unref();
    let forgetKey = false;
    const recordOutcome = async (outcome: KeyOutcome, backoff: KeyBackoff) => {
      if (job.concurrencyKey === null) return;
      if (!outcome.failed && !outcome.slow) forgetKey = true;
      else await recordKeyOutcome(this.database, job.concurrencyKey, outcome, backoff);
    };
    try {
      if (job.attempts > job.maxAttempts) throw new PermanentJobFailure(`the job was interrupted ${job.maxAttempts} times`);
      if (options.work) await options.work(controller.signal);
      else await registration.handler(job, { signal: controller.signal, recordKeyOutcome: recordOutcome });
      await completeJob(this.database, job.id, this.processId, { forgetKey });
    } catch (error) {
      const interrupted = error instanceof JobInterrupted || controller.signal.aborted;
      const permanent = error instanceof PermanentJobFailure;
      const message = error instanceof Error ? error.message : String(error);
      await failJobAttempt(this.database, job.id, this.processId, {
        message,
        // Work run here for a caller (runHere) is not retried: the caller has the answer.
        retryAfterSeconds: options.work
          ? null
          : interrupted
            ? 0
            : permanent
              ? null
              : error instanceof RetryJobLater
                ? error.delaySeconds
                : registration.retryDelaySeconds(job.attempts),
      }).catch(() => {});
      if (options.rethrow) throw error;
    } finally {
      clearInterval(renewal);
      this.#running.delete(job.id);
      this.#afterEachJob();
      if (!this.#stopped) this.wake();
    }
  }
}

/** The id of a recurring job's one row: a UUID derived from its kind, so that every process names the same row. */
function recurringJobId(kind: string): string {
  const hex = createHash('sha256').update(`recurring-job:${kind}`).digest('hex');
  // Shaped as a version 8 (application-defined) UUID with the RFC 9562 variant bits.
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-8${hex.slice(13, 16)}-${((parseInt(hex.slice(16, 18), 16) & 0x3f) | 0x80).toString(16)}${hex.slice(18, 20)}-${hex.slice(20, 32)}`;
}
