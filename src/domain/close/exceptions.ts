import { randomUUID } from 'node:crypto';
import type { Database, Queryable } from '../../db/database.ts';
import { appendAuditEvents } from '../../db/repositories/audit-events.ts';
import {
  findActiveUserIds,
  findException,
  findTransactionIds,
  insertComment,
  listActivePeople,
  listComments,
  listExceptions,
  lockFollowups,
  reconciliationExists,
  setAssignee,
  setDueDateAndHold,
  setResolution,
  type CommentRow,
  type ExceptionRow,
  type ExceptionView,
} from '../../db/repositories/exceptions.ts';
import { exceptionErrors, invalidField, invalidFieldIn, notFound } from '../../errors.ts';
import { calendarDateProblem, calendarDateToEpochMs } from '../../../sdk/src/dates.ts';
import { AuditActions, type WriteContext } from '../audit.ts';
import { systemClock, type Clock } from '../clock.ts';
import { pageOf, pageSize, readCursor, rowsToFetch, textCursors } from '../pages.ts';

/**
 * The exceptions queue of the month-end close (SPEC §14): every open item of a reconciliation's
 * datasets in a period — a transaction dated on or before the period end that is neither matched
 * in full nor set aside — is an exception. It can be given to a user, with a due date, put on hold
 * with a reason, commented on, and resolved by a note (a match or an adjustment resolves it by
 * itself: that resolution is read from the matches, never stored). Every change is written to
 * the audit trail, and the triggers of migration 0024 emit it as an event; the daily digest
 * (exception-digest.ts) tells assignees by e-mail.
 */

export const EXCEPTIONS_PAGE_SIZE = pageSize(100, 500);

/** The most transactions one bulk change (assignee, due date, hold) may name. */
export const BULK_ASSIGN_MAX_TRANSACTIONS = 500;

export const EXCEPTION_VIEWS = ['mine', 'unassigned', 'overdue', 'on-hold', 'resolved'] as const;
export type ExceptionViewName = (typeof EXCEPTION_VIEWS)[number];

/** Age buckets, in days from the transaction's date to the period end (or today). */
export const AGE_BUCKETS = {
  '0-7': [0, 7],
  '8-30': [8, 30],
  '31-90': [31, 90],
  'over-90': [91, null],
} as const satisfies Record<string, readonly [number, number | null]>;
export type AgeBucket = keyof typeof AGE_BUCKETS;

/** The most people the assignee pickers are offered (an organization's active users). */
export const ASSIGNEES_LISTED = 1000;

/** Longest comment, hold reason and resolution note (as the schema of migration 0021 allows). */
export const COMMENT_MAX_LENGTH = 4000;
export const HOLD_REASON_MAX_LENGTH = 500;
export const RESOLUTION_NOTE_MAX_LENGTH = 2000;

export interface ExceptionComment {
  id: string;
  /** The author as the audit trail names actors ("user:ann@example.com", "client:abc"). */
  author: string;
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
    datasetId: string;
    datasetName: string;
    side: 'bank' | 'ledger' | null;
    reconciliationStatus: string;
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
  latestComment: Omit<ExceptionComment, 'id'> | null;
}

export interface ExceptionDetail extends ExceptionItem {
  comments: ExceptionComment[];
}

export interface ExceptionListQuery {
  reconciliationId: string;
  periodEnd: string | null;
  view: ExceptionViewName | null;
  age: AgeBucket | null;
  assigneeUserId: string | null;
  /** The person asking, for the view "mine"; null for an API client. */
  userId: string | null;
  limit: number;
  cursor: string | null;
}

const cursors = textCursors<{ timestampMs: string; id: string }>('ex1.', {
  write: (position) => `${position.timestampMs}|${position.id}`,
  read: (text) => {
    const match = /^(-?\d{1,16})\|([0-9a-f-]{36})$/.exec(text);
    return match ? { timestampMs: match[1]!, id: match[2]! } : null;
  },
});

