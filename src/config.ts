import { Type, type Static } from '@sinclair/typebox';
import { Value } from '@sinclair/typebox/value';

/**
 * The whole configuration, read once at start-up from the environment and validated here, so
 * that a wrong setting stops the process with a message instead of surfacing later as a
 * confusing failure deep inside a request.
 */
/**
 * The most transactions a side of a group formed by a rule's groupBy key may hold (a payout's
 * charges, refunds and fees). Such groups are summed in SQL, not searched, so their cost grows
 * with their size alone; the limit keeps one key from holding a run's memory. A group above it
 * is reported in the run's bounds, never cut. KEY_GROUP_MAX_TRANSACTIONS may lower it.
 */
export const KEY_GROUP_MAX_TRANSACTIONS = 100_000;

const ConfigSchema = Type.Object({
  port: Type.Integer({ minimum: 0, maximum: 65535 }),
  host: Type.String({ minLength: 1 }),
  publicUrl: Type.String({ pattern: '^https?://[^/]+$' }),
  audience: Type.String({ minLength: 1 }),
  tokenTtlSeconds: Type.Integer({ minimum: 60, maximum: 86400 }),
  dataDirectory: Type.String({ minLength: 1 }),
  databaseUrl: Type.Union([Type.String({ pattern: '^postgres(ql)?://' }), Type.Null()]),
  databasePoolSize: Type.Integer({ minimum: 1, maximum: 200 }),
  secretHashKey: Type.Union([Type.String({ minLength: 32 }), Type.Null()]),
  queryTimeoutMilliseconds: Type.Integer({ minimum: 100, maximum: 600000 }),
  keyPublishLeadSeconds: Type.Integer({ minimum: 0, maximum: 604800 }),
  tokenFailureLimit: Type.Integer({ minimum: 1, maximum: 1000 }),
  tokenFailureClientLimit: Type.Integer({ minimum: 1, maximum: 1_000_000 }),
  /** Fastify's trustProxy: false, a hop count, or the addresses and ranges of trusted proxies. */
  trustProxy: Type.Union([Type.Literal(false), Type.Integer({ minimum: 1, maximum: 10 }), Type.String({ minLength: 1 })]),
  tokenFailureWindowSeconds: Type.Integer({ minimum: 1, maximum: 86400 }),
  revocationCheckSeconds: Type.Integer({ minimum: 0, maximum: 5 }),
  apiRequestsPerMinute: Type.Integer({ minimum: 0, maximum: 10_000_000 }),
  logLevel: Type.Union([
    Type.Literal('fatal'),
    Type.Literal('error'),
    Type.Literal('warn'),
    Type.Literal('info'),
    Type.Literal('debug'),
    Type.Literal('trace'),
    Type.Literal('silent'),
  ]),
  seedDemo: Type.Boolean(),
  importMaxBytes: Type.Integer({ minimum: 1024, maximum: 64 * 1024 ** 3 }),
  jobLeaseSeconds: Type.Integer({ minimum: 2, maximum: 3600 }),
  webhookAllowPrivateTargets: Type.Boolean(),
  webhookTimeoutSeconds: Type.Integer({ minimum: 1, maximum: 60 }),
  webhookRetryBaseMilliseconds: Type.Integer({ minimum: 10, maximum: 3_600_000 }),
  webhookGiveUpSeconds: Type.Integer({ minimum: 1, maximum: 30 * 86400 }),
  webhookConcurrency: Type.Integer({ minimum: 1, maximum: 200 }),
  eventRetentionDays: Type.Integer({ minimum: 1, maximum: 36500 }),
  webhookDeliveryRetentionDays: Type.Integer({ minimum: 1, maximum: 36500 }),
  keyGroupMaxTransactions: Type.Integer({ minimum: 1, maximum: KEY_GROUP_MAX_TRANSACTIONS }),
  /** The SMTP server the exceptions queue's daily digests are sent through; null: no e-mail. */
  smtpUrl: Type.Union([Type.String({ pattern: '^smtps?://[^\\s]+$' }), Type.Null()]),
  /** The sender of those messages. */
  mailFrom: Type.String({ minLength: 3, maxLength: 320 }),
  /**
   * The key that seals the secrets of connections (SFTP private keys and passwords) at rest,
   * AES-256-GCM: 32 bytes as base64 or 64 hexadecimal digits; null: no SFTP connection may be
   * made, except in the demo (SEED_DEMO), whose secrets are sealed with a key derived from the instance's.
   */
  secretEncryptionKey: Type.Union([Type.String({ pattern: '^([0-9a-fA-F]{64}|[A-Za-z0-9+/]{43}=)$' }), Type.Null()]),
  /** The directory under which folder connections may read; null: no folder connection may be made. */
  connectorFolderRoot: Type.Union([Type.String({ minLength: 1 }), Type.Null()]),
  /**
   * Seconds a pickup waits to list a new or changed file again in the same run, to see that it is
   * no longer being written; 0: the file is looked at again by the next run.
   */
  connectorSettleSeconds: Type.Integer({ minimum: 0, maximum: 300 }),
  /** Seconds to connect to and get answers from an SFTP server. */
  connectorTimeoutSeconds: Type.Integer({ minimum: 1, maximum: 300 }),
});

