import { randomUUID } from 'node:crypto';
import type { Database, Queryable } from '../../db/database.ts';
import { countClosedPeriodSkipped, JIT_MIN_ROWS, prepareRunTransaction, turnOffJit } from '../../db/matching/run-work.ts';
import { applyRunResults, createSuggestionsFromResults, findOverAllocatedOfRun, lockAndFindChanged, revertRunChanges } from '../../db/matching/run-apply.ts';
import { markDatasetsUpdated } from '../../db/repositories/datasets.ts';
import type { JobRow } from '../../db/repositories/jobs.ts';
import { findDeletedRuleNames } from '../../db/repositories/rules.ts';
import { appendAuditEvents } from '../../db/repositories/audit-events.ts';
import {
  deleteRun,
  deleteRunResults,
  findOrganizationDatasetIds,
  findQueuedIngestRun,
  findRun,
  findRunJson,
  findTransactionSummaries,
  finishRun,
  insertRun,
  isRunCancelRequested,
  listRunResults,
  listRunsJson,
  listUnmatchedOfRun,
  markRunCancelled,
  markRunCommitted,
  markRunReverted,
  markRunStarted,
  requestRunCancel,
  setRunJob,
  setRunProgress,
  type ResultKind,
  type RunRow,
} from '../../db/repositories/runs.ts';
import { KEY_GROUP_MAX_TRANSACTIONS } from '../../config.ts';
import { AppError, conflict, invalidField, matchingErrors, notFound } from '../../errors.ts';
import { AuditActions, objectEvent, type WriteContext } from '../audit.ts';
import { hasClosedPeriods, refuseClosedPeriods } from '../close/closed-periods.ts';
import { JobInterrupted, type JobQueue } from '../jobs/job-queue.ts';
import { completeRecordedEvidence } from './evidence.ts';
import type { CheckedRule } from './rule-definition.ts';
import type { SealedPositions } from '../sealed-positions.ts';
import { createdCursors, pageOf, pageSize, plainCursors, readCursor, rowsToFetch } from '../pages.ts';
import { loadForRun, loadVersions } from './rules.ts';
import { RunEngine, type EngineSettings, type RuleCounts } from './run-engine.ts';

/**
 * Runs (SPEC §8.3): a run applies rules as a job of the database queue (§12). A commit run
 * decides and carries out its decisions in one database transaction, so that a crash leaves
 * nothing half made: the job is taken again (or fails after its last attempt) and the run is
 * done whole or not at all. A dry run keeps its decisions as results; committing it later
 * carries them out if none of the transactions involved changed since (409 naming them
 * otherwise). A revert deletes what a run made that nobody changed since.
 */

export const RUN_JOB = 'matching-run';

export const RUN_LIMITS = {
  /** Transactions a 409 names when a dry run's transactions changed since. */
  changedListed: 20,
  /** Attempts of a run's job: an interrupted run starts over from the beginning. */
  attempts: 3,
} as const;

export const RUNS_PAGE_SIZE = pageSize(50, 200);
export const RUN_RESULTS_PAGE_SIZE = pageSize(100, 500);

export interface StartRunInput {
  mode: 'dry-run' | 'commit';
  ruleIds: string[] | null;
  datasetIds: string[] | null;
  fromMs: number | null;
  toMs: number | null;
}

/** Cursors of the run list (a creation position) and of a run's unmatched transactions (an id) share a prefix. */
const RUNS_CURSOR = 'r1.';
const RUNS_CURSORS = createdCursors(RUNS_CURSOR);
const UNMATCHED_CURSORS = plainCursors(RUNS_CURSOR);
/**
 * Cursors of a run's results: a sealed sequence number (see SealedPositions), as results of all
 * organizations' runs share one sequence; before them, the number in clear under RUNS_CURSOR.
 */
const RESULTS_CURSOR = 'rr2.';

export class Runs {
  readonly #engine: RunEngine;
  /** Runs executing in this process, so that a cancel reaches them without a database round trip. */
  readonly #running = new Map<string, { organizationId: string; controller: AbortController }>();

