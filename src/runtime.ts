import type { Config } from './config.ts';
import { openDatabase, type Database } from './db/database.ts';
import { migrate } from './db/migrate.ts';
import { lockEmbeddedStore } from './db/store-lock.ts';
import { createServices, type Services } from './domain/services.ts';

export interface Runtime {
  database: Database;
  services: Services;
  /** Migrations applied while opening. */
  appliedMigrations: string[];
  close(): Promise<void>;
}

/**
 * Opens the configured store (locking the embedded one), brings its schema up to date and
 * makes sure a signing key exists. The server and every CLI command that touches the store
 * start here, so they all see the store the same way.
 */
export async function openRuntime(config: Config, options: { ensureSigningKey?: boolean } = {}): Promise<Runtime> {
  const release = config.databaseUrl ? () => {} : lockEmbeddedStore(config.dataDirectory);
  let database: Database | null = null;
  try {
    database = openDatabase({
      databaseUrl: config.databaseUrl,
      dataDirectory: config.dataDirectory,
      poolSize: config.databasePoolSize,
      statementTimeoutMilliseconds: config.queryTimeoutMilliseconds,
    });
    const appliedMigrations = await migrate(database);
    const services = createServices(config, database);
    // `migrate` only brings the schema up to date; everything else needs a key to sign with.
    if (options.ensureSigningKey ?? true) await services.signingKeys.ensureKey();
    const opened = database;
    return {
      database: opened,
      services,
      appliedMigrations,
      close: async () => {
        await opened.close();
        release();
      },
    };
  } catch (error) {
    await database?.close().catch(() => {});
    release();
    throw error;
  }
}
