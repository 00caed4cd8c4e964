import { withCurrencyScale } from '../../money.ts';
import { sniffableHead } from '../text.ts';
import {
  emptyEntry,
  ImportFormatError,
  isCalendarDate,
  quoteFound,
  type CalendarDate,
  type ImportFormat,
  type ParseEvent,
  type StatementBalance,
  type StatementEntry,
} from '../statement-entries.ts';

/**
 * OFX and QFX statements, version 1.x (SGML: leaf elements have no closing tag, so
 * `<TRNAMT>-12.50` ends at the next `<`) and version 2.x (XML), read by one streaming tokenizer.
 *
 * The tokenizer does not know the OFX document type, so it cannot tell from a tag alone whether
 * an element is a leaf (a value) or an aggregate (holding other elements). It decides as the file
 * goes: an element followed by text is a leaf; an element followed by another tag is an
 * aggregate, unless it is one of the leaves OFX defines, which is then an empty value. Closing
 * tags of leaves are accepted and skipped. Only the current path of open aggregates, the current
 * statement's header and the current entry are held in memory.
 */

/** Bounds on what one file may make the reader hold. */
export const OFX_LIMITS = {
  /** Deepest nesting of aggregates accepted; statements sit at depth 5, entries at depth 7. */
  depthLimit: 32,
  /** Longest text of one element (a memo, a name), in characters. */
  maxTextLength: 64 * 1024,
  /** Longest tag or processing instruction, in characters. */
  maxMarkupLength: 4096,
  /** Longest OFX 1.x header block before the first tag, in characters. */
  maxHeaderLength: 4096,
  /** Longest amount, in characters (the OFX specification allows 32). */
  maxAmountLength: 32,
  /** Warnings yielded per file; further ones are counted in one last warning. */
  warningLimit: 100,
  /** Largest piece of a chunk handled at once, so that one huge chunk never piles up its events. */
  sliceLength: 64 * 1024,
} as const;

/** The parser takes no options: everything it needs is in the file. */
export type OfxParseOptions = Record<string, never>;

/**
 * Aggregates this parser knows. They are opened as soon as their tag is read; any text right
 * after one of them is an error. Unknown elements (such as Intuit's `<INTU.BID>`) are read as
 * leaves when text follows them and otherwise as aggregates that the meaning of the file ignores.
 */
const KNOWN_AGGREGATES = new Set([
  'OFX',
  'SIGNONMSGSRSV1',
  'SONRS',
  'STATUS',
  'FI',
  'BANKMSGSRSV1',
  'STMTTRNRS',
  'STMTRS',
  'BANKACCTFROM',
  'BANKACCTTO',
  'CREDITCARDMSGSRSV1',
  'CCSTMTTRNRS',
  'CCSTMTRS',
  'CCACCTFROM',
  'CCACCTTO',
  'BANKTRANLIST',
  'STMTTRN',
  'PAYEE',
  'CURRENCY',
  'ORIGCURRENCY',
  'LEDGERBAL',
  'AVAILBAL',
  'BALLIST',
  'BAL',
  'STMTENDTRNRS',
  'STMTENDRS',
  'CCSTMTENDTRNRS',
  'CCSTMTENDRS',
  'INVSTMTMSGSRSV1',
  'INVSTMTTRNRS',
  'INVSTMTRS',
  'INVTRANLIST',
  'INVBANKTRAN',
  'LOANSTMTRS',
  'LOANSTMTTRNRS',
  'SECLISTMSGSRSV1',
  'SECLIST',
]);

/** Leaves OFX defines around statements: such an element followed by a tag is an empty value. */
const KNOWN_LEAVES = new Set([
  'TRNTYPE',
  'DTPOSTED',
  'DTUSER',
  'DTAVAIL',
  'TRNAMT',
  'FITID',
  'CORRECTFITID',
  'CORRECTACTION',
  'SRVRTID',
  'CHECKNUM',
  'REFNUM',
  'SIC',
  'PAYEEID',
  'NAME',
  'EXTDNAME',
  'MEMO',
  'INV401KSOURCE',
  'CURSYM',
  'CURRATE',
  'BANKID',
  'BRANCHID',
  'ACCTID',
  'ACCTTYPE',
  'ACCTKEY',
  'BALAMT',
  'DTASOF',
  'CURDEF',
  'TRNUID',
  'CLTCOOKIE',
  'CODE',
  'SEVERITY',
  'MESSAGE',
  'DTSTART',
  'DTEND',
  'DTSERVER',
  'LANGUAGE',
  'DTPROFUP',
  'DTACCTUP',
  'ORG',
  'FID',
  'SESSCOOKIE',
  'USERKEY',
  'TSKEYEXPIRE',
  'ACCESSKEY',
  'MKTGINFO',
  'ADDR1',
  'ADDR2',
  'ADDR3',
  'CITY',
  'STATE',
  'POSTALCODE',
  'COUNTRY',
  'PHONE',
  'DESC',
  'BALTYPE',
  'VALUE',
  'INTU.BID',
  'INTU.USERID',
]);

/** Statement aggregates that are not bank or credit-card statements: skipped with a warning. */
const UNSUPPORTED_STATEMENTS: Record<string, string> = {
  INVSTMTRS: 'an investment statement (INVSTMTRS)',
  LOANSTMTRS: 'a loan statement (LOANSTMTRS)',
  STMTENDRS: 'a bank statement closing summary (STMTENDRS)',
  CCSTMTENDRS: 'a credit-card statement closing summary (CCSTMTENDRS)',
};

/** Aggregates that repeat among their siblings: their paths in messages carry an index, `STMTTRN[3]`. */
const INDEXED_AGGREGATES = new Set(['STMTTRN', 'STMTTRNRS', 'CCSTMTTRNRS', 'INVSTMTTRNRS']);

