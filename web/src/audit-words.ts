/**
 * The audit trail in words: what each action is called, which object it concerns, and the
 * difference between the state before and after, as "Name: Current account → Operating account".
 * The audit screen and its CSV export both read events through these functions.
 */
import type { AuditEvent } from '@ledger-recon/sdk';

/** What each action is called, by the kind of object it concerns. */
export const ACTION_WORDS: Record<string, string> = {
  'match.created': 'Matched',
  'match.deleted': 'Unmatched',
  'transaction.status_changed': 'Status changed',
  'rule.created': 'Rule created',
  'rule.updated': 'Rule changed',
  'rule.deleted': 'Rule deleted',
  'rules.reordered': 'Rules reordered',
  'suggestion.confirmed': 'Suggestion confirmed',
  'suggestion.rejected': 'Suggestion rejected',
  'import.started': 'Import started',
  'import.completed': 'Import finished',
  'import.failed': 'Import failed',
  'import.undone': 'Import undone',
  'source.created': 'Source created',
  'source.updated': 'Source renamed',
  'dataset.created': 'Dataset created',
  'dataset.updated': 'Dataset changed',
  'dataset.archived': 'Dataset archived',
  'dataset.restored': 'Dataset restored',
  'run.discarded': 'Dry run discarded',
  'client.created': 'API client created',
  'user.invited': 'Person invited',
  'user.joined': 'Person joined',
  'user.updated': 'Person changed',
  'user.password_changed': 'Password changed',
  'exception.assigned': 'Exception assigned',
  'exception.updated': 'Exception due date or hold changed',
  'exception.commented': 'Exception commented',
  'exception.resolved': 'Exception resolved',
  'exception.reopened': 'Exception reopened',
};

/** The kinds of object, as the filter offers them. */
export const OBJECT_WORDS: Record<string, string> = {
  transaction: 'Transactions',
  match: 'Matches',
  rule: 'Rules',
  suggestion: 'Suggestions',
  run: 'Runs',
  import: 'Imports',
  source: 'Sources',
  dataset: 'Datasets',
  client: 'API clients',
  user: 'People',
  exception: 'Exceptions',
};

export function actionInWords(action: string): string {
  return ACTION_WORDS[action] ?? action.replace(/[._]/g, ' ');
}

/** The labels of the fields an event's states hold; fields not named here are not shown. */
const FIELD_WORDS: Record<string, string> = {
  name: 'Name',
  sourceName: 'Source',
  accountId: 'Account',
  currency: 'Currency',
  status: 'Status',
  reconciliationStatus: 'Status',
  allocatedAmount: 'Matched amount',
  matchCount: 'Matches',
  amount: 'Amount',
  forced: 'Forced',
  role: 'Role',
  email: 'Email',
  active: 'Active',
  enabled: 'Enabled',
  priority: 'Priority',
  fileName: 'File',
  format: 'Format',
  rowsRead: 'Rows read',
  inserted: 'Transactions added',
  duplicates: 'Already in the dataset',
  warnings: 'Warnings',
  error: 'Problem',
  transactions: 'Transactions',
  removed: 'Transactions removed',
  matchGroupsDissolved: 'Match groups dissolved',
  datasetAccountReleased: 'Account cleared',
  columns: 'Columns',
  reason: 'Reason',
};

/** Fields whose values are exact decimal amounts: shown as the API sends them, grouped, never as floats. */
const AMOUNT_FIELDS = new Set(['allocatedAmount', 'amount']);

/** How the column types are said. */
const TYPE_WORDS: Record<string, string> = { string: 'text', number: 'number', money: 'amount', date: 'date', boolean: 'yes or no' };

/** A column's name in words: "invoiceNumber" and "invoice_number" read "Invoice number". */
export function columnNameInWords(name: string): string {
  const spaced = name
    .replace(/_/g, ' ')
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .toLowerCase()
    .trim();
  return spaced.charAt(0).toUpperCase() + spaced.slice(1);
}

/** A dataset's column in words: "Invoice number — text". */
export function columnInWords(column: { name: string; type: string }): string {
  return `${columnNameInWords(column.name)} — ${TYPE_WORDS[column.type] ?? column.type}`;
}

