import { addDecimals, compareDecimals, negateDecimal, withCurrencyScale } from '../../money.ts';
import {
  calendarDateToEpochMs,
  emptyEntry,
  ImportFormatError,
  isCalendarDate,
  quoteFound,
  type CalendarDate,
  type ParseEvent,
  type StatementBalance,
  type StatementEntry,
  type StatementParser,
} from '../statement-entries.ts';
import { readLines } from '../text.ts';

/**
 * SWIFT MT940 (customer statement) and MT942 (interim transaction report), with or without the
 * SWIFT envelope `{1:…}{2:…}{4: … -}`. The file is read line by line: only the current
 * statement's header fields, the field being read and the entry waiting for its `:86:` are held,
 * so memory stays flat whatever the file size.
 */

export type SwiftMtFormat = 'mt940' | 'mt942';

export interface SwiftMtOptions {
  /**
   * The message type the importer expects. A statement whose envelope or fields say otherwise
   * is read as what it is, with a warning; the option decides only for a statement that gives
   * no sign of its type.
   */
  format?: SwiftMtFormat;
}

/** Bounds on what one file may make the parser hold. */
export const SWIFT_MT_LIMITS = {
  /** SWIFT lines are 65 characters; banks write longer ones, never this long. */
  maxLineLength: 8 * 1024,
  /** Lines of one field: `:86:` is 6 by the standard, banks write more, never this many. */
  maxFieldLineCount: 200,
  /** Characters of one field, all its lines together. */
  maxFieldLength: 32 * 1024,
  /** Nesting of braces in an envelope block (`{3:{108:…}}` is 2). */
  envelopeDepthLimit: 8,
  /** Warnings of one file; beyond them one last warning says that more were left out. */
  maxWarningCount: 100,
} as const;

/** How line-length errors name the format. */
const FORMAT_NAME = 'SWIFT MT940/MT942';

/**
 * A field tag at the start of a line: `:20:`, `:28C:`, `:60F:`, and banks' own tags written the
 * same way, such as the `:NS:` (non-SWIFT) field of Hungarian and some German banks.
 */
const FIELD_TAG = /^:(\d{2}[A-Z]?|[A-Z]{2}[A-Z0-9]?):/;

/**
 * The control characters of a transmission envelope around each message: SOH (0x01) before
 * `{1:` and ETX (0x03) after `-}`. They carry nothing and are read past.
 */
const TRANSMISSION_CHARACTERS = /^[\u0001\u0003]+|[\u0001\u0003]+$/g;

/**
 * Lines some banks write between statements, outside the SWIFT fields: ABN AMRO's BIC and
 * message-type lines ("ABNANL2A", "940"), Rabobank's ":940:", ING's "0000 01INGBNL2AXXXX00001"
 * and "940 00". They carry nothing an entry needs.
 */
const FILE_HEADER_LINE = /^(?:[A-Z]{6}[A-Z0-9]{2}(?:[A-Z0-9]{3})?|94[02](?: 00)?|:94[02]:|0000 ?01[A-Z0-9]{8,20})$/;

