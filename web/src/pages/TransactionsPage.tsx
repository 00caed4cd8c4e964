import { useMutation, useQueries, useQuery, useQueryClient } from '@tanstack/react-query';
import { lazy, Suspense, useEffect, useRef, useState, type ReactNode } from 'react';
import { Controller, useForm } from 'react-hook-form';
import { Link, useSearchParams } from 'react-router';
import { csvField, RECONCILIATION_STATUSES, type CellKind, type Transaction, type TransactionQuery } from '@ledger-recon/sdk';
import { Amount } from '../components/Amount.tsx';
import { DatasetSelect, useDatasets, useSources } from '../components/DatasetSelect.tsx';
import { countOf, formatAmount, formatCount, isoTimestamp } from '../format.ts';
import { CalendarDate, Moment, Timestamp } from '../components/When.tsx';
import { ErrorMessage } from '../components/ErrorMessage.tsx';
import { MatchGroupLinks } from '../components/MatchGroupLinks.tsx';
import type { Mark } from '../components/MarkDialog.tsx';
import { Field, FieldError, useFieldAria } from '../components/FormField.tsx';
import { useGridNavigation } from '../components/useGridNavigation.ts';
import { MAXIMUM_SCROLL_HEIGHT_PIXELS, useRowWindow } from '../components/useRowWindow.ts';
import { linksWorthListing, loadGroupOverview, unmatchLinkProblem } from '../match-groups.ts';
import { Evidence } from '../components/Evidence.tsx';
import { actorWords, counterpartIdOf, forEvidence, historySentence, idsInEvidence, nameOf, statusInWords } from '../transaction-words.ts';
import { useRuleNames, useTransactionsById } from '../components/useTransactionsById.ts';
import { messageOf, useSession } from '../session.tsx';
import { saveFile } from '../save-file.ts';
import {
  amountProblem,
  filtersOfParams,
  NO_FILTERS,
  PAGE_SIZE,
  pageQuery,
  paramsOfFilters,
  queryOf,
  type ExplorerSort,
  type Filters,
  type PageOfRows,
} from '../transactions-query.ts';
import { SORT_COLUMNS, type SortColumn } from '../explorer-address.ts';

const ROW_HEIGHT_PIXELS = 36;
/** On a phone a row is a card of two lines: description and amount, then date and status. */
const CARD_HEIGHT_PIXELS = 60;
const PHONE_QUERY = '(max-width: 720px)';

/** Whether the screen is a phone's: its rows become stacked cards. */
function usePhone(): boolean {
  const [phone, setPhone] = useState(() => window.matchMedia(PHONE_QUERY).matches);
  useEffect(() => {
    const media = window.matchMedia(PHONE_QUERY);
    const changed = () => setPhone(media.matches);
    media.addEventListener('change', changed);
    return () => media.removeEventListener('change', changed);
  }, []);
  return phone;
}

/** A column's name in words: "invoiceNumber" → "Invoice number"; the bank's columns by their own words. */
const COLUMN_WORDS: Record<string, string> = {
  bankReference: 'Bank reference',
  counterpartyName: 'Counterparty name',
  counterpartyAccount: 'Counterparty account',
  accountId: 'Account',
  endToEndId: 'End-to-end reference',
  mandateId: 'Mandate',
  creditorId: 'Creditor identifier',
  ultimateDebtorName: 'Ultimate debtor',
  ultimateCreditorName: 'Ultimate creditor',
  statementId: 'Statement',
  bankTransactionCode: 'Bank transaction code',
  reversal: 'Reversal',
};

export function columnInWords(name: string): string {
  const known = COLUMN_WORDS[name];
  if (known) return known;
  const words = name
    .replace(/[_-]+/g, ' ')
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .replace(/([A-Z]+)([A-Z][a-z])/g, '$1 $2')
    .trim()
    .toLowerCase();
  return words.charAt(0).toUpperCase() + words.slice(1);
}

/** Fields the details panel shows in its own places, not in the list of the record's columns. */
const PUBLISHED_FIELDS = new Set(['timestamp', 'description', 'type']);
/** The record's columns, first in this order, then the dataset's own in theirs. */
const DETAIL_ORDER = ['reference', 'bankReference', 'counterpartyName', 'counterpartyAccount', 'accountId'];

/**
 * The scroll space's largest height; a browser test sets a small one (before the app starts) to
 * try the scaled scrolling of a huge dataset on a few thousand rows.
 */
function maximumScrollHeightPixels(): number {
  return (globalThis as { explorerMaximumScrollHeightPixels?: number }).explorerMaximumScrollHeightPixels ?? MAXIMUM_SCROLL_HEIGHT_PIXELS;
}

