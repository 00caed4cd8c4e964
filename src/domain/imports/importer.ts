import type { Database, Queryable } from '../../db/database.ts';
import { adoptDatasetAccount, lockDataset, markDatasetReceived, type LockedDataset } from '../../db/repositories/datasets.ts';
import {
  addDatasetColumns,
  completeImport,
  failImport,
  markDatasetFile,
  markDatasetImportFailed,
  recordImportProgress,
  type ImportRow,
} from '../../db/repositories/imports.ts';
import { CopiedImportRows, insertStatementRows, type TransactionInsert } from '../../db/repositories/transactions.ts';
import { conflict, importErrors, notFound, quoteInput } from '../../errors.ts';
import type { WriteContext } from '../audit.ts';
import { refuseClosedPeriods } from '../close/closed-periods.ts';
import { recordImportInAudit } from './import-audit.ts';
import { CURRENCY_PATTERN, CUSTOM_COLUMNS_LIMIT, parseColumnValue, STRING_VALUE_MAX_LENGTH, type Column, type ColumnType } from '../catalog/columns.ts';
import { accountForPeople as accountIdForPeople, accountIdOf, IBAN_SHAPE } from '../identifiers.ts';
import { JobInterrupted } from '../jobs/job-queue.ts';
import type { Problems } from '../problems.ts';
import { compareDecimals, addDecimals, DecimalSum, parseMoney } from '../money.ts';
import { isStorableText, unstorableTextProblem } from '../text.ts';
import { chooseEncoding, detectFormat, HEAD_BYTES } from './detect.ts';
import { BankIdRepeated, EntryIdentifier, RepeatedBankIds, SameIdInStatement, type EntryIdentity } from './entry-identity.ts';
import { fileRefused, ImportCountMismatch, importFailureOf } from './import-failure.ts';
export { ImportCountMismatch } from './import-failure.ts';
import { parseBai2 } from './formats/bai2.ts';
import { parseCamt } from './formats/camt.ts';
import { MappingError, parseCsv, previewCsv, type CsvMapping } from './formats/csv/index.ts';
import { detectCsvPreset, parseCsvPreset, PRESET_COLUMNS, type CsvPreset } from './formats/csv/presets.ts';
import { parseOfx } from './formats/ofx.ts';
import { parseSwiftMt } from './formats/swift-mt.ts';
import {
  calendarDateToEpochMs,
  ImportFormatError,
  type ImportFormat,
  type ParseEvent,
  type StatementEntry,
  type StatementSummary,
} from './statement-entries.ts';
import { decodeText, isValidUtf8 } from './text.ts';

/**
 * Turns a file into transactions of a dataset (SPEC §7), all or nothing: the file is read as a
 * stream, entries are stored in batches inside one database transaction, and the import is
 * settled in that same transaction, so a failure or a crash at any point leaves nothing of the
 * file behind. A parser per format (formats/) reads the text; this module decides identity
 * (entry-identity.ts), fills the columns, checks what the store needs, and writes the report.
 */

/** The bank columns of SPEC §7: filled by imports, added to a dataset the first time one is filled. */
export const BANK_COLUMNS: readonly Column[] = [
  { name: 'valueDate', type: 'date' },
  { name: 'bookingDate', type: 'date' },
  { name: 'endToEndId', type: 'string' },
  // Beyond SPEC §7's list: a direct debit's mandate and creditor id (MT940 MREF+/CRED+, /MARF/
  // and /CSID/), so that the collections of one contract can be found and matched by rules.
  { name: 'mandateId', type: 'string' },
  { name: 'creditorId', type: 'string' },
  { name: 'counterpartyName', type: 'string' },
  { name: 'counterpartyAccount', type: 'string' },
  // Beyond SPEC §7's list: the ultimate parties a camt file (or an MT940 ABWA+/ABWE+) names.
  { name: 'ultimateDebtorName', type: 'string' },
  { name: 'ultimateCreditorName', type: 'string' },
  { name: 'accountId', type: 'string' },
  { name: 'statementId', type: 'string' },
  { name: 'bankTransactionCode', type: 'string' },
  // Beyond SPEC §7's list: a reversal (camt RvslInd, MT940 RC/RD) is kept as a column so that
  // it can be searched and used by rules like any other fact of the entry.
  { name: 'reversal', type: 'boolean' },
];

/** A dataset's columns other than the bank columns: those a CSV mapping may fill by name. */
export function withoutBankColumns<C extends { name: string }>(columns: readonly C[]): C[] {
  return columns.filter((column) => !BANK_COLUMNS.some((bank) => bank.name === column.name));
}

/** Rows stored per statement of the batch insert. */
const BATCH_ROWS = 5000;
/** Batches read ahead of the one the database is storing. */
const STORING_BATCHES_LIMIT = 2;
/** Warnings kept in a report; the rest are counted. */
const WARNINGS_LIMIT = 100;
/** Statements listed in a report; a file with more lists the first ones and says so. */
const STATEMENTS_LIMIT = 10_000;
/**
 * Attempts at recording a failed import, and the wait after the first (doubled after each): about
 * three seconds in all, for a database that is busy a moment.
 */
