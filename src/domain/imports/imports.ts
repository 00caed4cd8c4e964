import { randomUUID } from 'node:crypto';
import type { Database, Queryable } from '../../db/database.ts';
import { findDatasetSchema } from '../../db/repositories/transaction-query.ts';
import {
  deleteImportFile,
  deleteImportMapping,
  findImport,
  findImportMapping,
  findImportToRun,
  failImport,
  insertImport,
  insertImportFileChunk,
  listImportMappings,
  listImports,
  markDatasetImportFailed,
  readImportFileChunks,
  upsertImportMapping,
  type ImportMappingRow,
  type ImportRow,
} from '../../db/repositories/imports.ts';
import { AppError, importErrors, invalidFieldIn, listErrors, notFound, quoteInput } from '../../errors.ts';
import { pageOf, pageSize, readCursor, rowsToFetch, textCursors, type CreatedPosition } from '../pages.ts';
import type { WriteContext } from '../audit.ts';
import { recordImportInAudit } from './import-audit.ts';
import type { Column } from '../catalog/columns.ts';
import { JobInterrupted, PermanentJobFailure, type JobQueue } from '../jobs/job-queue.ts';
import { checkCsvMapping, MappingError, previewCsv, type CsvMapping, type CsvPreview } from './formats/csv/index.ts';
import { checkRows, headerFits, type CheckedRows } from './formats/csv/check-rows.ts';
import { Importer, withoutBankColumns, ImportProgress, type ImportFile, type ImportSettings, type NewTransactionsHook } from './importer.ts';
import { IMPORT_FORMATS, ImportFormatError, type ImportFormat } from './statement-entries.ts';
import { fileRefused, importFailureOf, SERVER_STOPPED, UPLOAD_INTERRUPTED, type ImportFailure } from './import-failure.ts';
import type { Problems } from '../problems.ts';
import { chooseEncoding } from './detect.ts';
import { decodeText } from './text.ts';
import { spoolUpload, type SpooledUpload } from './spooled-file.ts';

/** An import as stored and reported; the transport answers a replayed upload with it. */
export type { ImportRow };

/** The job kind of an import answered asynchronously (Prefer: respond-async). */
export const IMPORT_JOB = 'import';

/** Bytes of an asynchronous import's file per stored chunk. */
const STORED_CHUNK_BYTES = 1024 * 1024;
export const IMPORTS_PAGE_SIZE = pageSize(50, 200);
export const MAPPING_NAME_PATTERN = /^[A-Za-z0-9][A-Za-z0-9 ._-]{0,99}$/;

export interface ImportRequest {
  datasetId: string;
  format: ImportFormat | null;
  encoding: string | null;
  fileName: string | null;
  /** A mapping sent with the file (JSON, checked here). */
  mapping: unknown;
  /** The name of a mapping saved on the dataset. */
  mappingName: string | null;
  /** The id the import gets (chosen beforehand when an Idempotency-Key must remember it). */
  importId?: string;
  /** Statements of an account other than the dataset's are imported too (otherwise a 409). */
  allowOtherAccount?: boolean;
}

/** The preview of a CSV file, with its first rows read one by one with a mapping. */
export interface ImportPreview extends CsvPreview {
  /** The mapping saved on the dataset for a file of this header (the newest that fits), when no mapping was sent. */
  savedMapping: { name: string; mapping: unknown } | null;
  /** The header under the mapping's settings. */
  checkedColumns: string[];
  /** The first rows read with the mapping sent, else the saved one, else the proposed one. */
  checkedRows: CheckedRows['rows'];
  /** What stops that mapping from reading the file at all. */
  mappingProblem: CheckedRows['problem'];
}

export interface ImportPage {
  imports: ImportRow[];
  nextCursor: string | null;
}

/** Checks the name a file was sent under: a name, not a path. */
export function checkFileName(name: string | null): string | null {
  if (name === null || name === '') return null;
  if (name.length > 255 || /[/\\\u0000-\u001f]/.test(name) || name === '.' || name === '..') {
    throw invalidFieldIn(
      'query',
      'fileName',
      `${quoteInput(name)} is not a file name: it must be at most 255 characters without "/", "\\" or control characters (send the name, not a path)`,
    );
  }
  return name;
}

export function checkFormat(format: string | null): ImportFormat | null {
  if (format === null || format === '') return null;
  if (!(IMPORT_FORMATS as readonly string[]).includes(format)) {
    throw invalidFieldIn('query', 'format', `must be one of ${IMPORT_FORMATS.join(', ')}, or left out to detect the format from the file`);
  }
  return format as ImportFormat;
}

