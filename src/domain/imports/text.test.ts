import assert from 'node:assert/strict';
import iconv from 'iconv-lite';
import { describe, it } from 'node:test';
import { ImportFormatError } from './statement-entries.ts';
import { decodeText, guessCodePage, isValidUtf8, readLines, textChunks } from './text.ts';

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
      assert.deepEqual(
        lines,
        [
          { number: 1, text: 'a' },
          { number: 2, text: 'b' },
          { number: 3, text: 'c' },
          { number: 4, text: 'd' },
          { number: 5, text: '' },
          { number: 6, text: 'e' },
        ],
        `chunk size ${size}`,
      );
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

describe('guessCodePage', () => {
  const encode = (text: string, codePage: string) => new Uint8Array(iconv.encode(text, codePage));
  const hungarian = ':86:Csoportos átutalás jóváírása, napi összevont utánvét, Díj, jutalék, belüli, fióktelep, kőrös, tűz\n';

  it('reads Hungarian text in the code page it was written in, among those of Hungary', () => {
    for (const codePage of ['cp852', 'windows-1250', 'iso-8859-2']) {
      const bytes = encode(hungarian, codePage);
      const guess = guessCodePage(bytes, 'HU');
      // Hungarian letters sit at the same bytes in Windows-1250 and ISO-8859-2: either reads them right.
      assert.equal(iconv.decode(Buffer.from(bytes), guess.encoding), hungarian, codePage);
      assert.deepEqual(guess.candidates, ['cp852', 'windows-1250', 'iso-8859-2']);
      assert.equal(guess.countryName, 'Hungary');
    }
    assert.equal(guessCodePage(encode(hungarian, 'cp852'), 'HU').encoding, 'cp852');
  });

  it('reads Polish and Russian text in the code pages of their countries', () => {
    const polish = 'Przelew środków, opłata za prąd, Łódź, Gdańsk, źródło, żółw\n';
    assert.equal(guessCodePage(encode(polish, 'cp852'), 'PL').encoding, 'cp852');
    assert.equal(guessCodePage(encode(polish, 'windows-1250'), 'PL').encoding, 'windows-1250');
    assert.equal(guessCodePage(encode(polish, 'iso-8859-2'), 'PL').encoding, 'iso-8859-2');
    const russian = 'Оплата по счёту, перевод средств, комиссия банка\n';
    assert.equal(guessCodePage(encode(russian, 'cp866'), 'RU').encoding, 'ibm866');
    assert.equal(guessCodePage(encode(russian, 'windows-1251'), 'RU').encoding, 'windows-1251');
  });

  it('tells a German DOS export (cp850) from a Windows one when the country is unknown or Western', () => {
    const german = 'Überweisung Müller, Gebühr für Kontoführung, Straße, Bäckerei Größe\n';
    assert.equal(guessCodePage(encode(german, 'cp850'), null).encoding, 'cp850');
    assert.equal(guessCodePage(encode(german, 'cp850'), 'DE').encoding, 'cp850');
    assert.equal(guessCodePage(encode(german, 'windows-1252'), 'DE').encoding, 'windows-1252');
    assert.equal(guessCodePage(encode(german, 'windows-1252'), null).countryName, null);
  });

  it('keeps Windows-1252 when nothing tells the code pages apart', () => {
    assert.equal(guessCodePage(encode('plain ASCII only\n', 'windows-1252'), null).encoding, 'windows-1252');
    assert.equal(guessCodePage(encode('plain ASCII only\n', 'windows-1252'), 'HU').encoding, 'cp852');
  });
});