/** OFX transaction types (`TRNTYPE`) in words; an unknown type is kept as written, in lower case. */
const TRANSACTION_TYPES: Record<string, string> = {
  CREDIT: 'credit',
  DEBIT: 'debit',
  INT: 'interest',
  DIV: 'dividend',
  FEE: 'fee',
  SRVCHG: 'service charge',
  DEP: 'deposit',
  ATM: 'atm',
  POS: 'point of sale',
  XFER: 'transfer',
  CHECK: 'check',
  PAYMENT: 'payment',
  CASH: 'cash withdrawal',
  DIRECTDEP: 'direct deposit',
  DIRECTDEBIT: 'direct debit',
  REPEATPMT: 'repeating payment',
  HOLD: 'hold',
  OTHER: 'other',
};

const OPENING_TAG = /^([A-Za-z_][A-Za-z0-9._:-]*)(?:\s[^]*)?$/;
const CLOSING_TAG = /^\/([A-Za-z_][A-Za-z0-9._:-]*)\s*$/;
const ENTITY = /&(#[xX][0-9a-fA-F]{1,6}|#[0-9]{1,7}|amp|lt|gt|quot|apos);/g;
const NAMED_ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };
const AMOUNT = /^([+-]?)(\d*)(?:[.,](\d*))?$/;
const CURRENCY_CODE = /^[A-Z]{3}$/;
/**
 * `YYYYMMDD`, then optionally `HHMM`, `SS`, `.XXX` and a zone `[-5:EST]`. Minutes without seconds
 * occur in published files (`200510291120`), so they are accepted too.
 */
const OFX_DATE = /^(\d{4})(\d{2})(\d{2})(?:(\d{2})(\d{2})(?:(\d{2})(?:\.(\d{1,6}))?)?)?\s*(?:\[\s*([+-]?)(\d{1,2})(?:\.(\d{1,2}))?\s*(?::[^\]]{0,32})?\])?$/;

const DATE_EXPECTED = 'a date YYYYMMDD that exists, optionally followed by a time HHMMSS or HHMMSS.XXX and a zone such as [-5:EST]';
const AMOUNT_EXPECTED = 'an amount such as "-12.50": digits with an optional sign and one decimal point or decimal comma, without thousands separators';
const NOT_OFX_EXPECTED = 'an OFX file: the OFXHEADER:100 header block of OFX 1.x, or <?xml ...?> and <?OFX ...?> of OFX 2.x, followed by <OFX>';

const BEFORE_ROOT = 0;
const IN_ROOT = 1;
const AFTER_ROOT = 2;

interface Frame {
  name: string;
  line: number;
  /** Path of the element in messages, `/OFX/BANKMSGSRSV1/STMTTRNRS[1]/STMTRS/BANKTRANLIST/STMTTRN[3]`. */
  path: string;
  /** Whether this is an aggregate the parser knows; unknown ones are transparent to the leaves inside. */
  known: boolean;
  /** How many children of each indexed name were opened so far. */
  childCounts: Map<string, number> | null;
}

/** An element whose tag was read but not yet what follows it: a leaf with a value, or an aggregate. */
interface PendingElement {
  name: string;
  line: number;
}

/** The statement request's response around a statement (`STMTTRNRS` or `CCSTMTTRNRS`). */
interface ResponseState {
  name: string;
  line: number;
  transactionUniqueId: string | null;
  statusCode: string | null;
  statusSeverity: string | null;
  statusMessage: string | null;
  statements: number;
}

interface StatementState {
  index: number;
  line: number;
  path: string;
  transactionUniqueId: string | null;
  accountId: string | null;
  currency: string | null;
  listStartDate: CalendarDate | null;
  listEndDate: CalendarDate | null;
  closingBalance: StatementBalance | null;
  ledgerAmount: string | null;
  ledgerDate: CalendarDate | null;
  /** The statement id, fixed when the first entry is yielded so that entries and statement agree. */
  statementId: string | null;
  statementIdFixed: boolean;
  entries: number;
  warnedMissingUniqueId: boolean;
  warnedMissingAccount: boolean;
}

interface EntryState {
  line: number;
  path: string;
  transactionType: string | null;
  postedDate: ParsedDate | null;
  availableDate: CalendarDate | null;
  amount: string | null;
  uniqueId: string | null;
  checkNumber: string | null;
  referenceNumber: string | null;
  name: string | null;
  payeeName: string | null;
  memo: string | null;
  currency: string | null;
  counterpartyAccount: string | null;
  correctAction: string | null;
  correctedUniqueId: string | null;
}

export interface ParsedDate {
  date: CalendarDate;
  /** Epoch milliseconds when the value carries a time, else null. */
  timeMs: number | null;
}

/**
 * Reads an OFX date-time: `YYYYMMDD`, `YYYYMMDDHHMMSS`, `YYYYMMDDHHMMSS.XXX`, each optionally
 * followed by a zone `[-5:EST]`, `[+5.30:IST]`, `[0:GMT]`, `[-3.5]`. The date is the calendar date
 * as written; the time, when given, is read in the given zone, or in GMT when no zone is given, as
 * the OFX specification says. In the zone offset one digit after the point is a tenth of an hour
 * (`-3.5` is -3:30) and two digits are minutes (`+5.30` is +5:30, `+5.45` is +5:45). Returns null
 * when the value is not such a date or names a day or time that does not exist.
 */
export function parseOfxDate(text: string): ParsedDate | null {
  const match = OFX_DATE.exec(text);
  if (!match) return null;
  const [, year, month, day, hours, minutes, seconds, fraction, offsetSign, offsetHours, offsetFraction] = match;
  const date = `${year}-${month}-${day}`;
  if (!isCalendarDate(date)) return null;
  if (hours === undefined || minutes === undefined) return { date, timeMs: null };
  const hour = Number(hours);
  const minute = Number(minutes);
  const second = seconds === undefined ? 0 : Number(seconds);
  if (hour > 23 || minute > 59 || second > 59) return null;
  const milliseconds = fraction === undefined ? 0 : Number(`${fraction}00`.slice(0, 3));
  let offsetMinutes = 0;
  if (offsetHours !== undefined) {
    let fractionMinutes = 0;
    if (offsetFraction !== undefined) {
      fractionMinutes = offsetFraction.length === 1 ? Number(offsetFraction) * 6 : Number(offsetFraction);
      if (fractionMinutes > 59) return null;
    }
    offsetMinutes = Number(offsetHours) * 60 + fractionMinutes;
    if (offsetMinutes > 14 * 60) return null;
    if (offsetSign === '-') offsetMinutes = -offsetMinutes;
  }
  const local = Date.UTC(Number(year), Number(month) - 1, Number(day), hour, minute, second, milliseconds);
  return { date, timeMs: local - offsetMinutes * 60_000 };
}

