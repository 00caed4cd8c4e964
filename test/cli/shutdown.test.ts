import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { connect, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, it } from 'node:test';
import { openTestStore, storeKinds } from '../../support/harness.ts';
import { demoFromBanner, demoToken, exitCode, freePort, migratedDataDirectory, serve } from '../../support/processes.ts';

/** Connections that each send one request right as the signal arrives. */
const CONNECTIONS = 40;

interface RawAnswer {
  status: number | null;
  head: string;
}

/** Opens a keep-alive connection and resolves once it is accepted. */
function open(port: number): Promise<Socket> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1', () => resolve(socket));
    socket.once('error', reject);
  });
}

/** Collects what the server answers on a socket until it closes the connection. */
function answerOf(socket: Socket): Promise<RawAnswer> {
  return new Promise((resolve) => {
    let received = '';
    socket.on('data', (chunk) => (received += chunk.toString('latin1')));
    socket.on('error', () => {});
    socket.on('close', () => {
      const head = received.split('\r\n\r\n')[0] ?? '';
      const status = /^HTTP\/1\.1 (\d{3})/.exec(head);
      resolve({ status: status ? Number(status[1]) : null, head });
    });
  });
}

for (const kind of storeKinds()) {
  describe(`shutdown (${kind})`, () => {
    it('answers every request that reached the server before SIGTERM: normally, or 503 with Retry-After', async () => {
      const dataDirectory =
        kind === 'pglite' ? await migratedDataDirectory('ledger-recon-shutdown-') : mkdtempSync(path.join(tmpdir(), 'ledger-recon-shutdown-'));
      const store = kind === 'postgres' ? await openTestStore('postgres') : null;
      // The child process has its own connections; the suite's are not needed.
      const port = await freePort();
      const environment: Record<string, string> = { DATA_DIR: dataDirectory, PORT: String(port) };
      if (store?.databaseUrl) environment.DATABASE_URL = store.databaseUrl;
      const { child, output } = await serve(environment);
      const exited = exitCode(child);
      try {
        const baseUrl = `http://127.0.0.1:${port}`;
        const demo = demoFromBanner(output());
        const token = await demoToken(baseUrl, demo);
        const sockets = await Promise.all(Array.from({ length: CONNECTIONS }, () => open(port)));
        const answers = sockets.map(answerOf);
        const body = JSON.stringify({ datasetId: demo.datasetId, limit: 50 });
        const request =
          `POST /v1/api/${demo.orgId}/transactions HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${token}\r\n` +
          `Content-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`;
        // An ingest of 10,000 records (3 MB) in flight when the signal arrives: the server is busy
        // reading and checking it while the other requests arrive.
        const records = Array.from({ length: 10_000 }, (_, index) => ({
          externalId: `shutdown-${index}`,
          timestamp: 1_790_000_000_000 + index,
          amount: '1.00',
          description: `payment ${index} `.padEnd(300, 'x'),
        }));
        const ingest = fetch(`${baseUrl}/v1/api/${demo.orgId}/datasets/${demo.datasetId}/transactions`, {
          method: 'POST',
          headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
          body: JSON.stringify({ records }),
        }).then(
          (response) => response.status,
          (error: unknown) => `failed: ${String(error)}`,
        );
        await new Promise((resolve) => setImmediate(resolve));
        // Every request is written, and the signal sent, in the same turn: most requests are in
        // the server's socket buffers, not yet read, when it learns that it must stop.
        for (const socket of sockets) socket.write(request);
        child.kill('SIGTERM');

        for (const [index, answer] of (await Promise.all(answers)).entries()) {
          assert.ok(answer.status === 200 || answer.status === 503, `connection ${index} got no answer or a wrong one: ${JSON.stringify(answer)}`);
          if (answer.status === 503) {
            assert.match(answer.head, /\r\nretry-after: \d+/i, answer.head);
            assert.match(answer.head, /\r\nconnection: close/i, answer.head);
          }
        }
        const ingestStatus = await ingest;
        assert.ok(ingestStatus === 200 || ingestStatus === 503, `the ingest got ${ingestStatus}`);
        assert.equal(await exited, 0);
      } finally {
        child.kill('SIGKILL');
        await store?.drop();
        rmSync(dataDirectory, { recursive: true, force: true });
      }
    });
  });
}
