import type { IncomingMessage, ServerResponse } from 'node:http';
import { type DataStore, type ServerOptions, Server as TusServer, type Upload } from '@tus/server';
import type { FastifyBaseLogger, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { requireUser } from '#server/platform/access/guards';
import { apiErrorBody, BadRequest, HttpError } from '#server/platform/http/errors';
import type { SessionUser } from '#server/platform/session/identity';
import { apiErrorSchema } from '#shared/platform/errors';
import { messages } from '#shared/platform/messages';

/*
 * The bridge between Fastify and a tus server (@tus/server, docs/decisions/046): Fastify's routes check
 * who asks and hand the raw request over; the tus server reads and writes the bytes; our hooks see who
 * sent each request, and every refusal, ours or tus's own, is our JSON error body in Spanish. What an
 * upload is for (a ballot photo) stays with the feature that declares the routes (features/photos).
 */

/** Who sends a tus request: set by the Fastify route before the request is handed to the tus server. */
export interface TusContext {
  user: SessionUser;
  /** The answer being written, for the headers of a refusal (tus's error answers carry only a body). */
  res?: ServerResponse;
  ip: string;
  key: string | undefined;
  log: FastifyBaseLogger;
}

/** What the upload that just completed answers (the PATCH that sent its last byte). */
export interface TusAnswer {
  statusCode: number;
  headers: Record<string, string>;
  body: string;
}

export interface TusBridgeOptions {
  /** Where the tus routes are mounted. */
  path: string;
  datastore: DataStore;
  /** The largest upload accepted now, in bytes. */
  maxSize: () => Promise<number>;
  /** The sentences of tus's own refusals. */
  refusals: {
    tooLarge: (maxBytes: number) => string;
    gone: string;
    offsetMismatch: string;
    locked: string;
    aborted: string;
    noConcatenation: string;
  };
  /** A new upload is announced: throw an HttpError to refuse it. */
  onUploadCreate(context: TusContext, upload: Upload): Promise<void>;
  /** Any request about an existing upload (HEAD, PATCH, DELETE): throw an HttpError to refuse it. */
  onExistingUpload(context: TusContext, method: string, id: string): Promise<void>;
  /** The last byte arrived: what the completing PATCH answers (an HttpError answers as one). */
  onUploadFinish(context: TusContext, upload: Upload): Promise<TusAnswer>;
}

type TusRequest = Parameters<NonNullable<ServerOptions['onIncomingRequest']>>[0];

/** What a tus hook throws to answer with an error: the status and our JSON error body. */
interface TusRefusal {
  status_code: number;
  body: string;
}

/** `extra`: more fields of the body, as an HttpError carries them (a refusal's `code`). */
const refusal = (status: number, message: string, extra: Record<string, unknown> = {}): TusRefusal => ({
  status_code: status,
  body: JSON.stringify({ ...apiErrorSchema.parse(apiErrorBody(status, message)), ...extra }),
});

/**
 * Our errors become the same JSON answers as anywhere else in the API, with their headers (Retry-After)
 * set on the answer; anything else goes on.
 */
function asRefusal(error: unknown, res?: ServerResponse): unknown {
  if (!(error instanceof HttpError)) return error;
  for (const [name, value] of Object.entries(error.headers)) res?.setHeader(name, value);
  return refusal(error.statusCode, error.message, error.extra);
}

const isRefusal = (error: unknown): error is TusRefusal =>
  typeof (error as TusRefusal | undefined)?.status_code === 'number' &&
  typeof (error as TusRefusal).body === 'string' &&
  (error as TusRefusal).body.startsWith('{');

const nodeRequestOf = (req: TusRequest) =>
  (req as { runtime?: { node?: { req?: IncomingMessage } } }).runtime?.node?.req;

/**
 * A tus server behind Fastify. Returns the handler of its routes: each route declares its schema and
 * hands its requests over with it.
 */
export function createTusBridge(app: FastifyInstance, options: TusBridgeOptions) {
  const contexts = new WeakMap<IncomingMessage, TusContext>();
  const { refusals } = options;

  function contextOf(req: TusRequest): TusContext {
    const node = nodeRequestOf(req);
    const context = node && contexts.get(node);
    if (!context) throw new Error('tus request without its context');
    return context;
  }

  const tus = new TusServer({
    path: options.path,
    datastore: options.datastore,
    relativeLocation: true,
    // Same origin only: no Access-Control-Allow-Origin at all.
    allowedOrigins: [],
    disableTerminationForFinishedUploads: true,
    maxSize: () => options.maxSize(),

    async onUploadCreate(req, upload) {
      const context = contextOf(req);
      try {
        await options.onUploadCreate(context, upload);
        return { metadata: upload.metadata };
      } catch (error) {
        throw asRefusal(error, context.res);
      }
    },

    async onIncomingRequest(req, id) {
      // A creation names its new id here before it exists; onUploadCreate checks it.
      if (req.method === 'POST') return;
      try {
        await options.onExistingUpload(contextOf(req), req.method, id);
      } catch (error) {
        throw asRefusal(error);
      }
    },

    async onUploadFinish(req, upload) {
      const context = contextOf(req);
      try {
        const answer = await options.onUploadFinish(context, upload);
        return { status_code: answer.statusCode, headers: answer.headers, body: answer.body };
      } catch (error) {
        if (!(error instanceof HttpError)) context.log.error({ err: error, uploadId: upload.id }, 'upload failed');
        throw asRefusal(error);
      }
    },

    // tus's own refusals (English, plain text) become our Spanish JSON answers.
    async onResponseError(req, error) {
      if (isRefusal(error)) return error;
      const status = (error as { status_code?: number }).status_code ?? 500;
      switch (status) {
        case 413:
          return refusal(413, refusals.tooLarge(await options.maxSize()));
        case 404:
          return refusal(404, refusals.gone);
        case 410:
          return refusal(410, refusals.gone);
        case 409:
          return refusal(409, refusals.offsetMismatch);
        case 423:
          return refusal(423, refusals.locked);
        case 460:
        case 499:
          // The client went away, or sent a checksum we do not ask for: nobody reads this answer.
          return refusal(400, refusals.aborted);
        default:
          if (status >= 500) {
            const node = nodeRequestOf(req);
            (node && contexts.get(node)?.log)?.error({ err: error }, 'tus upload error');
            return refusal(500, messages.api.internal);
          }
          return refusal(status, messages.api.badRequest);
      }
    },
  });

  // PATCH bodies are the tus server's to read, as they come.
  app.addContentTypeParser('application/offset+octet-stream', (_request, _payload, done) => done(null));

  /** The handler of every tus route: a signed-in person's request goes to the tus server. */
  return async function handOver(request: FastifyRequest, reply: FastifyReply): Promise<void> {
    const user = requireUser(request);
    // Parts sent in parallel and joined (tus's concatenation extension) are not offered: the phone sends
    // one upload per file. A client's mistake, answered plainly and not logged as our failure.
    if (request.headers['upload-concat'] !== undefined) {
      request.log.info({ uploadConcat: request.headers['upload-concat'] }, 'tus concatenation asked for');
      throw BadRequest(refusals.noConcatenation);
    }
    const key = request.headers['idempotency-key'];
    contexts.set(request.raw, {
      user,
      res: reply.raw,
      ip: request.ip,
      key: typeof key === 'string' ? key : undefined,
      log: request.log,
    });
    reply.hijack();
    await tus.handle(request.raw, reply.raw);
  };
}
