import { randomUUID } from 'node:crypto';
import { promises as fs } from 'node:fs';
import path from 'node:path';
import ssh2 from 'ssh2';
import type { Database, Queryable } from '../../db/database.ts';
import {
  countConnections,
  countPickups,
  datasetExists,
  deleteConnection,
  deletePickup,
  findConnection,
  findConnectionSecret,
  findHostKeySeen,
  findPickup,
  findPickupRun,
  insertConnection,
  insertPickup,
  insertPickupRun,
  listConnections,
  listPickupRuns,
  listPickups,
  listSealedSecrets,
  recordHostKeySeen,
  resealSecret,
  updateConnection,
  updatePickup,
  type ConnectionRow,
  type PickupFields,
  type PickupRow,
  type PickupRunRow,
} from '../../db/repositories/connections.ts';
import { AppError, connectionErrors, notFound } from '../../errors.ts';
import type { WriteContext } from '../audit.ts';
import { systemClock, type Clock } from '../clock.ts';
import type { JobQueue } from '../jobs/job-queue.ts';
import { connectSftp, FolderSource, HostKeyMismatch, HostKeyToConfirm, isInside, type FileSource } from './file-sources.ts';
import { isTimeZone, nextTimeOfDay, normalizeTimesOfDay } from './schedules.ts';
import { SecretBox } from './secrets.ts';

export type { ConnectionRow, PickupRow, PickupRunRow };

/** The job kind of one run of a pickup. */
export const PICKUP_RUN_JOB = 'pickup-run';
export const CONNECTIONS_LIMIT = 50;
export const PICKUPS_PER_CONNECTION_LIMIT = 20;
export const PICKUP_RUNS_LISTED = 50;

export type AuthMethod = 'generated_key' | 'uploaded_key' | 'password';

export interface ConnectionInput {
  name: string;
  kind: 'sftp' | 'folder';
  host?: string;
  port?: number;
  username?: string;
  authMethod?: AuthMethod;
  privateKey?: string;
  password?: string;
  folderPath?: string;
}

export interface ConnectionChange {
  name?: string;
  host?: string;
  port?: number;
  username?: string;
  authMethod?: AuthMethod;
  privateKey?: string;
  password?: string;
  folderPath?: string;
  hostKeyFingerprint?: string | null;
}

export interface PickupInput {
  path: string;
  pattern: string;
  intervalMinutes?: number | null;
  timesOfDay?: string[] | null;
  timeZone?: string | null;
  format?: string | null;
  mappingName?: string | null;
  datasetId?: string | null;
  routeByAccount?: boolean;
  afterImport?: 'leave' | 'move' | 'delete';
  archivePath?: string | null;
  readyMarker?: string | null;
  enabled?: boolean;
}

export interface ConnectionTest {
  ok: boolean;
  hostKeyFingerprint: string | null;
  hostKeyStatus: 'confirmed' | 'unconfirmed' | 'changed' | null;
  message: string;
}

export interface ConnectionSettings {
  secretEncryptionKey: string | null;
  /** Whether the demo runs (a box derived from the instance's secret stands in for a missing key). */
  demo: boolean;
  connectorFolderRoot: string | null;
  connectorTimeoutSeconds: number;
}

/**
 * Connections (docs/CONNECTIONS.md): an SFTP server or a folder files are picked up from, with
 * its pickups. A secret is sealed before it is stored and opened only to connect; answers carry
 * the public half of a generated key, never a private key or a password.
 */
export class Connections {
  #box: Promise<SecretBox | null> | null = null;

  constructor(
    private readonly database: Database,
    private readonly jobs: JobQueue,
    private readonly settings: ConnectionSettings,
    private readonly instanceSecret: () => Promise<Buffer>,
    private readonly clock: Clock = systemClock,
  ) {}