const FAILURE_RECORD_ATTEMPTS = 5;
const FAILURE_RECORD_FIRST_WAIT_MILLISECONDS = 200;
/** How often the rows read so far are written where other processes can see them. */
const PROGRESS_INTERVAL_MILLISECONDS = 1000;
const LATEST_DATE_MS = 253_402_300_799_999;

/** A file to import: its head (to recognise it), its identity, and as many fresh reads as needed. */
export interface ImportFile {
  head: Uint8Array;
  sizeBytes: number;
  sha256: string;
  open(): AsyncIterable<Uint8Array>;
}

export interface ImportSettings {
  format: ImportFormat | null;
  encoding: string | null;
  /** A checked CSV mapping; null lets a CSV whose header names the columns import without one. */
  mapping: CsvMapping | null;
  fileName: string | null;
  /** Statements of an account other than the dataset's are imported too (otherwise a 409). */
  allowOtherAccount: boolean;
}

export interface StatementReport {
  accountId: string | null;
  statementId: string | null;
  currency: string | null;
  openingBalance: { amount: string; date: string | null } | null;
  closingBalance: { amount: string; date: string | null } | null;
  entries: number;
  /** Entries stored as new transactions. */
  inserted: number;
  /** Entries the dataset already held (from an earlier file, or an earlier statement of this file): entries = inserted + duplicates. */
  duplicates: number;
  sumOfEntries: string;
  /** Whether opening + sum of entries = closing; null when the file gives no opening or no closing balance. */
  balanced: boolean | null;
}

interface Warning {
  line: number | null;
  message: string;
}

/**
 * The imports running in this process, with the rows read so far. GET /imports/{id} answers
 * from here while an import runs: on the embedded store a read of the database would wait for
 * the import's transaction, and the answer would come only once the import is over.
 */
export class ImportProgress {
  readonly #running = new Map<string, { organizationId: string; record: ImportRow }>();

  /** The running import as of now, or undefined when it does not run in this process. */
  find(organizationId: string, importId: string): ImportRow | undefined {
    const running = this.#running.get(importId);
    return running?.organizationId === organizationId ? { ...running.record } : undefined;
  }

  /** The organization's imports running in this process as of now. */
  runningIn(organizationId: string): ImportRow[] {
    return [...this.#running.values()].filter((running) => running.organizationId === organizationId).map((running) => ({ ...running.record }));
  }

  begin(organizationId: string, record: ImportRow): void {
    this.#running.set(record.id, { organizationId, record: { ...record } });
  }

  update(importId: string, rowsRead: number, format: string | null, encoding: string | null): void {
    const running = this.#running.get(importId);
    if (running) Object.assign(running.record, { rowsRead, format: format ?? running.record.format, encoding: encoding ?? running.record.encoding });
  }

  end(importId: string): void {
    this.#running.delete(importId);
  }
}

/** The parser of a format, given the settings it needs. */
function parserFor(
  format: ImportFormat,
  text: AsyncIterable<string>,
  mapping: CsvMapping | null,
  customColumns: readonly Column[],
  preset: CsvPreset | null,
): AsyncGenerator<ParseEvent> {
  switch (format) {
    case 'camt.052':
    case 'camt.053':
    case 'camt.054':
      return parseCamt(text, { format });
    case 'mt940':
    case 'mt942':
      return parseSwiftMt(text, { format });
    case 'bai2':
      return parseBai2(text, {});
    case 'ofx':
      return parseOfx(text, {});
    case 'csv':
      return preset !== null ? parseCsvPreset(text, preset) : parseCsv(text, { mapping: mapping!, customColumns });
  }
}

/** The first bytes of a file decoded, for the header of a CSV without a mapping. */
async function headOfText(file: ImportFile, encoding: string): Promise<string> {
  let text = '';
  for await (const chunk of decodeText(limitBytes(file.open(), HEAD_BYTES), encoding, { partial: file.sizeBytes > HEAD_BYTES })) text += chunk;
  return text;
}

async function* limitBytes(bytes: AsyncIterable<Uint8Array>, limit: number): AsyncGenerator<Uint8Array> {
  let taken = 0;
  for await (const chunk of bytes) {
    if (taken >= limit) return;
    const piece = chunk.subarray(0, limit - taken);
    taken += piece.length;
    yield piece;
  }
}

/** What the file turned into. */
interface Outcome {
  rowsRead: number;
  inserted: number;
  duplicates: number;
  statements: StatementReport[];
  /** The run the new transactions queued (rules with runOnIngest), if one was. */
  runId: string | null;
}

/** What an import attempt has learnt so far, for the record of its failure. */
interface Attempt {
  format: ImportFormat | null;
  encoding: string | null;
  rowsRead: number;
  warnings: Warning[];
  warningCount: number;
}

function newAttempt(format: ImportFormat | null): Attempt {
  return { format, encoding: null, rowsRead: 0, warnings: [], warningCount: 0 };
}

/**
 * Called in an import's transaction when it stored new transactions (rules that run on ingest);
 * answers the id of the run that will look at them, if any.
 */
export type NewTransactionsHook = (transaction: Queryable, context: WriteContext) => Promise<string | null>;

export class Importer {
  constructor(
    private readonly database: Database,
    readonly progress: ImportProgress,
    private readonly problems: Problems,
    private readonly afterNewTransactions: NewTransactionsHook = async () => null,
  ) {}