/** The imports list's cursors: its (created at, id) position as JSON. */
const IMPORTS_CURSORS = textCursors<CreatedPosition>('i1.', {
  write: (position) => JSON.stringify({ createdAt: position.createdAt, id: position.id }),
  read: (text) => {
    let position: { createdAt?: unknown; id?: unknown } | null;
    try {
      position = JSON.parse(text) as { createdAt?: unknown; id?: unknown } | null;
    } catch {
      return null;
    }
    return typeof position?.createdAt === 'string' && typeof position.id === 'string' && /^[0-9a-f-]{36}$/.test(position.id)
      ? { createdAt: position.createdAt, id: position.id }
      : null;
  },
  refusal: listErrors.importsCursorNotOurs,
});

/**
 * File imports (SPEC §7): started synchronously (201 with the report) or as a job of the queue
 * (202; any process runs it from the copy of the file kept in the database), listed and shown,
 * with the CSV mappings saved on datasets and the preview that proposes one.
 */
export class Imports {
  readonly progress = new ImportProgress();
  readonly #importer: Importer;

  constructor(
    private readonly database: Database,
    private readonly jobs: JobQueue,
    problems: Problems,
    afterNewTransactions?: NewTransactionsHook,
  ) {
    this.#importer = new Importer(database, this.progress, problems, afterNewTransactions);
    jobs.register(
      IMPORT_JOB,
      (job, context) => this.#runJob(String(job.organizationId), String(job.payload.importId), job.payload.stored === true, context.signal),
      {
        maxAttempts: 3,
      },
    );
  }

