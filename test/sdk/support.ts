import { createServer, request as httpRequest, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A fetch that counts what goes through it, in front of the real one: the tests see how many
 * token requests and retries the SDK made without putting anything between it and the server.
 */
export function countingFetch() {
  const calls: { method: string; url: string; status: number | null }[] = [];
  const fetchFunction: typeof fetch = async (input, init) => {
    const entry = { method: init?.method ?? 'GET', url: String(input), status: null as number | null };
    calls.push(entry);
    const response = await fetch(input, init);
    entry.status = response.status;
    return response;
  };
  return {
    fetch: fetchFunction,
    calls,
    tokenRequests: () => calls.filter((call) => call.url.endsWith('/oauth/token')).length,
  };
}

/**
 * A reverse proxy that forwards everything to `target` and removes our extension headers from
 * the answers (X-Next-Cursor, X-Has-More), so that the server looks like one that implements
 * only the published interface, which pages by offset.
 */
export async function publishedInterfaceProxy(target: string): Promise<{ url: string; close: () => Promise<void> }> {
  const targetUrl = new URL(target);
  const server: Server = createServer((incoming, outgoing) => {
    const forwarded = httpRequest(
      { host: targetUrl.hostname, port: targetUrl.port, method: incoming.method, path: incoming.url, headers: { ...incoming.headers, host: targetUrl.host } },
      (answer) => {
        const headers = { ...answer.headers };
        delete headers['x-next-cursor'];
        delete headers['x-has-more'];
        outgoing.writeHead(answer.statusCode ?? 502, headers);
        answer.pipe(outgoing);
      },
    );
    forwarded.on('error', () => outgoing.destroy());
    incoming.pipe(forwarded);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}`, close: () => new Promise((resolve) => server.close(() => resolve())) };
}
