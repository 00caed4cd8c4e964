import { quoteInput } from '../../errors.ts';

/**
 * What every format parser yields: statement entries and statements, in the words of the
 * dataset's columns, with nothing of the file's own layout left. A parser reads text and knows
 * nothing of the database or of HTTP; the importer (importer.ts) turns entries into transactions.
 */

export const IMPORT_FORMATS = ['csv', 'camt.052', 'camt.053', 'camt.054', 'mt940', 'mt942', 'bai2', 'ofx'] as const;
export type ImportFormat = (typeof IMPORT_FORMATS)[number];

/** A calendar date as written in the file, `YYYY-MM-DD`, with no time zone attached. */
export type CalendarDate = string;

/**
 * One entry of a statement: one future transaction. Amounts are exact decimal texts ("-12.50"),
 * signed from the account holder's side: money in positive, money out negative.
 */
export interface StatementEntry {
  /** 1-based line of the file where the entry starts, for messages and warnings. */
  line: number;
  /** Index (0-based) of the statement this entry belongs to, in file order. */
  statementIndex: number;
  /** The booking date as written. */
  bookingDate: CalendarDate | null;
  /**
   * The entry's moment in epoch milliseconds, when the file gives more than the booking date: the
   * booking date-time (with its zone), or the transaction date or date-time a CSV mapping names
   * besides the booking date (a card export). Null otherwise: the booking date is the moment.
   */
  bookingTimeMs: number | null;
  valueDate: CalendarDate | null;
  /** Signed decimal text; money out is negative. */
  amount: string;
  /** ISO 4217 code, upper case. */
  currency: string | null;
  /** The text a person reads: remittance information, booking text, memo. */
  description: string | null;
  /** What kind of movement, in words ("SEPA credit transfer", "check", "fee"). */
  type: string | null;
  /** The reference that ties the entry to an invoice or an order (end-to-end id, customer reference). */
  reference: string | null;
  /** The bank's reference of the entry (account servicer reference, bank reference). */
  bankReference: string | null;
  endToEndId: string | null;
  /**
   * The SEPA direct-debit mandate the entry was collected under (MT940 `MREF+`, `/MARF/`). Optional:
   * only the formats that carry it set it.
   */
  mandateId?: string | null;
  /** The SEPA creditor identifier of the party that collected a direct debit (MT940 `CRED+`, `/CSID/`); optional as above. */
  creditorId?: string | null;
  counterpartyName: string | null;
  counterpartyAccount: string | null;
  /**
   * The party on whose behalf the debtor paid, when the file names one (camt UltmtDbtr; MT940
   * ABWA+ of a credit transfer, ABWE+ of a direct debit). Left out (rather than null) when there
   * is none, as only some formats have it.
   */
  ultimateDebtorName?: string;
  /**
   * The party the creditor received for, when the file names one (camt UltmtCdtr; MT940 ABWE+ of a
   * credit transfer, ABWA+ of a direct debit or card payment); left out when none.
   */
  ultimateCreditorName?: string;
  /** The bank's code of the transaction type, as written (camt domain/family/subfamily, MT940 GVC, BAI2 type code). */
  bankTransactionCode: string | null;
  /** The statement's account: IBAN or account number. */
  accountId: string | null;
  statementId: string | null;
  /** Whether the entry reverses an earlier one (camt RvslInd, MT940 RC/RD). */
  reversal: boolean;
  /**
   * The bank's own unique id of this entry where the format has one (camt AcctSvcrRef or NtryRef,
   * OFX FITID, BAI2 bank reference). Null otherwise: the importer then derives a stable id from
   * the entry's content.
   */
  uniqueId: string | null;
  /** Values of further columns (a CSV mapping may fill custom columns), keyed by column name. */
  extra: Record<string, string | number | boolean>;
}

export interface StatementBalance {
  /** Signed decimal text; a debit balance is negative. */
  amount: string;
  date: CalendarDate | null;
}

/** A statement (or report, or notification) as a whole, yielded once its last entry has been read. */
export interface StatementSummary {
  /** Index (0-based) of the statement in file order; entries carry the same index. */
  statementIndex: number;
  /** 1-based line where the statement starts. */
  line: number;
  accountId: string | null;
  statementId: string | null;
  currency: string | null;
  openingBalance: StatementBalance | null;
  closingBalance: StatementBalance | null;
}

export type ParseEvent =
  | { kind: 'entry'; entry: StatementEntry }
  | { kind: 'statement'; statement: StatementSummary }
  /** Something the person importing should know that does not stop the import. */
  | { kind: 'warning'; line: number | null; message: string };

/** A parser: decoded text in, events out, in file order. */
export type StatementParser<Options = Record<string, never>> = (text: AsyncIterable<string>, options: Options) => AsyncGenerator<ParseEvent>;

/**
 * A file that does not follow its format. The message is built from where (line, and the CSV
 * column or the XML path), what was found and what was expected, so that the person who sent
 * the file can fix it without reading the code.
 */
export class ImportFormatError extends Error {
  override name = 'ImportFormatError';
  readonly line: number | null;
  readonly column: string | null;
  readonly xmlPath: string | null;
  readonly found: string;
  readonly expected: string;

  constructor(where: { line: number | null; column?: string | null; xmlPath?: string | null }, found: string, expected: string) {
    const place = [
      where.line === null ? null : `line ${where.line}`,
      where.column ? `column ${JSON.stringify(where.column)}` : null,
      where.xmlPath ? `at ${where.xmlPath}` : null,
    ]
      .filter((part) => part !== null)
      .join(', ');
    super(`${place === '' ? '' : `${place}: `}found ${found}; expected ${expected}`);
    this.line = where.line;
    this.column = where.column ?? null;
    this.xmlPath = where.xmlPath ?? null;
    this.found = found;
    this.expected = expected;
  }
}

/** A found value as messages quote it: JSON-quoted and cut to a short, marked excerpt. */
export function quoteFound(text: string): string {
  return quoteInput(text);
}

// A real calendar date `YYYY-MM-DD` (no 30 February), and its midnight UTC (how bank dates are
// stored): the SDK's, by which its clients check the dates they send.
export { calendarDateToEpochMs, isCalendarDate } from '../../../sdk/src/dates.ts';

/** An entry with every optional field empty, for parsers to fill in. */
export function emptyEntry(line: number, statementIndex: number, amount: string): StatementEntry {
  return {
    line,
    statementIndex,
    bookingDate: null,
    bookingTimeMs: null,
    valueDate: null,
    amount,
    currency: null,
    description: null,
    type: null,
    reference: null,
    bankReference: null,
    endToEndId: null,
    counterpartyName: null,
    counterpartyAccount: null,
    bankTransactionCode: null,
    accountId: null,
    statementId: null,
    reversal: false,
    uniqueId: null,
    extra: {},
  };
}
