import iconv from 'iconv-lite';
import { isUtf8 } from 'node:buffer';
import { ImportFormatError } from './statement-entries.ts';

/**
 * Bytes to text, and text to numbered lines, as streams: a file of any size passes through with
 * one chunk (and at most one line) in memory.
 */

/** DOS code pages that banks still use for MT940 and BAI2 exports; WHATWG decoders lack them (cp866 is WHATWG's ibm866). */
const DOS_CODE_PAGES = new Set(['cp437', 'cp850', 'cp852', 'cp775', 'ibm437', 'ibm850', 'ibm852', 'ibm775']);

interface ChunkDecoder {
  /** Decodes a chunk; bytes of a character split across chunks wait for the next one. */
  write(chunk: Uint8Array): string;
  end(): string;
}

/** Whether an encoding label is one a file may name: a WHATWG label or a DOS code page. */
export function isSupportedEncoding(label: string): boolean {
  if (DOS_CODE_PAGES.has(label.toLowerCase())) return true;
  try {
    new TextDecoder(label);
    return true;
  } catch {
    return false;
  }
}

/** The canonical name of a supported encoding label ("latin1" -> "windows-1252", as WHATWG says). */
export function canonicalEncoding(label: string): string {
  const lowered = label.toLowerCase();
  if (DOS_CODE_PAGES.has(lowered)) return lowered.replace(/^ibm/, 'cp');
  return new TextDecoder(label).encoding;
}

function chunkDecoder(label: string, fatal: boolean): ChunkDecoder {
  const lowered = label.toLowerCase();
  if (DOS_CODE_PAGES.has(lowered)) {
    const decoder = iconv.getDecoder(lowered.replace(/^ibm/, 'cp'));
    return { write: (chunk) => decoder.write(Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength)), end: () => decoder.end() ?? '' };
  }
  const decoder = new TextDecoder(label, { fatal });
  return { write: (chunk) => decoder.decode(chunk, { stream: true }), end: () => decoder.decode() };
}

/**
 * Decodes a byte stream. A byte-order mark is dropped. With `fatal`, bytes that are not valid in
 * the encoding stop the stream with an error naming the line; without it, they would become
 * U+FFFD, which an import must never store silently, so the importer always decodes fatally
 * and chooses the encoding first (chooseTextEncoding). With `partial` the bytes are only the head
 * of a file (a preview's first megabyte): a character cut at their end is left out, not refused,
 * since its other bytes were not read.
 */
export async function* decodeText(bytes: AsyncIterable<Uint8Array>, encoding: string, options: { partial?: boolean } = {}): AsyncGenerator<string> {
  const decoder = chunkDecoder(encoding, true);
  let line = 1;
  let current: Uint8Array = new Uint8Array(0);
  try {
    for await (const chunk of bytes) {
      current = chunk;
      const text = decoder.write(chunk);
      if (text !== '') {
        line += countLineBreaks(text);
        yield text;
      }
    }
    current = new Uint8Array(0);
    const rest = options.partial ? '' : decoder.end();
    if (rest !== '') yield rest;
  } catch (error) {
    if (error instanceof TypeError) {
      // Decoding the failing chunk leniently shows where the first bad byte sits in it.
      const lenient = new TextDecoder(encoding).decode(current);
      const bad = lenient.indexOf('\uFFFD');
      const badLine = line + countLineBreaks(bad < 0 ? lenient : lenient.slice(0, bad));
      const name = canonicalEncoding(encoding);
      throw new ImportFormatError(
        { line: badLine },
        `bytes that are not valid ${name}`,
        `text in ${name}, or the file's real encoding in the "encoding" parameter`,
      );
    }
    throw error;
  }
}

function countLineBreaks(text: string): number {
  let count = 0;
  for (let index = text.indexOf('\n'); index !== -1; index = text.indexOf('\n', index + 1)) count += 1;
  return count;
}

/**
 * Whether a byte stream is valid UTF-8 throughout (read once, chunk by chunk). Checked with
 * Buffer.isUtf8, which validates without building the text a decoder would (the text is thrown
 * away here, and building it cost as much as the rest of the check). A character cut at the end
 * of a chunk is held back and checked with the next one.
 */
export async function isValidUtf8(bytes: AsyncIterable<Uint8Array>): Promise<boolean> {
  let held: Uint8Array = new Uint8Array(0);
  for await (const chunk of bytes) {
    const whole = held.length === 0 ? chunk : Buffer.concat([held, chunk]);
    const complete = whole.length - incompleteUtf8Tail(whole);
    if (!isUtf8(whole.subarray(0, complete))) return false;
    held = whole.slice(complete);
  }
  return held.length === 0;
}

/**
 * How many bytes at the end of `bytes` begin a character that needs more bytes than are there
 * (0 when the last character is complete, or when the end is not UTF-8 at all, which the check
 * of the bytes then finds).
 */