function itemOf(row: ExceptionRow): ExceptionItem {
  return {
    transactionId: row.transactionId,
    transaction: {
      date: row.date,
      description: row.description,
      reference: row.reference,
      amount: row.amount,
      openAmount: row.openAmount,
      currency: row.currency,
      datasetId: row.datasetId,
      datasetName: row.datasetName,
      side: row.side,
      reconciliationStatus: row.reconciliationStatus,
    },
    ageDays: Number(row.ageDays),
    assignee: row.assigneeUserId === null ? null : { id: row.assigneeUserId, email: row.assigneeEmail },
    dueDate: row.dueDate,
    overdue: row.overdue,
    holdReason: row.holdReason,
    resolution: row.resolution,
    resolutionNote: row.resolutionNote,
    resolvedAt: row.resolvedAt,
    resolvedBy: row.resolvedByName,
    commentCount: row.commentCount,
    latestComment: row.latestComment,
  };
}

function commentOf(row: CommentRow): ExceptionComment {
  return { id: row.id, author: row.author, authorName: row.authorName, body: row.body, createdAt: row.createdAt };
}

/** The calendar day (UTC) of a moment, YYYY-MM-DD. */
export function dayOf(epochMs: number): string {
  return new Date(epochMs).toISOString().slice(0, 10);
}

function exceptionEvent(action: string, transactionId: string, before: unknown, after: unknown) {
  return { action, transactionId, relatedTransactionId: null, matchId: null, groupId: null, before, after };
}

export class Exceptions {
  constructor(
    private readonly database: Database,
    private readonly clock: Clock = systemClock,
  ) {}

  today(): string {
    return dayOf(this.clock.now());
  }

  async list(organizationId: string, query: ExceptionListQuery): Promise<{ items: ExceptionItem[]; nextCursor: string | null; hasMore: boolean }> {
    const after = await readCursor(cursors, query.cursor);
    if (query.view === 'mine' && query.userId === null) throw exceptionErrors.mineNeedsPerson();
    if (!(await reconciliationExists(this.database, organizationId, query.reconciliationId))) throw notFound('reconciliation', query.reconciliationId);
    const today = this.today();
    const asOf = query.periodEnd ?? today;
    const [minimumAgeDays, maximumAgeDays] = query.age === null ? [null, null] : AGE_BUCKETS[query.age];
    const views: Record<ExceptionViewName, ExceptionView> = {
      mine: 'mine',
      unassigned: 'unassigned',
      overdue: 'overdue',
      'on-hold': 'on-hold',
      resolved: 'resolved',
    };
    const rows = await listExceptions(this.database, {
      organizationId,
      reconciliationId: query.reconciliationId,
      beforeMs: calendarDateToEpochMs(asOf) + 86_400_000,
      asOf,
      today,
      view: query.view === null ? 'open' : views[query.view],
      userId: query.userId,
      assigneeUserId: query.assigneeUserId,
      minimumAgeDays,
      maximumAgeDays,
      after,
      limit: rowsToFetch(query.limit),
    });
    const page = await pageOf(rows, query.limit, (row) => ({ timestampMs: row.timestampMs, id: row.transactionId }), cursors);
    return { items: page.rows.map(itemOf), nextCursor: page.nextCursor, hasMore: page.hasMore };
  }

  /**
   * Every open exception of a reconciliation on or before a period end, oldest first, each with
   * its comment thread: what a statement's workbook lists on its Exceptions sheet.
   */
  async openOfPeriod(organizationId: string, reconciliationId: string, periodEnd: string): Promise<ExceptionDetail[]> {
    const details: ExceptionDetail[] = [];
    let cursor: string | null = null;
    do {
      const page = await this.list(organizationId, {
        reconciliationId,
        periodEnd,
        view: null,
        age: null,
        assigneeUserId: null,
        userId: null,
        limit: EXCEPTIONS_PAGE_SIZE.maximumEntries,
        cursor,
      });
      for (const item of page.items) {
        const comments = item.commentCount === 0 ? [] : await listComments(this.database, organizationId, item.transactionId);
        details.push({ ...item, comments: comments.map(commentOf) });
      }
      cursor = page.hasMore ? page.nextCursor : null;
    } while (cursor !== null);
    return details;
  }

