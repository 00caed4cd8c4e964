import type { Queryable } from '../database.ts';
import { DATASET_JSON_SQL, type DatasetRow } from './datasets.ts';

export interface SourceRow {
  id: string;
  name: string;
  created_at: Date;
}

export interface SourceWithDatasetsRow extends SourceRow {
  datasets: DatasetRow[];
}

export async function insertSource(database: Queryable, source: { id: string; organizationId: string; name: string }): Promise<SourceRow> {
  const rows = await database.query<SourceRow>('INSERT INTO sources (id, organization_id, name) VALUES ($1, $2, $3) RETURNING id, name, created_at', [
    source.id,
    source.organizationId,
    source.name,
  ]);
  return rows[0]!;
}

export async function findSource(database: Queryable, organizationId: string, sourceId: string): Promise<SourceRow | undefined> {
  const rows = await database.query<SourceRow>('SELECT id, name, created_at FROM sources WHERE organization_id = $1 AND id = $2', [organizationId, sourceId]);
  return rows[0];
}

export async function countSources(database: Queryable, organizationId: string): Promise<number> {
  const rows = await database.query<{ count: number }>('SELECT count(*) AS count FROM sources WHERE organization_id = $1', [organizationId]);
  return rows[0]!.count;
}

/** Renames a source; answers its name before and after, or undefined when there is none. */
export async function renameSource(
  database: Queryable,
  organizationId: string,
  sourceId: string,
  name: string,
): Promise<{ before: string; row: SourceRow } | undefined> {
  const rows = await database.query<SourceRow & { before: string }>(
    `WITH old AS (SELECT id, name FROM sources WHERE organization_id = $1 AND id = $2 FOR UPDATE)
     UPDATE sources s SET name = $3 FROM old
      WHERE s.organization_id = $1 AND s.id = old.id
     RETURNING s.id, s.name, s.created_at, old.name AS before`,
    [organizationId, sourceId, name],
  );
  const row = rows[0];
  return row ? { before: row.before, row: { id: row.id, name: row.name, created_at: row.created_at } } : undefined;
}

/**
 * Every source of an organization with its datasets, their columns and their counts per
 * reconciliation status, in one round trip; archived datasets only when asked for.
 */
export async function listSourcesWithDatasets(
  database: Queryable,
  organizationId: string,
  options: { includeArchived: boolean },
): Promise<SourceWithDatasetsRow[]> {
  return database.query<SourceWithDatasetsRow>(
    `SELECT s.id, s.name, s.created_at,
            coalesce((SELECT json_agg(${DATASET_JSON_SQL} ORDER BY d.created_at, d.id)
                        FROM datasets d
                       WHERE d.organization_id = s.organization_id AND d.source_id = s.id AND ($2 OR d.status <> 'archived')), '[]'::json) AS datasets
       FROM sources s
      WHERE s.organization_id = $1
      ORDER BY s.created_at, s.id`,
    [organizationId, options.includeArchived],
  );
}
