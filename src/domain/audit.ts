import type { Database } from '../db/database.ts';
import { listAuditEvents } from '../db/repositories/audit-events.ts';
import { findTransactionExists } from '../db/repositories/transactions.ts';
import { invalidFieldIn, notFound } from '../errors.ts';
import type { SealedPositions } from './sealed-positions.ts';
import { feedPageOf, pageOf, pageSize, readCursor, rowsToFetch } from './pages.ts';

/** Who makes a write and under which request: what every audit event and createdBy records. */
export interface WriteContext {
  organizationId: string;
  /** The principal as audit events name it, e.g. "client:abc". */
  actor: string;
  /** The request id (X-Request-Id), so an event can be traced to the request that caused it. */
  requestId: string | null;
}

/** The actions recorded in the audit trail. */
export const AuditActions = {
  matchCreated: 'match.created',
  matchDeleted: 'match.deleted',
  /** A transaction's reconciliation status, allocated amount or match count changed. */
  transactionStatusChanged: 'transaction.status_changed',
  /** Matching rules (rules.ts): before and after hold the rule's JSON; transactionId is null. */
  ruleCreated: 'rule.created',
  ruleUpdated: 'rule.updated',
  ruleDeleted: 'rule.deleted',
  /** before and after hold [{id, priority}] of the rules whose priority changed. */
  rulesReordered: 'rules.reordered',
  /** Suggestions (matching/suggestions.ts): after holds {suggestionId, option or reason}. */
  suggestionConfirmed: 'suggestion.confirmed',
  suggestionRejected: 'suggestion.rejected',
  /** An import undone (import-undo.ts): before and after hold the import and how many transactions went; transactionId is null. */
  importUndone: 'import.undone',
  /** An import began (after: importId, datasetId, datasetName, fileName, sizeBytes); transactionId is null. */
  importStarted: 'import.started',
  /** An import stored its file (after: importId, datasetId, fileName, status, rowsRead, inserted, duplicates, warnings). */
  importCompleted: 'import.completed',
  /** An import was refused or failed (after: importId, datasetId, fileName, status, rowsRead, error). */
  importFailed: 'import.failed',
  /** Sources and datasets (catalog/): before and after hold the fields that changed, with the name. */
  sourceCreated: 'source.created',
  sourceUpdated: 'source.updated',
  datasetCreated: 'dataset.created',
  /** A dataset's name, account or currency changed. */
  datasetUpdated: 'dataset.updated',
  /** A dataset was archived (hidden from lists by default, its transactions and matches kept) or restored. */
  datasetArchived: 'dataset.archived',
  datasetRestored: 'dataset.restored',
  /** An API client was created (after: clientId, name, role). */
  clientCreated: 'client.created',
  /** People (auth/user-sessions.ts): after holds the user or invitation. */
  userInvited: 'user.invited',
  userJoined: 'user.joined',
  userUpdated: 'user.updated',
  userPasswordChanged: 'user.password_changed',
  /** Month-end close (close/): before and after hold the reconciliation's fields; an archive is an update. */
  reconciliationCreated: 'reconciliation.created',
  reconciliationUpdated: 'reconciliation.updated',
  /** A period's sign-off (close/signoff.ts): after holds {reconciliationId, periodEnd, state, unexplainedDifference}; the note is the preparer's or approver's note, or the reason of a reopen. */
  closePeriodPrepared: 'close_period.prepared',
  closePeriodApproved: 'close_period.approved',
  closePeriodReopened: 'close_period.reopened',
  /**
   * The exceptions queue (close/exceptions.ts), each about one transaction: before and after hold
   * what changed (assigneeUserId; dueDate and holdReason; resolution and note; the comment).
   */
  exceptionAssigned: 'exception.assigned',
  exceptionUpdated: 'exception.updated',
  exceptionCommented: 'exception.commented',
  exceptionResolved: 'exception.resolved',
  exceptionReopened: 'exception.reopened',
} as const;

/** Every action the trail records, as the API lists them. */
export const AUDIT_ACTIONS: readonly string[] = [...new Set(Object.values(AuditActions))];

/**
 * The kinds of object an action is about, and the actions of each: what the trail can be filtered
 * on besides the action itself.
 */
export const AUDIT_OBJECTS = {
  transaction: [AuditActions.transactionStatusChanged],
  match: [AuditActions.matchCreated, AuditActions.matchDeleted],
  rule: [AuditActions.ruleCreated, AuditActions.ruleUpdated, AuditActions.ruleDeleted, AuditActions.rulesReordered],
  suggestion: [AuditActions.suggestionConfirmed, AuditActions.suggestionRejected],
  import: [AuditActions.importStarted, AuditActions.importCompleted, AuditActions.importFailed, AuditActions.importUndone],
  source: [AuditActions.sourceCreated, AuditActions.sourceUpdated],
  dataset: [AuditActions.datasetCreated, AuditActions.datasetUpdated, AuditActions.datasetArchived, AuditActions.datasetRestored],
  client: [AuditActions.clientCreated],
  user: [AuditActions.userInvited, AuditActions.userJoined, AuditActions.userUpdated, AuditActions.userPasswordChanged],
  reconciliation: [
    AuditActions.reconciliationCreated,
    AuditActions.reconciliationUpdated,
    AuditActions.closePeriodPrepared,
    AuditActions.closePeriodApproved,
    AuditActions.closePeriodReopened,
  ],
  exception: [
    AuditActions.exceptionAssigned,
    AuditActions.exceptionUpdated,
    AuditActions.exceptionCommented,
    AuditActions.exceptionResolved,
    AuditActions.exceptionReopened,
  ],
} as const satisfies Record<string, readonly string[]>;

