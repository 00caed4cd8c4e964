import type { ReconciliationRow } from '../../db/repositories/close-reconciliations.ts';
import type { ExceptionDetail, Exceptions } from './exceptions.ts';
import { journalEntriesCsv, proposeJournalEntries, type AdjustmentAccounts, type ProposedJournalEntry } from './journal-entries.ts';
import { renderStatementItemsCsv } from './reports/statement-csv.ts';
import { renderStatementPdf } from './reports/statement-pdf.ts';
import { renderStatementXlsx, type StatementException } from './reports/statement-xlsx.ts';
import type { CloseSignoff } from './signoff.ts';
import type { ReconciliationStatement } from './statement-shape.ts';

/**
 * The files of a period's statement (docs/CLOSE.md "Reports"), and its adjustments as proposed
 * journal entries ("Journal entries"). Each is made from the statement GET /statement answers:
 * the one stored when the period was prepared (prepared or approved), the one computed from the
 * data while it is open (the PDF then says DRAFT).
 */

export type StatementFileFormat = 'pdf' | 'xlsx' | 'csv';

export interface ReportFile {
  body: Buffer;
  contentType: string;
  /** The file's name as the person downloading it reads it: "Operating account EUR - March 2026.pdf". */
  filename: string;
}

/** The open items of a statement's reconciliation as the exceptions queue follows them, for the workbook's Exceptions sheet. */
export type ExceptionsOfStatement = (organizationId: string, statement: ReconciliationStatement) => Promise<StatementException[]>;

/** A proposed entry with its journal number, as the API and the journal_entry.proposed events give it. */
export interface NumberedJournalEntry extends ProposedJournalEntry {
  /** ADJ-<period end, YYYYMMDD>-<the entry's place, three digits>, as in the CSV. */
  journalNumber: string;
}

const MONTHS = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'];

function monthOf(date: string): string {
  return `${MONTHS[Number(date.slice(5, 7)) - 1]} ${date.slice(0, 4)}`;
}

/** The period in words: "March 2026"; a period of several months "January 2026 to March 2026". */
export function periodInWords(periodStart: string, periodEnd: string): string {
  return periodStart.slice(0, 7) === periodEnd.slice(0, 7) ? monthOf(periodEnd) : `${monthOf(periodStart)} to ${monthOf(periodEnd)}`;
}

/** A name fit for a file on any system: no path separators, reserved characters or control characters. */
function fileSafe(name: string): string {
  return name
    .replace(/[\u0000-\u001f\u007f/\\:*?"<>|]+/g, '-')
    .replace(/\s+/g, ' ')
    .trim();
}

/** The base name of a statement's files: "<reconciliation> - <period>". */
export function statementFileBase(statement: ReconciliationStatement): string {
  return fileSafe(`${statement.reconciliation.name} - ${periodInWords(statement.periodStart, statement.periodEnd)}`);
}

export function numberedEntries(entries: readonly ProposedJournalEntry[], periodEnd: string): NumberedJournalEntry[] {
  const prefix = `ADJ-${periodEnd.replace(/-/g, '')}`;
  return entries.map((entry, index) => ({ journalNumber: `${prefix}-${String(index + 1).padStart(3, '0')}`, ...entry }));
}

/** The accounts a reconciliation maps for its journal entries. */
export function accountsOf(reconciliation: Pick<ReconciliationRow, 'cashAccount' | 'adjustmentAccounts'>) {
  return { cashAccount: reconciliation.cashAccount, adjustmentAccounts: reconciliation.adjustmentAccounts as AdjustmentAccounts };
}

/**
 * The entries a statement proposes when its period is prepared, for the journal_entry.proposed
 * events; null when an account they need is not mapped (the period is prepared all the same; the
 * journal entries route says what is missing).
 */
export function entriesProposedOnPrepare(
  statement: ReconciliationStatement,
  reconciliation: Pick<ReconciliationRow, 'cashAccount' | 'adjustmentAccounts'>,
): NumberedJournalEntry[] | null {
  try {
    return numberedEntries(proposeJournalEntries(statement, accountsOf(reconciliation)), statement.periodEnd);
  } catch {
    return null;
  }
}

/** An open exception as the workbook's Exceptions sheet lists it: the amount still open, the assignee by email. */
export function statementExceptionOf(detail: ExceptionDetail): StatementException {
  return {
    date: detail.transaction.date,
    description: detail.transaction.description,
    reference: detail.transaction.reference,
    amount: detail.transaction.openAmount ?? detail.transaction.amount ?? '0',
    datasetName: detail.transaction.datasetName,
    assignee: detail.assignee === null ? null : (detail.assignee.email ?? 'a former user'),
    ageDays: detail.ageDays,
    dueDate: detail.dueDate,
    holdReason: detail.holdReason,
    comments: detail.comments.map((comment) => ({ author: comment.authorName, at: comment.createdAt, body: comment.body })),
  };
}

/** The Exceptions sheet's source: the queue's open exceptions of the statement's reconciliation and period. */
export function exceptionsOfStatement(exceptions: Pick<Exceptions, 'openOfPeriod'>): ExceptionsOfStatement {
  return async (organizationId, statement) =>
    (await exceptions.openOfPeriod(organizationId, statement.reconciliation.id, statement.periodEnd)).map(statementExceptionOf);
}

export class CloseReports {
  constructor(
    private readonly signoff: CloseSignoff,
    /** Where the workbook's Exceptions sheet comes from; without it the sheet says the exceptions were not included. */
    private readonly exceptionsOf: ExceptionsOfStatement | null = null,
  ) {}

  /** The statement of a period written as PDF, XLSX (with the exceptions when known) or its items as CSV. */
  async statementFile(organizationId: string, reconciliationId: string, periodEnd: string, format: StatementFileFormat): Promise<ReportFile> {
    const statement = await this.signoff.statement(organizationId, reconciliationId, periodEnd);
    const base = statementFileBase(statement);
    if (format === 'pdf') return { body: await renderStatementPdf(statement), contentType: 'application/pdf', filename: `${base}.pdf` };
    if (format === 'xlsx') {
      const exceptions = this.exceptionsOf === null ? undefined : await this.exceptionsOf(organizationId, statement);
      return {
        body: await renderStatementXlsx(statement, exceptions),
        contentType: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
        filename: `${base}.xlsx`,
      };
    }
    return { body: Buffer.from(renderStatementItemsCsv(statement), 'utf8'), contentType: 'text/csv; charset=utf-8', filename: `${base} - items.csv` };
  }

  /**
   * The journal entries of a period's adjustments, against the accounts the reconciliation maps
   * now: 409 journalEntries.reasonsNotMapped / cashAccountNotMapped when one is missing.
   */
  async journalEntries(organizationId: string, reconciliationId: string, periodEnd: string) {
    const statement = await this.signoff.statement(organizationId, reconciliationId, periodEnd);
    const reconciliation = await this.signoff.reconciliationOf(organizationId, reconciliationId);
    const entries = numberedEntries(proposeJournalEntries(statement, accountsOf(reconciliation)), statement.periodEnd);
    return { statement, entries };
  }

  async journalEntriesFile(organizationId: string, reconciliationId: string, periodEnd: string): Promise<ReportFile> {
    const { statement, entries } = await this.journalEntries(organizationId, reconciliationId, periodEnd);
    return {
      body: Buffer.from(journalEntriesCsv(entries, statement.periodEnd), 'utf8'),
      contentType: 'text/csv; charset=utf-8',
      filename: `${statementFileBase(statement)} - journal entries.csv`,
    };
  }
}