export type Config = Static<typeof ConfigSchema>;

const environmentNames: Record<keyof Config, string> = {
  port: 'PORT',
  host: 'HOST',
  publicUrl: 'PUBLIC_URL (scheme and host, no path, e.g. http://127.0.0.1:3000)',
  audience: 'AUDIENCE',
  tokenTtlSeconds: 'TOKEN_TTL_SECONDS (60..86400)',
  dataDirectory: 'DATA_DIR',
  databaseUrl: 'DATABASE_URL (postgres://...)',
  databasePoolSize: 'DATABASE_POOL_SIZE (1..200)',
  secretHashKey: 'SECRET_HASH_KEY (at least 32 characters)',
  queryTimeoutMilliseconds: 'QUERY_TIMEOUT_MS (100..600000)',
  keyPublishLeadSeconds: 'KEY_PUBLISH_LEAD_SECONDS',
  tokenFailureLimit: 'TOKEN_FAILURE_LIMIT',
  tokenFailureClientLimit: 'TOKEN_FAILURE_CLIENT_LIMIT',
  trustProxy: 'TRUST_PROXY (a number of proxy hops, or a comma-separated list of proxy addresses or ranges, such as 10.0.0.0/8,loopback)',
  tokenFailureWindowSeconds: 'TOKEN_FAILURE_WINDOW_SECONDS',
  revocationCheckSeconds: 'REVOCATION_CHECK_SECONDS (0..5)',
  apiRequestsPerMinute: 'API_REQUESTS_PER_MINUTE (0 disables the limit)',
  logLevel: 'LOG_LEVEL (fatal|error|warn|info|debug|trace|silent)',
  seedDemo: 'SEED_DEMO',
  importMaxBytes: 'IMPORT_MAX_BYTES (bytes, at least 1024)',
  jobLeaseSeconds: 'JOB_LEASE_SECONDS (2..3600)',
  webhookAllowPrivateTargets: 'WEBHOOK_ALLOW_PRIVATE_TARGETS (true|false)',
  webhookTimeoutSeconds: 'WEBHOOK_TIMEOUT_SECONDS (1..60)',
  webhookRetryBaseMilliseconds: 'WEBHOOK_RETRY_BASE_MS (10..3600000)',
  webhookGiveUpSeconds: 'WEBHOOK_GIVE_UP_SECONDS (1..2592000)',
  webhookConcurrency: 'WEBHOOK_CONCURRENCY (1..200)',
  eventRetentionDays: 'EVENT_RETENTION_DAYS (days, 1..36500; set it to at least the longest time a consumer of GET /events may be away)',
  webhookDeliveryRetentionDays: 'WEBHOOK_DELIVERY_RETENTION_DAYS (days, 1..36500)',
  keyGroupMaxTransactions: `KEY_GROUP_MAX_TRANSACTIONS (transactions a side of a group formed by groupBy, 1..${KEY_GROUP_MAX_TRANSACTIONS})`,
  smtpUrl: 'SMTP_URL (smtp://user:password@host:587 or smtps://…; unset sends no e-mail)',
  mailFrom: 'MAIL_FROM (the sender of e-mail, e.g. "Ledger Recon <close@example.com>")',
  secretEncryptionKey: 'SECRET_ENCRYPTION_KEY (32 random bytes as base64 or 64 hexadecimal digits, e.g. from `openssl rand -base64 32`)',
  connectorFolderRoot: 'CONNECTOR_FOLDER_ROOT (a directory)',
  connectorSettleSeconds: 'CONNECTOR_SETTLE_SECONDS (0..300)',
  connectorTimeoutSeconds: 'CONNECTOR_TIMEOUT_SECONDS (1..300)',
};

