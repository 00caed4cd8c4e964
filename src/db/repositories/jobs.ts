import type { Queryable } from '../database.ts';

/** A job as the queue hands it to its handler. */
export interface JobRow {
  id: string;
  organizationId: string | null;
  kind: string;
  payload: Record<string, unknown>;
  status: 'queued' | 'running' | 'completed' | 'failed' | 'cancelled';
  attempts: number;
  maxAttempts: number;
  /** Jobs of one key run only a few at a time (see JobQueueOptions.perKeyConcurrency); null for most. */
  concurrencyKey: string | null;
}

const JOB_COLUMNS = `id, organization_id AS "organizationId", kind, payload, status, attempts, max_attempts AS "maxAttempts", concurrency_key AS "concurrencyKey"`;

export async function insertJob(
  database: Queryable,
  job: {
    id: string;
    organizationId: string | null;
    kind: string;
    payload: Record<string, unknown>;
    maxAttempts: number;
    /** Jobs of one key run only a few at a time (see JobQueueOptions.perKeyConcurrency). */
    concurrencyKey?: string | null;
    status?: 'queued' | 'running';
    lockedBy?: string;
    leaseSeconds?: number;
    delaySeconds?: number;
  },
): Promise<void> {
  await database.query(
    `INSERT INTO jobs (id, organization_id, kind, payload, status, max_attempts, attempts, locked_by, lease_until, started_at, run_after, concurrency_key)
     VALUES ($1, $2, $3, $4::jsonb, $5, $6,
             CASE WHEN $5 = 'running' THEN 1 ELSE 0 END,
             $7, CASE WHEN $5 = 'running' THEN now() + make_interval(secs => $8) END, CASE WHEN $5 = 'running' THEN now() END,
             now() + make_interval(secs => $9), $10)`,
    [
      job.id,
      job.organizationId,
      job.kind,
      JSON.stringify(job.payload),
      job.status ?? 'queued',
      job.maxAttempts,
      job.lockedBy ?? null,
      job.leaseSeconds ?? 0,
      job.delaySeconds ?? 0,
      job.concurrencyKey ?? null,
    ],
  );
}

/**
 * Queues a recurring job's one row again once its last run finished at least `intervalSeconds`
 * ago, or creates it (due now) on first use. Every process calls this now and then; the row's id
 * is fixed, so there is never more than one run queued or running, and the conditional update
 * lets only one of several processes calling at once queue it. Returns whether it was queued.
 */
export async function queueRecurringJob(
  database: Queryable,
  job: { id: string; kind: string; maxAttempts: number; intervalSeconds: number },
): Promise<boolean> {
  const rows = await database.query(
    `INSERT INTO jobs (id, organization_id, kind, payload, status, max_attempts)
     VALUES ($1, NULL, $2, '{}'::jsonb, 'queued', $3)
     ON CONFLICT (id) DO UPDATE
        SET status = 'queued', attempts = 0, run_after = now(), locked_by = NULL, lease_until = NULL, started_at = NULL, finished_at = NULL
      WHERE jobs.status IN ('completed', 'failed', 'cancelled')
        AND coalesce(jobs.finished_at, jobs.created_at) <= now() - make_interval(secs => $4)
     RETURNING id`,
    [job.id, job.kind, job.maxAttempts, job.intervalSeconds],
  );
  return rows.length > 0;
}

/**
 * Removes at most `limit` finished jobs of one kind that ended before `before`, oldest first: the
 * queue's bookkeeping of work whose own record keeps the history (a webhook delivery and its
 * attempts). The queue is instance-wide, kept on the coordinator (docs/SCALING.md), so this
 * maintenance statement has no organization to filter on. Returns how many went.
 */
export async function deleteFinishedJobsBefore(database: Queryable, kind: string, before: Date, limit: number): Promise<number> {
  const rows = await database.query<{ count: number }>(
    `WITH removed AS (
       DELETE FROM jobs
        WHERE id IN (SELECT id FROM jobs
                      WHERE kind = $1 AND status IN ('completed', 'failed', 'cancelled') AND finished_at < $2
                      ORDER BY finished_at LIMIT $3 FOR UPDATE SKIP LOCKED)
       RETURNING 1)
     SELECT count(*)::integer AS count FROM removed`,
    [kind, before, limit],
  );
  return rows[0]!.count;
}

