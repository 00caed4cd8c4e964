import { placeImpliedDecimals, withCurrencyScale } from '../../money.ts';
import {
  emptyEntry,
  ImportFormatError,
  isCalendarDate,
  quoteFound,
  type CalendarDate,
  type ParseEvent,
  type StatementBalance,
  type StatementEntry,
} from '../statement-entries.ts';
import { LINE_LENGTH_LIMIT, readLines } from '../text.ts';

/**
 * BAI2 (BAI Cash Management Balance Reporting Specifications, version 2): comma-separated
 * records that end with "/", one record per line, nested as file (01 … 99), group (02 … 98) and
 * account (03 … 49). Each account becomes one statement and each transaction detail (16) one
 * entry. The 49, 98 and 99 trailers carry control totals and record counts, which are all
 * checked: a file whose totals do not add up is refused, because a bank file that does not
 * match its own trailers has lost or gained records on its way.
 *
 * A record may go on in continuation records (88). The fields of a record and of its
 * continuations form one sequence of fields, so an 88 starts with the field that follows the
 * last field of the record before it; once the text of a 16 has begun, an 88 continues the text.
 */

/** The parser takes no options: everything it needs is in the file. */
export type Bai2Options = Record<string, never>;

/** Bounds that keep one file's memory and work small whatever the file holds. */
export const BAI2_LIMITS = {
  /** Characters of one physical record (line). */
  maxLineLength: LINE_LENGTH_LIMIT,
  /** Characters of the text of one transaction detail, continuations included. */
  maxTextLength: 64 * 1024,
  /** Fields of a header or trailer record (01, 02, 49, 98, 99), continuations included. */
  maxRecordFieldCount: 16,
  /** Day/amount pairs of one distributed availability (funds type D). */
  maxDistributionCount: 99,
  /** Significant digits of one amount. */
  maxAmountDigits: 18,
  /** Significant digits of a control total, which adds up a whole account, group or file. */
  maxControlTotalDigits: 24,
  /** Digits of a count (item count, record count, number of accounts or groups). */
  maxCountDigits: 9,
} as const;

/** The names of the records, as messages say them. */
const RECORD_NAMES: Record<string, string> = {
  '01': 'file header (01)',
  '02': 'group header (02)',
  '03': 'account identifier (03)',
  '16': 'transaction detail (16)',
  '88': 'continuation (88)',
  '49': 'account trailer (49)',
  '98': 'group trailer (98)',
  '99': 'file trailer (99)',
};

/** A record's name with its article, for messages: "an account trailer (49)". */
function aRecord(code: string): string {
  const name = RECORD_NAMES[code]!;
  return /^[aeiou]/.test(name) ? `an ${name}` : `a ${name}`;
}

type Direction = 'credit' | 'debit' | 'none';

/**
 * Whether a detail type code is money in or money out, by the BAI2 ranges: 100–399 credits,
 * 400–699 debits, 900–919 and 920–999 the bank's own credits and debits. Loan detail (700–799)
 * has payments applied to the loan (720–759) as credits and disbursements (760–799) as debits;
 * 700–719 are loan balances and 800–899 carry no money (890 is "non-monetary information").
 */
export function directionOfTypeCode(code: number): Direction {
  if (code >= 100 && code <= 399) return 'credit';
  if (code >= 400 && code <= 699) return 'debit';
  if (code >= 720 && code <= 759) return 'credit';
  if (code >= 760 && code <= 799) return 'debit';
  if (code >= 900 && code <= 919) return 'credit';
  if (code >= 920 && code <= 999) return 'debit';
  return 'none';
}

/** Readable names of the detail type codes banks use most; other codes fall back by range. */
const TYPE_NAMES: ReadonlyMap<number, string> = new Map([
  [108, 'credit'],
  [115, 'lockbox deposit'],
  [142, 'ACH credit'],
  [145, 'ACH concentration credit'],
  [165, 'ACH credit'],
  [166, 'ACH settlement'],
  [169, 'ACH credit'],
  [175, 'check deposit'],
  [191, 'internal transfer in'],
  [195, 'wire transfer in'],
  [201, 'automatic transfer in'],
  [206, 'book transfer in'],
  [208, 'international wire transfer in'],
  [252, 'debit reversal'],
  [257, 'ACH return'],
  [258, 'ACH reversal'],
  [275, 'ZBA credit'],
  [301, 'deposit'],
  [354, 'interest'],
  [357, 'credit adjustment'],
  [395, 'check reversal'],
  [398, 'fee refund'],
  [399, 'credit'],
  [409, 'debit'],
  [451, 'ACH debit'],
  [455, 'ACH debit'],
  [466, 'ACH settlement'],
  [469, 'ACH debit'],
  [475, 'check paid'],
  [481, 'loan payment'],
  [491, 'internal transfer out'],
  [495, 'wire transfer out'],
  [501, 'automatic transfer out'],
  [506, 'book transfer out'],
  [508, 'international wire transfer out'],
  [552, 'credit reversal'],
  [555, 'deposited item returned'],
  [557, 'ACH return'],
  [558, 'ACH reversal'],
  [564, 'fee'],
  [567, 'fee'],
  [575, 'ZBA debit'],
  [631, 'debit adjustment'],
  [654, 'interest paid'],
  [661, 'fee'],
  [698, 'fee'],
  [699, 'debit'],
  [760, 'loan disbursement'],
]);

/** Detail type codes that undo an earlier entry: the reversal flag of the entry. */
const REVERSAL_TYPE_CODES: ReadonlySet<number> = new Set([252, 258, 395, 552, 558, 694]);

/** The readable kind of movement of a detail type code: the table above, else its range. */
export function typeNameOfCode(code: number): string {
  const named = TYPE_NAMES.get(code);
  if (named !== undefined) return named;
  if (code >= 720 && code <= 759) return 'loan payment';
  if (code >= 760 && code <= 799) return 'loan disbursement';
  if (code >= 900 && code <= 919) return 'bank-defined credit';
  if (code >= 920 && code <= 999) return 'bank-defined debit';
  const direction = directionOfTypeCode(code);
  return direction === 'credit' ? 'other credit' : direction === 'debit' ? 'other debit' : 'information';
}