  /** The box secrets are sealed with; null when SFTP connections cannot be made. */
  async box(): Promise<SecretBox | null> {
    this.#box ??= (async () => {
      if (this.settings.secretEncryptionKey !== null) return SecretBox.fromSetting(this.settings.secretEncryptionKey);
      return this.settings.demo ? SecretBox.derived(await this.instanceSecret()) : null;
    })();
    return this.#box;
  }

  async list(organizationId: string): Promise<ConnectionRow[]> {
    return listConnections(this.database, organizationId);
  }

  async get(organizationId: string, connectionId: string, database: Queryable = this.database): Promise<ConnectionRow> {
    const connection = await findConnection(database, organizationId, connectionId);
    if (!connection) throw notFound('connection', connectionId);
    return connection;
  }

  /** Checks what a new connection needs beyond its schema (may read the disk): before the write's transaction. */
  async prepare(input: ConnectionInput): Promise<PreparedConnection> {
    if (input.kind === 'folder') {
      for (const field of ['host', 'port', 'username', 'authMethod', 'privateKey', 'password'] as const) {
        if (input[field] !== undefined) throw connectionErrors.fieldOfOtherKind(field, 'folder');
      }
      if (input.folderPath === undefined) throw connectionErrors.fieldMissing('folderPath', 'folder');
      await this.resolveFolder(input.folderPath);
      return { folderPath: input.folderPath, secret: null, publicKey: null };
    }
    if (input.folderPath !== undefined) throw connectionErrors.fieldOfOtherKind('folderPath', 'SFTP');
    for (const field of ['host', 'username', 'authMethod'] as const) if (input[field] === undefined) throw connectionErrors.fieldMissing(field, 'SFTP');
    if ((await this.box()) === null) throw connectionErrors.encryptionKeyMissing();
    return { folderPath: null, ...credentialsOf(input.authMethod!, input, input.name) };
  }

  async create(transaction: Queryable, context: WriteContext, input: ConnectionInput, prepared: PreparedConnection): Promise<ConnectionRow> {
    if ((await countConnections(transaction, context.organizationId)) >= CONNECTIONS_LIMIT) {
      throw connectionErrors.connectionsLimit(CONNECTIONS_LIMIT);
    }
    const id = randomUUID();
    const box = await this.box();
    return insertConnection(transaction, {
      id,
      organizationId: context.organizationId,
      name: input.name,
      kind: input.kind,
      host: input.kind === 'sftp' ? input.host! : null,
      port: input.kind === 'sftp' ? (input.port ?? 22) : null,
      username: input.kind === 'sftp' ? input.username! : null,
      authMethod: input.kind === 'sftp' ? input.authMethod! : null,
      sealedSecret: prepared.secret === null ? null : box!.seal(prepared.secret, sealingContext(context.organizationId, id)),
      publicKey: prepared.publicKey,
      folderPath: prepared.folderPath,
      createdBy: context.actor,
    });
  }

  async update(transaction: Queryable, context: WriteContext, connectionId: string, change: ConnectionChange): Promise<ConnectionRow> {
    const connection = await this.get(context.organizationId, connectionId, transaction);
    const sftpFields = ['host', 'port', 'username', 'authMethod', 'privateKey', 'password', 'hostKeyFingerprint'] as const;
    if (connection.kind === 'folder') {
      for (const field of sftpFields) if (change[field] !== undefined) throw connectionErrors.fieldOfOtherKind(field, 'folder');
      if (change.folderPath !== undefined) await this.resolveFolder(change.folderPath);
    } else if (change.folderPath !== undefined) throw connectionErrors.fieldOfOtherKind('folderPath', 'SFTP');
    if (change.hostKeyFingerprint !== undefined && change.hostKeyFingerprint !== null && !FINGERPRINT.test(change.hostKeyFingerprint)) {
      throw connectionErrors.fingerprintInvalid();
    }
    const otherServer = (change.host !== undefined && change.host !== connection.host) || (change.port !== undefined && change.port !== connection.port);
    // A fingerprint confirmed is the one the last test saw (when a test saw one): a mistyped one is never pinned.
    if (typeof change.hostKeyFingerprint === 'string' && change.hostKeyFingerprint !== connection.hostKeyFingerprint && !otherServer) {
      const seen = await findHostKeySeen(transaction, context.organizationId, connectionId);
      if (seen !== null && seen !== change.hostKeyFingerprint) throw connectionErrors.fingerprintNotSeen(seen);
    }
    const row: Parameters<typeof updateConnection>[3] = {
      name: change.name,
      host: change.host,
      port: change.port,
      username: change.username,
      folderPath: change.folderPath,
      hostKeyFingerprint: change.hostKeyFingerprint,
    };
    // Another server is another host key: a new host or port needs its key confirmed again.
    if (otherServer) {
      row.hostKeyFingerprint = change.hostKeyFingerprint ?? null;
      row.forgetHostKeySeen = true;
    }
    if (change.authMethod !== undefined || change.privateKey !== undefined || change.password !== undefined) {
      const method = change.authMethod ?? connection.authMethod!;
      const credentials = credentialsOf(method, change, connection.name);
      const box = await this.box();
      if (box === null) throw connectionErrors.encryptionKeyMissing();
      Object.assign(row, {
        authMethod: method,
        sealedSecret: box.seal(credentials.secret, sealingContext(context.organizationId, connectionId)),
        publicKey: credentials.publicKey,
      });
    }
    const updated = await updateConnection(transaction, context.organizationId, connectionId, row);
    if (!updated) throw notFound('connection', connectionId);
    return updated;
  }

  async remove(transaction: Queryable, context: WriteContext, connectionId: string): Promise<void> {
    if (!(await deleteConnection(transaction, context.organizationId, connectionId))) throw notFound('connection', connectionId);
  }

  /** The directory of a folder connection: inside CONNECTOR_FOLDER_ROOT, existing. */
  async resolveFolder(folderPath: string): Promise<string> {
    const root = this.settings.connectorFolderRoot;
    if (root === null) throw connectionErrors.folderRootMissing();
    const rootReal = await fs.realpath(root).catch(() => {
      throw connectionErrors.folderRootMissing();
    });
    // People copy a folder's whole path: one that names the allowed directory or a folder in it is
    // taken as written; any other path is read from the allowed directory.
    const written = path.resolve(folderPath);
    const candidate =
      path.isAbsolute(folderPath) && [rootReal, path.resolve(root)].some((base) => isInside(base, written))
        ? written
        : path.resolve(rootReal, folderPath.replace(/^\/+/, ''));
    const real = await fs.realpath(candidate).catch(() => {
      throw connectionErrors.folderMissing();
    });
    if (!isInside(rootReal, real)) throw connectionErrors.folderOutsideRoot();
    const stat = await fs.stat(real);
    if (!stat.isDirectory()) throw connectionErrors.folderMissing();
    return real;
  }

  /**
   * Opens the connection's files. An SFTP server's host key must be the confirmed one: with none
   * confirmed, or another, nothing is sent to the server (no password, no signature).
   */
  async open(organizationId: string, connection: ConnectionRow): Promise<FileSource> {
    if (connection.kind === 'folder') {
      const folder = await this.resolveFolder(connection.folderPath!).catch((error: unknown) => {
        // Worded for the connection's record: the request's field names mean nothing there.
        throw error instanceof AppError && error.kind === 'invalid_request' ? connectionErrors.folderGone() : error;
      });
      return new FolderSource(folder);
    }
    if (connection.hostKeyFingerprint === null) throw connectionErrors.hostKeyNotConfirmed();
    try {
      return await connectSftp({ ...(await this.#credentials(organizationId, connection)), hostKeyFingerprint: connection.hostKeyFingerprint });
    } catch (error) {
      if (error instanceof HostKeyMismatch) throw connectionErrors.hostKeyChanged(error.expected, error.found);
      if (error instanceof HostKeyToConfirm) throw connectionErrors.hostKeyNotConfirmed();
      throw error;
    }
  }

  async #credentials(organizationId: string, connection: ConnectionRow) {
    const sealed = await findConnectionSecret(this.database, organizationId, connection.id);
    const box = await this.box();
    if (box === null || sealed === null) throw connectionErrors.encryptionKeyMissing();
    const secret = box.open(sealed, sealingContext(organizationId, connection.id));
    return {
      host: connection.host!,
      port: connection.port!,
      username: connection.username!,
      privateKey: connection.authMethod === 'password' ? null : secret,
      password: connection.authMethod === 'password' ? secret : null,
      timeoutSeconds: this.settings.connectorTimeoutSeconds,
    };
  }

  /**
   * Tries the connection: the server's host key (shown for confirmation when none is confirmed,
   * and compared with the confirmed one), the login, and a listing of each pickup's folder.
   */
  async test(organizationId: string, connectionId: string): Promise<ConnectionTest> {
    const connection = await this.get(organizationId, connectionId);
    const failed = (message: string): ConnectionTest => ({
      ok: false,
      hostKeyFingerprint: connection.hostKeyFingerprint,
      hostKeyStatus: hostKeyStatus(connection),
      message,
    });
    let source: FileSource;
    const seen = (fingerprint: string) => recordHostKeySeen(this.database, organizationId, connectionId, fingerprint);
    try {
      if (connection.kind === 'sftp') {
        source = await connectSftp({ ...(await this.#credentials(organizationId, connection)), hostKeyFingerprint: connection.hostKeyFingerprint });
        // In: the server showed the confirmed key.
        await seen(connection.hostKeyFingerprint!);
      } else source = await this.open(organizationId, connection);
    } catch (error) {
      if (error instanceof HostKeyToConfirm) {
        await seen(error.fingerprint);
        return {
          ok: false,
          hostKeyFingerprint: error.fingerprint,
          hostKeyStatus: 'unconfirmed',
          message: `the server's host key is ${error.fingerprint}; check it with the bank (or the server's administrator), then confirm it`,
        };
      }
      if (error instanceof HostKeyMismatch) {
        await seen(error.found);
        return {
          ok: false,
          hostKeyFingerprint: error.found,
          hostKeyStatus: 'changed',
          message: connectionErrors.hostKeyChanged(error.expected, error.found).message,
        };
      }
      if (error instanceof AppError) return failed(error.message);
      throw error;
    }
    try {
      for (const pickup of await listPickups(this.database, organizationId, connectionId)) await source.list(pickup.path);
      return { ok: true, hostKeyFingerprint: connection.hostKeyFingerprint, hostKeyStatus: hostKeyStatus(connection), message: 'the connection works' };
    } catch (error) {
      if (error instanceof AppError) return failed(error.message);
      throw error;
    } finally {
      await source.close();
    }
  }

  /**
   * Reseals, in one transaction, every secret sealed with the previous key under the configured
   * one (a rotation of SECRET_ENCRYPTION_KEY). A secret sealed with neither is left as it is.
   */
  async resealSecrets(previousKeySetting: string): Promise<{ resealed: number; current: number; unknown: number }> {
    const box = await this.box();
    if (box === null || this.settings.secretEncryptionKey === null) throw connectionErrors.encryptionKeyMissing();
    const previous = SecretBox.fromSetting(previousKeySetting);
    return this.database.transaction(async (transaction) => {
      const outcome = { resealed: 0, current: 0, unknown: 0 };
      for (const row of await listSealedSecrets(transaction)) {
        const context = sealingContext(row.organizationId, row.id);
        if (box.sealedWithThisKey(row.sealed)) outcome.current += 1;
        else if (previous.sealedWithThisKey(row.sealed)) {
          await resealSecret(transaction, row.organizationId, row.id, box.seal(previous.open(row.sealed, context), context));
          outcome.resealed += 1;
        } else outcome.unknown += 1;
      }
      return outcome;
    });
  }

  // Pickups.

  async pickups(organizationId: string, connectionId: string): Promise<PickupRow[]> {
    await this.get(organizationId, connectionId);
    return listPickups(this.database, organizationId, connectionId);
  }

  async pickup(organizationId: string, connectionId: string, pickupId: string, database: Queryable = this.database): Promise<PickupRow> {
    const pickup = await findPickup(database, organizationId, connectionId, pickupId);
    if (!pickup) {
      await this.get(organizationId, connectionId, database);
      throw notFound('pickup', pickupId);
    }
    return pickup;
  }

  async createPickup(transaction: Queryable, context: WriteContext, connectionId: string, input: PickupInput): Promise<PickupRow> {
    const connection = await this.get(context.organizationId, connectionId, transaction);
    if ((await countPickups(transaction, context.organizationId, connectionId)) >= PICKUPS_PER_CONNECTION_LIMIT) {
      throw connectionErrors.pickupsLimit(PICKUPS_PER_CONNECTION_LIMIT);
    }
    const fields = await checkPickup(transaction, context.organizationId, input, this.clock.now());
    await this.#checkFolders(connection, fields);
    return insertPickup(transaction, { ...fields, id: randomUUID(), organizationId: context.organizationId, connectionId, createdBy: context.actor });
  }

  async updatePickup(transaction: Queryable, context: WriteContext, connectionId: string, pickupId: string, change: Partial<PickupInput>): Promise<PickupRow> {
    const pickup = await this.pickup(context.organizationId, connectionId, pickupId, transaction);
    const merged: PickupInput = { ...pickup, ...change };
    // Choosing one target lets go of the other.
    if (change.datasetId != null && change.routeByAccount === undefined) merged.routeByAccount = false;
    if (change.routeByAccount === true && change.datasetId === undefined) merged.datasetId = null;
    if (change.afterImport !== undefined && change.afterImport !== 'move' && change.archivePath === undefined) merged.archivePath = null;
    // Likewise a schedule: times of day let go of the interval, an interval of the times and their zone.
    if (change.timesOfDay != null && change.intervalMinutes === undefined) merged.intervalMinutes = null;
    if (change.intervalMinutes != null && change.timesOfDay === undefined) {
      merged.timesOfDay = null;
      if (change.timeZone === undefined) merged.timeZone = null;
    }
    const fields = await checkPickup(transaction, context.organizationId, merged, this.clock.now());
    // Only folders named anew are checked: a pickup whose archive folder went away can still be paused.
    if (change.path !== undefined || change.archivePath !== undefined) {
      await this.#checkFolders(await this.get(context.organizationId, connectionId, transaction), fields);
    }
    // A schedule changed is due at its new time (an interval: now); otherwise the pickup keeps the time it is due.
    const scheduleChanged =
      fields.intervalMinutes !== pickup.intervalMinutes ||
      fields.timeZone !== pickup.timeZone ||
      JSON.stringify(fields.timesOfDay) !== JSON.stringify(pickup.timesOfDay);
    if (!scheduleChanged) fields.nextRunAt = null;
    else if (fields.nextRunAt === null) fields.nextRunAt = new Date(this.clock.now()).toISOString();
    return (await updatePickup(transaction, context.organizationId, connectionId, pickupId, fields))!;
  }

  /**
   * On a folder connection, the pickup's folder and archive folder must exist inside the
   * connection's folder when the pickup is saved: a missing archive folder would otherwise be met
   * only after each import, leaving every file where it is. (An SFTP server's folders are checked
   * by the connection test, which needs the server.)
   */
  async #checkFolders(connection: ConnectionRow, fields: { path: string; archivePath: string | null }): Promise<void> {
    if (connection.kind !== 'folder' || connection.folderPath === null) return;
    const base = await this.resolveFolder(connection.folderPath);
    for (const [field, value] of [
      ['path', fields.path],
      ['archivePath', fields.archivePath],
    ] as const) {
      if (value === null) continue;
      const real = await fs.realpath(path.resolve(base, value.replace(/^\/+/, ''))).catch(() => null);
      const isFolder = real !== null && isInside(base, real) && (await fs.stat(real)).isDirectory();
      if (!isFolder) throw connectionErrors.pickupFolderMissing(field, value);
    }
  }

  async removePickup(transaction: Queryable, context: WriteContext, connectionId: string, pickupId: string): Promise<void> {
    if (!(await deletePickup(transaction, context.organizationId, connectionId, pickupId))) {
      await this.get(context.organizationId, connectionId, transaction);
      throw notFound('pickup', pickupId);
    }
  }

  /** Queues a run of the pickup now ("run now"); answers the run, queued. */
  async runNow(transaction: Queryable, context: WriteContext, connectionId: string, pickupId: string): Promise<PickupRunRow> {
    const pickup = await this.pickup(context.organizationId, connectionId, pickupId, transaction);
    return this.queueRun(transaction, context.organizationId, pickup.id, connectionId, 'manual');
  }

  async queueRun(
    transaction: Queryable,
    organizationId: string,
    pickupId: string,
    connectionId: string,
    trigger: 'schedule' | 'manual',
  ): Promise<PickupRunRow> {
    const run = await insertPickupRun(transaction, { organizationId, id: randomUUID(), pickupId, connectionId, trigger });
    await this.jobs.enqueue(transaction, { organizationId, kind: PICKUP_RUN_JOB, payload: { runId: run.id, pickupId, connectionId } });
    return run;
  }

  async runs(organizationId: string, connectionId: string, pickupId: string): Promise<PickupRunRow[]> {
    await this.pickup(organizationId, connectionId, pickupId);
    return listPickupRuns(this.database, organizationId, pickupId, PICKUP_RUNS_LISTED);
  }

  async run(organizationId: string, connectionId: string, pickupId: string, runId: string): Promise<PickupRunRow> {
    const run = await findPickupRun(this.database, organizationId, runId);
    if (!run || run.pickupId !== pickupId || run.connectionId !== connectionId) throw notFound('pickup run', runId);
    return run;
  }
}

export interface PreparedConnection {
  folderPath: string | null;
  secret: string | null;
  publicKey: string | null;
}

const FINGERPRINT = /^SHA256:[A-Za-z0-9+/]{43}$/;

function hostKeyStatus(connection: ConnectionRow): ConnectionTest['hostKeyStatus'] {
  return connection.kind === 'folder' ? null : connection.hostKeyFingerprint === null ? 'unconfirmed' : 'confirmed';
}

/** What a secret is sealed with besides the key: the connection it belongs to. */
function sealingContext(organizationId: string, connectionId: string): string {
  return `connection:${organizationId}:${connectionId}`;
}

/** The secret to seal and the public key to show for an authentication method. */
function credentialsOf(method: AuthMethod, input: { privateKey?: string; password?: string }, name: string): { secret: string; publicKey: string | null } {
  if (method === 'generated_key') {
    for (const field of ['privateKey', 'password'] as const) if (input[field] !== undefined) throw connectionErrors.credentialsOfOtherMethod(field, method);
    const pair = ssh2.utils.generateKeyPairSync('ed25519', { comment: `ledger-recon ${name}`.replace(/[^\x20-\x7e]/g, '').slice(0, 100) });
    return { secret: pair.private, publicKey: pair.public };
  }
  if (method === 'uploaded_key') {
    if (input.password !== undefined) throw connectionErrors.credentialsOfOtherMethod('password', method);
    if (input.privateKey === undefined) throw connectionErrors.credentialMissing('privateKey', method);
    const parsed = ssh2.utils.parseKey(input.privateKey);
    const key = Array.isArray(parsed) ? parsed[0] : parsed;
    if (key instanceof Error || key === undefined) throw connectionErrors.privateKeyInvalid(key instanceof Error ? key.message : 'no key found');
    if (!key.isPrivateKey()) throw connectionErrors.privateKeyInvalid('it is a public key');
    return { secret: input.privateKey, publicKey: `${key.type} ${key.getPublicSSH().toString('base64')}` };
  }
  if (input.privateKey !== undefined) throw connectionErrors.credentialsOfOtherMethod('privateKey', method);
  if (input.password === undefined) throw connectionErrors.credentialMissing('password', method);
  return { secret: input.password, publicKey: null };
}

const PATH_PATTERN = /^[^\u0000-\u001f]{1,1000}$/;

/** A pickup's schedule: every intervalMinutes, or at timesOfDay in timeZone (exactly one of the two). */
function checkSchedule(input: PickupInput, now: number): Pick<PickupFields, 'intervalMinutes' | 'timesOfDay' | 'timeZone' | 'nextRunAt'> {
  const intervalMinutes = input.intervalMinutes ?? null;
  const timesOfDay = input.timesOfDay ?? null;
  const timeZone = input.timeZone ?? null;
  if (timesOfDay === null) {
    if (timeZone !== null) throw connectionErrors.timeZoneWithoutTimes();
    if (intervalMinutes === null) throw connectionErrors.scheduleMissing();
    // Due at once, as a new pickup has always been: its first run lists the folder.
    return { intervalMinutes, timesOfDay: null, timeZone: null, nextRunAt: null };
  }
  if (intervalMinutes !== null) throw connectionErrors.scheduleBoth();
  if (timeZone === null) throw connectionErrors.timeZoneMissing();
  if (!isTimeZone(timeZone)) throw connectionErrors.timeZoneUnknown(timeZone);
  const times = normalizeTimesOfDay(timesOfDay);
  return { intervalMinutes: null, timesOfDay: times, timeZone, nextRunAt: new Date(nextTimeOfDay(now, times, timeZone)).toISOString() };
}

async function checkPickup(database: Queryable, organizationId: string, input: PickupInput, now: number): Promise<PickupFields> {
  const checkPath = (value: string, field: string) => {
    if (!PATH_PATTERN.test(value) || value.split('/').includes('..')) throw connectionErrors.pathInvalid(field);
    return value;
  };
  if (input.pattern.includes('/') || input.pattern.includes('..')) throw connectionErrors.patternInvalid();
  const routeByAccount = input.routeByAccount ?? false;
  const datasetId = input.datasetId ?? null;
  if (routeByAccount === (datasetId !== null)) throw connectionErrors.datasetOrRouting();
  if (datasetId !== null && !(await datasetExists(database, organizationId, datasetId))) {
    throw connectionErrors.datasetNotFound(datasetId);
  }
  const afterImport = input.afterImport ?? 'leave';
  const archivePath = input.archivePath ?? null;
  if ((afterImport === 'move') !== (archivePath !== null)) throw connectionErrors.archivePathNeeded();
  const schedule = checkSchedule(input, now);
  return {
    ...schedule,
    path: checkPath(input.path, 'path'),
    pattern: input.pattern,
    format: input.format ?? null,
    mappingName: input.mappingName ?? null,
    datasetId,
    routeByAccount,
    afterImport,
    archivePath: archivePath === null ? null : checkPath(archivePath, 'archivePath'),
    readyMarker: input.readyMarker ?? null,
    enabled: input.enabled ?? true,
  };
}