/**
 * Reads an OFX amount into a plain decimal text ("-12,5" becomes "-12.5", "+.50" becomes "0.50").
 * A decimal point or a decimal comma is accepted; anything else (thousands separators, spaces,
 * letters, exponents) is refused with null rather than guessed at.
 */
export function parseOfxAmount(text: string): string | null {
  if (text.length > OFX_LIMITS.maxAmountLength) return null;
  const match = AMOUNT.exec(text);
  if (!match) return null;
  const sign = match[1] === '-' ? '-' : '';
  const whole = (match[2] ?? '').replace(/^0+(?=\d)/, '');
  let fraction = match[3] ?? '';
  if (whole === '' && fraction === '') return null;
  // Zeros beyond six decimals carry no value; anything else beyond them is more precision than any ledger keeps.
  if (fraction.length > 6) {
    if (!/^0*$/.test(fraction.slice(6))) return null;
    fraction = fraction.slice(0, 6);
  }
  if (whole.length > 18) return null;
  return `${sign}${whole === '' ? '0' : whole}${fraction === '' ? '' : `.${fraction}`}`;
}

function decodeEntities(text: string): string {
  if (text.indexOf('&') < 0) return text;
  return text.replace(ENTITY, (whole, name: string) => {
    if (name.charCodeAt(0) !== 35) return NAMED_ENTITIES[name] ?? whole;
    const codePoint = name.charCodeAt(1) === 120 || name.charCodeAt(1) === 88 ? parseInt(name.slice(2), 16) : parseInt(name.slice(1), 10);
    // A reference to NUL, a surrogate or beyond Unicode is not a character; it stays as written.
    if (codePoint === 0 || codePoint > 0x10ffff || (codePoint >= 0xd800 && codePoint <= 0xdfff)) return whole;
    return String.fromCodePoint(codePoint);
  });
}

/**
 * The reader: a tokenizer fed with chunks of text, and the OFX structure above it. It appends
 * the events it produces to `events`, which the caller empties after every chunk.
 */
class OfxReader {
  events: ParseEvent[] = [];

  // Tokenizer state.
  private line = 1;
  private afterCarriageReturn = false;
  private inMarkup = false;
  private markup = '';
  private markupLine = 1;
  private text = '';
  private textLine = 1;

  // Structure state.
  private phase = BEFORE_ROOT;
  private sawHeader = false;
  private sawMarkupBeforeRoot = false;
  private readonly stack: Frame[] = [];
  private pending: PendingElement | null = null;
  private lastLeafName: string | null = null;
  private warningsYielded = 0;
  private warningsLeftOut = 0;
  private warnedTrailingText = false;

  // Meaning of the file.
  private response: ResponseState | null = null;
  private statement: StatementState | null = null;
  private entry: EntryState | null = null;
  private statementCount = 0;

  write(chunk: string): void {
    let index = 0;
    const length = chunk.length;
    while (index < length) {
      if (!this.inMarkup) {
        const open = chunk.indexOf('<', index);
        const end = open < 0 ? length : open;
        if (end > index) this.appendText(chunk, index, end);
        if (open < 0) return;
        this.inMarkup = true;
        this.markup = '';
        this.markupLine = this.line;
        this.afterCarriageReturn = false;
        index = open + 1;
      } else {
        const close = chunk.indexOf('>', index);
        const end = close < 0 ? length : close;
        if (end > index) this.appendMarkup(chunk, index, end);
        if (close < 0) return;
        index = close + 1;
        this.afterCarriageReturn = false;
        if (this.markupComplete()) {
          this.inMarkup = false;
          this.handleMarkup();
        } else {
          // A '>' inside a comment, a CDATA section or a processing instruction.
          this.markup += '>';
        }
      }
    }
  }

  end(): void {
    if (this.inMarkup) {
      throw new ImportFormatError(
        { line: this.markupLine, xmlPath: this.currentPath() },
        `the end of the file inside the tag ${quoteFound(`<${this.markup}`)}`,
        'the tag to end with ">" and the rest of the file up to </OFX>: the file seems truncated',
      );
    }
    if (this.phase === BEFORE_ROOT) {
      const head = this.text.trim();
      if (head !== '' && !this.sawHeader) this.checkHeader(head, this.textLine);
      const found = head === '' && !this.sawHeader && !this.sawMarkupBeforeRoot ? 'an empty file' : 'the end of the file before <OFX>';
      throw new ImportFormatError({ line: this.line }, found, NOT_OFX_EXPECTED);
    }
    this.flushText();
    if (this.phase === IN_ROOT) {
      const innermost = this.innermostKnownFrame() ?? this.stack[this.stack.length - 1]!;
      throw new ImportFormatError(
        { line: this.line, xmlPath: innermost.path },
        `the end of the file inside <${innermost.name}> opened on line ${innermost.line}`,
        `</${innermost.name}> and the rest of the file up to </OFX>: the file seems truncated`,
      );
    }
    if (this.statementCount === 0) this.warn(null, 'The file holds no bank or credit-card statement: nothing is imported from it.');
    if (this.warningsLeftOut > 0) {
      this.events.push({ kind: 'warning', line: null, message: `${this.warningsLeftOut} further warnings were left out.` });
    }
  }

  // ---- Tokenizer ----------------------------------------------------------------------------

