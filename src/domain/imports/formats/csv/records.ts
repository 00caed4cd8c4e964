import { CsvError, parse, type InfoRecord, type Options, type Parser } from 'csv-parse';
import { ImportFormatError } from '../../statement-entries.ts';
import { LINE_LENGTH_LIMIT } from '../../text.ts';
import { CSV_LIMITS } from './mapping.ts';

/** Reading records: the text fed to csv-parse as a stream, its errors turned into import errors with a line. */

interface CsvRecord {
  fields: string[];
  /** 1-based line of the file where the record starts. */
  line: number;
}

interface RecordSettings {
  delimiter: string;
  quote: string | null;
  skipRows: number;
  /** Whether the first record is a header, for messages. */
  header: boolean;
}

/** What the feeder learned that the reader needs for its messages. */
export interface FeedState {
  /** Lines dropped by skipRows (fewer than asked when the file is shorter). */
  skippedLines: number;
}

/** Counts line breaks as readLines does: CRLF, LF or a lone CR each end one line. */
function lineBreaks(text: string): number {
  let count = 0;
  for (let index = 0; index < text.length; index++) {
    const code = text.charCodeAt(index);
    if (code === 10) count += 1;
    else if (code === 13) {
      count += 1;
      if (text.charCodeAt(index + 1) === 10) index += 1;
    }
  }
  return count;
}

function lineBreaksInRecord(fields: readonly string[]): number {
  let count = 0;
  for (const field of fields) {
    if (field.indexOf('\n') !== -1 || field.indexOf('\r') !== -1) count += lineBreaks(field);
  }
  return count;
}

function waitForDrain(parser: Parser): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      parser.off('drain', done);
      parser.off('close', done);
      resolve();
    };
    parser.on('drain', done);
    parser.on('close', done);
  });
}

/**
 * Writes the text into the parser with back-pressure, after dropping `skipRows` lines (done
 * here rather than by csv-parse, so that quotes in the lines before the header, which are not
 * CSV, cannot derail it). A high surrogate at the end of a chunk waits for its partner, so that
 * no character is cut in two when the text is turned into bytes. Never rejects: a failure
 * destroys the parser with it, and the reader sees it.
 */
async function feedParser(text: AsyncIterable<string>, parser: Parser, skipRows: number, state: FeedState): Promise<void> {
  let linesToSkip = skipRows;
  let skippedLineLength = 0;
  let afterCarriageReturn = false;
  let heldSurrogate = '';
  try {
    for await (const original of text) {
      if (parser.destroyed) return;
      let chunk = original;
      if (afterCarriageReturn && chunk.length > 0) {
        if (chunk.charCodeAt(0) === 10) chunk = chunk.slice(1);
        afterCarriageReturn = false;
      }
      while (linesToSkip > 0 && chunk.length > 0) {
        let end = -1;
        for (let index = 0; index < chunk.length; index++) {
          const code = chunk.charCodeAt(index);
          if (code === 10 || code === 13) {
            end = index;
            break;
          }
        }
        if (end === -1) {
          skippedLineLength += chunk.length;
          chunk = '';
        } else {
          skippedLineLength += end;
          const carriageReturn = chunk.charCodeAt(end) === 13;
          let next = end + 1;
          if (carriageReturn && chunk.charCodeAt(next) === 10) next += 1;
          else if (carriageReturn && next === chunk.length) afterCarriageReturn = true;
          chunk = chunk.slice(next);
          linesToSkip -= 1;
          state.skippedLines += 1;
          skippedLineLength = 0;
        }
        if (skippedLineLength > LINE_LENGTH_LIMIT) {
          throw new ImportFormatError(
            { line: state.skippedLines + 1 },
            `a line longer than ${LINE_LENGTH_LIMIT} characters among the ${skipRows} lines skipRows drops`,
            `short lines of account details before the header; is this the right file?`,
          );
        }
      }
      if (chunk === '') continue;
      chunk = heldSurrogate + chunk;
      heldSurrogate = '';
      const last = chunk.charCodeAt(chunk.length - 1);
      if (last >= 0xd800 && last <= 0xdbff) {
        heldSurrogate = chunk.slice(-1);
        chunk = chunk.slice(0, -1);
        if (chunk === '') continue;
      }
      if (!parser.write(chunk)) await waitForDrain(parser);
    }
    if (linesToSkip > 0 && skippedLineLength > 0) state.skippedLines += 1;
    if (parser.destroyed) return;
    if (heldSurrogate !== '') parser.write(heldSurrogate);
    parser.end();
  } catch (error) {
    if (!parser.destroyed) parser.destroy(error instanceof Error ? error : new Error(String(error)));
  }
}

/**
 * The records of the text with the line each starts on. csv-parse's own line count counts a
 * CRLF inside a quoted field twice, so lines are counted here: a record starts after the
 * previous one's line breaks (those inside its quoted fields plus the one that ends it) and the
 * empty lines csv-parse skipped in between. The count is kept in csv-parse's record hook, which
 * runs in file order as the parser goes, so that it is right even for an error met while
 * earlier records still wait to be read.
 */
