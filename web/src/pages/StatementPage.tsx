import { useInfiniteQuery, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef, useState, type ReactNode } from 'react';
import { Link, useParams, useSearchParams } from 'react-router';
import { negateDecimal } from '@ledger-recon/sdk';
import { Amount } from '../components/Amount.tsx';
import { ErrorMessage } from '../components/ErrorMessage.tsx';
import { ReconciliationForm } from '../components/ReconciliationForm.tsx';
import { isMissingReconciliation, ReconciliationMissing } from '../components/ReconciliationMissing.tsx';
import { CalendarDate, Moment } from '../components/When.tsx';
import {
  closeApi,
  type PeriodSummary,
  type Reconciliation,
  type Statement,
  type StatementAdjustment,
  type StatementItem,
  type StatementItemLine,
} from '../close-api.ts';
import { isZero, periodAtHand, periodInWords, periodsAfterOpening, stateClass, stateInWords } from '../close-words.ts';
import { sum } from '../decimal.ts';
import { countOf as count, formatAmount, formatCalendarDate, formatCount } from '../format.ts';
import { messageOf, useSession } from '../session.tsx';
import { saveFile } from '../save-file.ts';

const REASONS: Record<StatementItem['reason'], string> = {
  open: 'Open',
  partial: 'Partly matched: the open remainder counts',
  'matched-after-period-end': 'Matched to a row after the period end',
};

const ADJUSTMENT_REASONS: Record<StatementAdjustment['reason'], string> = {
  fee: 'Fee',
  fx: 'Exchange difference',
  rounding: 'Rounding',
  'write-off': 'Write-off',
};

