import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import type { Transaction } from '../../../sdk/src/index.ts';
import { DatasetSelect, useDatasets } from '../components/DatasetSelect.tsx';
import { ErrorMessage } from '../components/ErrorMessage.tsx';
import { absolute, allocate, subtract, sum } from '../decimal.ts';
import { formatAmount, formatDate } from '../format.ts';
import { useSession } from '../session.tsx';

/** Rows per side: the open transactions a person works through, oldest first. */
const SIDE_LIMIT = 500;

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

function Side({ title, datasetId, onDataset, selected, onToggle, focused, onFocus }: {
  title: string;
  datasetId: string;
  onDataset: (id: string) => void;
  selected: Set<string>;
  onToggle: (transaction: Transaction) => void;
  focused: string | null;
  onFocus: (transaction: Transaction) => void;
}) {
  const [text, setText] = useState('');
  const rows = useOpenTransactions(datasetId, text);
  const datasets = useDatasets();
  const chosen = (rows.data ?? []).filter((transaction) => selected.has(transaction.id));
  return (
    <section className="card side" aria-label={`${title} side`}>
      <div className="side-head">
        <DatasetSelect label={title} value={datasetId} onChange={onDataset} datasets={datasets} placeholder="Choose a dataset" />
        <label>
          Find
          <input value={text} onChange={(event) => setText(event.target.value)} placeholder="description" />
        </label>
      </div>
      <ErrorMessage error={rows.error} />
      <p className="hint" role="status">
        {rows.data ? `${rows.data.length}${rows.data.length === SIDE_LIMIT ? '+' : ''} open · ${chosen.length} selected · total ${formatAmount(sum(chosen.map(openAmountOf)))}` : ''}
      </p>
      <ul className="pick-list" role="listbox" aria-multiselectable="true" aria-label={`${title} transactions`}>
        {(rows.data ?? []).map((transaction) => (
          <li
            key={transaction.id}
            role="option"
            aria-selected={selected.has(transaction.id)}
            tabIndex={0}
            className={`${selected.has(transaction.id) ? 'picked' : ''}${focused === transaction.id ? ' focused' : ''}`}
            onClick={() => {
              onFocus(transaction);
              onToggle(transaction);
            }}
            onFocus={() => onFocus(transaction)}
            onKeyDown={(event) => {
              if (event.key === ' ' || event.key === 'Enter') {
                event.preventDefault();
                onToggle(transaction);
              }
            }}
          >
            <span>{formatDate(transaction.timestamp)}</span>
            <span className="pick-text">{transaction.description}</span>
            <span className="number">{formatAmount(amountOf(transaction), String((transaction as Record<string, unknown>).currency ?? ''))}</span>
            <span className={`status status-${transaction.reconciliationStatus}`}>{transaction.reconciliationStatus === 'partial' ? `open ${formatAmount(openAmountOf(transaction))}` : 'open'}</span>
          </li>
        ))}
      </ul>
    </section>
  );
}

function Candidates({ transaction }: { transaction: Transaction }) {
  const { recon } = useSession();
  const candidates = useQuery({ queryKey: ['candidates', transaction.id], queryFn: () => recon.transactions.candidates(transaction.id, { limit: 5 }) });
  return (
    <section className="card" aria-label="Candidates">
      <h2>Candidates for “{transaction.description}”</h2>
      {candidates.isPending && <p role="status">Asking the rules…</p>}
      <ErrorMessage error={candidates.error} />
      {candidates.data?.length === 0 && <p className="hint">No rule proposes a counterpart.</p>}
      <ol>
        {candidates.data?.map((candidate) => (
          <li key={`${candidate.ruleId}-${candidate.transactionId}`}>
            <code>{candidate.transactionId.slice(0, 8)}</code> by rule “{candidate.ruleName}” v{candidate.ruleVersion}, score {candidate.score}
            <details>
              <summary>Evidence</summary>
              <pre>{JSON.stringify(candidate.evidence, null, 2)}</pre>
            </details>
          </li>
        ))}
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
  const canWrite = session.user.role !== 'View-only';

  const left = [...picked.values()].filter((entry) => entry.side === 'left').map((entry) => entry.transaction);
  const right = [...picked.values()].filter((entry) => entry.side === 'right').map((entry) => entry.transaction);
  const leftTotal = sum(left.map(openAmountOf));
  const rightTotal = sum(right.map(openAmountOf));
  const difference = subtract(leftTotal, rightTotal);

  const done = (text: string) => {
    setPicked(new Map());
    setMessage(text);
    void client.invalidateQueries({ queryKey: ['workspace'] });
    void client.invalidateQueries({ queryKey: ['sources'] });
  };
  const match = useMutation({
    mutationFn: () => recon.matches.create({ links: allocate(left.map((t) => ({ id: t.id, open: openAmountOf(t) })), right.map((t) => ({ id: t.id, open: openAmountOf(t) }))) }),
    onSuccess: (created) => done(`Matched: ${created.matches.length} link${created.matches.length === 1 ? '' : 's'} in one group.`),
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
      if (event.target instanceof HTMLInputElement || event.target instanceof HTMLSelectElement || event.target instanceof HTMLTextAreaElement) return;
      if (event.key === 'm' && canMatch) match.mutate();
      else if (event.key === 'i' && canWrite && picked.size > 0) classify.mutate('informative');
      else if (event.key === 'o' && canWrite && picked.size > 0) classify.mutate('out of scope');
      else if (event.key === 'Escape') setPicked(new Map());
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  });

  const toggle = (side: 'left' | 'right') => (transaction: Transaction) => {
    const next = new Map(picked);
    if (next.has(transaction.id)) next.delete(transaction.id);
    else next.set(transaction.id, { transaction, side });
    setPicked(next);
    setMessage(null);
  };

  return (
    <>
      <section className="card">
        <h1>Matching</h1>
        <p className="hint">
          Open transactions of two datasets, oldest first. Select any number on each side; the totals and the difference follow. Keys: <kbd>Space</kbd> select,{' '}
          <kbd>m</kbd> match, <kbd>i</kbd> informative, <kbd>o</kbd> out of scope, <kbd>Esc</kbd> clear.
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
        {message && <p className="success" role="status">{message}</p>}
        <ErrorMessage error={match.error ?? classify.error} />
      </section>
      <div className="workspace">
        <Side title="Left" datasetId={leftId} onDataset={setLeftId} selected={new Set(left.map((t) => t.id))} onToggle={toggle('left')} focused={focused?.id ?? null} onFocus={setFocused} />
        <Side title="Right" datasetId={rightId} onDataset={setRightId} selected={new Set(right.map((t) => t.id))} onToggle={toggle('right')} focused={focused?.id ?? null} onFocus={setFocused} />
      </div>
      {focused && <Candidates transaction={focused} />}
    </>
  );
}