function field(transaction: Transaction, name: string): string {
  const value = (transaction as Record<string, unknown>)[name];
  return value === null || value === undefined ? '' : String(value);
}

/** A column of the dataset's as a cell shows it: a date column as its calendar date (or moment), never its epoch milliseconds. */
function columnCell(transaction: Transaction, name: string, type: string | undefined): ReactNode {
  const value = (transaction as Record<string, unknown>)[name];
  if (type === 'date' && (typeof value === 'number' || typeof value === 'string')) return <Timestamp value={value} />;
  return field(transaction, name);
}

/** A column of the dataset's as the CSV export writes it: a date as `YYYY-MM-DD` (or an ISO 8601 moment when it has a time). */
function columnText(transaction: Transaction, name: string, type: string | undefined): string {
  const value = (transaction as Record<string, unknown>)[name];
  if (type === 'date' && (typeof value === 'number' || typeof value === 'string')) return isoTimestamp(value);
  return field(transaction, name);
}

/** The bank's dates of a transaction its import filled, by their names in words. */
const BANK_DATES = [
  ['bookingDate', 'Booking date'],
  ['valueDate', 'Value date'],
] as const;

/** The rule of an amount filter, with the message that names the field and the fix. */
function amountRules(label: string) {
  return { validate: (value: string) => amountProblem(label, value) ?? true };
}

/** A set of chips (checkboxes) whose value is the list of the checked ones. */
function ChipSet({
  legend,
  options,
  value,
  onChange,
  labelOf = (option) => option,
}: {
  legend: string;
  options: readonly string[];
  value: string[];
  onChange: (value: string[]) => void;
  labelOf?: (option: string) => string;
}) {
  return (
    <fieldset className="chips">
      <legend>{legend}</legend>
      {options.map((option) => (
        <label key={option} className="chip">
          <input
            type="checkbox"
            checked={value.includes(option)}
            onChange={(event) => onChange(event.target.checked ? [...value, option] : value.filter((other) => other !== option))}
          />
          {labelOf(option)}
        </label>
      ))}
    </fieldset>
  );
}

/** The dialog that asks for a mark's reason, with React Aria, loaded when first opened: the explorer opens without it. */
const MarkDialog = lazy(() => import('../components/MarkDialog.tsx').then((module) => ({ default: module.MarkDialog })));

/** Whether a transaction carries a status a person set (and can clear). */
function isMarked(transaction: Transaction): boolean {
  return transaction.reconciliationStatus === 'informative' || transaction.reconciliationStatus === 'out of scope';
}

/**
 * Mark a transaction informative or out of scope (with an optional reason, kept in its history),
 * or clear the mark, which returns it to open. Only an unmatched transaction can be marked.
 */
function MarkActions({ transaction }: { transaction: Transaction }) {
  const { recon } = useSession();
  const client = useQueryClient();
  const [asking, setAsking] = useState<Mark | null>(null);
  const [message, setMessage] = useState<string | null>(null);
  const change = useMutation({
    mutationFn: ({ status, note }: { status: Mark | 'none'; note: string | null }) =>
      recon.transactions.setStatus(transaction.id, { reconciliationStatus: status, ...(note === null ? {} : { note }) }),
    onMutate: () => setMessage(null),
    onSuccess: (updated, { status }) => {
      setAsking(null);
      setMessage(status === 'none' ? 'The mark is cleared: the transaction is open again.' : `Marked ${status}.`);
      // The details panel reads the record again, and the table its rows.
      void client.invalidateQueries({ queryKey: ['transaction', updated.id] });
      void client.invalidateQueries({ queryKey: ['transactions'] });
      void client.invalidateQueries({ queryKey: ['workspace'] });
      void client.invalidateQueries({ queryKey: ['sources'] });
      void client.invalidateQueries({ queryKey: ['audit', transaction.id] });
    },
    onError: () => setAsking(null),
  });
  const matched = transaction.incomingMatches.length + transaction.outgoingMatches.length > 0;
  if (matched && !isMarked(transaction)) return null;
  return (
    <>
      <div className="buttons">
        {isMarked(transaction) ? (
          <button type="button" className="secondary" disabled={change.isPending} onClick={() => change.mutate({ status: 'none', note: null })}>
            {change.isPending ? 'Clearing…' : 'Clear the mark'}
          </button>
        ) : (
          (['informative', 'out of scope'] as const).map((mark) => (
            <button
              key={mark}
              type="button"
              className="secondary"
              disabled={change.isPending}
              onClick={() => {
                setMessage(null);
                change.reset();
                setAsking(mark);
              }}
            >
              Mark {mark}
            </button>
          ))
        )}
      </div>
      {message && (
        <p className="success" role="status">
          {message}
        </p>
      )}
      <ErrorMessage error={change.error} />
      {asking && (
        <Suspense fallback={<p role="status">Opening…</p>}>
          <MarkDialog
            mark={asking}
            subject={`“${transaction.description || 'this transaction'}”`}
            pending={change.isPending}
            onConfirm={(note) => change.mutate({ status: asking, note })}
            onCancel={() => setAsking(null)}
          />
        </Suspense>
      )}
    </>
  );
}

