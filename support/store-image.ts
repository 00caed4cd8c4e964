import { createHash } from 'node:crypto';
import { cpSync, existsSync, mkdtempSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { dumpEmbeddedImage, openDatabase } from '../src/db/database.ts';
import { listMigrations, migrate, type Migration } from '../src/db/migrate.ts';

/**
 * A migrated, empty embedded store as an image, made once and loaded by every suite that opens
 * an embedded store: creating a PGlite store (initdb) and migrating it costs seconds, loading
 * the image a fraction of that. The file is keyed by the migrations and the PGlite version, so a
 * new or changed migration makes a new image and a stale one is never loaded.
 */
export function storeImageFile(migrations: readonly Migration[] = listMigrations()): string {
  const hash = createHash('sha256');
  const manifest = path.join(path.dirname(fileURLToPath(import.meta.url)), '../node_modules/@electric-sql/pglite/package.json');
  const pgliteVersion = (JSON.parse(readFileSync(manifest, 'utf8')) as { version: string }).version;
  hash.update(`pglite ${pgliteVersion}\n`);
  for (const migration of migrations) hash.update(`${migration.name}\n${migration.sql}\n`);
  return path.join(tmpdir(), `ledger-recon-store-image-${hash.digest('hex').slice(0, 16)}.tar`);
}

let image: Promise<Uint8Array> | null = null;

/** The image's bytes, made first if no file holds it yet; read once per process. */
export function migratedStoreImage(): Promise<Uint8Array> {
  image ??= loadOrMake();
  return image;
}

async function loadOrMake(): Promise<Uint8Array> {
  const file = storeImageFile();
  if (existsSync(file)) return new Uint8Array(readFileSync(file));
  const database = openDatabase({ databaseUrl: null, dataDirectory: null });
  try {
    await migrate(database);
    const made = await dumpEmbeddedImage(database);
    // Written under a name of this process and renamed: suites that make it at the same time
    // each write a whole file, and a reader never sees half of one.
    const partial = `${file}.${process.pid}.partial`;
    writeFileSync(partial, made);
    renameSync(partial, file);
    return made;
  } finally {
    await database.close();
  }
}

/**
 * A DATA_DIR holding a migrated, empty embedded store, for a command-line suite whose subject is
 * not the store's creation: the child process opens it instead of creating and migrating one. The
 * store is made once per image (from the image) and copied for each caller.
 */
export async function migratedDataDirectory(prefix: string): Promise<string> {
  const template = storeImageFile().replace(/\.tar$/, '-data');
  if (!existsSync(template)) {
    const partial = mkdtempSync(`${template}.${process.pid}.`);
    const database = openDatabase({ databaseUrl: null, dataDirectory: partial, image: await migratedStoreImage() });
    try {
      await database.query('SELECT 1');
    } finally {
      await database.close();
    }
    // Renamed whole, as the image is: a directory another suite made meanwhile is kept.
    try {
      renameSync(partial, template);
    } catch {
      rmSync(partial, { recursive: true, force: true });
    }
  }
  const directory = mkdtempSync(path.join(tmpdir(), prefix));
  cpSync(template, directory, { recursive: true });
  return directory;
}

/**
 * The name of a PostgreSQL database migrated through the last migration, that test databases are
 * created from (CREATE DATABASE ... TEMPLATE) instead of each migrating its own: migrating costs
 * seconds, a copy of the template a fraction of that. Keyed by the migrations, as the embedded
 * image is, so a stale template is never copied; a migration run of its own still happens once
 * per set of migrations, when the template is made.
 */
export function postgresTemplateName(migrations: readonly Migration[] = listMigrations()): string {
  const hash = createHash('sha256');
  for (const migration of migrations) hash.update(`${migration.name}\n${migration.sql}\n`);
  return `ledger_recon_template_${hash.digest('hex').slice(0, 16)}`;
}

const templates = new Map<string, Promise<string>>();

/** The migrated template on the server of `baseUrl`, made first if the server has none yet; once per process. */
export function migratedPostgresTemplate(baseUrl: string): Promise<string> {
  let template = templates.get(baseUrl);
  if (!template) {
    template = makePostgresTemplate(baseUrl);
    // A failed attempt is not remembered: the next caller tries again.
    template.catch(() => templates.delete(baseUrl));
    templates.set(baseUrl, template);
  }
  return template;
}

async function makePostgresTemplate(baseUrl: string): Promise<string> {
  const name = postgresTemplateName();
  const admin = new pg.Client({ connectionString: baseUrl });
  await admin.connect();
  try {
    const found = await admin.query('SELECT 1 FROM pg_database WHERE datname = $1', [name]);
    if (found.rowCount) return name;
    // Made under a name of this process and renamed once migrated: suites that make it at the
    // same time each make a whole one, and no suite ever copies half of one.
    const partial = `${name}_${process.pid}_${Date.now().toString(36)}`;
    await admin.query(`CREATE DATABASE ${partial}`);
    try {
      const url = new URL(baseUrl);
      url.pathname = `/${partial}`;
      const database = openDatabase({ databaseUrl: url.toString(), dataDirectory: null, poolSize: 1 });
      try {
        await migrate(database);
      } finally {
        await database.close();
      }
      // Nobody connects to the template (a copy cannot be made while anyone is connected).
      await admin.query(`ALTER DATABASE ${partial} ALLOW_CONNECTIONS false`);
      await admin.query(`ALTER DATABASE ${partial} RENAME TO ${name}`);
    } catch (error) {
      await admin.query(`DROP DATABASE IF EXISTS ${partial} WITH (FORCE)`);
      // Another process made the template meanwhile: that one is used.
      if ((error as { code?: string }).code !== '42P04') throw error;
    }
    return name;
  } finally {
    await admin.end();
  }
}

// Run directly (the test runner does, before the suites start), it makes the image once so that
// parallel suites do not each make it, and the PostgreSQL template when DATABASE_URL is set.
if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  await migratedStoreImage();
  console.log(`embedded store image: ${storeImageFile()}`);
  if (process.env.DATABASE_URL) console.log(`PostgreSQL template database: ${await migratedPostgresTemplate(process.env.DATABASE_URL)}`);
}
