import assert from 'node:assert/strict';
import { createServer } from 'node:net';
import { describe, it } from 'node:test';
import { errorFromResponse, LedgerReconError, networkError, retryAfterSecondsOf } from './errors.ts';

const URL_OF_QUERY = 'https://recon.example.com/v1/api/org-1/transactions';

function responseOf(status: number, headers: Record<string, string> = {}, statusText?: string): Response {
  return new Response(null, { status, headers, ...(statusText === undefined ? {} : { statusText }) });
}

describe('retryAfterSecondsOf', () => {
  const nowMs = Date.parse('Wed, 21 Oct 2015 07:28:00 GMT');

  it('reads delta seconds', () => {
    assert.equal(retryAfterSecondsOf(new Headers({ 'retry-after': '120' }), nowMs), 120);
    assert.equal(retryAfterSecondsOf(new Headers({ 'retry-after': '0' }), nowMs), 0);
    assert.equal(retryAfterSecondsOf(new Headers({ 'retry-after': ' 7 ' }), nowMs), 7);
  });

  it('reads an HTTP date as the seconds until then, rounded up, and 0 for a date gone by', () => {
    assert.equal(retryAfterSecondsOf(new Headers({ 'retry-after': 'Wed, 21 Oct 2015 07:28:30 GMT' }), nowMs), 30);
    assert.equal(retryAfterSecondsOf(new Headers({ 'retry-after': 'Wed, 21 Oct 2015 07:28:30 GMT' }), nowMs + 500), 30);
    assert.equal(retryAfterSecondsOf(new Headers({ 'retry-after': 'Wed, 21 Oct 2015 07:28:30 GMT' }), nowMs - 500), 31);
    assert.equal(retryAfterSecondsOf(new Headers({ 'retry-after': 'Wed, 21 Oct 2015 07:27:00 GMT' }), nowMs), 0);
  });

  it('is undefined when absent, empty or unreadable', () => {
    assert.equal(retryAfterSecondsOf(new Headers(), nowMs), undefined);
    assert.equal(retryAfterSecondsOf(new Headers({ 'retry-after': '' }), nowMs), undefined);
    assert.equal(retryAfterSecondsOf(new Headers({ 'retry-after': 'soon' }), nowMs), undefined);
    assert.equal(retryAfterSecondsOf(new Headers({ 'retry-after': 'later, please' }), nowMs), undefined);
  });

  it('is undefined for garbage that holds a number', () => {
    for (const value of ['1.5', '-5', 'soon 1']) {
      assert.equal(retryAfterSecondsOf(new Headers({ 'retry-after': value }), nowMs), undefined, value);
    }
  });
});

