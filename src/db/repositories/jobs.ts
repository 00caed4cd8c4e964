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
}

const JOB_COLUMNS = `id, organization_id AS "organizationId", kind, payload, status, attempts, max_attempts AS "maxAttempts"`;

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
    [job.id, job.organizationId, job.kind, JSON.stringify(job.payload), job.status ?? 'queued', job.maxAttempts, job.lockedBy ?? null, job.leaseSeconds ?? 0, job.delaySeconds ?? 0, job.concurrencyKey ?? null],
  );
}

/**
 * Queues a recurring job's one row again once its last run finished at least `intervalSeconds`
 * ago, or creates it (due now) on first use. Every process calls this now and then; the row's id
 * is fixed, so there is never more than one run queued or running, and the conditional update
 * lets only one of several processes calling at once queue it. Returns whether it was queued.
 */
export async function queueRecurringJob(database: Queryable, job: { id: string; kind: string; maxAttempts: number; intervalSeconds: number }): Promise<boolean> {
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

/**
 * Takes the next job for this process: a running job whose lease ran out (its process died), or
 * else the oldest queued job whose time has come, trying the kinds in the order given (the queue
 * rotates it between polls, so no kind waits behind another's backlog). SKIP LOCKED lets several
 * processes take different jobs at once without waiting on each other; the attempt is counted
 * as it is taken.
 *
 * Each statement walks one partial index in order and stops at the first job it can take, so a
 * claim stays cheap however long the queue is: `jobs_leased` for abandoned jobs, `jobs_due` by
 * kind and time for queued ones. The keys already at their limit (a busy webhook endpoint) are
 * found once per claim, and their backlog is skipped by a hash lookup.
 */
export async function claimNextJob(database: Queryable, processId: string, leaseSeconds: number, kinds: readonly string[], perKeyConcurrency: number): Promise<JobRow | undefined> {
  const claim = async (condition: string, order: string, kindParameter: readonly string[] | string) => {
    const rows = await database.query<JobRow>(
      `UPDATE jobs SET status = 'running', attempts = attempts + 1, locked_by = $1, lease_until = now() + make_interval(secs => $2),
                       started_at = coalesce(started_at, now())
        WHERE id = (SELECT id FROM jobs j
                     WHERE ${condition}
                       AND (j.concurrency_key IS NULL
                            OR j.concurrency_key NOT IN (SELECT r.concurrency_key FROM jobs r
                                                          WHERE r.status = 'running' AND r.concurrency_key IS NOT NULL AND r.lease_until >= now()
                                                          GROUP BY r.concurrency_key HAVING count(*) >= $4))
                     ORDER BY ${order}
                     LIMIT 1
                     FOR UPDATE SKIP LOCKED)
        RETURNING ${JOB_COLUMNS}`,
      [processId, leaseSeconds, kindParameter, perKeyConcurrency],
    );
    return rows[0];
  };
  // A lease of this very process can run out while its renewal waits (on the embedded store,
  // behind the job's own transaction): such a job is not abandoned.
  const abandoned = await claim(`j.status = 'running' AND j.lease_until < now() AND j.locked_by IS DISTINCT FROM $1 AND j.kind = ANY ($3::text[])`, 'j.lease_until', kinds);
  if (abandoned) return abandoned;
  for (const kind of kinds) {
    const queued = await claim(`j.status = 'queued' AND j.kind = $3 AND j.run_after <= now()`, 'j.run_after', kind);
    if (queued) return queued;
  }
  return undefined;
}

/** Keeps a running job this process holds; false when the job is no longer this process's (its lease was taken over, or it was cancelled). */
export async function renewJobLease(database: Queryable, jobId: string, processId: string, leaseSeconds: number): Promise<boolean> {
  const rows = await database.query(
    `UPDATE jobs SET lease_until = now() + make_interval(secs => $3) WHERE id = $1 AND locked_by = $2 AND status = 'running' RETURNING id`,
    [jobId, processId, leaseSeconds],
  );
  return rows.length > 0;
}

export async function completeJob(database: Queryable, jobId: string, processId: string): Promise<void> {
  await database.query(`UPDATE jobs SET status = 'completed', finished_at = now(), lease_until = NULL, last_error = NULL WHERE id = $1 AND locked_by = $2`, [
    jobId,
    processId,
  ]);
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
