import { randomBytes } from 'node:crypto';
import type { Writable } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import pg from 'pg';
import { buildApp } from '../src/app.ts';
import { loadConfig, type Config } from '../src/config.ts';
import { openDatabase, type Database } from '../src/db/database.ts';
import { migrate } from '../src/db/migrate.ts';
import type { Role } from '../src/domain/auth/roles.ts';
import { createOrganization } from '../src/domain/organizations.ts';
import { createServices, type Services } from '../src/domain/services.ts';
import { AdvanceableClock } from './clock.ts';
import { freePort } from './net.ts';
import { migratedPostgresTemplate, migratedStoreImage } from './store-image.ts';

export type StoreKind = 'pglite' | 'postgres';

/**
 * The stores a suite runs against: always PGlite; PostgreSQL too when DATABASE_URL is set.
 * CI always sets it; without it the PostgreSQL runs are reported as skipped, never silently.
 */
export function storeKinds(): StoreKind[] {
  return process.env.DATABASE_URL ? ['pglite', 'postgres'] : ['pglite'];
}

export const postgresSkipReason = process.env.DATABASE_URL ? false : 'DATABASE_URL is not set: the PostgreSQL run is skipped';

/**
 * Opens an empty, migrated store (through `migrateThrough` only, for a test of a later
 * migration). On PostgreSQL each call gets a database of its own (a copy of the migrated
 * template, support/store-image.ts), so test files can run in parallel; it is dropped by the
 * returned cleanup.
 */
export async function openTestStore(
  kind: StoreKind,
  options: { migrateThrough?: number } = {},
): Promise<{ database: Database; databaseUrl: string | null; drop: () => Promise<void> }> {
  if (kind === 'pglite') {
    // A store migrated through the last migration is loaded from the image made once per run;
    // one migrated only part of the way is made here.
    const database =
      options.migrateThrough === undefined
        ? openDatabase({ databaseUrl: null, dataDirectory: null, image: await migratedStoreImage() })
        : openDatabase({ databaseUrl: null, dataDirectory: null });
    if (options.migrateThrough !== undefined) await migrate(database, { through: options.migrateThrough });
    return { database, databaseUrl: null, drop: () => database.close() };
  }
  const baseUrl = process.env.DATABASE_URL;
  if (!baseUrl) throw new Error('DATABASE_URL must be set for the PostgreSQL suite');
  const name = `ledger_recon_test_${randomBytes(6).toString('hex')}`;
  // A store migrated through the last migration is a copy of the template made once per run; one
  // migrated only part of the way starts empty and is migrated here.
  const template = options.migrateThrough === undefined ? await migratedPostgresTemplate(baseUrl) : null;
  const admin = new pg.Client({ connectionString: baseUrl });
  await admin.connect();
  try {
    await admin.query(template ? `CREATE DATABASE ${name} TEMPLATE ${template}` : `CREATE DATABASE ${name}`);
    // Just-in-time compilation of the plans costs more than it saves on the small tables of a
    // test (a matching run's statements took tenfold with it); the results are the same.
    await admin.query(`ALTER DATABASE ${name} SET jit = off`);
  } finally {
    await admin.end();
  }
  const url = new URL(baseUrl);
  url.pathname = `/${name}`;
  const databaseUrl = url.toString();
  const database = openDatabase({ databaseUrl, dataDirectory: null, poolSize: 5 });
  // On a copy of the template this only finds every migration applied.
  await migrate(database, { through: options.migrateThrough });
  return {
    database,
    databaseUrl,
    drop: async () => {
      await database.close();
      const cleanup = new pg.Client({ connectionString: baseUrl });
      await cleanup.connect();
      await cleanup.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await cleanup.end();
    },
  };
}

export interface TestServer {
  kind: StoreKind;
  config: Config;
  database: Database;
  services: Services;
  app: FastifyInstance;
  /** http://127.0.0.1:<port> of the listening server. */
  baseUrl: string;
  /** The clock of the caches and throttles: advance it instead of sleeping until they expire. */
  clock: AdvanceableClock;
  close(): Promise<void>;
}

/**
 * Starts the real server on a free port over a fresh store. The port is chosen before the
 * services are built because the issuer and audience contain it. The log is silent unless a
 * test gives it a stream (warnings and errors are written there).
 */
export async function startTestServer(kind: StoreKind, overrides: Partial<Config> = {}, options: { logStream?: Writable } = {}): Promise<TestServer> {
  const store = await openTestStore(kind);
  const port = await freePort();
  const baseUrl = `http://127.0.0.1:${port}`;
  const publicUrl = overrides.publicUrl ?? baseUrl;
  const config: Config = {
    ...loadConfig({}, { seedDemo: false, logLevel: 'silent', ...overrides }),
    port,
    publicUrl,
    audience: overrides.audience ?? `${publicUrl}/v1/api`,
    databaseUrl: store.databaseUrl,
  };
  const clock = new AdvanceableClock();
  const services = createServices(config, store.database, { clock });
  await services.signingKeys.ensureKey();
  const app = await buildApp({ services, logger: options.logStream ? { level: 'warn', stream: options.logStream } : false });
  await app.listen({ port, host: '127.0.0.1' });
  await services.jobs.start();
  await services.webhookJobs.start();
  return {
    kind,
    config,
    database: store.database,
    services,
    app,
    baseUrl,
    clock,
    close: async () => {
      await app.close();
      await Promise.all([services.jobs.stop(), services.webhookJobs.stop()]);
      await store.drop();
    },
  };
}

