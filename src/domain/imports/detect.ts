import { importErrors } from '../../errors.ts';
import { declaredXmlEncoding, sniffCamt } from './formats/camt.ts';
import { sniffBai2 } from './formats/bai2.ts';
import { sniffCsv } from './formats/csv/index.ts';
import { declaredOfxEncoding, sniffOfx } from './formats/ofx.ts';
import { sniffSwiftMt, swiftMtCountry } from './formats/swift-mt.ts';
import { IMPORT_FORMATS, type ImportFormat } from './statement-entries.ts';
import { canonicalEncoding, encodingOfByteOrderMark, guessCodePage, isSupportedEncoding } from './text.ts';

/**
 * Which format a file is in and how its bytes are to be read, from its first bytes: the
 * statement formats are recognised by their own markers (camt's message element, OFX's header,
 * MT940's field tags, BAI2's file header); anything else that is delimited text is CSV. A file
 * that is none of them (a ZIP, a PDF, a spreadsheet, binary data) is refused with 415.
 */

/** Bytes read from the start of a file to recognise it. */
export const HEAD_BYTES = 64 * 1024;

const FORMAT_LIST = `${IMPORT_FORMATS.join(', ')}`;

const unsupported = (found: string, advice = '') => importErrors.fileOfOtherKind(found, advice, FORMAT_LIST);

/** Files people send by mistake, by their magic numbers. */
const KNOWN_BINARIES: Array<{ magic: number[]; found: string; advice: string }> = [
  {
    magic: [0x50, 0x4b, 0x03, 0x04],
    found: 'a ZIP archive (or an Excel/OpenDocument workbook, which is one)',
    advice: '; unpack it, or save the sheet as CSV, and send that file',
  },
  { magic: [0x25, 0x50, 0x44, 0x46], found: 'a PDF document', advice: '; ask the bank for the statement as camt.053, MT940, BAI2, OFX or CSV' },
  { magic: [0x1f, 0x8b], found: 'a gzip-compressed file', advice: '; decompress it and send the file inside' },
  { magic: [0xd0, 0xcf, 0x11, 0xe0], found: 'an old Excel (.xls) workbook', advice: '; save the sheet as CSV and send that file' },
];

/** The head of a file as text for the sniffers: UTF-16 decoded as such, anything else as latin1. */
function headText(head: Uint8Array): string {
  const byteOrderMark = encodingOfByteOrderMark(head);
  if (byteOrderMark === 'utf-16le' || byteOrderMark === 'utf-16be') return new TextDecoder(byteOrderMark).decode(head).slice(0, 4096);
  return Buffer.from(head.buffer, head.byteOffset, Math.min(head.byteLength, 4096)).toString('latin1');
}

function isBinary(head: Uint8Array): boolean {
  const byteOrderMark = encodingOfByteOrderMark(head);
  if (byteOrderMark === 'utf-16le' || byteOrderMark === 'utf-16be') return false;
  // Text files hold no NUL bytes; a handful of other control characters in the first kilobytes is binary data.
  let controls = 0;
  const length = Math.min(head.length, 8192);
  for (let index = 0; index < length; index++) {
    const byte = head[index]!;
    if (byte === 0) return true;
    // SOH (1) and ETX (3) wrap each message of a SWIFT transmission; they are not binary data.
    if ((byte < 9 && byte !== 1 && byte !== 3) || (byte > 13 && byte < 32 && byte !== 26 && byte !== 27)) controls += 1;
  }
  return controls > 8;
}

/** The format of a file: the one asked for, or the one its head shows. */
export function detectFormat(head: Uint8Array, requested: ImportFormat | null): ImportFormat {
  if (head.length === 0) throw importErrors.fileEmpty();
  for (const known of KNOWN_BINARIES) {
    if (known.magic.every((byte, index) => head[index] === byte)) throw unsupported(known.found, known.advice);
  }
  if (isBinary(head)) throw unsupported('binary data, not text');
  if (requested !== null) return requested;
  const text = headText(head);
  const format = sniffCamt(text) ?? sniffOfx(text) ?? sniffSwiftMt(text) ?? sniffBai2(text) ?? sniffCsv(text);
  if (format === null) {
    const firstLine = text.split(/\r?\n/, 1)[0] ?? '';
    throw importErrors.formatNotRecognised(firstLine, FORMAT_LIST);
  }
  return format as ImportFormat;
}