  /**
   * Imports a file into a dataset under an import record already written (status running).
   * Settles the record either way and returns it completed; a failure is settled as failed and
   * thrown as an AppError: 422 for a file that does not follow its format, or the error's own
   * kind (a mapping the file does not fit is a 400, an unknown format a 415).
   */
  async run(context: WriteContext, record: ImportRow, settings: ImportSettings, file: ImportFile, signal?: AbortSignal): Promise<ImportRow> {
    const importId = record.id;
    const state = newAttempt(settings.format);
    let lastProgressMilliseconds = 0;
    let progressWrite: Promise<void> | null = null;
    const reportProgress = (rows: number) => {
      this.progress.update(importId, rows, state.format, state.encoding);
      const now = Date.now();
      // Written outside the import's transaction, without waiting: on the embedded store the
      // write queues behind that transaction and must not hold it up.
      if (now - lastProgressMilliseconds >= PROGRESS_INTERVAL_MILLISECONDS && progressWrite === null) {
        lastProgressMilliseconds = now;
        progressWrite = recordImportProgress(this.database, context.organizationId, importId, rows)
          .catch(() => {})
          .finally(() => (progressWrite = null));
      }
    };
    this.progress.begin(context.organizationId, record);
    try {
      // The rows, the bank columns, the dataset's tracking and the import's own record commit
      // together: the file is imported whole, with its report, or not at all.
      return await this.database.transaction((transaction) => this.#importIn(transaction, context, record, settings, file, state, { reportProgress, signal }));
    } catch (error) {
      await this.#fail(context, importId, record.datasetId, settings, state, error);
      throw describeFailure(importId, error);
    } finally {
      this.progress.end(importId);
    }
  }

  /**
   * Imports a file inside a transaction the caller holds and commits (the demo seed imports its
   * two files in the transaction that creates the demo organization). A failure is thrown and
   * not recorded: the caller's transaction rolls back, the import record with it.
   */
  async runWithin(transaction: Queryable, context: WriteContext, record: ImportRow, settings: ImportSettings, file: ImportFile): Promise<ImportRow> {
    try {
      return await this.#importIn(transaction, context, record, settings, file, newAttempt(settings.format), { reportProgress: () => {} });
    } catch (error) {
      throw describeFailure(record.id, error);
    }
  }

  /** Recognises the file, reads it and stores its entries, and completes the import record. */
  async #importIn(
    transaction: Queryable,
    context: WriteContext,
    record: ImportRow,
    settings: ImportSettings,
    file: ImportFile,
    state: Attempt,
    hooks: { reportProgress: (rows: number) => void; signal?: AbortSignal },
  ): Promise<ImportRow> {
    const warn = (warning: Warning) => {
      state.warningCount += 1;
      if (state.warnings.length < WARNINGS_LIMIT) state.warnings.push({ line: warning.line, message: warning.message });
    };
    const reportProgress = (rows: number) => {
      state.rowsRead = rows;
      hooks.reportProgress(rows);
    };
    const format = detectFormat(file.head, settings.format);
    state.format = format;
    const requestedEncoding = format === 'csv' ? (settings.mapping?.encoding ?? settings.encoding) : settings.encoding;
    const chosen = await chooseEncoding(format, file.head, requestedEncoding, () => isValidUtf8(file.open()));
    state.encoding = chosen.encoding;
    if (chosen.warning) warn({ line: null, message: chosen.warning });
    reportProgress(0);
    const dataset = await lockDataset(transaction, context.organizationId, record.datasetId);
    if (!dataset) throw notFound('dataset', record.datasetId);
    const declared = dataset.columns.map((column) => ({ name: column.name, type: column.type as ColumnType }));
    const customColumns = withoutBankColumns(declared);
    let mapping = settings.mapping;
    // A CSV without a mapping is a provider's report its header names, or a file whose header names the dataset's columns.
    let preset: CsvPreset | null = null;
    if (format === 'csv' && mapping === null) {
      const head = await headOfText(file, chosen.encoding);
      preset = (await detectCsvPreset(head))?.preset ?? null;
      if (preset === null) mapping = await this.#mappingFromHeader(head, file, chosen.encoding, customColumns);
    }
    const read = () => parserFor(format, decodeText(file.open(), chosen.encoding), mapping, customColumns, preset);
    const identity: EntryIdentity = format === 'csv' ? 'as written' : 'bank';
    const storeHooks = {
      warn,
      reportProgress,
      signal: hooks.signal,
      importId: record.id,
      // A CSV (one statement, every row with an id of its own) is written with COPY on PostgreSQL;
      // statement files keep the batched inserts, which count what is stored per statement as they go.
      copy: () => (format === 'csv' ? CopiedImportRows.begin(transaction, context.organizationId, dataset.id, record.id) : Promise.resolve(null)),
      account: () => new AccountCheck(dataset, settings.allowOtherAccount || format === 'csv', format !== 'csv'),
      addable: preset === null ? BANK_COLUMNS : [...BANK_COLUMNS, ...PRESET_COLUMNS],
    };
    let outcome: Outcome;
    // Most files give each entry a bank id of its own, and are read once. A file where an id
    // turns out to repeat within its statement is read again in full to learn every such id
    // (the first entry's id depends on entries after it), and then stored with those ids left
    // out; what the first reading stored is rolled back.
    const warningsBefore = { kept: state.warnings.length, counted: state.warningCount };
    await transaction.query('SAVEPOINT import_entries');
    try {
      outcome = await this.#store(transaction, context, dataset, declared, read(), new EntryIdentifier(identity, null), storeHooks);
    } catch (error) {
      if (!(error instanceof BankIdRepeated)) throw error;
      await transaction.query('ROLLBACK TO SAVEPOINT import_entries');
      state.warnings.length = warningsBefore.kept;
      state.warningCount = warningsBefore.counted;
      const repeated = await findRepeatedBankIds(read(), hooks.signal);
      for (const example of repeated.examples.values()) warn(repeatedIdWarning(example));
      outcome = await this.#store(transaction, context, dataset, declared, read(), new EntryIdentifier(identity, repeated), storeHooks);
    }
    await transaction.query('RELEASE SAVEPOINT import_entries');
    // A file with rows dated in a closed period is refused whole: nothing of it is stored.
    await refuseClosedPeriods(transaction, context.organizationId, { kind: 'import', importId: record.id });
    await markDatasetFile(transaction, context.organizationId, record.datasetId, settings.fileName);
    const completed = await completeImport(transaction, context.organizationId, record.id, {
      format,
      encoding: chosen.encoding,
      rowsRead: outcome.rowsRead,
      inserted: outcome.inserted,
      duplicates: outcome.duplicates,
      statements: outcome.statements,
      warnings: withOverflow(state.warnings, state.warningCount),
      runId: outcome.runId,
    });
    await recordImportInAudit(transaction, context, completed);
    return completed;
  }