/**
 * Whether the first 4096 characters of a file are BAI2: the first record is a file header
 * "01" with a creation date YYMMDD in its fourth field and a version number in its ninth.
 * MT940, OFX, camt and CSV files never start that way. A version other than 2 is still claimed,
 * so that the parser can say which version it found instead of the file passing for unknown.
 */
export function sniffBai2(head: string): 'bai2' | null {
  let start = 0;
  // A byte-order mark read as latin1 (UTF-8 "ï»¿") or already decoded, then blank lines.
  if (head.startsWith('\u00ef\u00bb\u00bf')) start = 3;
  else if (head.startsWith('\ufeff')) start = 1;
  while (start < head.length && (head[start] === '\r' || head[start] === '\n' || head[start] === ' ' || head[start] === '\t')) start += 1;
  let end = start;
  while (end < head.length && head[end] !== '\r' && head[end] !== '\n') end += 1;
  // The first record only: some banks write the group header on the same line.
  const fields = stripTerminator(splitRecords(head.slice(start, end))[0]!).split(',');
  if (fields.length < 9 || fields[0] !== '01') return null;
  if (!/^\d{6}$/.test(fields[3]!.trim())) return null;
  return /^\d{1,2}$/.test(fields[8]!.trim()) ? 'bai2' : null;
}

/**
 * Parses a BAI2 file into statement entries and statements, streaming: it holds the current
 * file, group and account headers and the current entry, never the file.
 */
export async function* parseBai2(text: AsyncIterable<string>, options: Bai2Options = {}): AsyncGenerator<ParseEvent> {
  void options;
  const reader = new Bai2Reader();
  for await (const line of readLines(text, { maxLineLength: BAI2_LIMITS.maxLineLength, what: 'BAI2' })) {
    reader.readLine(line.number, line.text);
    if (reader.events.length > 0) yield* reader.takeEvents();
  }
  reader.end();
  yield* reader.takeEvents();
}

interface FileState {
  line: number;
  fileId: string;
  recordCount: number;
  groupCount: number;
  totalUnits: bigint;
}

interface GroupState {
  line: number;
  asOfDate: CalendarDate;
  currency: string;
  recordCount: number;
  accountCount: number;
  totalUnits: bigint;
}

interface AccountState {
  line: number;
  statementIndex: number;
  accountNumber: string;
  currency: string;
  /** Implied decimal places of the account's currency. */
  scale: number;
  statementId: string;
  recordCount: number;
  /** The algebraic sum of the amounts of the account's 03 and 16 records, in smallest units. */
  totalUnits: bigint;
  openingUnits: bigint | null;
  closingUnits: bigint | null;
  /** Fields of the 03 record read so far: account number and currency come first. */
  headerFieldCount: number;
  currencyField: string;
  summary: SummaryGroup;
}

/** Where the 03 record stands in its repeating groups: type code, amount, item count, funds type. */
interface SummaryGroup {
  /** 0 type code, 1 amount, 2 item count, 3 funds type, 4 funds-type extras. */
  position: number;
  typeCode: string;
  funds: FundsTypeFields;
}

type HeaderCode = '01' | '02' | '49' | '98' | '99';

type OpenRecord =
  | { kind: 'fields'; code: HeaderCode; line: number; fields: string[]; group: GroupState | null; account: AccountState | null }
  | { kind: 'account'; line: number; group: GroupState; account: AccountState }
  | { kind: 'detail'; line: number; group: GroupState; account: AccountState; detail: DetailRecord };

type Level = 'beforeFile' | 'inFile' | 'inGroup' | 'inAccount' | 'afterFile';

const DIGITS = /^\d+$/;
const SIGNED_DIGITS = /^[+-]?\d+$/;
const LEADING_ZEROS = /^0+(?=\d)/;
const CURRENCY_CODE = /^[A-Z]{3}$/;
const FUNDS_TYPES = new Set(['', '0', '1', '2', 'Z', 'V', 'S', 'D']);

/** Reads the records of one or more BAI2 files, line by line, and collects the events they produce. */
class Bai2Reader {
  events: ParseEvent[] = [];
  private level: Level = 'beforeFile';
  private file: FileState | null = null;
  private group: GroupState | null = null;
  private account: AccountState | null = null;
  private open: OpenRecord | null = null;
  private statementCount = 0;
  private lastLine = 0;
  private lastText = '';
  private lastTrailerLine = 0;
  /** Implied decimal places per currency, worked out once per currency. */
  private readonly scales = new Map<string, number>();
  /** Kinds of lenient reading already warned about: each is said once per file. */
  private readonly noted = new Set<string>();

  /** Warns that something was read leniently, once per kind and file. */
  readonly note = (kind: string, line: number, message: string): void => {
    if (this.noted.has(kind)) return;
    this.noted.add(kind);
    this.warn(line, message);
  };

  takeEvents(): ParseEvent[] {
    const events = this.events;
    this.events = [];
    return events;
  }

  readLine(number: number, raw: string): void {
    let text = number === 1 && raw.charCodeAt(0) === 0xfeff ? raw.slice(1) : raw;
    // Fixed-length records are padded with spaces after the "/"; the padding means nothing.
    text = text.trimEnd();
    if (text === '') return;
    const previousEnded = this.lastText === '' || this.lastText.endsWith('/');
    this.lastLine = number;
    this.lastText = text;
    if (!previousEnded && !RECORD_START.test(text) && this.open?.kind === 'detail' && this.open.detail.inText()) {
      // A bank that breaks a long text over two lines without an 88: the line goes on with
      // the text of the record before it, which did not end with "/".
      this.note(
        'broken text',
        number,
        `line ${number} has no record code and the record before it did not end with "/": it is read as more of that record's text`,
      );
      this.open.detail.consume(text, number);
      return;
    }
    const records = splitRecords(text);
    if (records.length > 1) {
      this.note(
        'records on one line',
        number,
        `line ${number} holds ${records.length} records, each ending with "/"; they are read one after the other, as if on lines of their own`,
      );
    }
    for (const record of records) this.readRecord(number, record);
  }