export interface ChosenEncoding {
  encoding: string;
  /** Said in the report when the encoding was a guess. */
  warning: string | null;
}

/**
 * How a file's bytes are decoded: what the file declares (XML and OFX headers, a byte-order
 * mark) wins; otherwise what the request names (`encoding`, or a CSV mapping's); otherwise
 * UTF-8 when every byte is valid UTF-8; else the code page of the statement's country whose
 * letters fit the file best (text.ts, guessCodePage), said in a warning.
 */
export async function chooseEncoding(
  format: ImportFormat,
  head: Uint8Array,
  requested: string | null,
  wholeFileIsUtf8: () => Promise<boolean>,
): Promise<ChosenEncoding> {
  if (requested !== null && !isSupportedEncoding(requested)) {
    throw importErrors.encodingUnknown(requested);
  }
  const byteOrderMark = encodingOfByteOrderMark(head);
  if (byteOrderMark !== null) return { encoding: byteOrderMark, warning: null };
  const text = headText(head);
  const declared = format.startsWith('camt.') ? declaredXmlEncoding(text) : format === 'ofx' ? declaredOfxEncoding(text) : null;
  if (declared !== null && isSupportedEncoding(declared)) return { encoding: canonicalEncoding(declared), warning: null };
  if (requested !== null) return { encoding: canonicalEncoding(requested), warning: null };
  if (await wholeFileIsUtf8()) return { encoding: 'utf-8', warning: null };
  const country = statementCountry(format, text);
  const guess = guessCodePage(head, country);
  const among =
    guess.countryName === null
      ? 'the Western European code pages'
      : `the code pages used in ${guess.countryName} (the country of the statement's account or bank)`;
  const others = guess.candidates.filter((candidate) => candidate !== guess.encoding);
  return {
    encoding: guess.encoding,
    warning:
      `the file is not UTF-8 and does not say its encoding; it was read as ${codePageName(guess.encoding)}, which fits its letters best among ` +
      `${among}: ${guess.candidates.map(codePageName).join(', ')}. If letters look wrong, import it again with the "encoding" parameter (for example ${others.join(' or ')})`,
  };
}

/** A code page as people name it: "Windows-1252", "cp852 (DOS)". */
function codePageName(encoding: string): string {
  if (encoding.startsWith('windows-')) return `Windows-${encoding.slice(8)}`;
  if (encoding.startsWith('iso-8859-')) return encoding.toUpperCase();
  if (encoding === 'ibm866') return 'cp866 (DOS)';
  if (/^cp\d+$/.test(encoding)) return `${encoding} (DOS)`;
  return encoding.toUpperCase();
}

/** An IBAN's shape; its check digits confirm it (ISO 13616, mod 97). */
const IBAN_CANDIDATE = /\b([A-Z]{2})(\d{2})([A-Z0-9]{11,30})\b/g;

/**
 * The country of the statement's account, for choosing a code page: for MT940/MT942 from the
 * account in :25: or the bank's BIC; for any text format, the first valid IBAN in the head.
 */
function statementCountry(format: ImportFormat, head: string): string | null {
  if (format === 'mt940' || format === 'mt942') {
    const country = swiftMtCountry(head);
    if (country !== null) return country;
  }
  for (const match of head.matchAll(IBAN_CANDIDATE)) {
    if (isIbanChecksum(match[0])) return match[1]!;
  }
  return null;
}

function isIbanChecksum(iban: string): boolean {
  let remainder = 0;
  for (const character of iban.slice(4) + iban.slice(0, 4)) {
    const code = character.charCodeAt(0);
    const digits = code >= 65 ? String(code - 55) : character;
    for (const digit of digits) remainder = (remainder * 10 + (digit.charCodeAt(0) - 48)) % 97;
  }
  return remainder === 1;
}
