import { randomUUID } from 'node:crypto';
import type { TestServer } from './harness.ts';

/**
 * What the tests of the exceptions queue write with SQL: reconciliations (their own operations
 * are tested elsewhere) and users of an organization.
 */

/** Writes a reconciliation of the given bank and ledger datasets. */
export async function insertReconciliation(server: TestServer, orgId: string, name: string, bank: string[], ledger: string[]): Promise<string> {
  const id = randomUUID();
  await server.database.query(
    `INSERT INTO reconciliations (id, organization_id, name, currency, ledger_opening_date, created_by) VALUES ($1, $2, $3, 'EUR', '2026-01-01', 'test')`,
    [id, orgId, name],
  );
  for (const [side, ids] of [
    ['bank', bank],
    ['ledger', ledger],
  ] as const) {
    for (const datasetId of ids) {
      await server.database.query('INSERT INTO reconciliation_datasets (organization_id, reconciliation_id, dataset_id, side) VALUES ($1, $2, $3, $4)', [
        orgId,
        id,
        datasetId,
        side,
      ]);
    }
  }
  return id;
}

/** Writes an active user of the organization and returns its id. */
export async function insertUser(server: TestServer, orgId: string, email: string, deactivated = false): Promise<string> {
  const id = randomUUID();
  await server.database.query(
    `INSERT INTO users (id, organization_id, email, password_hash, role, deactivated_at) VALUES ($1, $2, $3, 'x', 'Full member', $4)`,
    [id, orgId, email, deactivated ? new Date().toISOString() : null],
  );
  return id;
}

/**
 * Gives an exception a due date as if it had been set earlier: a day now past, which the service
 * refuses to set today. The exception must have been followed up once (assigned, held or dated).
 */
export async function backdateDueDate(server: TestServer, transactionId: string, dueDate: string): Promise<void> {
  const updated = await server.database.query('UPDATE exception_followups SET due_date = $2 WHERE transaction_id = $1 RETURNING 1', [transactionId, dueDate]);
  if (updated.length !== 1) throw new Error('the exception has not been followed up yet: assign it first');
}