  /** Reads one record (or continuation) of a physical line. */
  private readRecord(number: number, text: string): void {
    const code = text.slice(0, 2);
    const separator = text.charAt(2);
    if (!isTwoDigits(code) || (separator !== '' && separator !== ',' && separator !== '/')) {
      if (this.level === 'beforeFile') {
        throw new ImportFormatError({ line: number }, quoteFound(text), 'a BAI2 file starting with its file header record "01,"; is this a BAI2 file?');
      }
      throw new ImportFormatError({ line: number }, quoteFound(text), 'a BAI2 record: a two-digit record code followed by a comma, such as "16,"');
    }
    const body = separator === ',' ? text.slice(3) : '';
    if (code === '88') {
      this.continueRecord(number, body);
      return;
    }
    this.finishOpenRecord();
    this.startRecord(code, number, body);
  }

  end(): void {
    this.finishOpenRecord();
    if (this.lastLine === 0) {
      throw new ImportFormatError({ line: null }, 'an empty file', 'a BAI2 file starting with its file header record "01"');
    }
    if (this.level !== 'afterFile') {
      throw new ImportFormatError(
        { line: this.lastLine },
        `the end of the file after line ${this.lastLine} (${quoteFound(this.lastText)})`,
        'the file trailer record "99"; the file looks cut short',
      );
    }
  }

  // ---- Records and their order ----

  private startRecord(code: string, line: number, body: string): void {
    switch (code) {
      case '01': {
        if (this.level !== 'beforeFile' && this.level !== 'afterFile') throw this.outOfPlace(code, line);
        this.file = { line, fileId: '', recordCount: 1, groupCount: 0, totalUnits: 0n };
        this.level = 'inFile';
        this.open = { kind: 'fields', code, line, fields: [], group: null, account: null };
        break;
      }
      case '02': {
        const file = this.requireLevel('inFile', code, line);
        file.recordCount += 1;
        file.groupCount += 1;
        this.group = { line, asOfDate: '', currency: '', recordCount: 1, accountCount: 0, totalUnits: 0n };
        this.level = 'inGroup';
        this.open = { kind: 'fields', code, line, fields: [], group: this.group, account: null };
        break;
      }
      case '03': {
        const file = this.requireLevel('inGroup', code, line);
        const group = this.group!;
        file.recordCount += 1;
        group.recordCount += 1;
        group.accountCount += 1;
        const account: AccountState = {
          line,
          statementIndex: this.statementCount,
          accountNumber: '',
          currency: '',
          scale: 2,
          statementId: '',
          recordCount: 1,
          totalUnits: 0n,
          openingUnits: null,
          closingUnits: null,
          headerFieldCount: 0,
          currencyField: '',
          summary: { position: 0, typeCode: '', funds: new FundsTypeFields() },
        };
        this.statementCount += 1;
        this.account = account;
        this.level = 'inAccount';
        this.open = { kind: 'account', line, group, account };
        break;
      }
      case '16': {
        const file = this.requireLevel('inAccount', code, line);
        const group = this.group!;
        const account = this.account!;
        file.recordCount += 1;
        group.recordCount += 1;
        account.recordCount += 1;
        this.open = { kind: 'detail', line, group, account, detail: new DetailRecord(line, this.note) };
        break;
      }
      case '49': {
        const file = this.requireLevel('inAccount', code, line);
        const group = this.group!;
        const account = this.account!;
        file.recordCount += 1;
        group.recordCount += 1;
        account.recordCount += 1;
        this.level = 'inGroup';
        this.open = { kind: 'fields', code, line, fields: [], group, account };
        break;
      }
      case '98': {
        const file = this.requireLevel('inGroup', code, line);
        const group = this.group!;
        file.recordCount += 1;
        group.recordCount += 1;
        this.level = 'inFile';
        this.open = { kind: 'fields', code, line, fields: [], group, account: null };
        break;
      }
      case '99': {
        const file = this.requireLevel('inFile', code, line);
        file.recordCount += 1;
        this.level = 'afterFile';
        this.lastTrailerLine = line;
        this.open = { kind: 'fields', code, line, fields: [], group: null, account: null };
        break;
      }
      default:
        throw new ImportFormatError(
          { line },
          `record type ${quoteFound(code)} (${quoteFound(this.lastText)})`,
          'one of the BAI2 record types 01, 02, 03, 16, 88, 49, 98, 99',
        );
    }
    this.continueRecord(line, body, true);
  }

  /** The open file, when the reader stands at `level`; otherwise the error that says what was expected there. */
  private requireLevel(level: Level, code: string, line: number): FileState {
    if (this.level !== level || this.file === null) throw this.outOfPlace(code, line);
    return this.file;
  }