function incompleteUtf8Tail(bytes: Uint8Array): number {
  for (let back = 1; back <= Math.min(3, bytes.length); back++) {
    const byte = bytes[bytes.length - back]!;
    if ((byte & 0xc0) === 0x80) continue;
    const needed = byte >= 0xf0 ? 4 : byte >= 0xe0 ? 3 : byte >= 0xc0 ? 2 : 1;
    return needed > back ? back : 0;
  }
  return 0;
}

/** The encoding a byte-order mark announces, or null. */
export function encodingOfByteOrderMark(head: Uint8Array): string | null {
  if (head[0] === 0xef && head[1] === 0xbb && head[2] === 0xbf) return 'utf-8';
  if (head[0] === 0xff && head[1] === 0xfe) return 'utf-16le';
  if (head[0] === 0xfe && head[1] === 0xff) return 'utf-16be';
  return null;
}

export interface NumberedLine {
  /** 1-based line number in the file. */
  number: number;
  text: string;
}

/** The longest line a statement format may have by default; a longer one is refused, never buffered. */
export const LINE_LENGTH_LIMIT = 64 * 1024;

/**
 * Splits text into numbered lines on CRLF, LF or a lone CR, without the break. A line longer
 * than `maxLineLength` is refused as soon as it is seen, so a file without line breaks cannot
 * make the reader buffer it whole.
 */
export async function* readLines(text: AsyncIterable<string>, options: { maxLineLength?: number; what?: string } = {}): AsyncGenerator<NumberedLine> {
  const maxLineLength = options.maxLineLength ?? LINE_LENGTH_LIMIT;
  let pending = '';
  let number = 1;
  let afterCarriageReturn = false;
  for await (const chunk of text) {
    let start = 0;
    for (let index = 0; index < chunk.length; index++) {
      const character = chunk.charCodeAt(index);
      if (character !== 10 && character !== 13) continue;
      if (character === 10 && afterCarriageReturn && index === start && pending === '') {
        // The LF of a CRLF split across chunks (or right after the CR): not a second break.
        afterCarriageReturn = false;
        start = index + 1;
        continue;
      }
      const line = pending + chunk.slice(start, index);
      pending = '';
      if (line.length > maxLineLength) throw tooLong(number, maxLineLength, options.what);
      yield { number, text: line };
      number += 1;
      afterCarriageReturn = character === 13;
      if (afterCarriageReturn && chunk.charCodeAt(index + 1) === 10) {
        index += 1;
        afterCarriageReturn = false;
      }
      start = index + 1;
    }
    if (start < chunk.length) {
      afterCarriageReturn = false;
      pending += chunk.slice(start);
      if (pending.length > maxLineLength) throw tooLong(number, maxLineLength, options.what);
    }
  }
  if (pending !== '') yield { number, text: pending };
}

function tooLong(line: number, maxLineLength: number, what = 'this format'): ImportFormatError {
  return new ImportFormatError(
    { line },
    `a line longer than ${maxLineLength} characters`,
    `lines of at most ${maxLineLength} characters in ${what}; is this the right file and format?`,
  );
}

/** Text as a stream of chunks of at most `chunkSize` characters (tests use it to cut at awkward places). */
export async function* textChunks(text: string, chunkSize = 64 * 1024): AsyncGenerator<string> {
  for (let start = 0; start < text.length; start += chunkSize) yield text.slice(start, start + chunkSize);
}

/**
 * The head of a file, decoded as latin1 for a sniffer, without the zero bytes of UTF-16 and
 * without a byte-order mark (UTF-8 as read in latin1, UTF-16 either way, or already decoded):
 * the markup the sniffers look for then reads the same whatever the encoding.
 */
export function sniffableHead(head: string): string {
  const text = head.includes('\u0000') ? head.replace(/\u0000/g, '') : head;
  return text.replace(/^(\uFEFF|\u00EF\u00BB\u00BF|\u00FF\u00FE|\u00FE\u00FF)/, '');
}

/**
 * The code pages a country's banks write when they do not write UTF-8: the DOS code page of their
 * older systems, the Windows code page and the ISO one. Countries not listed write Western
 * European text (Windows-1252, cp850, cp437).
 */
const CODE_PAGE_GROUPS = {
  western: { codePages: ['windows-1252', 'cp850', 'cp437'], letters: 'àáâãäåæçèéêëìíîïðñòóôõöøùúûüýþÿßÀÁÂÃÄÅÆÇÈÉÊËÌÍÎÏÐÑÒÓÔÕÖØÙÚÛÜÝÞŒœŠšŽžŸ' },
  central: {
    codePages: ['cp852', 'windows-1250', 'iso-8859-2'],
    letters: 'áäâăąćčďđéëęěíîĺľłńňóôöőŕřśşšţťúůüűýźżžÁÄÂĂĄĆČĎĐÉËĘĚÍÎĹĽŁŃŇÓÔÖŐŔŘŚŞŠŢŤÚŮÜŰÝŹŻŽßșțȘȚ',
  },
  cyrillic: {
    codePages: ['ibm866', 'windows-1251', 'koi8-r'],
    letters: 'абвгдеёжзийклмнопрстуфхцчшщъыьэюяАБВГДЕЁЖЗИЙКЛМНОПРСТУФХЦЧШЩЪЫЬЭЮЯєіїґЄІЇҐђјљњћџЂЈЉЊЋЏѓќѕЃЌЅ',
  },
  baltic: { codePages: ['cp775', 'windows-1257', 'iso-8859-13'], letters: 'āčēģīķļņšūžąęėįųõäöüĀČĒĢĪĶĻŅŠŪŽĄĘĖĮŲÕÄÖÜ' },
} as const;
type CodePageGroup = keyof typeof CODE_PAGE_GROUPS;

