import type { Queryable } from '../database.ts';
import { isoTimeSql } from './transaction-records.ts';

/** Connections, their pickups, the runs of those and the files they settled (migration 0028). */

export interface ConnectionRow {
  id: string;
  name: string;
  kind: 'sftp' | 'folder';
  host: string | null;
  port: number | null;
  username: string | null;
  authMethod: 'generated_key' | 'uploaded_key' | 'password' | null;
  publicKey: string | null;
  hostKeyFingerprint: string | null;
  folderPath: string | null;
  lastSuccessAt: string | null;
  lastError: string | null;
  lastErrorAt: string | null;
  consecutiveFailures: number;
  failingSince: string | null;
  createdAt: string;
  createdBy: string;
  updatedAt: string;
}

const CONNECTION_COLUMNS = `id, name, kind, host, port, username, auth_method AS "authMethod", public_key AS "publicKey",
  host_key_sha256 AS "hostKeyFingerprint", folder_path AS "folderPath", ${isoTimeSql('last_success_at')} AS "lastSuccessAt",
  last_error AS "lastError", ${isoTimeSql('last_error_at')} AS "lastErrorAt", consecutive_failures AS "consecutiveFailures",
  ${isoTimeSql('failing_since')} AS "failingSince", ${isoTimeSql('created_at')} AS "createdAt", created_by AS "createdBy",
  ${isoTimeSql('updated_at')} AS "updatedAt"`;

export interface ConnectionInsert {
  id: string;
  organizationId: string;
  name: string;
  kind: 'sftp' | 'folder';
  host: string | null;
  port: number | null;
  username: string | null;
  authMethod: ConnectionRow['authMethod'];
  sealedSecret: string | null;
  publicKey: string | null;
  folderPath: string | null;
  createdBy: string;
}

export async function insertConnection(database: Queryable, connection: ConnectionInsert): Promise<ConnectionRow> {
  const rows = await database.query<ConnectionRow>(
    `INSERT INTO connections (organization_id, id, name, kind, host, port, username, auth_method, sealed_secret, public_key, folder_path, created_by)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12) RETURNING ${CONNECTION_COLUMNS}`,
    [
      connection.organizationId,
      connection.id,
      connection.name,
      connection.kind,
      connection.host,
      connection.port,
      connection.username,
      connection.authMethod,
      connection.sealedSecret,
      connection.publicKey,
      connection.folderPath,
      connection.createdBy,
    ],
  );
  return rows[0]!;
}

export async function countConnections(database: Queryable, organizationId: string): Promise<number> {
  const rows = await database.query<{ count: string }>('SELECT count(*) AS count FROM connections WHERE organization_id = $1', [organizationId]);
  return Number(rows[0]!.count);
}

export async function listConnections(database: Queryable, organizationId: string): Promise<ConnectionRow[]> {
  return database.query<ConnectionRow>(`SELECT ${CONNECTION_COLUMNS} FROM connections WHERE organization_id = $1 ORDER BY created_at, id`, [organizationId]);
}

export async function findConnection(database: Queryable, organizationId: string, connectionId: string): Promise<ConnectionRow | undefined> {
  const rows = await database.query<ConnectionRow>(`SELECT ${CONNECTION_COLUMNS} FROM connections WHERE organization_id = $1 AND id = $2`, [
    organizationId,
    connectionId,
  ]);
  return rows[0];
}

/** The sealed secret of a connection, read only to connect or to reseal it. */
export async function findConnectionSecret(database: Queryable, organizationId: string, connectionId: string): Promise<string | null> {
  const rows = await database.query<{ sealed: string | null }>('SELECT sealed_secret AS sealed FROM connections WHERE organization_id = $1 AND id = $2', [
    organizationId,
    connectionId,
  ]);
  return rows[0]?.sealed ?? null;
}

/** Every sealed secret of the instance, for a rotation of SECRET_ENCRYPTION_KEY. */
export async function listSealedSecrets(database: Queryable): Promise<Array<{ organizationId: string; id: string; sealed: string }>> {
  return database.query(
    `SELECT organization_id AS "organizationId", id, sealed_secret AS sealed FROM connections WHERE sealed_secret IS NOT NULL ORDER BY organization_id, id`,
  );
}