  async find(database: Queryable, organizationId: string, transactionId: string): Promise<ExceptionDetail> {
    const row = await findException(database, organizationId, transactionId, this.today());
    if (!row) throw notFound('transaction', transactionId);
    const comments = await listComments(database, organizationId, transactionId);
    return { ...itemOf(row), comments: comments.map(commentOf) };
  }

  async get(organizationId: string, transactionId: string): Promise<ExceptionDetail> {
    return this.find(this.database, organizationId, transactionId);
  }

  /**
   * The people an exception can be given to: the organization's active users, by id and name,
   * for any member (the users list, with roles and sign-ins, is the Administrators'). A user's
   * name is their e-mail, the only name a user has; every member already reads it on the
   * exceptions they follow (the assignee, the author of a comment), so it tells no one more.
   */
  async assignees(organizationId: string): Promise<{ people: { id: string; name: string }[] }> {
    return { people: await listActivePeople(this.database, organizationId, ASSIGNEES_LISTED) };
  }

  async #requireActiveUser(transaction: Queryable, organizationId: string, userId: string, path: string): Promise<void> {
    const found = await findActiveUserIds(transaction, organizationId, [userId]);
    if (found.length === 0) throw exceptionErrors.assigneeNotActive(path, userId);
  }

  async #lockOne(transaction: Queryable, organizationId: string, transactionId: string) {
    const [row] = await lockFollowups(transaction, organizationId, [transactionId]);
    if (!row) throw notFound('transaction', transactionId);
    return row;
  }

  /** Changes the assignee, the due date or the hold of one exception; what is left out stays. */
  async update(
    transaction: Queryable,
    context: WriteContext,
    input: { transactionId: string; assigneeUserId?: string | null; dueDate?: string | null; holdReason?: string | null },
  ): Promise<ExceptionDetail> {
    const { organizationId } = context;
    checkDueDate(input.dueDate, null);
    const before = await this.#lockOne(transaction, organizationId, input.transactionId);
    // The date it has already is no change, even once it is past.
    if (input.dueDate !== before.dueDate) checkDueDate(input.dueDate, this.today());
    const events = [];
    if (input.assigneeUserId !== undefined && input.assigneeUserId !== before.assigneeUserId) {
      if (input.assigneeUserId !== null) await this.#requireActiveUser(transaction, organizationId, input.assigneeUserId, '/assigneeUserId');
      await setAssignee(transaction, organizationId, [input.transactionId], input.assigneeUserId);
      events.push(
        exceptionEvent(
          AuditActions.exceptionAssigned,
          input.transactionId,
          { assigneeUserId: before.assigneeUserId },
          { assigneeUserId: input.assigneeUserId },
        ),
      );
    }
    const dueDate = input.dueDate === undefined || input.dueDate === before.dueDate ? undefined : input.dueDate;
    const holdReason = input.holdReason === undefined || input.holdReason === before.holdReason ? undefined : input.holdReason;
    if (dueDate !== undefined || holdReason !== undefined) {
      await setDueDateAndHold(transaction, organizationId, [input.transactionId], { dueDate, holdReason });
      events.push(
        exceptionEvent(
          AuditActions.exceptionUpdated,
          input.transactionId,
          { dueDate: before.dueDate, holdReason: before.holdReason },
          { dueDate: dueDate === undefined ? before.dueDate : dueDate, holdReason: holdReason === undefined ? before.holdReason : holdReason },
        ),
      );
    }
    await appendAuditEvents(transaction, { ...context, note: null }, events);
    return this.find(transaction, organizationId, input.transactionId);
  }

  /**
   * Changes many exceptions at once, all or nothing: gives them to one user (null unassigns), sets
   * or clears their due date, puts them on or takes them off hold; what is left out stays. A
   * transaction that is not the organization's, or an assignee who is not one of its active
   * users, and nothing changes. Each exception changed is audited and emitted as one change of it
   * would be (exception.assigned, exception.updated).
   */
  async changeMany(
    transaction: Queryable,
    context: WriteContext,
    input: { transactionIds: readonly string[]; assigneeUserId?: string | null; dueDate?: string | null; holdReason?: string | null },
  ): Promise<{ assigned: number; updated: number; unchanged: number }> {
    const { organizationId } = context;
    if (input.assigneeUserId === undefined && input.dueDate === undefined && input.holdReason === undefined) throw exceptionErrors.bulkChangeEmpty();
    checkDueDate(input.dueDate, this.today());
    const ids = [...new Set(input.transactionIds)];
    const found = new Set(await findTransactionIds(transaction, organizationId, ids));
    const missing = input.transactionIds.map((id, index) => ({ index, id })).filter(({ id }) => !found.has(id));
    if (missing.length > 0) throw exceptionErrors.transactionsNotFound(missing);
    if (input.assigneeUserId !== undefined && input.assigneeUserId !== null)
      await this.#requireActiveUser(transaction, organizationId, input.assigneeUserId, '/assigneeUserId');
    const rows = await lockFollowups(transaction, organizationId, ids);
    const assigning = input.assigneeUserId === undefined ? [] : rows.filter((row) => row.assigneeUserId !== input.assigneeUserId);
    if (input.assigneeUserId !== undefined)
      await setAssignee(
        transaction,
        organizationId,
        assigning.map((row) => row.transactionId),
        input.assigneeUserId,
      );
    const updating = rows.filter(
      (row) => (input.dueDate !== undefined && input.dueDate !== row.dueDate) || (input.holdReason !== undefined && input.holdReason !== row.holdReason),
    );
    if (updating.length > 0)
      await setDueDateAndHold(
        transaction,
        organizationId,
        updating.map((row) => row.transactionId),
        {
          ...(input.dueDate === undefined ? {} : { dueDate: input.dueDate }),
          ...(input.holdReason === undefined ? {} : { holdReason: input.holdReason }),
        },
      );
    await appendAuditEvents(transaction, { ...context, note: null }, [
      ...assigning.map((row) =>
        exceptionEvent(AuditActions.exceptionAssigned, row.transactionId, { assigneeUserId: row.assigneeUserId }, { assigneeUserId: input.assigneeUserId }),
      ),
      ...updating.map((row) =>
        exceptionEvent(
          AuditActions.exceptionUpdated,
          row.transactionId,
          { dueDate: row.dueDate, holdReason: row.holdReason },
          {
            dueDate: input.dueDate === undefined ? row.dueDate : input.dueDate,
            holdReason: input.holdReason === undefined ? row.holdReason : input.holdReason,
          },
        ),
      ),
    ]);
    const changed = new Set([...assigning, ...updating].map((row) => row.transactionId));
    return { assigned: assigning.length, updated: updating.length, unchanged: rows.length - changed.size };
  }

  async comment(transaction: Queryable, context: WriteContext, input: { transactionId: string; body: string }): Promise<ExceptionComment> {
    const { organizationId } = context;
    await this.#lockOne(transaction, organizationId, input.transactionId);
    const id = randomUUID();
    await insertComment(transaction, { id, organizationId, transactionId: input.transactionId, author: context.actor, body: input.body });
    await appendAuditEvents(transaction, { ...context, note: null }, [
      exceptionEvent(AuditActions.exceptionCommented, input.transactionId, null, { commentId: id, body: input.body }),
    ]);
    const comments = await listComments(transaction, organizationId, input.transactionId);
    return commentOf(comments.find((comment) => comment.id === id)!);
  }

  /** Resolves an open exception by a note (it leaves the open items; the note says why). */
  async resolve(transaction: Queryable, context: WriteContext, input: { transactionId: string; note: string }): Promise<ExceptionDetail> {
    const { organizationId } = context;
    const row = await this.#lockOne(transaction, organizationId, input.transactionId);
    if (row.resolution !== null) throw exceptionErrors.alreadyResolved(input.transactionId);
    if (row.reconciliationStatus !== 'none' && row.reconciliationStatus !== 'partial') throw exceptionErrors.notOpen(input.transactionId);
    await setResolution(transaction, organizationId, input.transactionId, { kind: 'note', note: input.note, actor: context.actor });
    await appendAuditEvents(transaction, { ...context, note: null }, [
      exceptionEvent(
        AuditActions.exceptionResolved,
        input.transactionId,
        { resolution: null, holdReason: row.holdReason },
        {
          resolution: 'note',
          note: input.note,
        },
      ),
    ]);
    return this.find(transaction, organizationId, input.transactionId);
  }

  /** Reopens an exception resolved by a note; one resolved by a match is reopened by deleting the match. */
  async reopen(transaction: Queryable, context: WriteContext, input: { transactionId: string; note: string | null }): Promise<ExceptionDetail> {
    const { organizationId } = context;
    const row = await this.#lockOne(transaction, organizationId, input.transactionId);
    if (row.resolution !== 'note') {
      const current = await findException(transaction, organizationId, input.transactionId, this.today());
      throw exceptionErrors.notResolvedByNote(input.transactionId, current?.resolution ?? null);
    }
    await setResolution(transaction, organizationId, input.transactionId, null);
    await appendAuditEvents(transaction, { ...context, note: input.note }, [
      exceptionEvent(AuditActions.exceptionReopened, input.transactionId, { resolution: row.resolution, note: row.resolutionNote }, { resolution: null }),
    ]);
    return this.find(transaction, organizationId, input.transactionId);
  }
}

