import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Fragment, useState, type FormEvent } from 'react';
import { Link, useParams } from 'react-router';
import { useAddress } from '../address.ts';
import { Amount } from '../components/Amount.tsx';
import { ErrorMessage } from '../components/ErrorMessage.tsx';
import { ConfirmDialog } from '../components/MarkDialog.tsx';
import { isMissingReconciliation, ReconciliationMissing } from '../components/ReconciliationMissing.tsx';
import { CalendarDate, Moment } from '../components/When.tsx';
import { closeApi, type AgeBucket, type ExceptionChange, type ExceptionFilter, type ExceptionItem, type Person } from '../close-api.ts';
import { periodAtHand, periodInWords, periodsAfterOpening } from '../close-words.ts';
import { formatCalendarDate, countOf as count, formatCount } from '../format.ts';
import { useSession } from '../session.tsx';

const FILTERS: { value: ExceptionFilter; words: string }[] = [
  { value: 'open', words: 'All open' },
  { value: 'mine', words: 'Mine' },
  { value: 'unassigned', words: 'Unassigned' },
  { value: 'overdue', words: 'Overdue' },
  { value: 'on-hold', words: 'On hold' },
  { value: 'resolved', words: 'Resolved' },
];

const AGES: { value: AgeBucket; words: string }[] = [
  { value: 'all', words: 'Any age' },
  { value: '0-7', words: '0–7 days' },
  { value: '8-30', words: '8–30 days' },
  { value: '31-90', words: '31–90 days' },
  { value: 'over-90', words: 'More than 90 days' },
];

const RESOLUTIONS: Record<NonNullable<ExceptionItem['resolution']>, string> = {
  matched: 'by a match',
  adjustment: 'by an adjustment',
  note: 'with a note',
};

/** An exception in a few words, for the labels of its controls. */
function itemWords(item: ExceptionItem) {
  return `${item.transaction.description || 'no description'} (${item.transaction.datasetName})`;
}

function AssigneeSelect({ label, value, people, onChange }: { label: string; value: string; people: Person[]; onChange: (id: string) => void }) {
  return (
    <label>
      {label}
      <select value={value} onChange={(event) => onChange(event.target.value)}>
        <option value="">Nobody</option>
        {people.map((person) => (
          <option key={person.id} value={person.id}>
            {person.name}
          </option>
        ))}
      </select>
    </label>
  );
}