type Environment = Record<string, string | undefined>;

function integer(environment: Environment, name: string, fallback: number): number {
  const raw = environment[name];
  if (raw === undefined || raw === '') return fallback;
  if (!/^-?\d+$/.test(raw)) throw new ConfigError(`${name} must be a whole number, got "${raw}"`);
  return Number(raw);
}

function booleanSetting(environment: Environment, name: string, fallback: boolean): boolean {
  const raw = text(environment, name);
  if (raw === undefined) return fallback;
  if (raw !== 'true' && raw !== 'false') throw new ConfigError(`${name} must be true or false, got "${raw}"`);
  return raw === 'true';
}

function text(environment: Environment, name: string): string | undefined {
  const raw = environment[name];
  return raw === undefined || raw === '' ? undefined : raw;
}

/**
 * TRUST_PROXY: unset trusts no proxy (the address is the connection's); a number trusts that
 * many hops of X-Forwarded-For; otherwise a comma-separated list of proxy addresses, CIDR ranges
 * or the names loopback, linklocal and uniquelocal. "true" (trust any sender) is refused: anyone
 * could then choose their own address by sending X-Forwarded-For.
 */
function trustProxySetting(raw: string | undefined): Config['trustProxy'] {
  if (raw === undefined || raw === 'false') return false;
  if (/^\d+$/.test(raw)) return Number(raw);
  const entries = raw.split(',').map((entry) => entry.trim());
  const entryPattern = /^(loopback|linklocal|uniquelocal|[0-9a-fA-F.:]+(\/\d{1,3})?)$/;
  if (raw === 'true' || entries.some((entry) => !entryPattern.test(entry))) {
    throw new ConfigError(
      'TRUST_PROXY must be a number of proxy hops or a comma-separated list of proxy addresses or ranges (e.g. "10.0.0.0/8,loopback"); "true" is refused because it would let any client choose its own address',
    );
  }
  return entries.join(',');
}

export class ConfigError extends Error {
  override name = 'ConfigError';
}

