import { randomUUID } from 'node:crypto';
import type { Database, Queryable } from '../../db/database.ts';
import {
  countEndpoints,
  deleteEndpoint,
  findDelivery,
  findEndpoint,
  insertDelivery,
  insertEndpoint,
  listDeliveries,
  listEndpoints,
  lockDeliveryEvent,
  requeueDelivery,
  rotateEndpointSecret,
  updateEndpoint,
  type EndpointRow,
} from '../../db/repositories/webhooks.ts';
import { conflict, notFound } from '../../errors.ts';
import type { WriteContext } from '../audit.ts';
import { createdCursors, pageOf, pageSize, readCursor, rowsToFetch } from '../pages.ts';
import type { JobQueue } from '../jobs/job-queue.ts';
import { WEBHOOK_DELIVERY_JOB } from './deliveries.ts';
import { generateSigningSecret } from './signing.ts';
import { checkTargetUrl, findTargetProblem } from './targets.ts';

/** Endpoints one organization may have. */
export const ENDPOINTS_LIMIT = 50;
/** How long the replaced secret keeps signing after a rotation, so receivers can switch without losing messages. */
export const SECRET_OVERLAP_SECONDS = 24 * 3600;
export const DELIVERIES_PAGE_SIZE = pageSize(50, 200);

const DELIVERIES_CURSORS = createdCursors('wd_');

export interface EndpointInput {
  url: string;
  description?: string;
  eventTypes?: readonly string[];
  enabled?: boolean;
}

export class WebhookEndpoints {
  constructor(
    private readonly database: Database,
    private readonly deliveryQueue: JobQueue,
    private readonly settings: { allowPrivateTargets: boolean },
  ) {}

  /** Checks a target before the write's transaction: it may wait on DNS. Returns the URL as it is stored. */
  async checkUrl(url: string): Promise<string> {
    return checkTargetUrl(url, { allowPrivateTargets: this.settings.allowPrivateTargets });
  }

  /**
   * Checks a change before the write's transaction (it may wait on DNS), and returns it with its
   * URL as it is stored. A new URL is checked as on creation. An endpoint turned on with the URL
   * it has gets that URL checked again: it may have been saved under settings that allowed more
   * (WEBHOOK_ALLOW_PRIVATE_TARGETS), or its host may resolve elsewhere since. Any URL stored was
   * checked when it was, so a change racing this one cannot bring an unchecked URL in.
   */
  async checkChange(organizationId: string, endpointId: string, change: Partial<EndpointInput>): Promise<Partial<EndpointInput>> {
    if (change.url !== undefined) return { ...change, url: await this.checkUrl(change.url) };
    if (change.enabled !== true) return change;
    const endpoint = await this.get(organizationId, endpointId);
    const problem = await findTargetProblem(endpoint.url, { allowPrivateTargets: this.settings.allowPrivateTargets });
    if (problem !== null) {
      // Worded for the web app too, where a person turns an endpoint back on: no ids, no field paths.
      const message = `this webhook endpoint cannot be enabled while its URL is refused: the URL ${problem}. Give it an allowed URL in the same change, or delete it`;
      throw conflict(message, [{ path: '/body/enabled', message }]);
    }
    return change;
  }

  async list(organizationId: string): Promise<EndpointRow[]> {
    return listEndpoints(this.database, organizationId, ENDPOINTS_LIMIT);
  }

  async get(organizationId: string, endpointId: string): Promise<EndpointRow> {
    const endpoint = await findEndpoint(this.database, organizationId, endpointId);
    if (!endpoint) throw notFound('webhook endpoint', endpointId);
    return endpoint;
  }

  /** Creates an endpoint; the answer holds its signing secret, shown this once. `url` was checked by checkUrl. */
  async create(transaction: Queryable, context: WriteContext, input: EndpointInput): Promise<EndpointRow & { secret: string }> {
    if ((await countEndpoints(transaction, context.organizationId)) >= ENDPOINTS_LIMIT) {
      throw conflict(`this organization has ${ENDPOINTS_LIMIT} webhook endpoints, the most it may have; delete one it no longer needs first`);
    }
    const secret = generateSigningSecret();
    const endpoint = await insertEndpoint(transaction, {
      id: randomUUID(),
      organizationId: context.organizationId,
      url: input.url,
      description: input.description ?? '',
      eventTypes: [...new Set(input.eventTypes ?? [])].sort(),
      enabled: input.enabled ?? true,
      secret,
      createdBy: context.actor,
    });
    return { ...endpoint, secret };
  }

  async update(transaction: Queryable, context: WriteContext, endpointId: string, change: Partial<EndpointInput>): Promise<EndpointRow> {
    const endpoint = await updateEndpoint(transaction, context.organizationId, endpointId, {
      ...change,
      ...(change.eventTypes ? { eventTypes: [...new Set(change.eventTypes)].sort() } : {}),
    });
    if (!endpoint) throw notFound('webhook endpoint', endpointId);
    // A new receiver, or one a person has turned back on, starts without the old one's failures.
    if (change.url !== undefined || change.enabled === true) await this.deliveryQueue.forgetKey(transaction, endpointId);
    return endpoint;
  }