export async function resealSecret(database: Queryable, organizationId: string, connectionId: string, sealed: string): Promise<void> {
  await database.query('UPDATE connections SET sealed_secret = $3 WHERE organization_id = $1 AND id = $2', [organizationId, connectionId, sealed]);
}

export async function updateConnection(
  database: Queryable,
  organizationId: string,
  connectionId: string,
  change: {
    name?: string;
    host?: string;
    port?: number;
    username?: string;
    folderPath?: string;
    hostKeyFingerprint?: string | null;
    authMethod?: ConnectionRow['authMethod'];
    sealedSecret?: string;
    publicKey?: string | null;
    /** Another server (host or port): the fingerprint a test saw of the former is forgotten. */
    forgetHostKeySeen?: boolean;
  },
): Promise<ConnectionRow | undefined> {
  const sets: string[] = [];
  const parameters: unknown[] = [organizationId, connectionId];
  const set = (column: string, value: unknown) => {
    parameters.push(value);
    sets.push(`${column} = $${parameters.length}`);
  };
  if (change.name !== undefined) set('name', change.name);
  if (change.host !== undefined) set('host', change.host);
  if (change.forgetHostKeySeen) sets.push('host_key_seen = NULL');
  if (change.port !== undefined) set('port', change.port);
  if (change.username !== undefined) set('username', change.username);
  if (change.folderPath !== undefined) set('folder_path', change.folderPath);
  if (change.hostKeyFingerprint !== undefined) set('host_key_sha256', change.hostKeyFingerprint);
  if (change.authMethod !== undefined) set('auth_method', change.authMethod);
  if (change.sealedSecret !== undefined) set('sealed_secret', change.sealedSecret);
  if (change.publicKey !== undefined) set('public_key', change.publicKey);
  const rows = await database.query<ConnectionRow>(
    `UPDATE connections SET ${[...sets, 'updated_at = now()'].join(', ')} WHERE organization_id = $1 AND id = $2 RETURNING ${CONNECTION_COLUMNS}`,
    parameters,
  );
  return rows[0];
}

/** Records the host key fingerprint a connection test saw. */
export async function recordHostKeySeen(database: Queryable, organizationId: string, connectionId: string, fingerprint: string): Promise<void> {
  await database.query('UPDATE connections SET host_key_seen = $3 WHERE organization_id = $1 AND id = $2', [organizationId, connectionId, fingerprint]);
}

/** The host key fingerprint the last connection test saw; null when no test has seen one (since the host or port changed). */
export async function findHostKeySeen(database: Queryable, organizationId: string, connectionId: string): Promise<string | null> {
  const rows = await database.query<{ seen: string | null }>('SELECT host_key_seen AS seen FROM connections WHERE organization_id = $1 AND id = $2', [
    organizationId,
    connectionId,
  ]);
  return rows[0]?.seen ?? null;
}

export async function deleteConnection(database: Queryable, organizationId: string, connectionId: string): Promise<boolean> {
  const rows = await database.query('DELETE FROM connections WHERE organization_id = $1 AND id = $2 RETURNING id', [organizationId, connectionId]);
  return rows.length > 0;
}

export async function recordConnectionSuccess(database: Queryable, organizationId: string, connectionId: string): Promise<void> {
  await database.query(
    `UPDATE connections SET last_success_at = now(), consecutive_failures = 0, failing_since = NULL WHERE organization_id = $1 AND id = $2`,
    [organizationId, connectionId],
  );
}

/** Records a failure; the update of consecutive_failures writes the connection.failed event (migration 0028). */
export async function recordConnectionFailure(database: Queryable, organizationId: string, connectionId: string, error: string): Promise<number> {
  const rows = await database.query<{ failures: number }>(
    `UPDATE connections SET last_error = $3, last_error_at = now(), consecutive_failures = consecutive_failures + 1,
            failing_since = COALESCE(failing_since, now())
      WHERE organization_id = $1 AND id = $2 RETURNING consecutive_failures AS failures`,
    [organizationId, connectionId, error],
  );
  return rows[0]?.failures ?? 0;
}

export interface PickupRow {
  id: string;
  connectionId: string;
  path: string;
  pattern: string;
  intervalMinutes: number | null;
  timesOfDay: string[] | null;
  timeZone: string | null;
  format: string | null;
  mappingName: string | null;
  datasetId: string | null;
  routeByAccount: boolean;
  afterImport: 'leave' | 'move' | 'delete';
  archivePath: string | null;
  readyMarker: string | null;
  enabled: boolean;
  nextRunAt: string;
  createdAt: string;
  createdBy: string;
  updatedAt: string;
}

