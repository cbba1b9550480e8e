import type { ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import type { FastifyInstance } from 'fastify';

/**
 * Closing without cutting anyone off (SIGTERM in server.ts, or `app.close()`). Fastify stops accepting
 * connections, Node closes the keep-alive connections that are idle, and requests in flight finish
 * before the database closes. What this adds:
 * - the answers of requests in flight say `Connection: close`, and their connection ends after them:
 *   told keep-alive, a client would send its next request on a connection about to go, and see it
 *   reset instead of answered;
 * - a request that still reaches an open connection (pipelined behind one in flight) is served, with
 *   `Connection: close`, rather than refused: app.ts turns off Fastify's 503 while closing, which a
 *   phone would have to retry for nothing (the database is still open until the last answer is out);
 * - a connection on which nothing has arrived yet (a browser's preconnect, a client's spare socket) is
 *   closed too: Node does not count it idle (its headers' timer runs from the connection), and once the
 *   server closes, that timer no longer runs, so the close would wait for the client to hang up.
 */
export function registerGracefulClose(app: FastifyInstance): void {
  const inFlight = new Set<ServerResponse>();
  let closing = false;
  const connections = new Set<Socket>();
  // Once the server no longer listens (Fastify closes it after every preClose hook) and a turn of the
  // loop has read what clients had already sent: a connection with no byte read has no request coming.
  const closeUnused = () => {
    if (app.server.listening) return void setTimeout(closeUnused, 10);
    setImmediate(() =>
      setImmediate(() => {
        for (const socket of connections) if (socket.bytesRead === 0) socket.destroy();
      }),
    );
  };
  app.server.on('connection', (socket: Socket) => {
    connections.add(socket);
    socket.once('close', () => connections.delete(socket));
  });

  const closeAfter = (res: ServerResponse) => {
    if (!res.headersSent) res.setHeader('connection', 'close');
    // Already sent as keep-alive (a long answer, streaming): the connection ends once the answer has.
    else res.once('finish', () => res.socket?.end());
  };

  // Runs on every request: a plain callback costs less than an async hook.
  app.addHook('onRequest', (_request, reply, done) => {
    const res = reply.raw;
    if (closing) closeAfter(res);
    else {
      inFlight.add(res);
      res.once('close', () => inFlight.delete(res));
    }
    done();
  });

  app.addHook('preClose', async () => {
    closing = true;
    for (const res of inFlight) closeAfter(res);
    closeUnused();
  });
}
