import { SaxesParser, type SaxesTagPlain } from 'saxes';
import { STRING_VALUE_MAX_LENGTH } from '../../catalog/columns.ts';
import { sniffableHead } from '../text.ts';
import { addDecimals, compareDecimals, negateDecimal, withCurrencyScale } from '../../money.ts';
import {
  emptyEntry,
  ImportFormatError,
  isCalendarDate,
  quoteFound,
  type CalendarDate,
  type ParseEvent,
  type StatementBalance,
  type StatementEntry,
  type StatementSummary,
} from '../statement-entries.ts';

/**
 * ISO 20022 bank-to-customer cash management messages: camt.053 (statement), camt.052
 * (intraday account report) and camt.054 (debit/credit notification), versions .001.02 to
 * .001.13. The three share one entry structure, so one streaming reader serves them all.
 *
 * Elements are matched by local name whatever their namespace or prefix, so every version
 * reads alike; where versions differ in shape (`Dbtr/Nm` up to .07, `Dbtr/Pty/Nm` from .08;
 * `Sts` as text up to .07, `Sts/Cd` from .08) both shapes are accepted. The reader holds the
 * current statement's header, the current entry and its transaction details, never more, so
 * memory stays flat whatever the file size.
 */

export type CamtFormat = 'camt.052' | 'camt.053' | 'camt.054';

export interface CamtOptions {
  /** The message the file must hold; without it any of the three is accepted. */
  format?: CamtFormat;
}

/** The message element of each format, and its repeating statement element. */
const MESSAGES: Readonly<Record<string, { format: CamtFormat; statementElement: string }>> = {
  BkToCstmrStmt: { format: 'camt.053', statementElement: 'Stmt' },
  BkToCstmrAcctRpt: { format: 'camt.052', statementElement: 'Rpt' },
  BkToCstmrDbtCdtNtfctn: { format: 'camt.054', statementElement: 'Ntfctn' },
};

const MESSAGE_ELEMENT_OF_FORMAT: Readonly<Record<CamtFormat, string>> = {
  'camt.053': 'BkToCstmrStmt',
  'camt.052': 'BkToCstmrAcctRpt',
  'camt.054': 'BkToCstmrDbtCdtNtfctn',
};

/** Bounds on what one file may make the reader hold or do. */
export const CAMT_LIMITS = {
  /** Deepest element nesting accepted; real camt messages stay below 20 levels. */
  depthLimit: 64,
  /** Longest element text, and longest run of characters without any markup event. */
  textLengthLimit: 64 * 1024,
  /** Transaction details of one entry kept for splitting a batch; beyond it the batch stays whole. */
  detailsPerEntryLimit: 10_000,
  /** Unstructured remittance lines (and structured references of each kind) of one transaction kept for its description. */
  remittanceLinesLimit: 100,
  /** Longest description: the length of a text column (STRING_VALUE_MAX_LENGTH). */
  descriptionLength: STRING_VALUE_MAX_LENGTH,
  /** Elements an envelope (such as a business application header wrapper) may hold before `Document`. */
  envelopeElementLimit: 1000,
  /** Characters handed to the XML parser at once, so that limits are checked between slices. */
  sliceLength: 16 * 1024,
} as const;

/** Entry statuses that are imported; every other status is skipped with a warning. */
const BOOKED_STATUS = 'BOOK';
/** What banks write when the payer gave no end-to-end reference. */
const NOT_PROVIDED = 'NOTPROVIDED';

const EXPECTED_MESSAGES = '<Document> holding <BkToCstmrStmt> (camt.053), <BkToCstmrAcctRpt> (camt.052) or <BkToCstmrDbtCdtNtfctn> (camt.054)';

/**
 * A non-negative decimal as ISO 20022 amounts are written: at most 18 digits before the point and
 * 6 after. The schema type is xs:decimal, whose lexical forms include a point with no digits before
 * it (".6") or none after it ("6."); Handelsbanken writes ".6" in its transaction amounts.
 */
const AMOUNT_PATTERN = /^(?:\d{1,18}(?:\.\d{0,6})?|\.\d{1,6})$/;
const CURRENCY_PATTERN = /^[A-Za-z]{3}$/;
/** An xs:date, whose optional zone says nothing about the calendar day written. */
const DATE_PATTERN = /^(\d{4}-\d{2}-\d{2})(?:Z|[+-]\d{2}:\d{2})?$/;
/** An xs:dateTime; the zone is optional in the schema, and without it the instant is unknown. */
const DATE_TIME_PATTERN = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})(?:\.(\d{1,12}))?(Z|[+-]\d{2}:\d{2})?$/;

/**
 * A readable word for a bank transaction code, looked up by sub-family first, then family,
 * then domain (ISO 20022 External Code Sets). The table is kept short on purpose: codes not
 * listed keep the code itself as their type.
 */
const TYPE_OF_SUB_FAMILY: Readonly<Record<string, string>> = {
  CHRG: 'fee',
  COMM: 'fee',
  FEES: 'fee',
  INTR: 'interest',
  CWDL: 'cash withdrawal',
  CDPT: 'cash deposit',
  RRTN: 'return',
  UPDD: 'direct debit return',
  SALA: 'salary',
  STDO: 'standing order',
};
const TYPE_OF_FAMILY: Readonly<Record<string, string>> = {
  ICDT: 'credit transfer',
  RCDT: 'credit transfer',
  IDDT: 'direct debit',
  RDDT: 'direct debit',
  CCRD: 'card payment',
  MCRD: 'card payment',
  ICHQ: 'cheque',
  RCHQ: 'cheque',
  CNTR: 'cash',
};
const TYPE_OF_DOMAIN: Readonly<Record<string, string>> = {
  FORX: 'foreign exchange',
  SECU: 'securities',
};

/** Fields of one transaction detail (`NtryDtls/TxDtls`), or of an entry without details. */
interface TransactionFields {
  line: number;
  /** `Amt` of the detail (from .03), else `AmtDtls/TxAmt/Amt`; unsigned, as written. */
  amount: string | null;
  amountCurrency: string | null;
  transactionAmount: string | null;
  transactionAmountCurrency: string | null;
  indicator: 'CRDT' | 'DBIT' | null;
  accountServicerReference: string | null;
  endToEndId: string | null;
  /** `RmtInf/Strd/CdtrRefInf/Ref` of every structured remittance block, in order. */
  creditorReferences: string[];
  /** `RmtInf/Strd/RfrdDocInf/Nb`: the numbers of the documents paid (invoices, credit notes). */
  documentNumbers: string[];
  /** `RmtInf/Strd/AddtlRmtInf`: free text inside structured remittance. */
  structuredTexts: string[];
  remittanceLines: string[];
  additionalTransactionInformation: string | null;
  domainCode: string | null;
  familyCode: string | null;
  subFamilyCode: string | null;
  proprietaryCode: string | null;
  debtorName: string | null;
  debtorAccount: string | null;
  creditorName: string | null;
  creditorAccount: string | null;
  ultimateDebtorName: string | null;
  ultimateCreditorName: string | null;
}

