import type { Database, Queryable } from '../../db/database.ts';
import { appendAuditEvents } from '../../db/repositories/audit-events.ts';
import { lockDatasets, markDatasetsUpdated, releaseDatasetAccountOfImport } from '../../db/repositories/datasets.ts';
import {
  deleteImportTransactions,
  findImport,
  findMatchGroupsOfImport,
  lockImportForUndo,
  lockImportTransactionsForUndo,
  markImportUndone,
  summarizeImportTransactions,
  supersedeSuggestionsOfImport,
  type ImportRow,
  type MatchedImportTransaction,
} from '../../db/repositories/imports.ts';
import { conflict, notFound } from '../../errors.ts';
import { AuditActions, type WriteContext } from '../audit.ts';
import { refuseClosedPeriods } from '../close/closed-periods.ts';
import type { Matching } from '../matching/matches.ts';
import type { ImportProgress } from './importer.ts';

/** Matched transactions an answer lists by name; the count says how many there are in all. */
export const UNDO_MATCHED_LISTED = 100;

/** What undoing an import would do, as GET /imports/{id}/undo-preview answers it. */
export interface UndoPreview {
  importId: string;
  /** Whether DELETE /imports/{id} would go through as asked without unmatch=true. */
  undoable: boolean;
  /** Why it cannot be undone at all (running, failed, already undone); null when it can. */
  refusal: string | null;
  /** Transactions the import created that an undo removes. */
  transactions: number;
  /** How many of them are matched: the undo needs unmatch=true, which dissolves their match groups. */
  matched: number;
  matchGroups: number;
  matchedTransactions: MatchedImportTransaction[];
}

export interface UndoResult {
  import: ImportRow;
  removed: number;
  matchGroupsDissolved: number;
}

/**
 * Undoing an import (DELETE /imports/{id}): the transactions the import created are removed, all
 * or nothing, in one database transaction, and the import stays in the history as "undone".
 * Entries the import found already stored (its duplicates) belong to the import that created
 * them and stay. A matched transaction is removed only when the caller says so (unmatch), and its
 * match groups are then dissolved as DELETE /match-groups/{id} dissolves them, with their audit
 * events; without it the undo is refused, listing the matched transactions. Since the rows are
 * deleted, importing the same file again stores its entries again.
 */
export class ImportUndo {
  constructor(
    private readonly database: Database,
    private readonly matching: Matching,
    private readonly progress: ImportProgress,
  ) {}

  async preview(organizationId: string, importId: string): Promise<UndoPreview> {
    const running = this.progress.find(organizationId, importId);
    const record = running ?? (await findImport(this.database, organizationId, importId));
    if (!record) throw notFound('import', importId);
    const refusal = refusalOf(record.status);
    if (refusal !== null) return { importId, undoable: false, refusal, transactions: 0, matched: 0, matchGroups: 0, matchedTransactions: [] };
    const summary = await summarizeImportTransactions(this.database, organizationId, importId, UNDO_MATCHED_LISTED);
    return { importId, undoable: summary.matched === 0, refusal: null, ...summary };
  }

  /**
   * Refuses, before the undo's database transaction is opened, to undo an import that runs in this
   * process. On the embedded store that transaction would wait for the whole import and then find
   * it completed and undo it: a request made while the import ran would remove what it stored.
   */
  refuseIfRunningHere(organizationId: string, importId: string): void {
    if (this.progress.find(organizationId, importId)) throw conflict(refusalOf('running')!);
  }

