import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import { Link } from 'react-router';
import { useAddress } from '../address.ts';
import { ListBox, ListBoxItem, ListLayout, Virtualizer, type Key, type Selection } from 'react-aria-components';
import { LedgerReconError, type Transaction } from '@ledger-recon/sdk';
import { Amount } from '../components/Amount.tsx';
import { DatasetSelect, useDatasets, type NamedDataset } from '../components/DatasetSelect.tsx';
import { ConfirmDialog, MarkDialog, type Mark } from '../components/MarkDialog.tsx';
import { ErrorMessage } from '../components/ErrorMessage.tsx';
import { Evidence } from '../components/Evidence.tsx';
import { absolute, allocate, subtract, sum } from '../decimal.ts';
import { formatAmount } from '../format.ts';
import { Timestamp } from '../components/When.tsx';
import { useSession } from '../session.tsx';
import { statusInWords } from '../transaction-words.ts';

/** Rows per side: the open transactions a person works through, oldest first. */
const SIDE_LIMIT = 500;
/**
 * The height of an option in the lists (see .pick-option) as the virtualized lists first guess
 * it; they measure each option drawn, since a selected one shows its whole description.
 */
const OPTION_HEIGHT_PIXELS = 36;

/**
 * The datasets the workspace opens with when none is chosen: a bank dataset on the left and a
 * ledger dataset on the right. A dataset is a bank's when it has a bank account: one set by hand,
 * or by the first statement import (camt.05x, MT940, BAI2, OFX) into it. Every other dataset (fed
 * by CSV, the API or a settlement report) counts as a ledger. Without one of either, the first
 * dataset not already on the other side stands in.
 */
export function defaultSides(datasets: NamedDataset[]): { left: string; right: string } {
  const isBank = (dataset: NamedDataset) => dataset.accountId !== null && dataset.accountId !== '';
  const left = datasets.find(isBank) ?? datasets[0];
  const right = datasets.find((dataset) => !isBank(dataset) && dataset !== left) ?? datasets.find((dataset) => dataset !== left);
  return { left: left?.id ?? '', right: right?.id ?? '' };
}

/** The signed amount of a transaction still to match: its open amount with the transaction's sign. */
function signedOpenOf(transaction: Transaction): string {
  const open = openAmountOf(transaction);
  return amountOf(transaction).startsWith('-') ? subtract('0', open) : open;
}

/** The one currency of some transactions, or none when they have several or none. */
function currencyOfAll(transactions: Transaction[]): string | null {
  const currencies = new Set(transactions.map(currencyOf).filter((currency) => currency !== ''));
  return currencies.size === 1 ? [...currencies][0]! : null;
}

function amountOf(transaction: Transaction): string {
  return String((transaction as Record<string, unknown>).amount ?? '0');
}

/** What is left to match of a transaction: its amount less what its matches allocate. */
function openAmountOf(transaction: Transaction): string {
  const allocated = sum([...transaction.incomingMatches, ...transaction.outgoingMatches].map((match) => match.amount ?? '0'));
  return subtract(absolute(amountOf(transaction)), allocated);
}

/** What a side lists: its open transactions (to match), or those marked informative or out of scope (to clear a mark). */
export type Shown = 'open' | 'marked';

/** Whether a transaction carries a status a person set (and can clear). */
function isMarked(transaction: Transaction): boolean {
  return transaction.reconciliationStatus === 'informative' || transaction.reconciliationStatus === 'out of scope';
}

function useOpenTransactions(datasetId: string, text: string, show: Shown) {
  const { recon } = useSession();
  return useQuery({
    queryKey: ['workspace', datasetId, text, show],
    enabled: datasetId !== '',
    queryFn: async () => {
      const page = await recon.transactions.page({
        datasetId,
        limit: SIDE_LIMIT,
        search: [
          {
            path: 'reconciliationStatus',
            search: { type: 'string', value: show === 'open' ? ['none', 'partial'] : ['informative', 'out of scope'], exact: true },
          },
          ...(text.trim() ? [{ path: 'description', search: { type: 'string' as const, value: text.trim() } }] : []),
        ],
        columns: [{ path: 'amount' }, { path: 'currency' }, { path: 'reference' }],
      });
      return page.transactions;
    },
  });
}