  private countLines(chunk: string, start: number, end: number): void {
    for (let index = start; index < end; index++) {
      const character = chunk.charCodeAt(index);
      if (character === 10) {
        if (!this.afterCarriageReturn) this.line += 1;
        this.afterCarriageReturn = false;
      } else if (character === 13) {
        this.line += 1;
        this.afterCarriageReturn = true;
      } else {
        this.afterCarriageReturn = false;
      }
    }
  }

  private appendText(chunk: string, start: number, end: number): void {
    if (this.text === '') this.textLine = this.line;
    this.text += chunk.slice(start, end);
    this.countLines(chunk, start, end);
    if (this.phase === BEFORE_ROOT) {
      if (this.text.length > OFX_LIMITS.maxHeaderLength) {
        const head = this.text.trim();
        if (!this.sawHeader) this.checkHeader(head, this.textLine);
        throw new ImportFormatError(
          { line: this.textLine },
          `a header block longer than ${OFX_LIMITS.maxHeaderLength} characters`,
          'the OFX header (a few KEY:VALUE lines) followed by <OFX>',
        );
      }
    } else if (this.text.length > OFX_LIMITS.maxTextLength) {
      throw new ImportFormatError(
        { line: this.textLine, xmlPath: this.pendingPath() },
        `a text longer than ${OFX_LIMITS.maxTextLength} characters`,
        `values of at most ${OFX_LIMITS.maxTextLength} characters between tags; is this the right file?`,
      );
    }
  }

  private appendMarkup(chunk: string, start: number, end: number): void {
    this.markup += chunk.slice(start, end);
    this.countLines(chunk, start, end);
    const limit = this.markup.startsWith('!--') || this.markup.startsWith('![CDATA[') ? OFX_LIMITS.maxTextLength : OFX_LIMITS.maxMarkupLength;
    if (this.markup.length > limit) {
      throw new ImportFormatError(
        { line: this.markupLine, xmlPath: this.currentPath() },
        `a tag ${quoteFound(`<${this.markup}`)} that does not end within ${limit} characters`,
        'tags such as <STMTTRN> that end with ">"',
      );
    }
  }

  private markupComplete(): boolean {
    const markup = this.markup;
    const first = markup.charCodeAt(0);
    if (first === 33 /* ! */) {
      if (markup.startsWith('!--')) return markup.length >= 5 && markup.endsWith('--');
      if (markup.startsWith('![CDATA[')) return markup.endsWith(']]');
      return true;
    }
    if (first === 63 /* ? */) return markup.length >= 2 && markup.endsWith('?');
    return true;
  }

  private handleMarkup(): void {
    const markup = this.markup;
    this.markup = '';
    const first = markup.charCodeAt(0);
    if (first === 33 /* ! */) {
      // Comments vanish from the text around them; a CDATA section is text taken literally.
      if (markup.startsWith('!--')) return;
      if (markup.startsWith('![CDATA[')) {
        if (this.text === '') this.textLine = this.markupLine;
        this.text += markup.slice(8, -2).replace(/&/g, '&amp;');
        return;
      }
      // Declarations could define entities that expand without bound; OFX never needs them.
      throw new ImportFormatError(
        { line: this.markupLine, xmlPath: this.currentPath() },
        quoteFound(`<${markup}>`),
        'no document type or entity declaration (<!DOCTYPE>, <!ENTITY>): OFX files have none, and they are not accepted',
      );
    }
    this.flushText();
    if (first === 63 /* ? */) {
      if (this.phase === BEFORE_ROOT) this.sawMarkupBeforeRoot = true;
      return;
    }
    if (first === 47 /* / */) {
      const match = CLOSING_TAG.exec(markup);
      if (!match) throw this.badTag(markup);
      this.closeElement(match[1]!.toUpperCase(), this.markupLine);
      return;
    }
    const selfClosing = markup.endsWith('/');
    const match = OPENING_TAG.exec(selfClosing ? markup.slice(0, -1) : markup);
    if (!match) throw this.badTag(markup);
    const name = match[1]!.toUpperCase();
    this.openElement(name, this.markupLine);
    if (selfClosing) this.closeElement(name, this.markupLine);
  }

  private badTag(markup: string): ImportFormatError {
    if (this.phase === BEFORE_ROOT && !this.sawHeader && !this.sawMarkupBeforeRoot) {
      return new ImportFormatError({ line: this.markupLine }, quoteFound(`<${markup}>`), NOT_OFX_EXPECTED);
    }
    return new ImportFormatError(
      { line: this.markupLine, xmlPath: this.currentPath() },
      quoteFound(`<${markup}>`),
      'an OFX tag such as <STMTTRN> or </STMTTRN>',
    );
  }

  private flushText(): void {
    const raw = this.text;
    if (raw === '') return;
    this.text = '';
    this.handleText(raw, this.textLine);
  }

  // ---- Structure ----------------------------------------------------------------------------

  private handleText(raw: string, line: number): void {
    const value = raw.trim();
    if (value === '') return;
    const valueLine = line + countLeadingLineBreaks(raw);
    if (this.phase === BEFORE_ROOT) {
      if (this.sawHeader || this.sawMarkupBeforeRoot) {
        throw new ImportFormatError({ line: valueLine }, quoteFound(value), 'only the header, processing instructions and comments before <OFX>');
      }
      this.checkHeader(value, valueLine);
      this.sawHeader = true;
      return;
    }
    if (this.phase === AFTER_ROOT) {
      if (!this.warnedTrailingText) {
        this.warnedTrailingText = true;
        this.warn(valueLine, `Text after </OFX> was ignored: ${quoteFound(value)}.`);
      }
      return;
    }
    if (value.indexOf('\u0000') >= 0) {
      throw new ImportFormatError({ line: valueLine, xmlPath: this.pendingPath() }, 'a NUL character', 'text without NUL characters; is this a binary file?');
    }
    const pending = this.pending;
    if (pending === null) {
      const parent = this.stack[this.stack.length - 1]!;
      throw new ImportFormatError(
        { line: valueLine, xmlPath: parent.path },
        `the text ${quoteFound(value)} directly inside <${parent.name}>`,
        `only tags inside the aggregate <${parent.name}>; a value belongs inside a field such as <NAME>`,
      );
    }
    this.pending = null;
    this.lastLeafName = pending.name;
    this.handleLeaf(pending.name, decodeEntities(value), pending.line);
  }