  private outOfPlace(code: string, line: number): ImportFormatError {
    const record = aRecord(code);
    switch (this.level) {
      case 'beforeFile':
        return new ImportFormatError(
          { line },
          `${record} before the file header`,
          'a BAI2 file starting with its file header record "01"; is this a BAI2 file?',
        );
      case 'inFile':
        if (code === '01') {
          return new ImportFormatError(
            { line },
            `${record} inside the file begun at line ${this.file!.line}`,
            'the file trailer (99) that closes the file before another file header',
          );
        }
        return new ImportFormatError(
          { line },
          `${record} outside any group`,
          code === '98'
            ? 'a group header (02) before its group trailer'
            : "a group header (02), then an account identifier (03) before the account's details (16) and trailer (49)",
        );
      case 'inGroup':
        if (code === '16' || code === '49') {
          return new ImportFormatError(
            { line },
            `${record} outside any account`,
            "an account identifier (03) before the account's transaction details (16) and trailer (49)",
          );
        }
        return new ImportFormatError(
          { line },
          `${record} inside the group begun at line ${this.group!.line}`,
          'account identifiers (03) or the group trailer (98) that closes the group',
        );
      case 'inAccount':
        return new ImportFormatError(
          { line },
          `${record} inside the account begun at line ${this.account!.line}`,
          'transaction details (16), continuations (88) or the account trailer (49) that closes the account',
        );
      case 'afterFile':
        return new ImportFormatError(
          { line },
          `${record} after the file trailer (99) at line ${this.lastTrailerLine}`,
          'nothing after the file trailer, or the file header (01) of a further file',
        );
    }
  }

  /** Feeds the fields of a record line or of its continuation (88) to the open record. */
  private continueRecord(line: number, body: string, first = false): void {
    const open = this.open;
    if (open === null) {
      if (this.level === 'beforeFile') {
        throw new ImportFormatError(
          { line },
          'a continuation (88) before the file header',
          'a BAI2 file starting with its file header record "01"; is this a BAI2 file?',
        );
      }
      throw new ImportFormatError(
        { line },
        'a continuation (88) with no record before it to continue',
        'a continuation only right after the record it continues',
      );
    }
    if (!first) {
      // A continuation counts as a record of every level its record belongs to.
      this.file!.recordCount += 1;
      if (open.group !== null) open.group.recordCount += 1;
      if (open.account !== null) open.account.recordCount += 1;
    }
    switch (open.kind) {
      case 'fields': {
        if (body === '') return;
        const fields = stripTerminator(body).split(',');
        if (open.fields.length + fields.length > BAI2_LIMITS.maxRecordFieldCount) {
          throw new ImportFormatError(
            { line },
            `more than ${BAI2_LIMITS.maxRecordFieldCount} fields in the ${RECORD_NAMES[open.code]} begun at line ${open.line}`,
            `the fields of a ${RECORD_NAMES[open.code]}`,
          );
        }
        for (const field of fields) open.fields.push(field.trim());
        return;
      }
      case 'account':
        this.readAccountFields(open.account, line, body);
        return;
      case 'detail':
        open.detail.consume(body, line);
        return;
    }
  }

  /** Acts on the open record once its last continuation has been read. */
  private finishOpenRecord(): void {
    const open = this.open;
    if (open === null) return;
    this.open = null;
    switch (open.kind) {
      case 'account':
        this.finishAccountIdentifier(open.account, open.group);
        return;
      case 'detail':
        this.finishDetail(open.detail, open.account, open.group);
        return;
      case 'fields':
        switch (open.code) {
          case '01':
            this.finishFileHeader(open.fields, open.line);
            return;
          case '02':
            this.finishGroupHeader(open.fields, open.line, open.group!);
            return;
          case '49':
            this.finishAccountTrailer(open.fields, open.line, open.account!, open.group!);
            return;
          case '98':
            this.finishGroupTrailer(open.fields, open.line, open.group!);
            return;
          case '99':
            this.finishFileTrailer(open.fields, open.line);
            return;
        }
    }
  }

  // ---- 01 and 02 ----

  private finishFileHeader(fields: string[], line: number): void {
    const file = this.file!;
    const where = { line, record: '01', note: this.note };
    readDate(fields[2] ?? '', 'file creation date', where, true);
    readTime(fields[3] ?? '', 'file creation time', where);
    file.fileId = fields[4] ?? '';
    readCount(fields[5] ?? '', 'physical record length', where, false);
    readCount(fields[6] ?? '', 'block size', where, false);
    const version = fields[7] ?? '';
    if (!/^0*2$/.test(version)) {
      throw new ImportFormatError(
        { line },
        `version number ${quoteFound(version)} in the file header (01)`,
        'version number "2": this reader reads BAI2 files only',
      );
    }
  }

  private finishGroupHeader(fields: string[], line: number, group: GroupState): void {
    const where = { line, record: '02', note: this.note };
    const status = fields[2] ?? '';
    if (status === '2') {
      throw new ImportFormatError(
        { line },
        'group status 2 (deletion) in the group header (02)',
        'a group that reports balances and transactions (status 1, update); a deletion withdraws data sent earlier and cannot be imported as new entries',
      );
    }
    if (status === '3') {
      this.warn(line, `The group is a correction (group status 3) of data the bank sent earlier; check that the earlier import is not counted twice.`);
    } else if (status === '4') {
      this.warn(line, `The group is marked test only (group status 4); its entries are imported like any others.`);
    } else if (status !== '' && status !== '1') {
      throw new ImportFormatError(
        { line },
        `group status ${quoteFound(status)} in the group header (02)`,
        'a group status 1 (update), 2 (deletion), 3 (correction) or 4 (test only)',
      );
    }
    group.asOfDate = readDate(fields[3] ?? '', 'as-of date', where, true)!;
    readTime(fields[4] ?? '', 'as-of time', where);
    const currency = fields[5] ?? '';
    if (currency !== '' && !CURRENCY_CODE.test(currency)) {
      throw new ImportFormatError(
        { line },
        `currency code ${quoteFound(currency)} in the group header (02)`,
        'an ISO 4217 currency code of three capital letters, such as "USD", or an empty field for USD',
      );
    }
    // The specification's default currency of a group is the US dollar.
    group.currency = currency === '' ? 'USD' : currency;
    const modifier = fields[6] ?? '';
    if (modifier !== '' && !/^[1-4]$/.test(modifier)) {
      throw new ImportFormatError(
        { line },
        `as-of-date modifier ${quoteFound(modifier)} in the group header (02)`,
        'an as-of-date modifier 1 (interim previous-day), 2 (final previous-day), 3 (interim same-day) or 4 (final same-day), or an empty field',
      );
    }
  }