interface EntryState {
  line: number;
  /** The entry's XML path, kept for messages given once the entry is complete. */
  xmlPath: string;
  entryReference: string | null;
  amount: string | null;
  currency: string | null;
  indicator: 'CRDT' | 'DBIT' | null;
  reversal: boolean;
  status: string | null;
  bookingDate: CalendarDate | null;
  bookingTimeMs: number | null;
  valueDate: CalendarDate | null;
  accountServicerReference: string | null;
  domainCode: string | null;
  familyCode: string | null;
  subFamilyCode: string | null;
  proprietaryCode: string | null;
  additionalEntryInformation: string | null;
  details: TransactionFields[];
  /** Details seen, including those beyond the limit that were not kept. */
  detailCount: number;
  remittanceWarningGiven: boolean;
}

interface BalanceState {
  line: number;
  code: string | null;
  amount: string | null;
  currency: string | null;
  indicator: 'CRDT' | 'DBIT' | null;
  date: CalendarDate | null;
}

interface StatementState {
  index: number;
  line: number;
  statementId: string | null;
  iban: string | null;
  otherAccountId: string | null;
  accountCurrency: string | null;
  firstBalanceCurrency: string | null;
  firstEntryCurrency: string | null;
  openingBooked: StatementBalance | null;
  previousClosingBooked: StatementBalance | null;
  closingBooked: StatementBalance | null;
  interimBooked: StatementBalance | null;
  /** Entries left out because they are not booked, counted by status. */
  skippedByStatus: Map<string, number>;
}

/**
 * The namespace of a camt.052, camt.053 or camt.054 message, any version: the ISO one
 * (`urn:iso:std:iso:20022:tech:xsd:camt.053.001.08`) or a national variant that names the
 * message in the same way, such as the Austrian banks' `ISO:camt.053.001.02:APC:STUZZA:payments:003`.
 */
const CAMT_NAMESPACE_EXACT = /(?:^|:)camt\.05[234]\.001\.\d{2}(?::|$)/;

/** The namespace declarations of a tag: `xmlns` (prefix '') and `xmlns:p`. */
function namespaceDeclarations(tag: SaxesTagPlain): Map<string, string> | undefined {
  let declarations: Map<string, string> | undefined;
  for (const [name, value] of Object.entries(tag.attributes)) {
    if (name !== 'xmlns' && !name.startsWith('xmlns:')) continue;
    (declarations ??= new Map()).set(name === 'xmlns' ? '' : name.slice(6), value.trim());
  }
  return declarations;
}

function localName(name: string): string {
  const colon = name.indexOf(':');
  return colon === -1 ? name : name.slice(colon + 1);
}

function emptyTransaction(line: number): TransactionFields {
  return {
    line,
    amount: null,
    amountCurrency: null,
    transactionAmount: null,
    transactionAmountCurrency: null,
    indicator: null,
    accountServicerReference: null,
    endToEndId: null,
    creditorReferences: [],
    documentNumbers: [],
    structuredTexts: [],
    remittanceLines: [],
    additionalTransactionInformation: null,
    domainCode: null,
    familyCode: null,
    subFamilyCode: null,
    proprietaryCode: null,
    debtorName: null,
    debtorAccount: null,
    creditorName: null,
    creditorAccount: null,
    ultimateDebtorName: null,
    ultimateCreditorName: null,
  };
}

/** `PMNT/RCDT/ESCT` from the domain, family and sub-family; else the proprietary code. */
function bankTransactionCode(fields: {
  domainCode: string | null;
  familyCode: string | null;
  subFamilyCode: string | null;
  proprietaryCode: string | null;
}): string | null {
  if (fields.domainCode !== null) {
    return [fields.domainCode, fields.familyCode, fields.subFamilyCode].filter((part) => part !== null).join('/');
  }
  return fields.proprietaryCode;
}

function typeOfCode(fields: { domainCode: string | null; familyCode: string | null; subFamilyCode: string | null }, code: string | null): string | null {
  if (fields.domainCode === null) return code;
  return (
    (fields.subFamilyCode === null ? undefined : TYPE_OF_SUB_FAMILY[fields.subFamilyCode]) ??
    (fields.familyCode === null ? undefined : TYPE_OF_FAMILY[fields.familyCode]) ??
    TYPE_OF_DOMAIN[fields.domainCode] ??
    code
  );
}

interface DateTimeValue {
  date: CalendarDate;
  /** The instant, only when the text carries a zone. */
  epochMs: number | null;
}

function readDateTime(text: string): DateTimeValue | null {
  const match = DATE_TIME_PATTERN.exec(text);
  if (!match) return null;
  const [, year, month, day, hour, minute, second, fraction, zone] = match;
  const date = `${year}-${month}-${day}`;
  if (!isCalendarDate(date) || Number(hour) > 23 || Number(minute) > 59 || Number(second) > 59) return null;
  if (zone === undefined) return { date, epochMs: null };
  let offsetMinutes = 0;
  if (zone !== 'Z') {
    const offsetHours = Number(zone.slice(1, 3));
    const offsetRest = Number(zone.slice(4, 6));
    if (offsetHours > 14 || offsetRest > 59) return null;
    offsetMinutes = (zone.startsWith('-') ? -1 : 1) * (offsetHours * 60 + offsetRest);
  }
  const milliseconds = Number((fraction ?? '').padEnd(3, '0').slice(0, 3));
  const local = Date.UTC(Number(year), Number(month) - 1, Number(day), Number(hour), Number(minute), Number(second), milliseconds);
  return { date, epochMs: local - offsetMinutes * 60_000 };
}

function readDate(text: string): CalendarDate | null {
  const match = DATE_PATTERN.exec(text);
  return match && isCalendarDate(match[1]!) ? match[1]! : null;
}

/**
 * The reader behind parseCamt: SAX events in, parse events queued. Handlers run inside
 * `SaxesParser.write`, so the generator drains the queue after every slice it feeds.
 */
class CamtReader {
  private readonly parser: SaxesParser<{ xmlns: false; position: true }>;
  private readonly expectedFormat: CamtFormat | null;
  private events: ParseEvent[] = [];

  /** Local names of the open elements, outermost first. */
  private readonly names: string[] = [];
  /** 1-based position among its repeating siblings (statements, balances, entries, details), else 0. */
  private readonly indexes: number[] = [];
  /** Path of each open element relative to the innermost statement, balance, entry or detail. */
  private readonly relativePaths: string[] = [];

  private text = '';
  private elementCurrency: string | null = null;
  private elementLine = 1;
  private startTagLine = 1;

