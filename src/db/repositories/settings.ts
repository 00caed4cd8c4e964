import type { Queryable } from '../database.ts';

/** Reads a setting, creating it with `initial` if absent; concurrent creators agree on one value. */
export async function getOrCreateSetting(database: Queryable, name: string, initial: string): Promise<string> {
  await database.query('INSERT INTO instance_settings (name, value) VALUES ($1, $2) ON CONFLICT (name) DO NOTHING', [name, initial]);
  const rows = await database.query<{ value: string }>('SELECT value FROM instance_settings WHERE name = $1', [name]);
  return rows[0]!.value;
}

export async function findSetting(database: Queryable, name: string): Promise<string | undefined> {
  const rows = await database.query<{ value: string }>('SELECT value FROM instance_settings WHERE name = $1', [name]);
  return rows[0]?.value;
}

export async function setSetting(database: Queryable, name: string, value: string): Promise<void> {
  await database.query('INSERT INTO instance_settings (name, value) VALUES ($1, $2) ON CONFLICT (name) DO UPDATE SET value = excluded.value', [name, value]);
}