/** What a person does with one exception: assign it, give it a due date, hold it with a reason, comment. */
function ExceptionDetail({ item, people, canWrite, onChange }: { item: ExceptionItem; people: Person[]; canWrite: boolean; onChange: () => void }) {
  const { recon } = useSession();
  const [comment, setComment] = useState('');
  const [holdReason, setHoldReason] = useState(item.holdReason ?? '');
  const [due, setDue] = useState(item.dueDate ?? '');
  const [resolution, setResolution] = useState('');
  const [done, setDone] = useState<string | null>(null);
  const client = useQueryClient();
  const comments = useQuery({ queryKey: ['close', 'comments', item.transactionId], queryFn: () => closeApi.comments(recon, item.transactionId) });
  const resolve = useMutation({
    mutationFn: () => closeApi.resolveWithNote(recon, item.transactionId, resolution.trim()),
    onSuccess: () => {
      setResolution('');
      setDone('It is resolved with your note.');
      onChange();
    },
  });
  const change = useMutation({
    mutationFn: (body: { change: ExceptionChange; words: string }) => closeApi.changeException(recon, item.transactionId, body.change).then(() => body.words),
    onSuccess: (words) => {
      setDone(words);
      onChange();
    },
  });
  const addComment = useMutation({
    mutationFn: () => closeApi.comment(recon, item.transactionId, comment.trim()),
    onSuccess: () => {
      setComment('');
      setDone('Your comment is added.');
      void client.invalidateQueries({ queryKey: ['close', 'comments', item.transactionId] });
      onChange();
    },
  });
  return (
    <div className="close-exception-detail">
      <section aria-label={`Comments on ${itemWords(item)}`}>
        <h3>Comments</h3>
        <ErrorMessage error={comments.error} />
        {comments.isPending && <p role="status">Loading the comments…</p>}
        {comments.data?.length === 0 && <p className="hint">No comment yet.</p>}
        <ol className="close-comments">
          {(comments.data ?? []).map((entry, index) => (
            <li key={index}>
              <p className="close-comment-head">
                {entry.authorName} · <Moment value={entry.createdAt} />
              </p>
              <p>{entry.body}</p>
            </li>
          ))}
        </ol>
        {canWrite && (
          <form
            className="close-comment-form"
            onSubmit={(event) => {
              event.preventDefault();
              if (comment.trim() !== '') addComment.mutate();
            }}
          >
            <label>
              Add a comment
              <textarea value={comment} rows={2} maxLength={4000} onChange={(event) => setComment(event.target.value)} />
            </label>
            <div className="buttons">
              <button type="submit" disabled={addComment.isPending || comment.trim() === ''}>
                {addComment.isPending ? 'Adding…' : 'Add the comment'}
              </button>
            </div>
            <ErrorMessage error={addComment.error} />
          </form>
        )}
      </section>
      {canWrite && (
        <section aria-label={`Follow-up of ${itemWords(item)}`} className="close-followup">
          <h3>Follow-up</h3>
          <AssigneeSelect
            label="Assigned to"
            value={item.assignee?.id ?? ''}
            people={people}
            onChange={(id) =>
              change.mutate({
                change: { assigneeUserId: id === '' ? null : id },
                words: id === '' ? 'Nobody is assigned now.' : `Assigned to ${people.find((person) => person.id === id)?.name ?? 'them'}.`,
              })
            }
          />
          <form
            className="inline"
            onSubmit={(event) => {
              event.preventDefault();
              change.mutate({ change: { dueDate: due === '' ? null : due }, words: due === '' ? 'The due date is cleared.' : 'The due date is set.' });
            }}
          >
            <label>
              Due date
              <input type="date" value={due} onChange={(event) => setDue(event.target.value)} />
            </label>
            <button type="submit" className="secondary" disabled={change.isPending}>
              Set the due date
            </button>
          </form>
          <form
            className="inline"
            onSubmit={(event) => {
              event.preventDefault();
              change.mutate({ change: { holdReason: holdReason.trim() }, words: 'It is on hold.' });
            }}
          >
            <label>
              On hold because
              <input value={holdReason} maxLength={500} placeholder="e.g. waiting for the invoice" onChange={(event) => setHoldReason(event.target.value)} />
            </label>
            <button type="submit" className="secondary" disabled={change.isPending || holdReason.trim() === ''}>
              Put on hold
            </button>
            {item.holdReason && (
              <button
                type="button"
                className="secondary"
                disabled={change.isPending}
                onClick={() => {
                  setHoldReason('');
                  change.mutate({ change: { holdReason: null }, words: 'It is no longer on hold.' });
                }}
              >
                Release the hold
              </button>
            )}
          </form>
          <ErrorMessage error={change.error} />
          {item.resolution === null && (
            <form
              className="inline"
              onSubmit={(event) => {
                event.preventDefault();
                if (resolution.trim() !== '') resolve.mutate();
              }}
            >
              <label>
                Resolve with a note
                <input
                  value={resolution}
                  maxLength={2000}
                  placeholder="e.g. bank error, corrected by the bank on 3 April"
                  onChange={(event) => setResolution(event.target.value)}
                />
              </label>
              <button type="submit" className="secondary" disabled={resolve.isPending || resolution.trim() === ''}>
                Resolve
              </button>
            </form>
          )}
          <ErrorMessage error={resolve.error} />
        </section>
      )}
      {item.resolution !== null && (
        <p className="hint">
          Resolved {RESOLUTIONS[item.resolution]}
          {item.resolvedAt ? (
            <>
              {' '}
              on <Moment value={item.resolvedAt} />
            </>
          ) : null}
          {item.resolutionNote ? `: ${item.resolutionNote}` : '.'}
        </p>
      )}
      {done && (
        <p className="success" role="status">
          {done}
        </p>
      )}
    </div>
  );
}