  // ---- 03 ----

  private readAccountFields(account: AccountState, line: number, body: string): void {
    if (body === '') return;
    const fields = stripTerminator(body).split(',');
    const summary = account.summary;
    for (const raw of fields) {
      const field = raw.trim();
      if (account.headerFieldCount === 0) {
        account.accountNumber = field;
        account.headerFieldCount = 1;
        continue;
      }
      if (account.headerFieldCount === 1) {
        account.currencyField = field;
        account.headerFieldCount = 2;
        continue;
      }
      this.readSummaryField(account, summary, field, line);
    }
    // Some banks end a record with ",/" after a complete group: that empty field would be the
    // type code of a next group, and the next continuation starts that group over with its own
    // type code. An empty type code means "no further group", so it is dropped here.
    if (summary.position === 1 && summary.typeCode === '') summary.position = 0;
  }

  private readSummaryField(account: AccountState, summary: SummaryGroup, field: string, line: number): void {
    const where = { line, record: '03', note: this.note };
    switch (summary.position) {
      case 0:
        if (field !== '' && !/^\d{3}$/.test(field)) {
          throw new ImportFormatError(
            { line },
            `type code ${quoteFound(field)} in the account identifier (03)`,
            'a three-digit status or summary type code, such as "010" (opening ledger)',
          );
        }
        summary.typeCode = field;
        summary.position = 1;
        return;
      case 1: {
        if (field !== '' && summary.typeCode === '') {
          throw new ImportFormatError(
            { line },
            `amount ${quoteFound(field)} without a type code in the account identifier (03)`,
            'a type code before each amount',
          );
        }
        const units = readAmount(field, `amount of type code ${summary.typeCode}`, where, true);
        if (units !== null) {
          account.totalUnits += units;
          if (summary.typeCode === '010' && account.openingUnits === null) account.openingUnits = units;
          if (summary.typeCode === '015' && account.closingUnits === null) account.closingUnits = units;
        }
        summary.position = 2;
        return;
      }
      case 2:
        readCount(field, `item count of type code ${summary.typeCode}`, where, false);
        summary.position = 3;
        return;
      case 3:
        summary.funds.start(field, `type code ${summary.typeCode}`, where);
        summary.position = summary.funds.done() ? 0 : 4;
        return;
      default:
        summary.funds.accept(field, where);
        if (summary.funds.done()) summary.position = 0;
    }
  }

  private finishAccountIdentifier(account: AccountState, group: GroupState): void {
    if (account.accountNumber === '') {
      throw new ImportFormatError(
        { line: account.line },
        'an empty account number in the account identifier (03)',
        'the account\'s number as the second field, such as "03,0975312468,USD,..."',
      );
    }
    const currency = account.currencyField;
    if (currency !== '' && !CURRENCY_CODE.test(currency)) {
      throw new ImportFormatError(
        { line: account.line },
        `currency code ${quoteFound(currency)} in the account identifier (03)`,
        'an ISO 4217 currency code of three capital letters, such as "USD", or an empty field for the group\'s currency',
      );
    }
    account.currency = currency === '' ? group.currency : currency;
    account.scale = this.scaleOf(account.currency);
    account.statementId = `${this.file!.fileId}/${group.asOfDate}/${account.accountNumber}`;
  }

  /** The currency's decimal places, as money.ts knows them (withCurrencyScale writes zero with them). */
  private scaleOf(currency: string): number {
    let scale = this.scales.get(currency);
    if (scale === undefined) {
      const zero = withCurrencyScale('0', currency);
      const point = zero.indexOf('.');
      scale = point === -1 ? 0 : zero.length - point - 1;
      this.scales.set(currency, scale);
    }
    return scale;
  }

  // ---- 16 ----

  private finishDetail(detail: DetailRecord, account: AccountState, group: GroupState): void {
    if (detail.typeCode === '') {
      throw new ImportFormatError(
        { line: detail.line },
        'a transaction detail (16) without a type code',
        'a three-digit detail type code as its first field, such as "16,195,..."',
      );
    }
    // The control total adds every amount as written, information-only codes included.
    account.totalUnits += detail.amountUnits;
    const direction = directionOfTypeCode(detail.typeNumber);
    const description = detail.text();
    if (direction === 'none') {
      if (detail.amountUnits !== 0n) {
        throw new ImportFormatError(
          { line: detail.line },
          `type code ${detail.typeCode} with amount ${quoteFound(detail.amountText)} in a transaction detail (16)`,
          'a credit (100–399, 720–759, 900–919) or debit (400–699, 760–799, 920–999) type code for an amount; codes 700–719 and 800–899 carry no money',
        );
      }
      this.warn(
        detail.line,
        `Type code ${detail.typeCode} carries information, not money; it is not imported as an entry${description === null ? '.' : `: ${quoteFound(description)}.`}`,
      );
      return;
    }
    if (!detail.amountGiven) {
      throw new ImportFormatError(
        { line: detail.line },
        `a transaction detail (16) of type code ${detail.typeCode} without an amount`,
        'the amount, in the smallest unit of the currency without a decimal point, as the third field',
      );
    }
    const units = direction === 'debit' ? -detail.amountUnits : detail.amountUnits;
    const entry: StatementEntry = emptyEntry(detail.line, account.statementIndex, placeImpliedDecimals(units.toString(), account.scale));
    entry.bookingDate = group.asOfDate;
    entry.valueDate = detail.funds.valueDate;
    entry.currency = account.currency;
    entry.description = description;
    entry.type = typeNameOfCode(detail.typeNumber);
    entry.reference = detail.customerReference === '' ? null : detail.customerReference;
    entry.bankReference = detail.bankReference === '' ? null : detail.bankReference;
    entry.bankTransactionCode = detail.typeCode;
    entry.accountId = account.accountNumber;
    entry.statementId = account.statementId;
    entry.reversal = REVERSAL_TYPE_CODES.has(detail.typeNumber);
    entry.uniqueId = entry.bankReference;
    this.events.push({ kind: 'entry', entry });
  }

