/**
 * What the close screens ask the server, in one place: the reconciliations, their statements and
 * sign-offs, and the exceptions queue, through the SDK's `reconciliations` and `exceptions`
 * resources. The screens import these functions and shapes only, never the SDK's calls.
 */
import type { LedgerRecon } from '@ledger-recon/sdk';

export type SignOffState = 'open' | 'prepared' | 'approved';

export interface StatementItem {
  transactionId: string;
  datasetName: string;
  date: string;
  description: string | null;
  reference: string | null;
  amount: string;
  countedAmount: string;
  reason: 'open' | 'partial' | 'matched-after-period-end';
}

export interface StatementLine {
  total: string;
  items: StatementItem[];
}

export interface StatementAdjustment {
  reason: 'fee' | 'fx' | 'rounding' | 'write-off';
  amount: string;
  date: string;
  description: string;
  bankReference: string | null;
  matchGroupId: string;
}

export interface Statement {
  organizationName: string;
  reconciliation: { id: string; name: string; currency: string; bankDatasetNames: string[]; ledgerDatasetNames: string[] };
  periodStart: string;
  periodEnd: string;
  bankBalance: { amount: string; source: 'statement' | 'computed'; statementDate: string | null };
  ledgerNotInBank: StatementLine;
  bankNotInLedger: StatementLine;
  adjustedBankBalance: string;
  adjustments: { total: string; items: StatementAdjustment[] };
  ledgerBalance: { amount: string; openingBalance: string; openingDate: string };
  unexplainedDifference: string;
  setApart: { informative: StatementItem[]; outOfScope: StatementItem[] };
  signOff: {
    state: SignOffState;
    preparedBy: string | null;
    preparedAt: string | null;
    preparerNote: string | null;
    approvedBy: string | null;
    approvedAt: string | null;
  };
  computedAt: string;
}

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
  /** How many items of the period are open exceptions, when the server counts them. */
  openExceptions?: number | null;
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

export interface Person {
  id: string;
  email: string;
}

/** The change of one or more exceptions: a field left out is left as it is; null clears it. */
export interface ExceptionChange {
  assigneeUserId?: string | null;
  dueDate?: string | null;
  holdReason?: string | null;
}

/** The SDK's close resources, as the screens use them. */
interface CloseResources {
  reconciliations: {
    list(): Promise<{ reconciliations: Reconciliation[] }>;
    get(id: string): Promise<Reconciliation>;
    create(draft: ReconciliationDraft): Promise<Reconciliation>;
    update(id: string, change: Partial<ReconciliationDraft>): Promise<Reconciliation>;
    periods(id: string): Promise<{ periods: PeriodSummary[] }>;
    statement(id: string, query: { periodEnd: string }): Promise<Statement>;
    prepare(id: string, periodEnd: string, body: { note: string }): Promise<unknown>;
    approve(id: string, periodEnd: string, body: { note?: string }): Promise<unknown>;
    reopen(id: string, periodEnd: string, body: { reason: string }): Promise<unknown>;
    report(id: string, query: { periodEnd: string; format: 'pdf' | 'xlsx' | 'csv' }): Promise<Blob>;
  };
  exceptions: {
    list(query: {
      reconciliationId: string;
      periodEnd: string;
      view?: Exclude<ExceptionFilter, 'open'>;
      age?: Exclude<AgeBucket, 'all'>;
    }): Promise<{ items: ExceptionItem[] }>;
    get(transactionId: string): Promise<ExceptionItem & { comments: ExceptionComment[] }>;
    update(transactionId: string, change: ExceptionChange): Promise<unknown>;
    assign(body: { transactionIds: string[]; assigneeUserId: string | null }): Promise<unknown>;
    resolve(transactionId: string, body: { note: string }): Promise<unknown>;
    comment(transactionId: string, body: { body: string }): Promise<unknown>;
  };
}

/** The server's answer to a question the close screens ask but that it does not know yet. */
export class CloseNotAvailable extends Error {
  constructor(what: string) {
    super(`This server does not offer ${what} yet.`);
  }
}

function close(recon: LedgerRecon): Partial<CloseResources> {
  return recon as unknown as Partial<CloseResources>;
}

const segment = encodeURIComponent;