function currencyOf(transaction: Transaction): string {
  return String((transaction as Record<string, unknown>).currency ?? '');
}

/**
 * One side of the workspace: its dataset, a filter by description, and its open transactions as a
 * listbox of React Aria's, which gives the list one tab stop, arrow keys, Space to toggle, Shift
 * with an arrow or a click to extend the selection, and Ctrl or Cmd with A to select all.
 */
function Side({
  title,
  datasetId,
  onDataset,
  text,
  onText,
  show,
  onShow,
  selected,
  onSelect,
  onFocus,
}: {
  title: string;
  datasetId: string;
  onDataset: (id: string) => void;
  /** The Find field's text, which filters the list by description. */
  text: string;
  onText: (text: string) => void;
  show: Shown;
  onShow: (show: Shown) => void;
  /** The transactions selected on this side, including any that the Find field hides now. */
  selected: Transaction[];
  onSelect: (transactions: Transaction[]) => void;
  onFocus: (transaction: Transaction) => void;
}) {
  const rows = useOpenTransactions(datasetId, text, show);
  const datasets = useDatasets();
  const shown = rows.data ?? [];
  // The list's own set of the keys it last selected, while it still holds what is selected: it also
  // remembers where a range began (its anchor), without which Shift would extend from nowhere.
  const listSelection = useRef<Set<Key> | null>(null);
  const selectedIds = selected.map((transaction) => transaction.id);
  const previous = listSelection.current;
  const selectedKeys =
    previous !== null && previous.size === selectedIds.length && selectedIds.every((id) => previous.has(id)) ? previous : new Set<Key>(selectedIds);
  const select = (keys: Selection) => {
    listSelection.current = keys === 'all' ? null : keys;
    const chosen = keys === 'all' ? shown : shown.filter((transaction) => keys.has(transaction.id));
    // A selection hidden by the Find field stays selected: finding more is not unselecting.
    const shownIds = new Set(shown.map((transaction) => transaction.id));
    onSelect([...selected.filter((transaction) => !shownIds.has(transaction.id)), ...chosen]);
  };
  return (
    <section className="card side" aria-label={`${title} side`}>
      <div className="side-head">
        <DatasetSelect label={title} value={datasetId} onChange={onDataset} datasets={datasets} placeholder="Choose a dataset" />
        <label>
          Find
          <input type="search" value={text} onChange={(event) => onText(event.target.value)} placeholder="description" />
        </label>
        <label className="show-marked">
          <input type="checkbox" checked={show === 'marked'} onChange={(event) => onShow(event.target.checked ? 'marked' : 'open')} />
          Show the marked ones (informative, out of scope)
        </label>
      </div>
      <ErrorMessage error={rows.error} />
      <p className="hint" role="status">
        {rows.data
          ? `${shown.length}${shown.length === SIDE_LIMIT ? '+' : ''} ${show === 'open' ? 'open' : 'marked'} · ${selected.length} selected · total ${formatAmount(sum(selected.map(openAmountOf)), currencyOfAll(selected))}`
          : ''}
      </p>
      {/* Only the options in view are drawn: with every one of 500 drawn, each change of the
          selection redrew them all, a quarter of a second a keystroke. */}
      <Virtualizer layout={ListLayout} layoutOptions={{ estimatedRowSize: OPTION_HEIGHT_PIXELS }}>
        <ListBox
          aria-label={`${title} transactions`}
          className="pick-list"
          selectionMode="multiple"
          // Escape is the workspace's: it clears both sides, not only the list it is pressed in.
          escapeKeyBehavior="none"
          items={shown}
          selectedKeys={selectedKeys}
          onSelectionChange={select}
        >
          {(transaction) => (
            <ListBoxItem id={transaction.id} textValue={transaction.description ?? ''} className="pick-option" onFocus={() => onFocus(transaction)}>
              <span className="pick-date">
                <Timestamp value={transaction.timestamp} />
              </span>
              <span className="pick-text" title={transaction.description ?? undefined}>
                {transaction.description}
              </span>
              <Amount className="number" amount={amountOf(transaction)} currency={currencyOf(transaction)} />
              <span className={`status status-${transaction.reconciliationStatus.replace(/ /g, '-')}`}>
                {statusInWords(transaction.reconciliationStatus)}
                {transaction.reconciliationStatus === 'partial' && (
                  <span className="status-open">{formatAmount(openAmountOf(transaction), currencyOf(transaction) || null)} open</span>
                )}
              </span>
            </ListBoxItem>
          )}
        </ListBox>
      </Virtualizer>
    </section>
  );
}

