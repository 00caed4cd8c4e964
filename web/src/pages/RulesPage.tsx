import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { Link, useLocation } from 'react-router';
import type { Run, Suggestion } from '@ledger-recon/sdk';
import { ErrorMessage } from '../components/ErrorMessage.tsx';
import { RuleBuilder, RuleInWords, cardinalityWords } from '../components/RuleBuilder.tsx';
import { TableHead } from '../components/TableHead.tsx';
import { Moment } from '../components/When.tsx';
import { problemInWords } from '../messages.ts';
import { useSession } from '../session.tsx';
import { useDatasets } from '../components/DatasetSelect.tsx';
import { confirmedMessage, optionTransactionIds, subjectIdOf, SuggestionOptions } from '../components/SuggestionOptions.tsx';
import { idsInEvidence, nameOf } from '../transaction-words.ts';
import { useRuleNames, useTransactionsById } from '../components/useTransactionsById.ts';

const RUN_POLL_MILLISECONDS = 700;
/** Pending suggestions shown at once. */
const SUGGESTIONS_SHOWN = 200;

/** A run's state in a word. */
const RUN_STATUS_WORDS: Record<Run['status'], string> = {
  queued: 'Waiting',
  running: 'Running',
  completed: 'Finished',
  reverted: 'Reverted',
  failed: 'Failed',
  cancelled: 'Cancelled',
};

function RunSummary({ run }: { run: Run }) {
  return (
    <>
      {RUN_STATUS_WORDS[run.status] ?? run.status} · examined {run.progress.examined} of {run.progress.total} · matched {run.totals.matched}, suggested{' '}
      {run.totals.suggested}, ambiguous {run.totals.ambiguous}
    </>
  );
}

