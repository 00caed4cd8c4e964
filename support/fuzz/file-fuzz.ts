import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import fc from 'fast-check';
import { IMPORT_MEDIA_TYPES } from '../../src/http/routes/api/imports.ts';
import { IMPORT_FORMATS } from '../../src/domain/imports/statement-entries.ts';
import { anyJson, idLike, longStrings, nastyText, nowAndThen, segment, type FuzzContext, type FuzzRequest, type FuzzTarget } from './blocks.ts';

/**
 * Generated files for the import and the preview: the small statements and CSV exports of
 * test/fixtures/imports as they are and cut, with bytes changed or added, in other encodings
 * (UTF-16 with a byte-order mark, an odd byte count, bytes invalid in the encoding named),
 * random bytes, raw and as multipart/form-data (with and without a mapping part, parts in the
 * wrong order or misnamed, a multipart body that is not one), with random query parameters.
 */

const FIXTURES_DIRECTORY = path.resolve('test/fixtures/imports');
/** Fixtures small enough to send thousands of times. */
const SEED_BYTES_LIMIT = 4096;
const MEGABYTE = 1024 * 1024;

interface Seed {
  name: string;
  bytes: Uint8Array;
  /** A CSV's mapping (its .mapping.json beside it). */
  mapping: unknown;
}

function seedFiles(): Seed[] {
  const seeds: Seed[] = [];
  for (const format of readdirSync(FIXTURES_DIRECTORY)) {
    const directory = path.join(FIXTURES_DIRECTORY, format);
    if (!statSync(directory).isDirectory()) continue;
    for (const file of readdirSync(directory)) {
      const full = path.join(directory, file);
      // Subfolders (csv/real) hold more files of the same format; the seeds of the top folder suffice.
      if (statSync(full).isDirectory()) continue;
      if (file.endsWith('.json') || file.endsWith('.md') || statSync(full).size > SEED_BYTES_LIMIT) continue;
      let mapping: unknown = null;
      try {
        mapping = JSON.parse(readFileSync(`${full}.mapping.json`, 'utf8'));
      } catch {
        // A statement, or a CSV whose header names the columns: no mapping.
      }
      seeds.push({ name: file, bytes: new Uint8Array(readFileSync(full)), mapping });
    }
  }
  return seeds;
}

const SEEDS = seedFiles();

const encodingLabel = fc.oneof(
  {
    weight: 4,
    arbitrary: fc.constantFrom(
      'utf-8',
      'utf-16le',
      'utf-16be',
      'windows-1252',
      'iso-8859-1',
      'latin1',
      'cp437',
      'cp850',
      'cp852',
      'ibm850',
      'shift_jis',
      'UTF-8',
    ),
  },
  { weight: 1, arbitrary: nastyText },
);

/** A CSV whose header names the dataset's standard columns: imported without a mapping. */
const standardCsv = fc
  .array(
    fc.tuple(
      fc.integer({ min: 1, max: 28 }),
      fc.integer({ min: -99999, max: 99999 }),
      fc.integer({ min: 0, max: 99 }),
      fc.constantFrom('EUR', 'USD', 'GBP'),
      fc.string({ unit: 'grapheme-ascii', maxLength: 12 }),
    ),
    { minLength: 1, maxLength: 5 },
  )
  .map((rows) => {
    const lines = rows.map(
      ([day, whole, cents, currency, text]) =>
        `2024-03-${String(day).padStart(2, '0')},${whole}.${String(cents).padStart(2, '0')},${currency},"${text.replace(/"/g, '""')}"`,
    );
    return Buffer.from(`timestamp,amount,currency,description\n${lines.join('\n')}\n`);
  });

/** A seed changed as files get damaged: cut, bytes flipped or added, re-encoded. */
function damaged(bytes: Uint8Array): fc.Arbitrary<Uint8Array> {
  const position = fc.nat({ max: Math.max(0, bytes.length) });
  return fc.oneof(
    { weight: 3, arbitrary: fc.constant(bytes) },
    { weight: 2, arbitrary: position.map((end) => bytes.subarray(0, end)) },
    {
      weight: 2,
      arbitrary: fc.array(fc.tuple(position, fc.integer({ min: 0, max: 255 })), { minLength: 1, maxLength: 4 }).map((changes) => {
        const copy = Uint8Array.from(bytes);
        for (const [at, value] of changes) if (at < copy.length) copy[at] = value;
        return copy;
      }),
    },
    {
      weight: 1,
      arbitrary: fc
        .tuple(position, fc.uint8Array({ minLength: 1, maxLength: 16 }))
        .map(([at, inserted]) => new Uint8Array([...bytes.subarray(0, at), ...inserted, ...bytes.subarray(at)])),
    },
    // UTF-16 with its byte-order mark, sometimes one byte short.
    {
      weight: 1,
      arbitrary: fc.boolean().map((short) => {
        const utf16 = new Uint8Array([0xff, 0xfe, ...Buffer.from(Buffer.from(bytes).toString('latin1'), 'utf16le')]);
        return short ? utf16.subarray(0, utf16.length - 1) : utf16;
      }),
    },
    { weight: 1, arbitrary: fc.constant(new Uint8Array([0xef, 0xbb, 0xbf, ...bytes])) },
  );
}

