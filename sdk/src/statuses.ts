import type { ReconciliationStatus } from './types.ts';

/**
 * The reconciliation statuses of a transaction, in the order screens and listings show them.
 * `none`, `partial` and `full` follow from its matches; `informative` and `out of scope` are set.
 */
export const RECONCILIATION_STATUSES = ['none', 'partial', 'full', 'informative', 'out of scope'] as const;

/** The statuses a caller sets on a transaction without matches (and clears by setting `none`). */
export const SET_STATUSES = ['informative', 'out of scope'] as const;

/** Whether `text` is one of the reconciliation statuses, exactly as the API writes them. */
export function isReconciliationStatus(text: string): text is ReconciliationStatus {
  return (RECONCILIATION_STATUSES as readonly string[]).includes(text);
}

// The lists above and the API's schema name the same statuses: a status added to or dropped from
// either fails to compile here (ReconciliationStatus comes from the generated OpenAPI types).
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
const LIST_IS_THE_API_S: Same<(typeof RECONCILIATION_STATUSES)[number], ReconciliationStatus> = true;
void LIST_IS_THE_API_S;
