import type { Database, Queryable } from '../../db/database.ts';
import { appendAuditEvents, type AuditEventInsert } from '../../db/repositories/audit-events.ts';
import { markDatasetsUpdated } from '../../db/repositories/datasets.ts';
import { findDatasetSchemaOfTransaction, findTransactionRecordWithColumns } from '../../db/repositories/transaction-query.ts';
import { findTransactionRecord } from '../../db/repositories/transaction-records.ts';
import { lockTransactions, recomputeReconciliation, setStatusOverride, type ReconciliationChange } from '../../db/repositories/transactions.ts';
import { RECONCILIATION_STATUSES, SET_STATUSES } from '../../../sdk/src/statuses.ts';
import { conflict, notFound } from '../../errors.ts';
import { AuditActions, type WriteContext } from '../audit.ts';
import { refuseClosedPeriods } from '../close/closed-periods.ts';
import { parseColumns } from './search.ts';

/**
 * Reconciliation status (SPEC §4). `none`, `partial` and `full` are derived from matches:
 * none without matches; partial while the allocated total is below the transaction's absolute
 * amount; full when it reaches it, or when the transaction has no amount and has a match.
 * `informative` and `out of scope` are set by a caller, only on a transaction without matches,
 * and such a transaction cannot be matched; clearing the set status returns it to the derived
 * one. The derivation runs in SQL (repositories/transactions.ts, recomputeReconciliation), in
 * the same database transaction as every change of matches or set status. The lists are the
 * SDK's, which the web app and the command line check statuses with.
 */
export { RECONCILIATION_STATUSES, SET_STATUSES };
export type ReconciliationStatus = (typeof RECONCILIATION_STATUSES)[number];

export type SetStatus = (typeof SET_STATUSES)[number];

/** What PATCH /transactions/{id} accepts: a status to set, or `none` to clear the set one. */
export type RequestedStatus = SetStatus | 'none';

/** Audit events for every transaction whose reconciliation facts changed. */
export function statusChangeEvents(changes: readonly ReconciliationChange[], groupId: string | null = null): AuditEventInsert[] {
  return changes
    .filter((change) => change.changed)
    .map((change) => ({
      action: AuditActions.transactionStatusChanged,
      transactionId: change.id,
      relatedTransactionId: null,
      matchId: null,
      groupId,
      before: change.before,
      after: change.after,
    }));
}

export class TransactionStatus {
  constructor(private readonly database: Database) {}

  /**
   * One transaction record, matches included, with the requested columns added (paths as in the
   * query's `columns`, checked against the transaction's dataset).
   */
  async find(organizationId: string, transactionId: string, columnPaths: readonly string[] = []): Promise<Record<string, unknown>> {
    let record: Record<string, unknown> | undefined;
    if (columnPaths.length === 0) {
      record = await findTransactionRecord(this.database, organizationId, transactionId);
    } else {
      const schema = await findDatasetSchemaOfTransaction(this.database, organizationId, transactionId);
      if (schema !== undefined) {
        const fields = parseColumns(
          columnPaths.map((path) => ({ path })),
          schema.columns,
        );
        record = await findTransactionRecordWithColumns(this.database, organizationId, transactionId, fields);
      }
    }
    if (!record) throw notFound('transaction', transactionId);
    return record;
  }

  /**
   * Sets `informative` or `out of scope`, or clears a set status with `none`. Setting a status
   * the transaction already has, or clearing one it does not have, changes nothing and records
   * nothing. Returns the transaction record as it is afterwards.
   */
  async change(
    transaction: Queryable,
    context: WriteContext,
    input: { transactionId: string; status: RequestedStatus; note: string | null },
  ): Promise<Record<string, unknown>> {
    const [locked] = await lockTransactions(transaction, context.organizationId, [input.transactionId]);
    if (!locked) throw notFound('transaction', input.transactionId);
    const override = input.status === 'none' ? null : input.status;
    if (override !== null && locked.has_matches) {
      throw conflict(`transaction ${locked.id} has matches, and "${override}" can only be set on a transaction without matches; delete its matches first`, [
        { path: '/reconciliationStatus', message: `cannot be "${override}" while the transaction has matches` },
      ]);
    }
    if (locked.status_override !== override) {
      await refuseClosedPeriods(transaction, context.organizationId, { kind: 'transactions', ids: [locked.id] });
      await setStatusOverride(transaction, context.organizationId, locked.id, override);
      const changes = await recomputeReconciliation(transaction, context.organizationId, [locked.id]);
      await markDatasetsUpdated(transaction, context.organizationId, [locked.dataset_id], context.actor);
      await appendAuditEvents(transaction, { ...context, note: input.note }, statusChangeEvents(changes));
    }
    const record = await findTransactionRecord(transaction, context.organizationId, locked.id);
    return record!;
  }
}