/** A value of the record's as words: a date column as its date, yes/no for a boolean. */
function valueInWords(value: unknown, type: string | undefined): ReactNode {
  if (value === null || value === undefined || value === '') return '—';
  if (type === 'date' && (typeof value === 'number' || typeof value === 'string')) return <Timestamp value={value} />;
  if (typeof value === 'boolean') return value ? 'Yes' : 'No';
  return String(value);
}

/**
 * The transaction of the details panel, read by its id with every column of its dataset, so the
 * panel shows the whole record, whatever columns the table shows.
 */
function useWholeRecord(transactionId: string, columnNames: string[]) {
  const { recon } = useSession();
  const columns = columnNames.filter((name) => !PUBLISHED_FIELDS.has(name));
  return useQuery({
    queryKey: ['transaction', transactionId, columns.join(',')],
    queryFn: () => recon.transactions.get(transactionId, { columns }),
  });
}

function TransactionPanel({ transactionId, columns, onClose }: { transactionId: string; columns: { name: string; type: string }[]; onClose: () => void }) {
  const record = useWholeRecord(
    transactionId,
    columns.map((column) => column.name),
  );
  if (record.data) return <TransactionDetails transaction={record.data} columns={columns} onClose={onClose} />;
  return (
    <aside className="card details" aria-label="Transaction details">
      <div className="buttons spread">
        <h2>Transaction</h2>
        <button type="button" className="secondary" onClick={onClose}>
          Close
        </button>
      </div>
      {record.isPending ? <p role="status">Loading…</p> : <ErrorMessage error={record.error} />}
    </aside>
  );
}

