import { randomUUID } from 'node:crypto';
import type { Readable } from 'node:stream';
import multipart from '@fastify/multipart';
import { Type } from '@sinclair/typebox';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { Scopes } from '../../../domain/auth/roles.ts';
import { checkFileName, checkFormat, IMPORTS_PAGE_SIZE, type ImportRequest } from '../../../domain/imports/imports.ts';
import type { Services } from '../../../domain/services.ts';
import { AppError, idempotencyErrors, importErrors, invalidField, invalidRequest, quoteInput, requestErrors } from '../../../errors.ts';
import type { ImportRow } from '../../../domain/imports/imports.ts';
import { IdempotencyKeyHeaders, sendIdempotentWrite } from '../../idempotency.ts';
import { parseJsonBody } from '../../request-text.ts';
import { errorResponses, readPageSize } from '../../schemas/common.ts';
import {
  DatasetImportParams,
  ImportListQuery,
  ImportPageSchema,
  ImportParams,
  ImportQuery,
  ImportReportSchema,
  MappingBody,
  MappingParams,
  MappingSchema,
  PreviewQuery,
  PreviewSchema,
  UndoImportQuery,
  UndoPreviewSchema,
  UndoResultSchema,
} from '../../schemas/imports.ts';
import { readHead, spoolUpload, tooLarge, type SpooledUpload } from '../../../domain/imports/spooled-file.ts';
import { typedRoutes } from '../../type-provider.ts';

/** The raw media types an import takes besides multipart/form-data (SPEC §7); anything else is a 415. */
export const IMPORT_MEDIA_TYPES = [
  'application/octet-stream',
  'text/csv',
  'application/xml',
  'text/xml',
  'text/plain',
  'application/x-ofx',
  'application/ofx',
  'application/vnd.intu.qfx',
] as const;

/** What a preview reads of a file (SPEC §7: "the file, or its first megabyte"). */
const PREVIEW_BYTES = 1024 * 1024;
/** A mapping sent as a multipart part is small JSON. */
const MAPPING_PART_BYTES = 256 * 1024;

interface Upload {
  stream: Readable;
  fileName: string | null;
  /** The mapping part of a multipart request, parsed; undefined when there is none. */
  mapping: unknown;
}

/**
 * The file of a request, raw or as the `file` part of multipart/form-data (with an optional
 * `mapping` part holding the mapping JSON before it), handed to `receive` as a stream, which
 * spools it or reads its head: nothing here holds a file in memory. A form is read to its end
 * before anything is done with its file, so that a part it should not have (a second file, an
 * unknown field, a mapping after the file) refuses the request before anything is imported; what
 * `receive` kept is then given to `release`.
 */
async function withUpload<T>(request: FastifyRequest, receive: (upload: Upload) => Promise<T>, release: (received: T) => void = () => {}): Promise<T> {
  if (!request.isMultipart()) {
    const stream = request.body as Readable | undefined;
    if (!stream || typeof (stream as Readable).pipe !== 'function')
      throw invalidField('/file', 'send the file as the body (or as the "file" part of multipart/form-data)');
    return receive({ stream, fileName: null, mapping: undefined });
  }
  let mapping: unknown;
  let result: { value: T } | null = null;
  // The parser's own errors (no boundary, a part cut short) come from reading the parts or a
  // file part's stream: they are the request's fault, and answered so.
  const parts = request.parts()[Symbol.asyncIterator]();
  const streamErrors = new WeakSet<object>();
  try {
    for (;;) {
      const next = await parts.next().catch((error: unknown) => {
        throw malformedMultipart(error);
      });
      if (next.done) break;
      const part = next.value;
      if (part.type === 'file') {
        if (part.fieldname !== 'file') throw invalidField(`/${part.fieldname}`, 'is not a part of an import; send the file in a part named "file"');
        if (result !== null) throw invalidField('/file', 'send one file per import, in a single "file" part');
        const file = part.file;
        file.once('error', (error) => streamErrors.add(error));
        result = {
          value: await receive({ stream: file, fileName: part.filename || null, mapping }).catch((error: unknown) => {
            // The parser's error, or (when it came before the listener above) the part's stream
            // ended by it: reading it then says only that it closed before its end.
            const fromParser =
              (error !== null && typeof error === 'object' && streamErrors.has(error)) ||
              file.errored !== null ||
              (error as { code?: unknown } | null)?.code === 'ERR_STREAM_PREMATURE_CLOSE';
            throw fromParser ? malformedMultipart(error) : error;
          }),
        };
      } else if (part.fieldname === 'mapping') {
        if (result !== null) throw invalidField('/mapping', 'send the "mapping" part before the "file" part, so that the file is read with it');
        // A part sent as application/json arrives parsed; it is written out again and read like any other, so that it gets the same checks.
        const text = typeof part.value === 'string' ? part.value : JSON.stringify(part.value);
        mapping = await parseJsonBody(Buffer.from(text, 'utf8')).catch((error: unknown) => {
          if (error instanceof AppError) throw requestErrors.mappingPartInvalid(error);
          throw error;
        });
      } else {
        throw invalidField(`/${part.fieldname}`, 'is not a part of an import; the parts are "mapping" (optional JSON) and "file"');
      }
    }
  } catch (error) {
    if (result !== null) release(result.value);
    throw error;
  }
  if (result === null) throw invalidField('/file', 'the multipart request has no "file" part');
  return result.value;
}