  /** A CSV without a mapping imports when its header names the dataset's columns (SPEC §7). */
  async #mappingFromHeader(head: string, file: ImportFile, encoding: string, customColumns: readonly Column[]): Promise<CsvMapping> {
    const preview = await previewCsv(head, { customColumns, encoding, complete: file.sizeBytes <= HEAD_BYTES });
    if (preview.standardHeader && preview.mapping) return preview.mapping;
    throw importErrors.mappingRequired(preview.columns);
  }

  /** Reads the events, stores the entries in batches, and returns what came of the file. */
  async #store(
    transaction: Queryable,
    context: WriteContext,
    dataset: LockedDataset,
    declared: readonly Column[],
    events: AsyncGenerator<ParseEvent>,
    identifier: EntryIdentifier,
    hooks: {
      warn: (warning: Warning) => void;
      reportProgress: (rows: number) => void;
      signal?: AbortSignal;
      importId: string;
      copy: () => Promise<CopiedImportRows | null>;
      account: () => AccountCheck;
      /** The columns the import adds to the dataset the first time it fills them. */
      addable: readonly Column[];
    },
  ): Promise<Outcome> {
    const datasetId = dataset.id;
    const account = hooks.account();
    const copied = await hooks.copy();
    const columns = new BankColumnUse(declared, hooks.addable);
    const statements: StatementReport[] = [];
    const sums = new Map<number, { entries: number; sum: DecimalSum }>();
    const ledger = new StatementLedger();
    let batch: TransactionInsert[] = [];
    let batchStatements: number[] = [];
    let rowsRead = 0;
    let inserted = 0;
    let duplicates = 0;
    let latestTimestampMs: number | null = null;
    const copiedStatement = 0;

    // Batches are stored while the next ones are read: the database inserts while this thread
    // parses. The database takes one statement at a time on the import's connection, so
    // batches are chained one after the other; up to STORING_BATCHES_LIMIT wait their turn (the
    // parser runs ahead by that much, and no further, which bounds memory). A failure of any
    // surfaces at the next flush or at the end.
    let storing: Promise<void> = Promise.resolve();
    let waiting = 0;
    const flush = async () => {
      if (batch.length === 0) return;
      if (hooks.signal?.aborted) throw new JobInterrupted('the import was interrupted');
      const rows = batch;
      const rowStatements = batchStatements;
      batch = [];
      batchStatements = [];
      if (waiting >= STORING_BATCHES_LIMIT) await storing;
      waiting += 1;
      storing = storing.then(async () => {
        if (copied) {
          if (rowStatements.some((statement) => statement !== copiedStatement)) throw new Error('copied rows must all be of the first statement');
          await copied.add(rows);
          waiting -= 1;
          return;
        }
        const stored = await insertStatementRows(transaction, context.organizationId, datasetId, rows, rowStatements, hooks.importId);
        waiting -= 1;
        for (const part of stored.stored) {
          ledger.stored(part.statement, part.inserted, part.known);
          inserted += part.inserted;
          duplicates += part.known;
        }
        // A row whose externalId an earlier row of the same batch had is the transaction that
        // row stored or found: the identifier lets that happen only across statements (a
        // report repeating an earlier report's entries), so it is known.
        for (const statement of stored.repeatsInBatch) {
          ledger.stored(statement, 0, 1);
          duplicates += 1;
        }
        if (stored.latestTimestampMs !== null) latestTimestampMs = Math.max(latestTimestampMs ?? 0, stored.latestTimestampMs);
      });
      // Observed at the next flush or at the end; a parse error thrown first must not leave it unhandled.
      storing.catch(() => {});
    };

    try {
      for await (const event of events) {
        if (event.kind === 'warning') {
          hooks.warn({ line: event.line, message: event.message });
        } else if (event.kind === 'statement') {
          account.check(event.statement.accountId, event.statement.currency, event.statement.line);
          const totals = sums.get(event.statement.statementIndex) ?? { entries: 0, sum: new DecimalSum() };
          sums.delete(event.statement.statementIndex);
          ledger.summarised(event.statement.statementIndex, statements.length < STATEMENTS_LIMIT ? statements.length : null);
          if (statements.length < STATEMENTS_LIMIT) statements.push(statementReport(event.statement, totals.entries, totals.sum.total));
          else if (statements.length === STATEMENTS_LIMIT)
            hooks.warn({
              line: event.statement.line,
              message: `the file has more than ${STATEMENTS_LIMIT} statements; the report lists the first ${STATEMENTS_LIMIT}`,
            });
        } else {
          const entry = event.entry;
          // Checked at the first entry already, so that a file for another account is refused
          // before it is read to its end.
          if (entry.accountId !== null) account.check(entry.accountId, null, entry.line);
          batch.push(rowOf(entry, identifier, columns));
          batchStatements.push(entry.statementIndex);
          ledger.read(entry.statementIndex);
          let totals = sums.get(entry.statementIndex);
          if (!totals) sums.set(entry.statementIndex, (totals = { entries: 0, sum: new DecimalSum() }));
          totals.entries += 1;
          totals.sum.add(entry.amount);
          rowsRead += 1;
          if (batch.length >= BATCH_ROWS) {
            await flush();
            hooks.reportProgress(rowsRead);
          }
        }
      }
      await flush();
      await storing;
      if (copied) {
        const stored = copied.finish();
        ledger.stored(copiedStatement, stored.inserted, stored.known);
        inserted += stored.inserted;
        duplicates += stored.known;
        latestTimestampMs = stored.latestTimestampMs;
      }
    } catch (error) {
      // Batches already chained must not reach the connection once the transaction has
      // ended (they would run outside it and stay): wait until they have run, then fail.
      await storing.catch(() => {});
      throw describeSameId(error, identifier);
    }
    ledger.check(statements);
    hooks.reportProgress(rowsRead);
    const added = columns.added();
    if (declared.length + added.length > CUSTOM_COLUMNS_LIMIT) {
      throw conflict(
        `the import would add the bank columns ${added.map((column) => column.name).join(', ')}, which takes the dataset beyond ${CUSTOM_COLUMNS_LIMIT} columns; create a dataset for this file`,
      );
    }
    await addDatasetColumns(transaction, context.organizationId, datasetId, added);
    const adopted = account.adopted();
    if (adopted) await adoptDatasetAccount(transaction, context.organizationId, datasetId, adopted);
    const severalAccounts = account.severalAccounts();
    if (severalAccounts) hooks.warn({ line: null, message: severalAccounts });
    await markDatasetReceived(transaction, context.organizationId, datasetId, { actor: context.actor, changed: inserted > 0, latestTimestampMs });
    const runId = inserted > 0 ? await this.afterNewTransactions(transaction, context) : null;
    return { rowsRead, inserted, duplicates, statements, runId };
  }

  /**
   * Records a failed import, with its error, and counts it on its dataset, in one transaction
   * outside the import's (which rolled back). The database may be busy a moment (another import
   * holds the dataset past the statement timeout), so the recording is tried again; should it
   * still not go through, the import's own record is written alone, and whatever could not be
   * recorded is reported to the server's log. The caller's answer is the import's error either way.
   */
  async #fail(context: WriteContext, importId: string, datasetId: string, settings: ImportSettings, state: Attempt, error: unknown): Promise<void> {
    // An interrupted import is not failed: its job runs it again.
    if (error instanceof JobInterrupted) return;
    const failure = {
      format: state.format,
      encoding: state.encoding,
      rowsRead: state.rowsRead,
      warnings: withOverflow(state.warnings, state.warningCount),
      error: importFailureOf(error),
    };
    const facts = { organizationId: context.organizationId, importId, datasetId };
    let lastError: unknown;
    for (let attempt = 1; attempt <= FAILURE_RECORD_ATTEMPTS; attempt++) {
      try {
        await this.database.transaction(async (transaction) => {
          const failed = await failImport(transaction, context.organizationId, importId, failure);
          if (failed) {
            await markDatasetImportFailed(transaction, context.organizationId, datasetId, settings.fileName);
            await recordImportInAudit(transaction, context, failed);
          }
        });
        return;
      } catch (recordError) {
        lastError = recordError;
        if (attempt < FAILURE_RECORD_ATTEMPTS) await new Promise((resolve) => setTimeout(resolve, FAILURE_RECORD_FIRST_WAIT_MILLISECONDS * 2 ** (attempt - 1)));
      }
    }
    try {
      await failImport(this.database, context.organizationId, importId, failure);
      this.problems.report("a failed import was recorded, but its dataset's failures could not be counted", lastError, facts);
    } catch (recordError) {
      // The import stays running until its job is failed, which settles it as interrupted.
      this.problems.report('a failed import could not be recorded; it shows as interrupted once its job ends', recordError, facts);
    }
  }
}