function TransactionDetails({ transaction, columns, onClose }: { transaction: Transaction; columns: { name: string; type: string }[]; onClose: () => void }) {
  const { recon, session } = useSession();
  const client = useQueryClient();
  const record = transaction as Record<string, unknown>;
  const types = new Map(columns.map((column) => [column.name, column.type]));
  const shownElsewhere = new Set([...PUBLISHED_FIELDS, 'amount', 'currency', ...BANK_DATES.map(([name]) => name)]);
  const listed = [
    ...DETAIL_ORDER.filter((name) => types.has(name)),
    ...columns.map((column) => column.name).filter((name) => !DETAIL_ORDER.includes(name) && !shownElsewhere.has(name)),
  ];
  const unmatch = useMutation({
    mutationFn: (matchId: string) => recon.matches.delete(matchId),
    onSuccess: () => {
      onClose();
      void client.invalidateQueries({ queryKey: ['transactions'] });
      void client.invalidateQueries({ queryKey: ['transaction'] });
      void client.invalidateQueries({ queryKey: ['sources'] });
    },
  });
  const history = useQuery({
    queryKey: ['audit', transaction.id],
    queryFn: async () => {
      const events = [];
      for await (const event of recon.auditEvents.list({ transactionId: transaction.id })) events.push(event);
      return events;
    },
  });
  const matches = [...transaction.incomingMatches, ...transaction.outgoingMatches];
  const ruleNames = useRuleNames();
  const datasets = useDatasets();
  const datasetName = (id: string) => datasets.find((dataset) => dataset.id === id)?.name ?? null;
  const groupIds = [...new Set(linksWorthListing(matches).map((match) => match.groupId))];
  const overviews = useQueries({
    queries: groupIds.map((groupId) => ({ queryKey: ['match-group', groupId], queryFn: () => loadGroupOverview(recon, groupId), staleTime: 30_000 })),
  });
  const groups = new Map(groupIds.flatMap((groupId, at) => (overviews[at]?.data ? [[groupId, overviews[at].data] as const] : [])));
  // The counterparts of the matches and of the history's events, named by description, date and amount.
  const named = useTransactionsById([
    ...linksWorthListing(matches).map((match) => (match.originId === transaction.id ? match.targetId : match.originId)),
    ...(history.data ?? []).flatMap((event) => counterpartIdOf(event, transaction.id) ?? []),
    ...[...groups.values()].flatMap((overview) => idsInEvidence(overview.group.evidence)),
  ]);
  // The links of a big group (a payout's deposit has hundreds) are read on the group's page, by its link above.
  const listedMatches = linksWorthListing(matches);
  return (
    <aside className="card details" aria-label="Transaction details">
      <div className="buttons spread">
        <h2>{transaction.description || '(no description)'}</h2>
        <button type="button" className="secondary" onClick={onClose}>
          Close
        </button>
      </div>
      <dl className="record">
        <div>
          <dt>Date</dt>
          <dd>
            <Timestamp value={transaction.timestamp} />
          </dd>
        </div>
        {BANK_DATES.filter(([name]) => field(transaction, name) !== '').map(([name, label]) => (
          <div key={name}>
            <dt>{label}</dt>
            <dd>
              <CalendarDate value={field(transaction, name)} />
            </dd>
          </div>
        ))}
        <div>
          <dt>Amount</dt>
          <dd>
            <Amount amount={field(transaction, 'amount')} currency={field(transaction, 'currency')} />
          </dd>
        </div>
        <div>
          <dt>Status</dt>
          <dd>
            <strong>{statusInWords(transaction.reconciliationStatus)}</strong>
          </dd>
        </div>
        <div>
          <dt>Description</dt>
          <dd>{transaction.description || '—'}</dd>
        </div>
        <div>
          <dt>Type</dt>
          <dd>{transaction.type || '—'}</dd>
        </div>
        {listed.map((name) => (
          <div key={name}>
            <dt>{columnInWords(name)}</dt>
            <dd>{valueInWords(record[name], types.get(name))}</dd>
          </div>
        ))}
      </dl>
      {session.user.role !== 'View-only' && <MarkActions transaction={transaction} />}
      <h3>Matches</h3>
      <MatchGroupLinks transaction={transaction} />
      {matches.length === 0 ? (
        <p className="hint">Not matched.</p>
      ) : (
        <ul className="match-list">
          {listedMatches.map((match) => {
            const counterpartId = match.originId === transaction.id ? match.targetId : match.originId;
            const counterpart = named.get(counterpartId);
            const overview = groups.get(match.groupId);
            const rule = match.ruleId ? ruleNames.get(match.ruleId) : undefined;
            return (
              <li key={match.id}>
                <p className="match-line">
                  {match.originId === transaction.id ? 'With ' : 'From '}
                  <Link to={`/match-group?group=${encodeURIComponent(match.groupId)}`}>{nameOf(counterpart)}</Link>
                  {match.amount !== null && <> · {formatAmount(match.amount, field(transaction, 'currency') || null)} allocated</>}
                </p>
                <p className="hint">
                  {match.method === 'rule'
                    ? `By rule “${rule ?? 'a rule'}”${match.runId ? ' in a run' : ''}`
                    : `By hand, ${actorWords(match.createdBy, ruleNames)}`}{' '}
                  on <Moment value={match.createdAt} />
                </p>
                {overview?.group.evidence !== undefined && overview.group.evidence !== null && (
                  <Evidence
                    evidence={overview.group.evidence}
                    label={`Evidence of the match with ${nameOf(counterpart)}`}
                    context={{
                      transactions: [transaction, ...named.values()].map((one) => forEvidence(one, datasetName(one.datasetId))),
                      pair: { originId: match.originId, targetId: match.targetId },
                      originName: datasetName(match.originDatasetId),
                      targetName: datasetName(match.targetDatasetId),
                    }}
                  />
                )}
                {session.user.role !== 'View-only' && (
                  <button type="button" className="danger small" onClick={() => unmatch.mutate(match.id)} disabled={unmatch.isPending}>
                    Unmatch
                  </button>
                )}
              </li>
            );
          })}
        </ul>
      )}
      {unmatch.error !== null && (
        <p className="error" role="alert">
          {unmatchLinkProblem(unmatch.error)}
        </p>
      )}
      <h3>History</h3>
      {history.isPending && <p role="status">Loading…</p>}
      {history.data?.length === 0 && <p className="hint">No changes recorded.</p>}
      {history.data && history.data.length > 0 && (
        <ol className="history" aria-label="History">
          {history.data.map((event) => (
            <li key={event.id}>
              <Moment value={event.occurredAt} />: {historySentence(event, { subjectId: transaction.id, transactions: named, ruleNames })}
            </li>
          ))}
        </ol>
      )}
    </aside>
  );
}

/**
 * The rows of a query for a virtualized table, a page of PAGE_SIZE at a time, read when they come
 * into view (see pageQuery for how). With no known length, the table grows as its end comes into
 * view.
 */
