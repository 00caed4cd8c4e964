import { randomUUID } from 'node:crypto';
import type { Database, Queryable } from '../../db/database.ts';
import { appendAuditEvents } from '../../db/repositories/audit-events.ts';
import { countSources, insertSource, listSourcesWithDatasets, renameSource } from '../../db/repositories/sources.ts';
import { lockOrganization } from '../../db/repositories/organizations.ts';
import { conflict, notFound } from '../../errors.ts';
import { AuditActions, objectEvent, type WriteContext } from '../audit.ts';
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

  /** Every source with its datasets; archived datasets only with includeArchived. */
  async list(organizationId: string, options: { includeArchived?: boolean } = {}): Promise<Source[]> {
    const rows = await listSourcesWithDatasets(this.database, organizationId, { includeArchived: options.includeArchived ?? false });
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
    await appendAuditEvents(transaction, { ...context, note: null }, [objectEvent(AuditActions.sourceCreated, null, { sourceId: row.id, name: row.name })]);
    return { id: row.id, name: row.name, datasets: [], createdAt: new Date(row.created_at).toISOString() };
  }

  /** Renames a source, recorded in the audit trail in the same transaction; answers it with its datasets. */
  async rename(transaction: Queryable, context: WriteContext, sourceId: string, input: { name: string }): Promise<Source> {
    const name = validName(input.name, '/name');
    const renamed = await renameSource(transaction, context.organizationId, sourceId, name);
    if (!renamed) throw notFound('source', sourceId);
    if (renamed.before !== renamed.row.name) {
      await appendAuditEvents(transaction, { ...context, note: null }, [
        objectEvent(AuditActions.sourceUpdated, { sourceId, name: renamed.before }, { sourceId, name: renamed.row.name }),
      ]);
    }
    const listed = await listSourcesWithDatasets(transaction, context.organizationId, { includeArchived: true });
    const source = listed.find((row) => row.id === sourceId)!;
    return { id: source.id, name: source.name, datasets: source.datasets.map(datasetOf), createdAt: new Date(source.created_at).toISOString() };
  }
}