/** A transaction as evidence sentences name it. */
function forEvidence(transaction: Transaction) {
  return {
    id: transaction.id,
    timestamp: transaction.timestamp,
    description: transaction.description,
    reference: typeof transaction.reference === 'string' ? transaction.reference : null,
    amount: amountOf(transaction),
    currency: currencyOf(transaction),
  };
}

function Candidates({ transaction }: { transaction: Transaction }) {
  const { recon } = useSession();
  // Each candidate with its transaction, to name it by date, description and amount rather than by id.
  const candidates = useQuery({
    queryKey: ['candidates', transaction.id],
    queryFn: async () => {
      const listed = await recon.transactions.candidates(transaction.id, { limit: 5 });
      return Promise.all(
        listed.map(async (candidate) => ({
          candidate,
          counterpart: await recon.transactions.get(candidate.transactionId, { columns: ['amount', 'currency', 'reference'] }).catch(() => null),
        })),
      );
    },
  });
  return (
    <section className="card" aria-label="Candidates">
      <h2>Candidates for “{transaction.description}”</h2>
      {candidates.isPending && <p role="status">Asking the rules…</p>}
      <ErrorMessage error={candidates.error} />
      {candidates.data?.length === 0 && <p className="hint">No rule proposes a counterpart.</p>}
      <ol>
        {candidates.data?.map(({ candidate, counterpart }) => {
          const [origin, target] = candidate.side === 'origin' ? [counterpart, transaction] : [transaction, counterpart];
          return (
            <li key={`${candidate.ruleId}-${candidate.transactionId}`}>
              {counterpart ? (
                <>
                  <Timestamp value={counterpart.timestamp} /> · {counterpart.description ?? 'no description'} ·{' '}
                  <Amount amount={amountOf(counterpart)} currency={currencyOf(counterpart)} />
                </>
              ) : (
                'A transaction no longer there'
              )}{' '}
              by rule “{candidate.ruleName}”
              <Evidence
                evidence={candidate.evidence}
                context={{
                  transactions: [transaction, ...(counterpart ? [counterpart] : [])].map(forEvidence),
                  pair: origin && target ? { originId: origin.id, targetId: target.id } : null,
                }}
              />
            </li>
          );
        })}
      </ol>
    </section>
  );
}

/** What became of a transaction since it was selected, in words; null when nothing did. */
function changeInWords(before: Transaction, now: Transaction | null): string | null {
  const name = `“${before.description || 'a transaction without description'}”`;
  if (now === null) return `${name} is no longer there`;
  if (now.reconciliationStatus === before.reconciliationStatus && openAmountOf(now) === openAmountOf(before)) return null;
  switch (now.reconciliationStatus) {
    case 'full':
      return `${name} was matched in full by someone else`;
    case 'partial':
      return `${name} was partly matched by someone else (${formatAmount(openAmountOf(now), currencyOf(now) || null)} still open)`;
    case 'informative':
    case 'out of scope':
      return `${name} was marked ${now.reconciliationStatus} by someone else`;
    default:
      return `${name} was unmatched by someone else`;
  }
}

/** "a", "a and b", "a, b and c". */
function listInWords(parts: string[]): string {
  return parts.length <= 1 ? (parts[0] ?? '') : `${parts.slice(0, -1).join(', ')} and ${parts[parts.length - 1]}`;
}

type Outcome = { kind: 'matched'; groupId: string; links: number } | { kind: 'conflict'; changed: string[]; stillOpen: Transaction[] };

