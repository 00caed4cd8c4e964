import { createHash } from 'node:crypto';
import { cpSync, existsSync, mkdtempSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
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

// Run directly (the test runner does, before the suites start), it makes the image once so that
// parallel suites do not each make it.
if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  await migratedStoreImage();
  console.log(`embedded store image: ${storeImageFile()}`);
}
