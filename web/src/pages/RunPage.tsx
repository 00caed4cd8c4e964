import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { Link, useNavigate, useParams, useSearchParams } from 'react-router';
import type { Run, RunResult, RunResultKind, RunResultTransaction } from '@ledger-recon/sdk';
import { Amount } from '../components/Amount.tsx';
import { ErrorMessage } from '../components/ErrorMessage.tsx';
import { Evidence } from '../components/Evidence.tsx';
import { formatCount, formatDateTime, formatTimestamp } from '../format.ts';
import { useSession } from '../session.tsx';

const RUN_POLL_MILLISECONDS = 700;
/** Results shown per outcome; a run that did more says so. */
const RESULTS_SHOWN = 200;

/** The outcomes of a run, in the order the page shows them, with the words it uses for each. */
const OUTCOMES = [
  { kind: 'matches', key: 'matched', title: 'Matched', count: 'matched' },
  { kind: 'suggestions', key: 'suggested', title: 'Suggested', count: 'suggested' },
  { kind: 'ambiguous', key: 'ambiguous', title: 'Ambiguous', count: 'ambiguous' },
  { kind: 'classified', key: 'classified', title: 'Classified', count: 'classified' },
  { kind: 'bounds', key: 'stopped', title: 'Stopped at a limit', count: 'boundsHit' },
  { kind: 'unmatched', key: 'open', title: 'Left open', count: null },
] as const satisfies readonly { kind: RunResultKind; key: string; title: string; count: keyof Run['totals'] | null }[];
type Outcome = (typeof OUTCOMES)[number];

/** Where a run stands, in words. */
function statusOf(run: Run): string {
  const committed = run.mode === 'commit' || run.committedAt !== null;
  switch (run.status) {
    case 'queued':
      return 'Waiting to start';
    case 'running':
      return `Running: ${formatCount(run.progress.examined)} of ${formatCount(run.progress.total)} transactions examined`;
    case 'completed':
      return committed
        ? `Committed${run.committedAt ? ` on ${formatDateTime(run.committedAt)}` : ''}: its matches are made`
        : 'Dry run finished: nothing is changed until you commit it';
    case 'reverted':
      return `Reverted${run.revertedAt ? ` on ${formatDateTime(run.revertedAt)}` : ''}: its matches were removed`;
    case 'failed':
      return 'Failed: nothing was changed';
    case 'cancelled':
      return 'Cancelled: nothing was changed';
  }
}

type Summary = RunResultTransaction;

/** A result's origin and target transactions (a link's two ends), and its own first transaction. */
function sidesOf(result: RunResult, links: unknown): { origins: Summary[]; targets: Summary[] } {
  const byId = new Map((result.transactions ?? []).map((transaction) => [transaction.id, transaction]));
  const origins = new Set<string>();
  const targets = new Set<string>();
  for (const link of (links as { originId?: string; targetId?: string }[] | null) ?? []) {
    if (link.originId) origins.add(link.originId);
    if (link.targetId) targets.add(link.targetId);
  }
  const pick = (ids: Set<string>) => [...ids].flatMap((id) => byId.get(id) ?? []);
  return { origins: pick(origins), targets: pick(targets) };
}

function TransactionCell({ transactions }: { transactions: Summary[] }) {
  if (transactions.length === 0) return <span className="hint">—</span>;
  const shown = transactions.slice(0, 5);
  return (
    <ul className="run-side">
      {shown.map((transaction) => (
        <li key={transaction.id}>
          <span className="run-side-line">
            <span className="run-side-dataset">{transaction.datasetName}</span> · {formatTimestamp(transaction.timestamp)}
            {transaction.reference ? ` · ${transaction.reference}` : ''}
          </span>
          <span className="run-side-description">{transaction.description ?? <span className="hint">No description</span>}</span>
          {transaction.amount !== null && <Amount className="number" amount={transaction.amount} currency={transaction.currency} />}
        </li>
      ))}
      {transactions.length > shown.length && <li className="hint">and {formatCount(transactions.length - shown.length)} more</li>}
    </ul>
  );
}