/** How far ahead a due date may be: a follow-up planned further out is a typing slip (9999), not a plan. */
export const DUE_DATE_MAX_YEARS = 5;

/** The last day a due date may be set to, seen from today: the same day DUE_DATE_MAX_YEARS years on. */
export function latestDueDate(today: string): string {
  const [year, month, day] = today.split('-').map(Number) as [number, number, number];
  return new Date(Date.UTC(year + DUE_DATE_MAX_YEARS, month - 1, day)).toISOString().slice(0, 10);
}

/**
 * Checks a due date given in a body (null clears it, undefined leaves it): a calendar date, from
 * today to DUE_DATE_MAX_YEARS years ahead. A day already past is refused when it is set (a follow-up
 * cannot be planned for yesterday); an item already overdue keeps its date until it is changed.
 * Without today, only the form is checked.
 */
function checkDueDate(value: string | null | undefined, today: string | null): void {
  if (value === undefined || value === null) return;
  const problem = calendarDateProblem(value);
  if (problem !== null) throw invalidField('/dueDate', problem);
  if (today === null) return;
  // "Today" is the service's UTC day; west of Greenwich a person's today is still the UTC day
  // before for some hours, so that day is allowed too.
  if (value < dayBefore(today)) throw exceptionErrors.dueDateBeforeToday(today);
  const latest = latestDueDate(today);
  if (value > latest) throw exceptionErrors.dueDateTooFar(latest, DUE_DATE_MAX_YEARS);
}

function dayBefore(day: string): string {
  const [year, month, date] = day.split('-').map(Number) as [number, number, number];
  return new Date(Date.UTC(year, month - 1, date - 1)).toISOString().slice(0, 10);
}

/** Checks a period end given in a query. */
export function checkPeriodEnd(value: string | undefined): string | null {
  if (value === undefined) return null;
  const problem = calendarDateProblem(value);
  if (problem !== null) throw invalidFieldIn('query', 'periodEnd', problem);
  return value;
}