  private fedLength = 0;
  private lastEventPosition = 0;
  private sawContent = false;
  private rootSeen = false;
  private documentDepth = 0;
  private messageDepth = 0;
  private statementElement = '';
  private statementCount = 0;
  /** Statements of the current message, which must have at least one. */
  private messageStatements = 0;
  private messageLine = 1;
  /** The first message that held no statement at all. */
  private emptyMessage: { line: number; xmlPath: string; name: string; statement: string } | null = null;
  /** Namespace declarations (prefix, '' for the default, to URI) of the open elements outside the message, by depth. */
  private readonly declarations: Array<Map<string, string> | undefined> = [];
  private statementDepth = 0;
  private balanceDepth = 0;
  private entryDepth = 0;
  private detailDepth = 0;
  private statement: StatementState | null = null;
  private balance: BalanceState | null = null;
  private entry: EntryState | null = null;
  private detail: TransactionFields | null = null;
  private balanceCount = 0;
  private entryCount = 0;
  private zonelessTimeWarningGiven = false;
  private valueDateOnlyWarningGiven = false;
  private unsignedBalanceWarningGiven = false;
  private prologTail = '';
  private envelopeElementCount = 0;

  constructor(options: CamtOptions) {
    this.expectedFormat = options.format ?? null;
    this.parser = new SaxesParser({ xmlns: false, position: true });
    this.parser.on('error', (error) => {
      const reason = error.message.replace(/^\d+:\d+: /, '');
      throw new ImportFormatError(
        { line: this.parser.line, xmlPath: this.names.length === 0 ? null : this.pathAt(this.names.length) },
        `XML that is not well-formed (${reason})`,
        'a well-formed ISO 20022 camt XML document',
      );
    });
    // Six handlers and no more: saxes stores each handler as a new property of the parser, and
    // from the eighth on V8 turns the parser into a slow dictionary object, which makes the
    // whole parse several times slower. A document type declaration is refused by the prolog
    // check before the parser sees it; comments and processing instructions need no handler,
    // as the next tag resets the distance that bounds what the parser buffers.
    this.parser.on('opentagstart', () => {
      this.touch();
      this.startTagLine = this.parser.line;
    });
    this.parser.on('opentag', (tag) => this.openElement(tag));
    this.parser.on('closetag', () => this.closeElement());
    this.parser.on('text', (text) => this.addText(text));
    this.parser.on('cdata', (text) => this.addText(text));
  }

  /** Feeds one slice of text (at most CAMT_LIMITS.sliceLength characters). */
  write(slice: string): void {
    if (!this.rootSeen) this.checkProlog(slice);
    this.fedLength += slice.length;
    this.parser.write(slice);
    // The XML parser buffers a text, tag or comment until it ends; checking the distance to its
    // last event after every slice bounds that buffer, whatever the file holds.
    if (this.fedLength - this.lastEventPosition > CAMT_LIMITS.textLengthLimit) {
      const inside = this.names.length === 0 ? 'before the first element' : `inside <${this.names[this.names.length - 1]!}>`;
      throw new ImportFormatError(
        { line: this.parser.line, xmlPath: this.names.length === 0 ? null : this.pathAt(this.names.length) },
        `more than ${CAMT_LIMITS.textLengthLimit} characters of text or markup without a break, ${inside}`,
        `element texts and tags of at most ${CAMT_LIMITS.textLengthLimit} characters; is this a camt file?`,
      );
    }
  }

  end(): void {
    if (!this.rootSeen) {
      if (!this.sawContent) throw new ImportFormatError({ line: 1 }, 'an empty file', `a camt XML document: ${EXPECTED_MESSAGES}`);
      throw new ImportFormatError(
        { line: this.parser.line },
        'the end of the file before the first XML element was complete',
        `a camt XML document: ${EXPECTED_MESSAGES}`,
      );
    }
    if (this.names.length > 0) {
      const name = this.names[this.names.length - 1]!;
      throw new ImportFormatError(
        { line: this.parser.line, xmlPath: this.pathAt(this.names.length) },
        `the end of the file inside <${name}>`,
        `the closing tag </${name}>; the file is cut short`,
      );
    }
    this.parser.close();
    const empty = this.emptyMessage;
    if (empty !== null) {
      throw new ImportFormatError(
        { line: empty.line, xmlPath: empty.xmlPath },
        `<${empty.name}> without any <${empty.statement}>`,
        `at least one <${empty.statement}> in the message: a file without statements is not a statement of any account (an empty day is a <${empty.statement}> without entries)`,
      );
    }
  }

  /** The events queued since the last call. */
  takeEvents(): ParseEvent[] {
    const events = this.events;
    this.events = [];
    return events;
  }

  private touch(): void {
    this.lastEventPosition = this.parser.position;
  }

  /**
   * Before the root element, looks at the raw text for a document type declaration: it is
   * refused before the XML parser reads it, so no entity is declared or expanded and nothing
   * external is ever referred to.
   */
  private checkProlog(slice: string): void {
    if (!this.sawContent && /\S/.test(slice)) this.sawContent = true;
    const window = this.prologTail + slice;
    const found = window.search(/<!DOCTYPE/i);
    if (found !== -1) {
      const offsetInSlice = found - this.prologTail.length;
      const linesBefore = offsetInSlice > 0 ? slice.slice(0, offsetInSlice).split('\n').length - 1 : 0;
      this.refuseDoctype(this.parser.line + linesBefore);
    }
    this.prologTail = window.slice(-8);
  }

  private refuseDoctype(line: number): never {
    throw new ImportFormatError(
      { line },
      'a document type declaration (<!DOCTYPE ...>)',
      'a camt document without DTD or entity declarations; ISO 20022 messages never carry one, and such files are refused for safety',
    );
  }

  private addText(text: string): void {
    this.touch();
    if (this.text.length + text.length > CAMT_LIMITS.textLengthLimit) {
      const name = this.names[this.names.length - 1] ?? 'the document';
      throw new ImportFormatError(
        { line: this.elementLine, xmlPath: this.names.length === 0 ? null : this.pathAt(this.names.length) },
        `a text of more than ${CAMT_LIMITS.textLengthLimit} characters in <${name}>`,
        `element texts of at most ${CAMT_LIMITS.textLengthLimit} characters`,
      );
    }
    this.text += text;
  }

  /** The XML path of the open element at `depth` (1-based): `/Document/BkToCstmrStmt/Stmt[2]/Ntry[14]/Amt`. */
  private pathAt(depth: number): string {
    let path = '';
    for (let index = 0; index < depth; index++) {
      const position = this.indexes[index]!;
      path += position === 0 ? `/${this.names[index]!}` : `/${this.names[index]!}[${position}]`;
    }
    return path;
  }

  private fail(found: string, expected: string, line = this.elementLine): never {
    throw new ImportFormatError({ line, xmlPath: this.pathAt(this.names.length) }, found, expected);
  }

  private warn(line: number | null, message: string): void {
    this.events.push({ kind: 'warning', line, message });
  }