function evidenceContext(result: RunResult, links: unknown, evidenceAdjustment: unknown) {
  const { origins, targets } = sidesOf(result, links);
  const [link] = (links as { originId: string; targetId: string }[] | null) ?? [];
  return {
    transactions: result.transactions ?? [],
    pair: origins.length === 1 && targets.length === 1 && link ? { originId: link.originId, targetId: link.targetId } : null,
    originName: origins[0]?.datasetName ?? null,
    targetName: targets[0]?.datasetName ?? null,
    adjustment: (evidenceAdjustment as { amount?: string; reason?: string } | null) ?? null,
  };
}

interface OptionShape {
  links?: unknown;
  adjustment?: unknown;
  evidence?: unknown;
  score?: string;
}

/** The rows of one outcome: what is matched with what, or what is left, with the evidence in words. */
function ResultRows({ outcome, results, ruleName }: { outcome: Outcome; results: RunResult[]; ruleName: (result: RunResult) => string }) {
  const withRule = outcome.kind !== 'unmatched';
  const pairColumns = outcome.kind === 'matches' || outcome.kind === 'suggestions' || outcome.kind === 'ambiguous';
  const columns = [
    ...(withRule ? ['Rule'] : []),
    'Transaction',
    ...(pairColumns ? [outcome.kind === 'matches' ? 'Matched with' : outcome.kind === 'suggestions' ? 'Proposed' : 'Options'] : []),
    ...(outcome.kind === 'classified' ? ['Marked as'] : []),
    ...(outcome.kind === 'unmatched' ? ['Status'] : ['Why']),
  ];
  return (
    <table className="run-results">
      <thead>
        <tr>
          {columns.map((column) => (
            <th scope="col" key={column}>
              {column}
            </th>
          ))}
        </tr>
      </thead>
      <tbody>
        {results.map((result, index) => {
          const options = ((result.options as OptionShape[] | null) ?? []).filter(Boolean);
          const chosen: OptionShape =
            outcome.kind === 'suggestions' ? (options[0] ?? {}) : { links: result.links, adjustment: result.adjustment, evidence: result.evidence };
          const sides = sidesOf(result, outcome.kind === 'ambiguous' ? options.flatMap((option) => (option.links as unknown[]) ?? []) : chosen.links);
          const own = outcome.kind === 'unmatched' || outcome.kind === 'classified' || outcome.kind === 'bounds' ? (result.transactions ?? []) : sides.origins;
          return (
            <tr key={index}>
              {withRule && <td data-label="Rule">{ruleName(result)}</td>}
              <td data-label="Transaction">
                <TransactionCell transactions={own} />
              </td>
              {pairColumns && (
                <td data-label={columns[2]}>
                  <TransactionCell transactions={sides.targets} />
                </td>
              )}
              {outcome.kind === 'classified' && <td data-label="Marked as">{String(result.status ?? '')}</td>}
              {outcome.kind === 'unmatched' ? (
                <td data-label="Status">{String(result.reconciliationStatus) === 'partial' ? 'Partly matched' : 'Open'}</td>
              ) : (
                <td data-label="Why">
                  {typeof result.message === 'string' && result.message !== '' && <p>{result.message}</p>}
                  {outcome.kind === 'ambiguous' ? (
                    options.map((option, position) => (
                      <div key={position} className="run-option">
                        <p className="run-option-title">Option {position + 1}</p>
                        <Evidence evidence={option.evidence} context={evidenceContext(result, option.links, option.adjustment)} />
                      </div>
                    ))
                  ) : (
                    <Evidence evidence={chosen.evidence} context={evidenceContext(result, chosen.links, chosen.adjustment)} />
                  )}
                </td>
              )}
            </tr>
          );
        })}
      </tbody>
    </table>
  );
}