/**
 * Queues a job this process held while preparing it, due now, with its attempts still to come;
 * false when it is no longer this process's (its lease ran out and another process took it).
 */
export async function handOverJob(database: Queryable, jobId: string, processId: string): Promise<boolean> {
  const rows = await database.query(
    `UPDATE jobs SET status = 'queued', attempts = 0, run_after = now(), locked_by = NULL, lease_until = NULL, started_at = NULL
      WHERE id = $1 AND locked_by = $2 AND status = 'running'
      RETURNING id`,
    [jobId, processId],
  );
  return rows.length > 0;
}

/** A job as it is taken, with what the queue needs to know of its concurrency key. */
export interface ClaimedJob extends JobRow {
  /** Whether the job's key was failing or slow when it was taken (see recordKeyOutcome). */
  keyTroubled: boolean;
}

/** What a claim must respect besides the jobs' own state (see JobQueueOptions). */
export interface ClaimLimits {
  /** Jobs of one concurrency key running at once across all processes, for a key in good health. */
  perKeyConcurrency: number;
  /** Organizations whose jobs are not to be taken. */
  excludedOrganizations: readonly string[];
  /** Whether a job whose key is failing or slow may be taken. */
  troubledKeysAllowed: boolean;
  /**
   * The organizations this process serves already, when the queue shares its slots between
   * organizations: queued jobs are then chosen organization by organization, those of the others
   * first (see claimNextJob).
   */
  servedOrganizations?: readonly string[];
}

/**
 * The concurrency keys that may not run another job now, as a WITH item: paused keys, keys
 * running as many jobs as they may (`$4` for a key in good health, one for a key paused since its
 * last success), and, unless `$6` allows them, keys that are failing or slow. Running jobs whose
 * lease ran out do not count: their process is gone.
 */
const BLOCKED_KEYS = `blocked_keys AS (
  SELECT k.concurrency_key FROM job_key_states k WHERE k.resume_at > now() OR (NOT $6 AND (k.pauses > 0 OR k.slow))
  UNION ALL
  SELECT r.concurrency_key FROM jobs r LEFT JOIN job_key_states k ON k.concurrency_key = r.concurrency_key
   WHERE r.status = 'running' AND r.concurrency_key IS NOT NULL AND r.lease_until >= now()
   GROUP BY r.concurrency_key
  HAVING count(*) >= CASE WHEN max(k.pauses) > 0 THEN 1 ELSE $4 END)`;

/** Whether the job `alias` may run now as far as its organization and key are concerned (with BLOCKED_KEYS; `$5` the excluded organizations). */
const MAY_RUN = (alias: string) =>
  `(${alias}.organization_id IS NULL OR ${alias}.organization_id <> ALL ($5::uuid[]))
   AND (${alias}.concurrency_key IS NULL OR ${alias}.concurrency_key NOT IN (SELECT concurrency_key FROM blocked_keys))`;

/**
 * Whether the job `alias` was left by a process that died: running, its lease run out. A lease of
 * this very process (`$1`) can run out while its renewal waits (on the embedded store, behind
 * the job's own transaction): such a job is not abandoned.
 */
const ABANDONED = (alias: string) => `${alias}.status = 'running' AND ${alias}.lease_until < now() AND ${alias}.locked_by IS DISTINCT FROM $1`;

/** What a claim sets on the job it takes, and returns of it. */
const TAKE = `SET status = 'running', attempts = attempts + 1, locked_by = $1, lease_until = now() + make_interval(secs => $2), started_at = coalesce(started_at, now())`;
const TAKEN = `RETURNING ${JOB_COLUMNS},
  coalesce((SELECT k.pauses > 0 OR k.slow FROM job_key_states k WHERE k.concurrency_key = jobs.concurrency_key), false) AS "keyTroubled"`;