  private checkHeader(head: string, line: number): void {
    if (!/^OFXHEADER\s*:/i.test(head)) throw new ImportFormatError({ line }, quoteFound(head), NOT_OFX_EXPECTED);
  }

  private openElement(name: string, line: number): void {
    if (this.phase === BEFORE_ROOT) {
      if (name !== 'OFX') throw new ImportFormatError({ line }, `<${name}>`, NOT_OFX_EXPECTED);
      this.phase = IN_ROOT;
      this.pushFrame(name, line);
      return;
    }
    if (this.phase === AFTER_ROOT) {
      throw new ImportFormatError({ line }, `<${name}> after </OFX>`, 'the end of the file after </OFX>');
    }
    this.resolvePendingBeforeOpening();
    this.lastLeafName = null;
    if (KNOWN_AGGREGATES.has(name)) this.pushFrame(name, line);
    else this.pending = { name, line };
  }

  /** An element followed by another opening tag: an empty OFX leaf, or an aggregate. */
  private resolvePendingBeforeOpening(): void {
    const pending = this.pending;
    if (pending === null) return;
    this.pending = null;
    if (KNOWN_LEAVES.has(pending.name)) this.handleLeaf(pending.name, '', pending.line);
    else this.pushFrame(pending.name, pending.line);
  }

  private closeElement(name: string, line: number): void {
    if (this.phase !== IN_ROOT) {
      throw new ImportFormatError(
        { line },
        `</${name}> ${this.phase === BEFORE_ROOT ? 'before <OFX>' : 'after </OFX>'}`,
        this.phase === BEFORE_ROOT ? NOT_OFX_EXPECTED : 'the end of the file after </OFX>',
      );
    }
    const pending = this.pending;
    if (pending !== null) {
      // An element closed with nothing in it (`<MEMO></MEMO>`), or an empty SGML leaf before its parent's end.
      this.pending = null;
      this.handleLeaf(pending.name, '', pending.line);
      if (pending.name === name) {
        this.lastLeafName = null;
        return;
      }
    }
    if (this.lastLeafName === name) {
      // The closing tag of a leaf, as OFX 2.x and some 1.x files write it.
      this.lastLeafName = null;
      return;
    }
    this.lastLeafName = null;
    let index = this.stack.length - 1;
    while (index >= 0 && this.stack[index]!.name !== name) index -= 1;
    if (index < 0) {
      const top = this.stack[this.stack.length - 1]!;
      throw new ImportFormatError({ line, xmlPath: top.path }, `</${name}>, which closes no open element`, `</${top.name}> or the tags inside <${top.name}>`);
    }
    while (this.stack.length - 1 > index) {
      const frame = this.stack.pop()!;
      if (frame.known) {
        this.warn(frame.line, `<${frame.name}> at ${frame.path} has no closing tag; it was taken as closed by </${name}> on line ${line}.`);
      }
      this.closeFrame(frame, line);
    }
    this.closeFrame(this.stack.pop()!, line);
    if (this.stack.length === 0) this.phase = AFTER_ROOT;
  }

  private pushFrame(name: string, line: number): void {
    const parent = this.stack[this.stack.length - 1];
    if (this.stack.length >= OFX_LIMITS.depthLimit) {
      throw new ImportFormatError(
        { line, xmlPath: parent?.path ?? null },
        `<${name}> nested ${this.stack.length + 1} elements deep`,
        `OFX aggregates nested at most ${OFX_LIMITS.depthLimit} deep`,
      );
    }
    let segment = name;
    if (parent !== undefined) {
      if (INDEXED_AGGREGATES.has(name)) {
        parent.childCounts ??= new Map();
        const count = (parent.childCounts.get(name) ?? 0) + 1;
        parent.childCounts.set(name, count);
        segment = `${name}[${count}]`;
      }
    }
    const frame: Frame = {
      name,
      line,
      path: `${parent?.path ?? ''}/${segment}`,
      known: KNOWN_AGGREGATES.has(name),
      childCounts: null,
    };
    this.stack.push(frame);
    if (frame.known) this.openAggregate(frame);
  }

  private closeFrame(frame: Frame, line: number): void {
    if (frame.known) this.closeAggregate(frame, line);
  }

  private currentPath(): string | null {
    return this.stack[this.stack.length - 1]?.path ?? null;
  }

  private pendingPath(): string | null {
    const top = this.currentPath();
    if (this.pending === null) return top;
    return `${top ?? ''}/${this.pending.name}`;
  }

  private innermostKnownFrame(skip = 0): Frame | undefined {
    let remaining = skip;
    for (let index = this.stack.length - 1; index >= 0; index--) {
      const frame = this.stack[index]!;
      if (!frame.known) continue;
      if (remaining === 0) return frame;
      remaining -= 1;
    }
    return undefined;
  }

  private warn(line: number | null, message: string): void {
    if (this.warningsYielded >= OFX_LIMITS.warningLimit) {
      this.warningsLeftOut += 1;
      return;
    }
    this.warningsYielded += 1;
    this.events.push({ kind: 'warning', line, message });
  }

  // ---- Meaning ------------------------------------------------------------------------------

  private openAggregate(frame: Frame): void {
    switch (frame.name) {
      case 'STMTTRNRS':
      case 'CCSTMTTRNRS':
        this.response = {
          name: frame.name,
          line: frame.line,
          transactionUniqueId: null,
          statusCode: null,
          statusSeverity: null,
          statusMessage: null,
          statements: 0,
        };
        return;
      case 'STMTRS':
      case 'CCSTMTRS':
        this.openStatement(frame);
        return;
      case 'STMTTRN':
        this.openEntry(frame);
        return;
      default: {
        const unsupported = UNSUPPORTED_STATEMENTS[frame.name];
        if (unsupported !== undefined) {
          this.warn(frame.line, `${capitalize(unsupported)} at ${frame.path} was skipped: only bank and credit-card statements are imported.`);
        }
      }
    }
  }