  async undo(transaction: Queryable, context: WriteContext, input: { importId: string; unmatch: boolean; note: string | null }): Promise<UndoResult> {
    const { organizationId } = context;
    const { importId } = input;
    // Checked here too, for a caller that did not check before opening the transaction.
    this.refuseIfRunningHere(organizationId, importId);
    const found = await lockImportForUndo(transaction, organizationId, importId);
    if (!found) throw notFound('import', importId);
    const refusal = refusalOf(found.status);
    if (refusal !== null) throw conflict(refusal);
    // Locks in the order every writer takes them (migration 0003): the transaction rows first, in
    // id order (the import's and those matched with them, which an unmatch changes), then their
    // datasets in id order. Match writers (matches, unmatches, runs, suggestions) lock rows and
    // then datasets; an undo that held the dataset while it waited for their rows would deadlock
    // with them. An import of the same dataset takes the dataset first, but it only inserts
    // rows, and an insert waits for no row an undo has locked.
    const datasetIds = await lockImportTransactionsForUndo(transaction, organizationId, importId);
    await lockDatasets(transaction, organizationId, [found.datasetId, ...datasetIds]);
    const summary = await summarizeImportTransactions(transaction, organizationId, importId, UNDO_MATCHED_LISTED);
    if (summary.matched > 0 && !input.unmatch) {
      const listed = summary.matchedTransactions.map((entry) => ({
        path: '/unmatch',
        in: 'query' as const,
        message: `${describeTransaction(entry)} is matched (match group ${entry.matchGroupIds.join(', ')})`,
      }));
      throw conflict(
        `${summary.matched} of the ${summary.transactions} transactions this import created ${summary.matched === 1 ? 'is' : 'are'} matched` +
          (summary.matched > listed.length ? ` (the first ${listed.length} are listed)` : '') +
          '; undoing the import would remove them from their matches. Send unmatch=true to dissolve those match groups and undo the import, or unmatch them first',
        listed,
      );
    }
    // The rows it removes; the counterparts of the groups an unmatch dissolves are checked by the unmatch.
    await refuseClosedPeriods(transaction, organizationId, { kind: 'import', importId });
    const groups = summary.matched > 0 ? await findMatchGroupsOfImport(transaction, organizationId, importId) : [];
    await this.matching.deleteGroups(transaction, context, { groupIds: groups, note: input.note ?? `import ${importId} undone` });
    await supersedeSuggestionsOfImport(transaction, organizationId, importId);
    const removed = await deleteImportTransactions(transaction, organizationId, importId);
    if (removed > 0) await markDatasetsUpdated(transaction, organizationId, [found.datasetId], context.actor);
    const accountReleased = await releaseDatasetAccountOfImport(transaction, organizationId, found.datasetId, importId);
    const record = await markImportUndone(transaction, organizationId, importId, context.actor);
    await appendAuditEvents(transaction, { ...context, note: input.note }, [
      {
        action: AuditActions.importUndone,
        transactionId: null,
        relatedTransactionId: null,
        matchId: null,
        groupId: null,
        before: {
          importId,
          datasetId: found.datasetId,
          fileName: found.fileName,
          format: found.format,
          status: found.status,
          transactions: summary.transactions,
        },
        after: {
          importId,
          datasetId: found.datasetId,
          status: 'undone',
          removed,
          matchGroupsDissolved: groups.length,
          datasetAccountReleased: accountReleased,
        },
      },
    ]);
    return { import: record, removed, matchGroupsDissolved: groups.length };
  }
}

/** Why an import in this state cannot be undone; null when it can. */
function refusalOf(status: ImportRow['status']): string | null {
  switch (status) {
    case 'running':
      return 'the import is still running; wait until it has completed, then undo it';
    case 'failed':
      return 'the import failed and stored nothing, so there is nothing to undo';
    case 'undone':
      return 'the import was already undone: its transactions were removed';
    case 'completed':
      return null;
  }
}

function describeTransaction(entry: MatchedImportTransaction): string {
  const date = new Date(entry.timestamp).toISOString().slice(0, 10);
  const amount = entry.amount === null ? '' : ` ${entry.amount}${entry.currency ? ` ${entry.currency}` : ''}`;
  const name = entry.externalId === null ? `transaction ${entry.id}` : `transaction ${entry.id} (externalId ${JSON.stringify(entry.externalId)})`;
  return `${name} of ${date}${amount}`;
}
