import { connect, createServer, type Socket } from 'node:net';

export interface TcpGate {
  host: string;
  /** The port clients connect to instead of the target's. */
  port: number;
  /**
   * Holds every connection made from now on once the target has sent it more than `bytes`
   * (null: connections pass freely). A held connection stays open; what the target sends it meanwhile waits in the relay.
   */
  holdAfter(bytes: number | null): void;
  /** How many connections are held now. */
  held(): number;
  /** Lets every held connection go on, and holds no more (holdAfter(null)). */
  release(): void;
  close(): Promise<void>;
}

/**
 * A TCP relay on a free loopback port to `target`, which can stop a connection at a known point
 * of what the target sends: a test sees a transfer under way (a download half done) without
 * timing it, then kills a process or the server while it is held. The relay passes bytes as they
 * are (an SSH server's host key and encryption are the server's own).
 */
export async function startTcpGate(target: { host: string; port: number }): Promise<TcpGate> {
  let limit: number | null = null;
  /** The held connections, each with what the target sent it since (kept, to be passed on release). */
  const held = new Map<Socket, Buffer[]>();
  const sockets = new Set<Socket>();
  const server = createServer((client) => {
    const upstream = connect(target.port, target.host);
    const connectionLimit = limit;
    let received = 0;
    sockets.add(client);
    sockets.add(upstream);
    const end = () => {
      held.delete(client);
      sockets.delete(client);
      sockets.delete(upstream);
      client.destroy();
      upstream.destroy();
    };
    client.on('error', end).on('close', end);
    upstream.on('error', end).on('close', end);
    client.pipe(upstream);
    // The target is read on while a connection is held (what it sends is kept), so that its end or
    // its death reaches the client as it would without the relay.
    upstream.on('data', (chunk: Buffer) => {
      received += chunk.length;
      const kept = held.get(client);
      if (kept) kept.push(chunk);
      else client.write(chunk);
      if (!kept && connectionLimit !== null && limit !== null && received > connectionLimit) held.set(client, []);
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as { port: number };
  return {
    host: '127.0.0.1',
    port,
    holdAfter: (bytes) => {
      limit = bytes;
    },
    held: () => held.size,
    release: () => {
      limit = null;
      for (const [client, kept] of held) for (const chunk of kept) client.write(chunk);
      held.clear();
    },
    close: async () => {
      for (const socket of sockets) socket.destroy();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}