export type AuditObject = keyof typeof AUDIT_OBJECTS;
export const AUDIT_OBJECT_KINDS = Object.keys(AUDIT_OBJECTS) as AuditObject[];

/** An event about no transaction (a catalogue, import, client or user change): before and after hold the object. */
export function objectEvent(action: string, before: unknown, after: unknown) {
  return { action, before, after, transactionId: null, relatedTransactionId: null, matchId: null, groupId: null };
}

/** Longest note a caller may attach to a change. */
export const NOTE_MAX_LENGTH = 1000;

export const AUDIT_PAGE_SIZE = pageSize(100, 1000);

export interface AuditEvent {
  id: string;
  occurredAt: string;
  actor: string;
  /** Who made the change in words: a person's email, an API client's name, or what the service did. */
  actorName: string;
  action: string;
  transactionId: string | null;
  relatedTransactionId: string | null;
  matchId: string | null;
  groupId: string | null;
  before: unknown;
  after: unknown;
  note: string | null;
  requestId: string | null;
}

export interface AuditPage {
  events: AuditEvent[];
  /**
   * Where the next page starts. Given whenever a position is known (also when this page was the
   * last one), so that a caller can follow the trail as it grows by calling again with it.
   */
  nextCursor: string | null;
  /** Whether more events matched than this page holds. */
  hasMore: boolean;
}

/** The trail's cursors: a sealed sequence number (see SealedPositions); before them, the number in clear. */
const CURSOR_PREFIX = 'a2.';
const EARLIER_CURSOR_PREFIX = 'a1.';
/** The cursors of the trail read newest first; a cursor of one order is refused by the other. */
const NEWEST_FIRST_CURSOR_PREFIX = 'a3.';

export type AuditOrder = 'oldest' | 'newest';

export interface AuditQuery {
  transactionId: string | null;
  fromMs: number | null;
  toMs: number | null;
  /** Only the changes of this actor, as events name it ("user:ann@example.com", "client:abc"). */
  actor: string | null;
  action: string | null;
  object: AuditObject | null;
  order: AuditOrder;
  limit: number;
  cursor: string | null;
}

/** The actions a query asks for: the action, those of the object, or both at once; null for every action. */
function actionsOf(action: string | null, object: AuditObject | null): string[] | null {
  const ofObject: readonly string[] | null = object === null ? null : AUDIT_OBJECTS[object];
  if (action === null) return ofObject === null ? null : [...ofObject];
  return ofObject === null || ofObject.includes(action) ? [action] : [];
}

/** Reads the audit trail. Appending happens in each write's own transaction (repositories/audit-events.ts). */
export class AuditTrail {
  constructor(
    private readonly database: Database,
    private readonly positions: SealedPositions,
  ) {}

  async list(organizationId: string, query: AuditQuery): Promise<AuditPage> {
    if (query.fromMs !== null && query.toMs !== null && query.fromMs > query.toMs) {
      throw invalidFieldIn('query', 'from', `must not be after "to" (${query.fromMs} > ${query.toMs}); both are epoch milliseconds and inclusive`);
    }
    const newestFirst = query.order === 'newest';
    const cursors = newestFirst
      ? this.positions.cursors(NEWEST_FIRST_CURSOR_PREFIX, organizationId, EARLIER_CURSOR_PREFIX)
      : this.positions.cursors(CURSOR_PREFIX, organizationId, EARLIER_CURSOR_PREFIX);
    const position = await readCursor(cursors, query.cursor);
    if (query.transactionId !== null && !(await findTransactionExists(this.database, organizationId, query.transactionId))) {
      throw notFound('transaction', query.transactionId);
    }
    const rows = await listAuditEvents(this.database, {
      organizationId,
      afterSequence: position === null ? null : Number(position),
      newestFirst,
      transactionId: query.transactionId,
      fromMs: query.fromMs,
      toMs: query.toMs,
      actor: query.actor,
      actions: actionsOf(query.action, query.object),
      limit: rowsToFetch(query.limit),
    });
    // Newest first, the trail ends at its first event: a plain list, whose last page has no cursor.
    // Oldest first, it is a feed that is followed as it grows.
    const page = newestFirst
      ? await pageOf(rows, query.limit, (row) => BigInt(row.sequence), cursors)
      : await feedPageOf(rows, query.limit, (row) => BigInt(row.sequence), cursors, query.cursor);
    return { events: page.rows.map((row) => row.event as unknown as AuditEvent), nextCursor: page.nextCursor, hasMore: page.hasMore };
  }
}