/** The multipart parser's refusals that are about the form's parts, said as what to send instead. */
const MULTIPART_REFUSALS: Record<string, () => AppError> = {
  FST_FILES_LIMIT: () => invalidField('/file', 'send one file per import, in a single "file" part'),
  FST_PARTS_LIMIT: () => invalidRequest('the form has more parts than an import takes: an optional "mapping" part, then the "file" part'),
  FST_FIELDS_LIMIT: () => invalidRequest('the form has more parts than an import takes: an optional "mapping" part, then the "file" part'),
  FST_INVALID_JSON_FIELD_ERROR: () => invalidField('/mapping', 'the "mapping" part is not JSON; send the CSV mapping as a JSON object'),
};

/**
 * A multipart/form-data body the parser could not read, as a 400 that says so; a file over
 * IMPORT_MAX_BYTES keeps its 413.
 */
function malformedMultipart(error: unknown): unknown {
  if (error instanceof AppError) return error;
  const code = (error as { code?: unknown } | null)?.code;
  if (typeof code === 'string' && MULTIPART_REFUSALS[code]) return MULTIPART_REFUSALS[code]();
  const status = (error as { statusCode?: unknown } | null)?.statusCode;
  if (typeof status === 'number' && status >= 400 && status < 500) return error;
  const reason = error instanceof Error ? error.message : String(error);
  return invalidField(
    '/file',
    `the multipart/form-data body cannot be read (${quoteInput(reason, 100)}); send a well-formed form with a "file" part (as curl -F and browsers send it), or the file alone as the body with its content type`,
  );
}

function prefersAsync(request: FastifyRequest): boolean {
  const prefer = request.headers.prefer;
  const values = Array.isArray(prefer) ? prefer.join(',') : (prefer ?? '');
  return values.split(/[,;]/).some((token) => token.trim().toLowerCase() === 'respond-async');
}