  private openStatement(frame: Frame): void {
    if (this.statement !== null) {
      throw new ImportFormatError(
        { line: frame.line, xmlPath: frame.path },
        `<${frame.name}> inside the statement opened on line ${this.statement.line}`,
        'one statement to end before the next begins',
      );
    }
    if (this.response !== null) this.response.statements += 1;
    this.statement = {
      index: this.statementCount,
      line: frame.line,
      path: frame.path,
      transactionUniqueId: this.response?.transactionUniqueId ?? null,
      accountId: null,
      currency: null,
      listStartDate: null,
      listEndDate: null,
      closingBalance: null,
      ledgerAmount: null,
      ledgerDate: null,
      statementId: null,
      statementIdFixed: false,
      entries: 0,
      warnedMissingUniqueId: false,
      warnedMissingAccount: false,
    };
    this.statementCount += 1;
  }

  private openEntry(frame: Frame): void {
    // A STMTTRN outside a bank or credit-card statement (inside an investment statement) is not ours.
    if (this.statement === null) return;
    if (this.entry !== null) {
      throw new ImportFormatError(
        { line: frame.line, xmlPath: frame.path },
        `<STMTTRN> inside the STMTTRN opened on line ${this.entry.line}`,
        '</STMTTRN> before the next <STMTTRN>',
      );
    }
    this.entry = {
      line: frame.line,
      path: frame.path,
      transactionType: null,
      postedDate: null,
      availableDate: null,
      amount: null,
      uniqueId: null,
      checkNumber: null,
      referenceNumber: null,
      name: null,
      payeeName: null,
      memo: null,
      currency: null,
      counterpartyAccount: null,
      correctAction: null,
      correctedUniqueId: null,
    };
  }

  private closeAggregate(frame: Frame, line: number): void {
    switch (frame.name) {
      case 'STMTTRN':
        if (this.entry !== null && this.entry.path === frame.path) this.closeEntry();
        return;
      case 'STMTRS':
      case 'CCSTMTRS':
        if (this.statement !== null && this.statement.path === frame.path) this.closeStatement();
        return;
      case 'LEDGERBAL':
        this.closeLedgerBalance(frame);
        return;
      case 'STMTTRNRS':
      case 'CCSTMTTRNRS':
        this.closeResponse(line);
        return;
      default:
    }
  }

  private closeResponse(line: number): void {
    const response = this.response;
    this.response = null;
    if (response === null || response.statusCode === null || response.statusCode === '0') return;
    const what = `status ${response.statusCode}${response.statusSeverity ? ` (${response.statusSeverity})` : ''}${response.statusMessage ? `: ${response.statusMessage}` : ''}`;
    const consequence = response.statements === 0 ? ' This response holds no statement.' : '';
    this.warn(response.line, `The bank answered the statement request ending on line ${line} with ${what}.${consequence}`);
  }

  private closeLedgerBalance(frame: Frame): void {
    const statement = this.statement;
    if (statement === null) return;
    if (statement.ledgerAmount === null) {
      this.warn(frame.line, `The ledger balance (LEDGERBAL) at ${frame.path} has no amount: the statement's closing balance is unknown.`);
      return;
    }
    statement.closingBalance = { amount: withCurrencyScale(statement.ledgerAmount, statement.currency), date: statement.ledgerDate };
  }

  /** Fixes the statement id: the response's TRNUID when it means something, else account and period. */
  private fixStatementId(statement: StatementState): void {
    if (statement.statementIdFixed) return;
    statement.statementIdFixed = true;
    const uniqueId = statement.transactionUniqueId;
    if (uniqueId !== null && !/^0*$/.test(uniqueId)) {
      statement.statementId = uniqueId;
    } else if (statement.accountId !== null && statement.listStartDate !== null && statement.listEndDate !== null) {
      statement.statementId = `${statement.accountId}/${statement.listStartDate.replaceAll('-', '')}-${statement.listEndDate.replaceAll('-', '')}`;
    }
  }

  private closeEntry(): void {
    const entry = this.entry!;
    const statement = this.statement!;
    this.entry = null;
    if (entry.amount === null) {
      throw new ImportFormatError({ line: entry.line, xmlPath: entry.path }, 'a STMTTRN without TRNAMT', 'every STMTTRN to give its amount in <TRNAMT>');
    }
    if (entry.postedDate === null) {
      throw new ImportFormatError(
        { line: entry.line, xmlPath: entry.path },
        'a STMTTRN without DTPOSTED',
        'every STMTTRN to give its posting date in <DTPOSTED>',
      );
    }
    this.fixStatementId(statement);
    if (statement.accountId === null && !statement.warnedMissingAccount) {
      statement.warnedMissingAccount = true;
      this.warn(statement.line, `The statement at ${statement.path} names no account (BANKACCTFROM/ACCTID or CCACCTFROM/ACCTID) before its transactions.`);
    }
    if (entry.uniqueId === null && !statement.warnedMissingUniqueId) {
      statement.warnedMissingUniqueId = true;
      this.warn(entry.line, `Transactions without FITID in the statement at ${statement.path} (first on line ${entry.line}) are identified by their content.`);
    }
    if (entry.correctAction !== null) {
      this.warn(
        entry.line,
        `The transaction on line ${entry.line} asks to ${entry.correctAction.toLowerCase()} the earlier transaction ${entry.correctedUniqueId ?? '(no CORRECTFITID)'}; it was imported as a transaction of its own.`,
      );
    }
    const currency = entry.currency ?? statement.currency;
    const name = entry.name ?? entry.payeeName;
    const result: StatementEntry = emptyEntry(entry.line, statement.index, withCurrencyScale(entry.amount, currency));
    result.bookingDate = entry.postedDate.date;
    result.bookingTimeMs = entry.postedDate.timeMs;
    result.valueDate = entry.availableDate;
    result.currency = currency;
    result.description = entry.memo ?? name;
    result.type = entry.transactionType === null ? null : (TRANSACTION_TYPES[entry.transactionType.toUpperCase()] ?? entry.transactionType.toLowerCase());
    result.bankTransactionCode = entry.transactionType;
    result.reference = entry.checkNumber ?? entry.referenceNumber;
    result.bankReference = entry.uniqueId;
    result.uniqueId = entry.uniqueId;
    result.counterpartyName = name;
    result.counterpartyAccount = entry.counterpartyAccount;
    result.accountId = statement.accountId;
    result.statementId = statement.statementId;
    statement.entries += 1;
    this.events.push({ kind: 'entry', entry: result });
  }

