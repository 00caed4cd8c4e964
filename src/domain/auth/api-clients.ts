import { randomBytes, randomUUID } from 'node:crypto';
import type { Database, Queryable } from '../../db/database.ts';
import {
  clientSecretExists,
  countActiveClients,
  countActiveSecrets,
  findApiClient,
  insertApiClient,
  insertClientSecret,
  listApiClients,
  lockApiClient,
  revokeActiveSecrets,
  revokeApiClient,
  revokeClientSecret,
} from '../../db/repositories/api-clients.ts';
import { appendAuditEvents } from '../../db/repositories/audit-events.ts';
import { lockOrganization } from '../../db/repositories/organizations.ts';
import { findSetting, getOrCreateSetting } from '../../db/repositories/settings.ts';
import { conflict, invalidField, notFound } from '../../errors.ts';
import { AuditActions, objectEvent } from '../audit.ts';
import { isRole, ROLES, type Role } from './roles.ts';
import { generateClientId, generateClientSecret, hashClientSecret, secretHint } from './secrets.ts';

/** A client may hold two active secrets, so that a secret can be rotated without downtime. */
export const ACTIVE_SECRETS_LIMIT = 2;

export interface CreatedClient {
  clientId: string;
  clientSecret: string;
  name: string;
  role: Role;
  createdAt: string;
}

/**
 * The key of the secret hashes: SECRET_HASH_KEY when configured (recommended in production, so
 * that the database alone does not hold it), otherwise one generated on first use and kept in
 * the store, shared by every process.
 */
export type SecretHashKey = (reader?: Queryable) => Promise<Buffer>;

/**
 * Inside a transaction the key must be read through that transaction (the embedded store has a
 * single connection, which the transaction holds), hence the optional reader. A key this call
 * had to create inside a caller's transaction is not remembered: were the transaction rolled
 * back, the process would otherwise go on hashing with a key the store never kept. It is
 * remembered once it is read back as stored.
 */
export function secretHashKeyProvider(database: Database, configured: string | null): SecretHashKey {
  let remembered: Promise<Buffer> | null = configured ? Promise.resolve(Buffer.from(configured, 'utf8')) : null;
  return async (reader?: Queryable) => {
    if (remembered) return remembered;
    if (reader === undefined || reader === database) {
      // Outside a transaction the insert commits at once, so the key read back is the stored one.
      remembered = getOrCreateSetting(database, SECRET_HASH_KEY_SETTING, newHashKey()).then(
        (value) => Buffer.from(value, 'utf8'),
        (error: unknown) => {
          remembered = null;
          throw error;
        },
      );
      return remembered;
    }
    const stored = await findSetting(reader, SECRET_HASH_KEY_SETTING);
    if (stored !== undefined) {
      remembered = Promise.resolve(Buffer.from(stored, 'utf8'));
      return remembered;
    }
    return Buffer.from(await getOrCreateSetting(reader, SECRET_HASH_KEY_SETTING, newHashKey()), 'utf8');
  };
}

const SECRET_HASH_KEY_SETTING = 'secret_hash_key';

function newHashKey(): string {
  return randomBytes(32).toString('base64url');
}

/** Active clients per organization; revoked ones do not count. */
export const ACTIVE_CLIENTS_LIMIT = 100;
/** Most clients a listing returns. */
export const CLIENT_LISTING_LIMIT = 500;

export interface ClientSummary {
  clientId: string;
  name: string;
  role: Role;
  createdAt: string;
  createdBy: string;
  revokedAt: string | null;
  /** When it last got a token, to the minute; null when it never did. */
  lastUsedAt: string | null;
  /** The active secrets, each named by id and by its last characters; never the secret. */
  secrets: { secretId: string; hint: string; createdAt: string }[];
}

export interface CreatedSecret {
  clientId: string;
  secretId: string;
  clientSecret: string;
  createdAt: string;
}

/**
 * API clients and their secrets. A secret exists in clear only in the answer that creates it;
 * the store keeps its keyed hash and its last characters.
 */
export class ApiClients {
  constructor(
    private readonly database: Database,
    private readonly hashKey: SecretHashKey,
    /** Called after a client or secret is revoked, so caches of this process drop it at once. */
    private readonly onRevoked: (clientId: string) => void,
  ) {}

  /**
   * Creates a client and its first secret inside the caller's transaction (the bootstrap of an
   * organization creates its first client in the same transaction as the organization). The
   * secret is in this answer only.
   */
  /** Creates a client with its first secret, and records it in the audit trail, in the caller's transaction. */
  async create(
    transaction: Queryable,
    input: { organizationId: string; name: string; role: Role; createdBy: string; requestId?: string | null },
  ): Promise<CreatedClient> {
    const name = input.name.trim();
    if (name === '' || name.length > 200) throw invalidField('/name', 'must be 1 to 200 characters (not only spaces)');
    if (!isRole(input.role)) throw invalidField('/role', `must be one of ${ROLES.map((role) => `"${role}"`).join(', ')}`);
    if (!(await lockOrganization(transaction, input.organizationId))) throw notFound('organization', input.organizationId);
    if ((await countActiveClients(transaction, input.organizationId)) >= ACTIVE_CLIENTS_LIMIT) {
      throw conflict(`the organization already has ${ACTIVE_CLIENTS_LIMIT} active API clients; revoke unused ones first`);
    }
    const client = await insertApiClient(transaction, {
      id: generateClientId(),
      organizationId: input.organizationId,
      name,
      role: input.role,
      createdBy: input.createdBy,
    });
    const { clientSecret } = await this.#insertSecret(transaction, input.organizationId, client.id);
    await appendAuditEvents(transaction, { organizationId: input.organizationId, actor: input.createdBy, requestId: input.requestId ?? null, note: null }, [
      objectEvent(AuditActions.clientCreated, null, { clientId: client.id, name: client.name, role: client.role }),
    ]);
    return { clientId: client.id, clientSecret, name: client.name, role: client.role, createdAt: client.created_at.toISOString() };
  }