const PICKUP_COLUMNS = `id, connection_id AS "connectionId", path, pattern, interval_minutes AS "intervalMinutes",
  times_of_day AS "timesOfDay", time_zone AS "timeZone", format,
  mapping_name AS "mappingName", dataset_id AS "datasetId", route_by_account AS "routeByAccount", after_import AS "afterImport",
  archive_path AS "archivePath", ready_marker AS "readyMarker", enabled, ${isoTimeSql('next_run_at')} AS "nextRunAt", ${isoTimeSql('created_at')} AS "createdAt",
  created_by AS "createdBy", ${isoTimeSql('updated_at')} AS "updatedAt"`;

export interface PickupFields {
  path: string;
  pattern: string;
  intervalMinutes: number | null;
  timesOfDay: string[] | null;
  timeZone: string | null;
  format: string | null;
  mappingName: string | null;
  datasetId: string | null;
  routeByAccount: boolean;
  afterImport: 'leave' | 'move' | 'delete';
  archivePath: string | null;
  readyMarker: string | null;
  enabled: boolean;
  /** When the pickup is next due; null: now (the database's time). */
  nextRunAt: string | null;
}

export async function insertPickup(
  database: Queryable,
  pickup: PickupFields & { id: string; organizationId: string; connectionId: string; createdBy: string },
): Promise<PickupRow> {
  const rows = await database.query<PickupRow>(
    `INSERT INTO pickups (organization_id, id, connection_id, path, pattern, interval_minutes, format, mapping_name, dataset_id, route_by_account,
                          after_import, archive_path, enabled, created_by, times_of_day, time_zone, next_run_at, ready_marker)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15::text[], $16, COALESCE($17::timestamptz, now()), $18) RETURNING ${PICKUP_COLUMNS}`,
    [
      pickup.organizationId,
      pickup.id,
      pickup.connectionId,
      pickup.path,
      pickup.pattern,
      pickup.intervalMinutes,
      pickup.format,
      pickup.mappingName,
      pickup.datasetId,
      pickup.routeByAccount,
      pickup.afterImport,
      pickup.archivePath,
      pickup.enabled,
      pickup.createdBy,
      pickup.timesOfDay,
      pickup.timeZone,
      pickup.nextRunAt,
      pickup.readyMarker,
    ],
  );
  return rows[0]!;
}

export async function countPickups(database: Queryable, organizationId: string, connectionId: string): Promise<number> {
  const rows = await database.query<{ count: string }>('SELECT count(*) AS count FROM pickups WHERE organization_id = $1 AND connection_id = $2', [
    organizationId,
    connectionId,
  ]);
  return Number(rows[0]!.count);
}

export async function listPickups(database: Queryable, organizationId: string, connectionId: string): Promise<PickupRow[]> {
  return database.query<PickupRow>(`SELECT ${PICKUP_COLUMNS} FROM pickups WHERE organization_id = $1 AND connection_id = $2 ORDER BY created_at, id`, [
    organizationId,
    connectionId,
  ]);
}

export async function findPickup(database: Queryable, organizationId: string, connectionId: string, pickupId: string): Promise<PickupRow | undefined> {
  const rows = await database.query<PickupRow>(`SELECT ${PICKUP_COLUMNS} FROM pickups WHERE organization_id = $1 AND connection_id = $2 AND id = $3`, [
    organizationId,
    connectionId,
    pickupId,
  ]);
  return rows[0];
}