  /** The mapping an import uses: the one sent with the file, or the one saved under its name. */
  async #resolveMapping(organizationId: string, request: ImportRequest, database: Queryable = this.database): Promise<CsvMapping | null> {
    const customColumns = await customColumnsOf(database, organizationId, request.datasetId);
    if (request.mapping !== undefined && request.mapping !== null && request.mappingName !== null) {
      throw invalidFieldIn('query', 'mapping', 'send either a mapping with the file or the name of a saved one, not both');
    }
    let mapping: unknown = request.mapping ?? null;
    if (request.mappingName !== null) {
      const saved = await findImportMapping(database, organizationId, request.datasetId, request.mappingName);
      if (!saved)
        throw invalidFieldIn(
          'query',
          'mapping',
          `the dataset has no mapping named ${quoteInput(request.mappingName)}; save a mapping under that name on the dataset first`,
        );
      mapping = saved.mapping;
    }
    return mapping === null ? null : checkMappingFor(mapping, customColumns);
  }

  /**
   * The mapping an import uses. One that cannot be used refuses the file before it is read, and
   * the refusal is listed like any failed import, with its error (SPEC §7).
   */
  async #mappingOf(context: WriteContext, request: ImportRequest, file: ImportFile, importId: string): Promise<CsvMapping | null> {
    try {
      return await this.#resolveMapping(context.organizationId, request);
    } catch (error) {
      if (!(error instanceof AppError) || error.kind !== 'invalid_request') throw error;
      const refusal = importErrors.importRefused(importId, error);
      await this.database.transaction(async (transaction) => {
        await this.#insertRecord(context, request, file, null, null, importId, transaction);
        const failed = await failImport(transaction, context.organizationId, importId, {
          format: request.format,
          encoding: request.encoding,
          rowsRead: 0,
          warnings: [],
          // Every refusal here is of the mapping: its own problems, or a saved mapping's name that is unknown.
          error: { ...importFailureOf(error), reason: 'mapping' },
        });
        await markDatasetImportFailed(transaction, context.organizationId, request.datasetId, request.fileName);
        if (failed) await recordImportInAudit(transaction, context, failed);
      });
      throw refusal;
    }
  }

  /** Imports a file now and answers with the report (201). */
  async importNow(context: WriteContext, request: ImportRequest, file: ImportFile): Promise<ImportRow> {
    const importId = request.importId ?? randomUUID();
    const mapping = await this.#mappingOf(context, request, file, importId);
    let result: ImportRow | null = null;
    // The import is a job held by this process, so that a crash leaves a job whose lease runs
    // out: whichever process finds it marks the import failed (the file was never stored).
    try {
      await this.jobs.runHere({ organizationId: context.organizationId, kind: IMPORT_JOB, payload: { importId, stored: false } }, async (jobId, signal) => {
        const record = await this.#insertRecord(context, request, file, mapping, jobId, importId);
        result = await this.#importer.run(context, record, settingsOf(request, mapping), file, signal);
      });
    } catch (error) {
      // The process is stopping, or it was too busy to renew the job's lease and another process
      // took the job over: the import's transaction rolled back, so nothing of the file was
      // stored and sending it again is safe. The caller is told that, not "internal error".
      if (error instanceof JobInterrupted) {
        throw importErrors.interrupted();
      }
      throw error;
    }
    return result!;
  }

  /**
   * Imports a file inside a transaction the caller holds (the demo seed creates its organization
   * and imports its files in one transaction). Nothing is queued; a failure rolls the caller's
   * transaction back, the import record with it.
   */
  async importWithin(transaction: Queryable, context: WriteContext, request: ImportRequest, file: ImportFile): Promise<ImportRow> {
    const mapping = await this.#resolveMapping(context.organizationId, request, transaction);
    const record = await this.#insertRecord(context, request, file, mapping, null, request.importId, transaction);
    return this.#importer.runWithin(transaction, context, record, settingsOf(request, mapping), file);
  }

  /**
   * Keeps the file in the database and queues its import (202). While the file is stored, this
   * process holds the job by its lease; should the process die in the middle, the lease runs out
   * (JOB_LEASE_SECONDS) and whichever process takes the job finds the file incomplete and fails
   * the import with a message saying so.
   */
  async importLater(context: WriteContext, request: ImportRequest, file: ImportFile): Promise<ImportRow> {
    const importId = request.importId ?? randomUUID();
    const mapping = await this.#mappingOf(context, request, file, importId);
    const { record, jobId } = await this.database.transaction(async (transaction) => {
      const held = await this.jobs.enqueueHeld(transaction, { organizationId: context.organizationId, kind: IMPORT_JOB, payload: { importId, stored: true } });
      return { record: await this.#insertRecord(context, request, file, mapping, held, importId, transaction), jobId: held };
    });
    const handedOver = await this.jobs.prepare(jobId, async () => {
      let ordinal = 0;
      let pending: Buffer[] = [];
      let pendingBytes = 0;
      const store = async () => {
        await insertImportFileChunk(this.database, context.organizationId, importId, ordinal++, Buffer.concat(pending, pendingBytes));
        pending = [];
        pendingBytes = 0;
      };
      for await (const chunk of file.open()) {
        pending.push(Buffer.from(chunk));
        pendingBytes += chunk.length;
        if (pendingBytes >= STORED_CHUNK_BYTES) await store();
      }
      if (pendingBytes > 0) await store();
    });
    // Another process took the job meanwhile (this one stalled past its lease): once it has
    // settled the import, what was stored after it looked is removed too.
    if (!handedOver && (await findImport(this.database, context.organizationId, importId))?.status !== 'running') {
      await deleteImportFile(this.database, context.organizationId, importId);
    }
    return record;
  }

  async #insertRecord(
    context: WriteContext,
    request: ImportRequest,
    file: ImportFile,
    mapping: CsvMapping | null,
    jobId: string | null,
    importId: string = randomUUID(),
    database: Queryable | null = null,
  ): Promise<ImportRow> {
    if (database === null) return this.database.transaction((transaction) => this.#insertRecord(context, request, file, mapping, jobId, importId, transaction));
    const record = await insertImport(database, {
      id: importId,
      organizationId: context.organizationId,
      datasetId: request.datasetId,
      jobId,
      format: request.format,
      fileName: request.fileName,
      sha256: file.sha256,
      sizeBytes: file.sizeBytes,
      encoding: request.encoding,
      mapping,
      createdBy: context.actor,
      allowOtherAccount: request.allowOtherAccount === true,
    });
    await recordImportInAudit(database, context, record);
    return record;
  }

  /** Runs a queued import: from the stored file, or (a synchronous import whose process died) it fails it. */
  async #runJob(organizationId: string, importId: string, stored: boolean, signal: AbortSignal): Promise<void> {
    const target = await findImportToRun(this.database, organizationId, importId);
    if (!target || target.status !== 'running') return;
    // Failed before its file was read: settled here, and counted on its dataset like any failure.
    const settleUnread = (error: ImportFailure) =>
      this.database.transaction(async (transaction) => {
        const failed = await failImport(transaction, organizationId, importId, {
          format: target.format,
          encoding: target.encoding,
          rowsRead: 0,
          warnings: [],
          error,
        });
        if (failed) {
          await markDatasetImportFailed(transaction, organizationId, target.datasetId, target.fileName);
          await recordImportInAudit(transaction, { organizationId, actor: target.createdBy, requestId: null }, failed);
        }
      });
    if (!stored) {
      await settleUnread(SERVER_STOPPED);
      throw new PermanentJobFailure('the process that imported the file stopped');
    }
    const record = await findImport(this.database, target.organizationId, importId);
    const file = await storedFile(this.database, organizationId, importId, record!);
    if (file === null) {
      await settleUnread(UPLOAD_INTERRUPTED);
      await deleteImportFile(this.database, organizationId, importId);
      throw new PermanentJobFailure('the stored file is incomplete');
    }
    const context: WriteContext = { organizationId: target.organizationId, actor: target.createdBy, requestId: null };
    const settings: ImportSettings = {
      format: target.format as ImportFormat | null,
      encoding: target.encoding,
      mapping: target.mapping as CsvMapping | null,
      fileName: target.fileName,
      allowOtherAccount: target.allowOtherAccount,
    };
    try {
      await this.#importer.run(context, record!, settings, file, signal);
    } catch (error) {
      if (signal.aborted) throw error;
      // The import is settled as failed with its error; trying again would fail the same way.
      await deleteImportFile(this.database, organizationId, importId);
      throw new PermanentJobFailure(error instanceof Error ? error.message : String(error));
    } finally {
      file.discard();
    }
    await deleteImportFile(this.database, organizationId, importId);
  }

  async find(organizationId: string, importId: string): Promise<ImportRow> {
    const record = await this.findIfExists(organizationId, importId);
    if (!record) throw notFound('import', importId);
    return record;
  }

  async findIfExists(organizationId: string, importId: string): Promise<ImportRow | undefined> {
    return this.progress.find(organizationId, importId) ?? (await findImport(this.database, organizationId, importId));
  }

  async list(organizationId: string, query: { datasetId: string | null; cursor: string | null; limit: number }): Promise<ImportPage> {
    const before = await readCursor(IMPORTS_CURSORS, query.cursor);
    if (query.datasetId !== null && !(await findDatasetSchema(this.database, organizationId, query.datasetId))) throw notFound('dataset', query.datasetId);
    const rows = await listImports(this.database, { organizationId, datasetId: query.datasetId, before, limit: rowsToFetch(query.limit) });
    const page = await pageOf(rows, query.limit, (row) => row.position, IMPORTS_CURSORS);
    const imports = page.rows.map(({ position: _position, ...record }) => this.progress.find(organizationId, record.id) ?? record);
    return { imports, nextCursor: page.nextCursor };
  }

  /**
   * What a CSV's head says about how to read it, with a proposed mapping and the first rows read
   * with it. Bytes that are not text in the encoding are refused as an import refuses them (422).
   */
  /**
   * The preview of a CSV file's head: the detected settings, a proposed mapping and the first
   * rows. With `mapping` (a mapping being made), each of the first rows is read with it, one by
   * one; without, with the mapping saved on the dataset for a file of this header when there is
   * one (`savedMapping`), else with the proposed one.
   */
  async preview(
    organizationId: string,
    datasetId: string,
    head: Uint8Array,
    complete: boolean,
    requestedEncoding: string | null,
    mapping?: unknown,
  ): Promise<ImportPreview> {
    const customColumns = await customColumnsOf(this.database, organizationId, datasetId);
    const mappingEncoding = (mapping as { encoding?: unknown } | null | undefined)?.encoding;
    const wanted = requestedEncoding ?? (typeof mappingEncoding === 'string' && mappingEncoding !== '' ? mappingEncoding : null);
    const { encoding, warning } = await chooseEncoding('csv', head, wanted, async () => isUtf8Prefix(head, complete));
    let text = '';
    try {
      for await (const chunk of decodeText(
        (async function* () {
          yield head;
        })(),
        encoding,
        { partial: !complete },
      )) {
        text += chunk;
      }
    } catch (error) {
      if (error instanceof ImportFormatError) throw fileRefused(error, 'the file cannot be previewed');
      throw error;
    }
    const preview = await previewCsv(text, { customColumns, encoding, complete });
    if (warning) preview.warnings.unshift({ line: null, message: warning });
    if (!complete) {
      // The head may end inside a row: it is left out, as the preview leaves it out.
      const lastBreak = Math.max(text.lastIndexOf('\n'), text.lastIndexOf('\r'));
      if (lastBreak > 0 && lastBreak < text.length - 1) text = text.slice(0, lastBreak + 1);
    }
    let savedMapping: ImportPreview['savedMapping'] = null;
    if (mapping === undefined || mapping === null) {
      const saved = [...(await listImportMappings(this.database, organizationId, datasetId))].sort((a, b) => b.updatedAt.localeCompare(a.updatedAt));
      for (const candidate of saved) {
        if (await headerFits(text, candidate.mapping as CsvMapping)) {
          savedMapping = { name: candidate.name, mapping: candidate.mapping };
          break;
        }
      }
    }
    const used = mapping ?? savedMapping?.mapping ?? preview.mapping;
    const checked = used ? await checkRows(text, used, customColumns) : null;
    return {
      ...preview,
      savedMapping,
      checkedColumns: checked?.columns ?? preview.columns,
      checkedRows: checked?.rows ?? [],
      mappingProblem: checked?.problem ?? null,
    };
  }

  async saveMapping(context: WriteContext, datasetId: string, name: string, mapping: unknown): Promise<{ mapping: ImportMappingRow; created: boolean }> {
    checkMappingName(name);
    const checked = checkMappingFor(mapping, await customColumnsOf(this.database, context.organizationId, datasetId));
    return upsertImportMapping(this.database, { organizationId: context.organizationId, datasetId, name, mapping: checked, actor: context.actor });
  }

  async findMapping(organizationId: string, datasetId: string, name: string): Promise<ImportMappingRow> {
    const mapping = await findImportMapping(this.database, organizationId, datasetId, name);
    if (!mapping) {
      if (!(await findDatasetSchema(this.database, organizationId, datasetId))) throw notFound('dataset', datasetId);
      throw notFound('import mapping', quoteInput(name));
    }
    return mapping;
  }

  async listMappings(organizationId: string, datasetId: string): Promise<ImportMappingRow[]> {
    if (!(await findDatasetSchema(this.database, organizationId, datasetId))) throw notFound('dataset', datasetId);
    return listImportMappings(this.database, organizationId, datasetId);
  }

  async deleteMapping(organizationId: string, datasetId: string, name: string): Promise<void> {
    if (!(await deleteImportMapping(this.database, organizationId, datasetId, name))) await this.findMapping(organizationId, datasetId, name);
  }
}