  private closeStatement(): void {
    const statement = this.statement!;
    this.statement = null;
    this.fixStatementId(statement);
    if (statement.accountId === null && !statement.warnedMissingAccount) {
      this.warn(statement.line, `The statement at ${statement.path} names no account (BANKACCTFROM/ACCTID or CCACCTFROM/ACCTID).`);
    }
    if (statement.currency === null) {
      this.warn(statement.line, `The statement at ${statement.path} names no currency (CURDEF).`);
    }
    this.events.push({
      kind: 'statement',
      statement: {
        statementIndex: statement.index,
        line: statement.line,
        accountId: statement.accountId,
        statementId: statement.statementId,
        currency: statement.currency,
        // OFX carries only the balance at the end of the statement.
        openingBalance: null,
        closingBalance: statement.closingBalance,
      },
    });
  }

  private handleLeaf(name: string, value: string, line: number): void {
    const owner = this.innermostKnownFrame();
    if (owner === undefined) return;
    const entry = this.entry;
    const statement = this.statement;
    switch (owner.name) {
      case 'STMTTRN':
        if (entry !== null) this.entryLeaf(entry, name, value, line);
        return;
      case 'PAYEE':
        if (entry !== null && name === 'NAME' && value !== '') entry.payeeName = value;
        return;
      case 'CURRENCY':
        if (entry !== null && name === 'CURSYM' && value !== '') entry.currency = this.currencyCode(value, line, name);
        return;
      case 'ORIGCURRENCY':
        // TRNAMT is already in the statement's currency (CURDEF); CURSYM only names where it came from.
        if (entry !== null && name === 'CURSYM' && value !== '') this.currencyCode(value, line, name);
        return;
      case 'BANKACCTTO':
      case 'CCACCTTO':
        if (entry !== null && name === 'ACCTID' && value !== '') entry.counterpartyAccount = value;
        return;
      case 'BANKACCTFROM':
      case 'CCACCTFROM':
        if (statement !== null && entry === null && name === 'ACCTID' && value !== '') {
          this.refuseAfterEntries(statement, name, line);
          statement.accountId = value;
        }
        return;
      case 'STMTRS':
      case 'CCSTMTRS':
        if (statement !== null && name === 'CURDEF' && value !== '') {
          this.refuseAfterEntries(statement, name, line);
          statement.currency = this.currencyCode(value, line, name);
        }
        return;
      case 'BANKTRANLIST':
        if (statement !== null && (name === 'DTSTART' || name === 'DTEND') && value !== '') {
          const date = this.date(value, line, name).date;
          if (name === 'DTSTART') statement.listStartDate = date;
          else statement.listEndDate = date;
        }
        return;
      case 'LEDGERBAL':
        if (statement === null || value === '') return;
        if (name === 'BALAMT') statement.ledgerAmount = this.amount(value, line, name);
        else if (name === 'DTASOF') statement.ledgerDate = this.date(value, line, name).date;
        return;
      case 'STMTTRNRS':
      case 'CCSTMTTRNRS':
        if (this.response !== null && name === 'TRNUID') this.response.transactionUniqueId = value === '' ? null : value;
        return;
      case 'STATUS': {
        const response = this.response;
        if (response === null || this.innermostKnownFrame(1)?.name !== response.name || value === '') return;
        if (name === 'CODE') response.statusCode = value;
        else if (name === 'SEVERITY') response.statusSeverity = value;
        else if (name === 'MESSAGE') response.statusMessage = value;
        return;
      }
      default:
    }
  }

  private entryLeaf(entry: EntryState, name: string, value: string, line: number): void {
    if (value === '') return;
    switch (name) {
      case 'TRNTYPE':
        entry.transactionType = value;
        return;
      case 'DTPOSTED':
        if (entry.postedDate !== null) throw this.duplicate(entry, name, line);
        entry.postedDate = this.date(value, line, name);
        return;
      case 'DTAVAIL':
        entry.availableDate = this.date(value, line, name).date;
        return;
      case 'TRNAMT':
        if (entry.amount !== null) throw this.duplicate(entry, name, line);
        entry.amount = this.amount(value, line, name);
        return;
      case 'FITID':
        if (entry.uniqueId !== null) throw this.duplicate(entry, name, line);
        entry.uniqueId = value;
        return;
      case 'CHECKNUM':
        entry.checkNumber = value;
        return;
      case 'REFNUM':
        entry.referenceNumber = value;
        return;
      case 'NAME':
        entry.name = value;
        return;
      case 'MEMO':
        entry.memo = value;
        return;
      case 'CORRECTACTION':
        entry.correctAction = value;
        return;
      case 'CORRECTFITID':
        entry.correctedUniqueId = value;
        return;
      default:
    }
  }

  private duplicate(entry: EntryState, name: string, line: number): ImportFormatError {
    return new ImportFormatError(
      { line, xmlPath: `${entry.path}/${name}` },
      `a second <${name}> in the STMTTRN opened on line ${entry.line}`,
      `one <${name}> per STMTTRN`,
    );
  }

  /** The account and currency must come before the transactions: entries already yielded carry them. */
  private refuseAfterEntries(statement: StatementState, name: string, line: number): void {
    if (statement.entries === 0) return;
    throw new ImportFormatError(
      { line, xmlPath: `${this.currentPath() ?? ''}/${name}` },
      `<${name}> after ${statement.entries} transactions of the statement`,
      `<${name}> before BANKTRANLIST, as OFX prescribes`,
    );
  }