/**
 * Takes the next job for this process: a running job whose lease ran out (its process died), or
 * else the oldest queued job whose time has come, trying the kinds in the order given (the queue
 * rotates it between polls, so no kind waits behind another's backlog). SKIP LOCKED lets several
 * processes take different jobs at once without waiting on each other; the attempt is counted
 * as it is taken.
 *
 * A job is passed over while its organization is among `excludedOrganizations`, or while its
 * concurrency key is paused after failures, runs as many jobs as it may (`perKeyConcurrency`,
 * one for a key that has been paused since its last success), or is failing or slow and
 * `troubledKeysAllowed` is false. With `servedOrganizations` the claim is one statement per kind
 * (claimByOrganization): an abandoned job, else the oldest due job of an organization not served
 * yet, else the oldest of the others not excluded.
 *
 * Each statement walks one partial index in order and stops at the first job it can take, so a
 * claim stays cheap however long the queue is: `jobs_leased` for abandoned jobs, `jobs_due` by
 * kind and time for queued ones. The keys that may not run now (a busy or paused webhook
 * endpoint) are found once per claim, and their backlog is skipped by a hash lookup. Choosing by
 * organization walks `jobs_due_by_organization` instead (see claimByOrganization), so that an
 * excluded organization's backlog is not walked at all.
 */
export async function claimNextJob(
  database: Queryable,
  processId: string,
  leaseSeconds: number,
  kinds: readonly string[],
  limits: ClaimLimits,
): Promise<ClaimedJob | undefined> {
  const parameters = (kindParameter: readonly string[] | string, excludedOrganizations: readonly string[]) => [
    processId,
    leaseSeconds,
    kindParameter,
    limits.perKeyConcurrency,
    excludedOrganizations,
    limits.troubledKeysAllowed,
  ];
  const claim = async (condition: string, order: string, kindParameter: readonly string[] | string) => {
    const rows = await database.query<ClaimedJob>(
      `WITH ${BLOCKED_KEYS}
       UPDATE jobs ${TAKE}
        WHERE id = (SELECT id FROM jobs j WHERE ${condition} AND ${MAY_RUN('j')} ORDER BY ${order} LIMIT 1 FOR UPDATE SKIP LOCKED)
       ${TAKEN}`,
      parameters(kindParameter, limits.excludedOrganizations),
    );
    return rows[0];
  };
  if (limits.servedOrganizations !== undefined) {
    for (const kind of kinds) {
      const job = await claimByOrganization(database, [...parameters(kind, limits.excludedOrganizations), limits.servedOrganizations]);
      if (job) return job;
    }
    return undefined;
  }
  const abandoned = await claim(`${ABANDONED('j')} AND j.kind = ANY ($3::text[])`, 'j.lease_until', kinds);
  if (abandoned) return abandoned;
  for (const kind of kinds) {
    const queued = await claim(`j.status = 'queued' AND j.kind = $3 AND j.run_after <= now()`, 'j.run_after', kind);
    if (queued) return queued;
  }
  return undefined;
}

/**
 * Takes, of one kind (`$3`): a job whose lease ran out, or else the oldest due job of an
 * organization not served yet (not in `$7`), or else the oldest of the organizations served and
 * not excluded (`$5`), or of no organization; one statement, as a claim of this kind comes after
 * every job.
 *
 * Walking `jobs_due` in time order would pass the whole backlog of the excluded organizations
 * first; instead the organizations with queued jobs are listed one index probe each (a loose
 * scan of `jobs_due_by_organization`: the next organization id after the previous one), and each
 * other organization's jobs are walked from its oldest, to its first that may run. The job found
 * is then locked with SKIP LOCKED; if another process took it meanwhile, nothing is taken this
 * time, and the queue's next claim goes on.
 */
