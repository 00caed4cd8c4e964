import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import { Link } from 'react-router';
import { ListBox, ListBoxItem, ListLayout, Virtualizer, type Key, type Selection } from 'react-aria-components';
import type { Transaction } from '@ledger-recon/sdk';
import { Amount } from '../components/Amount.tsx';
import { DatasetSelect, useDatasets } from '../components/DatasetSelect.tsx';
import { ErrorMessage } from '../components/ErrorMessage.tsx';
import { Evidence } from '../components/Evidence.tsx';
import { absolute, allocate, subtract, sum } from '../decimal.ts';
import { formatAmount } from '../format.ts';
import { Timestamp } from '../components/When.tsx';
import { useSession } from '../session.tsx';

/** Rows per side: the open transactions a person works through, oldest first. */
const SIDE_LIMIT = 500;
/** The height of an option in the lists (see .pick-option), which the virtualized lists place by. */
const OPTION_HEIGHT_PIXELS = 36;

function amountOf(transaction: Transaction): string {
  return String((transaction as Record<string, unknown>).amount ?? '0');
}

/** What is left to match of a transaction: its amount less what its matches allocate. */
function openAmountOf(transaction: Transaction): string {
  const allocated = sum([...transaction.incomingMatches, ...transaction.outgoingMatches].map((match) => match.amount ?? '0'));
  return subtract(absolute(amountOf(transaction)), allocated);
}

