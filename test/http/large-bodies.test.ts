import assert from 'node:assert/strict';
import { connect } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { api, createTestOrganization, startTestServer, storeKinds, type TestOrganization, type TestServer } from '../../support/harness.ts';

/**
 * A body over the limit is refused with 413 while the client is still sending it. The client
 * must get to read that answer: the server reads and drops the rest of the body instead of
 * cutting the connection, which would make the client's system discard the answer and report
 * EPIPE or ECONNRESET. Tested with a real socket that sends the whole body before it reads, as a
 * simple client does, and that keeps its side open after the server's answer (half-open).
 */

const IMPORT_MAX_BYTES = 1024 * 1024;
/** Far more than any limit here, and more than the socket buffers of both sides hold. */
const SENT_BYTES = 6 * 1024 * 1024;
const CHUNK_BYTES = 64 * 1024;

interface Exchange {
  statusLine: string;
  headers: string;
  body: string;
  /** Whether every byte of the request was written before the connection ended. */
  sentAll: boolean;
  socketError: string | null;
}

/** Sends headers and a body of SENT_BYTES (after `head`, before `tail`) on a socket, then reads what the server answered. */
function sendLargeBody(
  server: TestServer,
  path: string,
  headers: Record<string, string>,
  options: { chunked: boolean; head?: string; tail?: string },
): Promise<Exchange> {
  return new Promise((resolve) => {
    const socket = connect({ port: Number(new URL(server.baseUrl).port), host: '127.0.0.1', allowHalfOpen: true });
    const received: Buffer[] = [];
    let socketError: string | null = null;
    let sentAll = false;
    socket.on('data', (chunk) => received.push(chunk));
    socket.on('error', (error: NodeJS.ErrnoException) => (socketError = error.code ?? error.message));
    socket.on('close', () => {
      const text = Buffer.concat(received).toString('utf8');
      const [head = '', body = ''] = text.split('\r\n\r\n', 2);
      const [statusLine = '', ...headerLines] = head.split('\r\n');
      resolve({ statusLine, headers: headerLines.join('\n').toLowerCase(), body, sentAll, socketError });
    });
    socket.on('connect', async () => {
      const head = Buffer.from(options.head ?? '');
      const tail = Buffer.from(options.tail ?? '');
      const length = options.chunked ? { 'transfer-encoding': 'chunked' } : { 'content-length': String(head.length + SENT_BYTES + tail.length) };
      const lines = Object.entries({ host: '127.0.0.1', ...headers, ...length }).map(([name, value]) => `${name}: ${value}\r\n`);
      socket.write(`POST ${path} HTTP/1.1\r\n${lines.join('')}\r\n`);
      const write = async (bytes: Buffer) => {
        if (bytes.length === 0 || socket.destroyed) return;
        const framed = options.chunked ? Buffer.concat([Buffer.from(`${bytes.length.toString(16)}\r\n`), bytes, Buffer.from('\r\n')]) : bytes;
        if (!socket.write(framed)) await new Promise((resume) => (socket.once('drain', resume), socket.once('close', resume)));
      };
      await write(head);
      const chunk = Buffer.alloc(CHUNK_BYTES, 'a');
      for (let sent = 0; sent < SENT_BYTES && !socket.destroyed; sent += CHUNK_BYTES) await write(chunk);
      await write(tail);
      if (options.chunked && !socket.destroyed) socket.write('0\r\n\r\n');
      sentAll = !socket.destroyed;
      socket.end();
    });
  });
}

/**
 * The client reads the 413 whole. An answer given before the body has all arrived closes the
 * connection (`closes: true`); a form is read to its end before its file part is judged, so its
 * answer may keep the connection open.
 */
function assertAnswered413(exchange: Exchange, message: RegExp, { closes = true } = {}) {
  assert.equal(exchange.socketError, null, `the client saw ${exchange.socketError} (answer: ${exchange.statusLine})`);
  assert.ok(exchange.sentAll, 'the whole body was sent');
  assert.equal(exchange.statusLine, 'HTTP/1.1 413 Payload Too Large');
  if (closes) assert.match(exchange.headers, /^connection: close$/m);
  assert.match(exchange.body, message);
  JSON.parse(exchange.body);
}

for (const kind of storeKinds()) {
  describe(`bodies over the limit (${kind})`, () => {
    let server: TestServer;
    let organization: TestOrganization;
    let importPath: string;
    before(async () => {
      server = await startTestServer(kind, { importMaxBytes: IMPORT_MAX_BYTES });
      organization = await createTestOrganization(server);
      const base = `/v1/api/${organization.orgId}`;
      const source = await api(server, organization.token, 'POST', `${base}/sources`, { name: 'Bank' });
      const dataset = await api(server, organization.token, 'POST', `${base}/sources/${source.body.id}/datasets`, { name: 'Statement' });
      importPath = `${base}/datasets/${dataset.body.id}/imports`;
    });
    after(async () => server.close());

    for (const chunked of [false, true]) {
      const framing = chunked ? 'chunked' : 'with Content-Length';
      it(`answers a JSON body over the limit (${framing}) with a 413 the client reads`, async () => {
        const exchange = await sendLargeBody(
          server,
          `/v1/api/${organization.orgId}/sources`,
          { authorization: `Bearer ${organization.token}`, 'content-type': 'application/json' },
          { chunked },
        );
        assertAnswered413(exchange, /the body is larger than/);
      });

      it(`answers an import upload over IMPORT_MAX_BYTES (${framing}) with a 413 the client reads`, async () => {
        const exchange = await sendLargeBody(server, importPath, { authorization: `Bearer ${organization.token}`, 'content-type': 'text/csv' }, { chunked });
        assertAnswered413(exchange, /IMPORT_MAX_BYTES/);
      });

      it(`answers a multipart import over IMPORT_MAX_BYTES (${framing}) with a 413 the client reads`, async () => {
        const exchange = await sendLargeBody(
          server,
          importPath,
          { authorization: `Bearer ${organization.token}`, 'content-type': 'multipart/form-data; boundary=PART' },
          {
            chunked,
            head: '--PART\r\ncontent-disposition: form-data; name="file"; filename="statement.csv"\r\ncontent-type: text/csv\r\n\r\n',
            tail: '\r\n--PART--\r\n',
          },
        );
        assertAnswered413(exchange, /IMPORT_MAX_BYTES/, { closes: false });
      });
    }

    it("answers a token request over its limit in the token endpoint's form, which the client reads", async () => {
      const exchange = await sendLargeBody(server, '/oauth/token', { 'content-type': 'application/x-www-form-urlencoded' }, { chunked: false });
      assert.equal(exchange.socketError, null, `the client saw ${exchange.socketError} (answer: ${exchange.statusLine})`);
      assert.ok(exchange.sentAll, 'the whole body was sent');
      assert.equal(exchange.statusLine, 'HTTP/1.1 400 Bad Request');
      assert.equal(JSON.parse(exchange.body).error, 'invalid_request');
      assert.equal((await fetch(`${server.baseUrl}/health`)).status, 200);
    });
  });
}