  // ---- 49, 98, 99 ----

  private finishAccountTrailer(fields: string[], line: number, account: AccountState, group: GroupState): void {
    const where = { line, record: '49' };
    const total = readControlTotal(fields[0] ?? '', 'account control total', where) ?? this.withoutControlTotal('49', line, account.totalUnits);
    if (total !== account.totalUnits) {
      throw new ImportFormatError(
        { line },
        `account control total ${total} (${placeImpliedDecimals(total.toString(), account.scale)} ${account.currency}) in the account trailer (49)`,
        `${account.totalUnits} (${placeImpliedDecimals(account.totalUnits.toString(), account.scale)} ${account.currency}), the sum of the amounts of the 03 and 16 records of the account begun at line ${account.line}`,
      );
    }
    const count = readCount(fields[1] ?? '', 'number of records', where, true)!;
    if (count !== account.recordCount) {
      throw new ImportFormatError(
        { line },
        `number of records ${count} in the account trailer (49)`,
        `${account.recordCount}, the records from the account identifier (03) at line ${account.line} to this trailer, continuations (88) included`,
      );
    }
    group.totalUnits += total;
    this.account = null;
    this.events.push({
      kind: 'statement',
      statement: {
        statementIndex: account.statementIndex,
        line: account.line,
        accountId: account.accountNumber,
        statementId: account.statementId,
        currency: account.currency,
        openingBalance: balance(account.openingUnits, account.scale, group.asOfDate),
        closingBalance: balance(account.closingUnits, account.scale, group.asOfDate),
      },
    });
  }

  private finishGroupTrailer(fields: string[], line: number, group: GroupState): void {
    const where = { line, record: '98' };
    const file = this.file!;
    const total = readControlTotal(fields[0] ?? '', 'group control total', where) ?? this.withoutControlTotal('98', line, group.totalUnits);
    if (total !== group.totalUnits) {
      throw new ImportFormatError(
        { line },
        `group control total ${total} in the group trailer (98)`,
        `${group.totalUnits}, the sum of the account control totals (49) of the group begun at line ${group.line}`,
      );
    }
    const accounts = readCount(fields[1] ?? '', 'number of accounts', where, true)!;
    if (accounts !== group.accountCount) {
      throw new ImportFormatError(
        { line },
        `number of accounts ${accounts} in the group trailer (98)`,
        `${group.accountCount}, the account identifiers (03) of the group begun at line ${group.line}`,
      );
    }
    const records = readCount(fields[2] ?? '', 'number of records', where, true)!;
    if (records !== group.recordCount) {
      throw new ImportFormatError(
        { line },
        `number of records ${records} in the group trailer (98)`,
        `${group.recordCount}, the records from the group header (02) at line ${group.line} to this trailer, continuations (88) included`,
      );
    }
    file.totalUnits += total;
    this.group = null;
  }

  private finishFileTrailer(fields: string[], line: number): void {
    const where = { line, record: '99' };
    const file = this.file!;
    const total = readControlTotal(fields[0] ?? '', 'file control total', where) ?? this.withoutControlTotal('99', line, file.totalUnits);
    if (total !== file.totalUnits) {
      throw new ImportFormatError(
        { line },
        `file control total ${total} in the file trailer (99)`,
        `${file.totalUnits}, the sum of the group control totals (98) of the file`,
      );
    }
    const groups = readCount(fields[1] ?? '', 'number of groups', where, true)!;
    if (groups !== file.groupCount) {
      throw new ImportFormatError(
        { line },
        `number of groups ${groups} in the file trailer (99)`,
        `${file.groupCount}, the group headers (02) of the file begun at line ${file.line}`,
      );
    }
    const records = readCount(fields[2] ?? '', 'number of records', where, true)!;
    if (records !== file.recordCount) {
      throw new ImportFormatError(
        { line },
        `number of records ${records} in the file trailer (99)`,
        `${file.recordCount}, the records from the file header (01) at line ${file.line} to this trailer, continuations (88) included`,
      );
    }
    this.file = null;
  }

  private warn(line: number, message: string): void {
    this.events.push({ kind: 'warning', line, message });
  }

  /**
   * A trailer whose control total is left empty: nothing to check the amounts against at that
   * level, but every amount was read as written and the record counts are still checked. The
   * computed total stands in for it in the totals above.
   */
  private withoutControlTotal(record: '49' | '98' | '99', line: number, computed: bigint): bigint {
    this.note(
      `no control total ${record}`,
      line,
      `the ${RECORD_NAMES[record]} on line ${line} gives no control total, so its amounts could not be checked against one; they are imported as written (the same holds for every such trailer in this file)`,
    );
    return computed;
  }
}

/**
 * The fields that follow a funds type: none for 0, 1, 2, Z or an empty funds type; value date
 * and time for V; three amounts (immediate, one-day, two-or-more-day) for S; for D a count and
 * that many pairs of days and amount.
 */
class FundsTypeFields {
  kind = '';
  valueDate: CalendarDate | null = null;
  private expected = 0;
  private read = 0;

  start(field: string, owner: string, where: FieldPlace): void {
    const kind = field.toUpperCase();
    if (!FUNDS_TYPES.has(kind)) {
      throw new ImportFormatError(
        { line: where.line },
        `funds type ${quoteFound(field)} of ${owner} in the ${RECORD_NAMES[where.record]}`,
        'a funds type 0, 1, 2 (availability in days), Z (unknown), V (value dated), S or D (distributed), or an empty field',
      );
    }
    this.kind = kind;
    this.valueDate = null;
    this.read = 0;
    this.expected = kind === 'V' ? 2 : kind === 'S' ? 3 : kind === 'D' ? 1 : 0;
  }

  done(): boolean {
    return this.read >= this.expected;
  }