/** What is sent as the file. */
const fileBytes = fc.oneof(
  { weight: 4, arbitrary: fc.constantFrom(...SEEDS.map((seed) => seed.bytes)).chain(damaged) },
  { weight: 2, arbitrary: standardCsv.chain(damaged) },
  { weight: 1, arbitrary: fc.uint8Array({ maxLength: 512 }) },
  { weight: 1, arbitrary: fc.string({ unit: 'binary', maxLength: 200 }).map((text) => new Uint8Array(Buffer.from(text))) },
  // Zip, PDF and spreadsheet signatures, and nothing at all.
  {
    weight: 1,
    arbitrary: fc.constantFrom(
      Buffer.from('PK\u0003\u0004rest'),
      Buffer.from('%PDF-1.7\n'),
      Buffer.from([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1]),
      Buffer.alloc(0),
    ),
  },
);

/** A mapping part: a fixture's own, a broken one, or any JSON. */
const mappingPart = fc.oneof(
  { weight: 3, arbitrary: fc.constantFrom(...SEEDS.filter((seed) => seed.mapping !== null).map((seed) => JSON.stringify(seed.mapping))) },
  { weight: 1, arbitrary: anyJson.map((value) => JSON.stringify(value)) },
  { weight: 1, arbitrary: nastyText },
);

/**
 * Query parameters of an import or a preview, some of them unknown or not well formed. The
 * `fileName` is not held to the excerpt limit: the report shows the name the file was sent under.
 */
function queryOf(names: readonly string[], values: Record<string, fc.Arbitrary<string>>): fc.Arbitrary<{ text: string; inputs: string[] }> {
  return fc
    .tuple(
      fc.record(Object.fromEntries(names.map((name) => [name, values[name]!])), { requiredKeys: [] }),
      nowAndThen(fc.tuple(fc.constantFrom('mapping', 'format', 'encoding', 'x', 'fileName'), nastyText)),
    )
    .map(([known, extra]) => {
      const entries = Object.entries(known as Record<string, string>);
      if (extra) entries.push(extra);
      const text = entries.map(([name, value]) => `${segment(name)}=${segment(value)}`).join('&');
      return { text: text === '' ? '' : `?${text}`, inputs: longStrings(entries.filter(([name]) => name !== 'fileName').map(([, value]) => value)) };
    });
}

const importQuery = queryOf(['format', 'encoding', 'fileName', 'mapping'], {
  format: fc.oneof(fc.constantFrom(...IMPORT_FORMATS), nastyText),
  encoding: encodingLabel,
  fileName: fc.oneof(fc.constantFrom('statement.csv', 'a/b.csv', '..', 'x'.repeat(300), 'März.sta'), nastyText),
  mapping: fc.oneof(fc.constant('fuzz'), nastyText),
});
const previewQuery = queryOf(['encoding'], { encoding: encodingLabel });

/** The body of an import or a preview: raw with a content type, multipart with its parts, or a multipart body that is not one. */
const upload = fc.oneof(
  {
    weight: 3,
    arbitrary: fc
      .tuple(
        fileBytes,
        fc.oneof(
          { weight: 6, arbitrary: fc.constantFrom(...IMPORT_MEDIA_TYPES) },
          { weight: 1, arbitrary: fc.constantFrom('application/json', 'image/png', 'text/csv; charset=utf-16', '') },
        ),
      )
      .map(([bytes, contentType]) => ({ body: bytes as FuzzRequest['body'], contentType: contentType as string | null })),
  },
  {
    weight: 2,
    arbitrary: fc
      .tuple(
        fileBytes,
        fc.option(mappingPart, { nil: undefined }),
        fc.constantFrom('mapping first', 'mapping last', 'file misnamed', 'two files', 'extra field'),
        fc.oneof(
          fc.constant('statement.csv'),
          nastyText.filter((name) => name.isWellFormed()),
        ),
      )
      .map(([bytes, mapping, layout, fileName]) => {
        const form = new FormData();
        const file = () => new Blob([bytes]);
        if (mapping !== undefined && layout !== 'mapping last') form.append('mapping', mapping);
        form.append(layout === 'file misnamed' ? 'upload' : 'file', file(), fileName);
        if (layout === 'two files') form.append('file', file(), 'second.csv');
        if (layout === 'extra field') form.append('note', 'x');
        if (mapping !== undefined && layout === 'mapping last') form.append('mapping', mapping);
        return { body: form as FuzzRequest['body'], contentType: null };
      }),
  },
  {
    weight: 1,
    arbitrary: fc
      .tuple(fc.uint8Array({ maxLength: 256 }), fc.constantFrom('multipart/form-data; boundary=fuzz', 'multipart/form-data', 'multipart/form-data; boundary='))
      .map(([bytes, contentType]) => ({
        body: new Uint8Array([
          ...Buffer.from('--fuzz\r\nContent-Disposition: form-data; name="file"; filename="a.csv"\r\n\r\n'),
          ...bytes,
        ]) as FuzzRequest['body'],
        contentType: contentType as string | null,
      })),
  },
);

