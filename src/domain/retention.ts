import type { Database } from '../db/database.ts';
import { deleteEventsBefore } from '../db/repositories/events.ts';
import { deleteFinishedJobsBefore } from '../db/repositories/jobs.ts';
import { listOrganizationIds } from '../db/repositories/organizations.ts';
import { deleteFinishedDeliveriesBefore } from '../db/repositories/webhooks.ts';
import { JobInterrupted, type JobQueue } from './jobs/job-queue.ts';
import { WEBHOOK_DELIVERY_JOB } from './webhooks/deliveries.ts';

/**
 * Retention of the event feed and of webhook deliveries: both would otherwise grow for ever.
 * Events are kept EVENT_RETENTION_DAYS so that a consumer of GET /events that was away catches
 * up; finished deliveries (and their attempts) WEBHOOK_DELIVERY_RETENTION_DAYS, for the
 * delivery history of the Developer page. What is old enough is decided here; the statements
 * that remove it are in the repositories.
 *
 * The sweep is a recurring job of the job queue, so that one process of all those sharing the
 * database runs it each time, and one that dies in the middle leaves it to another. Its deletes
 * skip rows other transactions hold, so even two sweeps at once would not wait on each other or
 * remove anything twice.
 */

export const RETENTION_SWEEP_JOB = 'retention-sweep';

/** How often the sweep runs. */
export const RETENTION_SWEEP_INTERVAL_SECONDS = 3600;

/** Rows removed per statement (and at most as many delivery attempts), so that no statement or lock lasts long. */
export const RETENTION_BATCH_ROWS = 10_000;

/** Organizations read per page while visiting them all. */
const ORGANIZATIONS_PER_PAGE = 1000;

const MILLISECONDS_PER_DAY = 86_400_000;

export interface RetentionSettings {
  eventRetentionDays: number;
  webhookDeliveryRetentionDays: number;
}

export interface SweepResult {
  eventsRemoved: number;
  deliveriesRemoved: number;
}

export interface FullSweepResult extends SweepResult {
  /** Finished delivery jobs removed from the queue (instance-wide). */
  deliveryJobsRemoved: number;
}

/** The moment before which a row kept `retentionDays` is old enough to remove. */
export function retentionCutoff(now: Date, retentionDays: number): Date {
  return new Date(now.getTime() - retentionDays * MILLISECONDS_PER_DAY);
}

/** Stops the sweep between two batches when its job is being stopped; what was removed stays removed. */
function throwIfStopped(signal: AbortSignal | undefined): void {
  if (signal?.aborted) throw new JobInterrupted('the retention sweep was stopped');
}

export class Retention {
  constructor(
    private readonly database: Database,
    private readonly settings: RetentionSettings,
    queue?: JobQueue,
  ) {
    queue?.registerRecurring(RETENTION_SWEEP_JOB, (_job, context) => this.sweep({ signal: context.signal }).then(() => {}), {
      intervalSeconds: RETENTION_SWEEP_INTERVAL_SECONDS,
    });
  }

  /**
   * Removes what is past its retention, organization by organization, in batches of
   * RETENTION_BATCH_ROWS. `now` is the moment the retention counts back from (tests pass one);
   * `signal` stops the sweep between batches, what it removed so far staying removed.
   */
  async sweep(options: { now?: Date; signal?: AbortSignal } = {}): Promise<FullSweepResult> {
    // One moment for the whole sweep, so that every organization and the queue count back from it.
    const now = options.now ?? new Date();
    const total: FullSweepResult = { eventsRemoved: 0, deliveriesRemoved: 0, deliveryJobsRemoved: 0 };
    let afterId: string | null = null;
    for (;;) {
      const organizationIds = await listOrganizationIds(this.database, afterId, ORGANIZATIONS_PER_PAGE);
      for (const organizationId of organizationIds) {
        const result = await this.sweepOrganization(organizationId, { now, signal: options.signal });
        total.eventsRemoved += result.eventsRemoved;
        total.deliveriesRemoved += result.deliveriesRemoved;
      }
      if (organizationIds.length < ORGANIZATIONS_PER_PAGE) break;
      afterId = organizationIds.at(-1)!;
    }
    // Each delivery has a job in the queue; once finished, the delivery row keeps its history.
    const deliveriesBefore = retentionCutoff(now, this.settings.webhookDeliveryRetentionDays);
    for (;;) {
      throwIfStopped(options.signal);
      const removed = await deleteFinishedJobsBefore(this.database, WEBHOOK_DELIVERY_JOB, deliveriesBefore, RETENTION_BATCH_ROWS);
      total.deliveryJobsRemoved += removed;
      if (removed < RETENTION_BATCH_ROWS) return total;
    }
  }

  /** Removes one organization's events and finished deliveries past their retention. */
  async sweepOrganization(organizationId: string, options: { now?: Date; signal?: AbortSignal } = {}): Promise<SweepResult> {
    const now = options.now ?? new Date();
    let deliveriesRemoved = 0;
    const deliveriesBefore = retentionCutoff(now, this.settings.webhookDeliveryRetentionDays);
    for (;;) {
      throwIfStopped(options.signal);
      const removed = await deleteFinishedDeliveriesBefore(this.database, organizationId, deliveriesBefore, {
        deliveryLimit: RETENTION_BATCH_ROWS,
        attemptLimit: RETENTION_BATCH_ROWS,
      });
      deliveriesRemoved += removed;
      if (removed === 0) break;
    }
    let eventsRemoved = 0;
    const eventsBefore = retentionCutoff(now, this.settings.eventRetentionDays);
    for (;;) {
      throwIfStopped(options.signal);
      const removed = await deleteEventsBefore(this.database, organizationId, eventsBefore, RETENTION_BATCH_ROWS);
      eventsRemoved += removed;
      if (removed < RETENTION_BATCH_ROWS) break;
    }
    return { eventsRemoved, deliveriesRemoved };
  }
}
