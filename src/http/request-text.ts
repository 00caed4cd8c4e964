import { isUtf8 } from 'node:buffer';
import secureJson from 'secure-json-parse';
import { isStorableText, unstorableTextProblem } from '../domain/text.ts';
import { invalidField, invalidRequest, pointerSegment, quoteInput } from '../errors.ts';

/**
 * What every request's text must be before the domain sees it: valid UTF-8, JSON without
 * repeated member names and not nested without bound, and no character the store cannot hold
 * (NUL, a lone UTF-16 surrogate). Each problem is refused here, once for every operation, with
 * the JSON pointer of the field that carries it; nothing is ever replaced or dropped silently.
 */

/** Deeper than any body of the API needs (a SearchQuery filter is five levels down). */
export const JSON_DEPTH_LIMIT = 32;

/**
 * The JSON pointer of the first string (or member name) that cannot be stored, or null. The
 * depth of `value` is bounded by JSON_DEPTH_LIMIT before this runs, so recursion is bounded too.
 */
export function unstorableTextAt(value: unknown, pointer = ''): string | null {
  if (typeof value === 'string') return isStorableText(value) ? null : pointer || '/';
  if (Array.isArray(value)) {
    for (let index = 0; index < value.length; index++) {
      const found = unstorableTextAt(value[index], `${pointer}/${index}`);
      if (found !== null) return found;
    }
    return null;
  }
  if (value !== null && typeof value === 'object') {
    for (const [key, item] of Object.entries(value)) {
      const path = `${pointer}/${pointerSegment(key)}`;
      if (!isStorableText(key)) return path;
      const found = unstorableTextAt(item, path);
      if (found !== null) return found;
    }
  }
  return null;
}

/** The value at a JSON pointer made by unstorableTextAt (the member name when the name is the problem). */
function textAtPointer(value: unknown, pointer: string): string {
  let current: unknown = value;
  for (const raw of pointer.split('/').slice(1)) {
    const key = raw.replace(/~1/g, '/').replace(/~0/g, '~');
    if (current === null || typeof current !== 'object') return '';
    if (!Object.hasOwn(current, key)) return key;
    current = (current as Record<string, unknown>)[key];
  }
  return typeof current === 'string' ? current : '';
}

interface Frame {
  kind: 'object' | 'array';
  /**
   * Member names seen so far in an object. Most objects have a handful of members, for which a
   * linear search of an array is cheaper than building a Set.
   */
  names: string[] | null;
  /** The current member name (object) or index (array), as a JSON pointer segment. */
  segment: string;
  index: number;
  expectingName: boolean;
}

export type StructureProblem = { kind: 'repeated-name'; pointer: string; name: string } | { kind: 'too-deep'; pointer: string };

function pointerOf(stack: readonly Frame[]): string {
  let pointer = '';
  for (const frame of stack) pointer += `/${pointerSegment(frame.segment)}`;
  return pointer;
}

/** The index just past the string token that opens at `start` (a '"'). */
function endOfString(text: string, start: number): number {
  let position = start + 1;
  for (;;) {
    const quote = text.indexOf('"', position);
    if (quote === -1) return text.length;
    let backslashes = 0;
    for (let index = quote - 1; text.charCodeAt(index) === 92; index--) backslashes += 1;
    if (backslashes % 2 === 0) return quote + 1;
    position = quote + 1;
  }
}

const OPEN_OBJECT = 123; // {
const OPEN_ARRAY = 91; // [
const CLOSE_OBJECT = 125; // }
const CLOSE_ARRAY = 93; // ]
const COMMA = 44;
const COLON = 58;
const QUOTE = 34;

/**
 * One pass over a JSON text's structure (not its values): finds the first member name repeated
 * within an object and the first point nested deeper than `depthLimit`, and, when `stopAtIndex`
 * is given, the JSON pointer of the value or name that covers that character. The text need not
 * be valid JSON; what JSON.parse would refuse is left to it. Iterative, so any depth is safe;
 * strings are skipped with indexOf. The scan can advance in slices (`advance`), so that a large
 * body is checked without holding the event loop for the whole of it.
 */
class StructureScanner {
  readonly #stack: Frame[] = [];
  #top: Frame | undefined;
  #index = 0;
  problem: StructureProblem | null = null;
  pointerAtStop: string | null = null;

  constructor(
    private readonly text: string,
    private readonly depthLimit: number,
    private readonly stopAtIndex: number,
  ) {}

  get done(): boolean {
    return this.#index >= this.text.length || this.problem !== null || this.pointerAtStop !== null;
  }