function withOverflow(warnings: Warning[], count: number): Warning[] {
  return count > warnings.length ? [...warnings, { line: null, message: `${count - warnings.length} more warnings are not listed` }] : warnings;
}

/** The error an import's caller sees: the file's problem as a 422 that names the import, others as they are. */
function describeFailure(importId: string, error: unknown): unknown {
  if (error instanceof ImportFormatError) return fileRefused(error, `import ${importId} failed, nothing of the file was stored`);
  if (error instanceof MappingError) {
    return importErrors.importMappingFailed(importId, error.path, error.message);
  }
  return error;
}

function statementReport(statement: StatementSummary, entries: number, sumOfEntries: string): StatementReport {
  const opening = statement.openingBalance;
  const closing = statement.closingBalance;
  return {
    accountId: statement.accountId,
    statementId: statement.statementId,
    currency: statement.currency,
    openingBalance: opening,
    closingBalance: closing,
    entries,
    // Settled once every batch is stored (StatementLedger.check).
    inserted: 0,
    duplicates: 0,
    sumOfEntries,
    balanced: opening && closing ? compareDecimals(addDecimals(opening.amount, sumOfEntries), closing.amount) === 0 : null,
  };
}

/** An account as compared: without spaces, in capitals (an IBAN is written either way). */
const accountKey = accountIdOf;