function Runs() {
  const { recon, session } = useSession();
  // What a run's page did before coming back here (a dry run discarded), said once.
  const notice = (useLocation().state as { notice?: string } | null)?.notice ?? null;
  const client = useQueryClient();
  const runs = useQuery({
    queryKey: ['runs'],
    queryFn: async () => {
      const listed: Run[] = [];
      for await (const run of recon.runs.list()) {
        listed.push(run);
        if (listed.length >= 20) break;
      }
      return listed;
    },
    // Poll while a run is under way, so that its progress moves on the screen.
    refetchInterval: (query) => ((query.state.data ?? []).some((run) => run.status === 'queued' || run.status === 'running') ? RUN_POLL_MILLISECONDS : false),
  });
  const refresh = () => {
    void client.invalidateQueries({ queryKey: ['runs'] });
    void client.invalidateQueries({ queryKey: ['suggestions'] });
  };
  // A run started here is read on its own page (and a dry run committed there).
  const start = useMutation({ mutationFn: (mode: 'dry-run' | 'commit') => recon.runs.start({ mode }), onSuccess: refresh });
  const commit = useMutation({ mutationFn: (run: Run) => recon.runs.commit(run.id), onSuccess: refresh });
  const revert = useMutation({ mutationFn: (run: Run) => recon.runs.revert(run.id), onSuccess: refresh });
  const canWrite = session.user.role !== 'View-only';
  return (
    <section className="card" aria-label="Runs">
      <h2>Runs</h2>
      {canWrite && (
        <div className="buttons">
          <button type="button" onClick={() => start.mutate('dry-run')} disabled={start.isPending}>
            Dry run
          </button>
          <button type="button" className="secondary" onClick={() => start.mutate('commit')} disabled={start.isPending}>
            Run and commit
          </button>
        </div>
      )}
      {notice && !start.data && (
        <p className="success" role="status">
          {notice}
        </p>
      )}
      {start.data && (
        <p className="success" role="status">
          {start.data.mode === 'dry-run' ? 'Dry run started.' : 'Run started.'}{' '}
          <Link to={`/runs/${start.data.id}`}>{start.data.mode === 'dry-run' ? 'See what it would do' : 'See what it does'}</Link>
        </p>
      )}
      <ErrorMessage error={start.error ?? commit.error ?? revert.error ?? runs.error} />
      {runs.data?.length === 0 && <p className="hint">No runs yet.</p>}
      {runs.data && runs.data.length > 0 && (
        <table className="runs-table">
          <TableHead columns={['Started', 'Mode', 'Result']} actions />
          <tbody>
            {runs.data.map((run) => (
              <tr key={run.id}>
                <td data-label="Started">
                  <Link to={`/runs/${run.id}`}>
                    <Moment value={run.createdAt} />
                  </Link>
                </td>
                <td data-label="Mode">
                  {run.mode === 'dry-run' ? 'Dry run' : 'Run and commit'}
                  {run.committedAt && run.mode === 'dry-run' ? ' (committed)' : ''}
                </td>
                <td data-label="Result" className="run-result">
                  {run.status === 'running' && <progress max={Math.max(run.progress.total, 1)} value={run.progress.examined} aria-label="Run progress" />}{' '}
                  <RunSummary run={run} />
                  {run.error && <span className="error"> — {problemInWords(run.error.message, 'the run failed; start it again')}</span>}
                </td>
                <td className="row-actions">
                  {canWrite && run.mode === 'dry-run' && run.status === 'completed' && run.committedAt === null && (
                    <button type="button" onClick={() => commit.mutate(run)} disabled={commit.isPending}>
                      Commit
                    </button>
                  )}
                  {canWrite && run.status === 'completed' && (run.mode === 'commit' || run.committedAt !== null) && (
                    <button
                      type="button"
                      className="danger"
                      disabled={revert.isPending}
                      onClick={() => {
                        if (window.confirm('Revert this run? Its matches are removed and the statuses restored.')) revert.mutate(run);
                      }}
                    >
                      Revert
                    </button>
                  )}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}

function Suggestions() {
  const { recon, session } = useSession();
  const client = useQueryClient();
  const datasets = useDatasets();
  const datasetName = (id: string) => datasets.find((dataset) => dataset.id === id)?.name ?? null;
  const ruleNames = useRuleNames();
  const suggestions = useQuery({
    queryKey: ['suggestions'],
    queryFn: async () => {
      const pending: Suggestion[] = [];
      for await (const suggestion of recon.suggestions.list({ status: 'pending' })) {
        pending.push(suggestion);
        if (pending.length >= SUGGESTIONS_SHOWN) break;
      }
      return pending;
    },
  });
  const transactions = useTransactionsById(
    (suggestions.data ?? []).flatMap((suggestion) => [...suggestion.transactionIds, ...suggestion.options.flatMap((option) => idsInEvidence(option.evidence))]),
  );
  const [chosen, setChosen] = useState<Set<string>>(new Set());
  const [done, setDone] = useState<string | null>(null);
  const refresh = () => {
    setChosen(new Set());
    void client.invalidateQueries({ queryKey: ['suggestions'] });
    void client.invalidateQueries({ queryKey: ['workspace'] });
    void client.invalidateQueries({ queryKey: ['transactions'] });
    void client.invalidateQueries({ queryKey: ['transaction'] });
  };
  const confirm = useMutation({
    mutationFn: ({ suggestion, option }: { suggestion: Suggestion; option: number }) => recon.suggestions.confirm(suggestion.id, { option }),
    onMutate: () => setDone(null),
    onSuccess: (_, { suggestion, option }) => {
      const subjectId = subjectIdOf(suggestion);
      const chosenOption = suggestion.options[option];
      const others = chosenOption ? optionTransactionIds(chosenOption, subjectId).map((id) => transactions.get(id)) : [];
      setDone(confirmedMessage(subjectId ? transactions.get(subjectId) : undefined, others));
      refresh();
    },
  });
  const reject = useMutation({
    mutationFn: (suggestion: Suggestion) => recon.suggestions.reject(suggestion.id),
    onMutate: () => setDone(null),
    onSuccess: (_, suggestion) => {
      const subjectId = subjectIdOf(suggestion);
      setDone(`Rejected the suggestion for ${nameOf(subjectId ? transactions.get(subjectId) : undefined)}: it is not proposed again.`);
      refresh();
    },
  });
  const bulk = useMutation({
    mutationFn: (action: 'confirm' | 'reject') => recon.suggestions.bulk({ ids: [...chosen], action }),
    onMutate: () => setDone(null),
    onSuccess: (_, action) => {
      setDone(`${action === 'confirm' ? 'Confirmed' : 'Rejected'} ${chosen.size} suggestion${chosen.size === 1 ? '' : 's'}.`);
      refresh();
    },
  });
  const busy = confirm.isPending || reject.isPending || bulk.isPending;
  const canWrite = session.user.role !== 'View-only';
  return (
    <section className="card" aria-label="Suggestions">
      <h2>Suggestions</h2>
      <p className="hint">
        What the rules could not decide alone. Compare each option with the transaction, confirm the right one, or reject: a rejected suggestion is never
        proposed again.
      </p>
      {done && (
        <p className="success" role="status">
          {done}
        </p>
      )}
      <ErrorMessage error={confirm.error ?? reject.error ?? bulk.error ?? suggestions.error} />
      {suggestions.data?.length === 0 && <p className="hint">Nothing to decide.</p>}
      {canWrite && chosen.size > 0 && (
        <div className="buttons">
          <span>{chosen.size} chosen</span>
          <button type="button" onClick={() => bulk.mutate('confirm')} disabled={busy}>
            Confirm all chosen
          </button>
          <button type="button" className="danger" onClick={() => bulk.mutate('reject')} disabled={busy}>
            Reject all chosen
          </button>
        </div>
      )}
      <ul className="suggestions">
        {suggestions.data?.map((suggestion) => {
          const subjectId = subjectIdOf(suggestion);
          const subjectName = nameOf(subjectId ? transactions.get(subjectId) : undefined);
          return (
            <li key={suggestion.id} aria-label={`Suggestion for ${subjectName}`}>
              <div className="suggestion-head">
                {canWrite && suggestion.options.length === 1 && (
                  <label className="chip">
                    <input
                      type="checkbox"
                      checked={chosen.has(suggestion.id)}
                      onChange={(event) => {
                        const next = new Set(chosen);
                        if (event.target.checked) next.add(suggestion.id);
                        else next.delete(suggestion.id);
                        setChosen(next);
                      }}
                    />
                    <span className="visually-hidden">Choose the suggestion for {subjectName}</span>
                  </label>
                )}
                <p>
                  <strong>{suggestion.reason === 'ambiguous' ? 'Several options fit equally well' : 'Proposed by a rule'}</strong>
                  {ruleNames.has(suggestion.ruleId) ? ` (“${ruleNames.get(suggestion.ruleId)}”)` : ''} · {suggestion.options.length} option
                  {suggestion.options.length === 1 ? '' : 's'} · <Moment value={suggestion.createdAt} />
                </p>
              </div>
              <SuggestionOptions
                suggestion={suggestion}
                transactions={transactions}
                datasetName={datasetName}
                action={(index, label) =>
                  canWrite && (
                    <button
                      type="button"
                      className="secondary small"
                      aria-label={`Confirm ${label.toLowerCase()} for ${subjectName}`}
                      onClick={() => confirm.mutate({ suggestion, option: index })}
                      disabled={busy}
                    >
                      Confirm
                    </button>
                  )
                }
              />
              {canWrite && (
                <button type="button" className="danger" onClick={() => reject.mutate(suggestion)} disabled={busy}>
                  Reject
                </button>
              )}
            </li>
          );
        })}
      </ul>
    </section>
  );
}

export function RulesPage() {
  const { recon, session } = useSession();
  const client = useQueryClient();
  const rules = useQuery({ queryKey: ['rules'], queryFn: () => recon.rules.list() });
  const [editing, setEditing] = useState<string | 'new' | null>(null);
  const reorder = useMutation({
    mutationFn: (ruleIds: string[]) => recon.rules.reorder({ ruleIds }),
    onSuccess: () => void client.invalidateQueries({ queryKey: ['rules'] }),
  });
  const list = rules.data ?? [];
  const move = (index: number, by: number) => {
    const ids = list.map((rule) => rule.id);
    const [moved] = ids.splice(index, 1);
    ids.splice(index + by, 0, moved!);
    reorder.mutate(ids);
  };
  const canWrite = session.user.role !== 'View-only';
  return (
    <>
      <section className="card">
        <h1>Rules and runs</h1>
        <p className="hint">Rules run in this order; a transaction one rule matches is not offered to the next. Try them with a dry run before committing.</p>
        <ErrorMessage error={rules.error ?? reorder.error} />
        <table className="rules-table">
          <TableHead columns={['Order', 'Name', 'How many on each side', 'Enabled', 'Version']} actions />
          <tbody>
            {list.map((rule, index) => (
              <tr key={rule.id}>
                <td data-label="Order">{index + 1}</td>
                <td data-label="Name" className="rule-name">
                  {rule.name}
                </td>
                <td data-label="How many on each side">{cardinalityWords(rule.cardinality)}</td>
                <td data-label="Enabled">{rule.enabled ? 'yes' : 'no'}</td>
                <td data-label="Version">{rule.version}</td>
                <td className="row-actions">
                  <div className="actions">
                    <button type="button" className="secondary" onClick={() => setEditing(rule.id)}>
                      {canWrite ? 'Edit' : 'View'}
                    </button>
                    {canWrite && (
                      <>
                        <button type="button" className="secondary" aria-label={`Move ${rule.name} up`} disabled={index === 0} onClick={() => move(index, -1)}>
                          ↑
                        </button>
                        <button
                          type="button"
                          className="secondary"
                          aria-label={`Move ${rule.name} down`}
                          disabled={index === list.length - 1}
                          onClick={() => move(index, 1)}
                        >
                          ↓
                        </button>
                      </>
                    )}
                  </div>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
        {canWrite && (
          <button type="button" className="secondary" onClick={() => setEditing('new')}>
            New rule
          </button>
        )}
      </section>
      {/* A View-only person reads a rule in sentences: no form it could not send. */}
      {editing !== null && !canWrite && list.some((rule) => rule.id === editing) && (
        <RuleInWords rule={list.find((rule) => rule.id === editing)!} onClose={() => setEditing(null)} />
      )}
      {editing !== null && canWrite && (
        <RuleBuilder
          rule={editing === 'new' ? null : (list.find((rule) => rule.id === editing) ?? null)}
          onClose={() => setEditing(null)}
          onSaved={() => {
            setEditing(null);
            void client.invalidateQueries({ queryKey: ['rules'] });
          }}
        />
      )}
      <Runs />
      <Suggestions />
    </>
  );
}