/** The reconciliations' operations by the SDK's own requests, for an SDK without its `reconciliations` resource. */
function reconciliationCalls(recon: LedgerRecon): CloseResources['reconciliations'] {
  const of = (id: string) => `/reconciliations/${segment(id)}`;
  return {
    list: () => recon.data('GET', '/reconciliations', { query: { limit: 200 } }),
    get: (id) => recon.data('GET', of(id)),
    create: (draft) => recon.data('POST', '/reconciliations', { body: draft }),
    update: (id, change) => recon.data('PATCH', of(id), { body: change }),
    periods: (id) => recon.data('GET', `${of(id)}/periods`),
    statement: (id, query) => recon.data('GET', `${of(id)}/statement`, { query }),
    prepare: (id, periodEnd, body) => recon.data('POST', `${of(id)}/periods/${segment(periodEnd)}/prepare`, { body }),
    approve: (id, periodEnd, body) => recon.data('POST', `${of(id)}/periods/${segment(periodEnd)}/approve`, { body }),
    reopen: (id, periodEnd, body) => recon.data('POST', `${of(id)}/periods/${segment(periodEnd)}/reopen`, { body }),
    report: () => Promise.reject(new CloseNotAvailable('the reports')),
  };
}

function reconciliationsOf(recon: LedgerRecon): CloseResources['reconciliations'] {
  return close(recon).reconciliations ?? reconciliationCalls(recon);
}

function exceptionsOf(recon: LedgerRecon): CloseResources['exceptions'] {
  const resource = close(recon).exceptions;
  if (resource === undefined) throw new CloseNotAvailable('the exceptions queue');
  return resource;
}

export const closeApi = {
  listReconciliations: async (recon: LedgerRecon) => (await reconciliationsOf(recon).list()).reconciliations,
  getReconciliation: (recon: LedgerRecon, id: string) => reconciliationsOf(recon).get(id),
  createReconciliation: (recon: LedgerRecon, draft: ReconciliationDraft) => reconciliationsOf(recon).create(draft),
  updateReconciliation: (recon: LedgerRecon, id: string, draft: ReconciliationDraft) => reconciliationsOf(recon).update(id, draft),
  periods: async (recon: LedgerRecon, id: string) => (await reconciliationsOf(recon).periods(id)).periods,
  statement: (recon: LedgerRecon, id: string, periodEnd: string) => reconciliationsOf(recon).statement(id, { periodEnd }),
  prepare: (recon: LedgerRecon, id: string, periodEnd: string, note: string) => reconciliationsOf(recon).prepare(id, periodEnd, { note }),
  approve: (recon: LedgerRecon, id: string, periodEnd: string) => reconciliationsOf(recon).approve(id, periodEnd, {}),
  reopen: (recon: LedgerRecon, id: string, periodEnd: string, reason: string) => reconciliationsOf(recon).reopen(id, periodEnd, { reason }),
  /** Whether the server renders the reports (PDF, XLSX, CSV). */
  reportsAvailable: (recon: LedgerRecon) => typeof close(recon).reconciliations?.report === 'function',
  report: (recon: LedgerRecon, id: string, periodEnd: string, format: 'pdf' | 'xlsx' | 'csv') => reconciliationsOf(recon).report(id, { periodEnd, format }),
  exceptions: async (recon: LedgerRecon, query: { reconciliationId: string; periodEnd: string; filter: ExceptionFilter; age: AgeBucket }) =>
    (
      await exceptionsOf(recon).list({
        reconciliationId: query.reconciliationId,
        periodEnd: query.periodEnd,
        ...(query.filter === 'open' ? {} : { view: query.filter }),
        ...(query.age === 'all' ? {} : { age: query.age }),
      })
    ).items,
  changeException: (recon: LedgerRecon, transactionId: string, change: ExceptionChange) => exceptionsOf(recon).update(transactionId, change),
  assign: (recon: LedgerRecon, transactionIds: string[], assigneeUserId: string | null) => exceptionsOf(recon).assign({ transactionIds, assigneeUserId }),
  resolveWithNote: (recon: LedgerRecon, transactionId: string, note: string) => exceptionsOf(recon).resolve(transactionId, { note }),
  comments: async (recon: LedgerRecon, transactionId: string) => (await exceptionsOf(recon).get(transactionId)).comments,
  comment: (recon: LedgerRecon, transactionId: string, body: string) => exceptionsOf(recon).comment(transactionId, { body }),
  /**
   * The people an exception can be assigned to: the organization's active users, which only an
   * Administrator may list; anyone else can assign to themselves.
   */
  assignees: async (recon: LedgerRecon, me: Person, administrator: boolean): Promise<Person[]> => {
    if (!administrator) return [me];
    const { users } = await recon.users.list();
    return users.filter((user) => user.active !== false).map((user) => ({ id: user.id, email: user.email }));
  },
};