/** Replaces a pickup's fields (the domain merged the change and checked the whole); a null nextRunAt keeps the time it is due. */
export async function updatePickup(
  database: Queryable,
  organizationId: string,
  connectionId: string,
  pickupId: string,
  fields: PickupFields,
): Promise<PickupRow | undefined> {
  const rows = await database.query<PickupRow>(
    `UPDATE pickups SET path = $4, pattern = $5, interval_minutes = $6, format = $7, mapping_name = $8, dataset_id = $9, route_by_account = $10,
            after_import = $11, archive_path = $12, enabled = $13, times_of_day = $14::text[], time_zone = $15,
            next_run_at = COALESCE($16::timestamptz, next_run_at), ready_marker = $17, updated_at = now()
      WHERE organization_id = $1 AND connection_id = $2 AND id = $3 RETURNING ${PICKUP_COLUMNS}`,
    [
      organizationId,
      connectionId,
      pickupId,
      fields.path,
      fields.pattern,
      fields.intervalMinutes,
      fields.format,
      fields.mappingName,
      fields.datasetId,
      fields.routeByAccount,
      fields.afterImport,
      fields.archivePath,
      fields.enabled,
      fields.timesOfDay,
      fields.timeZone,
      fields.nextRunAt,
      fields.readyMarker,
    ],
  );
  return rows[0];
}

export async function deletePickup(database: Queryable, organizationId: string, connectionId: string, pickupId: string): Promise<boolean> {
  const rows = await database.query('DELETE FROM pickups WHERE organization_id = $1 AND connection_id = $2 AND id = $3 RETURNING id', [
    organizationId,
    connectionId,
    pickupId,
  ]);
  return rows.length > 0;
}

export interface DuePickup {
  organizationId: string;
  id: string;
  connectionId: string;
  intervalMinutes: number | null;
  timesOfDay: string[] | null;
  timeZone: string | null;
  /** The failures in a row of the pickup's connection (the backoff grows with them). */
  consecutiveFailures: number;
}

/**
 * Locks and answers the enabled pickups due at `now`, for the caller's transaction to move each to
 * its next time (setNextRun): of several processes checking at once, each due pickup is answered
 * to one (the others skip the locked rows).
 */
export async function lockDuePickups(database: Queryable, now: string, limit: number): Promise<DuePickup[]> {
  return database.query<DuePickup>(
    `SELECT p.organization_id AS "organizationId", p.id, p.connection_id AS "connectionId", p.interval_minutes AS "intervalMinutes",
            p.times_of_day AS "timesOfDay", p.time_zone AS "timeZone", c.consecutive_failures AS "consecutiveFailures"
       FROM pickups p JOIN connections c ON c.organization_id = p.organization_id AND c.id = p.connection_id
      WHERE p.enabled AND p.next_run_at <= $1::timestamptz
      ORDER BY p.next_run_at LIMIT $2
      FOR UPDATE OF p SKIP LOCKED`,
    [now, limit],
  );
}

export async function setNextRun(database: Queryable, organizationId: string, pickupId: string, nextRunAt: string): Promise<void> {
  await database.query('UPDATE pickups SET next_run_at = $3::timestamptz WHERE organization_id = $1 AND id = $2', [organizationId, pickupId, nextRunAt]);
}

export interface PickupRunRow {
  id: string;
  pickupId: string;
  connectionId: string;
  trigger: 'schedule' | 'manual';
  status: 'queued' | 'running' | 'completed' | 'failed' | 'skipped';
  files: PickupFileOutcome[];
  error: string | null;
  createdAt: string;
  startedAt: string | null;
  finishedAt: string | null;
}

export interface PickupFileOutcome {
  name: string;
  sizeBytes: number;
  outcome: 'imported' | 'already_imported' | 'held' | 'failed' | 'waiting';
  importId: string | null;
  datasetId: string | null;
  /** Why a file was held, failed or is waiting, in words. */
  message: string | null;
  /** What became of the file after its import: left, moved (to the archive) or deleted; null when nothing was done. */
  afterImport: 'left' | 'moved' | 'deleted' | null;
}

const RUN_COLUMNS = `id, pickup_id AS "pickupId", connection_id AS "connectionId", trigger, status, files, error,
  ${isoTimeSql('created_at')} AS "createdAt", ${isoTimeSql('started_at')} AS "startedAt", ${isoTimeSql('finished_at')} AS "finishedAt"`;

export async function insertPickupRun(
  database: Queryable,
  run: { organizationId: string; id: string; pickupId: string; connectionId: string; trigger: 'schedule' | 'manual' },
): Promise<PickupRunRow> {
  const rows = await database.query<PickupRunRow>(
    `INSERT INTO pickup_runs (organization_id, id, pickup_id, connection_id, trigger, status) VALUES ($1, $2, $3, $4, $5, 'queued') RETURNING ${RUN_COLUMNS}`,
    [run.organizationId, run.id, run.pickupId, run.connectionId, run.trigger],
  );
  return rows[0]!;
}