export function MatchingPage() {
  const { session, recon } = useSession();
  const client = useQueryClient();
  const datasets = useDatasets();
  // The datasets and the Find fields live in the address: a reload, Back and a shared link
  // open the same workspace. Without a choice, a bank dataset faces a ledger dataset.
  // A chosen dataset is kept even when it is "none": choosing none is a choice, not the default.
  const [params, setParam] = useAddress(['left', 'right']);
  const defaults = defaultSides(datasets);
  const leftId = params.get('left') ?? defaults.left;
  const rightId = params.get('right') ?? defaults.right;
  const [picked, setPicked] = useState<Map<string, { transaction: Transaction; side: 'left' | 'right' }>>(new Map());
  const [focused, setFocused] = useState<Transaction | null>(null);
  const [message, setMessage] = useState<{ text: string; tone: 'success' | 'error' } | null>(null);
  // The group the last match made, opened from the message (to read it, or unmatch it whole).
  const [matchedGroup, setMatchedGroup] = useState<string | null>(null);
  // The transactions the last mark was set on, which "Clear the mark" returns to open.
  const [marked, setMarked] = useState<Transaction[]>([]);
  // The mark whose reason is being asked, and whether matching money in with money out awaits a yes.
  const [asking, setAsking] = useState<Mark | null>(null);
  const [confirmingSigns, setConfirmingSigns] = useState(false);
  const canWrite = session.user.role !== 'View-only';

  const left = [...picked.values()].filter((entry) => entry.side === 'left').map((entry) => entry.transaction);
  const right = [...picked.values()].filter((entry) => entry.side === 'right').map((entry) => entry.transaction);
  const leftTotal = sum(left.map(openAmountOf));
  const rightTotal = sum(right.map(openAmountOf));
  const difference = subtract(leftTotal, rightTotal);
  // The totals in their currency, and the difference in the one both sides share.
  const leftCurrency = currencyOfAll(left);
  const rightCurrency = currencyOfAll(right);
  const differenceCurrency = left.length === 0 ? rightCurrency : right.length === 0 ? leftCurrency : leftCurrency === rightCurrency ? leftCurrency : null;

  const refresh = () => {
    void client.invalidateQueries({ queryKey: ['workspace'] });
    void client.invalidateQueries({ queryKey: ['transactions'] });
    void client.invalidateQueries({ queryKey: ['sources'] });
  };
  const done = (text: string) => {
    setPicked(new Map());
    setMessage({ text, tone: 'success' });
    refresh();
  };
  const match = useMutation({
    mutationFn: async (): Promise<Outcome> => {
      const chosen = [...left, ...right];
      try {
        const created = await recon.matches.create({
          links: allocate(
            left.map((t) => ({ id: t.id, open: openAmountOf(t) })),
            right.map((t) => ({ id: t.id, open: openAmountOf(t) })),
          ),
        });
        return { kind: 'matched', groupId: created.groupId, links: created.matches.length };
      } catch (error) {
        // Someone else changed one of the rows meanwhile: say which and how, from the rows as they are now.
        if (!(error instanceof LedgerReconError) || error.code !== 409) throw error;
        const now = await Promise.all(
          chosen.map((transaction) => recon.transactions.get(transaction.id, { columns: ['amount', 'currency', 'reference'] }).catch(() => null)),
        );
        const changed = chosen.flatMap((transaction, at) => changeInWords(transaction, now[at] ?? null) ?? []);
        if (changed.length === 0) throw error;
        const stillOpen = now.filter(
          (transaction): transaction is Transaction =>
            transaction !== null && (transaction.reconciliationStatus === 'none' || transaction.reconciliationStatus === 'partial'),
        );
        return { kind: 'conflict', changed, stillOpen };
      }
    },
    onSuccess: (outcome) => {
      if (outcome.kind === 'matched') {
        done(`Matched: ${outcome.links} link${outcome.links === 1 ? '' : 's'} in one group.`);
        setMatchedGroup(outcome.groupId);
        return;
      }
      // What is still open stays selected (as it is now); the rest leaves the selection and the lists.
      const sides = new Map([...picked].map(([id, entry]) => [id, entry.side]));
      setPicked(new Map(outcome.stillOpen.map((transaction) => [transaction.id, { transaction, side: sides.get(transaction.id) ?? 'left' }])));
      setMessage({
        text:
          `Nothing was matched: meanwhile ${listInWords(outcome.changed)}. ` +
          'The lists are refreshed and show what is open now; check the selection and match again.',
        tone: 'error',
      });
      refresh();
    },
  });
  const classify = useMutation({
    mutationFn: async ({ status, note }: { status: Mark; note: string | null }) => {
      const chosen = [...left, ...right];
      for (const transaction of chosen)
        await recon.transactions.setStatus(transaction.id, { reconciliationStatus: status, ...(note === null ? {} : { note }) });
      return { status, chosen };
    },
    onSuccess: ({ status, chosen }) => {
      setAsking(null);
      done(`Marked ${status}.`);
      setMarked(chosen);
    },
    onError: () => setAsking(null),
  });
  const clearMark = useMutation({
    mutationFn: async (transactions: Transaction[]) => {
      for (const transaction of transactions) await recon.transactions.setStatus(transaction.id, { reconciliationStatus: 'none' });
      return transactions.length;
    },
    onSuccess: (count) => {
      setMarked([]);
      done(count === 1 ? 'The mark is cleared: the transaction is open again.' : `The mark is cleared: ${count} transactions are open again.`);
    },
  });
  const busy = match.isPending || classify.isPending || clearMark.isPending;
  // Marked transactions (listed with Show) can only have their mark cleared.
  const selectedMarked = [...left, ...right].filter(isMarked);
  const canMatch = canWrite && left.length > 0 && right.length > 0 && selectedMarked.length === 0 && !busy;
  const canMark = canWrite && picked.size > 0 && selectedMarked.length === 0 && !busy;

  /** A new action begins: what the last one said is no longer about what is on the screen. */
  const begin = () => {
    setMessage(null);
    setMatchedGroup(null);
    setMarked([]);
    match.reset();
    classify.reset();
    clearMark.reset();
  };
  // Money in on one side and money out on the other is rarely one payment: it is asked about first.
  const leftSigned = sum(left.map(signedOpenOf));
  const rightSigned = sum(right.map(signedOpenOf));
  const oppositeSigns =
    (leftSigned.startsWith('-') && !/^0(\.0+)?$/.test(rightSigned) && !rightSigned.startsWith('-')) ||
    (rightSigned.startsWith('-') && !/^0(\.0+)?$/.test(leftSigned) && !leftSigned.startsWith('-'));
  const [moneyIn, moneyOut] = leftSigned.startsWith('-') ? [rightSigned, leftSigned] : [leftSigned, rightSigned];
  const [inSide, outSide] = leftSigned.startsWith('-') ? [right, left] : [left, right];
  const requestMatch = () => {
    if (!canMatch) return;
    begin();
    if (oppositeSigns) setConfirmingSigns(true);
    else match.mutate();
  };
  const requestMark = (mark: Mark) => {
    if (!canMark) return;
    begin();
    setAsking(mark);
  };
  const dialogOpen = asking !== null || confirmingSigns;

  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      // A dialog's keys are its own (Escape closes it, and does not clear the selection).
      if (dialogOpen) return;
      const target = event.target;
      if (target instanceof HTMLInputElement || target instanceof HTMLSelectElement || target instanceof HTMLTextAreaElement) return;
      if (event.ctrlKey || event.metaKey || event.altKey) return;
      if (event.key === 'm') requestMatch();
      else if (event.key === 'i') requestMark('informative');
      else if (event.key === 'o') requestMark('out of scope');
      else if (event.key === 'Escape') setPicked(new Map());
      // In a list, a letter is a command of the workspace or nothing, and never starts the list's
      // type-to-find: typing "invoice" to find a row would also mark the selection informative.
      // The Find field above each list finds by description instead.
      if (event.key.length === 1 && event.key !== ' ' && target instanceof Element && target.closest('.pick-list') !== null) event.stopPropagation();
    };
    // The capture phase runs before the lists' own handlers, so that the letters above reach the
    // workspace and not the list.
    window.addEventListener('keydown', onKey, { capture: true });
    return () => window.removeEventListener('keydown', onKey, { capture: true });
  });

  const select = (side: 'left' | 'right') => (transactions: Transaction[]) => {
    const next = new Map([...picked].filter(([, entry]) => entry.side !== side));
    for (const transaction of transactions) next.set(transaction.id, { transaction, side });
    setPicked(next);
    setMessage(null);
    setMatchedGroup(null);
    setMarked([]);
  };
  const chosenCount = left.length + right.length;

  return (
    <>
      <section className="card">
        <h1>Matching</h1>
        <p className="hint">
          Open transactions of two datasets, oldest first; to clear a mark, show the marked ones. Select any number on each side; the totals and the difference
          follow. In a list: arrows move, <kbd>Space</kbd> selects, <kbd>Shift</kbd> with an arrow or a click selects a range, <kbd>Ctrl</kbd>+<kbd>A</kbd>{' '}
          selects all. Anywhere: <kbd>m</kbd> match, <kbd>i</kbd> informative, <kbd>o</kbd> out of scope, <kbd>Esc</kbd> clear.
        </p>
        <div className="totals" role="status" aria-live="polite">
          <span>Left {formatAmount(leftTotal, leftCurrency)}</span>
          <span>Right {formatAmount(rightTotal, rightCurrency)}</span>
          <strong className={/^-?0(\.0+)?$/.test(difference) ? 'success' : 'error'}>Difference {formatAmount(difference, differenceCurrency)}</strong>
        </div>
        {canWrite && (
          <div className="buttons">
            <button type="button" disabled={!canMatch} onClick={requestMatch}>
              {match.isPending ? 'Matching…' : 'Match selected'}
            </button>
            <button type="button" className="secondary" disabled={!canMark} onClick={() => requestMark('informative')}>
              Mark informative
            </button>
            <button type="button" className="secondary" disabled={!canMark} onClick={() => requestMark('out of scope')}>
              Mark out of scope
            </button>
            {selectedMarked.length > 0 && (
              <button
                type="button"
                className="secondary"
                disabled={busy}
                onClick={() => {
                  begin();
                  clearMark.mutate(selectedMarked);
                }}
              >
                {clearMark.isPending ? 'Clearing…' : 'Clear the mark'}
              </button>
            )}
            <button type="button" className="secondary" disabled={picked.size === 0 || busy} onClick={() => setPicked(new Map())}>
              Clear selection
            </button>
          </div>
        )}
        {message && (
          <p className={message.tone} role={message.tone === 'error' ? 'alert' : 'status'}>
            {message.text}
            {matchedGroup !== null && (
              <>
                {' '}
                <Link to={`/match-group?group=${encodeURIComponent(matchedGroup)}`}>See the match</Link>
              </>
            )}
            {marked.length > 0 && canWrite && (
              <>
                {' '}
                <button type="button" className="secondary small" disabled={busy} onClick={() => clearMark.mutate(marked)}>
                  {clearMark.isPending ? 'Clearing…' : 'Clear the mark'}
                </button>
              </>
            )}
          </p>
        )}
        <ErrorMessage error={match.error ?? classify.error ?? clearMark.error} />
      </section>
      <div className="workspace">
        {(['left', 'right'] as const).map((side) => (
          <Side
            key={side}
            title={side === 'left' ? 'Left' : 'Right'}
            datasetId={side === 'left' ? leftId : rightId}
            onDataset={(id) => setParam(side, id, false)}
            text={params.get(`${side}Find`) ?? ''}
            onText={(text) => setParam(`${side}Find`, text, true)}
            show={params.get(`${side}Show`) === 'marked' ? 'marked' : 'open'}
            onShow={(show) => setParam(`${side}Show`, show === 'open' ? '' : show, false)}
            selected={side === 'left' ? left : right}
            onSelect={select(side)}
            onFocus={setFocused}
          />
        ))}
      </div>
      {focused && <Candidates transaction={focused} />}
      {asking && (
        <MarkDialog
          mark={asking}
          subject={chosenCount === 1 ? `“${(left[0] ?? right[0])?.description || 'this transaction'}”` : `${chosenCount} transactions`}
          pending={classify.isPending}
          onConfirm={(note) => classify.mutate({ status: asking, note })}
          onCancel={() => setAsking(null)}
        />
      )}
      {confirmingSigns && (
        <ConfirmDialog
          title="Money in with money out?"
          question={`You are matching money in (${formatAmount(moneyIn, currencyOfAll(inSide))}) with money out (${formatAmount(moneyOut, currencyOfAll(outSide))}). Match anyway?`}
          confirm="Match anyway"
          onConfirm={() => {
            setConfirmingSigns(false);
            match.mutate();
          }}
          onCancel={() => setConfirmingSigns(false)}
        />
      )}
    </>
  );
}
