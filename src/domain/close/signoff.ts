import type { Database, Queryable } from '../../db/database.ts';
import {
  actorNameOf,
  findPreparedStatement,
  findRoleOf,
  insertSignoff,
  listPeriods,
  listSignoffs,
  lockPeriod,
  setPeriodState,
  type ReconciliationRow,
  type SignoffRow,
} from '../../db/repositories/close-reconciliations.ts';
import { appendAuditEvents } from '../../db/repositories/audit-events.ts';
import { countOpenExceptionsByDay } from '../../db/repositories/exceptions.ts';
import { closeErrors, invalidFieldIn } from '../../errors.ts';
import { AuditActions, objectEvent, type WriteContext } from '../audit.ts';
import type { Clock } from '../clock.ts';
import { systemClock } from '../clock.ts';
import { compareDecimals } from '../money.ts';
import { dayAfter, endOfDayMs, isCalendarDate, periodEndingOn, periodHolding, periodsUntil, type Period } from './periods.ts';
import type { Reconciliations } from './reconciliations.ts';
import { entriesProposedOnPrepare } from './report-files.ts';
import { computeStatement } from './statement.ts';
import type { ReconciliationStatement } from './statement-shape.ts';

/**
 * The sign-off of a reconciliation's periods (SPEC §14, four eyes): open → prepared → approved.
 *
 * - prepare (write:data): the unexplained difference must be exactly 0.00; the statement as it
 *   stands is stored with the step, and is what the period shows from then on (never recomputed);
 * - approve: by an Administrator or a Reviewer (the role of the user or API client is read, as a
 *   Reviewer's token carries read:data only), and not by whoever prepared it; the period is closed;
 * - reopen (write:data, Administrator only, with a reason): back to open; the steps before stay
 *   recorded, with the statements they stored.
 * Every step is a row of close_signoffs (which emits close_period.* events) and an audit event.
 */

/** The most periods GET /periods lists (the latest kept), and of them the open ones whose difference it computes. */
const PERIODS_LISTED = 120;
const DIFFERENCES_COMPUTED = 24;

export interface SignoffStep {
  step: 'prepare' | 'approve' | 'reopen';
  by: string;
  at: string;
  note: string | null;
}

export interface PeriodView {
  periodStart: string;
  periodEnd: string;
  state: 'open' | 'prepared' | 'approved';
  /** For an open period, the difference as the data stands (null when not computed); for a signed one, the stored statement's. */
  unexplainedDifference: string | null;
  preparedBy: string | null;
  preparedAt: string | null;
  approvedBy: string | null;
  approvedAt: string | null;
  /** Every step of the period's sign-off, oldest first, reopens included. */
  history: SignoffStep[];
  /** The open exceptions on or before the period end as the data stands now (the exceptions queue of the period). */
  openExceptions: number;
}

/** Who is acting: the audit actor and what identifies the user or client behind it. */
export interface Signer {
  userId?: string | undefined;
  clientId: string;
}

interface SignoffState {
  state: 'open' | 'prepared' | 'approved';
  preparedBy: SignoffRow | null;
  approvedBy: SignoffRow | null;
  history: SignoffStep[];
}

/** Where each period's sign-off stands, from its steps in order: a reopen forgets the signatures before it. */
function signoffStates(rows: readonly SignoffRow[]): Map<string, SignoffState> {
  const states = new Map<string, SignoffState>();
  for (const row of rows) {
    const state = states.get(row.periodEnd) ?? { state: 'open', preparedBy: null, approvedBy: null, history: [] };
    state.history.push({ step: row.step, by: row.actorName, at: row.createdAt, note: row.note });
    if (row.step === 'prepare') Object.assign(state, { state: 'prepared', preparedBy: row, approvedBy: null });
    else if (row.step === 'approve') Object.assign(state, { state: 'approved', approvedBy: row });
    else Object.assign(state, { state: 'open', preparedBy: null, approvedBy: null });
    states.set(row.periodEnd, state);
  }
  return states;
}

/**
 * Whether a period ends after the ledger's opening date. The opening balance is the ledger's at
 * the start of its date, so a period ending on that day (an opening date on the last day of a
 * month) would be one day of a month the ledger has not otherwise shown: it is not a period to
 * close, and is neither listed nor stated; the first period is the next one.
 */
