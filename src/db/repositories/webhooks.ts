import type { Database, Queryable } from '../database.ts';

/** Webhook endpoints, their deliveries and the attempts of each (SPEC §11). */

const TIMESTAMP = (column: string) => `to_char(${column} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;

export interface EndpointRow {
  id: string;
  url: string;
  description: string;
  eventTypes: string[];
  enabled: boolean;
  disabledReason: 'requested' | 'failing' | null;
  disabledAt: string | null;
  failingSince: string | null;
  previousSecretExpiresAt: string | null;
  createdAt: string;
  createdBy: string;
  updatedAt: string;
}

const ENDPOINT_COLUMNS = `id, url, description, event_types AS "eventTypes", enabled, disabled_reason AS "disabledReason",
  ${TIMESTAMP('disabled_at')} AS "disabledAt", ${TIMESTAMP('failing_since')} AS "failingSince",
  CASE WHEN previous_secret_expires_at > now() THEN ${TIMESTAMP('previous_secret_expires_at')} END AS "previousSecretExpiresAt",
  ${TIMESTAMP('created_at')} AS "createdAt", created_by AS "createdBy", ${TIMESTAMP('updated_at')} AS "updatedAt"`;

export async function insertEndpoint(
  database: Queryable,
  endpoint: {
    id: string;
    organizationId: string;
    url: string;
    description: string;
    eventTypes: readonly string[];
    enabled: boolean;
    secret: string;
    createdBy: string;
  },
): Promise<EndpointRow> {
  const rows = await database.query<EndpointRow>(
    `INSERT INTO webhook_endpoints (id, organization_id, url, description, event_types, enabled, disabled_reason, disabled_at, secret, created_by)
     VALUES ($1, $2, $3, $4, $5, $6, CASE WHEN $6 THEN NULL ELSE 'requested' END, CASE WHEN $6 THEN NULL ELSE now() END, $7, $8)
     RETURNING ${ENDPOINT_COLUMNS}`,
    [endpoint.id, endpoint.organizationId, endpoint.url, endpoint.description, endpoint.eventTypes, endpoint.enabled, endpoint.secret, endpoint.createdBy],
  );
  return rows[0]!;
}

export async function countEndpoints(database: Queryable, organizationId: string): Promise<number> {
  const rows = await database.query<{ count: string }>('SELECT count(*) AS count FROM webhook_endpoints WHERE organization_id = $1', [organizationId]);
  return Number(rows[0]!.count);
}

export async function listEndpoints(database: Queryable, organizationId: string, limit: number): Promise<EndpointRow[]> {
  return database.query<EndpointRow>(`SELECT ${ENDPOINT_COLUMNS} FROM webhook_endpoints WHERE organization_id = $1 ORDER BY created_at, id LIMIT $2`, [
    organizationId,
    limit,
  ]);
}

export async function findEndpoint(
  database: Queryable,
  organizationId: string,
  endpointId: string,
  options: { lock?: boolean } = {},
): Promise<EndpointRow | undefined> {
  const rows = await database.query<EndpointRow>(
    `SELECT ${ENDPOINT_COLUMNS} FROM webhook_endpoints WHERE organization_id = $1 AND id = $2${options.lock ? ' FOR UPDATE' : ''}`,
    [organizationId, endpointId],
  );
  return rows[0];
}

/**
 * Changes what is given. Enabling clears the failure record (deliveries start afresh);
 * disabling by request records when and why.
 */
export async function updateEndpoint(
  database: Queryable,
  organizationId: string,
  endpointId: string,
  change: { url?: string; description?: string; eventTypes?: readonly string[]; enabled?: boolean },
): Promise<EndpointRow | undefined> {
  const rows = await database.query<EndpointRow>(
    `UPDATE webhook_endpoints
        SET url = coalesce($3, url),
            description = coalesce($4, description),
            event_types = coalesce($5, event_types),
            disabled_reason = CASE WHEN $6::boolean IS NULL OR $6 = enabled THEN disabled_reason WHEN $6 THEN NULL ELSE 'requested' END,
            disabled_at = CASE WHEN $6::boolean IS NULL OR $6 = enabled THEN disabled_at WHEN $6 THEN NULL ELSE now() END,
            failing_since = CASE WHEN $6::boolean AND NOT enabled THEN NULL ELSE failing_since END,
            enabled = coalesce($6, enabled),
            updated_at = now()
      WHERE organization_id = $1 AND id = $2
      RETURNING ${ENDPOINT_COLUMNS}`,
    [organizationId, endpointId, change.url ?? null, change.description ?? null, change.eventTypes ?? null, change.enabled ?? null],
  );
  return rows[0];
}

export async function deleteEndpoint(database: Queryable, organizationId: string, endpointId: string): Promise<boolean> {
  const rows = await database.query('DELETE FROM webhook_endpoints WHERE organization_id = $1 AND id = $2 RETURNING id', [organizationId, endpointId]);
  return rows.length > 0;
}

/** A new secret; the one it replaces keeps signing for `overlapSeconds`. */
export async function rotateEndpointSecret(
  database: Queryable,
  organizationId: string,
  endpointId: string,
  secret: string,
  overlapSeconds: number,
): Promise<EndpointRow | undefined> {
  const rows = await database.query<EndpointRow>(
    `UPDATE webhook_endpoints
        SET previous_secret = secret, previous_secret_expires_at = now() + make_interval(secs => $4), secret = $3, updated_at = now()
      WHERE organization_id = $1 AND id = $2
      RETURNING ${ENDPOINT_COLUMNS}`,
    [organizationId, endpointId, secret, overlapSeconds],
  );
  return rows[0];
}

export interface DeliveryRow {
  id: string;
  endpointId: string;
  messageId: string;
  eventType: string;
  status: 'pending' | 'succeeded' | 'failed';
  attempts: number;
  lastAttemptAt: string | null;
  lastResponseStatus: number | null;
  lastDurationMilliseconds: number | null;
  lastError: string | null;
  nextAttemptAt: string | null;
  createdAt: string;
  deliveredAt: string | null;
}

const DELIVERY_COLUMNS = `d.id, d.endpoint_id AS "endpointId", d.message_id AS "messageId", d.event_type AS "eventType", d.status, d.attempts,
  ${TIMESTAMP('d.last_attempt_at')} AS "lastAttemptAt", d.last_response_status AS "lastResponseStatus",
  d.last_duration_milliseconds AS "lastDurationMilliseconds", d.last_error AS "lastError",
  CASE WHEN d.status = 'pending' THEN ${TIMESTAMP('d.next_attempt_at')} END AS "nextAttemptAt",
  ${TIMESTAMP('d.created_at')} AS "createdAt", ${TIMESTAMP('d.delivered_at')} AS "deliveredAt"`;

/** A delivery made by a person (a test message, a redelivery) rather than by an event's fan-out. */
export async function insertDelivery(
  database: Queryable,
  delivery: { id: string; organizationId: string; endpointId: string; messageId: string; eventType: string; testPayload: unknown },
): Promise<DeliveryRow> {
  const rows = await database.query<DeliveryRow>(
    `WITH d AS (
       INSERT INTO webhook_deliveries (id, organization_id, endpoint_id, message_id, event_type, test_payload, status, next_attempt_at)
       VALUES ($1, $2, $3, $4, $5, $6::jsonb, 'pending', now())
       RETURNING *)
     SELECT ${DELIVERY_COLUMNS} FROM d`,
    [
      delivery.id,
      delivery.organizationId,
      delivery.endpointId,
      delivery.messageId,
      delivery.eventType,
      delivery.testPayload === null ? null : JSON.stringify(delivery.testPayload),
    ],
  );
  return rows[0]!;
}

/** A page of an endpoint's deliveries, newest first, before a (created at, id) position. */
export async function listDeliveries(
  database: Queryable,
  organizationId: string,
  endpointId: string,
  query: { status: string | null; before: { createdAt: string; id: string } | null; limit: number },
): Promise<(DeliveryRow & { position: string })[]> {
  // The position is created_at at full precision: the deliveries of one event batch share it.
  return database.query<DeliveryRow & { position: string }>(
    `SELECT ${DELIVERY_COLUMNS}, d.created_at::text AS position
       FROM webhook_deliveries d
      WHERE d.organization_id = $1 AND d.endpoint_id = $2
        AND ($3::text IS NULL OR d.status = $3)
        AND ($4::timestamptz IS NULL OR (d.created_at, d.id) < ($4::timestamptz, $5::uuid))
      ORDER BY d.created_at DESC, d.id DESC
      LIMIT $6`,
    [organizationId, endpointId, query.status, query.before?.createdAt ?? null, query.before?.id ?? null, query.limit],
  );
}

export interface AttemptRow {
  attemptedAt: string;
  responseStatus: number | null;
  durationMilliseconds: number;
  error: string | null;
}

export async function findDelivery(
  database: Queryable,
  organizationId: string,
  endpointId: string,
  deliveryId: string,
): Promise<(DeliveryRow & { attempts_list: AttemptRow[] }) | undefined> {
  const rows = await database.query<DeliveryRow & { attempts_list: AttemptRow[] }>(
    `SELECT ${DELIVERY_COLUMNS},
            coalesce((SELECT json_agg(json_build_object('attemptedAt', ${TIMESTAMP('a.attempted_at')}, 'responseStatus', a.response_status,
                                                        'durationMilliseconds', a.duration_milliseconds, 'error', a.error) ORDER BY a.sequence)
                        FROM (SELECT * FROM webhook_delivery_attempts WHERE delivery_id = d.id AND organization_id = d.organization_id
                               ORDER BY sequence DESC LIMIT $4) a), '[]'::json) AS attempts_list
       FROM webhook_deliveries d
      WHERE d.organization_id = $1 AND d.endpoint_id = $2 AND d.id = $3`,
    [organizationId, endpointId, deliveryId, 100],
  );
  return rows[0];
}

/** Puts a settled delivery back in line (a redelivery); the attempts so far stay listed. */
export async function requeueDelivery(database: Queryable, organizationId: string, deliveryId: string): Promise<boolean> {
  const rows = await database.query(
    `UPDATE webhook_deliveries SET status = 'pending', next_attempt_at = now(), window_started_at = now(), delivered_at = NULL
      WHERE organization_id = $1 AND id = $2 AND status <> 'pending' RETURNING id`,
    [organizationId, deliveryId],
  );
  return rows.length > 0;
}

/** What one attempt needs: the delivery, its endpoint's address and secrets, and the body's parts. */
export interface DeliveryToSend {
  id: string;
  organizationId: string;
  status: string;
  messageId: string;
  eventType: string;
  /** Attempts made so far. */
  attempts: number;
  windowStartedAt: Date;
  testPayload: Record<string, unknown> | null;
  endpointId: string;
  url: string;
  enabled: boolean;
  secret: string;
  previousSecret: string | null;
  failingSince: Date | null;
  eventData: Record<string, unknown> | null;
  eventOccurredAt: string | null;
}

export async function findDeliveryToSend(database: Queryable, organizationId: string, deliveryId: string): Promise<DeliveryToSend | undefined> {
  const rows = await database.query<DeliveryToSend>(
    `SELECT d.id, d.organization_id AS "organizationId", d.status, d.message_id AS "messageId", d.event_type AS "eventType", d.attempts, d.window_started_at AS "windowStartedAt",
            d.test_payload AS "testPayload", w.id AS "endpointId", w.url, w.enabled, w.secret,
            CASE WHEN w.previous_secret_expires_at > now() THEN w.previous_secret END AS "previousSecret",
            w.failing_since AS "failingSince", e.data AS "eventData", ${TIMESTAMP('e.occurred_at')} AS "eventOccurredAt"
       FROM webhook_deliveries d
       JOIN webhook_endpoints w ON w.organization_id = d.organization_id AND w.id = d.endpoint_id
       LEFT JOIN events e ON e.id = d.message_id AND e.organization_id = d.organization_id
      WHERE d.organization_id = $1 AND d.id = $2`,
    [organizationId, deliveryId],
  );
  return rows[0];
}

/**
 * Records one attempt and settles the delivery and its endpoint in one statement set: a success
 * clears the endpoint's failure record; a failure starts it, and an endpoint failing for
 * `giveUpSeconds` is disabled.
 */
export async function recordAttempt(
  database: Database,
  attempt: {
    deliveryId: string;
    organizationId: string;
    endpointId: string;
    processId: string;
    responseStatus: number | null;
    durationMilliseconds: number;
    error: string | null;
    outcome: 'succeeded' | 'retry' | 'failed';
    retryAfterMilliseconds: number;
    giveUpSeconds: number;
  },
): Promise<{ endpointDisabled: boolean }> {
  if (attempt.outcome === 'succeeded') {
    // The common path in one statement (one round trip, atomic all the same): the attempt, the
    // delivery settled, and the endpoint's failure record cleared if it had one.
    await database.query(
      `WITH attempt AS (
         INSERT INTO webhook_delivery_attempts (delivery_id, organization_id, response_status, duration_milliseconds, error, process_id)
         VALUES ($1, $2, $3, $4, NULL, $5)),
       delivery AS (
         UPDATE webhook_deliveries
            SET attempts = attempts + 1, last_attempt_at = now(), last_response_status = $3, last_duration_milliseconds = $4, last_error = NULL,
                status = 'succeeded', next_attempt_at = NULL, delivered_at = now()
          WHERE organization_id = $2 AND id = $1)
       UPDATE webhook_endpoints SET failing_since = NULL WHERE organization_id = $2 AND id = $6 AND failing_since IS NOT NULL`,
      [attempt.deliveryId, attempt.organizationId, attempt.responseStatus, attempt.durationMilliseconds, attempt.processId, attempt.endpointId],
    );
    return { endpointDisabled: false };
  }
  return database.transaction(async (transaction) => {
    const error = attempt.error?.slice(0, 500) ?? null;
    await transaction.query(
      `INSERT INTO webhook_delivery_attempts (delivery_id, organization_id, response_status, duration_milliseconds, error, process_id) VALUES ($1, $2, $3, $4, $5, $6)`,
      [attempt.deliveryId, attempt.organizationId, attempt.responseStatus, attempt.durationMilliseconds, error, attempt.processId],
    );
    await transaction.query(
      `UPDATE webhook_deliveries
          SET attempts = attempts + 1, last_attempt_at = now(), last_response_status = $2, last_duration_milliseconds = $3, last_error = $4,
              status = CASE $5 WHEN 'retry' THEN 'pending' ELSE $5 END,
              next_attempt_at = CASE WHEN $5 = 'retry' THEN now() + make_interval(secs => $6::numeric / 1000) END,
              delivered_at = CASE WHEN $5 = 'succeeded' THEN now() END
        WHERE organization_id = $7 AND id = $1`,
      [
        attempt.deliveryId,
        attempt.responseStatus,
        attempt.durationMilliseconds,
        error,
        attempt.outcome,
        attempt.retryAfterMilliseconds,
        attempt.organizationId,
      ],
    );
    // Failing for the give-up period: since long enough, or since before the first attempt of a
    // delivery that has just given up (its every attempt over the whole period failed, and no
    // delivery to the endpoint succeeded meanwhile).
    const rows = await transaction.query<{ disabled: boolean }>(
      `WITH first_attempt AS (
         SELECT min(a.attempted_at) AS at
           FROM webhook_delivery_attempts a JOIN webhook_deliveries d ON d.id = a.delivery_id AND d.organization_id = a.organization_id
          WHERE a.organization_id = $1 AND a.delivery_id = $4 AND a.attempted_at >= d.window_started_at)
       UPDATE webhook_endpoints
          SET failing_since = coalesce(failing_since, now()),
              enabled = enabled AND NOT failing_long,
              disabled_reason = CASE WHEN enabled AND failing_long THEN 'failing' ELSE disabled_reason END,
              disabled_at = CASE WHEN enabled AND failing_long THEN now() ELSE disabled_at END
         FROM (SELECT coalesce(w.failing_since, now()) <= now() - make_interval(secs => $3)
                      OR ($5 AND w.failing_since IS NOT NULL AND w.failing_since <= (SELECT at FROM first_attempt)) AS failing_long
                 FROM webhook_endpoints w WHERE w.organization_id = $1 AND w.id = $2) AS verdict
        WHERE organization_id = $1 AND id = $2
        RETURNING disabled_reason = 'failing' AND NOT enabled AS disabled`,
      [attempt.organizationId, attempt.endpointId, attempt.giveUpSeconds, attempt.deliveryId, attempt.outcome === 'failed'],
    );
    return { endpointDisabled: rows[0]?.disabled ?? false };
  });
}

/** Settles a delivery that will not be attempted (its endpoint was disabled or deleted meanwhile). */
export async function abandonDelivery(database: Queryable, organizationId: string, deliveryId: string, reason: string): Promise<void> {
  await database.query(
    `UPDATE webhook_deliveries SET status = 'failed', last_error = $3, next_attempt_at = NULL WHERE organization_id = $1 AND id = $2 AND status = 'pending'`,
    [organizationId, deliveryId, reason.slice(0, 500)],
  );
}

/**
 * Removes some of the organization's finished deliveries (succeeded or failed, not pending)
 * created and last attempted before `before`, with their attempts: at most `deliveryLimit`
 * deliveries, and no more of them than keeps their attempts within `attemptLimit` (the attempts
 * column counts the attempt rows; a delivery with more attempts than that goes alone, so every
 * batch makes progress). Rows another transaction holds (a redelivery) are skipped. Returns the
 * number of deliveries removed; 0 means nothing older is left to remove now.
 */
export async function deleteFinishedDeliveriesBefore(
  database: Queryable,
  organizationId: string,
  before: Date,
  limits: { deliveryLimit: number; attemptLimit: number },
): Promise<number> {
  const rows = await database.query<{ count: number }>(
    `WITH candidates AS (
       SELECT d.id, d.attempts, d.created_at FROM webhook_deliveries d
        WHERE d.organization_id = $1 AND d.status <> 'pending'
          AND d.created_at < $2::timestamptz AND coalesce(d.last_attempt_at, d.created_at) < $2::timestamptz
        ORDER BY d.created_at
        LIMIT $3
          FOR UPDATE SKIP LOCKED),
     batch AS (
       SELECT id FROM (SELECT id, row_number() OVER oldest_first AS rank, sum(attempts) OVER oldest_first AS attempts_so_far
                         FROM candidates WINDOW oldest_first AS (ORDER BY created_at, id)) counted
        WHERE rank = 1 OR attempts_so_far <= $4),
     attempts_removed AS (
       DELETE FROM webhook_delivery_attempts a USING batch b WHERE a.organization_id = $1 AND a.delivery_id = b.id),
     removed AS (
       DELETE FROM webhook_deliveries d USING batch b WHERE d.organization_id = $1 AND d.id = b.id RETURNING 1)
     SELECT count(*)::integer AS count FROM removed`,
    [organizationId, before.toISOString(), limits.deliveryLimit, limits.attemptLimit],
  );
  return rows[0]!.count;
}

/**
 * Whether a delivery's event is still there to send again: 'test' for a test message (its body
 * is kept with it), 'kept' for an event still in the feed, locked until the caller's transaction
 * ends so that retention does not remove it meanwhile, 'removed' for one removed by retention.
 */
export async function lockDeliveryEvent(transaction: Queryable, organizationId: string, deliveryId: string): Promise<'test' | 'kept' | 'removed' | undefined> {
  const rows = await transaction.query<{ test: boolean; messageId: string }>(
    'SELECT test_payload IS NOT NULL AS test, message_id AS "messageId" FROM webhook_deliveries WHERE organization_id = $1 AND id = $2',
    [organizationId, deliveryId],
  );
  const delivery = rows[0];
  if (!delivery) return undefined;
  if (delivery.test) return 'test';
  const events = await transaction.query('SELECT 1 FROM events WHERE organization_id = $1 AND id = $2 FOR KEY SHARE', [organizationId, delivery.messageId]);
  return events.length > 0 ? 'kept' : 'removed';
}