/** The custom columns of a dataset (its columns other than the bank columns), or 404. */
async function customColumnsOf(database: Queryable, organizationId: string, datasetId: string): Promise<Column[]> {
  const schema = await findDatasetSchema(database, organizationId, datasetId);
  if (!schema) throw notFound('dataset', datasetId);
  return withoutBankColumns(schema.columns);
}

/** A mapping checked against the dataset's custom columns; a problem is a 400 naming its JSON pointer under /mapping. */
function checkMappingFor(mapping: unknown, customColumns: readonly Column[]): CsvMapping {
  try {
    return checkCsvMapping(mapping, customColumns);
  } catch (error) {
    if (error instanceof MappingError) throw importErrors.mappingInvalid(error.path, error.message);
    throw error;
  }
}

function checkMappingName(name: string): void {
  if (!MAPPING_NAME_PATTERN.test(name)) {
    throw invalidFieldIn('path', 'name', 'a mapping name is 1 to 100 letters, digits, spaces, dots, dashes or underscores, starting with a letter or digit');
  }
}

function settingsOf(request: ImportRequest, mapping: CsvMapping | null): ImportSettings {
  return { format: request.format, encoding: request.encoding, mapping, fileName: request.fileName, allowOtherAccount: request.allowOtherAccount === true };
}

/** Whether a head is valid UTF-8, allowing a character cut at its end when it is only the head. */
function isUtf8Prefix(head: Uint8Array, complete: boolean): boolean {
  const decoder = new TextDecoder('utf-8', { fatal: true });
  try {
    decoder.decode(head, { stream: !complete });
    return true;
  } catch {
    return false;
  }
}

/**
 * The stored file of an asynchronous import, copied to a temporary file (the import reads it
 * inside its transaction, where a read of the database outside that transaction would wait for
 * it), or null when it is not all there.
 */
async function storedFile(database: Database, organizationId: string, importId: string, record: ImportRow): Promise<SpooledUpload | null> {
  const copy = await spoolUpload(readImportFileChunks(database, organizationId, importId), Number.MAX_SAFE_INTEGER);
  if (copy.sizeBytes !== record.sizeBytes) {
    copy.discard();
    return null;
  }
  return copy;
}
