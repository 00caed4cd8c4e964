/** Whether a file's head looks like CSV, and a head cut into records without a mapping. */

const SNIFF_DELIMITERS = [',', ';', '\t', '|'];
/** The length of the head the importer passes; a head this long may end inside a line. */
const SNIFF_HEAD_LENGTH = 4096;
/** Records of the head looked at for each delimiter. */
const SNIFF_RECORD_LIMIT = 200;

/**
 * Whether the head of a file (decoded as latin1) is delimited text: the fallback format, so it
 * claims nothing that another format would. XML (camt, OFX 2.x), OFX 1.x headers, SWIFT MT940
 * and MT942 (`{1:` blocks or `:20:`-style tags) and BAI2 (`01,` file headers) are left to their
 * parsers; what remains is CSV when one delimiter cuts at least two lines into the same number
 * (two or more) of fields.
 */
export function sniffCsv(head: string): 'csv' | null {
  let text = head;
  if (text.startsWith('\u00ef\u00bb\u00bf')) text = text.slice(3);
  else if (text.startsWith('\u00ff\u00fe') || text.startsWith('\u00fe\u00ff')) text = text.slice(2).replaceAll('\u0000', '');
  else if (looksLikeUtf16(text)) text = text.replaceAll('\u0000', '');
  if (text.includes('\u0000')) return null;
  const start = text.trimStart();
  if (start === '' || start.startsWith('<')) return null;
  if (/^(OFXHEADER|DATA:OFXSGML|\{1:|\{2:|\{4:)/i.test(start)) return null;
  if (/^:\d{2}[A-Z]?:/m.test(text)) return null;
  if (/^01,/.test(start)) return null;
  let controls = 0;
  for (let index = 0; index < text.length; index++) {
    const code = text.charCodeAt(index);
    if (code < 32 && code !== 9 && code !== 10 && code !== 13) controls += 1;
  }
  if (controls > text.length / 100) return null;
  // A head cut at its full length may end inside a row: that row is left out.
  let sample = text;
  if (head.length >= SNIFF_HEAD_LENGTH) {
    const lastBreak = Math.max(sample.lastIndexOf('\n'), sample.lastIndexOf('\r'));
    if (lastBreak > 0) sample = sample.slice(0, lastBreak);
  }
  for (const delimiter of SNIFF_DELIMITERS) {
    const records = splitSample(sample, delimiter, '"', SNIFF_RECORD_LIMIT);
    let run = 0;
    let previous = -1;
    for (const record of records) {
      const fields = record.fields.length;
      run = fields >= 2 && fields === previous ? run + 1 : 1;
      previous = fields;
      if (fields >= 2 && (run >= 2 || records.length === 1)) return 'csv';
    }
  }
  return null;
}

/** UTF-16 text without a byte-order mark read as latin1: every other character is NUL. */
function looksLikeUtf16(text: string): boolean {
  const sample = text.slice(0, 200);
  if (sample.length < 8) return false;
  let nulls = 0;
  for (let index = 0; index < sample.length; index++) if (sample.charCodeAt(index) === 0) nulls += 1;
  return nulls >= sample.length * 0.4;
}

export interface SampleRecord {
  fields: string[];
  /** 1-based line where the record starts. */
  line: number;
  /** Whether a quote stood inside a field rather than around it (kept as text). */
  strayQuote: boolean;
}

/**
 * Cuts a sample of text (a file's head, held in memory) into records, for sniffing and for the
 * preview's guesses. Quoted fields may hold delimiters and line breaks; a quote is one only at
 * the start of a field, and a stray one after a closing quote is kept as text, so that a
 * guess never fails where csv-parse would. Empty lines are left out.
 */
export function splitSample(text: string, delimiter: string, quote: string | null, recordLimit: number): SampleRecord[] {
  const records: SampleRecord[] = [];
  let fields: string[] = [];
  let field = '';
  let quoted = false;
  let fieldWasQuoted = false;
  let recordHasContent = false;
  let strayQuote = false;
  let line = 1;
  let recordLine = 1;
  const finishRecord = () => {
    fields.push(field);
    if (recordHasContent) records.push({ fields, line: recordLine, strayQuote });
    fields = [];
    field = '';
    fieldWasQuoted = false;
    recordHasContent = false;
    strayQuote = false;
  };
  for (let index = 0; index < text.length && records.length < recordLimit; index++) {
    const character = text[index] as string;
    if (quoted) {
      if (character === quote) {
        if (text[index + 1] === quote) {
          field += character;
          index += 1;
        } else quoted = false;
        continue;
      }
      if (character === '\r' || character === '\n') {
        line += 1;
        if (character === '\r' && text[index + 1] === '\n') {
          field += '\r';
          index += 1;
          field += '\n';
          continue;
        }
      }
      field += character;
      continue;
    }
    if (character === '\r' || character === '\n') {
      if (character === '\r' && text[index + 1] === '\n') index += 1;
      finishRecord();
      line += 1;
      recordLine = line;
      continue;
    }
    recordHasContent = true;
    if (character === quote) {
      if (field === '' && !fieldWasQuoted) {
        quoted = true;
        fieldWasQuoted = true;
        continue;
      }
      strayQuote = true;
    }
    if (text.startsWith(delimiter, index)) {
      fields.push(field);
      field = '';
      fieldWasQuoted = false;
      index += delimiter.length - 1;
      continue;
    }
    field += character;
  }
  if (records.length < recordLimit && recordHasContent) finishRecord();
  return records;
}