  /** Scans up to `characters` more characters; returns whether the scan is complete. */
  advance(characters: number): boolean {
    const { text, stopAtIndex } = this;
    const stack = this.#stack;
    const end = Math.min(text.length, this.#index + characters);
    let top = this.#top;
    let index = this.#index;
    for (; index < end; index++) {
      const character = text.charCodeAt(index);
      if (stopAtIndex >= 0 && index > stopAtIndex) {
        this.pointerAtStop = pointerOf(stack);
        break;
      }
      if (character === QUOTE) {
        const stringEnd = endOfString(text, index);
        if (top !== undefined && top.expectingName) {
          const token = text.slice(index + 1, stringEnd - 1);
          let name = token;
          if (token.includes('\\')) {
            try {
              name = JSON.parse(`"${token}"`) as string;
            } catch {
              // Left for JSON.parse to report.
            }
          }
          top.segment = name;
          if (top.names!.includes(name)) {
            this.problem = { kind: 'repeated-name', pointer: pointerOf(stack), name };
            break;
          }
          top.names!.push(name);
        }
        if (stopAtIndex >= index && stopAtIndex < stringEnd) {
          this.pointerAtStop = pointerOf(stack);
          break;
        }
        index = stringEnd - 1;
      } else if (character === OPEN_OBJECT || character === OPEN_ARRAY) {
        if (stack.length >= this.depthLimit) {
          this.problem = { kind: 'too-deep', pointer: pointerOf(stack) };
          break;
        }
        const object = character === OPEN_OBJECT;
        top = { kind: object ? 'object' : 'array', names: object ? [] : null, segment: object ? '' : '0', index: 0, expectingName: object };
        stack.push(top);
      } else if (character === CLOSE_OBJECT || character === CLOSE_ARRAY) {
        stack.pop();
        top = stack[stack.length - 1];
      } else if (character === COMMA) {
        if (top?.kind === 'array') top.segment = String(++top.index);
        else if (top) top.expectingName = true;
      } else if (character === COLON) {
        if (top) top.expectingName = false;
      }
    }
    this.#index = index;
    this.#top = top;
    if (this.#index >= text.length && stopAtIndex >= 0 && this.pointerAtStop === null) this.pointerAtStop = pointerOf(stack);
    return this.done;
  }
}

export function scanJsonStructure(
  text: string,
  options: { depthLimit?: number; stopAtIndex?: number } = {},
): { problem: StructureProblem | null; pointerAtStop: string | null } {
  const scanner = new StructureScanner(text, options.depthLimit ?? JSON_DEPTH_LIMIT, options.stopAtIndex ?? -1);
  scanner.advance(Number.POSITIVE_INFINITY);
  return { problem: scanner.problem, pointerAtStop: scanner.pointerAtStop };
}

/** Characters scanned between two turns of the event loop while reading a large body. */
const SCAN_SLICE_CHARACTERS = 256 * 1024;

const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

/** The 1-based line and column of a character of a text, for syntax errors. */
function lineAndColumn(text: string, index: number): string {
  let line = 1;
  let lineStart = 0;
  for (let position = text.indexOf('\n'); position !== -1 && position < index; position = text.indexOf('\n', position + 1)) {
    line += 1;
    lineStart = position + 1;
  }
  return `line ${line}, column ${index - lineStart + 1}`;
}

/** A \\u escape of NUL or of a surrogate (a pair is fine, but is checked on the parsed value). */
const SUSPICIOUS_ESCAPE = /\\u(0000|[dD][89a-fA-F])/;

/**
 * Reads a JSON request body strictly. `where` prefixes pointers (empty for a body). Throws the
 * API's invalid_request with the pointer of the problem; returns the parsed value.
 */
export async function parseJsonBody(body: Buffer): Promise<unknown> {
  let text: string;
  if (!isUtf8(body)) {
    text = body.toString('utf8');
    // Decoding leniently marks the first invalid byte with U+FFFD at the same place in the text
    // as a valid one would stand; the structure scan names the field that holds it.
    const badIndex = text.indexOf('\uFFFD', firstInvalidUtf8CharacterIndex(body));
    const pointer = scanJsonStructure(text, { stopAtIndex: badIndex }).pointerAtStop || '/';
    throw invalidField(pointer, 'contains bytes that are not valid UTF-8; send the body as UTF-8 text (a JSON body must be UTF-8)');
  }
  text = body.toString('utf8');
  // A large body is checked in slices, with a turn of the event loop in between, so that other
  // requests are served while a 20 MB ingest is read.
  const scanner = new StructureScanner(text, JSON_DEPTH_LIMIT, -1);
  while (!scanner.advance(SCAN_SLICE_CHARACTERS)) await nextTurn();
  const problem = scanner.problem;
  if (text.length > SCAN_SLICE_CHARACTERS) await nextTurn();
  if (problem?.kind === 'repeated-name') {
    throw invalidField(
      problem.pointer || '/',
      `the member name ${quoteInput(problem.name)} appears more than once in this object; send each property once (a JSON reader would otherwise silently keep only one of them)`,
    );
  }
  if (problem?.kind === 'too-deep') {
    throw invalidField(
      problem.pointer || '/',
      `the body is nested deeper than ${JSON_DEPTH_LIMIT} levels, more than any operation takes; check how the body is built`,
    );
  }
  let value: unknown;
  try {
    value = secureJson.parse(text, undefined, { protoAction: 'error', constructorAction: 'error' });
  } catch (error) {
    throw invalidRequest(`the body is not valid JSON: ${describeSyntaxError(error, text)}`);
  }
  // In JSON text a NUL or a lone surrogate can only be written as a \\u escape (raw control
  // characters are invalid and decoded UTF-8 holds no surrogates), so the parsed value is walked
  // only when the text has such an escape.
  if (SUSPICIOUS_ESCAPE.test(text)) {
    const pointer = unstorableTextAt(value);
    if (pointer !== null) throw invalidField(pointer, unstorableTextProblem(textAtPointer(value, pointer)));
  }
  return value;
}

function describeSyntaxError(error: unknown, text: string): string {
  const message = error instanceof Error ? error.message : String(error);
  if (/forbidden (prototype|constructor) property/.test(message)) {
    return 'it sets "__proto__" or "constructor.prototype", which is refused; remove that property';
  }
  // The reader's message may quote the body; only its description is kept, never the excerpt.
  const description = message.replace(/, ".*" is not valid JSON$/s, '').replace(/ in JSON at position \d+.*$/s, '');
  const position = /at position (\d+)/.exec(message);
  const where = position ? ` at ${lineAndColumn(text, Number(position[1]))}` : '';
  return `${description.charAt(0).toLowerCase()}${description.slice(1, 120)}${where}`;
}

/** The character index in the leniently decoded text where the first invalid byte sequence starts. */
function firstInvalidUtf8CharacterIndex(body: Buffer): number {
  // Bisect on the length of the longest valid prefix: isUtf8 is native and fast, so this is
  // about log2(size) native scans instead of a scan byte by byte in JavaScript.
  let valid = 0;
  let invalid = body.length;
  while (invalid - valid > 1) {
    const middle = (valid + invalid) >>> 1;
    // A prefix that cuts a valid character in two is not valid UTF-8 either; allow for it by
    // checking up to three bytes less.
    let prefixValid = false;
    for (let cut = 0; cut <= 3 && middle - cut > valid; cut++) {
      if (isUtf8(body.subarray(0, middle - cut))) {
        prefixValid = true;
        break;
      }
    }
    if (prefixValid) valid = middle;
    else invalid = middle;
  }
  while (valid > 0 && !isUtf8(body.subarray(0, valid))) valid -= 1;
  return body.subarray(0, valid).toString('utf8').length;
}

/** Problems found by parseQueryString, kept on the parsed object for the pre-validation check. */
export const QUERY_PROBLEMS = Symbol('query problems');

export interface QueryProblem {
  pointer: string;
  message: string;
}

/**
 * Parses a query string strictly: a malformed or non-UTF-8 percent escape, a repeated
 * parameter and text that cannot be stored are problems (kept under QUERY_PROBLEMS and refused
 * before validation), where a lenient parser would keep "%FF" as it is or pick one of two values.
 */
export function parseQueryString(query: string): Record<string | symbol, unknown> {
  const parameters: Record<string | symbol, unknown> = Object.create(null);
  const problems: QueryProblem[] = [];
  for (const pair of query.split('&')) {
    if (pair === '') continue;
    const separator = pair.indexOf('=');
    const rawName = separator < 0 ? pair : pair.slice(0, separator);
    const rawValue = separator < 0 ? '' : pair.slice(separator + 1);
    const name = decodeComponent(rawName);
    const shownName = name ?? rawName;
    const pointer = `/querystring/${pointerSegment(shownName)}`;
    if (name === null) {
      problems.push({ pointer, message: `the parameter name ${quoteInput(rawName)} has a malformed or non-UTF-8 percent escape; percent-encode UTF-8 text` });
      continue;
    }
    const value = decodeComponent(rawValue);
    if (value === null) {
      problems.push({ pointer, message: 'has a malformed or non-UTF-8 percent escape; percent-encode the value as UTF-8' });
      continue;
    }
    if (!isStorableText(name) || !isStorableText(value)) {
      problems.push({ pointer, message: unstorableTextProblem(isStorableText(name) ? value : name) });
      continue;
    }
    if (Object.hasOwn(parameters, name)) {
      problems.push({ pointer, message: 'is repeated; send each query parameter once' });
      continue;
    }
    parameters[name] = value;
  }
  if (problems.length > 0) Object.defineProperty(parameters, QUERY_PROBLEMS, { value: problems, enumerable: false });
  return parameters;
}

function decodeComponent(component: string): string | null {
  const spaced = component.includes('+') ? component.replaceAll('+', ' ') : component;
  if (!spaced.includes('%')) return spaced;
  try {
    return decodeURIComponent(spaced);
  } catch {
    return null;
  }
}