/** "is" or "are", for a count. */
function isAre(value: number) {
  return value === 1 ? 'is' : 'are';
}

/**
 * What a change of many did, in words: how many it changed (only those), and why the rest were
 * left as they were. `done` and `already` finish "2 exceptions are …" and "The other one was …".
 */
function changedInWords(chosen: number, changed: number, done: string, already: string): string {
  if (changed === 0)
    return chosen === 1
      ? `Nothing changed: the chosen exception was ${already}.`
      : `Nothing changed: the ${formatCount(chosen)} chosen exceptions were ${already}.`;
  const rest = chosen - changed;
  const others = rest === 0 ? '' : rest === 1 ? ` The other one was ${already}.` : ` The other ${formatCount(rest)} were ${already}.`;
  return `${count(changed, 'exception')} ${isAre(changed)} ${done}.${others}`;
}

interface BulkRequest {
  change: ExceptionChange;
  /** Which count of the answer says how many changed. */
  counted: 'assigned' | 'updated';
  done: string;
  already: string;
}

/**
 * The chosen exceptions, changed at once: assigned, given a due date, put on or taken off hold
 * (each all or nothing). Clearing many due dates is asked first: the dates are gone once cleared.
 */
function BulkChange({ chosen, people, onDone }: { chosen: ExceptionItem[]; people: Person[]; onDone: (words: string) => void }) {
  const { recon } = useSession();
  const [assignee, setAssignee] = useState('');
  const [due, setDue] = useState('');
  const [holdReason, setHoldReason] = useState('');
  const [confirmingClear, setConfirmingClear] = useState(false);
  const many = count(chosen.length, 'exception');
  const held = chosen.filter((item) => item.holdReason !== null).length;
  const dated = chosen.filter((item) => item.dueDate !== null).length;
  const apply = useMutation({
    mutationFn: (request: BulkRequest) =>
      closeApi.changeMany(
        recon,
        chosen.map((item) => item.transactionId),
        request.change,
      ),
    onSuccess: (answer, request) => onDone(changedInWords(chosen.length, answer[request.counted], request.done, request.already)),
  });
  const submit = (request: BulkRequest) => (event: FormEvent) => {
    event.preventDefault();
    apply.mutate(request);
  };
  const assigneeName = people.find((person) => person.id === assignee)?.name ?? 'them';
  const clearDue: BulkRequest = { change: { dueDate: null }, counted: 'updated', done: 'without a due date now', already: 'without a due date' };
  return (
    <section className="close-bulk" aria-label="The chosen exceptions">
      <p className="close-bulk-count">{many} chosen</p>
      <form
        className="inline"
        onSubmit={submit(
          assignee === ''
            ? { change: { assigneeUserId: null }, counted: 'assigned', done: 'no longer assigned', already: 'not assigned to anyone' }
            : {
                change: { assigneeUserId: assignee },
                counted: 'assigned',
                done: `assigned to ${assigneeName}`,
                already: `already assigned to ${assigneeName}`,
              },
        )}
      >
        <AssigneeSelect label="Assign them to" value={assignee} people={people} onChange={setAssignee} />
        <button type="submit" disabled={apply.isPending}>
          {`Assign ${many}`}
        </button>
      </form>
      <form
        className="inline"
        onSubmit={(event) => {
          event.preventDefault();
          if (due !== '') {
            const day = formatCalendarDate(due);
            apply.mutate({ change: { dueDate: due }, counted: 'updated', done: `due on ${day}`, already: `already due on ${day}` });
          } else if (dated > 0) setConfirmingClear(true);
          else apply.mutate(clearDue);
        }}
      >
        <label>
          Due date for them
          <input type="date" value={due} onChange={(event) => setDue(event.target.value)} />
        </label>
        <button type="submit" className="secondary" disabled={apply.isPending}>
          {due === '' ? 'Clear their due date…' : 'Set their due date'}
        </button>
      </form>
      <form
        className="inline"
        onSubmit={submit({ change: { holdReason: holdReason.trim() }, counted: 'updated', done: 'on hold', already: 'on hold for that reason already' })}
      >
        <label>
          Put them on hold because
          <input value={holdReason} maxLength={500} placeholder="e.g. waiting for the bank letter" onChange={(event) => setHoldReason(event.target.value)} />
        </label>
        <button type="submit" className="secondary" disabled={apply.isPending || holdReason.trim() === ''}>
          Put on hold
        </button>
        <button
          type="button"
          className="secondary"
          disabled={apply.isPending || held === 0}
          onClick={() => apply.mutate({ change: { holdReason: null }, counted: 'updated', done: 'no longer on hold', already: 'not on hold' })}
        >
          {held === 0 ? 'None of them is on hold' : `Release the hold of ${count(held, 'exception')}`}
        </button>
      </form>
      <ErrorMessage error={apply.error} />
      {confirmingClear && (
        <ConfirmDialog
          title={dated === 1 ? 'Clear 1 due date?' : `Clear ${formatCount(dated)} due dates?`}
          question={
            `${dated === chosen.length ? (chosen.length === 1 ? 'The chosen exception has' : `All ${formatCount(dated)} chosen exceptions have`) : `${formatCount(dated)} of the ${formatCount(chosen.length)} chosen exceptions ${dated === 1 ? 'has' : 'have'}`} a due date. ` +
            'Clearing removes it from each, and cannot be undone in one step: each date would have to be set again.'
          }
          confirm={dated === 1 ? 'Clear the due date' : `Clear ${formatCount(dated)} due dates`}
          onConfirm={() => {
            setConfirmingClear(false);
            apply.mutate(clearDue);
          }}
          onCancel={() => setConfirmingClear(false)}
        />
      )}
    </section>
  );
}

