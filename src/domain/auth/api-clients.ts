import { randomBytes, randomUUID } from 'node:crypto';
import type { Database, Queryable } from '../../db/database.ts';
import {
  countActiveSecrets,
  insertApiClient,
  insertClientSecret,
  listApiClients,
  lockApiClient,
  revokeApiClient,
  revokeClientSecret,
} from '../../db/repositories/api-clients.ts';
import { getOrCreateSetting } from '../../db/repositories/settings.ts';
import { conflict, invalidField, notFound } from '../../errors.ts';
import type { Role } from './roles.ts';
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
 * single connection, which the transaction holds), hence the optional reader.
 */
export function secretHashKeyProvider(database: Database, configured: string | null): SecretHashKey {
  let key: Promise<Buffer> | null = configured ? Promise.resolve(Buffer.from(configured, 'utf8')) : null;
  return (reader: Queryable = database) => {
    key ??= getOrCreateSetting(reader, 'secret_hash_key', randomBytes(32).toString('base64url')).then(
      (value) => Buffer.from(value, 'utf8'),
      (error: unknown) => {
        key = null;
        throw error;
      },
    );
    return key;
  };
}

export class ApiClients {
  constructor(
    private readonly database: Database,
    private readonly hashKey: SecretHashKey,
    /** Called after a client or secret is revoked, so caches of this process drop it at once. */
    private readonly onRevoked: (clientId: string) => void,
  ) {}

  /** Creates a client and its first secret; the secret is in this answer only. */
  async create(
    transaction: Queryable,
    input: { organizationId: string; name: string; role: Role; createdBy: string },
  ): Promise<CreatedClient> {
    const name = input.name.trim();
    if (name === '' || name.length > 200) throw invalidField('/name', 'must be 1 to 200 characters');
    const client = await insertApiClient(transaction, { id: generateClientId(), ...input, name });
    const { clientSecret } = await this.#insertSecret(transaction, client.id);
    return { clientId: client.id, clientSecret, name: client.name, role: client.role, createdAt: client.created_at.toISOString() };
  }

  async list(organizationId: string) {
    const rows = await listApiClients(this.database, organizationId);
    return rows.map((row) => ({
      clientId: row.id,
      name: row.name,
      role: row.role,
      createdAt: row.created_at.toISOString(),
      createdBy: row.created_by,
      revokedAt: row.revoked_at?.toISOString() ?? null,
      secrets: row.secrets.map((secret) => ({ id: secret.id, hint: secret.hint, createdAt: new Date(secret.created_at).toISOString() })),
    }));
  }

  /** Adds a second secret for rotation; refused when the client already has two. */
  async addSecret(organizationId: string, clientId: string): Promise<{ clientId: string; secretId: string; clientSecret: string; createdAt: string }> {
    return this.database.transaction(async (transaction) => {
      const client = await lockApiClient(transaction, organizationId, clientId);
      if (!client || client.revoked_at) throw notFound('API client', clientId);
      if ((await countActiveSecrets(transaction, clientId)) >= ACTIVE_SECRETS_LIMIT) {
        throw conflict(`the client already has ${ACTIVE_SECRETS_LIMIT} active secrets; revoke one (DELETE /clients/${clientId}/secrets/{secretId}) first`);
      }
      const { clientSecret, row } = await this.#insertSecret(transaction, clientId);
      return { clientId, secretId: row.id, clientSecret, createdAt: row.created_at.toISOString() };
    });
  }

  async revokeSecret(organizationId: string, clientId: string, secretId: string): Promise<void> {
    await this.database.transaction(async (transaction) => {
      const client = await lockApiClient(transaction, organizationId, clientId);
      if (!client) throw notFound('API client', clientId);
      if (!(await revokeClientSecret(transaction, clientId, secretId))) throw notFound('active secret', secretId);
    });
    this.onRevoked(clientId);
  }

  async revoke(organizationId: string, clientId: string): Promise<void> {
    if (!(await revokeApiClient(this.database, organizationId, clientId))) throw notFound('API client', clientId);
    this.onRevoked(clientId);
  }

  async #insertSecret(transaction: Queryable, clientId: string) {
    const clientSecret = generateClientSecret();
    const row = await insertClientSecret(transaction, {
      id: randomUUID(),
      clientId,
      hash: hashClientSecret(await this.hashKey(transaction), clientSecret),
      hint: secretHint(clientSecret),
    });
    return { clientSecret, row };
  }
}