  private leafPath(name: string): string {
    return `${this.currentPath() ?? ''}/${name}`;
  }

  private date(value: string, line: number, name: string): ParsedDate {
    const parsed = parseOfxDate(value);
    if (parsed === null) throw new ImportFormatError({ line, xmlPath: this.leafPath(name) }, quoteFound(value), DATE_EXPECTED);
    return parsed;
  }

  private amount(value: string, line: number, name: string): string {
    const parsed = parseOfxAmount(value);
    if (parsed === null) throw new ImportFormatError({ line, xmlPath: this.leafPath(name) }, quoteFound(value), AMOUNT_EXPECTED);
    return parsed;
  }

  private currencyCode(value: string, line: number, name: string): string {
    const code = value.toUpperCase();
    if (!CURRENCY_CODE.test(code)) {
      throw new ImportFormatError({ line, xmlPath: this.leafPath(name) }, quoteFound(value), 'a three-letter ISO 4217 currency code such as "USD"');
    }
    return code;
  }
}

function countLeadingLineBreaks(text: string): number {
  let count = 0;
  for (let index = 0; index < text.length; index++) {
    const character = text.charCodeAt(index);
    if (character === 10) {
      if (text.charCodeAt(index - 1) !== 13) count += 1;
    } else if (character === 13) {
      count += 1;
    } else if (character !== 32 && character !== 9 && character !== 0xfeff) {
      break;
    }
  }
  return count;
}

function capitalize(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

/**
 * Parses OFX/QFX text (already decoded) into entries, statements and warnings, in file order.
 * A malformed file throws ImportFormatError naming the line, the XML path, what was found and
 * what was expected.
 */
export async function* parseOfx(text: AsyncIterable<string>, options: OfxParseOptions = {}): AsyncGenerator<ParseEvent> {
  void options;
  const reader = new OfxReader();
  for await (const chunk of text) {
    for (let start = 0; start < chunk.length; start += OFX_LIMITS.sliceLength) {
      reader.write(chunk.length <= OFX_LIMITS.sliceLength ? chunk : chunk.slice(start, start + OFX_LIMITS.sliceLength));
      if (reader.events.length > 0) {
        const events = reader.events;
        reader.events = [];
        yield* events;
      }
    }
  }
  reader.end();
  yield* reader.events;
}

const OFX_1_HEAD = /^\s*OFXHEADER\s*:/i;
const OFX_2_HEAD = /^\s*(?:<\?xml\b[^>]*\?>\s*)?(?:<!--[^]*?-->\s*)*(?:<\?OFX\b|<OFX>)/i;
const BARE_OFX_HEAD = /^\s*(?:<!--[^]*?-->\s*)*<OFX>/i;

/**
 * Whether the head of a file (its first 4096 characters, decoded as latin1) is OFX or QFX: an OFX
 * 1.x header block, an `<?OFX ...?>` processing instruction, or a document whose first element is
 * `<OFX>`. A camt XML file (first element `<Document>`), MT940, BAI2 or CSV is never claimed.
 */
export function sniffOfx(head: string): ImportFormat | null {
  const text = sniffableHead(head);
  if (OFX_1_HEAD.test(text) || OFX_2_HEAD.test(text) || BARE_OFX_HEAD.test(text)) return 'ofx';
  return null;
}

/** OFX 1.x CHARSET values and the WHATWG labels they stand for. */
const OFX_CHARSETS: Record<string, string> = {
  '1252': 'windows-1252',
  'ISO-8859-1': 'iso-8859-1',
  '8859-1': 'iso-8859-1',
  LATIN1: 'iso-8859-1',
  'LATIN-1': 'iso-8859-1',
};

function validLabel(label: string): string | null {
  try {
    new TextDecoder(label);
    return label.toLowerCase();
  } catch {
    return null;
  }
}

/**
 * The encoding a file declares, as a WHATWG label, read from the head of the file (decoded as
 * latin1): the OFX 1.x header (`ENCODING:UTF-8` is UTF-8; `ENCODING:USASCII` with `CHARSET:1252`
 * is windows-1252, with `CHARSET:ISO-8859-1` ISO-8859-1) or the `encoding` of the XML declaration
 * of OFX 2.x. Null when nothing usable is declared (`CHARSET:NONE`, no header, an unknown name):
 * the importer then applies its own rule.
 */
export function declaredOfxEncoding(head: string): string | null {
  const text = sniffableHead(head);
  const xmlDeclaration = /^\s*<\?xml\b([^>]*)\?>/i.exec(text);
  if (xmlDeclaration) {
    const encoding = /\bencoding\s*=\s*["']([^"']{1,40})["']/i.exec(xmlDeclaration[1] ?? '');
    return encoding ? validLabel(encoding[1]!.trim()) : null;
  }
  if (!OFX_1_HEAD.test(text)) return null;
  const headerEnd = text.indexOf('<');
  const header = headerEnd < 0 ? text : text.slice(0, headerEnd);
  const fields = new Map<string, string>();
  for (const line of header.split(/\r\n|\r|\n/)) {
    const field = /^\s*([A-Za-z]+)\s*:\s*(.*?)\s*$/.exec(line);
    if (field) fields.set(field[1]!.toUpperCase(), field[2]!.toUpperCase());
  }
  const encoding = fields.get('ENCODING') ?? 'USASCII';
  if (encoding === 'UTF-8' || encoding === 'UTF8' || encoding === 'UNICODE') return 'utf-8';
  if (encoding !== 'USASCII') return validLabel(encoding);
  const charset = fields.get('CHARSET');
  if (charset === undefined || charset === '' || charset === 'NONE') return null;
  const known = OFX_CHARSETS[charset];
  if (known !== undefined) return known;
  if (/^125[0-8]$/.test(charset)) return `windows-${charset}`;
  return validLabel(charset);
}