async function claimByOrganization(database: Queryable, parameters: unknown[]): Promise<ClaimedJob | undefined> {
  const rows = await database.query<ClaimedJob>(
    `WITH RECURSIVE ${BLOCKED_KEYS},
     waiting AS (
       (SELECT j.organization_id FROM jobs j WHERE j.status = 'queued' AND j.kind = $3 AND j.organization_id IS NOT NULL ORDER BY j.organization_id LIMIT 1)
       UNION ALL
       SELECT (SELECT j.organization_id FROM jobs j WHERE j.status = 'queued' AND j.kind = $3 AND j.organization_id > w.organization_id ORDER BY j.organization_id LIMIT 1)
         FROM waiting w WHERE w.organization_id IS NOT NULL),
     candidates AS (
       (SELECT j.id, j.lease_until AS due, 0 AS rank FROM jobs j
         WHERE ${ABANDONED('j')} AND j.kind = $3 AND ${MAY_RUN('j')}
         ORDER BY j.lease_until LIMIT 1)
       UNION ALL
       SELECT c.id, c.run_after, CASE WHEN w.organization_id = ANY ($7::uuid[]) THEN 2 ELSE 1 END FROM waiting w
        CROSS JOIN LATERAL (SELECT j.id, j.run_after FROM jobs j
                             WHERE j.status = 'queued' AND j.kind = $3 AND j.organization_id = w.organization_id AND j.run_after <= now() AND ${MAY_RUN('j')}
                             ORDER BY j.run_after LIMIT 1) c
        WHERE w.organization_id IS NOT NULL AND w.organization_id <> ALL ($5::uuid[])
       UNION ALL
       (SELECT j.id, j.run_after, 2 FROM jobs j
         WHERE j.status = 'queued' AND j.kind = $3 AND j.organization_id IS NULL AND j.run_after <= now() AND ${MAY_RUN('j')}
         ORDER BY j.run_after LIMIT 1))
     UPDATE jobs ${TAKE}
      WHERE id = (SELECT j.id FROM jobs j
                   WHERE j.id = (SELECT id FROM candidates ORDER BY rank, due LIMIT 1) AND (j.status = 'queued' OR ${ABANDONED('j')})
                   FOR UPDATE SKIP LOCKED)
     ${TAKEN}`,
    parameters,
  );
  return rows[0];
}

/** When a failing key is paused, and for how long (see recordKeyOutcome). */
export interface KeyBackoff {
  failuresBeforePause: number;
  /** The n-th pause lasts the n-th entry, the last entry for every later one. */
  pauseSeconds: readonly number[];
}

/** How an attempt of a key's job went, as recordKeyOutcome takes it. */
export interface KeyOutcome {
  failed: boolean;
  /** The attempt took long enough to count as slow (success or not). */
  slow: boolean;
}

/**
 * Records how an attempt of one of a key's jobs went. A quick success forgets the key (healthy
 * again); a slow success keeps it as slow. A failure counts; from the `failuresBeforePause`-th
 * failure in a row the key is paused, unless a pause is already running (the failures of
 * attempts that were under way together make one pause, not several): the n-th pause lasts
 * `pauseSeconds[n - 1]`, the last entry for every later one.
 */
export async function recordKeyOutcome(database: Queryable, concurrencyKey: string, outcome: KeyOutcome, backoff: KeyBackoff): Promise<void> {
  if (!outcome.failed && !outcome.slow) {
    await database.query('DELETE FROM job_key_states WHERE concurrency_key = $1', [concurrencyKey]);
    return;
  }
  if (!outcome.failed) {
    await database.query(
      `INSERT INTO job_key_states (concurrency_key, failures, pauses, resume_at, slow) VALUES ($1, 0, 0, NULL, true)
       ON CONFLICT (concurrency_key) DO UPDATE SET failures = 0, pauses = 0, resume_at = NULL, slow = true, updated_at = now()`,
      [concurrencyKey],
    );
    return;
  }
  await database.query(
    `INSERT INTO job_key_states AS k (concurrency_key, failures, pauses, resume_at, slow)
     VALUES ($1, 1, CASE WHEN $2 <= 1 THEN 1 ELSE 0 END, CASE WHEN $2 <= 1 THEN now() + make_interval(secs => ($3::numeric[])[1]) END, $4)
     ON CONFLICT (concurrency_key) DO UPDATE
        SET failures = k.failures + 1,
            pauses = CASE WHEN k.failures + 1 >= $2 AND (k.resume_at IS NULL OR k.resume_at <= now()) THEN k.pauses + 1 ELSE k.pauses END,
            resume_at = CASE WHEN k.failures + 1 >= $2 AND (k.resume_at IS NULL OR k.resume_at <= now())
                             THEN now() + make_interval(secs => ($3::numeric[])[least(k.pauses + 1, cardinality($3::numeric[]))])
                             ELSE k.resume_at END,
            slow = $4,
            updated_at = now()`,
    [concurrencyKey, backoff.failuresBeforePause, backoff.pauseSeconds, outcome.slow],
  );
}