/** A line that opens envelope blocks: `{1:F01…}`, `{2:I940…}`, `{4:`, `{5:{CHK:…}}`. */
const ENVELOPE_LINE = /^\{[1-5S]:/;
const ENVELOPE_BLOCK_NAME = /^[1-5S]$/;
/** Block 2, the application header: I (sent) or O (received) and the message type. */
const APPLICATION_HEADER = /^[IO](\d{3})/;
const SWIFT_MESSAGE_NUMBER = /^\d{3}$/;
/** An account followed by a currency code, as some banks write :25: (51210600/9223382012EUR, or BIC/account/HUF). */
const ACCOUNT_WITH_CURRENCY = /^(.*\d)\/?([A-Z]{3})$/;
/** An IBAN written after a slash, as Polish banks write :25: (/PL27114020040000300201355387). */
const SLASHED_IBAN = /^\/([A-Z]{2}\d{2}[A-Z0-9]{11,30})$/;
const BANK_ACCOUNT_NUMBER = /^[\d/ .-]+$/;

/** Fields that may continue on following lines; every other known field is one line. */
const MULTI_LINE_TAGS = new Set(['61', '86', '25P']);

const KNOWN_TAGS = new Set(['20', '21', '25', '25P', '28', '28C', '60F', '60M', '61', '86', '62F', '62M', '64', '65', '34F', '13', '13D', '90D', '90C']);

/**
 * The statement line `:61:`: value date, entry date, mark, funds code, amount, transaction
 * type, reference for the account owner, bank reference. Read as banks write it, wherever the
 * amount, its sign and the dates stay certain: an entry date left blank (ASN Bank, Citi), a
 * space after the amount (Commerzbank, Deutsche Bank), a type code that is not N, F or S and
 * three characters (`MCI0`, `S   `) or none at all (Zenith Bank), references longer than 16
 * characters (an IBAN, as Dutch banks write). The amount ends at its last digit and must be
 * followed by a type code, `//` or the end of the line: a second separator, a sign or a digit
 * group after it refuses the line instead of becoming part of a reference. A type code other
 * than SWIFT's (N, F or S and three characters) must start with two letters, so that a letter
 * typed among the digits (`12,3X5`) is refused rather than read as the start of a code.
 */
const STATEMENT_LINE =
  /^(\d{6})(\d{4}| {1,4})?(RC|RD|C|D)([A-Z])? ?(\d{1,15},\d{0,6})(?: ?([NFS][A-Z0-9]{3}|[NFS][A-Z0-9]{2} |[A-Z]{2}[A-Z0-9]{2}|[A-Z]{2}[A-Z0-9] |[A-Z] {3})(.*?))?(?:\/\/(.*?))?\s*$/;
/** A `:61:` line that ends right after its mark and funds code, its amount on the next line. */
const MARK_AT_LINE_END = /^\d{6}(?:\d{4}| {1,4})?(?:RC|RD|C|D)[A-Z]?\s*$/;
/** The type code as SWIFT defines it: N, F or S and three characters (ING and Deutsche Bank end a few with a space). */
const STANDARD_TYPE_CODE = /^(?:[NFS][A-Z0-9]{3}|[NFS][A-Z0-9]{2} )$/;
/** The length SWIFT allows the reference for the account owner and the bank reference. */
const STANDARD_REFERENCE_LENGTH = 16;

const STATEMENT_LINE_LAYOUT =
  'a statement line :61: laid out as value date YYMMDD, optional entry date MMDD, mark C, D, RC or RD, ' +
  'optional funds code letter, amount with a decimal comma, transaction type such as NTRF, the reference for ' +
  'the account owner (NONREF when there is none) and optionally // and the bank reference, ' +
  'e.g. 2401150115D1250,NTRFNONREF//B4K0015';

/** A balance; some banks leave out the currency code (the date has six digits and the amount a comma, so nothing is ambiguous). */
const BALANCE = /^([CD])(\d{6})([A-Z]{3})?(\d{1,15},\d{0,6})\s*$/;
const BALANCE_LAYOUT = 'a balance laid out as mark C or D, date YYMMDD, currency code and amount with a decimal comma, e.g. C240131EUR1250,00';

const FLOOR_LIMIT = /^([A-Z]{3})([CD])?(\d{1,15}(?:,\d{0,6})?)\s*$/;
const ENTRY_TOTAL = /^(\d{1,5})([A-Z]{3})(\d{1,15}(?:,\d{0,6})?)\s*$/;

/**
 * `:86:` in subfields: a three-digit business transaction code, then subfields `?NN` (German and
 * Austrian banks). Triodos writes `>NN`, Polish banks `~NN` (PKO BP, mBank), `^NN` or `<NN`
 * (ING Bank Śląski); some banks leave out the code and start with `?00` or `?20`.
 */
const SUBFIELD_INFORMATION = /^\s*(?:(\d{3}) ?([?>~^<])(?=\d{2})|([?~])(?=00|20))/;

/**
 * What some banks write in a subfield they leave empty: the byte 0xFF, read as `˙` (Windows-1250)
 * or `ÿ` (Latin-1), or a no-break space.
 */
const EMPTY_SUBFIELD = /^[\s\u00A0\u02D9\u00FF]*$/;

/** SEPA keywords inside the German purpose subfields `?20`–`?29` and `?60`–`?63`. */
const SEPA_KEYWORD = /(EREF|KREF|MREF|CRED|DEBT|COAM|OAMT|SVWZ|ABWA|ABWE|IBAN|BIC)\+/g;

/**
 * SEPA keywords whose values have no column of their own: the debtor id (DEBT+), compensation and
 * original amounts (COAM+, OAMT+) and the parties' IBAN+ and BIC+ written in the purpose. They are
 * kept in the description as written, keyword first. The ultimate parties (ABWA+, ABWE+) have
 * columns: see `ultimateParties`.
 */
const SEPA_KEYWORDS_KEPT_AS_TEXT = ['DEBT', 'COAM', 'OAMT', 'IBAN', 'BIC'] as const;

/**
 * Business transaction codes (GVC) of the entries the creditor initiates: SEPA direct debits
 * (104 B2B, 105 core, 107 single debits, 171 and 174 the creditor's collections) and card
 * payments cleared as debits (106).
 */
const CREDITOR_INITIATED_CODES = new Set(['104', '105', '106', '107', '171', '174']);

/**
 * Subfields read past: ?10 (the primanota) is the bank's internal posting batch, the same for many
 * entries, and ?34 (text key extension) the bank's own code beside the booking text.
 */
const SUBFIELDS_READ_PAST = new Set(['10', '34']);

/** A purpose subfield that opens with a bank's own marker (Postbank's `MTLG:`) and so ends a keyword's value. */
const PURPOSE_MARKER = /^[A-Z]{4}:/;

/**
 * Keywords of the slash style (`/EREF/…/REMI/…`) that ABN AMRO, ING and Rabobank write. A
 * keyword counts only between slashes, so that a slash inside a value (a date such as
 * 21.05.11/12.54) does not cut it.
 */
const SLASH_KEYWORD =
  /\/(EREF|REMI|ORDP|BENM|NAME|IBAN|BIC|TRTP|CSID|MARF|PREF|CNTP|RTRN|ISDT|ID|ADDR|USTD|STRD|CDTRREFTP|CDTRREF|CD|ISSR|ULTC|ULTD|ULTB|ULT|PURP|CODE|SVCL|OCMT|CHGS|EXCH|IREF|KREF|TRCD|BUSP|ACCW|NRTX|CLID|ORIG)(?=\/)/g;

/**
 * Slash keywords whose values become the description when the entry has no remittance
 * (`/REMI/`): Komercijalna Banka writes the whole entry under `/BENM/` or `/ORDP/`.
 */
const SLASH_KEYWORDS_AS_TEXT = ['BENM', 'ORDP', 'ADDR'] as const;

/** A slash-style `:86:` opens with one of these keywords. */
const SLASH_STYLE_START = /^\/(EREF|REMI|ORDP|BENM|NAME|IBAN|TRTP|CSID|MARF|PREF|CNTP|RTRN|ULTC|ULTD|PURP|IREF|KREF|ID|BIC)\//;

/** An IBAN by its shape; the check digits are not needed to tell it from a bank account number. */
const IBAN_SHAPE = /^[A-Z]{2}\d{2}[A-Z0-9]{11,30}$/;

/** References that say "no reference". */
const NO_REFERENCE = new Set(['NONREF', 'NOTPROVIDED', 'NONE']);

/** A `:61:` reference that only points at the value of that keyword in `:86:` (Rabobank, ING, German banks). */
const REFERENCE_POINTER = /^(EREF|KREF|MREF|PREF|MARF)\+?$/;

/**
 * SWIFT's transaction type identification codes (the three letters after N or F in `:61:`),
 * in words. Banks' numeric codes (N192, N037) have no words here.
 */
const TRANSACTION_TYPE_WORDS: Record<string, string> = {
  BNK: 'securities bank fees',
  BOE: 'bill of exchange',
  BRF: 'brokerage fee',
  CAR: 'securities corporate action',
  CAS: 'securities cash in lieu',
  CHG: 'charges and other expenses',
  CHK: 'cheque',
  CLR: 'cash letter or cheque remittance',
  CMI: 'cash management item',
  CMN: 'cash management notional pooling',
  CMP: 'compensation claim',
  CMS: 'cash management sweeping',
  CMT: 'cash management topping',
  CMZ: 'cash management zero balancing',
  COL: 'collection',
  COM: 'commission',
  CPN: 'securities coupon payment',
  DCR: 'documentary credit',
  DDT: 'direct debit',
  DIS: 'securities gains disbursement',
  DIV: 'securities dividend',
  EQA: 'equivalent amount',
  EXT: 'securities external transfer for own account',
  FEX: 'foreign exchange',
  INT: 'interest',
  LBX: 'lock box',
  LDP: 'loan deposit',
  MAR: 'securities margin payment',
  MAT: 'securities maturity',
  MGT: 'securities management fee',
  MSC: 'miscellaneous',
  NWI: 'securities new issue distribution',
  ODC: 'overdraft charge',
  OPT: 'securities option',
  PCH: 'securities purchase',
  POP: 'securities pair-off proceeds',
  PRN: 'securities principal pay-down',
  REC: 'securities tax reclaim',
  RED: 'securities redemption',
  RIG: 'securities rights',
  RTI: 'returned item',
  SAL: 'securities sale',
  SEC: 'securities',
  SLE: 'securities lending',
  STO: 'standing order',
  STP: 'securities stamp duty',
  SUB: 'securities subscription',
  SWP: 'securities swap payment',
  TAX: 'securities withholding tax',
  TCK: 'travellers cheque',
  TCM: 'securities tripartite collateral management',
  TRA: 'securities internal transfer for own account',
  TRF: 'transfer',
  TRN: 'securities transaction fee',
  UWC: 'securities underwriting commission',
  VDA: 'value date adjustment',
  WAR: 'securities warrant',
};

interface OpenField {
  tag: string;
  line: number;
  lines: string[];
  length: number;
}

/** What the `:86:` of an entry says, whichever style the bank writes. */
interface EntryInformation {
  description: string | null;
  type: string | null;
  endToEndId: string | null;
  mandateId: string | null;
  creditorId: string | null;
  counterpartyName: string | null;
  counterpartyAccount: string | null;
  /** ABWA+ or ABWE+, whichever names the party on the debtor's side (see `ultimateParties`). */
  ultimateDebtorName: string | null;
  /** ABWA+ or ABWE+, whichever names the party on the creditor's side. */
  ultimateCreditorName: string | null;
  /** The German business transaction code (GVC). */
  businessCode: string | null;
  /** Values of the reference keywords, for a `:61:` reference that only names one (EREF, KREF, PREF…). */
  keywordReferences: Record<string, string>;
}

/** An entry read from `:61:`, waiting for its `:86:` and the bank's own fields after it. */
interface PendingEntry {
  entry: StatementEntry;
  customerReference: string | null;
  typeCode: string;
  supplementaryDetails: string | null;
  information: EntryInformation | null;
  /** Text of a second `:86:` or of a bank's own field (`:NS:`) after the entry, kept in its description. */
  moreText: string[];
}

/** Ways a file departs from the standard that are read anyway; each is said once per file. */
type Leniency =
  | 'startsAtAccount'
  | 'wrappedStatementLine'
  | 'blankEntryDate'
  | 'missingTypeCode'
  | 'nonStandardTypeCode'
  | 'longReference'
  | 'balanceWithoutCurrency'
  | 'secondInformation'
  | `bankField:${string}`;

interface ControlTotal {
  line: number;
  count: number;
  amount: string;
  currency: string;
}

interface OpenStatement {
  index: number;
  line: number;
  /** MT940 or MT942 as the envelope or the fields say; null while nothing said it. */
  kind: SwiftMtFormat | null;
  reference: string | null;
  accountSeen: boolean;
  accountId: string | null;
  /** A currency written after the account in `:25:` (51210600/9223382012EUR). */
  accountCurrency: string | null;
  statementNumber: string | null;
  currency: string | null;
  openingBalance: StatementBalance | null;
  closingBalance: StatementBalance | null;
  closingCurrency: string | null;
  closingLine: number | null;
  debitCount: number;
  creditCount: number;
  debitTotal: string;
  creditTotal: string;
  debitControl: ControlTotal | null;
  creditControl: ControlTotal | null;
}

/** The SWIFT MT940/MT942 parser: decoded text in, entries and statements out, in file order. */
export const parseSwiftMt: StatementParser<SwiftMtOptions> = async function* parseSwiftMt(text, options) {
  const reader = new SwiftMtReader(options ?? {});
  for await (const line of readLines(text, { maxLineLength: SWIFT_MT_LIMITS.maxLineLength, what: FORMAT_NAME })) {
    reader.readLine(line.number, line.text);
    if (reader.events.length > 0) {
      for (const event of reader.events) yield event;
      reader.events.length = 0;
    }
  }
  reader.finish();
  for (const event of reader.events) yield event;
  reader.events.length = 0;
};

class SwiftMtReader {
  /** Events ready to be yielded; drained after every line. */
  readonly events: ParseEvent[] = [];
  private readonly options: SwiftMtOptions;
  private statement: OpenStatement | null = null;
  private field: OpenField | null = null;
  private pending: PendingEntry | null = null;
  private statementCount = 0;
  private sawContent = false;
  private warningCount = 0;
  private warnedFormatMismatch = false;
  /** The departures from the standard read anyway: the first line of each kind, how often, and what was done. */
  private readonly leniencies = new Map<Leniency, { line: number; count: number; message: string }>();
  /** Envelope state: the message whose header is being read, and whether its text block `{4:` is open. */
  private messageLine: number | null = null;
  private messageKind: SwiftMtFormat | null = null;
  private inTextBlock = false;
  private textBlockLine = 0;
  private textBlockKind: SwiftMtFormat | null = null;

  constructor(options: SwiftMtOptions) {
    this.options = options;
  }

  readLine(number: number, raw: string): void {
    const text = (number === 1 && raw.charCodeAt(0) === 0xfeff ? raw.slice(1) : raw).replace(TRANSMISSION_CHARACTERS, '');
    const trimmed = text.trim();
    if (trimmed === '') return;
    this.sawContent = true;
    const tag = FIELD_TAG.exec(text);
    if (tag) {
      this.startField(tag[1]!, number, text.slice(tag[0].length));
      return;
    }
    if (trimmed === '-' || trimmed === '-XXX') {
      if (this.statement) this.closeStatement(number);
      return;
    }
    if (trimmed.startsWith('-}')) {
      if (this.statement) this.closeStatement(number);
      this.inTextBlock = false;
      this.messageLine = null;
      this.messageKind = null;
      const rest = trimmed.slice(2);
      if (rest !== '') this.readEnvelope(number, rest);
      return;
    }
    if (ENVELOPE_LINE.test(trimmed)) {
      this.readEnvelope(number, trimmed);
      return;
    }
    if (this.field) {
      this.continueField(number, text);
      return;
    }
    if (this.statement === null && FILE_HEADER_LINE.test(trimmed)) return;
    throw new ImportFormatError(
      { line: number },
      quoteFound(text),
      this.inTextBlock
        ? 'a statement starting with its transaction reference :20:, or the end of the message -}'
        : 'a SWIFT MT940 or MT942 statement starting with its transaction reference :20:, or a SWIFT envelope block such as {1:F01…}',
    );
  }

  finish(): void {
    if (this.statement) this.closeStatement(null);
    for (const { line, count, message } of this.leniencies.values()) {
      this.warn(line, `Line ${line}: ${message}${count > 1 ? ` The same holds for ${count - 1} more ${count === 2 ? 'line' : 'lines'}.` : ''}`);
    }
    if (this.inTextBlock) {
      throw new ImportFormatError(
        { line: this.messageLine ?? this.textBlockLine },
        'a message whose text block {4: is still open at the end of the file',
        'every message to end with a line -}; the file looks cut off',
      );
    }
    if (this.statementCount === 0) {
      throw new ImportFormatError(
        { line: null },
        this.sawContent ? 'no statement (no :20: transaction reference)' : 'an empty file',
        'SWIFT MT940 or MT942 statements, each starting with a :20: transaction reference',
      );
    }
  }

  /** Notes a departure from the standard that was read anyway; the warning comes once per kind, at the end of the file. */
  private lenient(kind: Leniency, line: number, message: string): void {
    const seen = this.leniencies.get(kind);
    if (seen) seen.count += 1;
    else this.leniencies.set(kind, { line, count: 1, message });
  }

  private warn(line: number | null, message: string): void {
    this.warningCount += 1;
    if (this.warningCount <= SWIFT_MT_LIMITS.maxWarningCount) {
      this.events.push({ kind: 'warning', line, message });
    } else if (this.warningCount === SWIFT_MT_LIMITS.maxWarningCount + 1) {
      this.events.push({ kind: 'warning', line, message: `More than ${SWIFT_MT_LIMITS.maxWarningCount} warnings; the rest are left out.` });
    }
  }

  // Envelope

  /** Reads envelope blocks `{1:…}{2:…}{3:{…}}` up to and including the opening of the text block `{4:`. */
  private readEnvelope(number: number, text: string): void {
    if (this.statement && !this.inTextBlock) this.closeStatement(number);
    let position = 0;
    while (position < text.length) {
      const character = text[position];
      // Blanks, and the SOH and ETX of a transmission envelope between messages (-}<ETX><SOH>{1:…).
      if (character === ' ' || character === '\t' || character === '\u0001' || character === '\u0003') {
        position += 1;
        continue;
      }
      const colon = text.indexOf(':', position);
      const block = character === '{' && colon > position ? text.slice(position + 1, colon) : '';
      if (!ENVELOPE_BLOCK_NAME.test(block)) {
        throw new ImportFormatError({ line: number }, quoteFound(text.slice(position)), 'a SWIFT envelope block such as {1:F01…}, {2:I940…} or {4:');
      }
      if (this.inTextBlock) {
        throw new ImportFormatError(
          { line: number },
          `the envelope block {${block}: while the message that starts at line ${this.messageLine ?? this.textBlockLine} is still open`,
          'the end of that message, a line -}, before the next message; the file looks cut or merged',
        );
      }
      if (block === '4') {
        this.inTextBlock = true;
        this.textBlockLine = number;
        this.textBlockKind = this.messageKind;
        this.messageLine ??= number;
        const rest = text.slice(colon + 1);
        if (rest.trim() !== '') this.readLine(number, rest);
        return;
      }
      if (block === '1') {
        this.messageLine = number;
        this.messageKind = null;
      }
      const end = this.blockEnd(number, text, position);
      if (block === '2') this.messageKind = this.messageType(number, text.slice(colon + 1, end));
      position = end + 1;
    }
  }

  /** Index of the brace that closes the block opening at `start`, nested braces counted. */
  private blockEnd(number: number, text: string, start: number): number {
    let depth = 0;
    for (let index = start; index < text.length; index++) {
      const character = text[index];
      if (character === '{') {
        depth += 1;
        if (depth > SWIFT_MT_LIMITS.envelopeDepthLimit) {
          throw new ImportFormatError(
            { line: number },
            `envelope blocks nested more than ${SWIFT_MT_LIMITS.envelopeDepthLimit} deep`,
            'SWIFT envelope blocks such as {3:{108:REF}}',
          );
        }
      } else if (character === '}') {
        depth -= 1;
        if (depth === 0) return index;
      }
    }
    throw new ImportFormatError(
      { line: number },
      `the envelope block ${quoteFound(text.slice(start))} without its closing brace`,
      'each envelope block closed on its line, such as {2:I940BANKDEFFXXXXN}',
    );
  }

  /** The message type that block 2 names (`I940…` as sent, `O940…` as received). */
  private messageType(number: number, body: string): SwiftMtFormat {
    const match = APPLICATION_HEADER.exec(body);
    if (match?.[1] === '940') return 'mt940';
    if (match?.[1] === '942') return 'mt942';
    throw new ImportFormatError(
      { line: number },
      match ? `an MT${match[1]} message (block {2:${body}})` : `the application header ${quoteFound(`{2:${body}}`)}`,
      'an MT940 customer statement or an MT942 interim transaction report ({2:I940…} or {2:I942…})',
    );
  }

  // Fields

  private startField(tag: string, number: number, rest: string): void {
    this.finishField();
    // ABN AMRO's downloaded day statements (Dagafschrift) have no :20: and start at the account.
    const startsAtAccount = (tag === '25' || tag === '25P') && (this.statement === null || this.statement.closingBalance !== null);
    if (tag === '20') {
      if (this.statement) this.closeStatement(number);
      this.openStatement(number);
    } else if (startsAtAccount) {
      if (this.statement) this.closeStatement(number);
      this.openStatement(number);
      this.lenient('startsAtAccount', number, 'a statement starts with its account :25: instead of a transaction reference :20:; it was read from there.');
    } else if (this.statement === null) {
      throw new ImportFormatError(
        { line: number },
        `the field :${tag}: before any transaction reference :20:`,
        'every statement to start with its transaction reference :20:',
      );
    }
    this.field = { tag, line: number, lines: [rest], length: rest.length };
  }

  private continueField(number: number, text: string): void {
    const field = this.field!;
    if (KNOWN_TAGS.has(field.tag) && !MULTI_LINE_TAGS.has(field.tag)) {
      throw new ImportFormatError(
        { line: number },
        `${quoteFound(text)} as a second line of the field :${field.tag}: (line ${field.line})`,
        `the field :${field.tag}: on one line, then the next field starting with a tag such as :61: or :62F:`,
      );
    }
    if (field.lines.length >= SWIFT_MT_LIMITS.maxFieldLineCount || field.length + text.length > SWIFT_MT_LIMITS.maxFieldLength) {
      throw new ImportFormatError(
        { line: number },
        `a field :${field.tag}: (line ${field.line}) longer than ${SWIFT_MT_LIMITS.maxFieldLineCount} lines or ${SWIFT_MT_LIMITS.maxFieldLength} characters`,
        'fields of a few lines, each new field starting with a tag such as :61:',
      );
    }
    field.lines.push(text);
    field.length += text.length;
  }

  private finishField(): void {
    const field = this.field;
    if (field === null) return;
    this.field = null;
    const statement = this.statement!;
    const bankField = !KNOWN_TAGS.has(field.tag);
    // An entry waits for its :86: and for the banks' own fields after it; any other field ends it.
    if (field.tag !== '86' && !(bankField && this.pending)) this.flushEntry();
    const value = field.lines[0]!.trim();
    switch (field.tag) {
      case '20':
        statement.reference = value === '' ? null : value;
        break;
      case '21':
      case '64':
      case '65':
        break;
      case '25':
      case '25P':
        this.readAccount(statement, field, value);
        break;
      case '28':
      case '28C':
        statement.statementNumber = value === '' ? null : value;
        break;
      case '60F':
      case '60M': {
        this.noteKind(statement, 'mt940', field);
        const balance = this.readBalance(statement, field, value, 'opening balance');
        statement.openingBalance = balance.balance;
        statement.currency ??= balance.currency;
        break;
      }
      case '62F':
      case '62M': {
        this.noteKind(statement, 'mt940', field);
        const balance = this.readBalance(statement, field, value, 'closing balance');
        statement.closingBalance = balance.balance;
        statement.closingCurrency = balance.currency;
        statement.closingLine = field.line;
        break;
      }
      case '34F': {
        this.noteKind(statement, 'mt942', field);
        const match = FLOOR_LIMIT.exec(value);
        if (!match) {
          throw new ImportFormatError(
            { line: field.line },
            `:34F: ${quoteFound(value)}`,
            'a floor limit laid out as currency code, optional mark D or C and amount, e.g. EURD0,',
          );
        }
        statement.currency ??= match[1]!;
        break;
      }
      case '13':
      case '13D':
        // The report's creation time, not an entry's booking time: nothing of it goes to entries.
        this.noteKind(statement, 'mt942', field);
        break;
      case '90D':
      case '90C': {
        this.noteKind(statement, 'mt942', field);
        const control = readControlTotal(field, value);
        if (field.tag === '90D') statement.debitControl = control;
        else statement.creditControl = control;
        break;
      }
      case '61':
        this.pending = this.readStatementLine(statement, field);
        break;
      case '86':
        if (this.pending) this.addInformation(this.pending, field);
        // A :86: that follows no :61: (after :62F:, as ING writes) speaks of the statement as a whole.
        break;
      default:
        if (this.pending) {
          // A bank's own field after an entry (:NS: of Hungarian banks) describes that entry: its words are kept.
          const text = bankFieldText(field.lines);
          if (text !== null) this.pending.moreText.push(text);
          this.lenient(
            `bankField:${field.tag}`,
            field.line,
            `the field :${field.tag}: is not part of MT940 or MT942 (a bank's own field); its text was kept in the description of the entry before it.`,
          );
        } else {
          this.warn(field.line, `Line ${field.line}: the field :${field.tag}: is not part of MT940 or MT942; it was left out.`);
        }
    }
  }

  /** The entry's :86:, or a second one that some banks write (Banca Transilvania), whose text is added. */
  private addInformation(pending: PendingEntry, field: OpenField): void {
    const information = readInformation(field.lines);
    if (pending.information === null) {
      pending.information = information;
      return;
    }
    this.lenient('secondInformation', field.line, 'a second :86: follows the same :61: statement line; its text was added to the description of the entry.');
    const first = pending.information;
    if (information.description !== null) pending.moreText.push(information.description);
    first.type ??= information.type;
    first.endToEndId ??= information.endToEndId;
    first.mandateId ??= information.mandateId;
    first.creditorId ??= information.creditorId;
    first.counterpartyName ??= information.counterpartyName;
    first.counterpartyAccount ??= information.counterpartyAccount;
    first.ultimateDebtorName ??= information.ultimateDebtorName;
    first.ultimateCreditorName ??= information.ultimateCreditorName;
    first.keywordReferences = { ...information.keywordReferences, ...first.keywordReferences };
  }

  private readBalance(statement: OpenStatement, field: OpenField, value: string, what: string): { balance: StatementBalance; currency: string | null } {
    const match = BALANCE.exec(value);
    if (!match) throw new ImportFormatError({ line: field.line }, `:${field.tag}: ${quoteFound(value)}`, BALANCE_LAYOUT);
    const [, mark, dateText, written, amountText] = match;
    const date = swiftDate(dateText!, field.line, `the ${what} :${field.tag}:`);
    const currency = written ?? statementCurrency(statement);
    if (written === undefined) {
      this.lenient(
        'balanceWithoutCurrency',
        field.line,
        `the balance :${field.tag}: has no currency code; ${currency === null ? 'it was read without a currency' : `it was read in ${currency}, the statement's currency`}.`,
      );
    }
    const magnitude = withCurrencyScale(commaDecimal(amountText!), currency);
    return { balance: { amount: mark === 'D' ? negateDecimal(magnitude) : magnitude, date }, currency: written ?? null };
  }

  private readAccount(statement: OpenStatement, field: OpenField, value: string): void {
    if (value === '') {
      throw new ImportFormatError(
        { line: field.line },
        'an empty account identification :25:',
        'the account as an IBAN or bank code/account number, e.g. DE89370400440532013000',
      );
    }
    const { account, currency } = splitAccountCurrency(value);
    statement.accountSeen = true;
    statement.accountId = account;
    statement.accountCurrency = currency;
  }

  /** Records that the fields show an MT940 or an MT942, and says so once when the format option disagrees. */
  private noteKind(statement: OpenStatement, kind: SwiftMtFormat, field: OpenField): void {
    if (statement.kind !== null) return;
    statement.kind = kind;
    this.checkFormatOption(kind, field.line, `the field :${field.tag}:`);
  }

  private checkFormatOption(kind: SwiftMtFormat, line: number, evidence: string): void {
    const expected = this.options.format;
    if (expected === undefined || expected === kind || this.warnedFormatMismatch) return;
    this.warnedFormatMismatch = true;
    const what = kind === 'mt942' ? 'an MT942 interim report' : 'an MT940 statement';
    this.warn(
      line,
      `Line ${line}: ${evidence} shows ${what}, while the import names the format ${expected}; the statement was read as ${kind === 'mt942' ? 'MT942' : 'MT940'}.`,
    );
  }

  // Statements

  private openStatement(number: number): void {
    const kind = this.inTextBlock ? this.textBlockKind : null;
    if (kind !== null) this.checkFormatOption(kind, this.messageLine ?? this.textBlockLine, 'the envelope (block {2:)');
    this.statement = {
      index: this.statementCount,
      line: number,
      kind,
      reference: null,
      accountSeen: false,
      accountId: null,
      accountCurrency: null,
      statementNumber: null,
      currency: null,
      openingBalance: null,
      closingBalance: null,
      closingCurrency: null,
      closingLine: null,
      debitCount: 0,
      creditCount: 0,
      debitTotal: '0',
      creditTotal: '0',
      debitControl: null,
      creditControl: null,
    };
    this.statementCount += 1;
  }

  /** Ends the open statement at `endLine` (null: at the end of the file), checks it and yields it. */
  private closeStatement(endLine: number | null): void {
    this.finishField();
    this.flushEntry();
    const statement = this.statement!;
    this.statement = null;
    const kind = statement.kind ?? this.options.format ?? 'mt940';
    const where = endLine === null ? 'stops at the end of the file' : `ends at line ${endLine}`;
    const named = statement.reference === null ? 'a statement' : `the statement ${quoteFound(statement.reference)}`;
    if (!statement.accountSeen) {
      throw new ImportFormatError(
        { line: statement.line },
        `${named} that ${where} without its account identification :25:`,
        'the account of every statement in a :25: field after :20:',
      );
    }
    if (kind === 'mt940') {
      if (statement.openingBalance === null) {
        throw new ImportFormatError(
          { line: statement.line },
          `${named} that ${where} without its opening balance :60F:`,
          'an MT940 statement with its opening balance :60F: (or :60M:) before its entries; the file looks incomplete',
        );
      }
      if (statement.closingBalance === null) {
        throw new ImportFormatError(
          { line: statement.line },
          `${named} that ${where} without its closing balance :62F:`,
          'an MT940 statement that ends with its closing balance :62F: (or :62M:); the file looks cut off or incomplete',
        );
      }
      if (statement.closingCurrency !== null && statement.currency !== null && statement.closingCurrency !== statement.currency) {
        this.warn(
          statement.closingLine,
          `Line ${statement.closingLine}: the closing balance is in ${statement.closingCurrency} while the opening balance is in ${statement.currency}; the entries were read in ${statement.currency}.`,
        );
      }
    }
    checkControlTotal(statement.debitControl, statement.debitCount, statement.debitTotal, 'debit');
    checkControlTotal(statement.creditControl, statement.creditCount, statement.creditTotal, 'credit');
    this.events.push({
      kind: 'statement',
      statement: {
        statementIndex: statement.index,
        line: statement.line,
        accountId: statement.accountId,
        statementId: statementIdOf(statement),
        currency: statementCurrency(statement),
        openingBalance: statement.openingBalance,
        closingBalance: statement.closingBalance,
      },
    });
  }

  // Entries

  private readStatementLine(statement: OpenStatement, field: OpenField): PendingEntry {
    // Some Sparkassen break the line right after the mark and funds code; the amount opens the next line.
    const wrapped = field.lines.length > 1 && MARK_AT_LINE_END.test(field.lines[0]!);
    if (wrapped)
      this.lenient('wrappedStatementLine', field.line, 'the :61: statement line breaks after its mark, before the amount; the two lines were read as one.');
    const first = wrapped ? field.lines[0]! + field.lines[1]!.trimStart() : field.lines[0]!;
    const detailLines = field.lines.slice(wrapped ? 2 : 1);
    const match = STATEMENT_LINE.exec(first);
    if (!match) throw new ImportFormatError({ line: field.line }, `:61: ${quoteFound(first)}`, STATEMENT_LINE_LAYOUT);
    if (statement.kind === null || (statement.kind === 'mt940' && statement.openingBalance === null)) {
      throw new ImportFormatError(
        { line: field.line },
        'a statement line :61: before the opening balance :60F: (MT940) or the floor limit :34F: (MT942)',
        'the opening balance :60F: or, in an MT942, the floor limit :34F: and date-time :13D:, before the first :61:',
      );
    }
    const [, valueText, entryText, mark, , amountText, typeText, referenceText, bankReferenceText] = match;
    const valueDate = swiftDate(valueText!, field.line, ':61: value date');
    const blankEntryDate = entryText !== undefined && entryText.trim() === '';
    if (blankEntryDate)
      this.lenient('blankEntryDate', field.line, 'the :61: statement line leaves its entry date blank; the entry is booked on its value date.');
    const bookingDate = entryText === undefined || blankEntryDate ? valueDate : entryDateNear(valueDate, entryText, field.line);
    if (typeText === undefined) {
      this.lenient(
        'missingTypeCode',
        field.line,
        'the :61: statement line has no transaction type code (such as NTRF) after the amount; the entry was read without one.',
      );
    } else if (!STANDARD_TYPE_CODE.test(typeText)) {
      this.lenient(
        'nonStandardTypeCode',
        field.line,
        `the :61: transaction type ${quoteFound(typeText)} is not N, F or S followed by three characters; it was kept as written.`,
      );
    }
    if ((referenceText ?? '').trim().length > STANDARD_REFERENCE_LENGTH || (bankReferenceText ?? '').trim().length > STANDARD_REFERENCE_LENGTH) {
      this.lenient('longReference', field.line, `a :61: reference is longer than the ${STANDARD_REFERENCE_LENGTH} characters SWIFT allows; it was kept whole.`);
    }
    const currency = statementCurrency(statement);
    const magnitude = withCurrencyScale(commaDecimal(amountText!), currency);
    // RC reverses a credit, so money leaves the account; RD reverses a debit, so money comes back.
    const debit = mark === 'D' || mark === 'RC';
    if (debit) {
      statement.debitCount += 1;
      statement.debitTotal = addDecimals(statement.debitTotal, magnitude);
    } else {
      statement.creditCount += 1;
      statement.creditTotal = addDecimals(statement.creditTotal, magnitude);
    }
    const entry = emptyEntry(field.line, statement.index, debit ? negateDecimal(magnitude) : magnitude);
    entry.bookingDate = bookingDate;
    entry.valueDate = valueDate;
    entry.currency = currency;
    entry.accountId = statement.accountId;
    entry.statementId = statementIdOf(statement);
    entry.reversal = mark === 'RC' || mark === 'RD';
    entry.bankReference = meaningfulReference(bankReferenceText);
    const details = detailLines
      .map((line) => line.trim())
      .filter((line) => line !== '')
      .join(' ');
    return {
      entry,
      customerReference: meaningfulReference(referenceText),
      typeCode: (typeText ?? '').trim(),
      supplementaryDetails: details === '' ? null : details,
      information: null,
      moreText: [],
    };
  }

  /** Completes the waiting entry from its `:86:` (if any) and yields it. */
  private flushEntry(): void {
    const pending = this.pending;
    if (pending === null) return;
    this.pending = null;
    const { entry, information, supplementaryDetails } = pending;
    // Rabobank writes the counterparty's IBAN on the second line of :61: and not in :86:; ASN Bank
    // writes it as the reference for the account owner.
    const detailsIban = information?.counterpartyAccount ? null : ibanOf(supplementaryDetails);
    entry.counterpartyAccount = information?.counterpartyAccount ?? detailsIban ?? ibanOf(pending.customerReference);
    // The description is the text of :86:, then the :61: supplementary details (unless they are the
    // counterparty's IBAN or already said), then the text of a second :86: or of the bank's own fields.
    const texts: string[] = [];
    if (information?.description) texts.push(information.description);
    if (supplementaryDetails !== null && detailsIban === null && !containsText(texts, supplementaryDetails)) texts.push(supplementaryDetails);
    for (const text of pending.moreText) if (!containsText(texts, text)) texts.push(text);
    entry.description = texts.length === 0 ? null : texts.join(' ');
    entry.type = information?.type ?? typeInWords(pending.typeCode);
    entry.endToEndId = information?.endToEndId ?? null;
    entry.mandateId = information?.mandateId ?? null;
    entry.creditorId = information?.creditorId ?? null;
    entry.counterpartyName = information?.counterpartyName ?? null;
    // Left out rather than null when the file names no ultimate party, as the entry's type says.
    if (information?.ultimateDebtorName) entry.ultimateDebtorName = information.ultimateDebtorName;
    if (information?.ultimateCreditorName) entry.ultimateCreditorName = information.ultimateCreditorName;
    entry.bankTransactionCode = information?.businessCode ?? (pending.typeCode === '' ? null : pending.typeCode);
    entry.reference = entry.endToEndId ?? referenceOf(pending.customerReference, information) ?? information?.keywordReferences.KREF ?? null;
    this.events.push({ kind: 'entry', entry });
  }
}

// Field values

function readControlTotal(field: OpenField, value: string): ControlTotal {
  const match = ENTRY_TOTAL.exec(value);
  if (!match) {
    throw new ImportFormatError(
      { line: field.line },
      `:${field.tag}: ${quoteFound(value)}`,
      `the number and sum of ${field.tag === '90D' ? 'debit' : 'credit'} entries laid out as count, currency code and amount, e.g. 3EUR1250,00`,
    );
  }
  return { line: field.line, count: Number(match[1]), amount: commaDecimal(match[3]!), currency: match[2]! };
}

/** Refuses a report whose `:90D:`/`:90C:` do not describe the entries read: entries are missing or extra. */
function checkControlTotal(control: ControlTotal | null, count: number, total: string, side: 'debit' | 'credit'): void {
  if (control === null) return;
  if (control.count === count && compareDecimals(control.amount, total) === 0) return;
  const tag = side === 'debit' ? '90D' : '90C';
  throw new ImportFormatError(
    { line: control.line },
    `:${tag}: announcing ${control.count} ${side} entries totalling ${control.amount} ${control.currency}`,
    `the ${count} ${side} entries of the report, totalling ${total} ${control.currency}, to match it; the file is incomplete or altered`,
  );
}

function statementIdOf(statement: OpenStatement): string | null {
  return statement.statementNumber ?? statement.reference;
}

function statementCurrency(statement: OpenStatement): string | null {
  return statement.currency ?? statement.accountCurrency;
}

/** "1250," is 1250, "0,5" is 0.5: the decimal comma as a plain decimal text. */
function commaDecimal(text: string): string {
  const [whole = '0', fraction = ''] = text.split(',');
  return fraction === '' ? whole : `${whole}.${fraction}`;
}

/** Years 00–79 are 2000–2079, 80–99 are 1980–1999, as banks and SWIFT tools read two-digit years. */
function fullYear(twoDigits: number): number {
  return twoDigits <= 79 ? 2000 + twoDigits : 1900 + twoDigits;
}

function swiftDate(text: string, line: number, what: string): CalendarDate {
  const date = `${fullYear(Number(text.slice(0, 2)))}-${text.slice(2, 4)}-${text.slice(4, 6)}`;
  if (!isCalendarDate(date)) {
    throw new ImportFormatError({ line }, `the date ${quoteFound(text)} in ${what}`, 'a real calendar date written YYMMDD, e.g. 240229 for 29 February 2024');
  }
  return date;
}

/**
 * The entry date MMDD in the year that puts it closest to the value date: booked on 2 January
 * for a value date of 31 December is the next year, booked on 31 December for a value date of
 * 2 January the year before.
 */
function entryDateNear(valueDate: CalendarDate, monthDay: string, line: number): CalendarDate {
  const valueYear = Number(valueDate.slice(0, 4));
  const valueMs = calendarDateToEpochMs(valueDate);
  let best: CalendarDate | null = null;
  let bestDistance = Infinity;
  for (const year of [valueYear, valueYear - 1, valueYear + 1]) {
    const candidate = `${year}-${monthDay.slice(0, 2)}-${monthDay.slice(2, 4)}`;
    if (!isCalendarDate(candidate)) continue;
    const distance = Math.abs(calendarDateToEpochMs(candidate) - valueMs);
    if (distance < bestDistance) {
      best = candidate;
      bestDistance = distance;
    }
  }
  if (best === null) {
    throw new ImportFormatError({ line }, `the entry date ${quoteFound(monthDay)} in :61:`, 'a real month and day written MMDD, e.g. 0102 for 2 January');
  }
  return best;
}

function meaningfulReference(text: string | undefined): string | null {
  const trimmed = text?.trim() ?? '';
  return trimmed === '' || NO_REFERENCE.has(trimmed.toUpperCase()) ? null : trimmed;
}

/** The reference for the account owner from `:61:`, or the value it points at when it only names a keyword. */
function referenceOf(customerReference: string | null, information: EntryInformation | null): string | null {
  if (customerReference === null) return null;
  const pointer = REFERENCE_POINTER.exec(customerReference);
  if (!pointer) return customerReference;
  return information?.keywordReferences[pointer[1]!] ?? null;
}

function ibanOf(text: string | null): string | null {
  return text !== null && IBAN_SHAPE.test(text) ? text : null;
}

/** Whether one of the texts already says `text` (compared without regard to case and spacing). */
function containsText(texts: readonly string[], text: string): boolean {
  const wanted = squeeze(text);
  return texts.some((existing) => squeeze(existing).includes(wanted));
}

function squeeze(text: string): string {
  return text.replace(/\s+/g, ' ').trim().toLowerCase();
}

/**
 * The text of a bank's own field such as `:NS:`: its lines trimmed and joined with a space. Lines
 * numbered by two digits (`09Tranzakciós illeték`, `15ERGO Versicherung`) lose their numbers,
 * which only say where the bank's form puts them.
 */
function bankFieldText(lines: readonly string[]): string | null {
  const values = lines
    .map((line) =>
      line
        .trim()
        .replace(/^\d{2}(?=\D|\d{3})/, '')
        .trim(),
    )
    .filter((line) => line !== '');
  return values.length === 0 ? null : values.join(' ');
}

function typeInWords(typeCode: string): string | null {
  const identification = typeCode.slice(1);
  if (typeCode.startsWith('S') && SWIFT_MESSAGE_NUMBER.test(identification)) return `SWIFT MT${identification}`;
  return TRANSACTION_TYPE_WORDS[identification] ?? null;
}

// The account

function splitAccountCurrency(value: string): { account: string; currency: string | null } {
  const slashedIban = SLASHED_IBAN.exec(value);
  if (slashedIban) return { account: slashedIban[1]!, currency: null };
  const match = ACCOUNT_WITH_CURRENCY.exec(value);
  if (!match) return { account: value, currency: null };
  const account = match[1]!;
  // After a slash (BIC/account/HUF), a bank code and account number, or an IBAN that is valid only without the three letters.
  const slashed = value.length === account.length + 4;
  if (slashed || BANK_ACCOUNT_NUMBER.test(account) || (isValidIban(account) && !isValidIban(value))) return { account, currency: match[2]! };
  return { account: value, currency: null };
}

function isValidIban(text: string): boolean {
  if (!IBAN_SHAPE.test(text)) return false;
  const rearranged = text.slice(4) + text.slice(0, 4);
  let remainder = 0;
  for (const character of rearranged) {
    const code = character.charCodeAt(0);
    const digits = code >= 65 ? String(code - 55) : character;
    for (const digit of digits) remainder = (remainder * 10 + (digit.charCodeAt(0) - 48)) % 97;
  }
  return remainder === 1;
}

// Information to account owner (:86:)

function emptyInformation(): EntryInformation {
  return {
    description: null,
    type: null,
    endToEndId: null,
    mandateId: null,
    creditorId: null,
    counterpartyName: null,
    counterpartyAccount: null,
    ultimateDebtorName: null,
    ultimateCreditorName: null,
    businessCode: null,
    keywordReferences: {},
  };
}

function nonEmpty(text: string | null | undefined): string | null {
  const trimmed = text?.trim() ?? '';
  return trimmed === '' ? null : trimmed;
}

/**
 * Reads a `:86:` in whichever style it is written. Structured styles are joined without a
 * separator, because banks cut them at the line length in the middle of words and even of
 * subfield codes; free text is joined with a space.
 */
function readInformation(lines: readonly string[]): EntryInformation {
  const joined = lines.join('');
  const subfields = SUBFIELD_INFORMATION.exec(joined);
  if (subfields) {
    const separator = subfields[2] ?? subfields[3]!;
    return readSubfieldInformation(joined, subfields[1] ?? null, separator, joined.indexOf(separator, subfields.index));
  }
  if (SLASH_STYLE_START.test(joined.trimStart())) return readSlashInformation(joined.trim());
  const information = emptyInformation();
  information.description = nonEmpty(
    lines
      .map((line) => line.trim())
      .filter((line) => line !== '')
      .join(' '),
  );
  return information;
}

/** A subfield's value, or nothing when the bank filled an empty subfield with a placeholder. */
function subfieldValue(text: string): string {
  return EMPTY_SUBFIELD.test(text) ? '' : text;
}

/**
 * `:86:` in subfields (DFÜ-Abkommen, Anlage 3, and the Polish banks' variant):
 * `GVC?00booking text?10primanota?20purpose…?30bank?31account?32name?33name?38IBAN…`.
 */
function readSubfieldInformation(text: string, businessCode: string | null, separator: string, start: number): EntryInformation {
  const information = emptyInformation();
  information.businessCode = businessCode;
  let purpose = '';
  const purposeBreaks: number[] = [];
  let name = '';
  let bankCode: string | null = null;
  let account: string | null = null;
  let iban: string | null = null;
  let bookingText: string | null = null;
  const unknown: string[] = [];
  let index = start;
  while (index < text.length) {
    const code = text.slice(index + 1, index + 3);
    const next = nextSubfield(text, separator, index + 3);
    const value = subfieldValue(text.slice(index + 3, next));
    const number = Number(code);
    if (code === '00') bookingText = value;
    else if ((number >= 20 && number <= 29) || (number >= 60 && number <= 63)) {
      if (PURPOSE_MARKER.test(value)) purposeBreaks.push(purpose.length);
      purpose += value;
    } else if (code === '30') bankCode = value;
    else if (code === '31') account = value;
    else if (code === '32' || code === '33') name += value;
    else if (code === '38') iban = value;
    else if (!SUBFIELDS_READ_PAST.has(code) && nonEmpty(value) !== null) unknown.push(value.trim());
    index = next;
  }
  information.type = nonEmpty(bookingText);
  information.counterpartyName = nonEmpty(name);
  const accountText = nonEmpty(account);
  const bankText = nonEmpty(bankCode);
  const ibanText = ibanOf(nonEmpty(iban));
  if (ibanText !== null) information.counterpartyAccount = ibanText;
  else if (accountText === null) information.counterpartyAccount = bankText;
  else information.counterpartyAccount = IBAN_SHAPE.test(accountText) || bankText === null ? accountText : `${bankText}/${accountText}`;
  const keywords = sepaKeywords(purpose, purposeBreaks);
  if (keywords === null) {
    information.description = nonEmpty([purpose, ...unknown].join(' ')) ?? information.type;
    return information;
  }
  const { values, freeText } = keywords;
  const endToEndId = meaningfulReference(values.EREF);
  information.endToEndId = endToEndId;
  if (endToEndId !== null) information.keywordReferences.EREF = endToEndId;
  for (const keyword of ['KREF', 'MREF'] as const) {
    const reference = meaningfulReference(values[keyword]);
    if (reference !== null) information.keywordReferences[keyword] = reference;
  }
  information.mandateId = meaningfulReference(values.MREF);
  information.creditorId = meaningfulReference(values.CRED);
  Object.assign(information, ultimateParties(values, businessCode));
  const keptAsText = SEPA_KEYWORDS_KEPT_AS_TEXT.flatMap((keyword) => (nonEmpty(values[keyword]) === null ? [] : [`${keyword}+${values[keyword]!.trim()}`]));
  const remittance = [nonEmpty(values.SVWZ), nonEmpty(freeText), ...keptAsText, ...unknown].filter((part) => part !== null).join(' ');
  information.description = nonEmpty(remittance) ?? information.type ?? nonEmpty(purpose);
  return information;
}

/**
 * The ultimate parties of ABWA+ ("abweichender Auftraggeber", the party for whom the payment was
 * initiated) and ABWE+ ("abweichender Empfänger", the party on the other side). The one who
 * initiates a credit transfer is the debtor, so there ABWA+ is camt's ultimate debtor and ABWE+
 * its ultimate creditor; a direct debit or a card payment is initiated by the creditor, so there
 * ABWA+ is the ultimate creditor (Sparkasse writes the shop of a card payment, the petrol station
 * of "ARAL AG", as ABWA+) and ABWE+ the ultimate debtor. A direct debit is known by its mandate or
 * creditor id (which every SEPA direct debit carries) or by its business transaction code.
 */
function ultimateParties(
  values: Record<string, string>,
  businessCode: string | null,
): { ultimateDebtorName: string | null; ultimateCreditorName: string | null } {
  const initiator = nonEmpty(values.ABWA);
  const recipient = nonEmpty(values.ABWE);
  const creditorInitiated =
    nonEmpty(values.MREF) !== null || nonEmpty(values.CRED) !== null || (businessCode !== null && CREDITOR_INITIATED_CODES.has(businessCode));
  return creditorInitiated
    ? { ultimateDebtorName: recipient, ultimateCreditorName: initiator }
    : { ultimateDebtorName: initiator, ultimateCreditorName: recipient };
}

/** Index of the next subfield separator followed by two digits, or the end of the text. */
function nextSubfield(text: string, separator: string, from: number): number {
  let index = text.indexOf(separator, from);
  while (index !== -1) {
    const tens = text.charCodeAt(index + 1);
    const units = text.charCodeAt(index + 2);
    if (tens >= 48 && tens <= 57 && units >= 48 && units <= 57) return index;
    index = text.indexOf(separator, index + 1);
  }
  return text.length;
}

/**
 * The values of the SEPA keywords (EREF+, SVWZ+…) in a German purpose text, and the text that
 * belongs to none of them, or null when there is no keyword. A value runs to the next keyword,
 * or to a purpose subfield that opens with another bank's marker such as Postbank's `MTLG:`.
 */
function sepaKeywords(purpose: string, breaks: readonly number[]): { values: Record<string, string>; freeText: string } | null {
  const values: Record<string, string> = {};
  let freeText = '';
  let found = false;
  let start = 0;
  let keyword: string | null = null;
  let valueStart = 0;
  let breakIndex = 0;
  const close = (end: number): void => {
    if (keyword !== null) values[keyword] ??= purpose.slice(valueStart, end).trim();
    else freeText += purpose.slice(start, end);
  };
  SEPA_KEYWORD.lastIndex = 0;
  for (let match = SEPA_KEYWORD.exec(purpose); ; match = SEPA_KEYWORD.exec(purpose)) {
    const boundary = match === null ? purpose.length : match.index;
    // Marker subfields before this keyword end the running value; their text is free text.
    while (breakIndex < breaks.length && breaks[breakIndex]! < boundary) {
      const at = breaks[breakIndex]!;
      breakIndex += 1;
      if (at <= start) continue;
      close(at);
      keyword = null;
      start = at;
    }
    close(boundary);
    if (match === null) break;
    found = true;
    keyword = match[1]!;
    start = boundary;
    valueStart = boundary + match[0].length;
  }
  return found ? { values, freeText: freeText.trim() } : null;
}

/** Slash style: `/TRTP/SEPA OVERBOEKING/IBAN/NL…/BIC/…/NAME/…/REMI/…/EREF/…`. */
function readSlashInformation(text: string): EntryInformation {
  const information = emptyInformation();
  const values: Record<string, string> = {};
  let keyword: string | null = null;
  let valueStart = 0;
  SLASH_KEYWORD.lastIndex = 0;
  for (let match = SLASH_KEYWORD.exec(text); match !== null; match = SLASH_KEYWORD.exec(text)) {
    if (keyword !== null) values[keyword] ??= slashValue(text.slice(valueStart, match.index));
    keyword = match[1]!;
    // The value starts after the slash that closes the keyword.
    valueStart = match.index + match[0].length + 1;
  }
  if (keyword !== null) values[keyword] ??= slashValue(text.slice(valueStart));
  const endToEndId = meaningfulReference(values.EREF);
  information.endToEndId = endToEndId;
  if (endToEndId !== null) information.keywordReferences.EREF = endToEndId;
  for (const reference of ['PREF', 'KREF', 'MARF'] as const) {
    const value = meaningfulReference(values[reference]);
    if (value !== null) information.keywordReferences[reference] = value;
  }
  information.mandateId = meaningfulReference(values.MARF);
  information.creditorId = meaningfulReference(values.CSID);
  // Without a remittance keyword, the text of a keyword no column takes (a line layout such as
  // Komercijalna Banka's /BENM/account, name and purpose) is what the bank wrote about the entry.
  information.description =
    nonEmpty(values.REMI) ??
    nonEmpty(values.USTD) ??
    nonEmpty(values.CDTRREF) ??
    nonEmpty(SLASH_KEYWORDS_AS_TEXT.flatMap((keyword) => values[keyword] ?? []).join(' '));
  information.type = nonEmpty(values.TRTP);
  // ING writes the counterparty as /CNTP/account/BIC/name/city/.
  const counterparty = values.CNTP === undefined ? [] : values.CNTP.split('/');
  information.counterpartyName = nonEmpty(values.NAME) ?? nonEmpty(counterparty[2]);
  information.counterpartyAccount = nonEmpty(values.IBAN) ?? nonEmpty(counterparty[0]);
  return information;
}

/** A slash-style value without the slashes that separate it from its neighbours. */
function slashValue(text: string): string {
  let start = 0;
  let end = text.length;
  while (start < end && text.charCodeAt(start) === 47) start += 1;
  while (end > start && text.charCodeAt(end - 1) === 47) end -= 1;
  return text.slice(start, end).trim();
}

// The account's country

/** A BIC: bank code, country code, location (and branch). */
const BIC_COUNTRY = /^[A-Z]{4}([A-Z]{2})[A-Z0-9]{2}(?:[A-Z0-9]{3})?$/;

/**
 * The country of the statement's account, from the start of a file (decoded as latin1): the
 * IBAN in the first `:25:`, else a BIC written there (UBRTHUHB/123456789150/HUF), else the BIC of
 * the envelope's block 1, else the country of a national currency in the first balance or floor
 * limit. The importer uses it to choose among the country's code pages.
 */
export function swiftMtCountry(head: string): string | null {
  const written = /^:25P?:([^\r\n]*)/m.exec(head)?.[1]?.trim();
  if (written !== undefined) {
    const { account } = splitAccountCurrency(written);
    if (isValidIban(account)) return account.slice(0, 2);
    const bic = BIC_COUNTRY.exec(account.split('/')[0]!);
    if (bic) return bic[1]!;
  }
  const envelope = /\{1:F\d{2}([A-Z]{4}([A-Z]{2})[A-Z0-9]{2})/.exec(head);
  if (envelope) return envelope[2]!;
  // A statement in a national currency names its country too (a Hungarian account number alone does not).
  const currency = /^:(?:60[FM]|34F):[CD]?(?:\d{6})?([A-Z]{3})/m.exec(head)?.[1];
  return currency === undefined ? null : (NATIONAL_CURRENCY_COUNTRY[currency] ?? null);
}

/** Currencies of one country, whose banks write that country's code pages. */
const NATIONAL_CURRENCY_COUNTRY: Record<string, string> = {
  HUF: 'HU',
  PLN: 'PL',
  CZK: 'CZ',
  RON: 'RO',
  BGN: 'BG',
  RUB: 'RU',
  UAH: 'UA',
  RSD: 'RS',
  BAM: 'BA',
  MKD: 'MK',
  BYN: 'BY',
  KZT: 'KZ',
  ALL: 'AL',
};

// Sniffing

/**
 * Whether the start of a file (its first 4096 characters, decoded as latin1) is an MT940 or an
 * MT942: by the envelope's block 2, else by the fields at the start of lines. XML, OFX, BAI2
 * and CSV never have these.
 */
export function sniffSwiftMt(head: string): SwiftMtFormat | null {
  const text = head.replace(/^(?:\uFEFF|\u00EF\u00BB\u00BF)/, '');
  const start = text.trimStart();
  if (start.startsWith('<') || /^OFXHEADER/i.test(start)) return null;
  const envelope = /\{1:[^}\n]*\}\s*\{2:[IO](\d{3})/.exec(text) ?? /^\{2:[IO](\d{3})/m.exec(text);
  if (envelope) return envelope[1] === '940' ? 'mt940' : envelope[1] === '942' ? 'mt942' : null;
  const tags = new Set<string>();
  for (const match of text.matchAll(/^:(20|25P?|28C?|60[FM]|62[FM]|34F|13D?|61|86|90[DC]):/gm)) tags.add(match[1]!);
  const hasAccount = tags.has('25') || tags.has('25P');
  const hasStatementField = ['28', '28C', '60F', '60M', '34F', '13', '13D', '61'].some((tag) => tags.has(tag));
  // ABN AMRO's day statements have no :20:; an account with its opening balance still says MT940.
  const startsAtAccount = hasAccount && (tags.has('60F') || tags.has('60M'));
  if ((!tags.has('20') && !startsAtAccount) || !hasAccount || !hasStatementField) return null;
  if (tags.has('60F') || tags.has('60M') || tags.has('62F') || tags.has('62M')) return 'mt940';
  if (tags.has('34F') || tags.has('13D') || tags.has('13') || tags.has('90D') || tags.has('90C')) return 'mt942';
  return 'mt940';
}