  private openElement(tag: SaxesTagPlain): void {
    this.touch();
    const name = localName(tag.name);
    const depth = this.names.length + 1;
    this.elementLine = this.startTagLine;
    if (depth > CAMT_LIMITS.depthLimit) {
      this.fail(
        `elements nested more than ${CAMT_LIMITS.depthLimit} levels deep (<${name}>)`,
        `at most ${CAMT_LIMITS.depthLimit} levels of nesting, as camt messages have`,
      );
    }
    this.names.push(name);
    this.indexes.push(0);
    this.text = '';
    this.elementCurrency = tag.attributes['Ccy'] ?? null;

    if (this.messageDepth === 0) {
      this.declarations[depth - 1] = namespaceDeclarations(tag);
      this.openOutsideMessage(name, depth, tag.name);
      this.relativePaths.push('');
      return;
    }
    if (this.statement === null) {
      if (depth === this.messageDepth + 1 && name === this.statementElement) this.openStatement(depth);
      this.relativePaths.push('');
      return;
    }
    const parentPath = this.relativePaths[depth - 2]!;
    let path = parentPath === '' ? name : `${parentPath}/${name}`;
    if (this.detail !== null || this.balance !== null) {
      // Inside a detail or a balance: only the relative path matters.
    } else if (this.entry !== null) {
      if (path === 'NtryDtls/TxDtls') {
        this.openDetail(depth);
        path = '';
      }
    } else if (depth === this.statementDepth + 1) {
      if (name === 'Bal') {
        this.openBalance(depth);
        path = '';
      } else if (name === 'Ntry') {
        this.openEntry(depth);
        path = '';
      }
    }
    this.relativePaths.push(path);
  }

  /**
   * Finds the message: the root is `Document`, or an envelope (such as a business application
   * header wrapper) holding `Document` among its first elements; `Document`'s child must be one
   * of the three messages.
   */
  private openOutsideMessage(name: string, depth: number, qualifiedName: string): void {
    if (depth === 1) {
      this.rootSeen = true;
      this.prologTail = '';
    }
    if (this.documentDepth !== 0 && depth === this.documentDepth + 1) {
      const message = MESSAGES[name];
      if (message === undefined) {
        this.fail(`<${name}> inside <Document>`, EXPECTED_MESSAGES);
      }
      const namespace = this.namespaceOf(qualifiedName, depth);
      if (namespace !== null && !CAMT_NAMESPACE_EXACT.test(namespace)) {
        this.fail(
          `<${name}> in the namespace ${quoteFound(namespace)}`,
          `the ISO 20022 namespace of ${message.format}, such as "urn:iso:std:iso:20022:tech:xsd:${message.format}.001.08"; a document in another namespace is not a bank statement this reader knows`,
        );
      }
      if (this.expectedFormat !== null && message.format !== this.expectedFormat) {
        this.fail(
          `<${name}> (${message.format})`,
          `<${MESSAGE_ELEMENT_OF_FORMAT[this.expectedFormat]}> (${this.expectedFormat}), as the format of the import says`,
        );
      }
      this.messageDepth = depth;
      this.statementElement = message.statementElement;
      this.messageStatements = 0;
      this.messageLine = this.elementLine;
      return;
    }
    if (this.documentDepth === 0 && !this.sawMessage) {
      if (name === 'Document') {
        this.documentDepth = depth;
        return;
      }
      this.envelopeElementCount += 1;
      if (this.envelopeElementCount > CAMT_LIMITS.envelopeElementLimit) {
        this.fail(
          `the root element <${this.names[0]!}> without a camt <Document> in its first ${CAMT_LIMITS.envelopeElementLimit} elements`,
          EXPECTED_MESSAGES,
        );
      }
    }
  }

  private closeElement(): void {
    this.touch();
    const depth = this.names.length;
    const path = this.relativePaths[depth - 1]!;
    if (this.detail !== null) {
      if (depth === this.detailDepth) this.closeDetail();
      else this.readTransactionField(this.detail, path);
    } else if (this.entry !== null) {
      if (depth === this.entryDepth) this.closeEntry();
      else this.readEntryField(this.entry, path);
    } else if (this.balance !== null) {
      if (depth === this.balanceDepth) this.closeBalance(this.balance);
      else this.readBalanceField(this.balance, path);
    } else if (this.statement !== null) {
      if (depth === this.statementDepth) this.closeStatement(this.statement);
      else this.readStatementField(this.statement, path);
    } else if (depth === this.messageDepth) {
      // Refused once the whole file has proved well-formed (end), so that a broken file is named as such.
      if (this.messageStatements === 0)
        this.emptyMessage ??= { line: this.messageLine, xmlPath: this.pathAt(depth), name: this.names[depth - 1]!, statement: this.statementElement };
      this.messageDepth = 0;
    } else if (depth === this.documentDepth) {
      this.documentDepth = 0;
    }
    if (depth === 1 && !this.sawMessage) {
      this.fail(`the root element <${this.names[0]!}> without a camt message`, EXPECTED_MESSAGES);
    }
    this.names.pop();
    this.indexes.pop();
    this.relativePaths.pop();
    if (this.declarations.length >= depth) this.declarations.length = depth - 1;
    this.text = '';
  }

  /**
   * The namespace of an element outside the message (the message element itself, Document, an
   * envelope), from the declarations on it and its ancestors; null when none is declared (such
   * files are read by element names alone).
   */
  private namespaceOf(qualifiedName: string, depth: number): string | null {
    const colon = qualifiedName.indexOf(':');
    const prefix = colon === -1 ? '' : qualifiedName.slice(0, colon);
    for (let level = depth - 1; level >= 0; level--) {
      const declared = this.declarations[level]?.get(prefix);
      if (declared !== undefined) return declared === '' ? null : declared;
    }
    return null;
  }

  /** Whether a message element was ever opened (a message may hold no statement at all). */
  private get sawMessage(): boolean {
    return this.statementElement !== '';
  }

  private value(): string {
    return this.text.trim();
  }

  private amountValue(what: string): string {
    const value = this.value();
    if (!AMOUNT_PATTERN.test(value)) {
      this.fail(`${what} ${quoteFound(value)}`, 'a decimal amount without sign, such as "1250.00" (the sign comes from CdtDbtInd)');
    }
    // The short forms read as written out in full: ".6" is 0.6 and "6." is 6.
    if (value.startsWith('.')) return `0${value}`;
    return value.endsWith('.') ? value.slice(0, -1) : value;
  }

  private currencyValue(): string | null {
    const currency = this.elementCurrency;
    if (currency === null) return null;
    if (!CURRENCY_PATTERN.test(currency))
      this.fail(`the currency ${quoteFound(currency)}`, 'a three-letter ISO 4217 currency code in the Ccy attribute, such as "EUR"');
    return currency.toUpperCase();
  }

  private indicatorValue(): 'CRDT' | 'DBIT' {
    const value = this.value();
    if (value !== 'CRDT' && value !== 'DBIT') this.fail(`the credit/debit indicator ${quoteFound(value)}`, '"CRDT" (money in) or "DBIT" (money out)');
    return value;
  }