const COUNTRY_CODE_PAGE_GROUP: Record<string, CodePageGroup> = {
  HU: 'central',
  PL: 'central',
  CZ: 'central',
  SK: 'central',
  SI: 'central',
  HR: 'central',
  RO: 'central',
  BA: 'central',
  RS: 'central',
  AL: 'central',
  RU: 'cyrillic',
  UA: 'cyrillic',
  BY: 'cyrillic',
  BG: 'cyrillic',
  MK: 'cyrillic',
  KZ: 'cyrillic',
  EE: 'baltic',
  LV: 'baltic',
  LT: 'baltic',
};

/** The countries' names, for the warning that says why a code page was chosen. */
const COUNTRY_NAMES: Record<string, string> = {
  HU: 'Hungary',
  PL: 'Poland',
  CZ: 'Czechia',
  SK: 'Slovakia',
  SI: 'Slovenia',
  HR: 'Croatia',
  RO: 'Romania',
  BA: 'Bosnia and Herzegovina',
  RS: 'Serbia',
  AL: 'Albania',
  RU: 'Russia',
  UA: 'Ukraine',
  BY: 'Belarus',
  BG: 'Bulgaria',
  MK: 'North Macedonia',
  KZ: 'Kazakhstan',
  EE: 'Estonia',
  LV: 'Latvia',
  LT: 'Lithuania',
  DE: 'Germany',
  AT: 'Austria',
  CH: 'Switzerland',
  NL: 'the Netherlands',
  BE: 'Belgium',
  LU: 'Luxembourg',
  FR: 'France',
  IT: 'Italy',
  ES: 'Spain',
  PT: 'Portugal',
  DK: 'Denmark',
  SE: 'Sweden',
  NO: 'Norway',
  FI: 'Finland',
  IE: 'Ireland',
  GB: 'the United Kingdom',
  US: 'the United States',
  CA: 'Canada',
};

/** Bytes scored when guessing a code page: the head of the file the importer reads anyway. */
const CODE_PAGE_SAMPLE_BYTES = 64 * 1024;

export interface GuessedCodePage {
  encoding: string;
  /** The code pages that were weighed, in the order that wins a tie. */
  candidates: readonly string[];
  /** The country whose code pages were weighed, or null for the Western European ones. */
  country: string | null;
  /** The country's name in words, when it is known. */
  countryName: string | null;
}

/**
 * The code page of text that is not UTF-8 and does not say its encoding, chosen among the DOS,
 * Windows and ISO code pages of the statement's country (Western European ones when the country
 * is unknown) by how well each reads the bytes that are not ASCII: a letter of the country's
 * alphabet counts for, a letter of another alphabet a little, a symbol or box-drawing character
 * against, and a control character or an unmapped byte strongly against. On a tie the first code
 * page of the list wins (Windows-1252 for Western European text, as before any guessing).
 */
export function guessCodePage(head: Uint8Array, country: string | null): GuessedCodePage {
  const known = country !== null && Object.hasOwn(COUNTRY_CODE_PAGE_GROUP, country) ? country : null;
  const group = CODE_PAGE_GROUPS[known === null ? 'western' : COUNTRY_CODE_PAGE_GROUP[known]!];
  const sample = Buffer.from(head.buffer, head.byteOffset, Math.min(head.byteLength, CODE_PAGE_SAMPLE_BYTES));
  let best: string = group.codePages[0];
  let bestScore = -Infinity;
  for (const codePage of group.codePages) {
    const score = codePageScore(decodeLeniently(sample, codePage), group.letters);
    if (score > bestScore) {
      best = codePage;
      bestScore = score;
    }
  }
  return { encoding: best, candidates: group.codePages, country, countryName: country === null ? null : (COUNTRY_NAMES[country] ?? null) };
}

function decodeLeniently(bytes: Buffer, codePage: string): string {
  return DOS_CODE_PAGES.has(codePage) ? iconv.decode(bytes, codePage) : new TextDecoder(codePage).decode(bytes);
}

/** How well decoded text reads as the alphabet's language; only characters outside ASCII count. */
function codePageScore(text: string, letters: string): number {
  let score = 0;
  for (const character of text) {
    const code = character.codePointAt(0)!;
    if (code < 0x80) continue;
    if (letters.includes(character)) score += 2;
    else if (/\p{L}/u.test(character)) score += 0.5;
    else if ((code >= 0x80 && code <= 0x9f) || code === 0xfffd) score -= 3;
    else score -= 1;
  }
  return score;
}
