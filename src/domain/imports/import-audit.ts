import type { Queryable } from '../../db/database.ts';
import { appendAuditEvents } from '../../db/repositories/audit-events.ts';
import type { ImportRow } from '../../db/repositories/imports.ts';
import { AuditActions, objectEvent, type WriteContext } from '../audit.ts';

/**
 * Records an import's beginning or its end in the audit trail, in the transaction that writes
 * the import's record: an import is in the trail exactly when its record is in the store.
 */
export async function recordImportInAudit(transaction: Queryable, context: WriteContext, record: ImportRow): Promise<void> {
  const file = { importId: record.id, datasetId: record.datasetId, fileName: record.fileName };
  const event =
    record.status === 'running'
      ? objectEvent(AuditActions.importStarted, null, { ...file, format: record.format, sizeBytes: record.sizeBytes, status: record.status })
      : record.status === 'completed'
        ? objectEvent(
            AuditActions.importCompleted,
            { ...file, status: 'running' },
            {
              ...file,
              format: record.format,
              status: record.status,
              rowsRead: record.rowsRead,
              inserted: record.inserted,
              duplicates: record.duplicates,
              warnings: record.warnings.length,
            },
          )
        : objectEvent(
            AuditActions.importFailed,
            { ...file, status: 'running' },
            {
              ...file,
              format: record.format,
              status: record.status,
              rowsRead: record.rowsRead,
              error: record.error?.message ?? null,
            },
          );
  await appendAuditEvents(transaction, { ...context, note: null }, [event]);
}
