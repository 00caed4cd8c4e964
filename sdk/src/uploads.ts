import type { RequestBody } from './transport.ts';

/**
 * The file of an import, from wherever a caller has it: a path (Node only), a Blob or File (a
 * browser's drop), bytes, a web ReadableStream or any async iterable of bytes (a Node Readable).
 * It is sent as a stream, so nothing holds a large file in memory, and counted as it goes, so a
 * caller can show progress. A path, a Blob and bytes can be sent again, and so are retried; a
 * stream can be read once, so a request carrying one is never retried.
 */
export type FileInput = string | Blob | Uint8Array | ReadableStream<Uint8Array> | AsyncIterable<Uint8Array>;

export interface UploadProgress {
  bytesSent: number;
  /** The file's size when known (a path, a Blob, bytes); null for a stream. */
  totalBytes: number | null;
}

interface OpenedFile {
  open: () => ReadableStream<Uint8Array>;
  /** The file as a Blob when it is one (a path, a Blob, bytes); null for a stream. */
  blob: Blob | null;
  sizeBytes: number | null;
  fileName: string | null;
  replayable: boolean;
}

/** Node's fs, reached only when a path is given, so that the SDK still loads in a browser. */
async function blobOfPath(path: string): Promise<Blob> {
  const fsModule = 'node:fs';
  const fs = (await import(/* @vite-ignore */ fsModule)) as { openAsBlob(path: string): Promise<Blob> };
  return fs.openAsBlob(path);
}

function baseName(path: string): string {
  return path.split(/[\\/]/).pop() ?? path;
}

async function openFile(input: FileInput): Promise<OpenedFile> {
  if (typeof input === 'string') {
    const blob = await blobOfPath(input);
    return { open: () => blob.stream(), blob, sizeBytes: blob.size, fileName: baseName(input), replayable: true };
  }
  if (input instanceof Blob) {
    const name = typeof (input as Blob & { name?: unknown }).name === 'string' ? (input as File).name : null;
    return { open: () => input.stream(), blob: input, sizeBytes: input.size, fileName: name, replayable: true };
  }
  if (input instanceof Uint8Array) {
    const blob = new Blob([input as Uint8Array<ArrayBuffer>]);
    return { open: () => blob.stream(), blob, sizeBytes: input.byteLength, fileName: null, replayable: true };
  }
  if (input instanceof ReadableStream) {
    let opened = false;
    return {
      open: () => {
        if (opened) throw new Error('a stream can be sent once; give a path, a Blob or bytes to allow retries');
        opened = true;
        return input;
      },
      blob: null,
      sizeBytes: null,
      fileName: null,
      replayable: false,
    };
  }
  const iterator = input[Symbol.asyncIterator]();
  const stream = new ReadableStream<Uint8Array>({
    async pull(controller) {
      const { value, done } = await iterator.next();
      if (done) controller.close();
      else controller.enqueue(value);
    },
    async cancel(reason) {
      await iterator.return?.(reason);
    },
  });
  return openFile(stream);
}

/** Passes the bytes through and reports how many have gone. */
function counted(stream: ReadableStream<Uint8Array>, totalBytes: number | null, onProgress?: (progress: UploadProgress) => void): ReadableStream<Uint8Array> {
  if (onProgress === undefined) return stream;
  let bytesSent = 0;
  return stream.pipeThrough(
    new TransformStream<Uint8Array, Uint8Array>({
      transform(chunk, controller) {
        bytesSent += chunk.byteLength;
        controller.enqueue(chunk);
        onProgress({ bytesSent, totalBytes });
      },
    }),
  );
}

function concatenated(parts: Array<Uint8Array | (() => ReadableStream<Uint8Array>)>): ReadableStream<Uint8Array> {
  let index = 0;
  let reader: ReadableStreamDefaultReader<Uint8Array> | null = null;
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      for (;;) {
        if (reader !== null) {
          const { value, done } = await reader.read();
          if (!done) return controller.enqueue(value);
          reader = null;
        }
        const part = parts[index];
        index += 1;
        if (part === undefined) return controller.close();
        if (part instanceof Uint8Array) return controller.enqueue(part);
        reader = part().getReader();
      }
    },
    async cancel(reason) {
      await reader?.cancel(reason);
    },
  });
}

function multipartParts(mapping: unknown, fileName: string | null): { boundary: string; head: Uint8Array; tail: Uint8Array } {
  const boundary = `ledger-recon-${crypto.randomUUID()}`;
  const encoder = new TextEncoder();
  const quotedName = (fileName ?? 'upload').replace(/["\r\n\\]/g, '_');
  const head = encoder.encode(
    `--${boundary}\r\nContent-Disposition: form-data; name="mapping"\r\nContent-Type: application/json\r\n\r\n${JSON.stringify(mapping)}\r\n` +
      `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${quotedName}"\r\nContent-Type: application/octet-stream\r\n\r\n`,
  );
  return { boundary, head, tail: encoder.encode(`\r\n--${boundary}--\r\n`) };
}

/**
 * In a browser the file goes as a Blob (a multipart one is a Blob of the parts: nothing is
 * copied). fetch reports no upload progress, so progress is said at the start and at the end.
 */
function browserUploadBody(blob: Blob, fileName: string | null, options: { mapping?: unknown; onProgress?: (progress: UploadProgress) => void }): UploadBody {
  options.onProgress?.({ bytesSent: 0, totalBytes: blob.size });
  if (options.mapping === undefined) return { fileName, body: { kind: 'blob', value: blob, contentType: 'application/octet-stream' } };
  const { boundary, head, tail } = multipartParts(options.mapping, fileName);
  return {
    fileName,
    body: {
      kind: 'blob',
      value: new Blob([head as Uint8Array<ArrayBuffer>, blob, tail as Uint8Array<ArrayBuffer>]),
      contentType: `multipart/form-data; boundary=${boundary}`,
    },
  };
}

export interface UploadBody {
  body: RequestBody;
  fileName: string | null;
}

/**
 * The request body of an import: the raw file, or, with an inline mapping, multipart/form-data
 * with the `mapping` part first (the server reads the file with it) and the `file` part, built as
 * a stream so that a large file is never held whole.
 */
export async function uploadBody(
  input: FileInput,
  options: { mapping?: unknown; fileName?: string; onProgress?: (progress: UploadProgress) => void },
): Promise<UploadBody> {
  const file = await openFile(input);
  const fileName = options.fileName ?? file.fileName;
  if ('document' in globalThis && file.blob !== null) return browserUploadBody(file.blob, fileName, options);
  if (options.mapping === undefined) {
    return {
      fileName,
      body: {
        kind: 'stream',
        contentType: 'application/octet-stream',
        replayable: file.replayable,
        open: async () => counted(file.open(), file.sizeBytes, options.onProgress),
      },
    };
  }
  const { boundary, head, tail } = multipartParts(options.mapping, fileName);
  return {
    fileName,
    body: {
      kind: 'stream',
      contentType: `multipart/form-data; boundary=${boundary}`,
      replayable: file.replayable,
      open: async () => concatenated([head, () => counted(file.open(), file.sizeBytes, options.onProgress), tail]),
    },
  };
}