function useOpenTransactions(datasetId: string, text: string) {
  const { recon } = useSession();
  return useQuery({
    queryKey: ['workspace', datasetId, text],
    enabled: datasetId !== '',
    queryFn: async () => {
      const page = await recon.transactions.page({
        datasetId,
        limit: SIDE_LIMIT,
        search: [
          { path: 'reconciliationStatus', search: { type: 'string', value: ['none', 'partial'], exact: true } },
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
  selected,
  onSelect,
  onFocus,
}: {
  title: string;
  datasetId: string;
  onDataset: (id: string) => void;
  /** The transactions selected on this side, including any that the Find field hides now. */
  selected: Transaction[];
  onSelect: (transactions: Transaction[]) => void;
  onFocus: (transaction: Transaction) => void;
}) {
  const [text, setText] = useState('');
  const rows = useOpenTransactions(datasetId, text);
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
          <input type="search" value={text} onChange={(event) => setText(event.target.value)} placeholder="description" />
        </label>
      </div>
      <ErrorMessage error={rows.error} />
      <p className="hint" role="status">
        {rows.data
          ? `${shown.length}${shown.length === SIDE_LIMIT ? '+' : ''} open · ${selected.length} selected · total ${formatAmount(sum(selected.map(openAmountOf)))}`
          : ''}
      </p>
      {/* Only the options in view are drawn: with every one of 500 drawn, each change of the
          selection redrew them all, a quarter of a second a keystroke. */}
      <Virtualizer layout={ListLayout} layoutOptions={{ rowSize: OPTION_HEIGHT_PIXELS }}>
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
              <span className="pick-text">{transaction.description}</span>
              <Amount className="number" amount={amountOf(transaction)} currency={currencyOf(transaction)} />
              <span className={`status status-${transaction.reconciliationStatus}`}>
                {transaction.reconciliationStatus === 'partial' ? `open ${formatAmount(openAmountOf(transaction))}` : 'open'}
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

export function MatchingPage() {
  const { session, recon } = useSession();
  const client = useQueryClient();
  const datasets = useDatasets();
  const [leftId, setLeftId] = useState('');
  const [rightId, setRightId] = useState('');
  useEffect(() => {
    if (leftId === '' && datasets[0]) setLeftId(datasets[0].id);
    if (rightId === '' && datasets[1]) setRightId(datasets[1].id);
  }, [datasets]);
  const [picked, setPicked] = useState<Map<string, { transaction: Transaction; side: 'left' | 'right' }>>(new Map());
  const [focused, setFocused] = useState<Transaction | null>(null);
  const [message, setMessage] = useState<string | null>(null);
  // The group the last match made, opened from the message (to read it, or unmatch it whole).
  const [matchedGroup, setMatchedGroup] = useState<string | null>(null);
  const canWrite = session.user.role !== 'View-only';

  const left = [...picked.values()].filter((entry) => entry.side === 'left').map((entry) => entry.transaction);
  const right = [...picked.values()].filter((entry) => entry.side === 'right').map((entry) => entry.transaction);
  const leftTotal = sum(left.map(openAmountOf));
  const rightTotal = sum(right.map(openAmountOf));
  const difference = subtract(leftTotal, rightTotal);

  const done = (text: string) => {
    setPicked(new Map());
    setMessage(text);
    setMatchedGroup(null);
    void client.invalidateQueries({ queryKey: ['workspace'] });
    void client.invalidateQueries({ queryKey: ['sources'] });
  };
  const match = useMutation({
    mutationFn: () =>
      recon.matches.create({
        links: allocate(
          left.map((t) => ({ id: t.id, open: openAmountOf(t) })),
          right.map((t) => ({ id: t.id, open: openAmountOf(t) })),
        ),
      }),
    onSuccess: (created) => {
      done(`Matched: ${created.matches.length} link${created.matches.length === 1 ? '' : 's'} in one group.`);
      setMatchedGroup(created.groupId);
    },
  });
  const classify = useMutation({
    mutationFn: async (status: 'informative' | 'out of scope') => {
      for (const transaction of [...left, ...right]) await recon.transactions.setStatus(transaction.id, { reconciliationStatus: status });
      return status;
    },
    onSuccess: (status) => done(`Marked ${status}.`),
  });
  const canMatch = canWrite && left.length > 0 && right.length > 0 && !match.isPending;

  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      const target = event.target;
      if (target instanceof HTMLInputElement || target instanceof HTMLSelectElement || target instanceof HTMLTextAreaElement) return;
      if (event.ctrlKey || event.metaKey || event.altKey) return;
      if (event.key === 'm' && canMatch) match.mutate();
      else if (event.key === 'i' && canWrite && picked.size > 0) classify.mutate('informative');
      else if (event.key === 'o' && canWrite && picked.size > 0) classify.mutate('out of scope');
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
  };

  return (
    <>
      <section className="card">
        <h1>Matching</h1>
        <p className="hint">
          Open transactions of two datasets, oldest first. Select any number on each side; the totals and the difference follow. In a list: arrows move,{' '}
          <kbd>Space</kbd> selects, <kbd>Shift</kbd> with an arrow or a click selects a range, <kbd>Ctrl</kbd>+<kbd>A</kbd> selects all. Anywhere: <kbd>m</kbd>{' '}
          match, <kbd>i</kbd> informative, <kbd>o</kbd> out of scope, <kbd>Esc</kbd> clear.
        </p>
        <div className="totals" role="status" aria-live="polite">
          <span>Left {formatAmount(leftTotal)}</span>
          <span>Right {formatAmount(rightTotal)}</span>
          <strong className={/^-?0(\.0+)?$/.test(difference) ? 'success' : 'error'}>Difference {formatAmount(difference)}</strong>
        </div>
        {canWrite && (
          <div className="buttons">
            <button type="button" disabled={!canMatch} onClick={() => match.mutate()}>
              Match selected
            </button>
            <button type="button" className="secondary" disabled={picked.size === 0} onClick={() => classify.mutate('informative')}>
              Mark informative
            </button>
            <button type="button" className="secondary" disabled={picked.size === 0} onClick={() => classify.mutate('out of scope')}>
              Mark out of scope
            </button>
            <button type="button" className="secondary" disabled={picked.size === 0} onClick={() => setPicked(new Map())}>
              Clear selection
            </button>
          </div>
        )}
        {message && (
          <p className="success" role="status">
            {message}
            {matchedGroup !== null && (
              <>
                {' '}
                <Link to={`/match-group?group=${encodeURIComponent(matchedGroup)}`}>See the match</Link>
              </>
            )}
          </p>
        )}
        <ErrorMessage error={match.error ?? classify.error} />
      </section>
      <div className="workspace">
        <Side title="Left" datasetId={leftId} onDataset={setLeftId} selected={left} onSelect={select('left')} onFocus={setFocused} />
        <Side title="Right" datasetId={rightId} onDataset={setRightId} selected={right} onSelect={select('right')} onFocus={setFocused} />
      </div>
      {focused && <Candidates transaction={focused} />}
    </>
  );
}