describe('errorFromResponse', () => {
  it("reads the API's envelope", () => {
    const body = JSON.stringify({
      error: {
        code: 400,
        status: 'Bad Request',
        request: 'req-123',
        message: 'the search is not valid',
        details: [{ path: '/search/0/path', message: 'unknown column "amout"; did you mean "amount"?' }, 'not a detail', { path: '/limit' }],
      },
    });
    const error = errorFromResponse('POST', URL_OF_QUERY, responseOf(400, { 'x-request-id': 'header-id' }), body);
    assert.ok(error instanceof LedgerReconError);
    assert.ok(error instanceof Error);
    assert.equal(error.name, 'LedgerReconError');
    assert.equal(error.code, 400);
    assert.equal(error.status, 'Bad Request');
    assert.equal(error.request, 'req-123');
    assert.equal(error.message, 'the search is not valid');
    assert.deepEqual(error.details, [
      { path: '/search/0/path', message: 'unknown column "amout"; did you mean "amount"?' },
      { path: '/limit', message: '' },
    ]);
    assert.equal(error.method, 'POST');
    assert.equal(error.url, URL_OF_QUERY);
    assert.equal(error.error, undefined);
    assert.equal(error.errorDescription, undefined);
    assert.equal(error.retryAfterSeconds, undefined);
    assert.equal(error.isNotFound, false);
    assert.equal(error.isNetworkError, false);
    assert.deepEqual(error.toJSON(), {
      name: 'LedgerReconError',
      code: 400,
      status: 'Bad Request',
      request: 'req-123',
      message: 'the search is not valid',
      details: error.details,
      method: 'POST',
      url: URL_OF_QUERY,
    });
  });

  it("keeps the catalogue's name of the message, when the envelope gives one", () => {
    const body = JSON.stringify({
      error: { code: 422, status: 'Unprocessable Entity', request: 'r', message: 'the file is empty', messageId: 'imports.fileEmpty' },
    });
    const error = errorFromResponse('POST', URL_OF_QUERY, responseOf(422), body);
    assert.equal(error.messageId, 'imports.fileEmpty');
    assert.equal((error.toJSON() as { messageId?: string }).messageId, 'imports.fileEmpty');
    assert.equal(errorFromResponse('POST', URL_OF_QUERY, responseOf(400), JSON.stringify({ error: { message: 'x' } })).messageId, undefined);
  });

  it('fills what the envelope leaves out from the answer: reason phrase, X-Request-Id, Retry-After', () => {
    const error = errorFromResponse(
      'GET',
      URL_OF_QUERY,
      responseOf(429, { 'x-request-id': 'header-id', 'retry-after': '7' }),
      JSON.stringify({ error: { details: 'none' } }),
    );
    assert.equal(error.code, 429);
    assert.equal(error.status, 'Too Many Requests');
    assert.equal(error.request, 'header-id');
    assert.equal(error.message, `GET ${URL_OF_QUERY} answered 429`);
    assert.deepEqual(error.details, []);
    assert.equal(error.retryAfterSeconds, 7);

    const notFound = errorFromResponse(
      'GET',
      `${URL_OF_QUERY}/t-1`,
      responseOf(404),
      JSON.stringify({ error: { code: 404, status: 'Not Found', request: 'r', message: 'no transaction t-1', details: [] } }),
    );
    assert.equal(notFound.isNotFound, true);
    assert.equal(notFound.message, 'no transaction t-1');
  });

  it('reads an OAuth error body', () => {
    const url = 'https://auth.example.com/oauth/token';
    const error = errorFromResponse('POST', url, responseOf(401), JSON.stringify({ error: 'invalid_client', error_description: 'the client secret is wrong' }));
    assert.equal(error.code, 401);
    assert.equal(error.status, 'Unauthorized');
    assert.equal(error.request, null);
    assert.equal(error.message, 'invalid_client: the client secret is wrong');
    assert.equal(error.error, 'invalid_client');
    assert.equal(error.errorDescription, 'the client secret is wrong');
    assert.deepEqual(error.details, []);
    assert.deepEqual(error.toJSON(), {
      name: 'LedgerReconError',
      code: 401,
      status: 'Unauthorized',
      request: null,
      message: 'invalid_client: the client secret is wrong',
      details: [],
      method: 'POST',
      url,
      error: 'invalid_client',
      errorDescription: 'the client secret is wrong',
    });

    const bare = errorFromResponse('POST', url, responseOf(400), JSON.stringify({ error: 'invalid_grant' }));
    assert.equal(bare.message, 'invalid_grant');
    assert.equal(bare.error, 'invalid_grant');
    assert.equal(bare.errorDescription, undefined);
  });

  it("quotes the start of a body that is neither, such as a proxy's HTML page, and cuts it", () => {
    const html = `<html><head><title>502 Bad Gateway</title></head><body>${'x'.repeat(1_000)}</body></html>`;
    const error = errorFromResponse('POST', URL_OF_QUERY, responseOf(502), html);
    assert.equal(error.code, 502);
    assert.equal(error.status, 'Bad Gateway');
    assert.equal(error.message, `POST ${URL_OF_QUERY} answered 502 Bad Gateway: ${html.slice(0, 300)}…`);
    assert.equal(error.message.length, `POST ${URL_OF_QUERY} answered 502 Bad Gateway: `.length + 301);
    assert.deepEqual(error.details, []);

    const short = errorFromResponse('GET', URL_OF_QUERY, responseOf(503), 'upstream connect error');
    assert.equal(short.message, `GET ${URL_OF_QUERY} answered 503 Service Unavailable: upstream connect error`);

    const empty = errorFromResponse('GET', URL_OF_QUERY, responseOf(500), '');
    assert.equal(empty.message, `GET ${URL_OF_QUERY} answered 500 Internal Server Error`);
  });

  it("takes the answer's statusText, else 'Error', for a status it has no phrase for", () => {
    assert.equal(errorFromResponse('GET', URL_OF_QUERY, responseOf(418, {}, "I'm a teapot"), '').status, "I'm a teapot");
    const unnamed = errorFromResponse('GET', URL_OF_QUERY, responseOf(599), '');
    assert.equal(unnamed.status, 'Error');
    assert.equal(unnamed.message, `GET ${URL_OF_QUERY} answered 599 Error`);
  });
});