/** File imports, their reports, CSV previews and saved mappings (SPEC §7). */
export async function importRoutes(parent: FastifyInstance, options: { services: Services }) {
  const app = typedRoutes(parent);
  const { services } = options;
  const { imports } = services;
  const maxBytes = services.config.importMaxBytes;

  // The file part is cut one byte past the limit, not at it: the spooler then sees a file over
  // IMPORT_MAX_BYTES and refuses it (413) before anything is imported. Cut at the limit, the
  // part would end early and look whole.
  // Two files are let through, so that the second is refused by name (beyond the limit the parser
  // would drop it without a word).
  await app.register(multipart, { limits: { fileSize: maxBytes + 1, files: 2, fields: 4, fieldSize: MAPPING_PART_BYTES, parts: 6 } });
  // Raw files are handed to the route as the request stream, unread: the route spools them.
  app.addContentTypeParser([...IMPORT_MEDIA_TYPES], (request, payload, done) => {
    const declared = Number(request.headers['content-length']);
    if (Number.isFinite(declared) && declared > maxBytes) return done(tooLarge(maxBytes));
    done(null, payload);
  });

  const location = (request: FastifyRequest, importId: string) => `/v1/api/${request.principal.organizationId}/imports/${importId}`;

  app.post(
    '/datasets/:datasetId/imports',
    {
      config: { scope: Scopes.write },
      schema: {
        operationId: 'importFile',
        summary: 'Import a statement or CSV file into a dataset',
        description:
          'The body is the file (application/octet-stream, text/csv, application/xml, text/plain, application/x-ofx) or multipart/form-data with a "file" part ' +
          '(and an optional "mapping" part with the CSV mapping JSON before it). camt.052/053/054, MT940/942, BAI2, OFX/QFX and CSV; the format is detected when not named. ' +
          'All or nothing: a file that does not follow its format is a 422 naming the line, and nothing of it is stored; the failed import is listed with its error. ' +
          'Idempotent by content: entries the dataset already holds are counted as duplicates. With "Prefer: respond-async" the answer is 202 at once, with the ' +
          "import's URL in Location; GET it to follow the rows read until it completes.",
        tags: ['Imports'],
        params: DatasetImportParams,
        querystring: ImportQuery,
        headers: IdempotencyKeyHeaders,
        response: { 201: Type.Ref(ImportReportSchema), 202: Type.Ref(ImportReportSchema), ...errorResponses(404, 409, 413, 415, 422) },
      },
    },
    async (request, reply) => {
      const { datasetId } = request.params;
      const query = request.query;
      const context = { organizationId: request.principal.organizationId, actor: request.principal.actor, requestId: request.id };
      const asynchronous = prefersAsync(request);
      const upload = await withUpload(
        request,
        async (received) => ({ fileName: received.fileName, mapping: received.mapping, spooled: await spoolUpload(received.stream, maxBytes) }),
        (received) => received.spooled.discard(),
      );
      const spooled = upload.spooled;
      try {
        const importRequest: ImportRequest = {
          datasetId,
          format: checkFormat(query.format ?? null),
          encoding: query.encoding ?? null,
          fileName: checkFileName(query.fileName ?? upload.fileName),
          mapping: upload.mapping,
          mappingName: query.mapping ?? null,
          allowOtherAccount: query.allowOtherAccount === 'true',
        };
        const replayed = await claimIdempotencyKey(request, services, importRequest, spooled);
        if (replayed) return answerReplay(reply, request, replayed, location);
        try {
          const report = asynchronous ? await imports.importLater(context, importRequest, spooled) : await imports.importNow(context, importRequest, spooled);
          return reply
            .code(asynchronous ? 202 : 201)
            .header('location', location(request, report.id))
            .send(report);
        } catch (error) {
          // A request refused for what it asks (a mapping that cannot be used, or none where one is
          // needed), or one that did not even start an import, leaves its key free for a corrected retry.
          const key = request.headers['idempotency-key'];
          const refusedRequest = error instanceof AppError && error.kind === 'invalid_request';
          if (typeof key === 'string' && (refusedRequest || !(await imports.findIfExists(context.organizationId, importRequest.importId!)))) {
            await services.idempotency.forget(context.organizationId, key).catch(() => {});
          }
          throw error;
        }
      } finally {
        spooled.discard();
      }
    },
  );

  app.post(
    '/datasets/:datasetId/imports/preview',
    {
      config: { scope: Scopes.read },
      schema: {
        operationId: 'previewImport',
        summary: 'Preview how a CSV file would be read',
        description:
          'Takes the file (or its first megabyte), raw or as the "file" part of multipart/form-data, and answers the detected encoding, delimiter, header, ' +
          'decimal separator and date format, a proposed mapping and the first 20 rows read with it. Nothing is stored. ' +
          'With a "mapping" part before the file (a mapping being made), checkedRows are the first 20 rows read with that mapping one by one, ' +
          'each with the entry it becomes or why the import would refuse it; without one, savedMapping is the mapping saved on the dataset ' +
          'for a file of this header (every column it names is in the header), and checkedRows are read with it, else with the proposed mapping. ' +
          "Bytes that are not text in the file's encoding are a 422 naming the line, as an import answers them.",
        tags: ['Imports'],
        params: DatasetImportParams,
        querystring: PreviewQuery,
        response: { 200: PreviewSchema, ...errorResponses(404, 413, 415, 422) },
      },
    },
    async (request) => {
      const { datasetId } = request.params;
      const query = request.query;
      const { head, complete, mapping } = await withUpload(request, async (upload) => ({
        ...(await readHead(upload.stream, PREVIEW_BYTES, maxBytes)),
        mapping: upload.mapping,
      }));
      return imports.preview(request.principal.organizationId, datasetId, head, complete, query.encoding ?? null, mapping);
    },
  );

  app.get(
    '/imports',
    {
      config: { scope: Scopes.read },
      schema: {
        operationId: 'listImports',
        summary: 'List imports, newest first',
        description: 'Completed, running and failed imports (a failed one with its error), of the organization or of one dataset.',
        tags: ['Imports'],
        params: Type.Object({ orgId: Type.String({ format: 'uuid' }) }),
        querystring: ImportListQuery,
        response: { 200: ImportPageSchema, ...errorResponses(404) },
      },
    },
    async (request) => {
      const query = request.query;
      return imports.list(request.principal.organizationId, {
        datasetId: query.datasetId ?? null,
        cursor: query.cursor ?? null,
        limit: readPageSize(query.limit, IMPORTS_PAGE_SIZE),
      });
    },
  );

  app.get(
    '/imports/:importId',
    {
      config: { scope: Scopes.read },
      schema: {
        operationId: 'getImport',
        summary: 'Show an import',
        description: 'Its report; while it runs, status "running" and the rows read so far.',
        tags: ['Imports'],
        params: ImportParams,
        response: { 200: Type.Ref(ImportReportSchema), ...errorResponses(404) },
      },
    },
    async (request) => {
      const { importId } = request.params;
      return imports.find(request.principal.organizationId, importId);
    },
  );

  app.get(
    '/imports/:importId/undo-preview',
    {
      config: { scope: Scopes.read },
      schema: {
        operationId: 'previewImportUndo',
        summary: 'Show what undoing an import would remove',
        description:
          'How many transactions the import created (an undo removes them), how many of them are matched and which (the first 100), and whether the import can be undone. Nothing is changed.',
        tags: ['Imports'],
        params: ImportParams,
        response: { 200: UndoPreviewSchema, ...errorResponses(404) },
      },
    },
    async (request) => {
      const { importId } = request.params;
      return services.importUndo.preview(request.principal.organizationId, importId);
    },
  );

  app.delete(
    '/imports/:importId',
    {
      config: { scope: Scopes.write },
      schema: {
        operationId: 'undoImport',
        summary: 'Undo an import: remove the transactions it created',
        description:
          'Removes exactly the transactions the import created, all or nothing, in one database transaction; entries it found already stored stay. ' +
          'The import stays in the history with status "undone", the undo is in the audit trail and emits an import.undone event. ' +
          'Refused (409) while the import runs, when it failed or was undone already, and when any of its transactions is matched, listing them: ' +
          'send unmatch=true to dissolve their match groups as well. Importing the same file again afterwards stores its entries again.',
        tags: ['Imports'],
        params: ImportParams,
        querystring: UndoImportQuery,
        headers: IdempotencyKeyHeaders,
        response: { 200: UndoResultSchema, ...errorResponses(404, 409) },
      },
    },
    async (request, reply) => {
      const { importId } = request.params;
      const query = request.query;
      services.importUndo.refuseIfRunningHere(request.principal.organizationId, importId);
      return sendIdempotentWrite(request, reply, services, 200, (transaction, context) =>
        services.importUndo.undo(transaction, context, { importId, unmatch: query.unmatch === 'true', note: query.note ?? null }),
      );
    },
  );

  app.get(
    '/datasets/:datasetId/import-mappings',
    {
      config: { scope: Scopes.read },
      schema: {
        operationId: 'listImportMappings',
        summary: 'List the CSV mappings saved on a dataset',
        tags: ['Imports'],
        params: DatasetImportParams,
        response: { 200: Type.Array(MappingSchema), ...errorResponses(404) },
      },
    },
    async (request) => {
      const { datasetId } = request.params;
      return imports.listMappings(request.principal.organizationId, datasetId);
    },
  );

  app.get(
    '/datasets/:datasetId/import-mappings/:name',
    {
      config: { scope: Scopes.read },
      schema: {
        operationId: 'getImportMapping',
        summary: 'Show a saved CSV mapping',
        tags: ['Imports'],
        params: MappingParams,
        response: { 200: MappingSchema, ...errorResponses(404) },
      },
    },
    async (request) => {
      const { datasetId, name } = request.params;
      return imports.findMapping(request.principal.organizationId, datasetId, name);
    },
  );

  app.put(
    '/datasets/:datasetId/import-mappings/:name',
    {
      config: { scope: Scopes.write },
      schema: {
        operationId: 'saveImportMapping',
        summary: 'Save a CSV mapping on a dataset under a name',
        description:
          "The body is the mapping itself. It is checked against the dataset's columns; every problem names the JSON pointer of the field. Creates (201) or replaces (200).",
        tags: ['Imports'],
        params: MappingParams,
        headers: IdempotencyKeyHeaders,
        body: MappingBody,
        response: { 200: MappingSchema, 201: MappingSchema, ...errorResponses(404) },
      },
    },
    async (request, reply) => {
      const { datasetId, name } = request.params;
      const context = { organizationId: request.principal.organizationId, actor: request.principal.actor, requestId: request.id };
      const saved = await imports.saveMapping(context, datasetId, name, request.body);
      return reply.code(saved.created ? 201 : 200).send(saved.mapping);
    },
  );

  app.delete(
    '/datasets/:datasetId/import-mappings/:name',
    {
      config: { scope: Scopes.write },
      schema: {
        operationId: 'deleteImportMapping',
        summary: 'Delete a saved CSV mapping',
        tags: ['Imports'],
        params: MappingParams,
        headers: IdempotencyKeyHeaders,
        response: { 204: Type.Null({ description: 'Deleted.' }), ...errorResponses(404) },
      },
    },
    async (request, reply) => {
      const { datasetId, name } = request.params;
      await imports.deleteMapping(request.principal.organizationId, datasetId, name);
      return reply.code(204).send();
    },
  );
}

