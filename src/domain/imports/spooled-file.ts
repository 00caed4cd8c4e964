import { createHash, randomUUID } from 'node:crypto';
import { createReadStream, createWriteStream, mkdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { importErrors } from '../../errors.ts';
import { HEAD_BYTES } from './detect.ts';
import type { ImportFile } from './importer.ts';

/**
 * A file to import, written to a temporary file as it arrives (an upload, or the copy of an
 * asynchronous import's file kept in the database) (memory stays flat whatever its
 * size), with its size, its SHA-256 and its first bytes. The importer reads it from there as
 * many times as it needs; `discard` removes it.
 */
export interface SpooledUpload extends ImportFile {
  path: string;
  discard(): void;
}

const UPLOAD_DIRECTORY = path.join(tmpdir(), 'ledger-recon-uploads');
/** Bytes read from the temporary file at a time. */
const READ_CHUNK_BYTES = 256 * 1024;

export const tooLarge = (maxBytes: number) => importErrors.fileTooLarge(maxBytes);

/**
 * Writes a stream to a temporary file, refusing it (413) as soon as it exceeds `maxBytes`. The
 * stream is left as it is, not destroyed: an upload's stream is the request, and destroying it
 * would cut the connection before the client could read the 413 (the HTTP layer reads and drops
 * the rest of the body while it answers).
 */
export async function spoolUpload(
  stream: AsyncIterable<Uint8Array> & { iterator?: (options: { destroyOnReturn: boolean }) => AsyncIterable<unknown> },
  maxBytes: number,
): Promise<SpooledUpload> {
  mkdirSync(UPLOAD_DIRECTORY, { recursive: true, mode: 0o700 });
  const filePath = path.join(UPLOAD_DIRECTORY, `${randomUUID()}.upload`);
  const discard = () => rmSync(filePath, { force: true });
  const output = createWriteStream(filePath, { mode: 0o600 });
  const hash = createHash('sha256');
  const headParts: Buffer[] = [];
  let headBytes = 0;
  let sizeBytes = 0;
  try {
    // Leaving the loop early must not destroy a Node stream (its iterator would by default).
    const chunks = typeof stream.iterator === 'function' ? stream.iterator({ destroyOnReturn: false }) : stream;
    for await (const chunk of chunks) {
      const bytes = Buffer.from((chunk as Uint8Array).buffer, (chunk as Uint8Array).byteOffset, (chunk as Uint8Array).byteLength);
      sizeBytes += bytes.length;
      if (sizeBytes > maxBytes) throw tooLarge(maxBytes);
      hash.update(bytes);
      if (headBytes < HEAD_BYTES) {
        headParts.push(bytes.subarray(0, HEAD_BYTES - headBytes));
        headBytes += Math.min(bytes.length, HEAD_BYTES - headBytes);
      }
      if (!output.write(bytes)) await new Promise<void>((resolve) => output.once('drain', () => resolve()));
    }
    await new Promise<void>((resolve, reject) => {
      output.once('error', reject);
      output.end(() => resolve());
    });
  } catch (error) {
    output.destroy();
    discard();
    throw error;
  }
  return {
    path: filePath,
    head: Buffer.concat(headParts, headBytes),
    sizeBytes,
    sha256: hash.digest('hex'),
    open: () => createReadStream(filePath, { highWaterMark: READ_CHUNK_BYTES }),
    discard,
  };
}

/**
 * A file on this machine's disk (the command line's import): read once for its size, SHA-256
 * and head, then as many times as the importer needs. `onRead` hears the bytes read so far by
 * each fresh read, for a progress bar.
 */
export async function fileFromPath(filePath: string, maxBytes: number, onRead: (bytesRead: number) => void = () => {}): Promise<ImportFile> {
  const hash = createHash('sha256');
  const headParts: Buffer[] = [];
  let headBytes = 0;
  let sizeBytes = 0;
  for await (const chunk of createReadStream(filePath, { highWaterMark: READ_CHUNK_BYTES })) {
    const bytes = chunk as Buffer;
    sizeBytes += bytes.length;
    if (sizeBytes > maxBytes) throw tooLarge(maxBytes);
    hash.update(bytes);
    if (headBytes < HEAD_BYTES) {
      headParts.push(bytes.subarray(0, HEAD_BYTES - headBytes));
      headBytes += Math.min(bytes.length, HEAD_BYTES - headBytes);
    }
  }
  return {
    head: Buffer.concat(headParts, headBytes),
    sizeBytes,
    sha256: hash.digest('hex'),
    open: async function* () {
      let bytesRead = 0;
      for await (const chunk of createReadStream(filePath, { highWaterMark: READ_CHUNK_BYTES })) {
        bytesRead += (chunk as Buffer).length;
        onRead(bytesRead);
        yield chunk as Buffer;
      }
    },
  };
}

/** A file held in memory (a small file the service writes itself, such as the demo's statements). */
export function fileFromBytes(bytes: Uint8Array): ImportFile {
  return {
    head: bytes.subarray(0, HEAD_BYTES),
    sizeBytes: bytes.length,
    sha256: createHash('sha256').update(bytes).digest('hex'),
    open: async function* () {
      for (let offset = 0; offset < bytes.length; offset += READ_CHUNK_BYTES) yield bytes.subarray(offset, offset + READ_CHUNK_BYTES);
    },
  };
}

/**
 * Reads the first `headBytes` of a stream (a preview needs only the head of a file) and drains
 * the rest unread, refusing a stream longer than `maxBytes`.
 */
export async function readHead(stream: Readable, headBytes: number, maxBytes: number): Promise<{ head: Buffer; complete: boolean }> {
  const parts: Buffer[] = [];
  let taken = 0;
  let total = 0;
  for await (const chunk of stream) {
    const bytes = chunk as Buffer;
    total += bytes.length;
    if (total > maxBytes) {
      stream.destroy();
      throw tooLarge(maxBytes);
    }
    if (taken < headBytes) {
      const piece = bytes.subarray(0, headBytes - taken);
      parts.push(piece);
      taken += piece.length;
    }
  }
  return { head: Buffer.concat(parts, taken), complete: total <= headBytes };
}