function endsAfterOpening(period: Period, openingDate: string): boolean {
  return period.periodEnd > openingDate;
}

/** The end of a reconciliation's first period: the first that ends after the opening date. */
function firstPeriodEnd(reconciliation: ReconciliationRow): string {
  const first = periodHolding(reconciliation.ledgerOpeningDate, reconciliation.ledgerOpeningDate, reconciliation.periodMonths)!;
  return endsAfterOpening(first, reconciliation.ledgerOpeningDate)
    ? first.periodEnd
    : periodHolding(dayAfter(first.periodEnd), reconciliation.ledgerOpeningDate, reconciliation.periodMonths)!.periodEnd;
}

export class CloseSignoff {
  constructor(
    private readonly database: Database,
    private readonly reconciliations: Reconciliations,
    private readonly clock: Clock = systemClock,
  ) {}

  /** The period ending on periodEnd, checked: a real date, the last day of a period, not before the opening. */
  periodOf(reconciliation: ReconciliationRow, periodEnd: string): Period {
    if (!isCalendarDate(periodEnd)) throw invalidFieldIn('query', 'periodEnd', 'must be a calendar date written YYYY-MM-DD');
    const holding = periodHolding(periodEnd, reconciliation.ledgerOpeningDate, reconciliation.periodMonths);
    if (holding === null) throw closeErrors.periodBeforeOpening(periodEnd, reconciliation.ledgerOpeningDate);
    const period = periodEndingOn(periodEnd, reconciliation.ledgerOpeningDate, reconciliation.periodMonths);
    if (period === null) throw closeErrors.periodEndInvalid(periodEnd, holding.periodEnd);
    if (!endsAfterOpening(period, reconciliation.ledgerOpeningDate))
      throw closeErrors.periodEndsOnOpening(periodEnd, reconciliation.ledgerOpeningDate, firstPeriodEnd(reconciliation));
    return period;
  }

  /** The reconciliation as stored (its accounts, for the journal entries). */
  reconciliationOf(organizationId: string, reconciliationId: string): Promise<ReconciliationRow> {
    return this.reconciliations.find(this.database, organizationId, reconciliationId);
  }

  private now(): string {
    return new Date(this.clock.now()).toISOString();
  }

  /** The statement of a period: the stored one when the period is prepared or approved, computed from the data when open. */
  async statement(organizationId: string, reconciliationId: string, periodEnd: string): Promise<ReconciliationStatement> {
    const reconciliation = await this.reconciliations.find(this.database, organizationId, reconciliationId);
    const period = this.periodOf(reconciliation, periodEnd);
    const state = signoffStates(await listSignoffs(this.database, organizationId, reconciliation.id)).get(period.periodEnd);
    if (state && state.state !== 'open' && state.preparedBy) {
      const periods = await listPeriods(this.database, organizationId, reconciliation.id);
      const stored = periods.find((row) => row.periodEnd === period.periodEnd);
      const statement = stored ? ((await findPreparedStatement(this.database, organizationId, stored.id)) as ReconciliationStatement | null) : null;
      if (statement) return { ...statement, signOff: this.signOffOf(state) };
    }
    return computeStatement(this.database, organizationId, { reconciliation, period, computedAt: this.now() });
  }

  private signOffOf(state: SignoffState): ReconciliationStatement['signOff'] {
    return {
      state: state.state,
      preparedBy: state.preparedBy?.actorName ?? null,
      preparedAt: state.preparedBy?.createdAt ?? null,
      preparerNote: state.preparedBy?.note ?? null,
      approvedBy: state.approvedBy?.actorName ?? null,
      approvedAt: state.approvedBy?.createdAt ?? null,
    };
  }

