import { createServer } from 'node:net';

/**
 * A free port on the loopback interface, found by listening on port 0 and closing again: for a
 * server whose URL must be known before it starts (its issuer and audience contain the port).
 */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
    probe.on('error', reject);
  });
}