function usePagedRows(query: TransactionQuery, enabled: boolean, knownTotal: number | null) {
  const { recon } = useSession();
  const client = useQueryClient();
  const key = JSON.stringify(query);
  const [wanted, setWanted] = useState<{ first: number; last: number; kept: number }>({ first: 0, last: 0, kept: 0 });
  const [loadedPages, setLoadedPages] = useState(1);
  useEffect(() => {
    setLoadedPages(1);
    setWanted({ first: 0, last: 0, kept: 0 });
  }, [key]);
  const firstPage = Math.floor(wanted.first / PAGE_SIZE);
  const lastPage = knownTotal === null ? Math.min(Math.floor(wanted.last / PAGE_SIZE), loadedPages - 1) : Math.floor(wanted.last / PAGE_SIZE);
  const indexes = Array.from({ length: Math.max(0, lastPage - firstPage + 1) }, (_, offset) => firstPage + offset);
  // The page of the row kept out of view with the focus (the grid's active row) stays at hand:
  // read before, it comes from the cache.
  const keptPage = Math.floor(wanted.kept / PAGE_SIZE);
  if (!indexes.includes(keptPage) && (knownTotal !== null || keptPage < loadedPages)) indexes.push(keptPage);
  const results = useQueries({ queries: indexes.map((index) => ({ ...pageQuery(recon, client, query, index), enabled })) });
  const byIndex = new Map(indexes.map((index, at) => [index, results[at]?.data]));
  const cached = (index: number) => byIndex.get(index) ?? client.getQueryData<PageOfRows>(pageQuery(recon, client, query, index).queryKey);
  // While the page the table grows by is on its way, the table keeps the length the page before
  // gave it, with the row after its end that stands for more: that row stays in view and keeps
  // asking for the page (were the table one row shorter, the page would no longer be wanted).
  const newest = cached(loadedPages - 1);
  const settledPages = newest !== undefined ? loadedPages : loadedPages - 1;
  const lastLoaded = newest ?? (settledPages > 0 ? cached(settledPages - 1) : undefined);
  const growable = knownTotal === null && lastLoaded !== undefined && lastLoaded.nextCursor !== null;
  useEffect(() => {
    // The end of what is loaded is in view and more follows: the table grows by a page.
    if (growable && settledPages === loadedPages && wanted.last >= loadedPages * PAGE_SIZE - 50) setLoadedPages(loadedPages + 1);
  }, [growable, wanted.last, loadedPages, settledPages]);
  const loadedCount = lastLoaded === undefined ? 0 : (settledPages - 1) * PAGE_SIZE + lastLoaded.transactions.length;
  const count = knownTotal ?? loadedCount + (growable ? 1 : 0);
  return {
    count,
    complete: knownTotal !== null || (lastLoaded !== undefined && lastLoaded.nextCursor === null),
    error: results.find((result) => result.error)?.error ?? null,
    row: (index: number): Transaction | undefined => byIndex.get(Math.floor(index / PAGE_SIZE))?.transactions[index % PAGE_SIZE],
    /** The rows from first to last are in view, and the row `kept` is kept out of view. */
    want: (first: number, last: number, kept: number) => {
      if (first !== wanted.first || last !== wanted.last || kept !== wanted.kept) setWanted({ first, last, kept });
    },
    description: (datasetTotal: number) =>
      knownTotal !== null
        ? `${countOf(knownTotal, 'transaction')}; scroll or drag anywhere`
        : lastLoaded === undefined
          ? 'Searching…'
          : `${formatCount(loadedCount)}${growable ? '+' : ''} found of ${formatCount(datasetTotal)} in the dataset${growable ? ' (more load as you scroll)' : ''}`,
  };
}

