import type { AuditEvent, EvidenceTransaction, Transaction } from '@ledger-recon/sdk';
import { formatAmount, formatTimestamp } from './format.ts';

/**
 * Transactions named in words (amount, description, date) where the API gives their ids: a
 * match's counterpart, a suggestion's options, the history of a transaction.
 */

/** The standard fields a transaction is named and compared by, added to the record the API sends. */
export const NAMING_COLUMNS = ['amount', 'currency', 'reference'];
/** A column a dataset may have of its own, shown beside them when it does. */
export const COUNTERPARTY = 'counterparty';

export function field(transaction: Transaction | null | undefined, name: string): string {
  const value = (transaction as Record<string, unknown> | null | undefined)?.[name];
  return value === null || value === undefined ? '' : String(value);
}

/** "950.00 EUR Westcott Dental of Jan 3, 2026"; "a transaction" while it is being read. */
export function nameOf(transaction: Transaction | null | undefined): string {
  if (!transaction) return 'a transaction';
  const amount = field(transaction, 'amount');
  const words = transaction.description || field(transaction, 'reference') || 'no description';
  return `${amount ? `${formatAmount(amount, field(transaction, 'currency'))} ` : ''}${words} of ${formatTimestamp(transaction.timestamp)}`;
}

/** A transaction as the evidence sentences name it. */
export function forEvidence(transaction: Transaction, datasetName?: string | null): EvidenceTransaction {
  return {
    id: transaction.id,
    timestamp: transaction.timestamp,
    description: transaction.description,
    reference: field(transaction, 'reference') || null,
    amount: field(transaction, 'amount') || null,
    currency: field(transaction, 'currency') || null,
    datasetName: datasetName ?? null,
  };
}

/** A reconciliation status in words, as a table, a filter or a label shows it ("Partly matched"). */
const STATUS_WORDS: Record<string, string> = {
  none: 'Not matched',
  partial: 'Partly matched',
  full: 'Matched',
  informative: 'Informative',
  'out of scope': 'Out of scope',
};

export function statusInWords(status: string): string {
  return STATUS_WORDS[status] ?? status;
}

/** A reconciliation status in words, inside a sentence ("from open to reconciled"). */
export function statusWords(status: unknown): string {
  switch (status) {
    case 'none':
      return 'open';
    case 'partial':
      return 'partly reconciled';
    case 'full':
      return 'reconciled';
    case null:
    case undefined:
      return 'open';
    default:
      return String(status);
  }
}

const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/i;

/** Who made a change, by name: a person's email, a rule's name, "a run", "an API client". */
export function actorWords(actor: string, ruleNames: ReadonlyMap<string, string>): string {
  const [kind, ...rest] = actor.split(':');
  const who = rest.join(':');
  if (kind === 'user') return UUID.test(who) ? 'a person' : who;
  if (kind === 'run') return 'a run';
  if (kind === 'rule') return ruleNames.has(who) ? `rule “${ruleNames.get(who)}”` : 'a rule';
  if (kind === 'client') return 'an API client';
  return UUID.test(actor) ? 'someone' : actor;
}

/** A note worth showing: a person's reason, not the run id a run writes. */
function reasonOf(note: string | null): string | null {
  if (!note || /^run\b/.test(note) || UUID.test(note)) return null;
  return note;
}

export interface HistoryNames {
  /** The transaction whose history it is. */
  subjectId: string;
  transactions: ReadonlyMap<string, Transaction>;
  ruleNames: ReadonlyMap<string, string>;
}

/** The transaction an event names besides the subject (the other side of a match). */
export function counterpartIdOf(event: AuditEvent, subjectId: string): string | null {
  if (event.transactionId === subjectId) return event.relatedTransactionId;
  return event.transactionId;
}

/**
 * One event of a transaction's history as a sentence: "Matched with 950.00 EUR Westcott Dental of
 * Jan 3, 2026 by rule “Bank to ledger” in a run", "Status changed from open to reconciled",
 * "Marked informative by ada@example.com: duplicate". Never an id or an event code.
 */
export function historySentence(event: AuditEvent, names: HistoryNames): string {
  const after = (event.after ?? {}) as Record<string, unknown>;
  const before = (event.before ?? {}) as Record<string, unknown>;
  const reason = reasonOf(event.note);
  const withReason = (sentence: string) => (reason ? `${sentence}: ${reason}` : sentence);
  const byRun = event.actor.startsWith('run:');
  const who = actorWords(event.actor, names.ruleNames);
  const counterpartId = counterpartIdOf(event, names.subjectId);
  const counterpart = nameOf(counterpartId ? names.transactions.get(counterpartId) : null);
  switch (event.action) {
    case 'match.created': {
      const ruleId = typeof after.ruleId === 'string' ? after.ruleId : null;
      const rule = ruleId ? (names.ruleNames.has(ruleId) ? `rule “${names.ruleNames.get(ruleId)}”` : 'a rule') : null;
      if (byRun) return withReason(`Matched with ${counterpart}${rule ? ` by ${rule}` : ''} in a run`);
      return withReason(`Matched with ${counterpart} by ${who}${rule && who !== rule ? ` (${rule})` : ''}`);
    }
    case 'match.deleted':
      return withReason(`Unmatched from ${counterpart} by ${who}`);
    case 'transaction.status_changed': {
      const from = before.reconciliationStatus;
      const to = after.reconciliationStatus;
      if (to === 'informative' || to === 'out of scope') return withReason(`Marked ${String(to)} by ${who}`);
      if ((from === 'informative' || from === 'out of scope') && !byRun) return withReason(`“${String(from)}” cleared by ${who}`);
      if (from !== to) return withReason(`Status changed from ${statusWords(from)} to ${statusWords(to)}`);
      return withReason('Allocation changed');
    }
    case 'suggestion.confirmed':
      return withReason(`Suggestion confirmed by ${who}`);
    case 'suggestion.rejected':
      return withReason(`Suggestion rejected by ${who}`);
    default:
      return withReason(`Changed by ${who}`);
  }
}

/** The transactions an evidence object names by id (its runners-up), to be read so its sentences can name them. */
export function idsInEvidence(evidence: unknown): string[] {
  const runnersUp = (evidence as { runnersUp?: unknown } | null)?.runnersUp;
  if (!Array.isArray(runnersUp)) return [];
  return runnersUp.flatMap((runnerUp: { originId?: unknown; targetId?: unknown } | null) =>
    [runnerUp?.originId, runnerUp?.targetId].filter((id): id is string => typeof id === 'string'),
  );
}