function RevertConfirmation({ run, onRevert, pending, onKeep }: { run: Run; onRevert: () => void; pending: boolean; onKeep: () => void }) {
  return (
    <div className="notice run-confirm" role="group" aria-label="Confirm the revert">
      <p>
        Reverting removes the {formatCount(run.totals.matched)} {run.totals.matched === 1 ? 'match' : 'matches'} this run made and clears the{' '}
        {run.totals.classified === 1 ? 'status' : 'statuses'} it set ({formatCount(run.totals.classified)}): those transactions are open again. A match someone
        changed since is left as it is. Suggestions the run made stay to be confirmed or rejected.
      </p>
      <div className="buttons">
        <button type="button" className="danger" onClick={onRevert} disabled={pending}>
          {pending ? 'Reverting…' : 'Revert the run'}
        </button>
        <button type="button" className="secondary" onClick={onKeep} disabled={pending}>
          Keep it
        </button>
      </div>
    </div>
  );
}

function DiscardConfirmation({ run, onDiscard, pending, onKeep }: { run: Run; onDiscard: () => void; pending: boolean; onKeep: () => void }) {
  const would = run.totals.matched + run.totals.suggested + run.totals.ambiguous + run.totals.classified;
  return (
    <div className="notice run-confirm" role="group" aria-label="Confirm the discard">
      <p>
        Discarding throws this dry run away with its results
        {would > 0 ? ` (the ${formatCount(run.totals.matched)} ${run.totals.matched === 1 ? 'match' : 'matches'} it would make and the rest)` : ''}: it can no
        longer be read or committed. Nothing else changes, as a dry run changed nothing. This cannot be undone; you can start a new dry run at any time.
      </p>
      <div className="buttons">
        <button type="button" className="danger" onClick={onDiscard} disabled={pending}>
          {pending ? 'Discarding…' : 'Discard the dry run'}
        </button>
        <button type="button" className="secondary" onClick={onKeep} disabled={pending}>
          Keep it
        </button>
      </div>
    </div>
  );
}

