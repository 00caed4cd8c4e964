/**
 * What the close screens ask the server, in one place: the reconciliations, their statements and
 * sign-offs, and the exceptions queue, through the SDK's `reconciliations` and `exceptions`
 * resources. The screens import these functions and shapes only, never the SDK's calls; the
 * shapes are what the screens read of the SDK's types.
 */
import { collect, type LedgerRecon, type ReconciliationStatement, type StatementItemLine, type StatementItemsPage } from '@ledger-recon/sdk';

/** The statement as the SDK types it (one definition: the server's schema), and its parts. */
export type Statement = ReconciliationStatement;
export type SignOffState = Statement['signOff']['state'];
export type StatementLine = Statement['ledgerNotInBank'];
export type StatementItem = StatementLine['items'][number];
export type StatementAdjustment = Statement['adjustments']['items'][number];
export type { StatementItemLine, StatementItemsPage };

export interface Reconciliation {
  id: string;
  name: string;
  currency: string;
  bankDatasetIds: string[];
  ledgerDatasetIds: string[];
  ledgerOpeningBalance: string;
  ledgerOpeningDate: string;
  periodMonths: number;
}

export type ReconciliationDraft = Omit<Reconciliation, 'id'>;

/** A period of a reconciliation as the Close page lists it. */
export interface PeriodSummary {
  periodStart: string;
  periodEnd: string;
  state: SignOffState;
  /** For an open period, the difference as the data stands (null when not computed); for a signed one, the stored statement's. */
  unexplainedDifference: string | null;
  preparedBy: string | null;
  preparedAt: string | null;
  approvedBy: string | null;
  approvedAt: string | null;
  /** Every step of the sign-off, oldest first, reopenings with their reasons included. */
  history: { step: 'prepare' | 'approve' | 'reopen'; by: string; at: string; note: string | null }[];
  /** How many items on or before the period end are open exceptions now. */
  openExceptions: number;
}

export interface ExceptionComment {
  /** The author in words: a person's email or an API client's name. */
  authorName: string;
  body: string;
  createdAt: string;
}

export interface ExceptionItem {
  transactionId: string;
  transaction: {
    date: string;
    description: string | null;
    reference: string | null;
    amount: string | null;
    /** What is still open: the whole amount, or the remainder of a partly matched one. */
    openAmount: string | null;
    currency: string | null;
    datasetName: string;
    side: 'bank' | 'ledger' | null;
  };
  ageDays: number;
  assignee: { id: string; email: string | null } | null;
  dueDate: string | null;
  overdue: boolean;
  holdReason: string | null;
  resolution: 'matched' | 'adjustment' | 'note' | null;
  resolutionNote: string | null;
  resolvedAt: string | null;
  resolvedBy: string | null;
  commentCount: number;
  latestComment: ExceptionComment | null;
}

/** Which exceptions the queue shows: every open one, or those of a view. */
export type ExceptionFilter = 'open' | 'mine' | 'unassigned' | 'overdue' | 'on-hold' | 'resolved';
/** An age bucket by its days, as the queue filters them: 0–7, 8–30, 31–90, more than 90. */
export type AgeBucket = 'all' | '0-7' | '8-30' | '31-90' | 'over-90';

/** Someone an exception can be given to: an active user, by their name (their e-mail). */
export interface Person {
  id: string;
  name: string;
}

/** The change of one or more exceptions: a field left out is left as it is; null clears it. */
export interface ExceptionChange {
  assigneeUserId?: string | null;
  dueDate?: string | null;
  holdReason?: string | null;
}

/** A report of a period: the file and the name the server gives it. */
export interface ReportFile {
  blob: Blob;
  /** The server's name for the file ("Operating account EUR - March 2026.pdf"), or null when it gives none. */
  filename: string | null;
}

export type StatementFileFormat = 'pdf' | 'xlsx' | 'csv';

export const closeApi = {
  listReconciliations: (recon: LedgerRecon) => collect(recon.reconciliations.list()) as Promise<Reconciliation[]>,
  getReconciliation: (recon: LedgerRecon, id: string) => recon.reconciliations.get(id) as Promise<Reconciliation>,
  createReconciliation: (recon: LedgerRecon, draft: ReconciliationDraft) => recon.reconciliations.create(draft) as Promise<Reconciliation>,
  updateReconciliation: (recon: LedgerRecon, id: string, draft: ReconciliationDraft) => recon.reconciliations.update(id, draft) as Promise<Reconciliation>,
  periods: (recon: LedgerRecon, id: string) => recon.reconciliations.periods(id) as Promise<PeriodSummary[]>,
  statement: (recon: LedgerRecon, id: string, periodEnd: string) => recon.reconciliations.statement(id, periodEnd) as Promise<Statement>,
  /** One page of a statement line's items, oldest first, with how many the line holds. */
  statementItems: (recon: LedgerRecon, id: string, periodEnd: string, line: StatementItemLine, cursor: string | undefined, limit: number) =>
    recon.reconciliations.statementItems(id, periodEnd, line, { cursor, limit }),
  prepare: (recon: LedgerRecon, id: string, periodEnd: string, note: string) => recon.reconciliations.prepare(id, periodEnd, { note }),
  approve: (recon: LedgerRecon, id: string, periodEnd: string) => recon.reconciliations.approve(id, periodEnd),
  reopen: (recon: LedgerRecon, id: string, periodEnd: string, reason: string) => recon.reconciliations.reopen(id, periodEnd, { reason }),
  /** The statement of a period as PDF, as a spreadsheet (XLSX), or its items as CSV. */
  statementFile: (recon: LedgerRecon, id: string, periodEnd: string, format: StatementFileFormat) =>
    recon.reconciliations.statementFile(id, periodEnd, format) as Promise<ReportFile>,
  /** The period's adjustments as proposed journal entries (CSV); refused while an account they need is not mapped. */
  journalEntriesFile: (recon: LedgerRecon, id: string, periodEnd: string) => recon.reconciliations.journalEntriesFile(id, periodEnd) as Promise<ReportFile>,
  exceptions: (recon: LedgerRecon, query: { reconciliationId: string; periodEnd: string; filter: ExceptionFilter; age: AgeBucket }) =>
    collect(
      recon.exceptions.list(query.reconciliationId, {
        periodEnd: query.periodEnd,
        ...(query.filter === 'open' ? {} : { view: query.filter }),
        ...(query.age === 'all' ? {} : { age: query.age }),
      }),
    ) as Promise<ExceptionItem[]>,
  changeException: (recon: LedgerRecon, transactionId: string, change: ExceptionChange) => recon.exceptions.update(transactionId, change),
  /** The same change of many exceptions at once (assignee, due date, hold), all or nothing. */
  changeMany: (recon: LedgerRecon, transactionIds: string[], change: ExceptionChange) => recon.exceptions.updateMany(transactionIds, change),
  resolveWithNote: (recon: LedgerRecon, transactionId: string, note: string) => recon.exceptions.resolve(transactionId, note),
  comments: async (recon: LedgerRecon, transactionId: string) => (await recon.exceptions.get(transactionId)).comments as ExceptionComment[],
  comment: (recon: LedgerRecon, transactionId: string, body: string) => recon.exceptions.comment(transactionId, body),
  /** The people an exception can be assigned to: the organization's active users, which any member may read. */
  assignees: (recon: LedgerRecon): Promise<Person[]> => recon.exceptions.assignees(),
};