/** Forgets what a key's past attempts said (its target changed, or a person turned it back on). */
export async function forgetKey(database: Queryable, concurrencyKey: string): Promise<void> {
  await database.query('DELETE FROM job_key_states WHERE concurrency_key = $1', [concurrencyKey]);
}

/** Keeps a running job this process holds; false when the job is no longer this process's (its lease was taken over, or it was cancelled). */
export async function renewJobLease(database: Queryable, jobId: string, processId: string, leaseSeconds: number): Promise<boolean> {
  const rows = await database.query(
    `UPDATE jobs SET lease_until = now() + make_interval(secs => $3) WHERE id = $1 AND locked_by = $2 AND status = 'running' RETURNING id`,
    [jobId, processId, leaseSeconds],
  );
  return rows.length > 0;
}

/**
 * Completes a job this process holds. With `forgetKey`, its concurrency key's record of
 * failures goes in the same statement (the job's attempt succeeded quickly: see recordKeyOutcome),
 * which saves a round trip on the path every successful webhook delivery takes.
 */
export async function completeJob(database: Queryable, jobId: string, processId: string, options: { forgetKey?: boolean } = {}): Promise<void> {
  await database.query(
    `WITH forgotten AS (DELETE FROM job_key_states k USING jobs j WHERE $3 AND j.id = $1 AND k.concurrency_key = j.concurrency_key)
     UPDATE jobs SET status = 'completed', finished_at = now(), lease_until = NULL, last_error = NULL WHERE id = $1 AND locked_by = $2`,
    [jobId, processId, options.forgetKey ?? false],
  );
}

/**
 * Settles a failed attempt: queued again after `retryAfterSeconds` while attempts remain (and
 * the failure is worth retrying), otherwise failed for good. Returns the job's new status.
 */
export async function failJobAttempt(
  database: Queryable,
  jobId: string,
  processId: string | null,
  failure: { message: string; retryAfterSeconds: number | null },
): Promise<'queued' | 'failed' | null> {
  const rows = await database.query<{ status: 'queued' | 'failed' }>(
    `UPDATE jobs SET status = CASE WHEN $4::numeric IS NOT NULL AND attempts < max_attempts THEN 'queued' ELSE 'failed' END,
                     run_after = CASE WHEN $4::numeric IS NOT NULL THEN now() + make_interval(secs => $4::numeric) ELSE run_after END,
                     finished_at = CASE WHEN $4::numeric IS NOT NULL AND attempts < max_attempts THEN NULL ELSE now() END,
                     lease_until = NULL, locked_by = NULL, last_error = $3
      WHERE id = $1 AND ($2::text IS NULL OR locked_by = $2) AND status = 'running'
      RETURNING status`,
    [jobId, processId, failure.message.slice(0, 2000), failure.retryAfterSeconds],
  );
  return rows[0]?.status ?? null;
}

export async function findJobStatus(database: Queryable, jobId: string): Promise<string | undefined> {
  const rows = await database.query<{ status: string }>('SELECT status FROM jobs WHERE id = $1', [jobId]);
  return rows[0]?.status;
}

/** Whether any job is waiting to be taken now (queued and due, or abandoned by a dead process). */
export async function jobsWaiting(database: Queryable, kinds: readonly string[]): Promise<boolean> {
  const rows = await database.query(
    `SELECT 1 FROM jobs WHERE kind = ANY ($1::text[]) AND ((status = 'queued' AND run_after <= now()) OR (status = 'running' AND lease_until < now())) LIMIT 1`,
    [kinds],
  );
  return rows.length > 0;
}

/** Ends the leases of every running job (their process is gone: the embedded store admits one process). */
export async function expireAllLeases(database: Queryable): Promise<number> {
  const rows = await database.query(`UPDATE jobs SET lease_until = now() - interval '1 second' WHERE status = 'running' RETURNING id`);
  return rows.length;
}