/**
 * An Idempotency-Key on an import is remembered with the import's id, claimed before the import
 * starts; a retry with the same key and the same file is answered from that import as it stands
 * (completed, running or failed) instead of importing again. Returns the import of a replay.
 */
async function claimIdempotencyKey(
  request: FastifyRequest,
  services: Services,
  importRequest: ImportRequest,
  file: SpooledUpload,
): Promise<ImportRow | { missing: string } | null> {
  const key = request.headers['idempotency-key'];
  importRequest.importId = randomUUID();
  if (typeof key !== 'string') return null;
  const identity = [request.method, request.url, file.sha256, importRequest.mapping ?? null, importRequest.fileName];
  const claim = await services.idempotency.claimForLongWrite(
    { organizationId: request.principal.organizationId, principal: request.principal.actor, key, identity },
    { importId: importRequest.importId },
  );
  if (claim.claimed) return null;
  const previous = await services.imports.findIfExists(request.principal.organizationId, claim.kept.importId);
  return previous ?? { missing: claim.kept.importId };
}

function answerReplay(
  reply: FastifyReply,
  request: FastifyRequest,
  replayed: ImportRow | { missing: string },
  location: (request: FastifyRequest, id: string) => string,
) {
  reply.header('idempotent-replayed', 'true');
  if ('missing' in replayed) {
    throw idempotencyErrors.importNeverStarted();
  }
  if (replayed.status === 'failed') {
    throw importErrors.replayedImportFailed(replayed.id, replayed.error?.message);
  }
  return reply
    .code(replayed.status === 'running' ? 202 : 201)
    .header('location', location(request, replayed.id))
    .send(replayed);
}