  /** The fields that follow the funds type: known once the funds type (and for D, its count) is read. */
  extraFieldCount(): number {
    return this.expected;
  }

  accept(field: string, where: FieldPlace): void {
    const index = this.read;
    this.read += 1;
    if (this.kind === 'V') {
      if (index === 0) this.valueDate = readDate(field, 'value date of funds type V', where, false);
      else readTime(field, 'value time of funds type V', where);
      return;
    }
    if (this.kind === 'S') {
      const names = ['immediate', 'one-day', 'two-or-more-day'];
      readAmount(field, `${names[index]} availability amount of funds type S`, where, true);
      return;
    }
    // Funds type D: the count, then pairs of days and amount.
    if (index === 0) {
      const count = readCount(field, 'number of distributions of funds type D', where, false) ?? 0;
      if (count > BAI2_LIMITS.maxDistributionCount) {
        throw new ImportFormatError(
          { line: where.line },
          `${count} distributions of funds type D in the ${RECORD_NAMES[where.record]}`,
          `at most ${BAI2_LIMITS.maxDistributionCount} distributions`,
        );
      }
      this.expected = 1 + 2 * count;
      return;
    }
    if (index % 2 === 1) readCount(field, 'availability in days of funds type D', where, false);
    else readAmount(field, 'distributed amount of funds type D', where, true);
  }
}

/**
 * A transaction detail (16) being read: its fields come from the record and its continuations,
 * in order, and the text takes everything from its position to the end of the record.
 */
class DetailRecord {
  readonly line: number;
  typeCode = '';
  typeNumber = 0;
  amountText = '';
  amountUnits = 0n;
  amountGiven = false;
  bankReference = '';
  customerReference = '';
  readonly funds = new FundsTypeFields();
  /** Fields read before the text: type code, amount, funds type and its extras, two references. */
  private fieldCount = 0;
  private textParts: string[] | null = null;
  private textLength = 0;

  constructor(
    line: number,
    private readonly note: NonNullable<FieldPlace['note']>,
  ) {
    this.line = line;
  }

  consume(body: string, line: number): void {
    if (this.textParts !== null) {
      this.addText(stripTerminator(body), line);
      return;
    }
    if (body === '') return;
    let position = 0;
    for (;;) {
      if (this.fieldCount === this.fieldsBeforeText()) {
        // The text runs to the end of the record and may itself hold commas and slashes.
        this.textParts = [];
        this.addText(stripTerminator(body.slice(position)), line);
        return;
      }
      const comma = body.indexOf(',', position);
      if (comma === -1) {
        // The record ends here; an early "/" leaves the remaining fields to their defaults.
        this.accept(stripTerminator(body.slice(position)).trim(), line);
        return;
      }
      this.accept(body.slice(position, comma).trim(), line);
      position = comma + 1;
    }
  }

  /** Whether the fields before the text have all been read, so that what follows is text. */
  inText(): boolean {
    return this.textParts !== null;
  }

  text(): string | null {
    if (this.textParts === null) return null;
    const joined = this.textParts.join(' ');
    return joined === '' ? null : joined;
  }

  /**
   * Type code, amount, funds type, the funds type's extras, bank reference, customer reference.
   * Until the funds type is read its extras are unknown, and the count only needs to stay ahead.
   */
  private fieldsBeforeText(): number {
    return 5 + this.funds.extraFieldCount();
  }

  private accept(field: string, line: number): void {
    const index = this.fieldCount;
    this.fieldCount += 1;
    const where = { line, record: '16', note: this.note };
    if (index === 0) {
      if (!/^\d{3}$/.test(field)) {
        throw new ImportFormatError(
          { line },
          `type code ${quoteFound(field)} in the transaction detail (16)`,
          'a three-digit detail type code from 100 to 999, such as "195" (incoming money transfer)',
        );
      }
      const number = Number(field);
      if (number < 100) {
        throw new ImportFormatError(
          { line },
          `type code ${quoteFound(field)} in the transaction detail (16)`,
          'a detail type code from 100 to 999; codes below 100 are account status codes, reported in the account identifier (03)',
        );
      }
      this.typeCode = field;
      this.typeNumber = number;
      return;
    }
    if (index === 1) {
      if (field !== '' && !DIGITS.test(field)) {
        throw new ImportFormatError(
          { line },
          `amount ${quoteFound(field)} in the transaction detail (16)`,
          'an unsigned whole number in the smallest unit of the currency, without a decimal point (the type code says credit or debit)',
        );
      }
      this.amountText = field;
      this.amountGiven = field !== '';
      this.amountUnits = readAmount(field, 'amount', where, false) ?? 0n;
      return;
    }
    if (index === 2) {
      this.funds.start(field, `type code ${this.typeCode}`, where);
      return;
    }
    const extras = this.funds.extraFieldCount();
    if (index < 3 + extras) {
      this.funds.accept(field, where);
      return;
    }
    if (index === 3 + extras) this.bankReference = field;
    else this.customerReference = field;
  }

  private addText(part: string, line: number): void {
    const trimmed = part.trim();
    if (trimmed === '') return;
    this.textLength += trimmed.length + 1;
    if (this.textLength > BAI2_LIMITS.maxTextLength) {
      throw new ImportFormatError(
        { line },
        `a transaction text longer than ${BAI2_LIMITS.maxTextLength} characters in the transaction detail (16) begun at line ${this.line}`,
        `at most ${BAI2_LIMITS.maxTextLength} characters of text per transaction detail, continuations included`,
      );
    }
    this.textParts!.push(trimmed);
  }
}

interface FieldPlace {
  line: number;
  record: string;
  /** Says, once per file and kind, that something was read leniently (lenient-parsing policy, docs/IMPORTS.md). */
  note?: (kind: string, line: number, message: string) => void;
}

/** A record or continuation without its final "/" (spaces before and after it dropped too). */
function stripTerminator(text: string): string {
  const trimmed = text.trimEnd();
  return trimmed.endsWith('/') ? trimmed.slice(0, -1) : trimmed;
}