export async function findPickupRun(database: Queryable, organizationId: string, runId: string): Promise<PickupRunRow | undefined> {
  const rows = await database.query<PickupRunRow>(`SELECT ${RUN_COLUMNS} FROM pickup_runs WHERE organization_id = $1 AND id = $2`, [organizationId, runId]);
  return rows[0];
}

export async function listPickupRuns(database: Queryable, organizationId: string, pickupId: string, limit: number): Promise<PickupRunRow[]> {
  return database.query<PickupRunRow>(
    `SELECT ${RUN_COLUMNS} FROM pickup_runs WHERE organization_id = $1 AND pickup_id = $2 ORDER BY created_at DESC, id DESC LIMIT $3`,
    [organizationId, pickupId, limit],
  );
}

export async function startPickupRun(database: Queryable, organizationId: string, runId: string): Promise<void> {
  await database.query(`UPDATE pickup_runs SET status = 'running', started_at = COALESCE(started_at, now()) WHERE organization_id = $1 AND id = $2`, [
    organizationId,
    runId,
  ]);
}

/**
 * Runs still shown as queued or running whose job is over (it failed for good: interrupted more
 * times than it may be, or given up), of every organization; at most `limit`, the oldest first.
 */
export async function findAbandonedPickupRuns(database: Queryable, jobKind: string, limit: number): Promise<Array<{ organizationId: string; id: string }>> {
  return database.query(
    `SELECT r.organization_id AS "organizationId", r.id
       FROM pickup_runs r
      WHERE r.status IN ('queued', 'running')
        AND NOT EXISTS (SELECT 1 FROM jobs j
                         WHERE j.organization_id = r.organization_id AND j.kind = $1 AND j.payload->>'runId' = r.id::text
                           AND j.status IN ('queued', 'running'))
      ORDER BY r.created_at LIMIT $2`,
    [jobKind, limit],
  );
}

/**
 * Ends a run; ending it completed or failed writes its pickup.completed event (migration 0028).
 * The pickup's hold by this run ends in the same statement: once the run shows as ended, a run
 * started next ("run now" right after) takes the pickup rather than being skipped for it.
 */
export async function finishPickupRun(
  database: Queryable,
  organizationId: string,
  runId: string,
  outcome: { status: 'completed' | 'failed' | 'skipped'; files: readonly PickupFileOutcome[]; error: string | null },
): Promise<void> {
  await database.query(
    `WITH finished AS (
       UPDATE pickup_runs SET status = $3, files = $4::jsonb, error = $5, finished_at = now()
        WHERE organization_id = $1 AND id = $2 AND status IN ('queued', 'running') RETURNING pickup_id)
     UPDATE pickups SET held_by_run = NULL, held_token = NULL, held_until = NULL
       FROM finished
      WHERE pickups.organization_id = $1 AND pickups.id = finished.pickup_id AND pickups.held_by_run = $2`,
    [organizationId, runId, outcome.status, JSON.stringify(outcome.files), outcome.error],
  );
}

/**
 * Holds a pickup for one execution of a run (`token`), so that one run of it goes at a time
 * whichever process runs it: the hold is taken when free, expired, or already this execution's.
 * Answers whether it is held, and otherwise which run holds it.
 */
export async function holdPickup(
  database: Queryable,
  organizationId: string,
  pickupId: string,
  hold: { runId: string; token: string; seconds: number },
): Promise<{ held: true } | { held: false; byRun: string | null }> {
  const rows = await database.query<{ held: boolean; byRun: string | null }>(
    `WITH taken AS (
       UPDATE pickups SET held_by_run = $3, held_token = $4, held_until = now() + make_interval(secs => $5)
        WHERE organization_id = $1 AND id = $2 AND (held_token IS NULL OR held_token = $4 OR held_until < now()) RETURNING id)
     SELECT EXISTS (SELECT 1 FROM taken) AS held,
            (SELECT held_by_run FROM pickups WHERE organization_id = $1 AND id = $2) AS "byRun"`,
    [organizationId, pickupId, hold.runId, hold.token, hold.seconds],
  );
  const row = rows[0]!;
  return row.held ? { held: true } : { held: false, byRun: row.byRun };
}

