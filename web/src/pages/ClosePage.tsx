import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { Link, useNavigate } from 'react-router';
import { Amount } from '../components/Amount.tsx';
import { useDatasets, useSources } from '../components/DatasetSelect.tsx';
import { ErrorMessage } from '../components/ErrorMessage.tsx';
import { ReconciliationForm, periodLengthInWords } from '../components/ReconciliationForm.tsx';
import { TableHead } from '../components/TableHead.tsx';
import { closeApi, type Reconciliation } from '../close-api.ts';
import { isZero, periodAtHand, periodInWords, stateClass, stateInWords } from '../close-words.ts';
import { formatCount } from '../format.ts';
import { useSession } from '../session.tsx';

/** The period a reconciliation is being closed for: the earliest one not yet approved, else the latest. */
function usePeriodAtHand(reconciliation: Reconciliation) {
  const { recon } = useSession();
  return useQuery({
    queryKey: ['close', 'periods', reconciliation.id],
    queryFn: () => closeApi.periods(recon, reconciliation.id),
    select: (periods) => periodAtHand(periods, reconciliation.ledgerOpeningDate) ?? null,
  });
}

function ReconciliationRow({ reconciliation }: { reconciliation: Reconciliation }) {
  const datasets = useDatasets();
  const sources = useSources();
  const period = usePeriodAtHand(reconciliation);
  const nameOf = (id: string) => datasets.find((dataset) => dataset.id === id)?.name ?? 'a dataset no longer here';
  const at = period.data ?? null;
  const search = at ? `?periodEnd=${at.periodEnd}` : '';
  return (
    <tr>
      <td data-label="Reconciliation" className="close-name-cell">
        <Link to={`/close/${reconciliation.id}${search}`}>{reconciliation.name}</Link>
        <span className="hint">
          {sources.isSuccess && (
            <>
              {reconciliation.bankDatasetIds.map(nameOf).join(', ')} ↔ {reconciliation.ledgerDatasetIds.map(nameOf).join(', ')} · {reconciliation.currency} ·{' '}
              {periodLengthInWords(reconciliation.periodMonths).toLowerCase()} a period
            </>
          )}
        </span>
      </td>
      <td data-label="Period">{period.isPending ? '…' : at ? periodInWords(at.periodStart, at.periodEnd) : 'None yet'}</td>
      <td data-label="Status">
        {at ? <span className={stateClass(at.state)}>{stateInWords(at.state)}</span> : period.error ? <ErrorMessage error={period.error} /> : '—'}
      </td>
      <td data-label="Unexplained difference" className="number">
        {at?.unexplainedDifference == null ? (
          '—'
        ) : (
          <Amount
            amount={at.unexplainedDifference}
            currency={reconciliation.currency}
            className={isZero(at.unexplainedDifference) ? 'close-difference-zero' : 'close-difference'}
          />
        )}
      </td>
      <td data-label="Open exceptions" className="number">
        {at?.openExceptions == null ? (
          '—'
        ) : (
          <Link
            to={`/close/${reconciliation.id}/exceptions${search}`}
            aria-label={`${formatCount(at.openExceptions)} open ${at.openExceptions === 1 ? 'exception' : 'exceptions'} of ${reconciliation.name}`}
          >
            {formatCount(at.openExceptions)}
          </Link>
        )}
      </td>
    </tr>
  );
}

/** Month-end close: every reconciliation with the period at hand, where its sign-off stands, its difference and its open exceptions. */
export function ClosePage() {
  const { recon, session } = useSession();
  const navigate = useNavigate();
  const [creating, setCreating] = useState(false);
  // A Reviewer reads and approves; writing needs a Full member or an Administrator.
  const canWrite = session.user.role === 'Full member' || session.user.role === 'Administrator';
  const reconciliations = useQuery({ queryKey: ['close', 'reconciliations'], queryFn: () => closeApi.listReconciliations(recon) });
  const list = reconciliations.data ?? [];
  return (
    <>
      <section className="card">
        <h1>Month-end close</h1>
        <p className="hint">
          Each reconciliation proves a bank account's balance against the ledger's at the end of a period. A period is prepared once its unexplained difference
          is 0.00, then approved by a second person, and closed.
        </p>
        {canWrite && !creating && (
          <div className="buttons">
            <button type="button" onClick={() => setCreating(true)}>
              New reconciliation
            </button>
          </div>
        )}
        {creating && <ReconciliationForm onDone={() => setCreating(false)} onSaved={(saved) => navigate(`/close/${saved.id}`)} />}
      </section>
      <section className="card" aria-labelledby="close-list-title">
        <h2 id="close-list-title">Reconciliations</h2>
        <ErrorMessage error={reconciliations.error} />
        {reconciliations.isPending && <p role="status">Loading the reconciliations…</p>}
        {reconciliations.isSuccess && list.length === 0 && (
          <p className="hint">No reconciliation yet{canWrite ? ': create one to pair a bank account with its ledger account.' : '.'}</p>
        )}
        {list.length > 0 && (
          <table className="close-table">
            <TableHead columns={['Reconciliation', 'Period', 'Status', '#Unexplained difference', '#Open exceptions']} />
            <tbody>
              {list.map((reconciliation) => (
                <ReconciliationRow key={reconciliation.id} reconciliation={reconciliation} />
              ))}
            </tbody>
          </table>
        )}
      </section>
    </>
  );
}