  private dateValue(): CalendarDate {
    const value = this.value();
    const date = readDate(value);
    if (date === null) this.fail(`the date ${quoteFound(value)}`, 'a calendar date YYYY-MM-DD');
    return date;
  }

  private dateTimeValue(): DateTimeValue {
    const value = this.value();
    const dateTime = readDateTime(value);
    if (dateTime === null) this.fail(`the date-time ${quoteFound(value)}`, 'a date-time YYYY-MM-DDThh:mm:ss, preferably with its zone (Z or +01:00)');
    return dateTime;
  }

  private nonEmpty(): string | null {
    const value = this.value();
    return value === '' ? null : value;
  }

  // Statements -------------------------------------------------------------------------------

  private openStatement(depth: number): void {
    this.statementCount += 1;
    this.messageStatements += 1;
    this.indexes[depth - 1] = this.statementCount;
    this.statementDepth = depth;
    this.balanceCount = 0;
    this.entryCount = 0;
    this.statement = {
      index: this.statementCount - 1,
      line: this.elementLine,
      statementId: null,
      iban: null,
      otherAccountId: null,
      accountCurrency: null,
      firstBalanceCurrency: null,
      firstEntryCurrency: null,
      openingBooked: null,
      previousClosingBooked: null,
      closingBooked: null,
      interimBooked: null,
      skippedByStatus: new Map(),
    };
  }

  private readStatementField(statement: StatementState, path: string): void {
    switch (path) {
      case 'Id':
        statement.statementId = this.nonEmpty();
        break;
      case 'Acct/Id/IBAN':
        statement.iban = this.nonEmpty();
        break;
      case 'Acct/Id/Othr/Id':
        statement.otherAccountId = this.nonEmpty();
        break;
      case 'Acct/Ccy': {
        const value = this.value();
        if (!CURRENCY_PATTERN.test(value)) this.fail(`the account currency ${quoteFound(value)}`, 'a three-letter ISO 4217 currency code, such as "EUR"');
        statement.accountCurrency = value.toUpperCase();
        break;
      }
    }
  }

  private statementCurrency(statement: StatementState): string | null {
    return statement.accountCurrency ?? statement.firstBalanceCurrency;
  }

  private closeStatement(statement: StatementState): void {
    if (statement.skippedByStatus.size > 0) {
      let skipped = 0;
      const byStatus: string[] = [];
      for (const [status, count] of statement.skippedByStatus) {
        skipped += count;
        byStatus.push(`${status}: ${count}`);
      }
      this.warn(
        statement.line,
        `statement ${statement.index + 1}${statement.statementId === null ? '' : ` (${statement.statementId})`}: ` +
          `${skipped} ${skipped === 1 ? 'entry is' : 'entries are'} not booked yet (${byStatus.join(', ')}) and ${skipped === 1 ? 'was' : 'were'} not imported; ` +
          'a later statement books them',
      );
    }
    const summary: StatementSummary = {
      statementIndex: statement.index,
      line: statement.line,
      accountId: statement.iban ?? statement.otherAccountId,
      statementId: statement.statementId,
      currency: this.statementCurrency(statement) ?? statement.firstEntryCurrency,
      openingBalance: statement.openingBooked ?? statement.previousClosingBooked,
      closingBalance: statement.closingBooked ?? statement.interimBooked,
    };
    this.events.push({ kind: 'statement', statement: summary });
    this.statement = null;
    this.statementDepth = 0;
  }

  // Balances ---------------------------------------------------------------------------------

  private openBalance(depth: number): void {
    this.balanceCount += 1;
    this.indexes[depth - 1] = this.balanceCount;
    this.balanceDepth = depth;
    this.balance = { line: this.elementLine, code: null, amount: null, currency: null, indicator: null, date: null };
  }

  private readBalanceField(balance: BalanceState, path: string): void {
    switch (path) {
      case 'Tp/CdOrPrtry/Cd':
        balance.code = this.nonEmpty();
        break;
      case 'Amt':
        balance.amount = this.amountValue('the balance amount');
        balance.currency = this.currencyValue();
        break;
      case 'CdtDbtInd':
        balance.indicator = this.indicatorValue();
        break;
      case 'Dt/Dt':
        balance.date = this.dateValue();
        break;
      case 'Dt/DtTm':
        balance.date = this.dateTimeValue().date;
        break;
    }
  }

  private closeBalance(balance: BalanceState): void {
    const statement = this.statement!;
    if (balance.amount === null) this.fail('a balance without <Amt>', 'every <Bal> to give its amount', balance.line);
    if (balance.indicator === null) {
      // A balance is only compared with the entries, never stored: one whose sign is not
      // written is left out of the report (with a warning) rather than guessed or refused.
      if (!this.unsignedBalanceWarningGiven) {
        this.unsignedBalanceWarningGiven = true;
        this.warn(
          balance.line,
          `a balance (${balance.code ?? 'without type'}) gives no <CdtDbtInd>, so whether it is in credit or overdrawn is not known; ` +
            'it is not reported and the statement is not checked against it (the same holds for every such balance in this file)',
        );
      }
      this.balance = null;
      this.balanceDepth = 0;
      return;
    }
    if (statement.firstBalanceCurrency === null) statement.firstBalanceCurrency = balance.currency;
    const currency = balance.currency ?? this.statementCurrency(statement);
    const magnitude = withCurrencyScale(balance.amount, currency);
    const signed: StatementBalance = { amount: balance.indicator === 'DBIT' ? negateDecimal(magnitude) : magnitude, date: balance.date };
    switch (balance.code) {
      case 'OPBD':
        statement.openingBooked ??= signed;
        break;
      case 'PRCD':
        statement.previousClosingBooked ??= signed;
        break;
      case 'CLBD':
        statement.closingBooked ??= signed;
        break;
      case 'ITBD':
        // A report may carry interim balances at several moments; the last one is the latest.
        statement.interimBooked = signed;
        break;
    }
    this.balance = null;
    this.balanceDepth = 0;
  }

  // Entries ----------------------------------------------------------------------------------

  private openEntry(depth: number): void {
    this.entryCount += 1;
    this.indexes[depth - 1] = this.entryCount;
    this.entryDepth = depth;
    this.entry = {
      line: this.elementLine,
      xmlPath: this.pathAt(depth),
      entryReference: null,
      amount: null,
      currency: null,
      indicator: null,
      reversal: false,
      status: null,
      bookingDate: null,
      bookingTimeMs: null,
      valueDate: null,
      accountServicerReference: null,
      domainCode: null,
      familyCode: null,
      subFamilyCode: null,
      proprietaryCode: null,
      additionalEntryInformation: null,
      details: [],
      detailCount: 0,
      remittanceWarningGiven: false,
    };
  }