/** The exceptions queue of a reconciliation's period: every open item, with who follows it up, by when, and why it waits. */
export function ExceptionsPage() {
  const { reconciliationId = '' } = useParams();
  const [params, setAddress] = useAddress();
  const { recon, session } = useSession();
  const client = useQueryClient();
  // A Reviewer reads and approves; writing needs a Full member or an Administrator.
  const canWrite = session.user.role === 'Full member' || session.user.role === 'Administrator';
  // An address may ask for a list the queue does not have (typed by hand, or of an older version).
  const shownParam = params.get('show');
  const ageParam = params.get('age');
  const unknownChoice =
    (shownParam !== null && !FILTERS.some((option) => option.value === shownParam)) || (ageParam !== null && !AGES.some((option) => option.value === ageParam));
  const filter = unknownChoice ? 'open' : ((shownParam as ExceptionFilter | null) ?? 'open');
  const age = unknownChoice ? 'all' : ((ageParam as AgeBucket | null) ?? 'all');
  const [chosen, setChosen] = useState<string[]>([]);
  const [opened, setOpened] = useState<string | null>(null);
  const [done, setDone] = useState<string | null>(null);
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
  const period = periods.data?.find((candidate) => candidate.periodEnd === periodEnd);
  const openingDate = reconciliation.data?.ledgerOpeningDate;
  // A period ending on or before the ledger's opening balance holds nothing to reconcile.
  const beforeOpening = openingDate !== undefined && periodEnd !== '' && periodEnd <= openingDate;
  const exceptions = useQuery({
    queryKey: ['close', 'exceptions', reconciliationId, periodEnd, filter, age],
    queryFn: () => closeApi.exceptions(recon, { reconciliationId, periodEnd, filter, age }),
    enabled: periodEnd !== '' && !unknownChoice && reconciliation.isSuccess && !beforeOpening,
  });
  const people = useQuery({
    queryKey: ['close', 'assignees'],
    queryFn: () => closeApi.assignees(recon),
    enabled: canWrite,
  });
  const items = exceptions.data ?? [];
  const refresh = () => void client.invalidateQueries({ queryKey: ['close'] });
  const setParam = (name: string, value: string, empty: string) => {
    setAddress(name, value === empty ? '' : value, true);
    setChosen([]);
  };
  const currency = reconciliation.data?.currency;
  const addressWith = (end: string | undefined) => `/close/${reconciliationId}/exceptions${end ? `?periodEnd=${end}` : ''}`;

  if (isMissingReconciliation(reconciliation.error)) return <ReconciliationMissing />;
  if (unknownChoice)
    return (
      <section className="card" aria-labelledby="unknown-choice-title">
        <h1 id="unknown-choice-title">This list of exceptions does not exist</h1>
        <p>
          The address asks for exceptions by a choice the queue does not offer (it may be mistyped, or from an older link). The queue shows all open exceptions,
          mine, unassigned, overdue, on hold or resolved, of any age or of an age bucket.
        </p>
        <p>
          <Link to={addressWith(params.get('periodEnd') ?? undefined)}>Show all open exceptions</Link>
        </p>
      </section>
    );

  return (
    <>
      <section className="card">
        <p className="close-back">
          <Link to={`/close/${reconciliationId}${periodEnd ? `?periodEnd=${periodEnd}` : ''}`}>{reconciliation.data?.name ?? 'The statement'}</Link>
        </p>
        <h1>Exceptions{period ? `, ${periodInWords(period.periodStart, period.periodEnd)}` : ''}</h1>
        <p className="hint">Every open item of the period's datasets: who follows it up, by when, and why it waits.</p>
        <ErrorMessage error={reconciliation.error ?? periods.error} />
        <div className="filters close-filters">
          <fieldset className="close-show">
            <legend>Show</legend>
            {FILTERS.map((option) => (
              <label key={option.value} className="close-chip">
                <input
                  type="radio"
                  name="show"
                  value={option.value}
                  checked={filter === option.value}
                  onChange={() => setParam('show', option.value, 'open')}
                />
                {option.words}
              </label>
            ))}
          </fieldset>
          <label>
            Age
            <select value={age} onChange={(event) => setParam('age', event.target.value, 'all')}>
              {AGES.map((option) => (
                <option key={option.value} value={option.value}>
                  {option.words}
                </option>
              ))}
            </select>
          </label>
        </div>
      </section>
      <section className="card" aria-labelledby="exceptions-title">
        <h2 id="exceptions-title">
          {exceptions.isSuccess ? count(items.length, filter === 'resolved' ? 'resolved item' : 'open item') : beforeOpening ? 'No open items' : 'Open items'}
        </h2>
        <ErrorMessage error={exceptions.error} />
        {beforeOpening && (
          <p className="notice" role="status">
            This period ends on {formatCalendarDate(periodEnd)}, on or before the ledger's opening balance of {formatCalendarDate(openingDate)}: the
            reconciliation starts there, so nothing before it is followed up and the queue is empty.{' '}
            {atHand ? (
              <Link to={addressWith(atHand.periodEnd)}>Open the exceptions of {periodInWords(atHand.periodStart, atHand.periodEnd)}</Link>
            ) : (
              <Link to={`/close/${reconciliationId}`}>Back to the statement</Link>
            )}
          </p>
        )}
        {exceptions.isPending && exceptions.fetchStatus !== 'idle' && <p role="status">Loading the exceptions…</p>}
        {done && (
          <p className="success" role="status">
            {done}
          </p>
        )}
        {canWrite && items.length > 1 && (
          // On a phone the table's head is not shown: choosing them all is offered above the cards.
          <label className="close-choose-all">
            <input
              type="checkbox"
              checked={chosen.length === items.length}
              onChange={(event) => setChosen(event.target.checked ? items.map((item) => item.transactionId) : [])}
            />
            {`Choose all ${formatCount(items.length)} shown`}
          </label>
        )}
        {canWrite && chosen.length > 0 && (
          <BulkChange
            chosen={items.filter((item) => chosen.includes(item.transactionId))}
            people={people.data ?? []}
            onDone={(words) => {
              setDone(words);
              setChosen([]);
              refresh();
            }}
          />
        )}
        {exceptions.isSuccess && items.length === 0 && <p className="hint">Nothing to follow up here.</p>}
        {items.length > 0 && (
          <table className="close-exceptions">
            <thead>
              <tr>
                {canWrite && (
                  <th scope="col" className="close-choose">
                    <input
                      type="checkbox"
                      aria-label="Choose every exception shown"
                      checked={chosen.length === items.length}
                      onChange={(event) => setChosen(event.target.checked ? items.map((item) => item.transactionId) : [])}
                    />
                  </th>
                )}
                <th scope="col">Date</th>
                <th scope="col">Side</th>
                <th scope="col">Description</th>
                <th scope="col" className="number">
                  Open amount
                </th>
                <th scope="col" className="number">
                  Age
                </th>
                <th scope="col">Assigned to</th>
                <th scope="col">Due</th>
                <th scope="col">Follow-up</th>
              </tr>
            </thead>
            <tbody>
              {items.map((item) => {
                const isOpen = opened === item.transactionId;
                return (
                  <Fragment key={item.transactionId}>
                    <tr className={item.overdue ? 'close-overdue' : undefined}>
                      {canWrite && (
                        <td data-label="Choose" className="close-choose">
                          <input
                            type="checkbox"
                            aria-label={`Choose ${itemWords(item)}`}
                            checked={chosen.includes(item.transactionId)}
                            onChange={(event) =>
                              setChosen(event.target.checked ? [...chosen, item.transactionId] : chosen.filter((id) => id !== item.transactionId))
                            }
                          />
                        </td>
                      )}
                      <td data-label="Date">
                        <CalendarDate value={item.transaction.date} />
                      </td>
                      <td data-label="Side">
                        {item.transaction.side === 'bank' ? 'Bank · ' : item.transaction.side === 'ledger' ? 'Ledger · ' : ''}
                        {item.transaction.datasetName}
                      </td>
                      <td data-label="Description" className="close-stacked">
                        <span>
                          {item.transaction.description || <span className="hint">No description</span>}
                          {item.transaction.reference && <span className="hint"> · {item.transaction.reference}</span>}
                          {item.latestComment && (
                            <span className="close-latest-comment">
                              “{item.latestComment.body}” — {item.latestComment.authorName}
                            </span>
                          )}
                        </span>
                      </td>
                      <td data-label="Open amount" className="number">
                        {item.transaction.openAmount === null ? (
                          '—'
                        ) : (
                          <Amount amount={item.transaction.openAmount} currency={item.transaction.currency ?? currency} />
                        )}
                      </td>
                      <td data-label="Age" className="number">
                        {count(item.ageDays, 'day')}
                      </td>
                      <td data-label="Assigned to">{item.assignee ? (item.assignee.email ?? 'A former user') : <span className="hint">Nobody</span>}</td>
                      <td data-label="Due">
                        <span>
                          {item.dueDate ? <CalendarDate value={item.dueDate} /> : '—'}
                          {item.overdue && <span className="status status-none"> overdue</span>}
                        </span>
                      </td>
                      <td data-label="Follow-up" className="close-follow-up-cell">
                        {item.holdReason && <span className="status status-partial">On hold: {item.holdReason}</span>}{' '}
                        <button
                          type="button"
                          className="secondary small"
                          aria-expanded={isOpen}
                          aria-label={`${isOpen ? 'Hide' : 'Show'} the follow-up of ${itemWords(item)}, ${count(item.commentCount, 'comment')}`}
                          onClick={() => setOpened(isOpen ? null : item.transactionId)}
                        >
                          {isOpen ? 'Hide' : item.commentCount > 0 ? `Follow up (${count(item.commentCount, 'comment')})` : 'Follow up'}
                        </button>
                      </td>
                    </tr>
                    {isOpen && (
                      <tr className="close-exception-row">
                        <td colSpan={canWrite ? 9 : 8}>
                          <ExceptionDetail item={item} people={people.data ?? []} canWrite={canWrite} onChange={refresh} />
                        </td>
                      </tr>
                    )}
                  </Fragment>
                );
              })}
            </tbody>
          </table>
        )}
      </section>
    </>
  );
}