  constructor(
    private readonly database: Database,
    private readonly jobs: JobQueue,
    private readonly positions: SealedPositions,
    limits: EngineSettings = { keyGroupMaxTransactions: KEY_GROUP_MAX_TRANSACTIONS },
  ) {
    this.#engine = new RunEngine(limits);
    jobs.register(RUN_JOB, (job, context) => this.#execute(job, context.signal), { maxAttempts: RUN_LIMITS.attempts, retryDelaySeconds: () => 1 });
  }

  /** Queues a run in the caller's transaction; the job exists exactly when the run does. */
  async start(
    transaction: Queryable,
    context: WriteContext,
    input: StartRunInput,
    trigger: 'request' | 'ingest' = 'request',
  ): Promise<Record<string, unknown>> {
    if (input.fromMs !== null && input.toMs !== null && input.fromMs > input.toMs) {
      throw invalidField('/from', `must not be after "to" (${input.fromMs} > ${input.toMs}); both are epoch milliseconds and inclusive`);
    }
    if (input.datasetIds !== null) {
      const known = await findOrganizationDatasetIds(transaction, context.organizationId, input.datasetIds);
      const unknown = input.datasetIds.findIndex((id) => !known.has(id.toLowerCase()));
      if (unknown !== -1)
        throw invalidField(`/datasetIds/${unknown}`, `no dataset ${input.datasetIds[unknown]} in this organization; the list of sources shows every dataset`);
    }
    const rules = await loadForRun(transaction, context.organizationId, input.ruleIds, {});
    if (rules.length === 0) {
      throw matchingErrors.noEnabledRule();
    }
    return this.#queue(transaction, context, rules, input, trigger);
  }

  async #queue(
    transaction: Queryable,
    context: WriteContext,
    rules: readonly CheckedRule[],
    input: StartRunInput,
    trigger: 'request' | 'ingest',
  ): Promise<Record<string, unknown>> {
    const runId = randomUUID();
    await insertRun(transaction, {
      id: runId,
      organizationId: context.organizationId,
      mode: input.mode,
      trigger,
      rules: rules.map((rule) => ({ id: rule.id, version: rule.version, name: rule.name })) as { id: string; version: number }[],
      datasetIds: input.datasetIds,
      fromMs: input.fromMs,
      toMs: input.toMs,
      createdBy: context.actor,
      requestId: context.requestId,
    });
    const jobId = await this.jobs.enqueue(transaction, { organizationId: context.organizationId, kind: RUN_JOB, payload: { runId } });
    await setRunJob(transaction, context.organizationId, runId, jobId);
    return (await findRunJson(transaction, context.organizationId, runId))!;
  }

  /**
   * After an ingest or import (in its transaction): queues a commit run of the rules with
   * runOnIngest, unless one is already waiting, which will see the new transactions too.
   */
  async afterIngest(transaction: Queryable, context: WriteContext): Promise<string | null> {
    const rules = await loadForRun(transaction, context.organizationId, null, { onlyRunOnIngest: true });
    if (rules.length === 0) return null;
    const waiting = await findQueuedIngestRun(transaction, context.organizationId);
    if (waiting !== undefined) return waiting;
    const run = await this.#queue(transaction, context, rules, { mode: 'commit', ruleIds: null, datasetIds: null, fromMs: null, toMs: null }, 'ingest');
    return String(run.id);
  }

  /** Looks for queued work now (after a run was queued and its transaction committed). */
  wake(): void {
    this.jobs.wake();
  }

  async get(organizationId: string, runId: string): Promise<Record<string, unknown>> {
    const run = await findRunJson(this.database, organizationId, runId);
    if (!run) throw notFound('run', runId);
    return run;
  }

  async list(
    organizationId: string,
    query: { limit: number; cursor: string | null; status: string | null },
  ): Promise<{ runs: Record<string, unknown>[]; nextCursor: string | null }> {
    const before = await readCursor(RUNS_CURSORS, query.cursor);
    const rows = await listRunsJson(this.database, organizationId, { limit: rowsToFetch(query.limit), before, status: query.status });
    const page = await pageOf(rows, query.limit, (row) => row, RUNS_CURSORS);
    return { runs: page.rows.map((row) => row.run), nextCursor: page.nextCursor };
  }