  private readEntryField(entry: EntryState, path: string): void {
    switch (path) {
      case 'NtryRef':
        entry.entryReference = this.nonEmpty();
        break;
      case 'Amt':
        entry.amount = this.amountValue('the amount');
        entry.currency = this.currencyValue();
        break;
      case 'CdtDbtInd':
        entry.indicator = this.indicatorValue();
        break;
      case 'RvslInd': {
        const value = this.value();
        if (value === 'true' || value === '1') entry.reversal = true;
        else if (value === 'false' || value === '0') entry.reversal = false;
        else this.fail(`the reversal indicator ${quoteFound(value)}`, '"true" or "false"');
        break;
      }
      case 'Sts':
      case 'Sts/Cd':
      case 'Sts/Prtry': {
        // From .08 the status is wrapped (`Sts/Cd`); the wrapper's own text is then only blanks.
        const value = this.nonEmpty();
        if (value !== null) entry.status = value;
        break;
      }
      case 'BookgDt/Dt':
        entry.bookingDate = this.dateValue();
        break;
      case 'BookgDt/DtTm': {
        const dateTime = this.dateTimeValue();
        entry.bookingDate = dateTime.date;
        entry.bookingTimeMs = dateTime.epochMs;
        if (dateTime.epochMs === null && !this.zonelessTimeWarningGiven) {
          this.zonelessTimeWarningGiven = true;
          this.warn(
            this.elementLine,
            `the booking date-time ${quoteFound(this.value())} has no time zone, so only its date is kept as the booking date; ` +
              'the same holds for every booking date-time without a zone in this file',
          );
        }
        break;
      }
      case 'ValDt/Dt':
        entry.valueDate = this.dateValue();
        break;
      case 'ValDt/DtTm':
        entry.valueDate = this.dateTimeValue().date;
        break;
      case 'AcctSvcrRef':
        entry.accountServicerReference = this.nonEmpty();
        break;
      case 'BkTxCd/Domn/Cd':
        entry.domainCode = this.nonEmpty();
        break;
      case 'BkTxCd/Domn/Fmly/Cd':
        entry.familyCode = this.nonEmpty();
        break;
      case 'BkTxCd/Domn/Fmly/SubFmlyCd':
        entry.subFamilyCode = this.nonEmpty();
        break;
      case 'BkTxCd/Prtry/Cd':
        entry.proprietaryCode = this.nonEmpty();
        break;
      case 'AddtlNtryInf':
        entry.additionalEntryInformation = this.nonEmpty();
        break;
    }
  }

  private openDetail(depth: number): void {
    const entry = this.entry!;
    entry.detailCount += 1;
    this.indexes[depth - 1] = entry.detailCount;
    this.detailDepth = depth;
    this.detail = emptyTransaction(this.elementLine);
  }

  private readTransactionField(detail: TransactionFields, path: string): void {
    switch (path) {
      case 'Amt':
        detail.amount = this.amountValue('the transaction amount');
        detail.amountCurrency = this.currencyValue();
        break;
      case 'AmtDtls/TxAmt/Amt':
        detail.transactionAmount = this.amountValue('the transaction amount');
        detail.transactionAmountCurrency = this.currencyValue();
        break;
      case 'CdtDbtInd':
        detail.indicator = this.indicatorValue();
        break;
      case 'Refs/AcctSvcrRef':
        detail.accountServicerReference = this.nonEmpty();
        break;
      case 'Refs/EndToEndId': {
        const value = this.nonEmpty();
        detail.endToEndId = value === null || value.toUpperCase() === NOT_PROVIDED ? null : value;
        break;
      }
      case 'RmtInf/Ustrd':
        this.keepListed(detail.remittanceLines, detail);
        break;
      case 'RmtInf/Strd/CdtrRefInf/Ref':
        this.keepListed(detail.creditorReferences, detail);
        break;
      case 'RmtInf/Strd/RfrdDocInf/Nb':
        this.keepListed(detail.documentNumbers, detail);
        break;
      case 'RmtInf/Strd/AddtlRmtInf':
        this.keepListed(detail.structuredTexts, detail);
        break;
      case 'AddtlTxInf':
        detail.additionalTransactionInformation = this.nonEmpty();
        break;
      case 'BkTxCd/Domn/Cd':
        detail.domainCode = this.nonEmpty();
        break;
      case 'BkTxCd/Domn/Fmly/Cd':
        detail.familyCode = this.nonEmpty();
        break;
      case 'BkTxCd/Domn/Fmly/SubFmlyCd':
        detail.subFamilyCode = this.nonEmpty();
        break;
      case 'BkTxCd/Prtry/Cd':
        detail.proprietaryCode = this.nonEmpty();
        break;
      case 'RltdPties/Dbtr/Nm':
      case 'RltdPties/Dbtr/Pty/Nm':
        detail.debtorName = this.nonEmpty();
        break;
      case 'RltdPties/DbtrAcct/Id/IBAN':
      case 'RltdPties/DbtrAcct/Id/Othr/Id':
        detail.debtorAccount ??= this.nonEmpty();
        break;
      case 'RltdPties/Cdtr/Nm':
      case 'RltdPties/Cdtr/Pty/Nm':
        detail.creditorName = this.nonEmpty();
        break;
      case 'RltdPties/CdtrAcct/Id/IBAN':
      case 'RltdPties/CdtrAcct/Id/Othr/Id':
        detail.creditorAccount ??= this.nonEmpty();
        break;
      case 'RltdPties/UltmtDbtr/Nm':
      case 'RltdPties/UltmtDbtr/Pty/Nm':
        detail.ultimateDebtorName = this.nonEmpty();
        break;
      case 'RltdPties/UltmtCdtr/Nm':
      case 'RltdPties/UltmtCdtr/Pty/Nm':
        detail.ultimateCreditorName = this.nonEmpty();
        break;
    }
  }

  /** Adds an element's text to a list of a detail's remittance parts, up to the limit of remittance lines. */
  private keepListed(list: string[], detail: TransactionFields): void {
    const value = this.nonEmpty();
    if (value === null) return;
    if (list.length < CAMT_LIMITS.remittanceLinesLimit) {
      list.push(value);
    } else if (!this.entry!.remittanceWarningGiven) {
      this.entry!.remittanceWarningGiven = true;
      this.warn(
        detail.line,
        `a transaction has more than ${CAMT_LIMITS.remittanceLinesLimit} remittance lines or references; only the first ${CAMT_LIMITS.remittanceLinesLimit} of each kind are kept`,
      );
    }
  }

  private closeDetail(): void {
    const entry = this.entry!;
    // Details beyond the limit are read but not kept: the batch is then kept whole.
    if (entry.details.length < CAMT_LIMITS.detailsPerEntryLimit) entry.details.push(this.detail!);
    this.detail = null;
    this.detailDepth = 0;
  }