export async function* readRecords(text: AsyncIterable<string>, settings: RecordSettings, state: FeedState): AsyncGenerator<CsvRecord> {
  const count = { nextLine: settings.skipRows + 1, emptyLinesSeen: 0, expectedFields: -1 };
  const parser = parse({
    delimiter: settings.delimiter,
    quote: settings.quote ?? false,
    escape: settings.quote ?? false,
    record_delimiter: ['\r\n', '\n', '\r'],
    bom: true,
    skip_empty_lines: true,
    // Rows of another width than the first come through: longer ones so that trailing empty
    // fields (a delimiter at the end of every data row, as some banks write) can be told from
    // real extra fields, shorter ones so that a skip rule may leave out a closing balance line
    // (Deutsche Bank's "Kontostand;…"). The reader refuses every other such row itself.
    relax_column_count: true,
    max_record_size: CSV_LIMITS.maxRecordLength,
    // The hook receives the parser's context (lines and empty lines so far) with each record,
    // which is all the line count needs; `info: true` would build that context a second time
    // per record. The hook may return any value; the typings know only plain records.
    on_record: ((record: string[], context: InfoRecord): CsvRecord => {
      const line = count.nextLine + (context.empty_lines - count.emptyLinesSeen);
      count.emptyLinesSeen = context.empty_lines;
      count.nextLine = line + lineBreaksInRecord(record) + 1;
      if (count.expectedFields < 0) count.expectedFields = record.length;
      return { fields: record, line };
    }) as unknown as Options['on_record'],
  });
  const feeding = feedParser(text, parser, settings.skipRows, state);
  try {
    for await (const record of parser as AsyncIterable<CsvRecord>) yield record;
  } catch (error) {
    if (error instanceof CsvError) {
      const emptyLines = typeof error.empty_lines === 'number' ? error.empty_lines : count.emptyLinesSeen;
      throw csvErrorToImportError(error, count.nextLine + (emptyLines - count.emptyLinesSeen), count.expectedFields, settings);
    }
    throw error;
  } finally {
    if (!parser.destroyed) parser.destroy();
    // The feeder stops by itself once it sees the parser destroyed; waiting for it could wait
    // on a source that is slow to give its next chunk.
    void feeding;
  }
}

/** A row shorter than the header (or the first row), which no skip rule leaves out. */
export function fewerFieldsError(
  line: number,
  fields: number | null,
  expectedFields: number,
  settings: Pick<RecordSettings, 'delimiter' | 'header'>,
): ImportFormatError {
  return new ImportFormatError(
    { line },
    fields === null ? 'a row with a different number of fields' : `${fields} field${fields === 1 ? '' : 's'}`,
    `${expectedFields} fields separated by ${JSON.stringify(settings.delimiter)}, as in the ${settings.header ? 'header' : 'first row'}; a balance or total line at the end of an export must be removed or left out by a skip rule, and a field containing the delimiter must be quoted`,
  );
}

function csvErrorToImportError(error: CsvError, line: number, expectedFields: number, settings: RecordSettings): ImportFormatError {
  const quote = settings.quote === null ? null : JSON.stringify(settings.quote);
  switch (error.code) {
    case 'CSV_RECORD_INCONSISTENT_FIELDS_LENGTH':
    case 'CSV_RECORD_INCONSISTENT_COLUMNS': {
      const record = Array.isArray(error.record) ? (error.record as unknown[]) : null;
      return fewerFieldsError(line, record === null ? null : record.length, expectedFields, settings);
    }
    case 'CSV_MAX_RECORD_SIZE':
      return new ImportFormatError(
        { line },
        `a row longer than ${CSV_LIMITS.maxRecordLength} characters`,
        `rows of at most ${CSV_LIMITS.maxRecordLength} characters; check the delimiter (${JSON.stringify(settings.delimiter)})${quote === null ? '' : ` and that no quote (${quote}) is left open`}, and that this is a CSV file`,
      );
    case 'CSV_QUOTE_NOT_CLOSED':
      return new ImportFormatError(
        { line },
        `a field opened with the quote ${quote ?? ''} that is never closed`,
        `every quoted field closed by a quote; if quotes in this file are ordinary characters, set the mapping's "quote" to null`,
      );
    case 'CSV_INVALID_CLOSING_QUOTE':
      return new ImportFormatError(
        { line },
        `a closing quote ${quote ?? ''} followed by other characters`,
        `the delimiter or the end of the line after a closing quote; a quote inside a quoted field is written twice`,
      );
    case 'INVALID_OPENING_QUOTE':
      return new ImportFormatError(
        { line },
        `a quote ${quote ?? ''} inside a field that does not start with one`,
        `quotes only around whole fields; if quotes in this file are ordinary characters, set the mapping's "quote" to null`,
      );
    default:
      return new ImportFormatError({ line }, `text that is not CSV (${error.code})`, `rows of fields separated by ${JSON.stringify(settings.delimiter)}`);
  }
}