  async list(organizationId: string, options: { includeRevoked?: boolean } = {}): Promise<ClientSummary[]> {
    const rows = await listApiClients(this.database, organizationId, {
      includeRevoked: options.includeRevoked ?? false,
      limit: CLIENT_LISTING_LIMIT,
    });
    return rows.map((row) => ({
      clientId: row.id,
      name: row.name,
      role: row.role,
      createdAt: row.created_at.toISOString(),
      createdBy: row.created_by,
      revokedAt: row.revoked_at?.toISOString() ?? null,
      lastUsedAt: row.last_used_at?.toISOString() ?? null,
      secrets: row.secrets.map((secret) => ({ secretId: secret.id, hint: secret.hint, createdAt: new Date(secret.created_at).toISOString() })),
    }));
  }

  /** Adds a second secret for rotation; refused when the client already has two active ones. */
  async addSecret(transaction: Queryable, organizationId: string, clientId: string): Promise<CreatedSecret> {
    const client = await lockApiClient(transaction, organizationId, clientId);
    if (!client) throw notFound('API client', clientId);
    if (client.revoked_at) throw conflict(`API client ${clientId} is revoked; create a new client instead`);
    if ((await countActiveSecrets(transaction, organizationId, clientId)) >= ACTIVE_SECRETS_LIMIT) {
      throw conflict(`the client already has ${ACTIVE_SECRETS_LIMIT} active secrets; revoke one of them first`);
    }
    const { clientSecret, row } = await this.#insertSecret(transaction, organizationId, clientId);
    // The grant of this process must read the new secret at once rather than after its cache
    // ages. Forgetting before the commit is harmless: a read in between finds the old state and
    // is dropped again by the next change.
    this.onRevoked(clientId);
    return { clientId, secretId: row.id, clientSecret, createdAt: row.created_at.toISOString() };
  }

  /**
   * Replaces every active secret of a client by one new secret, for an operator who has lost
   * them (the demo's credentials are printed once). The old secrets stop working at once.
   */
  async replaceSecrets(transaction: Queryable, organizationId: string, clientId: string): Promise<CreatedSecret> {
    const client = await lockApiClient(transaction, organizationId, clientId);
    if (!client) throw notFound('API client', clientId);
    if (client.revoked_at) throw conflict(`API client ${clientId} is revoked; create a new client instead`);
    await revokeActiveSecrets(transaction, organizationId, clientId);
    const { clientSecret, row } = await this.#insertSecret(transaction, organizationId, clientId);
    this.onRevoked(clientId);
    return { clientId, secretId: row.id, clientSecret, createdAt: row.created_at.toISOString() };
  }

  /**
   * Revokes one secret; the client's other secret keeps working. Tokens already issued stay
   * valid until they expire: they belong to the client, not to the secret, and revoking the
   * client is the way to cut them off. Revoking an already revoked secret succeeds, as for
   * clients, so that a retried request gets the same answer.
   */
  async revokeSecret(organizationId: string, clientId: string, secretId: string): Promise<void> {
    await this.database.transaction(async (transaction) => {
      const client = await lockApiClient(transaction, organizationId, clientId);
      if (!client) throw notFound('API client', clientId);
      if (await revokeClientSecret(transaction, organizationId, clientId, secretId)) return;
      if (!(await clientSecretExists(transaction, organizationId, clientId, secretId))) throw notFound('secret', secretId);
    });
    this.onRevoked(clientId);
  }

  /**
   * Revokes a client: its secrets stop working at once and its live tokens within the
   * revocation check interval. Revoking an already revoked client changes nothing and succeeds,
   * so that a retried request gets the same answer.
   */
  async revoke(organizationId: string, clientId: string): Promise<void> {
    if (!(await revokeApiClient(this.database, organizationId, clientId))) {
      if (!(await findApiClient(this.database, organizationId, clientId))) throw notFound('API client', clientId);
    }
    this.onRevoked(clientId);
  }

  async #insertSecret(transaction: Queryable, organizationId: string, clientId: string) {
    const clientSecret = generateClientSecret();
    const row = await insertClientSecret(transaction, {
      id: randomUUID(),
      organizationId,
      clientId,
      hash: hashClientSecret(await this.hashKey(transaction), clientSecret),
      hint: secretHint(clientSecret),
    });
    return { clientSecret, row };
  }
}