/** The items of a line: date, dataset, description, reference, the amount and what the line counts of it. */
function ItemsTable({ items, currency, label }: { items: StatementItem[]; currency: string; label: string }) {
  return (
    <table className="close-items" aria-label={label}>
      <thead>
        <tr>
          <th scope="col">Date</th>
          <th scope="col">Dataset</th>
          <th scope="col">Description</th>
          <th scope="col">Reference</th>
          <th scope="col">Why it is here</th>
          <th scope="col" className="number">
            Amount
          </th>
          <th scope="col" className="number">
            Counted
          </th>
        </tr>
      </thead>
      <tbody>
        {items.map((item) => (
          <tr key={item.transactionId}>
            <td data-label="Date">
              <CalendarDate value={item.date} />
            </td>
            <td data-label="Dataset">{item.datasetName}</td>
            <td data-label="Description">{item.description || <span className="hint">No description</span>}</td>
            <td data-label="Reference">{item.reference ?? ''}</td>
            <td data-label="Why it is here">{REASONS[item.reason]}</td>
            <td data-label="Amount" className="number">
              <Amount amount={item.amount} currency={currency} />
            </td>
            <td data-label="Counted" className="number">
              <Amount amount={item.countedAmount} currency={currency} />
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

/** Items a line shows at a time; "Show more items" reads the next ones. */
const ITEMS_PER_PAGE = 25;

/**
 * The items of one line, a page at a time (the list recipe: the server's pages and cursors), read
 * when the line is opened.
 */
function LineItems({
  reconciliationId,
  periodEnd,
  line,
  currency,
  label,
}: {
  reconciliationId: string;
  periodEnd: string;
  line: StatementItemLine;
  currency: string;
  label: string;
}) {
  const { recon } = useSession();
  const pages = useInfiniteQuery({
    queryKey: ['close', 'statement-items', reconciliationId, periodEnd, line],
    initialPageParam: undefined as string | undefined,
    queryFn: ({ pageParam }) => closeApi.statementItems(recon, reconciliationId, periodEnd, line, pageParam, ITEMS_PER_PAGE),
    getNextPageParam: (last) => last.nextCursor ?? undefined,
  });
  const shown = pages.data?.pages.flatMap((page) => page.items) ?? [];
  const total = pages.data?.pages[0]?.total ?? 0;
  return (
    <div className="close-line-items-list">
      <ErrorMessage error={pages.error} />
      {pages.isPending && (
        <p className="hint" role="status">
          Loading the items…
        </p>
      )}
      {shown.length > 0 && <ItemsTable items={shown} currency={currency} label={label} />}
      {total > ITEMS_PER_PAGE && (
        <p className="hint" role="status">
          Showing {formatCount(shown.length)} of {count(total, 'item')}
        </p>
      )}
      {pages.hasNextPage && (
        <div className="buttons">
          <button type="button" className="secondary" disabled={pages.isFetchingNextPage} onClick={() => void pages.fetchNextPage()}>
            {pages.isFetchingNextPage ? 'Loading…' : 'Show more items'}
          </button>
        </div>
      )}
    </div>
  );
}

/**
 * One line of the statement: its words, what it adds or takes away, and, when it has items, a
 * button that shows them beneath it.
 */
function StatementRow({
  label,
  detail,
  amount,
  currency,
  items,
  emphasis,
  children,
}: {
  label: string;
  detail?: ReactNode;
  amount: string;
  currency: string;
  items?: number;
  emphasis?: 'subtotal' | 'total';
  children?: ReactNode;
}) {
  const [open, setOpen] = useState(false);
  const panelId = `items-${label.replace(/[^a-z]+/gi, '-').toLowerCase()}`;
  return (
    <>
      <tr className={emphasis ? `close-line close-${emphasis}` : 'close-line'}>
        <th scope="row">
          <span className="close-line-label">{label}</span>
          {detail && <span className="close-line-detail">{detail}</span>}
          {items !== undefined && items > 0 && (
            <button type="button" className="secondary small close-drill" aria-expanded={open} aria-controls={panelId} onClick={() => setOpen(!open)}>
              {`${open ? 'Hide' : 'Show'} ${items === 1 ? 'the item' : `the ${count(items, 'item')}`}`}
            </button>
          )}
        </th>
        <td className="number">
          <Amount amount={amount} currency={currency} />
        </td>
      </tr>
      {open && (
        <tr className="close-line-items" id={panelId}>
          <td colSpan={2}>{children}</td>
        </tr>
      )}
    </>
  );
}

/** The statement in the form accountants know, from the balance per bank to the unexplained difference. */
function StatementTable({ statement, reconciliationId }: { statement: Statement; reconciliationId: string }) {
  const currency = statement.reconciliation.currency;
  const end = formatCalendarDate(statement.periodEnd);
  const deposits = statement.ledgerNotInBank.items.filter((item) => !item.countedAmount.startsWith('-'));
  const payments = statement.ledgerNotInBank.items.filter((item) => item.countedAmount.startsWith('-'));
  const bankIn = statement.bankNotInLedger.items.filter((item) => !item.countedAmount.startsWith('-'));
  const bankOut = statement.bankNotInLedger.items.filter((item) => item.countedAmount.startsWith('-'));
  const total = (items: StatementItem[]) => sum(items.map((item) => item.countedAmount));
  const { bankBalance, ledgerBalance } = statement;
  const items = (line: StatementItemLine, label: string) => (
    <LineItems reconciliationId={reconciliationId} periodEnd={statement.periodEnd} line={line} currency={currency} label={label} />
  );
  return (
    <table className="close-statement" aria-label={`Reconciliation statement at ${end}`}>
      <thead className="visually-hidden">
        <tr>
          <th scope="col">Line</th>
          <th scope="col">Amount</th>
        </tr>
      </thead>
      <tbody>
        <StatementRow
          label={`Balance per bank at ${end}`}
          detail={
            bankBalance.source === 'statement' ? (
              <>
                from the statement of <CalendarDate value={bankBalance.statementDate} />
              </>
            ) : (
              'no statement balance on or before this day: computed from the opening balance and the entries'
            )
          }
          amount={bankBalance.amount}
          currency={currency}
        />
        <StatementRow
          label="Add: deposits in transit"
          detail="money in, in the ledger, not yet in the bank"
          amount={total(deposits)}
          currency={currency}
          items={deposits.length}
        >
          {items('deposits-in-transit', 'Deposits in transit')}
        </StatementRow>
        <StatementRow
          label="Less: outstanding payments"
          detail="money out, in the ledger, not yet in the bank"
          amount={total(payments)}
          currency={currency}
          items={payments.length}
        >
          {items('outstanding-payments', 'Outstanding payments')}
        </StatementRow>
        <StatementRow
          label="Less: receipts in the bank not yet in the ledger"
          detail="interest, unknown receipts"
          amount={negateDecimal(total(bankIn))}
          currency={currency}
          items={bankIn.length}
        >
          {items('bank-receipts', 'Receipts in the bank not yet in the ledger')}
        </StatementRow>
        <StatementRow
          label="Add: payments and fees in the bank not yet in the ledger"
          detail="fees, charges, unknown payments"
          amount={negateDecimal(total(bankOut))}
          currency={currency}
          items={bankOut.length}
        >
          {items('bank-payments', 'Payments and fees in the bank not yet in the ledger')}
        </StatementRow>
        <StatementRow label="Adjusted balance per bank" amount={statement.adjustedBankBalance} currency={currency} emphasis="subtotal" />
        {statement.adjustments.items.length > 0 && (
          <StatementRow
            // Like every line, its amount is what it adds on the way to the ledger's balance: a fee
            // the bank took (an adjustment below zero) is added back, so the word follows the sign.
            label={`${negateDecimal(statement.adjustments.total).startsWith('-') ? 'Less' : 'Add'}: differences booked as adjustments`}
            detail="fees, exchange differences, rounding and write-offs recorded on matches"
            amount={negateDecimal(statement.adjustments.total)}
            currency={currency}
            items={statement.adjustments.items.length}
          >
            <table className="close-items" aria-label="Adjustments">
              <thead>
                <tr>
                  <th scope="col">Date</th>
                  <th scope="col">Kind</th>
                  <th scope="col">Description</th>
                  <th scope="col">Bank reference</th>
                  <th scope="col" className="number">
                    Amount
                  </th>
                </tr>
              </thead>
              <tbody>
                {statement.adjustments.items.map((adjustment) => (
                  <tr key={adjustment.matchGroupId}>
                    <td data-label="Date">
                      <CalendarDate value={adjustment.date} />
                    </td>
                    <td data-label="Kind">{ADJUSTMENT_REASONS[adjustment.reason]}</td>
                    <td data-label="Description">
                      <Link to={`/match-group?id=${adjustment.matchGroupId}`}>{adjustment.description}</Link>
                    </td>
                    <td data-label="Bank reference">{adjustment.bankReference ?? ''}</td>
                    <td data-label="Amount" className="number">
                      <Amount amount={adjustment.amount} currency={currency} />
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </StatementRow>
        )}
        <StatementRow
          label={`Balance per ledger at ${end}`}
          detail={
            <>
              opening balance {formatAmount(ledgerBalance.openingBalance, currency)} on <CalendarDate value={ledgerBalance.openingDate} />, plus the entries up
              to {end}
            </>
          }
          amount={ledgerBalance.amount}
          currency={currency}
        />
        <StatementRow label="Unexplained difference" amount={statement.unexplainedDifference} currency={currency} emphasis="total" />
      </tbody>
    </table>
  );
}

/** The rows marked informative or out of scope, which count on no line. */
function SetApart({ statement, reconciliationId }: { statement: Statement; reconciliationId: string }) {
  const { informative, outOfScope } = statement.setApart;
  if (informative.length + outOfScope.length === 0) return null;
  const currency = statement.reconciliation.currency;
  return (
    <section className="card" aria-labelledby="set-apart-title">
      <h2 id="set-apart-title">Shown apart</h2>
      <p className="hint">Rows marked informative or out of scope count on no line of the statement.</p>
      {informative.length > 0 && (
        <details>
          <summary>Informative: {count(informative.length, 'row')}</summary>
          <LineItems reconciliationId={reconciliationId} periodEnd={statement.periodEnd} line="informative" currency={currency} label="Informative rows" />
        </details>
      )}
      {outOfScope.length > 0 && (
        <details>
          <summary>Out of scope: {count(outOfScope.length, 'row')}</summary>
          <LineItems reconciliationId={reconciliationId} periodEnd={statement.periodEnd} line="out-of-scope" currency={currency} label="Out-of-scope rows" />
        </details>
      )}
    </section>
  );
}

/** The confirmation of a reopening: the reason, and that it is recorded. */
function ReopenDialog({
  periodWords,
  onClose,
  onReopen,
  pending,
  error,
}: {
  periodWords: string;
  onClose: () => void;
  onReopen: (reason: string) => void;
  pending: boolean;
  error: unknown;
}) {
  const dialog = useRef<HTMLDialogElement>(null);
  const [reason, setReason] = useState('');
  const [missing, setMissing] = useState(false);
  useEffect(() => dialog.current?.showModal(), []);
  return (
    <dialog ref={dialog} className="confirm-dialog" aria-labelledby="reopen-title" onCancel={onClose}>
      <h2 id="reopen-title">Reopen {periodWords}?</h2>
      <p>
        Reopening lets the transactions dated in the period change again; the period must then be prepared and approved anew. The statement signed before is
        kept for the record, and the reopening is written to the audit trail with your name and your reason.
      </p>
      <form
        onSubmit={(event) => {
          event.preventDefault();
          if (reason.trim() === '') setMissing(true);
          else onReopen(reason.trim());
        }}
      >
        <label>
          Why is it reopened?
          <textarea
            value={reason}
            rows={3}
            maxLength={2000}
            aria-invalid={missing || undefined}
            aria-describedby={missing ? 'reopen-reason-error' : undefined}
            onChange={(event) => {
              setReason(event.target.value);
              setMissing(false);
            }}
          />
        </label>
        {missing && (
          <p className="error field-error" id="reopen-reason-error" role="alert">
            Give the reason for reopening: it is kept in the audit trail.
          </p>
        )}
        <ErrorMessage error={error} />
        <div className="buttons">
          <button type="submit" className="danger" disabled={pending}>
            {pending ? 'Reopening…' : 'Reopen the period'}
          </button>
          <button type="button" className="secondary" disabled={pending} onClick={onClose} autoFocus>
            Keep it closed
          </button>
        </div>
      </form>
    </dialog>
  );
}

/** Who prepared and who approved, when, and what the signed-in person may do next. */
const STEPS: Record<PeriodSummary['history'][number]['step'], string> = { prepare: 'Prepared', approve: 'Approved', reopen: 'Reopened' };

/** Every step of a period's sign-off, oldest first: who, when, and their note or reason. */
function History({ period }: { period: PeriodSummary | undefined }) {
  if (!period || period.history.length === 0) return null;
  return (
    <>
      <h3>Record of the sign-off</h3>
      <ol className="close-history">
        {period.history.map((step, index) => (
          <li key={index}>
            {STEPS[step.step]} by {step.by} on <Moment value={step.at} />
            {step.note ? `: “${step.note}”` : ''}
          </li>
        ))}
      </ol>
    </>
  );
}

function SignOff({ statement, reconciliation, period }: { statement: Statement; reconciliation: Reconciliation; period: PeriodSummary | undefined }) {
  const { recon, session } = useSession();
  const client = useQueryClient();
  const [note, setNote] = useState('');
  const [noteMissing, setNoteMissing] = useState(false);
  const [reopening, setReopening] = useState(false);
  const [done, setDone] = useState<string | null>(null);
  const { signOff } = statement;
  const currency = statement.reconciliation.currency;
  const periodWords = periodInWords(statement.periodStart, statement.periodEnd);
  const role = session.user.role as string;
  const me = (who: string | null) => who !== null && (who === session.user.email || who === session.user.id);
  const refresh = () => void client.invalidateQueries({ queryKey: ['close'] });
  const prepare = useMutation({
    mutationFn: () => closeApi.prepare(recon, reconciliation.id, statement.periodEnd, note.trim()),
    onSuccess: () => {
      setDone(`${periodWords} is prepared: another person, an Administrator or a Reviewer, approves it.`);
      setNote('');
      refresh();
    },
  });
  const approve = useMutation({
    mutationFn: () => closeApi.approve(recon, reconciliation.id, statement.periodEnd),
    onSuccess: () => {
      setDone(`${periodWords} is approved and closed: nothing dated in it can change now.`);
      refresh();
    },
  });
  const reopen = useMutation({
    mutationFn: (reason: string) => closeApi.reopen(recon, reconciliation.id, statement.periodEnd, reason),
    onSuccess: () => {
      setReopening(false);
      setDone(`${periodWords} is open again; the reopening and its reason are in the audit trail.`);
      refresh();
    },
  });
  const canPrepare = role === 'Full member' || role === 'Administrator';
  const canApprove = role === 'Administrator' || role === 'Reviewer';
  const balanced = isZero(statement.unexplainedDifference);
  return (
    <section className="card" aria-labelledby="sign-off-title">
      <h2 id="sign-off-title">Sign-off</h2>
      <dl className="fields close-signoff">
        <div className="field">
          <dt>Status</dt>
          <dd>
            <span className={stateClass(signOff.state)}>{stateInWords(signOff.state)}</span>
          </dd>
        </div>
        <div className="field">
          <dt>Prepared by</dt>
          <dd>
            {signOff.preparedBy ? (
              <>
                {signOff.preparedBy} on <Moment value={signOff.preparedAt} />
              </>
            ) : (
              'Not yet'
            )}
          </dd>
        </div>
        {signOff.preparerNote && (
          <div className="field">
            <dt>Preparer's note</dt>
            <dd>{signOff.preparerNote}</dd>
          </div>
        )}
        <div className="field">
          <dt>Approved by</dt>
          <dd>
            {signOff.approvedBy ? (
              <>
                {signOff.approvedBy} on <Moment value={signOff.approvedAt} />
              </>
            ) : (
              'Not yet'
            )}
          </dd>
        </div>
      </dl>
      {done && (
        <p className="success" role="status">
          {done}
        </p>
      )}
      {signOff.state === 'open' && !canPrepare && <p className="hint">You can read this statement; preparing it needs a Full member or an Administrator.</p>}
      {signOff.state === 'open' && canPrepare && !balanced && (
        <p className="notice" id="prepare-unavailable">
          Prepare is unavailable: the unexplained difference is {formatAmount(statement.unexplainedDifference, currency)}, and a period is prepared only when it
          is {formatAmount('0.00', currency)}. Match or explain the open items first.
        </p>
      )}
      {signOff.state === 'open' && canPrepare && balanced && (
        <form
          className="close-prepare"
          onSubmit={(event) => {
            event.preventDefault();
            if (note.trim() === '') setNoteMissing(true);
            else prepare.mutate();
          }}
          noValidate
        >
          <label>
            Note for the reviewer
            <textarea
              value={note}
              rows={2}
              maxLength={2000}
              aria-invalid={noteMissing || undefined}
              aria-describedby={noteMissing ? 'prepare-note-error' : undefined}
              onChange={(event) => {
                setNote(event.target.value);
                setNoteMissing(false);
              }}
            />
          </label>
          {noteMissing && (
            <p className="error field-error" id="prepare-note-error" role="alert">
              Write a note for the reviewer: what you checked, and anything still pending.
            </p>
          )}
          <p className="hint">Preparing keeps the statement as it stands now, with your name; a second person then approves it.</p>
          <ErrorMessage error={prepare.error} />
          <div className="buttons">
            <button type="submit" disabled={prepare.isPending}>
              {prepare.isPending ? 'Preparing…' : `Prepare ${periodWords}`}
            </button>
          </div>
        </form>
      )}
      {signOff.state === 'prepared' &&
        (me(signOff.preparedBy) ? (
          <p className="hint">You prepared this period: another person, an Administrator or a Reviewer, approves it.</p>
        ) : !canApprove ? (
          <p className="hint">Approving needs an Administrator or a Reviewer.</p>
        ) : (
          <>
            <p className="hint">Approving closes the period: no match, import or status change may then touch a transaction dated in it.</p>
            <ErrorMessage error={approve.error} />
            <div className="buttons">
              <button type="button" disabled={approve.isPending} onClick={() => approve.mutate()}>
                {approve.isPending ? 'Approving…' : `Approve and close ${periodWords}`}
              </button>
            </div>
          </>
        ))}
      {signOff.state !== 'open' && role === 'Administrator' && (
        <div className="buttons close-reopen">
          <button type="button" className="danger" onClick={() => setReopening(true)}>
            Reopen the period…
          </button>
        </div>
      )}
      {signOff.state === 'approved' && role !== 'Administrator' && <p className="hint">Only an Administrator can reopen a closed period, with a reason.</p>}
      <History period={period} />
      {reopening && (
        <ReopenDialog
          periodWords={periodWords}
          onClose={() => {
            setReopening(false);
            reopen.reset();
          }}
          onReopen={(reason) => reopen.mutate(reason)}
          pending={reopen.isPending}
          error={reopen.error}
        />
      )}
    </section>
  );
}

type ReportKind = 'pdf' | 'xlsx' | 'csv' | 'journal';

const REPORTS: { kind: ReportKind; words: string; fallbackName: string }[] = [
  { kind: 'pdf', words: 'Download PDF', fallbackName: '.pdf' },
  { kind: 'xlsx', words: 'Download spreadsheet (XLSX)', fallbackName: '.xlsx' },
  { kind: 'csv', words: 'Download items (CSV)', fallbackName: ' - items.csv' },
  { kind: 'journal', words: 'Journal entries (CSV)', fallbackName: ' - journal entries.csv' },
];

/** The period's reports: the statement as PDF and spreadsheet, its items, and its adjustments as journal entries when it has some. */
function Downloads({ statement, reconciliation }: { statement: Statement; reconciliation: Reconciliation }) {
  const { recon } = useSession();
  const [pending, setPending] = useState<ReportKind | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const reports = REPORTS.filter((report) => report.kind !== 'journal' || statement.adjustments.items.length > 0);
  async function download(report: (typeof REPORTS)[number]) {
    setProblem(null);
    setPending(report.kind);
    try {
      const file =
        report.kind === 'journal'
          ? await closeApi.journalEntriesFile(recon, reconciliation.id, statement.periodEnd)
          : await closeApi.statementFile(recon, reconciliation.id, statement.periodEnd, report.kind);
      saveFile(file.blob, file.filename ?? `${reconciliation.name} - ${periodInWords(statement.periodStart, statement.periodEnd)}${report.fallbackName}`);
    } catch (error) {
      setProblem(messageOf(error));
    } finally {
      setPending(null);
    }
  }
  return (
    <section className="card" aria-labelledby="downloads-title">
      <h2 id="downloads-title">Reports</h2>
      <p className="hint">
        {statement.signOff.state === 'open'
          ? 'The period is open: the reports show the statement as the data stands, marked as a draft.'
          : 'The reports show the statement as it was signed.'}
      </p>
      <div className="buttons">
        {reports.map((report) => (
          <button key={report.kind} type="button" className="secondary" disabled={pending !== null} onClick={() => void download(report)}>
            {pending === report.kind ? 'Preparing the file…' : report.words}
          </button>
        ))}
      </div>
      {problem && (
        <p className="error" role="alert">
          {problem}
        </p>
      )}
    </section>
  );
}

/** A reconciliation's statement for one period, its sign-off, and its reports. */
export function StatementPage() {
  const { reconciliationId = '' } = useParams();
  const [params, setParams] = useSearchParams();
  const { recon, session } = useSession();
  const [editing, setEditing] = useState(false);
  const reconciliation = useQuery({
    queryKey: ['close', 'reconciliation', reconciliationId],
    queryFn: () => closeApi.getReconciliation(recon, reconciliationId),
  });
  const periods = useQuery({
    queryKey: ['close', 'periods', reconciliationId],
    queryFn: () => closeApi.periods(recon, reconciliationId),
    select: (list) => periodsAfterOpening(list, reconciliation.data?.ledgerOpeningDate),
    enabled: reconciliation.isSuccess,
  });
  const atHand = periods.data ? periodAtHand(periods.data, reconciliation.data?.ledgerOpeningDate) : undefined;
  const periodEnd = params.get('periodEnd') ?? atHand?.periodEnd ?? '';
  const statement = useQuery({
    queryKey: ['close', 'statement', reconciliationId, periodEnd],
    queryFn: () => closeApi.statement(recon, reconciliationId, periodEnd),
    enabled: periodEnd !== '' && !isMissingReconciliation(reconciliation.error),
  });
  const data = statement.data;
  const choices = periods.data ?? [];
  const shownChoices =
    periodEnd !== '' && !choices.some((period) => period.periodEnd === periodEnd) && data ? [{ ...data, state: data.signOff.state }, ...choices] : choices;

  if (isMissingReconciliation(reconciliation.error)) return <ReconciliationMissing />;
  return (
    <>
      <section className="card close-head">
        <p className="close-back">
          <Link to="/close">Month-end close</Link>
        </p>
        <h1>{reconciliation.data?.name ?? data?.reconciliation.name ?? 'Reconciliation'}</h1>
        <ErrorMessage error={reconciliation.error ?? periods.error} />
        {data && (
          <p className="hint">
            Bank: {data.reconciliation.bankDatasetNames.join(', ')} · Ledger: {data.reconciliation.ledgerDatasetNames.join(', ')} · in{' '}
            {data.reconciliation.currency}
          </p>
        )}
        <div className="close-toolbar">
          {shownChoices.length > 0 && (
            <label>
              Period
              <select
                value={periodEnd}
                onChange={(event) => {
                  const next = new URLSearchParams(params);
                  next.set('periodEnd', event.target.value);
                  setParams(next);
                }}
              >
                {shownChoices.map((period) => (
                  <option key={period.periodEnd} value={period.periodEnd}>
                    {periodInWords(period.periodStart, period.periodEnd)} — {stateInWords(period.state).toLowerCase()}
                  </option>
                ))}
              </select>
            </label>
          )}
          {periodEnd !== '' && (
            <Link className="close-exceptions-link" to={`/close/${reconciliationId}/exceptions?periodEnd=${periodEnd}`}>
              Open exceptions of the period
            </Link>
          )}
          {reconciliation.data && (session.user.role === 'Full member' || session.user.role === 'Administrator') && !editing && (
            <button type="button" className="secondary" onClick={() => setEditing(true)}>
              Change the reconciliation
            </button>
          )}
        </div>
        {editing && reconciliation.data && (
          <ReconciliationForm reconciliation={reconciliation.data} onDone={() => setEditing(false)} onSaved={() => setEditing(false)} />
        )}
      </section>
      {statement.isPending && periodEnd !== '' && (
        <p className="hint" role="status">
          Computing the statement…
        </p>
      )}
      {periods.isSuccess && periodEnd === '' && (
        <p className="hint">This reconciliation has no period yet: its first one starts after the ledger's opening balance.</p>
      )}
      <ErrorMessage error={statement.error} />
      {data && (
        <>
          <section className="card" aria-labelledby="statement-title">
            <h2 id="statement-title">
              Bank reconciliation statement, {periodInWords(data.periodStart, data.periodEnd)}{' '}
              <span className={stateClass(data.signOff.state)}>{stateInWords(data.signOff.state)}</span>
            </h2>
            <p className="hint">
              {data.signOff.state === 'open' ? (
                <>
                  Computed <Moment value={data.computedAt} /> from the data as it stands.
                </>
              ) : (
                'As it stood when it was prepared: the stored statement, not computed again.'
              )}
            </p>
            <StatementTable statement={data} reconciliationId={reconciliationId} />
          </section>
          {reconciliation.data && (
            <SignOff statement={data} reconciliation={reconciliation.data} period={periods.data?.find((candidate) => candidate.periodEnd === data.periodEnd)} />
          )}
          {reconciliation.data && <Downloads statement={data} reconciliation={reconciliation.data} />}
          <SetApart statement={data} reconciliationId={reconciliationId} />
        </>
      )}
    </>
  );
}