  private closeEntry(): void {
    const entry = this.entry!;
    const statement = this.statement!;
    this.entry = null;
    this.entryDepth = 0;
    if (entry.amount === null) this.fail('an entry without <Amt>', 'every <Ntry> to give its amount', entry.line);
    if (entry.indicator === null) {
      this.fail('an entry without <CdtDbtInd>', 'every <Ntry> to say CRDT (money in) or DBIT (money out)', entry.line);
    }
    if (entry.status !== null && entry.status !== BOOKED_STATUS) {
      statement.skippedByStatus.set(entry.status, (statement.skippedByStatus.get(entry.status) ?? 0) + 1);
      return;
    }
    if (entry.bookingDate === null) {
      if (entry.valueDate === null) {
        this.fail(
          'a booked entry without a booking date or a value date',
          'every booked <Ntry> to carry <BookgDt> (or at least <ValDt>) with <Dt> or <DtTm>',
          entry.line,
        );
      }
      // The value date is a date the bank wrote for the entry: the entry is dated by it, and
      // its booking date stays empty rather than invented.
      if (!this.valueDateOnlyWarningGiven) {
        this.valueDateOnlyWarningGiven = true;
        this.warn(
          entry.line,
          `the booked entry at ${entry.xmlPath} has no booking date (<BookgDt>); it is dated by its value date ${entry.valueDate} and its booking date is left empty; ` +
            'the same holds for every such entry in this file',
        );
      }
    }
    const currency = entry.currency ?? this.statementCurrency(statement);
    statement.firstEntryCurrency ??= currency;
    const magnitude = withCurrencyScale(entry.amount, currency);
    const amount = entry.indicator === 'DBIT' ? negateDecimal(magnitude) : magnitude;

    if (entry.details.length >= 2 && this.splitBatch(entry, statement, amount, currency)) return;
    const single = entry.details.length === 1 ? entry.details[0]! : null;
    this.emitEntry(entry, statement, single ?? entry.details, {
      line: entry.line,
      amount,
      currency,
      bankReference: entry.accountServicerReference ?? single?.accountServicerReference ?? null,
      uniqueId: entry.accountServicerReference ?? entry.entryReference,
    });
  }

  /**
   * Splits a batch entry into one entry per detail when every detail carries its own amount
   * and the details add up to the entry; otherwise the entry stays whole. Returns whether it split.
   */
  private splitBatch(entry: EntryState, statement: StatementState, entryAmount: string, entryCurrency: string | null): boolean {
    const where = `the entry at ${entry.xmlPath} (line ${entry.line})`;
    if (entry.detailCount > entry.details.length) {
      this.warn(
        entry.line,
        `${where} has ${entry.detailCount} transaction details, more than the ${CAMT_LIMITS.detailsPerEntryLimit} that can be split; it is imported as one entry`,
      );
      return false;
    }
    const parts: Array<{ detail: TransactionFields; amount: string; currency: string | null }> = [];
    let withoutAmount = 0;
    let otherCurrency: string | null = null;
    for (const detail of entry.details) {
      const raw = detail.amount ?? detail.transactionAmount;
      if (raw === null) {
        withoutAmount += 1;
        continue;
      }
      const currency = (detail.amount !== null ? detail.amountCurrency : detail.transactionAmountCurrency) ?? entryCurrency;
      if (currency !== entryCurrency) otherCurrency ??= currency;
      const magnitude = withCurrencyScale(raw, currency);
      const indicator = detail.indicator ?? entry.indicator;
      parts.push({ detail, amount: indicator === 'DBIT' ? negateDecimal(magnitude) : magnitude, currency });
    }
    if (parts.length === 0) return false;
    if (withoutAmount > 0) {
      this.warn(
        entry.line,
        `${where} has ${entry.details.length} transaction details but only ${parts.length} of them give an amount; it is imported as one entry`,
      );
      return false;
    }
    if (otherCurrency !== null) {
      this.warn(
        entry.line,
        `the transaction details of ${where} are in ${otherCurrency}, not in the entry's currency ${entryCurrency ?? '(none given)'}; it is imported as one entry`,
      );
      return false;
    }
    const sum = withCurrencyScale(addDecimals(...parts.map((part) => part.amount)), entryCurrency);
    if (compareDecimals(sum, entryAmount) !== 0) {
      this.warn(
        entry.line,
        `the ${parts.length} transaction details of ${where} add up to ${sum}, not to the entry's amount ${entryAmount}; it is imported as one entry`,
      );
      return false;
    }
    parts.forEach((part, position) => {
      const ownReference = part.detail.accountServicerReference;
      const batchReference = entry.accountServicerReference ?? entry.entryReference;
      this.emitEntry(entry, statement, part.detail, {
        line: part.detail.line,
        amount: part.amount,
        currency: part.currency,
        bankReference: ownReference ?? entry.accountServicerReference,
        uniqueId: ownReference ?? (batchReference === null ? null : `${batchReference}/${position + 1}`),
      });
    });
    return true;
  }

  /**
   * Builds and queues one entry from the entry's own fields and either a single transaction
   * detail (the detail wins where both give a value, as it is the more specific) or, for a
   * batch kept whole, the list of its details, whose texts go into the description.
   */
  private emitEntry(
    entry: EntryState,
    statement: StatementState,
    detail: TransactionFields | TransactionFields[],
    decided: { line: number; amount: string; currency: string | null; bankReference: string | null; uniqueId: string | null },
  ): void {
    const result: StatementEntry = emptyEntry(decided.line, statement.index, decided.amount);
    result.bookingDate = entry.bookingDate;
    result.bookingTimeMs = entry.bookingTimeMs;
    result.valueDate = entry.valueDate;
    result.currency = decided.currency;
    result.reversal = entry.reversal;
    result.accountId = statement.iban ?? statement.otherAccountId;
    result.statementId = statement.statementId;
    result.bankReference = decided.bankReference;
    result.uniqueId = decided.uniqueId;

    // The ISO domain code wins over a proprietary one, and the detail's over the entry's.
    const single = Array.isArray(detail) ? null : detail;
    const codeSource = single?.domainCode != null ? single : entry.domainCode !== null ? entry : single?.proprietaryCode != null ? single : entry;
    result.bankTransactionCode = bankTransactionCode(codeSource);
    result.type = typeOfCode(codeSource, result.bankTransactionCode);
    const moneyIn = !decided.amount.startsWith('-');

    if (single === null) {
      // A whole entry: its own text, then what each of its details says (a collective booking
      // that lists the payments it holds), so that every payment can be found by its words.
      const details = detail as TransactionFields[];
      const summaries = details.map((part) => detailSummary(part, moneyIn, entry.reversal));
      result.description = this.description(decided.line, [entry.additionalEntryInformation, ...summaries], details.length);
      // One counterparty for the whole entry only when every detail names the same one.
      const parties = new Set(details.map((part) => counterpartyOf(part, moneyIn, entry.reversal).name));
      if (details.length > 0 && parties.size === 1) {
        const party = counterpartyOf(details[0]!, moneyIn, entry.reversal);
        result.counterpartyName = party.name;
        if (new Set(details.map((part) => counterpartyOf(part, moneyIn, entry.reversal).account)).size === 1) result.counterpartyAccount = party.account;
      }
    } else {
      result.endToEndId = single.endToEndId;
      result.reference = referenceOf(single);
      result.description = this.description(decided.line, [remittanceText(single), entry.additionalEntryInformation], 0);
      const party = counterpartyOf(single, moneyIn, entry.reversal);
      result.counterpartyName = party.name;
      result.counterpartyAccount = party.account;
      if (single.ultimateDebtorName !== null) result.ultimateDebtorName = single.ultimateDebtorName;
      if (single.ultimateCreditorName !== null) result.ultimateCreditorName = single.ultimateCreditorName;
    }
    this.events.push({ kind: 'entry', entry: result });
  }

