import Table from 'cli-table3';
import { csvField, type CellKind } from '@ledger-recon/sdk';
import { CliError, ExitCode } from './exit-codes.ts';

/**
 * How the client commands print lists: a table on a terminal, JSON when piped, CSV when asked
 * (cells through the SDK's csvField, which no spreadsheet can run as a formula).
 * Lists are written page by page as they arrive (a million transactions never sit in memory),
 * waiting for the pipe to drain, so a slow reader slows the reading of pages instead of filling
 * memory.
 */

export const FORMATS = ['table', 'json', 'csv'] as const;
export type Format = (typeof FORMATS)[number];

export function chooseFormat(requested: string | undefined, stream: NodeJS.WriteStream = process.stdout): Format {
  if (requested === undefined) return stream.isTTY ? 'table' : 'json';
  if (!(FORMATS as readonly string[]).includes(requested))
    throw new CliError(ExitCode.usage, `--format must be one of ${FORMATS.join(', ')}; got "${requested}"`);
  return requested as Format;
}

export interface Column<T> {
  header: string;
  value: (item: T) => string;
  /** A number column's numbers stay numbers in CSV; every other cell is text that a spreadsheet cannot run. */
  kind?: CellKind;
  /** Widest a table cell gets; longer text is cut with "…". */
  maxWidth?: number;
}

/** Writes and waits until the stream can take more. */
function write(stream: NodeJS.WritableStream, text: string): Promise<void> {
  if (text === '') return Promise.resolve();
  return new Promise((resolve) => {
    if (stream.write(text)) resolve();
    else stream.once('drain', resolve);
  });
}

/** A table without vertical rules: it reads well in a terminal and continues cleanly page after page. */
const PLAIN_TABLE_CHARS = {
  top: '',
  'top-mid': '',
  'top-left': '',
  'top-right': '',
  bottom: '',
  'bottom-mid': '',
  'bottom-left': '',
  'bottom-right': '',
  left: '',
  'left-mid': '',
  mid: '',
  'mid-mid': '',
  right: '',
  'right-mid': '',
  middle: '  ',
};

const TABLE_CELL_WIDTH_DEFAULT = 40;

export class ListWriter<T> {
  private written = 0;
  private widths: number[] | null = null;

  constructor(
    private readonly format: Format,
    private readonly columns: Column<T>[],
    /** What JSON prints of an item; the whole item by default. */
    private readonly jsonOf: (item: T) => unknown = (item) => item,
    private readonly stream: NodeJS.WritableStream = process.stdout,
  ) {}

  async write(items: T[]): Promise<void> {
    if (items.length === 0) return;
    const first = this.written === 0;
    this.written += items.length;
    if (this.format === 'json') {
      const body = items.map((item) => JSON.stringify(this.jsonOf(item))).join(',\n');
      return write(this.stream, `${first ? '[\n' : ',\n'}${body}`);
    }
    const rows = items.map((item) => this.columns.map((column) => column.value(item)));
    if (this.format === 'csv') {
      const header = first ? this.columns.map((column) => csvField(column.header)).join(',') + '\r\n' : '';
      return write(this.stream, header + rows.map((row) => row.map((value, at) => csvField(value, this.columns[at]!.kind)).join(',')).join('\r\n') + '\r\n');
    }
    // Widths come from the first page and hold for the rest, so that the columns line up.
    this.widths ??= this.columns.map(
      (column, index) =>
        Math.min(column.maxWidth ?? TABLE_CELL_WIDTH_DEFAULT, Math.max(column.header.length, ...rows.map((row) => (row[index] ?? '').length))) + 2,
    );
    const table = new Table({
      head: first ? this.columns.map((column) => column.header) : [],
      colWidths: this.widths,
      chars: PLAIN_TABLE_CHARS,
      style: { head: (this.stream as NodeJS.WriteStream).isTTY ? ['bold'] : [], border: [], 'padding-left': 0, 'padding-right': 0 },
      wordWrap: false,
    });
    table.push(...rows);
    return write(this.stream, table.toString() + '\n');
  }

  /** Closes the JSON array; says "none" on a terminal when nothing came. */
  async end(emptyMessage = 'none'): Promise<number> {
    if (this.format === 'json') await write(this.stream, this.written === 0 ? '[]\n' : '\n]\n');
    else if (this.format === 'table' && this.written === 0) await write(this.stream, `${emptyMessage}\n`);
    return this.written;
  }
}

/** Writes every item of an async iterable, a page at a time. */
export async function writeAll<T>(writer: ListWriter<T>, items: AsyncIterable<T> | T[], pageSize = 500): Promise<number> {
  let page: T[] = [];
  for await (const item of items) {
    page.push(item);
    if (page.length >= pageSize) {
      await writer.write(page);
      page = [];
    }
  }
  await writer.write(page);
  return writer.end();
}

/** One object: JSON when piped or asked, else "name: value" lines. */
export function printRecord(format: Format, record: Record<string, unknown>, stream: NodeJS.WritableStream = process.stdout): void {
  if (format === 'json') {
    stream.write(JSON.stringify(record, null, 2) + '\n');
    return;
  }
  const width = Math.max(...Object.keys(record).map((key) => key.length));
  for (const [key, value] of Object.entries(record)) {
    const text = value === null || value === undefined ? '' : typeof value === 'object' ? JSON.stringify(value) : String(value);
    stream.write(`${key.padEnd(width)}  ${text}\n`);
  }
}

/** Epoch ms as an ISO date-time (UTC), empty for none. */
export function isoTime(epochMs: number | null | undefined): string {
  return typeof epochMs === 'number' ? new Date(epochMs).toISOString() : '';
}