/** How a record starts: a two-digit code, then a comma, a "/" or nothing. */
const RECORD_START = /^\d{2}(?:[,/]|$)/;
/**
 * Where one record ends and the next begins on the same physical line, as some banks write
 * them (`...,2/   02,...`): a "/" and blanks before a record code and its comma.
 */
const RECORD_BOUNDARY = /\/\s+(?=(?:0[123]|16|49|88|98|99),)/g;

/** The records of one physical line: usually one. */
function splitRecords(text: string): string[] {
  if (!text.includes('/')) return [text];
  const records: string[] = [];
  let start = 0;
  for (const match of text.matchAll(RECORD_BOUNDARY)) {
    records.push(text.slice(start, match.index + 1));
    start = match.index + match[0].length;
  }
  records.push(text.slice(start));
  return records;
}

function isTwoDigits(code: string): boolean {
  return code.length === 2 && code.charCodeAt(0) >= 48 && code.charCodeAt(0) <= 57 && code.charCodeAt(1) >= 48 && code.charCodeAt(1) <= 57;
}

/** An amount field in smallest units; null when the field is empty (defaulted). */
function readAmount(field: string, name: string, where: FieldPlace, signed: boolean): bigint | null {
  if (field === '') return null;
  if (!(signed ? SIGNED_DIGITS : DIGITS).test(field) || significantDigits(field) > BAI2_LIMITS.maxAmountDigits) {
    throw new ImportFormatError(
      { line: where.line },
      `${name} ${quoteFound(field)} in the ${RECORD_NAMES[where.record]}`,
      `a whole number of at most ${BAI2_LIMITS.maxAmountDigits} digits in the smallest unit of the currency, without a decimal point${signed ? ', optionally signed' : ''}`,
    );
  }
  return BigInt(field.startsWith('+') ? field.slice(1) : field);
}

/** A control total; null when the field is empty (some banks leave it out). */
function readControlTotal(field: string, name: string, where: FieldPlace): bigint | null {
  if (field === '') return null;
  if (!SIGNED_DIGITS.test(field) || significantDigits(field) > BAI2_LIMITS.maxControlTotalDigits) {
    throw new ImportFormatError(
      { line: where.line },
      `${name} ${quoteFound(field)} in the ${RECORD_NAMES[where.record]}`,
      `a whole number of at most ${BAI2_LIMITS.maxControlTotalDigits} digits in the smallest unit of the currency, optionally signed`,
    );
  }
  return BigInt(field.startsWith('+') ? field.slice(1) : field);
}

function significantDigits(field: string): number {
  const unsigned = field.startsWith('+') || field.startsWith('-') ? field.slice(1) : field;
  return unsigned.replace(LEADING_ZEROS, '').length;
}

/** A count field; null when it is empty and not required. */
function readCount(field: string, name: string, where: FieldPlace, required: boolean): number | null {
  if (field === '' && !required) return null;
  if (!DIGITS.test(field) || significantDigits(field) > BAI2_LIMITS.maxCountDigits) {
    throw new ImportFormatError(
      { line: where.line },
      `${name} ${quoteFound(field)} in the ${RECORD_NAMES[where.record]}`,
      `a whole number of at most ${BAI2_LIMITS.maxCountDigits} digits`,
    );
  }
  return Number(field);
}

/**
 * A date YYMMDD as `YYYY-MM-DD`; null when the field is empty and not required. Years 00–79
 * are 2000–2079 and 80–99 are 1980–1999: BAI2 dates to the 1980s.
 */
function readDate(field: string, name: string, where: FieldPlace, required: boolean): CalendarDate | null {
  if (field === '' && !required) return null;
  const date = /^\d{6}$/.test(field) ? `${Number(field.slice(0, 2)) < 80 ? '20' : '19'}${field.slice(0, 2)}-${field.slice(2, 4)}-${field.slice(4, 6)}` : '';
  if (!isCalendarDate(date)) {
    throw new ImportFormatError(
      { line: where.line },
      `${name} ${quoteFound(field)} in the ${RECORD_NAMES[where.record]}`,
      'a real calendar date written YYMMDD, such as "240229"',
    );
  }
  return date;
}

/**
 * A time HHMM from 0000 to 2400, or 9999 (end of day, as some banks write it); empty is allowed.
 * Some banks write the time with colons or seconds (`14:59:35`, `145935`): that is read too and
 * noted, since no time of a BAI2 file is stored (entries are booked on the as-of date). A time
 * that is no time at all (`2561`) is refused: the record it sits in is not what it claims.
 */
function readTime(field: string, name: string, where: FieldPlace): void {
  if (field === '' || field === '9999') return;
  const standard = /^\d{4}$/.test(field);
  const match = /^(\d{2}):?(\d{2})(?::?(\d{2}))?$/.exec(field);
  const [hours, minutes, seconds] = match ? [Number(match[1]), Number(match[2]), Number(match[3] ?? 0)] : [NaN, NaN, NaN];
  const valid = hours < 24 ? minutes < 60 && seconds < 60 : hours === 24 && minutes === 0 && seconds === 0;
  if (!valid) {
    throw new ImportFormatError(
      { line: where.line },
      `${name} ${quoteFound(field)} in the ${RECORD_NAMES[where.record]}`,
      'a time HHMM from 0000 to 2400, or 9999 for the end of the day',
    );
  }
  if (!standard) {
    where.note?.(
      'time',
      where.line,
      `the ${name} ${quoteFound(field)} in the ${RECORD_NAMES[where.record]} is not written HHMM as BAI2 says; it was read as ${match![1]}:${match![2]} ` +
        '(times are not stored, so this changes no entry); the same holds for every such time in this file',
    );
  }
}

function balance(units: bigint | null, scale: number, date: CalendarDate): StatementBalance | null {
  return units === null ? null : { amount: placeImpliedDecimals(units.toString(), scale), date };
}
