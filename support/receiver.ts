import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Webhook } from 'standardwebhooks';

/** One request a receiver got. */
export interface Received {
  id: string;
  timestamp: string;
  signature: string;
  headers: Record<string, string>;
  body: string;
  path: string;
  /** When the request had arrived whole (performance.now()). */
  at: number;
}

/**
 * A webhook receiver on loopback, as a customer would run one: it records every request and
 * answers as `respond` decides (204 by default). Messages are checked with the Standard Webhooks
 * specification's own npm library (`verify`), never with the server's code.
 */
export interface TestReceiver {
  url: string;
  received: Received[];
  /** Requests that arrived and have not been answered yet (a receiver made slow). */
  open(): number;
  respond: (request: Received, response: ServerResponse) => void | Promise<void>;
  /** The distinct webhook-ids received with a 2xx answer, i.e. what a de-duplicating receiver kept. */
  accepted: Set<string>;
  close(): Promise<void>;
}

export async function startReceiver(port = 0): Promise<TestReceiver> {
  let open = 0;
  const sockets = new Set<import('node:net').Socket>();
  const receiver: TestReceiver = {
    url: '',
    received: [],
    open: () => open,
    respond: (_request, response) => {
      response.writeHead(204).end();
    },
    accepted: new Set(),
    close: async () => {
      for (const socket of sockets) socket.destroy();
      await new Promise((resolve) => server.close(resolve));
    },
  };
  const server: Server = createServer(async (request: IncomingMessage, response: ServerResponse) => {
    open += 1;
    const chunks: Buffer[] = [];
    for await (const chunk of request) chunks.push(chunk as Buffer);
    const headers = Object.fromEntries(Object.entries(request.headers).map(([name, value]) => [name, String(value)]));
    const entry: Received = {
      id: headers['webhook-id'] ?? '',
      timestamp: headers['webhook-timestamp'] ?? '',
      signature: headers['webhook-signature'] ?? '',
      headers,
      body: Buffer.concat(chunks).toString('utf8'),
      path: request.url ?? '/',
      at: performance.now(),
    };
    receiver.received.push(entry);
    response.on('finish', () => {
      if (response.statusCode >= 200 && response.statusCode < 300) receiver.accepted.add(entry.id);
    });
    response.on('close', () => (open -= 1));
    await receiver.respond(entry, response);
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  receiver.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return receiver;
}

/** Verifies a received message with the specification's library; returns its parsed body. */
export function verify(secret: string, message: Received): { type: string; timestamp: string; data: Record<string, unknown> } {
  return new Webhook(secret).verify(message.body, {
    'webhook-id': message.id,
    'webhook-timestamp': message.timestamp,
    'webhook-signature': message.signature,
  }) as { type: string; timestamp: string; data: Record<string, unknown> };
}

/** Waits for a condition (the name the suites use). */
export { waitFor as eventually } from './wait.ts';