function datasetOf(context: FuzzContext): fc.Arbitrary<string> {
  return fc.oneof({ weight: 8, arbitrary: fc.constantFrom(...context.ids.datasetId!) }, { weight: 1, arbitrary: idLike });
}

function fileRequest(
  context: FuzzContext,
  operation: 'imports' | 'imports/preview',
  datasetId: string,
  query: { text: string; inputs: string[] },
  body: { body: FuzzRequest['body']; contentType: string | null },
  extra: Record<string, string> = {},
): FuzzRequest {
  return {
    method: 'POST',
    path: `${context.base}/datasets/${segment(datasetId)}/${operation}${query.text}`,
    headers: { authorization: `Bearer ${context.organization.token}`, ...(body.contentType !== null ? { 'content-type': body.contentType } : {}), ...extra },
    body: body.body,
    breaksRule: false,
    inputs: query.inputs,
  };
}

/** Bytes that are not text in the encoding the request names: refused (422), whatever the operation. */
const notTextInTheEncoding = fc.oneof(
  fc.constant({ encoding: 'utf-8', bytes: new Uint8Array([...Buffer.from('timestamp,amount,currency\n2024-03-01,'), 0xff, 0xfe, ...Buffer.from(',EUR\n')]) }),
  fc.constant({ encoding: 'utf-16le', bytes: new Uint8Array([0xff, 0xfe, ...Buffer.from('timestamp,amount\n2024-03-01,1.00\n', 'utf16le'), 0x0a]) }),
);

const importFile: FuzzTarget = {
  name: 'POST /datasets/{id}/imports',
  operations: ['importFile'],
  errorForm: 'api',
  cases: (context) =>
    fc.oneof(
      {
        weight: 6,
        arbitrary: fc
          .tuple(datasetOf(context), importQuery, upload, fc.boolean(), nowAndThen(fc.string({ unit: 'grapheme-ascii', minLength: 1, maxLength: 8 })))
          .map(([datasetId, query, body, asynchronous, key]) =>
            fileRequest(context, 'imports', datasetId, query, body, {
              ...(asynchronous ? { prefer: 'respond-async' } : {}),
              ...(key !== undefined ? { 'idempotency-key': `fuzz-${key}` } : {}),
            }),
          ),
      },
      // A CSV the dataset takes as it is: imported, now or as a job.
      {
        weight: 1,
        arbitrary: fc.tuple(standardCsv, fc.boolean()).map(([bytes, asynchronous]) => ({
          ...fileRequest(
            context,
            'imports',
            context.ids.datasetId![1]!,
            { text: '', inputs: [] },
            { body: bytes, contentType: 'text/csv' },
            asynchronous ? { prefer: 'respond-async' } : {},
          ),
          mustSucceed: true,
        })),
      },
      {
        weight: 1,
        arbitrary: notTextInTheEncoding.map(({ encoding, bytes }) => ({
          ...fileRequest(context, 'imports', context.datasetId, { text: `?encoding=${encoding}`, inputs: [] }, { body: bytes, contentType: 'text/csv' }),
          breaksRule: true,
        })),
      },
    ),
};

const previewImport: FuzzTarget = {
  name: 'POST /datasets/{id}/imports/preview',
  operations: ['previewImport'],
  errorForm: 'api',
  cases: (context) =>
    fc.oneof(
      {
        weight: 6,
        arbitrary: fc
          .tuple(datasetOf(context), previewQuery, upload)
          .map(([datasetId, query, body]) => fileRequest(context, 'imports/preview', datasetId, query, body)),
      },
      {
        weight: 1,
        arbitrary: standardCsv.map((bytes) => ({
          ...fileRequest(context, 'imports/preview', context.datasetId, { text: '', inputs: [] }, { body: bytes, contentType: 'text/csv' }),
          mustSucceed: true,
        })),
      },
      {
        weight: 1,
        arbitrary: notTextInTheEncoding.map(({ encoding, bytes }) => ({
          ...fileRequest(
            context,
            'imports/preview',
            context.datasetId,
            { text: `?encoding=${encoding}`, inputs: [] },
            { body: bytes, contentType: 'text/csv' },
          ),
          breaksRule: true,
        })),
      },
      // More than the megabyte a preview reads, cut anywhere, multi-byte characters included.
      {
        weight: 1,
        arbitrary: fc.nat({ max: 64 }).map((shift) => {
          const row = 'Buchungstag;Verwendungszweck;Betrag\n01.03.2024;Grüße aus Köln €;-12,50\n';
          const bytes = Buffer.from(row.repeat(Math.ceil((MEGABYTE + 4096) / Buffer.byteLength(row))).slice(shift));
          return fileRequest(context, 'imports/preview', context.datasetId, { text: '', inputs: [] }, { body: bytes, contentType: 'text/csv' });
        }),
      },
    ),
};

export const fileTargets: FuzzTarget[] = [importFile, previewImport];