/** An account for people: an IBAN in groups of four, as banks print it; anything else as it is. */
export function accountForPeople(accountId: string): string {
  const key = accountKey(accountId);
  return IBAN_SHAPE.test(key) ? accountIdForPeople(key) : accountId;
}

/**
 * The dataset's account against the statements of a file: a dataset holds the statements of one
 * account. A statement of an account other than the dataset's is refused unless the import
 * allows it, since it would otherwise mix two accounts' entries without a word. A dataset without
 * an account takes the file's, with its currency, when the file is of one account; a file of
 * several accounts (banks write BAI2 and OFX files that way) is imported as it was written, and
 * the dataset is left without an account, which the report's warning says.
 */
class AccountCheck {
  readonly #datasetKey: string | null;
  /** The accounts of the file, by key, with the first currency given for each. */
  readonly #seen = new Map<string, { accountId: string; currency: string | null }>();

  /**
   * `statement`: whether the file is a bank's statement. A CSV is not checked and tells the dataset
   * nothing: the account column a mapping fills may hold a ledger's accounts, many in one file.
   */
  constructor(
    private readonly dataset: LockedDataset,
    private readonly allowOther: boolean,
    private readonly statement: boolean,
  ) {
    this.#datasetKey = dataset.accountId === null ? null : accountKey(dataset.accountId);
  }