/**
 * Runs `work` against a server started for it and closes the server afterwards, whether `work`
 * succeeded or threw: for a bench scenario or a test that needs a server of its own.
 */
export async function withTestServer<T>(kind: StoreKind, overrides: Partial<Config>, work: (server: TestServer) => Promise<T>): Promise<T> {
  const server = await startTestServer(kind, overrides);
  try {
    return await work(server);
  } finally {
    await server.close();
  }
}

/**
 * A second server instance over the same store, as a second process would be: its own caches,
 * its own connection pool on PostgreSQL (the embedded store cannot be opened twice, so there the
 * instances share the store object), the same public URL and therefore the same issuer. Its job
 * queues are not started, so it never executes a job itself. `statementTimeoutMilliseconds`
 * bounds how long its statements wait (PostgreSQL only).
 */
export async function startSecondInstance(server: TestServer, overrides: Partial<Config> = {}, options: { statementTimeoutMilliseconds?: number } = {}) {
  const database: Database =
    server.kind === 'postgres'
      ? openDatabase({
          databaseUrl: server.config.databaseUrl,
          dataDirectory: null,
          poolSize: 3,
          statementTimeoutMilliseconds: options.statementTimeoutMilliseconds,
        })
      : server.database;
  // The same clock: advancing it expires the caches of both instances, as time would.
  const services = createServices({ ...server.config, ...overrides }, database, { clock: server.clock });
  const app = await buildApp({ services });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const { port } = app.server.address() as { port: number };
  return {
    baseUrl: `http://127.0.0.1:${port}`,
    services,
    close: async () => {
      await app.close();
      if (database !== server.database) await database.close();
    },
  };
}

export interface TestOrganization {
  orgId: string;
  clientId: string;
  clientSecret: string;
  token: string;
  /** The Administrator user the organization was created with (createTestOrganization only). */
  user?: { email: string; password: string };
}

let organizationCounter = 0;

/** Creates an organization with an Administrator client and a token for it. */
export async function createTestOrganization(server: TestServer, name = `Org ${++organizationCounter}`): Promise<TestOrganization> {
  const created = await createOrganization(server.database, server.services.apiClients, {
    name,
    adminEmail: `admin${organizationCounter}@example.com`,
    createdBy: 'test',
  });
  const token = await requestToken(server, created.client.clientId, created.client.clientSecret);
  return { orgId: created.orgId, clientId: created.client.clientId, clientSecret: created.client.clientSecret, token, user: created.user };
}

/** Creates one more API client of the given role in an organization and returns a token for it. */
export async function createTestClient(server: TestServer, orgId: string, role: Role): Promise<TestOrganization> {
  const created = await server.database.transaction((transaction) =>
    server.services.apiClients.create(transaction, { organizationId: orgId, name: `${role} client`, role, createdBy: 'test' }),
  );
  const token = await requestToken(server, created.clientId, created.clientSecret);
  return { orgId, clientId: created.clientId, clientSecret: created.clientSecret, token };
}

export async function requestToken(server: TestServer, clientId: string, clientSecret: string): Promise<string> {
  const response = await fetch(`${server.baseUrl}/oauth/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ grant_type: 'client_credentials', client_id: clientId, client_secret: clientSecret, audience: server.config.audience }),
  });
  const body = (await response.json()) as { access_token?: string };
  if (response.status !== 200 || !body.access_token) throw new Error(`token request failed: ${response.status} ${JSON.stringify(body)}`);
  return body.access_token;
}

/** Calls the API through the listening server with a bearer token and a JSON body. */
export async function api(
  server: TestServer,
  token: string | null,
  method: string,
  path: string,
  body?: unknown,
  headers: Record<string, string> = {},
): Promise<{ status: number; headers: Headers; body: any }> {
  const response = await fetch(`${server.baseUrl}${path}`, {
    method,
    headers: {
      ...(token ? { authorization: `Bearer ${token}` } : {}),
      ...(body !== undefined ? { 'content-type': 'application/json' } : {}),
      ...headers,
    },
    body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
  });
  const text = await response.text();
  let parsed: unknown = text;
  try {
    parsed = text === '' ? null : JSON.parse(text);
  } catch {
    // Not JSON: the raw text is returned for the assertion to look at.
  }
  return { status: response.status, headers: response.headers, body: parsed };
}