  async results(
    organizationId: string,
    runId: string,
    query: { kind: ResultKind | 'unmatched'; cursor: string | null; limit: number; includeTransactions?: boolean },
  ): Promise<{ results: unknown[]; nextCursor: string | null }> {
    const run = await findRun(this.database, organizationId, runId);
    if (!run) throw notFound('run', runId);
    if (query.kind === 'unmatched') {
      const afterId = await readCursor(UNMATCHED_CURSORS, query.cursor);
      const datasetIds = await this.#originDatasetsOf(run);
      const rows = await listUnmatchedOfRun(this.database, organizationId, runId, { datasetIds, afterId, limit: rowsToFetch(query.limit) });
      const page = await pageOf(rows, query.limit, (row) => row.id, UNMATCHED_CURSORS);
      const results = page.rows.map((row) => ({ kind: 'unmatched', ...row }) as Record<string, unknown>);
      return { results: query.includeTransactions ? await this.#withTransactions(organizationId, results) : results, nextCursor: page.nextCursor };
    }
    const binding = `${organizationId}\n${runId}\n${query.kind}`;
    const cursors = this.positions.cursors(RESULTS_CURSOR, binding, RUNS_CURSOR);
    const afterSequence = Number((await readCursor(cursors, query.cursor)) ?? 0n);
    const rows = await listRunResults(this.database, organizationId, runId, { kind: query.kind, afterSequence, limit: rowsToFetch(query.limit) });
    const { rows: page, nextCursor } = await pageOf(rows, query.limit, (row) => BigInt(row.sequence), cursors);
    const evidence = await completeRecordedEvidence(
      this.database,
      organizationId,
      page.map(({ result }) => {
        const [link] = (result.links as { originId: string; targetId: string }[] | null) ?? [];
        return { ruleId: result.ruleId as string, ruleVersion: result.ruleVersion as number, evidence: result.evidence, pair: link ?? null };
      }),
    );
    const results = page.map((row, index) => ({ ...row.result, evidence: evidence[index] }));
    return { results: query.includeTransactions ? await this.#withTransactions(organizationId, results) : results, nextCursor };
  }

  /**
   * Each result with the transactions it names (its own, its options', its runners-up and a
   * group's counterpart), summarized for reading: date, description, reference and amount.
   */
  async #withTransactions(organizationId: string, results: Record<string, unknown>[]): Promise<Record<string, unknown>[]> {
    const named = results.map(namedTransactionIds);
    const summaries = await findTransactionSummaries(this.database, organizationId, [...new Set(named.flat())]);
    const byId = new Map(summaries.map((summary) => [summary.id, summary]));
    return results.map((result, index) => ({
      ...result,
      transactions: [...new Set(named[index])].flatMap((id) => byId.get(id) ?? []),
    }));
  }

  async #originDatasetsOf(run: RunRow): Promise<string[]> {
    const rules = await loadVersions(this.database, run.organization_id, run.rules).catch(() => []);
    const ids = new Set(rules.flatMap((rule) => rule.origin.datasetIds));
    return [...ids].filter((id) => run.dataset_ids === null || run.dataset_ids.includes(id));
  }

  /**
   * Refuses at once, without the database, to commit or revert a run that executes in this
   * process. Called before the request's own transaction: on the embedded store that transaction
   * would wait for the run's, which can last minutes.
   */
  refuseWhileExecutingHere(organizationId: string, runId: string): void {
    if (this.isExecutingHere(organizationId, runId)) throw stillRunning(runId, 'running');
  }

  /** Whether a run of the organization is executing in this process now. */
  isExecutingHere(organizationId: string, runId: string): boolean {
    return this.#running.get(runId)?.organizationId === organizationId;
  }

