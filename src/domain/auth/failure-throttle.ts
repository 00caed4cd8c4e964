import type { Database } from '../../db/database.ts';
import { systemClock, type Clock } from '../clock.ts';
import {
  deleteExpiredFailures,
  readCounters,
  releaseAttempt,
  reserveAttempt,
  type CounterState,
  type FailureCounter,
  type FailureTable,
} from '../../db/repositories/token-failures.ts';

export { ALL_ADDRESSES, type FailureCounter } from '../../db/repositories/token-failures.ts';

/** A throttle's refusal: how long until the counter that refused lets attempts in again. */
export interface Refusal {
  retryAfterSeconds: number;
}

/** An attempt charged to every counter; released when it turns out not to be a failure. */
export interface ChargedAttempt {
  release(): Promise<void>;
}

/**
 * How long a process judges by what it last learnt of a counter (by reading it, or by charging
 * it) before it reads the store again. Within this second another process's failures are not
 * seen here; see `check` for what that can cost.
 */
const VIEW_REUSE_MILLISECONDS = 1_000;
const VIEWS_LIMIT = 10_000;
/** Expired windows are swept at most this often by a process. */
const SWEEP_INTERVAL_MILLISECONDS = 60_000;

interface View {
  failures: number;
  windowEndsAtMilliseconds: number;
  learntAtMilliseconds: number;
}

/**
 * The throttle of failed attempts of one kind (token requests, sign-ins), over counters kept in
 * the database so that every process sees the same counts. An attempt is charged in one atomic
 * statement that refuses once a counter is full (`reserveAttempt`), so parallel attempts, on one
 * process or many, can never be charged beyond the limit.
 */
export class FailureThrottle {
  /** What this process last learnt of each counter. */
  readonly #views = new Map<string, View>();
  /** The end of the queue of attempts of each key in this process (`oneAtATime`). */
  readonly #queues = new Map<string, Promise<void>>();
  #lastSweepMilliseconds = 0;

  constructor(
    private readonly database: Database,
    private readonly table: FailureTable,
    private readonly windowSeconds: number,
    private readonly clock: Clock = systemClock,
  ) {}

  /**
   * A refusal for a counter this process learnt to be full within the last second, without
   * asking the store; null otherwise. A flood of attempts from a throttled address thus costs the
   * store one read a second, not one a request.
   */
  knownRefusal(counters: readonly FailureCounter[]): Refusal | null {
    const now = this.clock.now();
    for (const counter of counters) {
      const view = this.#views.get(viewKey(counter));
      if (view !== undefined && now - view.learntAtMilliseconds < VIEW_REUSE_MILLISECONDS && view.failures >= counter.limit) return refusalUntil(view, now);
    }
    return null;
  }

  /**
   * Whether a counter is full, for an attempt that charges nothing (a right secret), judged by
   * what this process learnt of every counter within the last second, or else read from the
   * store now. What this process learnt includes every failure it answered itself (charging
   * returns the count), so a stale view can only miss failures answered by another process in
   * that second: the first attempt judged by it after the counter filled elsewhere is one guess
   * more than the limit, and its own charge then shows the counter full. So a counter lets at most
   * its limit plus one guess per server process be judged in a window, provided this process's
   * attempts of a counter are judged one at a time (`oneAtATime`).
   */
  async check(counters: readonly FailureCounter[]): Promise<Refusal | null> {
    const now = this.clock.now();
    const views = counters.map((counter) => this.#views.get(viewKey(counter)));
    if (views.every((view) => view !== undefined && now - view.learntAtMilliseconds < VIEW_REUSE_MILLISECONDS)) {
      const full = views.findIndex((view, index) => view!.failures >= counters[index]!.limit);
      return full === -1 ? null : refusalUntil(views[full]!, now);
    }
    const states = await readCounters(this.database, this.table, counters, this.windowSeconds);
    states.forEach((state, index) => this.#learn(counters[index]!, state));
    const full = states.findIndex((state, index) => state.failures >= counters[index]!.limit);
    return full === -1 ? null : { retryAfterSeconds: Math.max(1, states[full]!.retryAfterSeconds) };
  }

  /**
   * Charges one attempt to every counter, or to none: a counter that is full refuses it, and
   * what the counters before it took is given back.
   */
  async charge(counters: readonly FailureCounter[]): Promise<ChargedAttempt | Refusal> {
    const known = this.knownRefusal(counters);
    if (known !== null) return known;
    const reservation = await reserveAttempt(this.database, this.table, counters, this.windowSeconds);
    this.#sweepExpired();
    reservation.charged.forEach((state, index) => this.#learn(counters[index]!, state));
    const windows = reservation.charged.map((charged) => charged.window);
    const release = async () => {
      // What was learnt of these counters included this attempt: read them afresh next time.
      for (const counter of counters.slice(0, windows.length)) this.#views.delete(viewKey(counter));
      await releaseAttempt(this.database, this.table, counters, windows);
    };
    if (reservation.refusedBy === null) return { release };
    await release();
    const refusing = counters[reservation.refusedBy]!;
    const [state] = await readCounters(this.database, this.table, [refusing], this.windowSeconds);
    this.#learn(refusing, state!);
    // The window may have ended between the refusal and the read: then it is worth trying again soon.
    return { retryAfterSeconds: Math.max(1, state!.retryAfterSeconds) };
  }

  /**
   * Runs `work` once every earlier work of the same key in this process has ended, so that the
   * attempts of one key are judged in turn, each by what the one before it learnt.
   */
  async oneAtATime<T>(key: string, work: () => Promise<T>): Promise<T> {
    const before = this.#queues.get(key);
    let finish!: () => void;
    const mine = new Promise<void>((resolve) => (finish = resolve));
    const queued = (before ?? Promise.resolve()).then(() => mine);
    this.#queues.set(key, queued);
    try {
      if (before !== undefined) await before;
      return await work();
    } finally {
      finish();
      if (this.#queues.get(key) === queued) this.#queues.delete(key);
    }
  }

  #learn(counter: FailureCounter, state: CounterState): void {
    const now = this.clock.now();
    if (this.#views.size >= VIEWS_LIMIT) this.#views.clear();
    this.#views.set(viewKey(counter), { failures: state.failures, windowEndsAtMilliseconds: now + state.retryAfterSeconds * 1000, learntAtMilliseconds: now });
  }

  /**
   * Failures are counted per presented key, including keys that match nobody; expired windows
   * are swept now and then so the table stays as small as the recent failures. The sweep runs in
   * the background: a failed sweep only delays the cleanup.
   */
  #sweepExpired(): void {
    const now = this.clock.now();
    if (now - this.#lastSweepMilliseconds < SWEEP_INTERVAL_MILLISECONDS) return;
    this.#lastSweepMilliseconds = now;
    deleteExpiredFailures(this.database, this.windowSeconds, this.table).catch(() => {});
  }
}

export function isRefusal(outcome: ChargedAttempt | Refusal): outcome is Refusal {
  return 'retryAfterSeconds' in outcome;
}

function refusalUntil(view: View, now: number): Refusal {
  return { retryAfterSeconds: Math.max(1, Math.ceil((view.windowEndsAtMilliseconds - now) / 1000)) };
}

function viewKey(counter: FailureCounter): string {
  return `${counter.key}\n${counter.address}`;
}