describe('networkError', () => {
  it("brings out the code of fetch's cause and names the URL", () => {
    const inner = Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:9'), { code: 'ECONNREFUSED' });
    const cause = new TypeError('fetch failed', { cause: inner });
    const error = networkError('GET', 'http://127.0.0.1:9/v1/api/org-1/sources', cause, 60_000);
    assert.equal(error.code, 0);
    assert.equal(error.status, 'Network Error');
    assert.equal(error.request, null);
    assert.equal(error.isNetworkError, true);
    assert.equal(error.isNotFound, false);
    assert.equal(error.method, 'GET');
    assert.equal(error.url, 'http://127.0.0.1:9/v1/api/org-1/sources');
    assert.equal(error.cause, cause);
    assert.equal(
      error.message,
      'GET http://127.0.0.1:9/v1/api/org-1/sources failed: ECONNREFUSED (connect ECONNREFUSED 127.0.0.1:9); check that the server is running and the URL is right',
    );
  });

  it('reads the error of a real fetch to a closed port', async () => {
    const server = createServer();
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as { port: number };
    await new Promise<void>((resolve) => server.close(() => resolve()));
    const url = `http://127.0.0.1:${port}/v1/api/org-1/sources`;
    const cause = await fetch(url).then(
      () => assert.fail('nothing listens there'),
      (caught: unknown) => caught,
    );
    const error = networkError('GET', url, cause, 60_000);
    assert.match(
      error.message,
      new RegExp(`^GET ${url.replace(/[.]/g, '\\.')} failed: ECONNREFUSED \\(.*\\); check that the server is running and the URL is right$`),
    );
  });

  it('says a timeout was a timeout, and falls back to the message of a cause without a code', () => {
    const timeout = new DOMException('The operation was aborted due to timeout', 'TimeoutError');
    assert.equal(
      networkError('POST', URL_OF_QUERY, timeout, 5_000).message,
      `POST ${URL_OF_QUERY} failed: no answer within 5000 ms; check that the server is running and the URL is right`,
    );
    assert.equal(
      networkError('POST', URL_OF_QUERY, timeout).message,
      `POST ${URL_OF_QUERY} failed: The operation was aborted due to timeout; check that the server is running and the URL is right`,
    );

    const withoutCode = new TypeError('fetch failed', { cause: new Error('other side closed') });
    assert.equal(
      networkError('GET', URL_OF_QUERY, withoutCode).message,
      `GET ${URL_OF_QUERY} failed: other side closed; check that the server is running and the URL is right`,
    );
    assert.equal(
      networkError('GET', URL_OF_QUERY, new Error('plain')).message,
      `GET ${URL_OF_QUERY} failed: plain; check that the server is running and the URL is right`,
    );
    assert.equal(
      networkError('GET', URL_OF_QUERY, 'not an error').message,
      `GET ${URL_OF_QUERY} failed: not an error; check that the server is running and the URL is right`,
    );
  });
});