  /**
   * The run, read without waiting for a run that is still working: its own transaction holds a
   * lock on its row until it ends, so a run not yet finished is refused on what was last
   * committed of it (its status), and only a finished one is locked for the change.
   */
  async #finishedRunForUpdate(transaction: Queryable, organizationId: string, runId: string): Promise<RunRow> {
    const seen = await findRun(transaction, organizationId, runId);
    if (!seen) throw notFound('run', runId);
    if (seen.effective_status === 'queued' || seen.effective_status === 'running') throw stillRunning(runId, seen.effective_status);
    const run = await findRun(transaction, organizationId, runId, { lock: true });
    if (!run) throw notFound('run', runId);
    return run;
  }

  /** Commits a completed dry run's decisions, if none of their transactions changed since. */
  async commit(transaction: Queryable, context: WriteContext, runId: string): Promise<Record<string, unknown>> {
    const run = await this.#finishedRunForUpdate(transaction, context.organizationId, runId);
    if (run.mode !== 'dry-run') throw conflict(`run ${runId} is a commit run: its decisions were carried out when it ran`);
    if (run.effective_status !== 'completed') throw conflict(`run ${runId} is ${run.effective_status}; only a completed dry run can be committed`);
    if (run.committed_at !== null) throw conflict(`run ${runId} was already committed at ${run.committed_at}`);
    // Matches name the rule that made them: a rule deleted since the dry run (a rule tried from
    // the web app's rule form is deleted once tried) is not to make any.
    const deleted = await findDeletedRuleNames(
      transaction,
      context.organizationId,
      run.rules.map((rule) => rule.id),
    );
    if (deleted.length > 0) throw matchingErrors.runRuleDeleted(runId, deleted);
    // The person who commits a dry run is who made its matches, as the audit trail records them.
    await this.#carryOut(transaction, { ...context, runId }, { refuseChanged: true, actor: context.actor });
    await markRunCommitted(transaction, context.organizationId, runId, context.actor);
    return (await findRunJson(transaction, context.organizationId, runId))!;
  }

  /**
   * Locks the transactions involved, checks none changed since the run decided, and carries the
   * decisions out. A change found is a 409 naming the transactions.
   */
  async #carryOut(
    transaction: Queryable,
    context: WriteContext & { runId: string },
    options: { refuseChanged: boolean; actor: string; signal?: AbortSignal },
  ): Promise<void> {
    const changed = await lockAndFindChanged(transaction, context.organizationId, context.runId, RUN_LIMITS.changedListed);
    // A cancel asked for while the run waited for its transactions' locks stops it here.
    if (options.signal?.aborted) throw options.signal.reason;
    if (changed.total > 0 && options.refuseChanged) {
      throw conflict(
        `${changed.total} transaction(s) changed since run ${context.runId} decided, so its results no longer hold: ${changed.ids.join(', ')}` +
          `${changed.total > changed.ids.length ? ', …' : ''}; start a new dry run and commit that`,
        changed.ids.map((id) => ({ path: '/transactions', message: `transaction ${id} changed since the run` })),
      );
    }
    if (changed.total > 0) throw new RunDecisionsStale(changed.total);
    // A commit run left closed periods out of its pools; a dry run committed after a period closed is refused.
    await refuseClosedPeriods(transaction, context.organizationId, { kind: 'run', runId: context.runId });
    const applyContext = {
      organizationId: context.organizationId,
      runId: context.runId,
      actor: options.actor,
      requestId: context.requestId,
      note: `run ${context.runId}`,
    };
    const applied = await applyRunResults(transaction, applyContext);
    if (options.signal?.aborted) throw options.signal.reason;
    const over = await findOverAllocatedOfRun(transaction, context.organizationId, context.runId, RUN_LIMITS.changedListed);
    if (over.length > 0) {
      throw conflict(
        `run ${context.runId} would allocate more than the amount of ${over.join(', ')}; nothing was changed. Start a new run; if it happens again, report the run id`,
      );
    }
    await createSuggestionsFromResults(transaction, applyContext);
    await markDatasetsUpdated(transaction, context.organizationId, applied.datasetIds, options.actor);
  }

  /** Reverts what a run made that nobody changed since; lists what it left. */
  async revert(transaction: Queryable, context: WriteContext, runId: string, note: string | null): Promise<Record<string, unknown>> {
    const run = await this.#finishedRunForUpdate(transaction, context.organizationId, runId);
    if (run.effective_status === 'reverted') throw conflict(`run ${runId} was already reverted at ${run.reverted_at}`);
    if (run.effective_status !== 'completed') throw conflict(`run ${runId} is ${run.effective_status}; only a completed run can be reverted`);
    if (run.mode === 'dry-run' && run.committed_at === null)
      throw conflict(`run ${runId} is a dry run that was never committed: it changed nothing, so there is nothing to revert`);
    await refuseClosedPeriods(transaction, context.organizationId, { kind: 'run', runId });
    const report = await revertRunChanges(transaction, {
      organizationId: context.organizationId,
      runId,
      actor: context.actor,
      requestId: context.requestId,
      note: `revert of run ${runId}${note ? `: ${note}` : ''}`,
    });
    await markDatasetsUpdated(transaction, context.organizationId, report.datasetIds, context.actor);
    await markRunReverted(transaction, context.organizationId, runId, context.actor, {
      note,
      groupsDeleted: report.groups,
      matchesDeleted: report.matches,
      statusesCleared: report.statuses,
      notReverted: report.notReverted,
    });
    return (await findRunJson(transaction, context.organizationId, runId))!;
  }

  /**
   * Throws away a dry run that was never committed: the run and what it recorded are removed
   * (a dry run changed nothing else), and the audit trail records it. A committed run made its
   * matches: it is reverted, not discarded.
   */
  async discard(transaction: Queryable, context: WriteContext, runId: string): Promise<void> {
    const run = await this.#finishedRunForUpdate(transaction, context.organizationId, runId);
    if (run.mode !== 'dry-run' || run.committed_at !== null) throw matchingErrors.runNotDiscardable(runId, run.mode === 'commit' ? 'commit run' : 'committed');
    const json = (await findRunJson(transaction, context.organizationId, runId))!;
    if (!(await deleteRun(transaction, context.organizationId, runId))) throw notFound('run', runId);
    await appendAuditEvents(transaction, { ...context, note: null }, [
      objectEvent(AuditActions.runDiscarded, { runId, mode: run.mode, status: run.effective_status, createdAt: json.createdAt, totals: json.totals }, null),
    ]);
  }

  /**
   * Stops a run of the organization that executes in this process, at once. Called before the
   * cancel's own transaction: on the embedded store that transaction waits for the run's.
   */
  interruptHere(organizationId: string, runId: string): void {
    const running = this.#running.get(runId);
    if (running && running.organizationId === organizationId) running.controller.abort(new RunCancelled());
  }

  /**
   * Cancels a queued or running run; a running one stops at its next step and changes nothing.
   * The cancel is recorded at once: the lock it takes on the run's row is one that the run's own
   * transaction does not hold while it works (it holds only a key-share lock, through its
   * results).
   */
  async cancel(transaction: Queryable, context: WriteContext, runId: string): Promise<Record<string, unknown>> {
    const run = await findRun(transaction, context.organizationId, runId, { lock: true });
    if (!run) throw notFound('run', runId);
    if (run.effective_status !== 'queued' && run.effective_status !== 'running') {
      throw conflict(
        `run ${runId} is ${run.effective_status}; only a queued or running run can be cancelled${run.effective_status === 'completed' ? ' (revert it instead)' : ''}`,
      );
    }
    await requestRunCancel(transaction, context.organizationId, runId);
    // A queued run is cancelled now; a running one (in another process) sees the request and stops.
    if (run.effective_status === 'queued') await markRunCancelled(transaction, context.organizationId, runId);
    return (await findRunJson(transaction, context.organizationId, runId))!;
  }

  async #execute(job: JobRow, jobSignal: AbortSignal): Promise<void> {
    const runId = String(job.payload.runId);
    const organizationId = String(job.organizationId);
    const run = await findRun(this.database, organizationId, runId);
    if (!run || (run.status !== 'queued' && run.status !== 'running')) return;
    if (run.cancel_requested) {
      await markRunCancelled(this.database, organizationId, runId);
      return;
    }
    await markRunStarted(this.database, organizationId, runId);
    const controller = new AbortController();
    const onJobAbort = () => controller.abort(jobSignal.reason);
    jobSignal.addEventListener('abort', onJobAbort);
    this.#running.set(runId, { organizationId, controller });
    // On a PostgreSQL server another process may have asked for the cancel: look now and then.
    const cancelWatch =
      this.database.kind === 'postgres'
        ? setInterval(() => {
            isRunCancelRequested(this.database, organizationId, runId).then(
              (requested) => requested && controller.abort(new RunCancelled()),
              () => {},
            );
          }, 1000)
        : null;
    cancelWatch?.unref();
    const started = performance.now();
    let counts: RuleCounts[] = [];
    let progress = { examined: 0, total: 0 };
    try {
      const rules = await loadVersions(this.database, organizationId, run.rules);
      await this.database.transaction(async (transaction) => {
        await prepareRunTransaction(transaction);
        // Read in the run's snapshot: transactions of periods closed by then are left out of its pools.
        const scope = {
          organizationId,
          datasetIds: run.dataset_ids,
          fromMs: run.from_ms,
          toMs: run.to_ms,
          closedPeriods: await hasClosedPeriods(transaction, organizationId),
        };
        await deleteRunResults(transaction, organizationId, runId);
        const originsByRule = await this.#engine.countOriginsByRule(transaction, rules, scope);
        progress = { examined: 0, total: originsByRule.reduce((sum, count) => sum + count, 0) };
        const small = progress.total < JIT_MIN_ROWS;
        if (small) await turnOffJit(transaction);
        this.#reportProgress(organizationId, runId, progress);
        const decideStarted = performance.now();
        counts = await this.#engine.decide(
          transaction,
          { runId, rules, scope, originsByRule },
          {
            examined: (count) => {
              progress = { examined: Math.min(progress.total, progress.examined + count), total: progress.total };
              this.#reportProgress(organizationId, runId, progress);
            },
          },
          controller.signal,
        );
        const closedPeriodSkipped = await countClosedPeriodSkipped(transaction, rules, scope);
        const decideMilliseconds = Math.round(performance.now() - decideStarted);
        let applyMilliseconds = 0;
        if (run.mode === 'commit') {
          if (controller.signal.aborted) throw controller.signal.reason;
          const applyStarted = performance.now();
          if (!small && counts.reduce((sum, count) => sum + count.matched + count.classified + count.suggested + count.ambiguous, 0) < JIT_MIN_ROWS) {
            await turnOffJit(transaction);
          }
          await this.#carryOut(
            transaction,
            { organizationId, actor: run.created_by, requestId: run.request_id, runId },
            { refuseChanged: false, actor: `run:${runId}`, signal: controller.signal },
          );
          applyMilliseconds = Math.round(performance.now() - applyStarted);
        }
        await finishRun(transaction, organizationId, runId, {
          status: 'completed',
          counts,
          timings: { decideMilliseconds, applyMilliseconds, totalMilliseconds: Math.round(performance.now() - started), attempt: job.attempts },
          examined: progress.total,
          total: progress.total,
          error: null,
          closedPeriodSkipped,
        });
      });
    } catch (error) {
      if (error instanceof RunCancelled || (controller.signal.reason instanceof RunCancelled && !(error instanceof JobInterrupted))) {
        await markRunCancelled(this.database, organizationId, runId);
        return;
      }
      // A request error (a rule's dataset deleted since the run was queued) does not heal by retrying.
      if (error instanceof AppError) {
        await finishRun(this.database, organizationId, runId, {
          status: 'failed',
          counts,
          timings: {},
          examined: progress.examined,
          total: progress.total,
          error: { message: error.message },
        });
        return;
      }
      throw error;
    } finally {
      jobSignal.removeEventListener('abort', onJobAbort);
      if (cancelWatch) clearInterval(cancelWatch);
      this.#running.delete(runId);
    }
  }

  /**
   * Progress is written outside the run's transaction so that readers see it while the run
   * works; it is not waited for (on the embedded store it queues behind the run's transaction).
   */
  #reportProgress(organizationId: string, runId: string, progress: { examined: number; total: number }): void {
    if (this.database.kind !== 'postgres') return;
    setRunProgress(this.database, organizationId, runId, progress).catch(() => {});
  }
}