  /** Deletes an endpoint with its deliveries; messages not yet sent are not sent. */
  async remove(transaction: Queryable, context: WriteContext, endpointId: string): Promise<void> {
    if (!(await deleteEndpoint(transaction, context.organizationId, endpointId))) throw notFound('webhook endpoint', endpointId);
    await this.deliveryQueue.forgetKey(transaction, endpointId);
  }

  /** A new signing secret; the previous one signs too for SECRET_OVERLAP_SECONDS (both signatures are sent). */
  async rotateSecret(
    transaction: Queryable,
    organizationId: string,
    endpointId: string,
  ): Promise<{ endpointId: string; secret: string; previousSecretExpiresAt: string }> {
    const secret = generateSigningSecret();
    const endpoint = await rotateEndpointSecret(transaction, organizationId, endpointId, secret, SECRET_OVERLAP_SECONDS);
    if (!endpoint) throw notFound('webhook endpoint', endpointId);
    return { endpointId, secret, previousSecretExpiresAt: endpoint.previousSecretExpiresAt! };
  }

  /** Queues a test message (type webhook.test) to one endpoint; answers with its delivery. */
  async sendTest(transaction: Queryable, context: WriteContext, endpointId: string) {
    const endpoint = await findEndpoint(transaction, context.organizationId, endpointId, { lock: true });
    if (!endpoint) throw notFound('webhook endpoint', endpointId);
    if (!endpoint.enabled) throw conflict(`webhook endpoint ${endpointId} is disabled; enable it (PATCH {"enabled": true}) before sending a test message`);
    const messageId = randomUUID();
    const delivery = await insertDelivery(transaction, {
      id: randomUUID(),
      organizationId: context.organizationId,
      endpointId,
      messageId,
      eventType: 'webhook.test',
      testPayload: {
        type: 'webhook.test',
        timestamp: new Date().toISOString(),
        data: {
          endpointId,
          message: 'A test message from ledger-recon: if you can read this, your endpoint receives and verifies deliveries.',
          sentBy: context.actor,
        },
      },
    });
    await this.#enqueue(transaction, context.organizationId, endpointId, delivery.id);
    return delivery;
  }

  async deliveries(organizationId: string, endpointId: string, query: { status: string | null; cursor: string | null; limit: number }) {
    await this.get(organizationId, endpointId);
    const before = await readCursor(DELIVERIES_CURSORS, query.cursor);
    const rows = await listDeliveries(this.database, organizationId, endpointId, { status: query.status, before, limit: rowsToFetch(query.limit) });
    const page = await pageOf(rows, query.limit, (row) => ({ createdAt: row.position, id: row.id }), DELIVERIES_CURSORS);
    return { deliveries: page.rows.map(({ position: _position, ...delivery }) => delivery), nextCursor: page.nextCursor };
  }

  async delivery(organizationId: string, endpointId: string, deliveryId: string) {
    const delivery = await findDelivery(this.database, organizationId, endpointId, deliveryId);
    if (!delivery) throw notFound('webhook delivery', deliveryId);
    const { attempts_list: attemptList, ...rest } = delivery;
    return { ...rest, attemptList };
  }

  /** Sends a settled delivery again, with the same webhook-id; retries start afresh. */
  async redeliver(transaction: Queryable, context: WriteContext, endpointId: string, deliveryId: string) {
    const endpoint = await findEndpoint(transaction, context.organizationId, endpointId, { lock: true });
    if (!endpoint) throw notFound('webhook endpoint', endpointId);
    if (!endpoint.enabled) throw conflict(`webhook endpoint ${endpointId} is disabled; enable it (PATCH {"enabled": true}) before redelivering`);
    const existing = await findDelivery(transaction, context.organizationId, endpointId, deliveryId);
    if (!existing) throw notFound('webhook delivery', deliveryId);
    // The body is built from the event when sent: one removed by retention cannot be sent again.
    // A kept event stays locked until this transaction commits; from then on the pending delivery keeps it from removal.
    if ((await lockDeliveryEvent(transaction, context.organizationId, deliveryId)) === 'removed') {
      throw conflict(
        `the event of webhook delivery ${deliveryId} was removed after the event retention period (EVENT_RETENTION_DAYS); it can no longer be redelivered`,
      );
    }
    if (!(await requeueDelivery(transaction, context.organizationId, deliveryId))) {
      throw conflict(
        `webhook delivery ${deliveryId} is still pending (next attempt ${existing.nextAttemptAt ?? 'now'}); it can be redelivered once it has succeeded or failed`,
      );
    }
    await this.#enqueue(transaction, context.organizationId, endpointId, deliveryId);
    const { attempts_list: _attempts, ...delivery } = (await findDelivery(transaction, context.organizationId, endpointId, deliveryId))!;
    return delivery;
  }

  /**
   * Queues a delivery a person asked for (a test message, a redelivery). It ends the endpoint's
   * pause, if it is paused after failures: a person who has just mended the receiver and tries it
   * sees the message go at once, not minutes later; a receiver still down is paused again after
   * three more failures.
   */
  async #enqueue(transaction: Queryable, organizationId: string, endpointId: string, deliveryId: string): Promise<void> {
    await this.deliveryQueue.forgetKey(transaction, endpointId);
    await this.deliveryQueue.enqueue(transaction, { organizationId, kind: WEBHOOK_DELIVERY_JOB, payload: { deliveryId }, concurrencyKey: endpointId });
  }
}