  /** The periods from the first up to the one holding today, latest first, with their state and signatures. */
  async periods(organizationId: string, reconciliationId: string): Promise<{ periods: PeriodView[] }> {
    const reconciliation = await this.reconciliations.find(this.database, organizationId, reconciliationId);
    const today = this.now().slice(0, 10);
    const states = signoffStates(await listSignoffs(this.database, organizationId, reconciliation.id));
    const stored = await listPeriods(this.database, organizationId, reconciliation.id);
    const ends = new Map<string, Period>();
    for (const period of periodsUntil(today, reconciliation.ledgerOpeningDate, reconciliation.periodMonths, PERIODS_LISTED)) ends.set(period.periodEnd, period);
    for (const period of stored) ends.set(period.periodEnd, period);
    const periods = [...ends.values()]
      .filter((period) => endsAfterOpening(period, reconciliation.ledgerOpeningDate))
      .sort((left, right) => right.periodEnd.localeCompare(left.periodEnd));
    const openByDay =
      periods.length === 0 ? [] : await countOpenExceptionsByDay(this.database, organizationId, reconciliation.id, endOfDayMs(periods[0]!.periodEnd));
    const openExceptionsOn = (periodEnd: string) => openByDay.reduce((sum, day) => (day.day <= periodEnd ? sum + day.count : sum), 0);
    const views: PeriodView[] = [];
    let computed = 0;
    for (const period of periods) {
      const state = states.get(period.periodEnd);
      let difference: string | null = null;
      if (state && state.state !== 'open') {
        const row = stored.find((candidate) => candidate.periodEnd === period.periodEnd);
        const statement = row ? ((await findPreparedStatement(this.database, organizationId, row.id)) as ReconciliationStatement | null) : null;
        difference = statement?.unexplainedDifference ?? null;
      } else if (computed < DIFFERENCES_COMPUTED) {
        computed += 1;
        try {
          difference = (await computeStatement(this.database, organizationId, { reconciliation, period, computedAt: this.now() })).unexplainedDifference;
        } catch {
          // A period that cannot be stated (transactions of another currency) lists without a difference; its statement says why.
          difference = null;
        }
      }
      views.push({
        periodStart: period.periodStart,
        periodEnd: period.periodEnd,
        state: state?.state ?? 'open',
        unexplainedDifference: difference,
        preparedBy: state?.preparedBy?.actorName ?? null,
        preparedAt: state?.preparedBy?.createdAt ?? null,
        approvedBy: state?.approvedBy?.actorName ?? null,
        approvedAt: state?.approvedBy?.createdAt ?? null,
        history: state?.history ?? [],
        openExceptions: openExceptionsOn(period.periodEnd),
      });
    }
    return { periods: views };
  }

  private async view(transaction: Queryable, organizationId: string, reconciliation: ReconciliationRow, periodEnd: string): Promise<PeriodView> {
    const state = signoffStates(await listSignoffs(transaction, organizationId, reconciliation.id)).get(periodEnd)!;
    const period = this.periodOf(reconciliation, periodEnd);
    const stored = (await listPeriods(transaction, organizationId, reconciliation.id)).find((row) => row.periodEnd === periodEnd)!;
    const statement = (await findPreparedStatement(transaction, organizationId, stored.id)) as ReconciliationStatement | null;
    return {
      ...period,
      state: state.state,
      unexplainedDifference: state.state === 'open' ? null : (statement?.unexplainedDifference ?? null),
      preparedBy: state.preparedBy?.actorName ?? null,
      preparedAt: state.preparedBy?.createdAt ?? null,
      approvedBy: state.approvedBy?.actorName ?? null,
      approvedAt: state.approvedBy?.createdAt ?? null,
      history: state.history,
      openExceptions: (await countOpenExceptionsByDay(transaction, organizationId, reconciliation.id, endOfDayMs(periodEnd))).reduce(
        (sum, day) => sum + day.count,
        0,
      ),
    };
  }

  private async begin(transaction: Queryable, context: WriteContext, reconciliationId: string, periodEnd: string) {
    const reconciliation = await this.reconciliations.find(transaction, context.organizationId, reconciliationId, { lock: true });
    const period = this.periodOf(reconciliation, periodEnd);
    const row = await lockPeriod(transaction, context.organizationId, reconciliation.id, period.periodStart, period.periodEnd);
    return { reconciliation, period, row };
  }

  private async audit(
    transaction: Queryable,
    context: WriteContext,
    action: string,
    reconciliation: ReconciliationRow,
    periodEnd: string,
    from: string,
    to: string,
    note: string | null,
    difference: string | null,
  ) {
    await appendAuditEvents(transaction, { ...context, note }, [
      objectEvent(
        action,
        { reconciliationId: reconciliation.id, name: reconciliation.name, periodEnd, state: from },
        { reconciliationId: reconciliation.id, name: reconciliation.name, periodEnd, state: to, unexplainedDifference: difference },
      ),
    ]);
  }