function groupedDecimal(value: string): string {
  const negative = value.startsWith('-');
  const [whole = '0', fraction] = value.replace(/^[-+]/, '').split('.');
  const grouped = whole.replace(/\B(?=(\d{3})+(?!\d))/g, ',');
  return `${negative ? '-' : ''}${grouped}${fraction !== undefined ? `.${fraction}` : ''}`;
}

/** One value of a state in words. */
function valueInWords(field: string, value: unknown): string {
  if (value === null || value === undefined || value === '') return 'none';
  if (typeof value === 'boolean') return value ? 'yes' : 'no';
  if (AMOUNT_FIELDS.has(field) && typeof value === 'string') return groupedDecimal(value);
  if (field === 'status' && value === 'active') return 'active';
  if (field === 'columns' && Array.isArray(value)) {
    return value.length === 0 ? 'only the standard ones' : value.map((column) => columnInWords(column as { name: string; type: string })).join(', ');
  }
  if (Array.isArray(value)) return `${value.length} ${value.length === 1 ? 'item' : 'items'}`;
  if (typeof value === 'object') return 'changed';
  return String(value);
}

function isState(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

/**
 * The change an event made, one line per field: "Name: Current account → Operating account" for a
 * change, "Name: Operating account" for what was created, "Name: was Operating account" for what
 * was removed. Ids are left out: they say nothing to a reader.
 */
export function changeInWords(event: Pick<AuditEvent, 'before' | 'after'>): string[] {
  const before = isState(event.before) ? event.before : null;
  const after = isState(event.after) ? event.after : null;
  const fields = [...new Set([...Object.keys(before ?? {}), ...Object.keys(after ?? {})])].filter((field) => field in FIELD_WORDS);
  const lines: string[] = [];
  for (const field of fields) {
    const label = FIELD_WORDS[field]!;
    const had = before !== null && field in before;
    const has = after !== null && field in after;
    const old = valueInWords(field, before?.[field]);
    const now = valueInWords(field, after?.[field]);
    if (had && has) {
      // A name kept for reference (what was renamed) is said once when it did not change.
      if (old === now) {
        if (field === 'name' || field === 'fileName' || field === 'sourceName') lines.push(`${label}: ${now}`);
        continue;
      }
      lines.push(`${label}: ${old} → ${now}`);
    } else if (has) {
      lines.push(`${label}: ${now}`);
    } else {
      lines.push(`${label}: was ${old}`);
    }
  }
  return lines;
}

/** The object an event concerns, in words, with the names the screen knows (datasets by id). */
export function objectInWords(event: AuditEvent, datasetNames: ReadonlyMap<string, string>): string {
  const state = (isState(event.after) ? event.after : isState(event.before) ? event.before : {}) as Record<string, unknown>;
  const text = (value: unknown) => (typeof value === 'string' && value !== '' ? value : null);
  const kind = event.action.split('.')[0];
  const datasetName = text(state.datasetId) !== null ? (datasetNames.get(state.datasetId as string) ?? null) : null;
  switch (kind) {
    case 'dataset':
      return `Dataset ${text(state.name) ?? datasetName ?? ''}`.trim();
    case 'source':
      return `Source ${text(state.name) ?? ''}`.trim();
    case 'import': {
      const file = text(state.fileName) ?? 'a file';
      return datasetName ? `${file} into ${datasetName}` : file;
    }
    case 'client':
      return `API client ${text(state.name) ?? ''}`.trim();
    case 'user':
      return text(state.email) ?? 'A person';
    case 'rule':
    case 'rules':
      return text(state.name) ? `Rule ${text(state.name)}` : 'Rules';
    case 'match':
      return 'Two transactions';
    case 'transaction':
      return 'A transaction';
    case 'suggestion':
      return 'A suggestion';
    case 'exception':
      return 'An exception';
    case 'run':
      return text(state.createdAt) ? `Dry run of ${utcMinute(state.createdAt as string)}` : 'A dry run';
    default:
      return '';
  }
}

const TWO = (value: number) => String(value).padStart(2, '0');

/** A time as the export writes it: "2026-11-27 18:05 UTC". */
export function utcMinute(iso: string): string {
  const at = new Date(iso);
  return `${at.getUTCFullYear()}-${TWO(at.getUTCMonth() + 1)}-${TWO(at.getUTCDate())} ${TWO(at.getUTCHours())}:${TWO(at.getUTCMinutes())} UTC`;
}
