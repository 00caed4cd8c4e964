import type { Database } from '../db/database.ts';
import { listAuditEvents } from '../db/repositories/audit-events.ts';
import { findTransactionExists } from '../db/repositories/transactions.ts';
import { invalidFieldIn, notFound } from '../errors.ts';
import type { SealedPositions } from './sealed-positions.ts';
import { feedPageOf, pageSize, readCursor, rowsToFetch } from './pages.ts';

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
} as const;

/** Longest note a caller may attach to a change. */
export const NOTE_MAX_LENGTH = 1000;

export const AUDIT_PAGE_SIZE = pageSize(100, 1000);

export interface AuditEvent {
  id: string;
  occurredAt: string;
  actor: string;
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

/** Reads the audit trail. Appending happens in each write's own transaction (repositories/audit-events.ts). */
export class AuditTrail {
  constructor(
    private readonly database: Database,
    private readonly positions: SealedPositions,
  ) {}

  async list(
    organizationId: string,
    query: { transactionId: string | null; fromMs: number | null; toMs: number | null; limit: number; cursor: string | null },
  ): Promise<AuditPage> {
    if (query.fromMs !== null && query.toMs !== null && query.fromMs > query.toMs) {
      throw invalidFieldIn('query', 'from', `must not be after "to" (${query.fromMs} > ${query.toMs}); both are epoch milliseconds and inclusive`);
    }
    const cursors = this.positions.cursors(CURSOR_PREFIX, organizationId, EARLIER_CURSOR_PREFIX);
    const afterSequence = Number((await readCursor(cursors, query.cursor)) ?? 0n);
    if (query.transactionId !== null && !(await findTransactionExists(this.database, organizationId, query.transactionId))) {
      throw notFound('transaction', query.transactionId);
    }
    const rows = await listAuditEvents(this.database, {
      organizationId,
      afterSequence,
      transactionId: query.transactionId,
      fromMs: query.fromMs,
      toMs: query.toMs,
      limit: rowsToFetch(query.limit),
    });
    const page = await feedPageOf(rows, query.limit, (row) => BigInt(row.sequence), cursors, query.cursor);
    return { events: page.rows.map((row) => row.event as unknown as AuditEvent), nextCursor: page.nextCursor, hasMore: page.hasMore };
  }
}