function capitalised(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

function isSortColumn(key: string): key is SortColumn {
  return (SORT_COLUMNS as readonly string[]).includes(key);
}

/** How each sort column's two directions read. */
const SORT_WORDS: Record<SortColumn, Record<ExplorerSort['direction'], string>> = {
  date: { ascending: 'oldest first', descending: 'newest first' },
  amount: { ascending: 'smallest first', descending: 'largest first' },
  description: { ascending: 'A to Z', descending: 'Z to A' },
};

/**
 * A column header that sorts the rows: the sorted column's turns its direction around, another
 * sorts by its column, ascending first, as a React Aria table's sort descriptor changes.
 */
function SortButton({
  label,
  column,
  sort,
  onSortChange,
}: {
  label: string;
  column: SortColumn;
  sort: ExplorerSort;
  onSortChange: (sort: ExplorerSort) => void;
}) {
  const sorted = sort.column === column;
  const next: ExplorerSort = { column, direction: sorted && sort.direction === 'ascending' ? 'descending' : 'ascending' };
  const words = SORT_WORDS[column];
  return (
    <button
      type="button"
      className={`sort${sorted ? ' sorted' : ''}`}
      title={
        sorted
          ? `${capitalised(words[sort.direction])}; choose to show ${words[next.direction]}`
          : `Choose to sort by ${label.toLowerCase()}, ${words.ascending}`
      }
      onClick={() => onSortChange(next)}
    >
      {label} <span aria-hidden="true">{sorted ? (sort.direction === 'ascending' ? '▲' : '▼') : '↕'}</span>
      {sorted && <span className="visually-hidden">, {words[sort.direction]}</span>}
    </button>
  );
}

export function TransactionsPage() {
  const { recon } = useSession();
  const datasets = useDatasets();
  // Until the datasets arrive, "no dataset" would be a wrong thing to tell a new user.
  const datasetsLoading = useSources().isPending;
  const [params, setParams] = useSearchParams();
  const datasetId = params.get('dataset') ?? datasets[0]?.id ?? '';
  const dataset = datasets.find((candidate) => candidate.id === datasetId);
  // The form holds what is being typed; `filters` what the table shows, applied on submit.
  const {
    register,
    control,
    handleSubmit,
    reset,
    getValues,
    formState: { errors },
  } = useForm<Filters>({ defaultValues: NO_FILTERS });
  const dateToAria = useFieldAria(errors.dateTo);
  // The filters, the order and the open details live in the address: a reload, back and forward
  // and a shared link show the same rows and the same panel (never one of other rows).
  const { filters, sort } = filtersOfParams(params);
  const filtersKey = JSON.stringify(filters);
  useEffect(() => reset(filters), [filtersKey]);
  const selectedId = params.get('transaction');
  const show = (next: Filters, nextSort: ExplorerSort) => setParams(paramsOfFilters(datasetId, next, nextSort));
  const select = (transaction: Transaction | null) => {
    const next = new URLSearchParams(params);
    if (transaction === null) next.delete('transaction');
    else next.set('transaction', transaction.id);
    // Opening a row's details does not add a step to the history: back goes to the filters before.
    setParams(next, { replace: true });
  };
  const phone = usePhone();
  const [exporting, setExporting] = useState<string | null>(null);
  const { query, problems } = queryOf(datasetId, filters, sort);

  // Without filters the dataset's count is the table's length, so any position can be reached at once.
  const unfiltered = query.search === undefined && query.from === undefined && query.to === undefined;
  const paged = usePagedRows(query, datasetId !== '' && problems.length === 0, unfiltered ? (dataset?.transactionCount ?? null) : null);
  const scroller = useRef<HTMLDivElement>(null);
  const rowWindow = useRowWindow(scroller, {
    count: paged.count,
    rowHeightPixels: phone ? CARD_HEIGHT_PIXELS : ROW_HEIGHT_PIXELS,
    // A few rows beyond the screen: enough for smooth scrolling, few enough that a jump asks for one page.
    overscanRows: 6,
    maximumScrollHeightPixels: maximumScrollHeightPixels(),
  });
  const shownColumns = filters.columns;
  const columnTypes = new Map((dataset?.columns ?? []).map((column) => [column.name, column.type as string]));
  // The table's columns: each one's header and its cell in a row.
  const columns: { key: string; label: string; numeric?: boolean; cell: (transaction: Transaction) => ReactNode }[] = [
    { key: 'date', label: 'Date', cell: (transaction) => <Timestamp value={transaction.timestamp} /> },
    {
      key: 'amount',
      label: 'Amount',
      numeric: true,
      cell: (transaction) => <Amount amount={field(transaction, 'amount')} currency={field(transaction, 'currency')} />,
    },
    {
      key: 'status',
      label: 'Status',
      cell: (transaction) => (
        <span className={`status status-${transaction.reconciliationStatus.replace(/ /g, '-')}`}>{statusInWords(transaction.reconciliationStatus)}</span>
      ),
    },
    { key: 'description', label: 'Description', cell: (transaction) => transaction.description },
    { key: 'reference', label: 'Reference', cell: (transaction) => field(transaction, 'reference') },
    ...shownColumns.map((name) => ({
      key: 'column',
      label: columnInWords(name),
      cell: (transaction: Transaction) => columnCell(transaction, name, columnTypes.get(name)),
    })),
  ];
  const grid = useGridNavigation({
    rowGroup: scroller,
    rowCount: paged.count,
    columnCount: columns.length,
    rowHeightPixels: phone ? CARD_HEIGHT_PIXELS : ROW_HEIGHT_PIXELS,
    scrollRowIntoView: rowWindow.scrollRowIntoView,
    onOpen: (index) => {
      const transaction = paged.row(index);
      if (transaction) select(transaction);
    },
  });
  const queryKey = JSON.stringify(query);
  useEffect(() => grid.reset(), [queryKey]);
  const { firstIndex, lastIndex } = rowWindow;
  const activeRow = grid.active.row;
  useEffect(() => paged.want(firstIndex, lastIndex, activeRow), [firstIndex, lastIndex, activeRow, paged.count]);
  // A User Timing mark each time the rows on screen all have their data again (after a load or a
  // jump): what the browser benchmark reads, and what a browser's own performance tools show.
  const allShown = rowWindow.rows.length > 0 && rowWindow.rows.every((item) => item.index >= paged.count || paged.row(item.index) !== undefined);
  const wasShown = useRef(false);
  useEffect(() => {
    if (allShown && !wasShown.current) performance.mark('explorer:rows-shown');
    wasShown.current = allShown;
  }, [allShown]);

  // The columns a person may add to the table: the dataset's own, and the bank's reference (a
  // standard column, but one the table does not show unless asked).
  const customColumns = (dataset?.columns ?? []).filter((column) => !column.standard || column.name === 'bankReference');
  // Date, amount, status, description (which takes the room left), reference, then the chosen columns.
  // The date's column holds a booking's time with its zone too ("Oct 31, 2026, 11:30 PM UTC").
  const columnWidthsRem = [13, 10, 9, 14, 9, ...shownColumns.map(() => 9)];
  const gridColumns = { gridTemplateColumns: columnWidthsRem.map((width, at) => (at === 3 ? `minmax(${width}rem, 1fr)` : `${width}rem`)).join(' ') };
  // The table's narrowest width: its columns' least widths, the gaps between them and the padding
  // at either end (see .grid-row). A narrower screen scrolls the table sideways inside its card.
  const gridMinimumWidthRem = columnWidthsRem.reduce((sum, width) => sum + width, 0) + 0.75 * (columnWidthsRem.length - 1) + 2;

  async function exportCsv() {
    const header = ['id', 'time', 'amount', 'currency', 'status', 'description', 'reference', ...shownColumns];
    // The amount and the number columns stay numbers; every other cell is text no spreadsheet runs.
    const numberColumns = new Set(customColumns.filter((column) => column.type === 'number' || column.type === 'money').map((column) => column.name));
    const kinds: CellKind[] = [
      'text',
      'text',
      'number',
      'text',
      'text',
      'text',
      'text',
      ...shownColumns.map((name): CellKind => (numberColumns.has(name) ? 'number' : 'text')),
    ];
    const lines = [header.map((name) => csvField(name)).join(',')];
    let count = 0;
    for await (const transaction of recon.transactions.list(query, { pageSize: PAGE_SIZE })) {
      lines.push(
        [
          transaction.id,
          isoTimestamp(transaction.timestamp),
          field(transaction, 'amount'),
          field(transaction, 'currency'),
          transaction.reconciliationStatus,
          transaction.description ?? '',
          field(transaction, 'reference'),
          ...shownColumns.map((name) => columnText(transaction, name, columnTypes.get(name))),
        ]
          .map((value, at) => csvField(value, kinds[at]))
          .join(','),
      );
      count += 1;
      if (count % 5000 === 0) setExporting(`${formatCount(count)} rows read…`);
    }
    saveFile(new Blob([lines.join('\r\n') + '\r\n'], { type: 'text/csv' }), `${dataset?.name ?? 'transactions'}.csv`);
    setExporting(`${formatCount(count)} rows exported.`);
  }

  return (
    <div className="explorer">
      <section className="card">
        <h1>Transactions</h1>
        <form className="filters" noValidate onSubmit={handleSubmit((values) => show(values, sort))}>
          <DatasetSelect label="Dataset" value={datasetId} onChange={(id) => setParams({ dataset: id })} datasets={datasets} />
          <Field label="Description contains" error={errors.text}>
            {(aria) => <input {...aria} {...register('text')} />}
          </Field>
          <Field label="Amount from" error={errors.amountFrom}>
            {(aria) => <input inputMode="decimal" {...aria} {...register('amountFrom', amountRules('Amount from'))} />}
          </Field>
          <Field label="Amount to" error={errors.amountTo}>
            {(aria) => <input inputMode="decimal" {...aria} {...register('amountTo', amountRules('Amount to'))} />}
          </Field>
          <Field label="From" error={errors.dateFrom}>
            {(aria) => <input type="date" {...aria} {...register('dateFrom')} />}
          </Field>
          <div className="form-field">
            <label>
              To
              <input
                type="date"
                {...dateToAria.aria}
                {...register('dateTo', {
                  validate: (value) => value === '' || getValues('dateFrom') === '' || value >= getValues('dateFrom') || 'To: choose a day on or after From.',
                })}
              />
            </label>
            <FieldError id={dateToAria.errorId} error={errors.dateTo} />
          </div>
          <Controller
            control={control}
            name="statuses"
            render={({ field: { value, onChange } }) => (
              <ChipSet legend="Status" options={RECONCILIATION_STATUSES} value={value} onChange={onChange} labelOf={statusInWords} />
            )}
          />
          {customColumns.length > 0 && (
            <Controller
              control={control}
              name="columns"
              render={({ field: { value, onChange } }) => (
                <ChipSet legend="Columns" options={customColumns.map((column) => column.name)} value={value} onChange={onChange} labelOf={columnInWords} />
              )}
            />
          )}
          <div className="buttons">
            <button type="submit">Apply</button>
            <button
              type="button"
              className="secondary"
              onClick={() => {
                reset(NO_FILTERS);
                show(NO_FILTERS, sort);
              }}
            >
              Clear
            </button>
            <button
              type="button"
              className="secondary"
              disabled={exporting?.endsWith('…') === true}
              onClick={() => {
                setExporting('Starting…');
                exportCsv().catch((error: unknown) => setExporting(messageOf(error)));
              }}
            >
              Export CSV
            </button>
            {exporting && <span role="status">{exporting}</span>}
          </div>
        </form>
        {problems.map((problem) => (
          <p className="error" role="alert" key={problem}>
            {problem}
          </p>
        ))}
        <ErrorMessage error={paged.error} />
        <p className="hint" role="status">
          {dataset ? paged.description(dataset.transactionCount) : datasetsLoading ? 'Loading datasets…' : 'No dataset yet: create one under Datasets.'}
        </p>
      </section>
      <div className="explorer-body">
        <div className="card grid-card">
          <div
            role="grid"
            aria-label="Transactions"
            aria-rowcount={paged.complete ? paged.count + 1 : -1}
            className={phone ? 'stacked' : undefined}
            style={phone ? undefined : { minWidth: `${gridMinimumWidthRem}rem` }}
          >
            <div role="rowgroup">
              <div className="grid-header" role="row" aria-rowindex={1} style={phone ? undefined : gridColumns}>
                {columns.map((column, at) => (
                  <span
                    role="columnheader"
                    className={column.numeric ? 'number' : undefined}
                    data-column={column.key}
                    data-sortable={isSortColumn(column.key) ? '' : undefined}
                    key={at}
                    aria-sort={column.key === sort.column ? sort.direction : undefined}
                  >
                    {isSortColumn(column.key) ? (
                      <SortButton label={column.label} column={column.key} sort={sort} onSortChange={(next) => show(filters, next)} />
                    ) : (
                      column.label
                    )}
                  </span>
                ))}
              </div>
            </div>
            <div
              ref={scroller}
              className="grid-scroll"
              role="rowgroup"
              aria-label="Rows: arrow keys move, Enter shows the details"
              onKeyDown={grid.onKeyDown}
              onFocus={grid.onFocus}
            >
              <div role="presentation" style={{ height: rowWindow.scrollHeightPixels, position: 'relative' }}>
                {grid.withActiveRow(rowWindow.rows).map((item) => {
                  const transaction = paged.row(item.index);
                  return (
                    <div
                      key={item.index}
                      role="row"
                      aria-rowindex={item.index + 2}
                      data-row-index={item.index}
                      className={`grid-row${transaction && selectedId === transaction.id ? ' selected' : ''}`}
                      style={{
                        ...(phone ? {} : gridColumns),
                        transform: `translateY(${item.topPixels}px)`,
                        height: phone ? CARD_HEIGHT_PIXELS : ROW_HEIGHT_PIXELS,
                      }}
                      tabIndex={grid.rowTabIndex(item.index)}
                      onClick={() => transaction && select(transaction)}
                    >
                      {transaction ? (
                        columns.map((column, at) => (
                          <span
                            role="gridcell"
                            key={at}
                            data-column-index={at}
                            data-column={column.key}
                            tabIndex={grid.cellTabIndex(item.index, at)}
                            className={column.numeric ? 'number' : undefined}
                            title={column.key === 'description' || column.key === 'reference' ? String(column.cell(transaction) ?? '') || undefined : undefined}
                          >
                            {column.cell(transaction)}
                          </span>
                        ))
                      ) : (
                        <span role="gridcell" className="hint">
                          Loading…
                        </span>
                      )}
                    </div>
                  );
                })}
              </div>
            </div>
          </div>
        </div>
        {selectedId !== null && (
          <TransactionPanel
            key={selectedId}
            transactionId={selectedId}
            columns={(dataset?.columns ?? []).map((column) => ({ name: column.name, type: column.type as string }))}
            onClose={() => select(null)}
          />
        )}
      </div>
    </div>
  );
}