/** Reads and validates the configuration; throws ConfigError naming the bad variable. */
export function loadConfig(environment: Environment = process.env, overrides: Partial<Config> = {}): Config {
  const port = integer(environment, 'PORT', 3000);
  const host = text(environment, 'HOST') ?? '127.0.0.1';
  const publicHost = host === '0.0.0.0' || host === '::' ? '127.0.0.1' : host;
  const publicUrl = (text(environment, 'PUBLIC_URL') ?? `http://${publicHost}:${port}`).replace(/\/+$/, '');
  const candidate: Config = {
    port,
    host,
    publicUrl,
    audience: text(environment, 'AUDIENCE') ?? `${publicUrl}/v1/api`,
    tokenTtlSeconds: integer(environment, 'TOKEN_TTL_SECONDS', 10800),
    dataDirectory: text(environment, 'DATA_DIR') ?? './data',
    databaseUrl: text(environment, 'DATABASE_URL') ?? null,
    databasePoolSize: integer(environment, 'DATABASE_POOL_SIZE', 10),
    secretHashKey: text(environment, 'SECRET_HASH_KEY') ?? null,
    queryTimeoutMilliseconds: integer(environment, 'QUERY_TIMEOUT_MS', 10000),
    keyPublishLeadSeconds: integer(environment, 'KEY_PUBLISH_LEAD_SECONDS', 3600),
    tokenFailureLimit: integer(environment, 'TOKEN_FAILURE_LIMIT', 10),
    tokenFailureClientLimit: integer(environment, 'TOKEN_FAILURE_CLIENT_LIMIT', 1000),
    trustProxy: trustProxySetting(text(environment, 'TRUST_PROXY')),
    tokenFailureWindowSeconds: integer(environment, 'TOKEN_FAILURE_WINDOW_SECONDS', 60),
    revocationCheckSeconds: integer(environment, 'REVOCATION_CHECK_SECONDS', 2),
    apiRequestsPerMinute: integer(environment, 'API_REQUESTS_PER_MINUTE', 6000),
    logLevel: (text(environment, 'LOG_LEVEL') ?? 'info') as Config['logLevel'],
    seedDemo: (text(environment, 'SEED_DEMO') ?? 'true') !== 'false',
    importMaxBytes: integer(environment, 'IMPORT_MAX_BYTES', 512 * 1024 * 1024),
    jobLeaseSeconds: integer(environment, 'JOB_LEASE_SECONDS', 30),
    webhookAllowPrivateTargets: booleanSetting(environment, 'WEBHOOK_ALLOW_PRIVATE_TARGETS', false),
    webhookTimeoutSeconds: integer(environment, 'WEBHOOK_TIMEOUT_SECONDS', 15),
    webhookRetryBaseMilliseconds: integer(environment, 'WEBHOOK_RETRY_BASE_MS', 10_000),
    webhookGiveUpSeconds: integer(environment, 'WEBHOOK_GIVE_UP_SECONDS', 3 * 86400),
    webhookConcurrency: integer(environment, 'WEBHOOK_CONCURRENCY', 16),
    eventRetentionDays: integer(environment, 'EVENT_RETENTION_DAYS', 30),
    webhookDeliveryRetentionDays: integer(environment, 'WEBHOOK_DELIVERY_RETENTION_DAYS', 30),
    keyGroupMaxTransactions: integer(environment, 'KEY_GROUP_MAX_TRANSACTIONS', KEY_GROUP_MAX_TRANSACTIONS),
    smtpUrl: text(environment, 'SMTP_URL') ?? null,
    mailFrom: text(environment, 'MAIL_FROM') ?? `Ledger Recon <no-reply@${publicUrl.replace(/^https?:\/\//, '').replace(/:\d+$/, '') || 'localhost'}>`,
    secretEncryptionKey: text(environment, 'SECRET_ENCRYPTION_KEY') ?? null,
    connectorFolderRoot: text(environment, 'CONNECTOR_FOLDER_ROOT') ?? null,
    connectorSettleSeconds: integer(environment, 'CONNECTOR_SETTLE_SECONDS', 5),
    connectorTimeoutSeconds: integer(environment, 'CONNECTOR_TIMEOUT_SECONDS', 20),
    ...overrides,
  };
  if (!Value.Check(ConfigSchema, candidate)) {
    const first = [...Value.Errors(ConfigSchema, candidate)][0];
    const field = (first ? first.path.replace(/^\//, '') : '') as keyof Config;
    const name = environmentNames[field] ?? field;
    throw new ConfigError(`${name} is invalid: ${first?.message ?? 'invalid value'}`);
  }
  return candidate;
}