  /** Prepares an open period whose unexplained difference is 0.00, storing its statement as it stands. */
  async prepare(transaction: Queryable, context: WriteContext, reconciliationId: string, periodEnd: string, note: string | null): Promise<PeriodView> {
    const { reconciliation, period, row } = await this.begin(transaction, context, reconciliationId, periodEnd);
    if (reconciliation.archived) throw closeErrors.reconciliationArchived(reconciliation.name);
    if (row.state !== 'open') throw closeErrors.periodNotOpen(period.periodEnd, row.state);
    const statement = await computeStatement(transaction, context.organizationId, { reconciliation, period, computedAt: this.now() });
    if (compareDecimals(statement.unexplainedDifference, '0') !== 0)
      throw closeErrors.differenceNotZero(statement.unexplainedDifference, reconciliation.currency);
    const signed: ReconciliationStatement = {
      ...statement,
      signOff: {
        state: 'prepared',
        preparedBy: await actorNameOf(transaction, context.organizationId, context.actor),
        preparedAt: this.now(),
        preparerNote: note,
        approvedBy: null,
        approvedAt: null,
      },
    };
    // The entries its adjustments propose go with the step, and out as journal_entry.proposed events (migration 0025).
    await insertSignoff(transaction, context.organizationId, row.id, 'prepare', context.actor, note, signed, entriesProposedOnPrepare(signed, reconciliation));
    await setPeriodState(transaction, context.organizationId, row.id, 'prepared');
    await this.audit(
      transaction,
      context,
      AuditActions.closePeriodPrepared,
      reconciliation,
      period.periodEnd,
      'open',
      'prepared',
      note,
      statement.unexplainedDifference,
    );
    return this.view(transaction, context.organizationId, reconciliation, period.periodEnd);
  }

  /** Approves a prepared period: an Administrator or a Reviewer who did not prepare it. */
  async approve(
    transaction: Queryable,
    context: WriteContext,
    signer: Signer,
    reconciliationId: string,
    periodEnd: string,
    note: string | null,
  ): Promise<PeriodView> {
    const role = await findRoleOf(transaction, context.organizationId, signer);
    if (role !== 'Administrator' && role !== 'Reviewer') throw closeErrors.approverRoleNeeded();
    const { reconciliation, period, row } = await this.begin(transaction, context, reconciliationId, periodEnd);
    if (row.state !== 'prepared') throw closeErrors.periodNotPrepared(period.periodEnd, row.state);
    const state = signoffStates(await listSignoffs(transaction, context.organizationId, reconciliation.id)).get(period.periodEnd);
    if (state?.preparedBy?.actor === context.actor) throw closeErrors.preparerCannotApprove();
    await insertSignoff(transaction, context.organizationId, row.id, 'approve', context.actor, note, null);
    await setPeriodState(transaction, context.organizationId, row.id, 'approved');
    await this.audit(transaction, context, AuditActions.closePeriodApproved, reconciliation, period.periodEnd, 'prepared', 'approved', note, null);
    return this.view(transaction, context.organizationId, reconciliation, period.periodEnd);
  }

  /** Reopens a prepared or approved period (Administrators only, with a reason); the steps before stay recorded. */
  async reopen(
    transaction: Queryable,
    context: WriteContext,
    signer: Signer,
    reconciliationId: string,
    periodEnd: string,
    reason: string,
  ): Promise<PeriodView> {
    const role = await findRoleOf(transaction, context.organizationId, signer);
    if (role !== 'Administrator') throw closeErrors.reopenNeedsAdministrator();
    const { reconciliation, period, row } = await this.begin(transaction, context, reconciliationId, periodEnd);
    if (row.state === 'open') throw closeErrors.periodNotSigned(period.periodEnd);
    await insertSignoff(transaction, context.organizationId, row.id, 'reopen', context.actor, reason, null);
    await setPeriodState(transaction, context.organizationId, row.id, 'open');
    await this.audit(transaction, context, AuditActions.closePeriodReopened, reconciliation, period.periodEnd, row.state, 'open', reason, null);
    return this.view(transaction, context.organizationId, reconciliation, period.periodEnd);
  }
}