export function RunPage() {
  const { runId = '' } = useParams();
  const { recon, session } = useSession();
  const client = useQueryClient();
  const navigate = useNavigate();
  const [params, setParams] = useSearchParams();
  const [confirmingRevert, setConfirmingRevert] = useState(false);
  const [confirmingDiscard, setConfirmingDiscard] = useState(false);
  const [done, setDone] = useState<string | null>(null);
  const canWrite = session.user.role !== 'View-only';
  const run = useQuery({
    queryKey: ['run', runId],
    queryFn: () => recon.runs.get(runId),
    refetchInterval: (query) => (query.state.data?.status === 'queued' || query.state.data?.status === 'running' ? RUN_POLL_MILLISECONDS : false),
  });
  const finished = run.data !== undefined && run.data.status !== 'queued' && run.data.status !== 'running';
  const results = useQuery({
    queryKey: ['run', runId, 'results', run.data?.status, run.data?.committedAt],
    enabled: finished,
    queryFn: async () => {
      const byKind = new Map<RunResultKind, { results: RunResult[]; more: boolean }>();
      await Promise.all(
        OUTCOMES.map(async (outcome) => {
          const listed: RunResult[] = [];
          let more = false;
          for await (const result of recon.runs.results(runId, { kind: outcome.kind, include: 'transactions' })) {
            if (listed.length === RESULTS_SHOWN) {
              more = true;
              break;
            }
            listed.push(result);
          }
          byKind.set(outcome.kind, { results: listed, more });
        }),
      );
      return byKind;
    },
  });
  const refresh = () => {
    void client.invalidateQueries({ queryKey: ['run', runId] });
    void client.invalidateQueries({ queryKey: ['runs'] });
    void client.invalidateQueries({ queryKey: ['suggestions'] });
  };
  const commit = useMutation({
    mutationFn: () => recon.runs.commit(runId),
    onSuccess: () => {
      setDone('The run is committed: its matches are made.');
      refresh();
    },
  });
  const revert = useMutation({
    mutationFn: () => recon.runs.revert(runId),
    onSuccess: () => {
      setConfirmingRevert(false);
      setDone('The run is reverted: its matches are removed and those transactions are open again.');
      refresh();
    },
  });

  const discard = useMutation({
    mutationFn: () => recon.runs.discard(runId),
    onSuccess: () => {
      client.removeQueries({ queryKey: ['run', runId] });
      void client.invalidateQueries({ queryKey: ['runs'] });
      void navigate('/rules', { state: { notice: 'The dry run is discarded: it and its results are gone, and nothing else changed.' } });
    },
  });

  const ruleFilter = params.get('rule') ?? '';
  const outcomeFilter = params.get('outcome') ?? '';
  const setFilter = (name: 'rule' | 'outcome', value: string) =>
    setParams(
      (current) => {
        const next = new URLSearchParams(current);
        if (value === '') next.delete(name);
        else next.set(name, value);
        return next;
      },
      { replace: true },
    );

  if (run.isPending) return <p role="status">Loading the run…</p>;
  if (run.isError)
    return (
      <section className="card">
        <h1>Run</h1>
        <ErrorMessage error={run.error} />
        <Link to="/rules">Back to rules and runs</Link>
      </section>
    );
  const current = run.data;
  const names = new Map(current.counts.map((count) => [`${count.ruleId}:${count.ruleVersion}`, count.name]));
  for (const rule of current.rules) if (rule.name && !names.has(`${rule.id}:${rule.version}`)) names.set(`${rule.id}:${rule.version}`, rule.name);
  const ruleName = (result: RunResult) => names.get(`${String(result.ruleId)}:${String(result.ruleVersion)}`) ?? 'A rule';
  const ruleNames = [...new Set([...names.values()])];
  const committed = current.mode === 'commit' || current.committedAt !== null;
  const canCommit = canWrite && current.mode === 'dry-run' && current.status === 'completed' && current.committedAt === null;
  const canRevert = canWrite && current.status === 'completed' && committed;
  // A dry run never committed can be thrown away once it has ended, whatever became of it.
  const canDiscard = canWrite && current.mode === 'dry-run' && current.committedAt === null && finished;
  const shownOutcomes = OUTCOMES.filter((outcome) => outcomeFilter === '' || outcome.key === outcomeFilter);
  const openCount = results.data?.get('unmatched');
  const countOf = (outcome: Outcome) =>
    outcome.count === null
      ? openCount
        ? `${formatCount(openCount.results.length)}${openCount.more ? '+' : ''}`
        : '…'
      : formatCount(current.totals[outcome.count]);

  return (
    <>
      <section className="card" aria-labelledby="run-title">
        <p>
          <Link to="/rules">← Rules and runs</Link>
        </p>
        <h1 id="run-title">
          {current.mode === 'dry-run' ? 'Dry run' : 'Run'} of {formatDateTime(current.createdAt)}
        </h1>
        <p className="run-status" role="status">
          {statusOf(current)}
          {current.error && <span className="error"> — {current.error.message}</span>}
        </p>
        {current.status === 'running' && <progress max={Math.max(current.progress.total, 1)} value={current.progress.examined} aria-label="Run progress" />}
        {(canCommit || canRevert || canDiscard) && (
          <div className="buttons">
            {canCommit && (
              <button type="button" onClick={() => commit.mutate()} disabled={commit.isPending || discard.isPending || confirmingDiscard}>
                {commit.isPending ? 'Committing…' : 'Commit'}
              </button>
            )}
            {canDiscard && !confirmingDiscard && (
              <button type="button" className="secondary" onClick={() => setConfirmingDiscard(true)} disabled={commit.isPending || discard.isPending}>
                Discard…
              </button>
            )}
            {canRevert && !confirmingRevert && (
              <button type="button" className="danger" onClick={() => setConfirmingRevert(true)} disabled={revert.isPending}>
                Revert…
              </button>
            )}
          </div>
        )}
        {canCommit && !confirmingDiscard && <p className="hint">Commit makes its matches; Discard throws the dry run away (it changed nothing).</p>}
        {confirmingDiscard && canDiscard && (
          <DiscardConfirmation run={current} pending={discard.isPending} onDiscard={() => discard.mutate()} onKeep={() => setConfirmingDiscard(false)} />
        )}
        {confirmingRevert && canRevert && (
          <RevertConfirmation run={current} pending={revert.isPending} onRevert={() => revert.mutate()} onKeep={() => setConfirmingRevert(false)} />
        )}
        {done && (
          <p className="success" role="status">
            {done}
          </p>
        )}
        <ErrorMessage error={commit.error ?? revert.error ?? discard.error} />
      </section>

      <section className="card" aria-labelledby="run-counts">
        <h2 id="run-counts">What the run {committed ? 'did' : 'would do'}</h2>
        <dl className="run-totals">
          {OUTCOMES.map((outcome) => (
            <div key={outcome.key}>
              <dt>{outcome.title}</dt>
              <dd>{countOf(outcome)}</dd>
            </div>
          ))}
        </dl>
        {current.totals.closedPeriodSkipped > 0 && (
          <p className="hint">
            {formatCount(current.totals.closedPeriodSkipped)} open {current.totals.closedPeriodSkipped === 1 ? 'transaction was' : 'transactions were'} left
            alone because {current.totals.closedPeriodSkipped === 1 ? 'it is' : 'they are'} dated in a closed period. An Administrator can reopen the period to
            match {current.totals.closedPeriodSkipped === 1 ? 'it' : 'them'}.
          </p>
        )}
        {current.counts.length > 0 && (
          <table className="run-counts">
            <thead>
              <tr>
                <th scope="col">Rule</th>
                {OUTCOMES.filter((outcome) => outcome.count !== null).map((outcome) => (
                  <th scope="col" className="number" key={outcome.key}>
                    {outcome.title}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>
              {current.counts.map((count) => (
                <tr key={`${count.ruleId}:${count.ruleVersion}`}>
                  <th scope="row" data-label="Rule">
                    {count.name}
                  </th>
                  {OUTCOMES.map((outcome) =>
                    outcome.count === null ? null : (
                      <td className="number" data-label={outcome.title} key={outcome.key}>
                        {formatCount(count[outcome.count])}
                      </td>
                    ),
                  )}
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </section>

      <section className="card" aria-labelledby="run-results">
        <h2 id="run-results">Results</h2>
        <div className="filters run-filters">
          <label>
            Rule
            <select value={ruleFilter} onChange={(event) => setFilter('rule', event.target.value)}>
              <option value="">All rules</option>
              {ruleNames.map((name) => (
                <option key={name} value={name}>
                  {name}
                </option>
              ))}
            </select>
          </label>
          <label>
            Outcome
            <select value={outcomeFilter} onChange={(event) => setFilter('outcome', event.target.value)}>
              <option value="">All outcomes</option>
              {OUTCOMES.map((outcome) => (
                <option key={outcome.key} value={outcome.key}>
                  {outcome.title}
                </option>
              ))}
            </select>
          </label>
        </div>
        {!finished && <p className="hint">The results show once the run has finished.</p>}
        {results.isPending && finished && <p role="status">Loading the results…</p>}
        <ErrorMessage error={results.error} />
        {results.data &&
          shownOutcomes.map((outcome) => {
            const listed = results.data.get(outcome.kind) ?? { results: [], more: false };
            const rows =
              outcome.kind === 'unmatched' || ruleFilter === '' ? listed.results : listed.results.filter((result) => ruleName(result) === ruleFilter);
            return (
              <section key={outcome.key} className="run-outcome" aria-labelledby={`outcome-${outcome.key}`}>
                <h3 id={`outcome-${outcome.key}`}>
                  {outcome.title} ({formatCount(rows.length)}
                  {listed.more ? '+' : ''})
                </h3>
                {outcome.kind === 'unmatched' && ruleFilter !== '' && <p className="hint">Transactions left open by every rule of the run.</p>}
                {listed.more && <p className="hint">The first {formatCount(RESULTS_SHOWN)} are shown.</p>}
                {rows.length === 0 ? <p className="hint">None.</p> : <ResultRows outcome={outcome} results={rows} ruleName={ruleName} />}
              </section>
            );
          })}
      </section>
    </>
  );
}
