import type { Socket } from 'node:net';
import { Transform } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import { messages } from '#shared/platform/messages';
import { HttpError } from './errors';
import { pathOf } from './request-log';

export interface RequestTimeouts {
  /** A request body (other than an upload) must have arrived whole within this long. */
  bodyMs: number;
  /** Any request, uploads included, must have arrived whole within this long. */
  requestMs: number;
}

/**
 * Uploads: multipart photos and CSV files, and the chunks of a resumable photo upload (tus PATCH), which
 * the tus server reads from the raw request itself.
 */
const UPLOAD = /^(multipart\/form-data|application\/offset\+octet-stream)/i;

const RequestTimeout = () => new HttpError(408, messages.api.requestTimeout, { connection: 'close' });

function errorAnswer(status: number, label: string, message: string): string {
  const body = JSON.stringify({ statusCode: status, error: label, message });
  return (
    `HTTP/1.1 ${status} ${label}\r\nConnection: close\r\nContent-Type: application/json; charset=utf-8\r\n` +
    `Content-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`
  );
}

/**
 * Options of the Fastify factory: Node's own limit on receiving a whole request (Fastify turns it off
 * by default, so a body that never came held its connection for good), checked often enough to keep
 * it, and the answers to connection-level errors in Spanish.
 */
export function serverTimeoutOptions(timeouts: RequestTimeouts) {
  return {
    requestTimeout: timeouts.requestMs,
    http: {
      requestTimeout: timeouts.requestMs,
      // Node ignores the request limit while the headers' (60 s) is longer.
      headersTimeout: Math.min(60_000, timeouts.requestMs),
      // Node checks both on a timer (every 30 s by default): a tenth of the limit keeps it close.
      connectionsCheckingInterval: Math.max(50, Math.min(30_000, Math.floor(timeouts.requestMs / 10))),
    },
    clientErrorHandler(this: FastifyInstance, error: Error & { code?: string }, socket: Socket) {
      if (error.code === 'ECONNRESET' || socket.destroyed) return;
      this.log.info({ err: error }, 'client connection error');
      if (socket.writable) {
        socket.write(
          error.code === 'ERR_HTTP_REQUEST_TIMEOUT'
            ? errorAnswer(408, 'Request Timeout', messages.api.requestTimeout)
            : error.code === 'HPE_HEADER_OVERFLOW'
              ? errorAnswer(431, 'Request Header Fields Too Large', messages.api.badRequest)
              : errorAnswer(400, 'Bad Request', messages.api.badRequest),
        );
      }
      socket.destroy(error);
    },
  };
}

/**
 * A JSON (or any non-upload) body must arrive whole within `bodyMs`, however it trickles: past that,
 * the request is answered 408 and its connection closed. Uploads (multipart, tus) keep their own idle
 * timers (receive-upload.ts, the tus server) under the whole-request limit above: a large photo on a slow network takes minutes.
 *
 * The deadline ends with its request, whichever way the request ends: a body refused before it is read
 * (413 on its Content-Length) leaves its stream unread, and a timer that outlived it destroyed that
 * stream later with an error nobody listened to, which ended the process.
 */
export function registerBodyTimeout(app: FastifyInstance, timeouts: RequestTimeouts): void {
  app.addHook('preParsing', async (request, reply, payload) => {
    const { headers } = request;
    const hasBody = headers['transfer-encoding'] !== undefined || Number(headers['content-length'] ?? 0) > 0;
    if (!hasBody || UPLOAD.test(headers['content-type'] ?? '')) return payload;
    const deadline = new Transform({
      transform(chunk, _encoding, done) {
        done(null, chunk);
      },
      flush(done) {
        clearTimeout(timer);
        done();
      },
      destroy(error, done) {
        clearTimeout(timer);
        done(error);
      },
    });
    const timer = setTimeout(() => {
      request.log.info({ url: pathOf(request.url) }, 'request body did not arrive in time');
      payload.unpipe(deadline);
      deadline.destroy(RequestTimeout());
    }, timeouts.bodyMs);
    timer.unref();
    // The answer is sent (or the connection is gone): nothing is read any more, so the deadline and its
    // stream end quietly. A later destroy, with or without an error, is then a no-op.
    reply.raw.once('close', () => {
      payload.unpipe(deadline);
      deadline.destroy();
    });
    payload.on('error', (error) => deadline.destroy(error));
    return payload.pipe(deadline);
  });
}
