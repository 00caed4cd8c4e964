import { randomUUID } from 'node:crypto';
import type { Database, Queryable } from '../../db/database.ts';
import { countSources, insertSource, listSourcesWithDatasets } from '../../db/repositories/sources.ts';
import { lockOrganization } from '../../db/repositories/organizations.ts';
import { conflict } from '../../errors.ts';
import type { WriteContext } from '../audit.ts';
import { datasetOf, validName, type Dataset } from './datasets.ts';

/** GET /sources answers with every source at once, so their number is bounded. */
export const SOURCES_PER_ORGANIZATION_LIMIT = 500;

/** A source (a bank, a PSP, an ERP...) in the published service's shape, plus its creation time. */
export interface Source {
  id: string;
  name: string;
  datasets: Dataset[];
  createdAt: string;
}

export class Sources {
  constructor(private readonly database: Database) {}

  async list(organizationId: string): Promise<Source[]> {
    const rows = await listSourcesWithDatasets(this.database, organizationId);
    return rows.map((row) => ({
      id: row.id,
      name: row.name,
      datasets: row.datasets.map(datasetOf),
      createdAt: new Date(row.created_at).toISOString(),
    }));
  }

  async create(transaction: Queryable, context: WriteContext, input: { name: string }): Promise<Source> {
    const name = validName(input.name, '/name');
    // Serializes creations within the organization, so that the limits on how many sources and
    // datasets there may be hold under concurrent requests.
    await lockOrganization(transaction, context.organizationId);
    if ((await countSources(transaction, context.organizationId)) >= SOURCES_PER_ORGANIZATION_LIMIT) {
      throw conflict(`the organization already has ${SOURCES_PER_ORGANIZATION_LIMIT} sources, the most it may have`);
    }
    const row = await insertSource(transaction, { id: randomUUID(), organizationId: context.organizationId, name });
    return { id: row.id, name: row.name, datasets: [], createdAt: new Date(row.created_at).toISOString() };
  }
}