  check(accountId: string | null, currency: string | null, line: number): void {
    if (!this.statement || accountId === null || accountId.trim() === '') return;
    const key = accountKey(accountId);
    const seen = this.#seen.get(key);
    if (!seen) this.#seen.set(key, { accountId: key, currency: currency !== null && /^[A-Z]{3}$/.test(currency) ? currency : null });
    else if (seen.currency === null && currency !== null && /^[A-Z]{3}$/.test(currency)) seen.currency = currency;
    if (this.#datasetKey === null || key === this.#datasetKey || this.allowOther) return;
    throw importErrors.otherAccount(accountForPeople(key), line, this.dataset.name, accountForPeople(this.#datasetKey));
  }

  /** What the dataset takes from the file: its account when it had none, its currency when it had none; null for nothing. */
  adopted(): { accountId: string | null; currency: string | null } | null {
    if (this.#datasetKey === null) {
      const only = this.#seen.size === 1 ? [...this.#seen.values()][0]! : null;
      // An id longer than the column takes is no account number a bank gives.
      return only !== null && only.accountId.length <= 100 ? only : null;
    }
    const own = this.#seen.get(this.#datasetKey);
    return this.dataset.currency === null && own?.currency ? { accountId: null, currency: own.currency } : null;
  }

  /** A warning for a file of several accounts imported into a dataset without one; null otherwise. */
  severalAccounts(): string | null {
    if (this.#datasetKey !== null || this.#seen.size < 2) return null;
    const listed = [...this.#seen.keys()].slice(0, 5).map(accountForPeople).join(', ');
    return (
      `the file holds statements of ${this.#seen.size} accounts (${listed}${this.#seen.size > 5 ? ', ...' : ''}), so the dataset was given no account; ` +
      "a later file is checked against the dataset's account only once it has one (set it by changing the dataset)"
    );
  }
}

/**
 * Which bank columns an import fills, and whether the dataset can take them: a dataset column of
 * the same name must have the same type (a dataset made for another purpose that has a
 * "valueDate" of type string cannot take dates).
 */
class BankColumnUse {
  readonly #declared: Map<string, Column>;
  readonly #used = new Set<string>();

  /** `addable`: the bank columns, and a preset's columns when a provider's report is read with one. */
  constructor(
    declared: readonly Column[],
    private readonly addable: readonly Column[] = BANK_COLUMNS,
  ) {
    this.#declared = new Map(declared.map((column) => [column.name.toLowerCase(), column]));
  }

  use(name: string, line: number): void {
    if (this.#used.has(name)) return;
    const bank = this.addable.find((column) => column.name === name)!;
    const existing = this.#declared.get(name.toLowerCase());
    if (existing && (existing.name !== bank.name || existing.type !== bank.type)) {
      throw new ImportFormatError(
        { line },
        `a ${bank.type} for the bank column "${bank.name}"`,
        `a dataset whose column "${existing.name}" (${existing.type}) does not stand in its way; import into a dataset without that column`,
      );
    }
    this.#used.add(name);
  }

  /** The type of a column the dataset declares, or of one this import may add (which it then adds). */
  typeOf(name: string, line: number): ColumnType | undefined {
    const column = this.#declared.get(name.toLowerCase());
    if (column?.name === name) return column.type;
    const addable = this.addable.find((candidate) => candidate.name === name);
    if (addable === undefined || column !== undefined) return undefined;
    this.use(name, line);
    return addable.type;
  }

  /** The bank (or preset) columns filled by this import that the dataset did not declare yet. */
  added(): Column[] {
    return this.addable.filter((column) => this.#used.has(column.name) && !this.#declared.has(column.name.toLowerCase()));
  }
}

const STRING_COLUMNS = [
  'endToEndId',
  'mandateId',
  'creditorId',
  'counterpartyName',
  'counterpartyAccount',
  'ultimateDebtorName',
  'ultimateCreditorName',
  'accountId',
  'statementId',
  'bankTransactionCode',
] as const;

/** A text of the file as the store takes it: storable, and within the length of a text column. */
function text(value: string | null, line: number, column: string): string | null {
  if (value === null || value === '') return null;
  if (!isStorableText(value))
    throw new ImportFormatError(
      { line, column },
      'a character that cannot be stored',
      `text that ${unstorableTextProblem(value).replace(/^must not/, 'does not')}`,
    );
  if (value.length > STRING_VALUE_MAX_LENGTH) {
    throw new ImportFormatError({ line, column }, `a text of ${value.length} characters`, `at most ${STRING_VALUE_MAX_LENGTH} characters`);
  }
  return value;
}

function dateMs(date: string | null): number | null {
  return date === null ? null : calendarDateToEpochMs(date);
}

/** One entry as a row of the transactions table. */
function rowOf(entry: StatementEntry, identifier: EntryIdentifier, columns: BankColumnUse): TransactionInsert {
  const line = entry.line;
  const amount = parseMoney(entry.amount);
  if (amount === null)
    throw new ImportFormatError({ line, column: 'amount' }, quoteInput(entry.amount), 'an amount of at most 18 digits before the decimal point and 6 after');
  if (entry.currency !== null && !CURRENCY_PATTERN.test(entry.currency)) {
    throw new ImportFormatError({ line, column: 'currency' }, quoteInput(entry.currency), 'a currency code such as "EUR"');
  }
  const timestampMs = entry.bookingTimeMs ?? dateMs(entry.bookingDate) ?? dateMs(entry.valueDate);
  if (timestampMs === null) throw new ImportFormatError({ line }, 'an entry without a booking date or value date', 'every entry to carry its date');
  if (timestampMs < 0 || timestampMs > LATEST_DATE_MS)
    throw new ImportFormatError({ line }, `a date outside 1970–9999 (${entry.bookingDate ?? entry.valueDate})`, 'a date from 1970 on');

  const custom: Record<string, string | number | boolean> = {};
  for (const [name, date] of [
    ['valueDate', entry.valueDate],
    ['bookingDate', entry.bookingDate],
  ] as const) {
    if (date !== null) {
      columns.use(name, line);
      custom[name] = calendarDateToEpochMs(date);
    }
  }
  for (const name of STRING_COLUMNS) {
    const value = text(entry[name] ?? null, line, name);
    if (value !== null) {
      columns.use(name, line);
      custom[name] = value;
    }
  }
  if (entry.reversal) {
    columns.use('reversal', line);
    custom.reversal = true;
  }
  for (const [name, value] of Object.entries(entry.extra)) {
    // A custom column's value is stored as ingest stores it (dates as epoch milliseconds).
    const type = columns.typeOf(name, line);
    const parsed = type === undefined ? null : parseColumnValue(type, typeof value === 'string' ? text(value, line, name) : value);
    if (parsed === null || !parsed.ok) {
      throw new ImportFormatError(
        { line, column: name },
        quoteInput(String(value)),
        type === undefined ? 'a column of the dataset' : `a value for the ${type} column "${name}"`,
      );
    }
    custom[name] = parsed.value;
  }
  return {
    externalId: identifier.identify(entry),
    timestampMs,
    description: text(entry.description, line, 'description'),
    type: text(entry.type, line, 'type'),
    reference: text(entry.reference, line, 'reference'),
    bankReference: text(entry.bankReference, line, 'bankReference'),
    currency: entry.currency,
    amount,
    custom,
  };
}

/**
 * The count every statement of an import must satisfy before the import may commit: each entry
 * read was either stored as a new transaction or matched to a transaction the dataset already
 * held, one for one. Counts are kept per statement index in typed arrays (a file may hold very
 * many statements); only the first STATEMENTS_LIMIT are listed in the report, but all are checked.
 */
export class StatementLedger {
  #read = new Uint32Array(16);
  #inserted = new Uint32Array(16);
  #known = new Uint32Array(16);
  /** Position of the statement in the report's list, plus one (0: not listed). */
  #listed = new Uint32Array(16);
  #count = 0;

  read(statement: number): void {
    this.#reach(statement);
    this.#read[statement]! += 1;
  }

  stored(statement: number, inserted: number, known: number): void {
    this.#reach(statement);
    this.#inserted[statement]! += inserted;
    this.#known[statement]! += known;
  }

  summarised(statement: number, position: number | null): void {
    this.#reach(statement);
    if (position !== null) this.#listed[statement] = position + 1;
  }

  /**
   * Fills the listed statements' counts, and fails the import when any statement's entries are
   * not all stored or known: a report whose counts did not add up would hide lost entries.
   */
  check(reports: StatementReport[]): void {
    for (let statement = 0; statement < this.#count; statement++) {
      const read = this.#read[statement]!;
      const inserted = this.#inserted[statement]!;
      const known = this.#known[statement]!;
      if (read !== inserted + known) {
        throw new ImportCountMismatch(
          `statement ${statement + 1} of the file has ${read} entries, but ${inserted} were stored and ${known} matched transactions the dataset already held; ` +
            'the import was stopped and nothing of the file was stored',
        );
      }
      const listed = this.#listed[statement]!;
      if (listed > 0) Object.assign(reports[listed - 1]!, { inserted, duplicates: known });
    }
  }

  #reach(statement: number): void {
    if (statement >= this.#read.length) {
      let length = this.#read.length;
      while (length <= statement) length *= 2;
      const grow = (array: Uint32Array) => {
        const larger = new Uint32Array(length);
        larger.set(array);
        return larger;
      };
      this.#read = grow(this.#read);
      this.#inserted = grow(this.#inserted);
      this.#known = grow(this.#known);
      this.#listed = grow(this.#listed);
    }
    this.#count = Math.max(this.#count, statement + 1);
  }
}

/** Reads a file once without storing it, to learn which bank ids repeat within their statement. */
async function findRepeatedBankIds(events: AsyncGenerator<ParseEvent>, signal: AbortSignal | undefined): Promise<RepeatedBankIds> {
  const repeated = new RepeatedBankIds();
  for await (const event of events) {
    if (event.kind !== 'entry') continue;
    if (signal?.aborted) throw new JobInterrupted('the import was interrupted');
    repeated.note(event.entry);
  }
  return repeated;
}

function repeatedIdWarning(example: { statementIndex: number; id: string; firstLine: number; line: number; count: number }): Warning {
  const others = example.count > 1 ? ` (and ${example.count - 1} more ${example.count === 2 ? 'repeat' : 'repeats'} in the statement)` : '';
  return {
    line: example.firstLine,
    message:
      `statement ${example.statementIndex + 1}: the bank's id ${quoteInput(example.id)} is given to the entries of lines ${example.firstLine} and ${example.line}${others}; ` +
      'entries whose id is not unique in their statement are identified by their content instead, and all are imported',
  };
}

/** Two rows of one file under one id: for a CSV, the mapping's id columns do not identify rows; otherwise a fault of the import itself. */
function describeSameId(error: unknown, identifier: EntryIdentifier): unknown {
  if (!(error instanceof SameIdInStatement)) return error;
  if (identifier.identity === 'as written') {
    return new ImportFormatError(
      { line: error.line },
      `the externalId ${quoteInput(error.externalId)}, which line ${error.firstLine} already has`,
      "an id of each row of its own: the mapping's externalId columns must tell every row of the file apart (add a column such as a line or posting number), or leave externalId out so that rows are identified by their content",
    );
  }
  return new ImportCountMismatch(`${error.message}; the import was stopped and nothing of the file was stored`);
}

/**
 * The accounts of a bank statement file, in the order its statements name them (without
 * repeats), as compared (accountIdOf); read before an import, to route the file to the dataset of
 * its account. A CSV names none: the account column a mapping fills may hold a ledger's accounts.
 * Throws as an import would for a file that is not a statement of a known format.
 */
export async function statementAccountsOf(file: ImportFile, requested: ImportFormat | null): Promise<{ format: ImportFormat; accounts: string[] }> {
  const format = detectFormat(file.head, requested);
  if (format === 'csv') return { format, accounts: [] };
  const chosen = await chooseEncoding(format, file.head, null, () => isValidUtf8(file.open()));
  const accounts = new Set<string>();
  for await (const event of parserFor(format, decodeText(file.open(), chosen.encoding), null, [], null)) {
    if (event.kind === 'statement' && event.statement.accountId !== null && event.statement.accountId.trim() !== '') {
      accounts.add(accountKey(event.statement.accountId));
    }
  }
  return { format, accounts: [...accounts] };
}