/** A commit or revert of a run that has not finished: answered at once, to be sent again later. */
function stillRunning(runId: string, status: 'queued' | 'running'): AppError {
  return conflict(`run ${runId} is still ${status}; try again after it ends (its status says when)`);
}

/** A cancel asked for by a person: the run stops and changes nothing. */
class RunCancelled extends Error {
  override name = 'RunCancelled';
  constructor() {
    super('the run was cancelled');
  }
}

/** A commit run found transactions changed under it by a concurrent writer: the job tries again on fresh data. */
class RunDecisionsStale extends Error {
  override name = 'RunDecisionsStale';
  constructor(count: number) {
    super(`${count} transaction(s) changed while the run decided; the run starts again`);
  }
}

/** The ids of the transactions a run result names, its own first. */
function namedTransactionIds(result: Record<string, unknown>): string[] {
  const ids: string[] = [];
  const add = (value: unknown) => {
    if (typeof value === 'string') ids.push(value);
  };
  if (result.kind === 'unmatched') add(result.id);
  for (const id of (result.transactionIds as unknown[] | null) ?? []) add(id);
  // Links and 1:1 runners-up name a pair; the runners-up of a set name its transactions.
  const linksOf = (links: unknown) => {
    for (const link of (links as { originId?: unknown; targetId?: unknown; origins?: unknown; targets?: unknown }[] | null) ?? []) {
      add(link.originId);
      add(link.targetId);
      for (const id of [link.origins, link.targets].flatMap((list) => (Array.isArray(list) ? list : []))) add(id);
    }
  };
  linksOf(result.links);
  const evidenceIds = (evidence: unknown) => {
    const shape = (evidence ?? {}) as { runnersUp?: { originId?: unknown; targetId?: unknown }[]; group?: { counterpart?: { id?: unknown } } };
    linksOf(shape.runnersUp);
    add(shape.group?.counterpart?.id);
  };
  evidenceIds(result.evidence);
  for (const option of (result.options as { links?: unknown; evidence?: unknown }[] | null) ?? []) {
    linksOf(option.links);
    evidenceIds(option.evidence);
  }
  return ids;
}