  /**
   * The texts of an entry joined into its description: each part once (a part already contained
   * in the text before it adds nothing), within the length a text column holds; what does not
   * fit is named in a warning, never dropped silently.
   */
  private description(line: number, parts: Array<string | null>, batchDetails: number): string | null {
    let text = '';
    let leftOut = 0;
    for (const part of parts) {
      if (part === null || part === '' || text.includes(part)) continue;
      const joined = text === '' ? part : `${text}${TEXT_SEPARATOR}${part}`;
      if (joined.length > CAMT_LIMITS.descriptionLength) {
        leftOut += 1;
        continue;
      }
      text = joined;
    }
    if (leftOut > 0) {
      this.warn(
        line,
        `the texts of the entry on line ${line} are longer than the ${CAMT_LIMITS.descriptionLength} characters a description holds; ` +
          `${leftOut} of its ${batchDetails > 0 ? `${batchDetails} transactions' texts` : 'texts'} did not fit and are not in its description`,
      );
    }
    return text === '' ? null : text;
  }
}

/** Between the texts of an entry in its description (remittance, additional information, each payment of a batch). */
const TEXT_SEPARATOR = ' / ';

/**
 * The other side of the money: the debtor for money in, the creditor for money out. A reversal
 * undoes an earlier movement and names the parties of that original movement, so the roles are
 * the other way round. Without a name of its own, the side's ultimate party names it.
 */
function counterpartyOf(detail: TransactionFields, moneyIn: boolean, reversal: boolean): { name: string | null; account: string | null } {
  const debtorSide = moneyIn !== reversal;
  return debtorSide
    ? { name: detail.debtorName ?? detail.ultimateDebtorName, account: detail.debtorAccount }
    : { name: detail.creditorName ?? detail.ultimateCreditorName, account: detail.creditorAccount };
}

/** The one reference of a detail: the structured creditor reference, else the first document number, else the end-to-end id. */
function referenceOf(detail: TransactionFields): string | null {
  return detail.creditorReferences[0] ?? detail.documentNumbers[0] ?? detail.endToEndId;
}

/**
 * What a transaction detail says in words: remittance lines, structured remittance (its text,
 * and the document numbers and creditor references other than the one that is the entry's
 * reference), additional information.
 */
function remittanceText(detail: TransactionFields): string | null {
  if (
    detail.structuredTexts.length === 0 &&
    detail.documentNumbers.length === 0 &&
    detail.creditorReferences.length === 0 &&
    detail.additionalTransactionInformation === null
  ) {
    // The usual entry: unstructured lines only.
    return detail.remittanceLines.length === 0 ? null : detail.remittanceLines.join(' ');
  }
  const reference = referenceOf(detail);
  const parts = [
    detail.remittanceLines.join(' '),
    ...detail.structuredTexts,
    ...detail.documentNumbers,
    ...detail.creditorReferences,
    detail.additionalTransactionInformation,
  ];
  let text = '';
  for (const part of parts) {
    if (part === null || part === '' || part === reference || text.includes(part)) continue;
    text = text === '' ? part : `${text} ${part}`;
  }
  return text === '' ? null : text;
}

/** One payment of a batch kept whole, in words: "Counterparty: remittance text". */
function detailSummary(detail: TransactionFields, moneyIn: boolean, reversal: boolean): string | null {
  const name = counterpartyOf(detail, moneyIn, reversal).name;
  const text = [remittanceText(detail), referenceOf(detail)].filter((part) => part !== null).join(' ') || null;
  if (name !== null && text !== null) return `${name}: ${text}`;
  return name ?? text;
}

/**
 * Parses a camt.052, camt.053 or camt.054 message from decoded text, yielding entries as
 * they are read, a statement event after each statement's last entry, and warnings.
 * Throws ImportFormatError (line, XML path, what was found, what was expected) when the file
 * is not a well-formed camt message.
 */
export async function* parseCamt(text: AsyncIterable<string>, options: CamtOptions = {}): AsyncGenerator<ParseEvent> {
  const reader = new CamtReader(options);
  let first = true;
  for await (let chunk of text) {
    if (first && chunk !== '') {
      // A byte-order mark left by a decoder is not part of the XML.
      if (chunk.charCodeAt(0) === 0xfeff) chunk = chunk.slice(1);
      first = false;
    }
    for (let start = 0; start < chunk.length; start += CAMT_LIMITS.sliceLength) {
      reader.write(start === 0 && chunk.length <= CAMT_LIMITS.sliceLength ? chunk : chunk.slice(start, start + CAMT_LIMITS.sliceLength));
      for (const event of reader.takeEvents()) yield event;
    }
  }
  reader.end();
  for (const event of reader.takeEvents()) yield event;
}

const MESSAGE_TAG_PATTERN = /<(?:[A-Za-z_][\w.-]*:)?(BkToCstmrStmt|BkToCstmrAcctRpt|BkToCstmrDbtCdtNtfctn)[\s/>]/;
const CAMT_NAMESPACE_PATTERN = /urn:iso:std:iso:20022:tech:xsd:(camt\.05[234])\.001\.\d{2}/;

/**
 * The camt format of a file from its first characters (decoded as latin1), or null. Only an
 * XML document naming one of the three message elements, or their namespace, is claimed, so
 * OFX 2 (XML), pain or pacs messages, MT940, BAI2 and CSV files are left alone.
 */
export function sniffCamt(head: string): CamtFormat | null {
  const text = sniffableHead(head);
  if (!/^\s*</.test(text)) return null;
  const element = MESSAGE_TAG_PATTERN.exec(text);
  if (element) return MESSAGES[element[1]!]!.format;
  const namespace = CAMT_NAMESPACE_PATTERN.exec(text);
  return namespace ? (namespace[1] as CamtFormat) : null;
}

const XML_DECLARATION_PATTERN = /^\s*<\?xml\s[^>]{0,200}?\bencoding\s*=\s*(["'])([A-Za-z][A-Za-z0-9._-]{0,39})\1/;

/**
 * The encoding named by an XML declaration (`<?xml version="1.0" encoding="ISO-8859-1"?>`)
 * at the start of a file's first characters (decoded as latin1), or null when there is none.
 * The label is returned as written; whether it is supported is the caller's question.
 */
export function declaredXmlEncoding(head: string): string | null {
  const match = XML_DECLARATION_PATTERN.exec(sniffableHead(head));
  return match ? match[2]! : null;
}
