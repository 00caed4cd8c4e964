import type { Socket } from 'node:net';
import type { FastifyInstance } from 'fastify';

/** How long a closing connection goes on reading a body it will not use: at most, and with nothing arriving. */
const LINGER_MILLISECONDS = 30_000;
const LINGER_IDLE_MILLISECONDS = 5_000;

const lingering = new WeakSet<Socket>();

/**
 * Some answers are given before the request's body has all arrived: a 413 for a body over the
 * limit, and any error after which the connection cannot be reused (Fastify closes it when a
 * body cannot be parsed). Closed as soon as the answer is written, the connection would meet the
 * bytes the client is still sending with a reset, and a reset makes the client's system throw
 * away what it received but had not read yet: the answer itself. The client would see EPIPE or
 * ECONNRESET instead of the 413. Such a connection is closed as web servers do it ("lingering
 * close"): the answer says `Connection: close`, the server's side is ended after it, and what
 * the client still sends is read and dropped until it stops sending, for at most
 * LINGER_MILLISECONDS.
 */
export function registerLingeringClose(app: FastifyInstance): void {
  app.addHook('onSend', async (request, reply, payload) => {
    const raw = request.raw;
    if (raw.complete || (reply.statusCode !== 413 && reply.getHeader('connection') !== 'close')) return payload;
    reply.header('connection', 'close');
    lingerWhenClosing(raw.socket);
    // The rest of the body is read and dropped, so the client can finish sending it.
    raw.resume();
    return payload;
  });
}

/**
 * Node's server ends a `Connection: close` answer with `socket.destroySoon()`, which destroys the
 * socket as soon as the answer is written; for this socket it ends only the server's side.
 */
function lingerWhenClosing(socket: Socket & { destroySoon?: () => void }): void {
  if (lingering.has(socket)) return;
  lingering.add(socket);
  socket.destroySoon = () => {
    socket.end();
    socket.resume();
    const deadline = setTimeout(() => socket.destroy(), LINGER_MILLISECONDS);
    socket.setTimeout(LINGER_IDLE_MILLISECONDS, () => socket.destroy());
    socket.once('end', () => socket.destroy());
    socket.once('close', () => clearTimeout(deadline));
  };
}
