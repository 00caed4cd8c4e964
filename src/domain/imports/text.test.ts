import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ImportFormatError } from './statement-entries.ts';
import { decodeText, isValidUtf8, readLines, textChunks } from './text.ts';

async function collect<T>(items: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const item of items) out.push(item);
  return out;
}

async function* bytes(...chunks: number[][]): AsyncGenerator<Uint8Array> {
  for (const chunk of chunks) yield Uint8Array.from(chunk);
}

describe('readLines', () => {
  it('splits on CRLF, LF and lone CR, numbering from 1, whatever the chunk size', async () => {
    const text = 'a\r\nb\nc\rd\r\n\r\ne';
    for (const size of [1, 2, 3, 100]) {
      const lines = await collect(readLines(textChunks(text, size)));
      assert.deepEqual(lines, [
        { number: 1, text: 'a' },
        { number: 2, text: 'b' },
        { number: 3, text: 'c' },
        { number: 4, text: 'd' },
        { number: 5, text: '' },
        { number: 6, text: 'e' },
      ], `chunk size ${size}`);
    }
  });

  it('refuses a line over the limit as soon as it is seen', async () => {
    const huge = 'x'.repeat(1000);
    await assert.rejects(collect(readLines(textChunks(huge, 10), { maxLineLength: 100, what: 'MT940' })), (error: unknown) => {
      assert.ok(error instanceof ImportFormatError);
      assert.equal(error.line, 1);
      assert.match(error.message, /line 1: found a line longer than 100 characters; expected lines of at most 100 characters in MT940/);
      return true;
    });
  });
});

describe('decodeText', () => {
  it('decodes UTF-8 split inside a character and drops the BOM', async () => {
    const euro = [0xe2, 0x82, 0xac];
    const text = (await collect(decodeText(bytes([0xef, 0xbb, 0xbf, 0x41, euro[0]!], [euro[1]!, euro[2]!]), 'utf-8'))).join('');
    assert.equal(text, 'A€');
  });

  it('decodes Windows-1252 and DOS code pages', async () => {
    assert.equal((await collect(decodeText(bytes([0x80, 0xe4]), 'windows-1252'))).join(''), '€ä');
    assert.equal((await collect(decodeText(bytes([0x84, 0x81]), 'cp437'))).join(''), 'äü');
    assert.equal((await collect(decodeText(bytes([0x84]), 'cp850'))).join(''), 'ä');
  });

  it('refuses bytes that are not valid in the encoding, naming the line', async () => {
    await assert.rejects(collect(decodeText(bytes([0x61, 0x0a, 0x62, 0xe4, 0x0a]), 'utf-8')), /line 2: found bytes that are not valid utf-8/);
  });

  it('leaves out a character cut at the end of a head, and refuses it at the end of a whole file', async () => {
    const cut = [0x41, 0xe2, 0x82];
    assert.equal((await collect(decodeText(bytes(cut), 'utf-8', { partial: true }))).join(''), 'A');
    await assert.rejects(collect(decodeText(bytes(cut), 'utf-8')), /found bytes that are not valid utf-8/);
    const oddUtf16 = [0x41, 0x00, 0x42];
    assert.equal((await collect(decodeText(bytes(oddUtf16), 'utf-16le', { partial: true }))).join(''), 'A');
    await assert.rejects(collect(decodeText(bytes(oddUtf16), 'utf-16le')), /found bytes that are not valid utf-16le/);
  });

  it('tells valid UTF-8 from other bytes', async () => {
    assert.equal(await isValidUtf8(bytes([0xe2, 0x82], [0xac])), true);
    assert.equal(await isValidUtf8(bytes([0xe4])), false);
  });
});
