import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { AppError } from '../errors.ts';
import { JSON_DEPTH_LIMIT, parseJsonBody, parseQueryString, QUERY_PROBLEMS, scanJsonStructure, unstorableTextAt } from './request-text.ts';

async function refusal(body: Buffer | string): Promise<AppError> {
  try {
    await parseJsonBody(typeof body === 'string' ? Buffer.from(body, 'utf8') : body);
  } catch (error) {
    assert.ok(error instanceof AppError, String(error));
    return error;
  }
  assert.fail('the body was accepted');
}

describe('parseJsonBody', async () => {
  it('reads a valid body', async () => {
    assert.deepEqual(await parseJsonBody(Buffer.from('{"a": [1, {"b": "€"}], "c": null}')), { a: [1, { b: '€' }], c: null });
  });

  it('refuses a repeated member name, naming the object and the name', async () => {
    const error = await refusal('{"limit": 5000, "limit": 5}');
    assert.equal(error.details[0]!.path, '/limit');
    assert.match(error.message, /the member name "limit" appears more than once/);
    const nested = await refusal('{"records": [{"a": 1}, {"b": 1, "b": 2}]}');
    assert.equal(nested.details[0]!.path, '/records/1/b');
    // The same name in different objects is fine; an escaped name equal to a plain one is a repeat.
    assert.deepEqual(await parseJsonBody(Buffer.from('[{"a":1},{"a":2}]')), [{ a: 1 }, { a: 2 }]);
    assert.equal((await refusal('{"a": 1, "\\u0061": 2}')).details[0]!.path, '/a');
  });

  it('refuses nesting beyond the limit with a message that says so', async () => {
    const error = await refusal('['.repeat(5000) + ']'.repeat(5000));
    assert.match(error.message, new RegExp(`nested deeper than ${JSON_DEPTH_LIMIT} levels`));
    let deepest: unknown[] = [];
    for (let depth = 1; depth < JSON_DEPTH_LIMIT; depth++) deepest = [deepest];
    assert.deepEqual(await parseJsonBody(Buffer.from('['.repeat(JSON_DEPTH_LIMIT) + ']'.repeat(JSON_DEPTH_LIMIT))), deepest);
  });

  it('refuses bytes that are not UTF-8, naming the field that holds them', async () => {
    const body = Buffer.concat([Buffer.from('{"records": [{"description": "caf€ ab'), Buffer.from([0xff]), Buffer.from('c"}]}')]);
    const error = await refusal(body);
    assert.equal(error.details[0]!.path, '/records/0/description');
    assert.match(error.message, /not valid UTF-8/);
    // A valid U+FFFD before the bad byte does not mislead the search.
    const withReplacement = Buffer.concat([Buffer.from('{"a": "\uFFFD", "b": "x'), Buffer.from([0xc3]), Buffer.from('"}')]);
    assert.equal((await refusal(withReplacement)).details[0]!.path, '/b');
  });

  it('refuses NUL and lone surrogates in values and names, naming the pointer', async () => {
    assert.equal((await refusal('{"records": [{"timestamp": 1, "description": "\\ud800"}]}')).details[0]!.path, '/records/0/description');
    assert.equal((await refusal('{"a": {"b": "x\\u0000y"}}')).details[0]!.path, '/a/b');
    assert.equal((await refusal('{"a\\u0000": 1}')).details[0]!.path, '/a\u0000');
    assert.match((await refusal('["\\udfff\\udfff"]')).message, /lone UTF-16 surrogate/);
    // A correct pair is text.
    assert.deepEqual(await parseJsonBody(Buffer.from('["\\ud83d\\ude00"]')), ['😀']);
  });

  it('says where a syntax error is, with a short excerpt', async () => {
    assert.equal((await refusal('{"a": 1,\n "b": }')).message, "the body is not valid JSON: unexpected token '}'");
    assert.match(
      (await refusal('{"a": 1,\n "b": "x\u0001"}')).message,
      /the body is not valid JSON: bad control character in string literal at line 2, column \d+/,
    );
    // A long body is never echoed.
    assert.ok((await refusal(`{"a": "${'x'.repeat(100000)}" ]`)).message.length < 200);
    assert.ok((await refusal('{"__proto__": {"x": 1}}')).message.includes('__proto__'));
  });
});

describe('scanJsonStructure', () => {
  it('names the value that covers a character', () => {
    const text = '{"a": [10, "xyz", {"b": "q"}]}';
    assert.equal(scanJsonStructure(text, { stopAtIndex: text.indexOf('xyz') + 1 }).pointerAtStop, '/a/1');
    assert.equal(scanJsonStructure(text, { stopAtIndex: text.indexOf('"q"') + 1 }).pointerAtStop, '/a/2/b');
  });
});

describe('unstorableTextAt', () => {
  it('escapes pointer segments', () => {
    assert.equal(unstorableTextAt({ 'a/b': { '~c': '\u0000' } }), '/a~1b/~0c');
  });
});

describe('parseQueryString', () => {
  it('decodes strictly and keeps the problems', () => {
    assert.deepEqual({ ...parseQueryString('a=1&b=x+y%20z') }, { a: '1', b: 'x y z' });
    const problems = (query: string) => (parseQueryString(query)[QUERY_PROBLEMS] as { pointer: string; message: string }[]) ?? [];
    assert.match(problems('note=%FF')[0]!.message, /malformed or non-UTF-8 percent escape/);
    assert.equal(problems('note=a%00b')[0]!.pointer, '/querystring/note');
    assert.match(problems('a=1&a=2')[0]!.message, /repeated/);
    assert.deepEqual(problems('a=%E2%82%AC'), []);
  });
});