export async function releasePickup(database: Queryable, organizationId: string, pickupId: string, token: string): Promise<void> {
  await database.query(
    `UPDATE pickups SET held_by_run = NULL, held_token = NULL, held_until = NULL WHERE organization_id = $1 AND id = $2 AND held_token = $3`,
    [organizationId, pickupId, token],
  );
}

/** A listing's files by name; tooLarge: fetched once and found over the import size limit at this size and time. */
export type Listing = Record<string, { size: number; mtime: number; tooLarge?: true }>;

export async function readListing(database: Queryable, organizationId: string, pickupId: string): Promise<Listing> {
  const rows = await database.query<{ listing: Listing }>('SELECT last_listing AS listing FROM pickups WHERE organization_id = $1 AND id = $2', [
    organizationId,
    pickupId,
  ]);
  return rows[0]?.listing ?? {};
}

export async function saveListing(database: Queryable, organizationId: string, pickupId: string, listing: Listing): Promise<void> {
  await database.query('UPDATE pickups SET last_listing = $3::jsonb WHERE organization_id = $1 AND id = $2', [
    organizationId,
    pickupId,
    JSON.stringify(listing),
  ]);
}

/** Remembers that a file of the listing, at the size and time listed, is over the import size limit (not fetched again). */
export async function markListedTooLarge(database: Queryable, organizationId: string, pickupId: string, name: string): Promise<void> {
  await database.query(
    `UPDATE pickups SET last_listing = jsonb_set(last_listing, ARRAY[$3::text, 'tooLarge'], 'true'::jsonb)
      WHERE organization_id = $1 AND id = $2 AND last_listing ? $3`,
    [organizationId, pickupId, name],
  );
}

export interface SettledFile {
  importId: string | null;
  outcome: 'imported' | 'failed';
  error: string | null;
  fileName: string;
}

export async function findSettledFile(database: Queryable, organizationId: string, pickupId: string, sha256: string): Promise<SettledFile | undefined> {
  const rows = await database.query<SettledFile>(
    `SELECT import_id AS "importId", outcome, error, file_name AS "fileName" FROM pickup_files WHERE organization_id = $1 AND pickup_id = $2 AND sha256 = $3`,
    [organizationId, pickupId, sha256],
  );
  return rows[0];
}

export async function recordSettledFile(database: Queryable, organizationId: string, pickupId: string, sha256: string, file: SettledFile): Promise<void> {
  await database.query(
    `INSERT INTO pickup_files (organization_id, pickup_id, sha256, file_name, import_id, outcome, error) VALUES ($1, $2, $3, $4, $5, $6, $7)
     ON CONFLICT (organization_id, pickup_id, sha256) DO NOTHING`,
    [organizationId, pickupId, sha256, file.fileName, file.importId, file.outcome, file.error],
  );
}

/**
 * A completed import of these bytes (from any path: an upload too), newest first: into the given
 * dataset, or into any dataset of the organization when the target is not known yet (routing).
 */
export async function findImportOfContent(
  database: Queryable,
  organizationId: string,
  sha256: string,
  datasetId: string | null,
): Promise<{ importId: string; datasetId: string } | undefined> {
  const rows = await database.query<{ importId: string; datasetId: string }>(
    `SELECT id AS "importId", dataset_id AS "datasetId" FROM imports
      WHERE organization_id = $1 AND sha256 = $2 AND status = 'completed' AND ($3::uuid IS NULL OR dataset_id = $3::uuid)
      ORDER BY created_at DESC LIMIT 1`,
    [organizationId, sha256, datasetId],
  );
  return rows[0];
}

/** The organization's datasets that name a bank account, for routing statements by their account. */
export async function datasetsWithAccounts(database: Queryable, organizationId: string): Promise<Array<{ id: string; name: string; accountId: string }>> {
  return database.query(
    `SELECT id, name, account_id AS "accountId" FROM datasets WHERE organization_id = $1 AND account_id IS NOT NULL AND status = 'active' ORDER BY created_at, id`,
    [organizationId],
  );
}

export async function datasetExists(database: Queryable, organizationId: string, datasetId: string): Promise<boolean> {
  const rows = await database.query('SELECT 1 FROM datasets WHERE organization_id = $1 AND id = $2', [organizationId, datasetId]);
  return rows.length > 0;
}
