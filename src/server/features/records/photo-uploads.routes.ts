import type { IncomingMessage, ServerResponse } from 'node:http';
import { type ServerOptions, Server as TusServer } from '@tus/server';
import type { FastifyBaseLogger, FastifyReply, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { apiErrorBody, BadRequest, HttpError, NotFound, TooManyRequests } from '#server/platform/http/errors';
import { type Answer, createIdempotencyKeys, requestFingerprint } from '#server/platform/idempotency/idempotency';
import { createImagePipeline } from '#server/platform/images/image-pipeline';
import { inspectReceivedFile } from '#server/platform/images/receive-upload';
import type { SessionUser } from '#server/platform/session/identity';
import { requireUser } from '#server/platform/session/session.plugin';
import { parseMaxBytes } from '#server/platform/settings/settings.repository';
import { createPhotoStorage, uploadTempDir } from '#server/platform/storage/create-photo-storage';
import {
  createResumableUploads,
  type ResumableUpload,
  resumableUploadDir,
} from '#server/platform/uploads/resumable-uploads';
import {
  PHOTO_SEND_ORIGINALS_SETTING,
  PHOTO_UPLOADS_PATH,
  photoSettingsSchema,
  photoUploadIdSchema,
  photoUploadMetadataSchema,
  photoUploadsMessages,
} from '#shared/features/photos/photo-uploads';
import {
  PHOTO_MAX_BYTES_SETTING,
  type PhotoUploadResult,
  photosMessages,
  photoUploadResultSchema,
} from '#shared/features/photos/photos';
import { apiErrorSchema } from '#shared/platform/errors';
import { IDEMPOTENT_REPLAYED_HEADER, idempotencyHeadersSchema } from '#shared/platform/idempotency';
import { messages } from '#shared/platform/messages';
import { photoKindSchema } from '#shared/platform/records';
import { createPhotosRepository } from './photos.repository';
import { acceptPhoto, slotFilledConflict } from './photos.service';
import { createRecordsRepository } from './records.repository';
import { notPendingRefusal, requireValidationDepartment } from './records.service';

/**
 * One person's uploads not yet stored: beyond this, a new one waits. Their bytes together are bounded
 * too (RESUMABLE_UPLOAD_BUDGET_MB), each counted by the size it declared.
 */
export const MAX_OPEN_UPLOADS = 100;
/** How often expired uploads are looked for. */
const SWEEP_EVERY_MS = 15 * 60 * 1000;

/** Who sends a tus request: set by the Fastify route before the request is handed to the tus server. */
interface UploadContext {
  user: SessionUser;
  /** The answer being written, for the headers of a refusal (tus's error answers carry only a body). */
  res?: ServerResponse;
  ip: string;
  key: string | undefined;
  log: FastifyBaseLogger;
}

type TusRequest = Parameters<NonNullable<ServerOptions['onIncomingRequest']>>[0];

/** What a tus hook throws to answer with an error: the status and our JSON error body. */
interface TusRefusal {
  status_code: number;
  body: string;
}

const refusal = (status: number, message: string): TusRefusal => ({
  status_code: status,
  body: JSON.stringify(apiErrorSchema.parse(apiErrorBody(status, message))),
});

/**
 * Our errors become the same JSON answers as anywhere else in the API, with their headers (Retry-After)
 * set on the answer; anything else goes on.
 */
function asRefusal(error: unknown, res?: ServerResponse): unknown {
  if (!(error instanceof HttpError)) return error;
  for (const [name, value] of Object.entries(error.headers)) res?.setHeader(name, value);
  return refusal(error.statusCode, error.message);
}

const isRefusal = (error: unknown): error is TusRefusal =>
  typeof (error as TusRefusal | undefined)?.status_code === 'number' &&
  typeof (error as TusRefusal).body === 'string' &&
  (error as TusRefusal).body.startsWith('{');

/**
 * Ballot photos through the tus protocol (docs/decisions/046): a phone on a link that drops continues
 * an upload from where the server's copy ends instead of from zero. The bytes wait on the server's disk
 * (whatever the photo storage is); when the last one arrives, the photo goes through the same checks
 * and the same service as a photo sent in one request (acceptPhoto), and the PATCH that completed it
 * gets the same JSON answer (201). The upload carries the photo's Idempotency-Key: a phone that lost
 * that answer asks for it again (`POST …/:id/complete`), and a second upload with the same key and
 * the same bytes gets the first answer.
 */
export const photoUploadsRoutes: FastifyPluginAsyncZod = async (app) => {
  const db = app.db.kysely;
  const storage = createPhotoStorage(app.config);
  const images = createImagePipeline();
  const photos = createPhotosRepository(db);
  const records = createRecordsRepository(db);
  const keys = createIdempotencyKeys(db, { days: app.config.idempotencyKeyDays, now: app.config.now });
  const uploads = createResumableUploads(db, {
    directory: resumableUploadDir(uploadTempDir(app.config.dataDir)),
    hours: app.config.resumableUploadHours,
    now: app.config.now,
    dialect: app.db.dialect,
  });
  const contexts = new WeakMap<IncomingMessage, UploadContext>();
  const maxBytes = async () => parseMaxBytes(await photos.getSetting(PHOTO_MAX_BYTES_SETTING));

  function contextOf(req: TusRequest): UploadContext {
    const node = (req as { runtime?: { node?: { req?: IncomingMessage } } }).runtime?.node?.req;
    const context = node && contexts.get(node);
    if (!context) throw new Error('tus request without its context');
    return context;
  }

  /** The upload of this person, if it exists and has not expired (an expired one is removed now). */
  async function ownUpload(id: string, user: SessionUser): Promise<ResumableUpload> {
    const row = await uploads.find(id);
    if (!row || row.owner_email !== user.email) throw NotFound(photoUploadsMessages.gone);
    if (uploads.isExpired(row)) {
      await uploads.remove(id);
      throw new HttpError(410, photoUploadsMessages.gone);
    }
    return row;
  }

  /** The answer a stored upload got, from its Idempotency-Key. */
  async function storedAnswer(row: ResumableUpload, user: SessionUser): Promise<Answer<PhotoUploadResult>> {
    const kind = photoKindSchema.parse(row.kind);
    const earlier = await keys.replay<PhotoUploadResult>({
      key: row.idempotency_key,
      actor: user.email,
      fingerprint: requestFingerprint('photo', row.department_slug, row.record_id, kind, row.sha256 ?? ''),
    });
    if (!earlier) throw NotFound(photoUploadsMessages.gone);
    return earlier;
  }

  /**
   * A complete upload becomes a stored photo: every check of a photo sent in one request runs now
   * (access to the department, size and type by content, pixels, the once-only slot, the duplicate
   * warning, the audit row). A refusal removes the upload, bytes and all; a failure on our side (the
   * storage did not answer) keeps it, to be completed again.
   */
  async function finish(row: ResumableUpload, context: UploadContext): Promise<Answer<PhotoUploadResult>> {
    const { user } = context;
    try {
      const kind = photoKindSchema.parse(row.kind);
      const department = await requireValidationDepartment(db, user, row.department_slug);
      const received = await inspectReceivedFile(uploads.fileOf(row.id), await maxBytes(), () =>
        uploads.releaseBytes(row.id),
      );
      const at = app.config.now();
      const answer = await acceptPhoto(
        {
          db,
          storage,
          images,
          keys,
          hooks: {
            ...app.recordHooks,
            // The upload is marked stored in the photo's own transaction: both happen, or neither.
            async afterPhoto(trx, photo) {
              await app.recordHooks.afterPhoto?.(trx, photo);
              await uploads.markStored(trx, row.id, received.sha256, photo.at);
            },
          },
        },
        {
          department,
          recordId: row.record_id,
          kind,
          upload: received,
          user,
          ip: context.ip,
          now: at,
          key: row.idempotency_key,
        },
      );
      // Stored before under the same key (another upload of the same photo): this one answers the same.
      if (answer.replayed) await uploads.markStored(db, row.id, received.sha256, at.toISOString());
      await received.discard();
      return answer;
    } catch (error) {
      if (error instanceof HttpError && error.statusCode < 500) await uploads.remove(row.id);
      throw error;
    }
  }

  // One completion per upload at a time in this process: the PATCH that ends it and a `complete` asked
  // meanwhile do not both read and move its bytes.
  const completing = new Map<string, Promise<Answer<PhotoUploadResult>>>();
  function complete(id: string, context: UploadContext): Promise<Answer<PhotoUploadResult>> {
    const previous = completing.get(id) ?? Promise.resolve(undefined);
    const run = previous
      .catch(() => undefined)
      .then(async () => {
        const row = await ownUpload(id, context.user);
        if (row.stored_at) return storedAnswer(row, context.user);
        return finish(row, context);
      });
    completing.set(id, run);
    const forget = () => {
      if (completing.get(id) === run) completing.delete(id);
    };
    run.then(forget, forget);
    return run;
  }

  const tus = new TusServer({
    path: PHOTO_UPLOADS_PATH,
    datastore: uploads.datastore,
    relativeLocation: true,
    // Same origin only: no Access-Control-Allow-Origin at all.
    allowedOrigins: [],
    disableTerminationForFinishedUploads: true,
    maxSize: () => maxBytes(),

    async onUploadCreate(req, upload) {
      const { user, key, res } = contextOf(req);
      try {
        if (!key) throw new HttpError(400, photoUploadsMessages.keyRequired);
        if (upload.sizeIsDeferred || !upload.size) throw new HttpError(400, photoUploadsMessages.lengthRequired);
        const meta = photoUploadMetadataSchema.safeParse(upload.metadata ?? {});
        if (!meta.success) throw new HttpError(400, photoUploadsMessages.badMetadata);
        const { slug, recordId, kind } = meta.data;
        const department = await requireValidationDepartment(db, user, slug);
        const record = await records.findInDepartment(department.id, recordId);
        if (record?.status !== 'pendiente') throw await notPendingRefusal(db, department.id, recordId);
        // As for a photo sent in one request: a filled slot is refused before the bytes travel, unless
        // this may be a retry of the photo that filled it (its key is known).
        if (record[`${kind}_photo_id`] !== null && user.role !== 'admin' && !(await keys.exists(key))) {
          throw await slotFilledConflict(db, recordId, kind);
        }
        // The data folder keeps its floor of free space for votes and the photos already accepted.
        await app.dataDisk.requireRoom(upload.size);
        const registered = await uploads.register(
          {
            id: upload.id,
            owner_email: user.email,
            department_slug: slug,
            record_id: recordId,
            kind,
            idempotency_key: key,
            size_bytes: upload.size,
          },
          { count: MAX_OPEN_UPLOADS, bytes: app.config.resumableUploadBudgetBytes },
        );
        if (registered.refused === 'count') throw TooManyRequests(photoUploadsMessages.tooManyOpen, 60);
        if (registered.refused === 'bytes') throw TooManyRequests(photoUploadsMessages.overBudget, 60);
        return { metadata: upload.metadata };
      } catch (error) {
        throw asRefusal(error, res);
      }
    },

    async onIncomingRequest(req, id) {
      // A creation names its new id here before it exists; onUploadCreate checks it.
      if (req.method === 'POST') return;
      const { user } = contextOf(req);
      try {
        const row = await ownUpload(id, user);
        if (req.method === 'PATCH' && row.stored_at) throw new HttpError(409, photoUploadsMessages.alreadyReceived);
      } catch (error) {
        throw asRefusal(error);
      }
    },

    async onUploadFinish(req, upload) {
      const context = contextOf(req);
      try {
        const answer = await complete(upload.id, context);
        return {
          status_code: answer.statusCode,
          headers: {
            'Content-Type': 'application/json; charset=utf-8',
            ...(answer.replayed ? { [IDEMPOTENT_REPLAYED_HEADER]: 'true' } : {}),
          },
          body: JSON.stringify(photoUploadResultSchema.parse(answer.body)),
        };
      } catch (error) {
        if (!(error instanceof HttpError))
          context.log.error({ err: error, uploadId: upload.id }, 'photo upload failed');
        throw asRefusal(error);
      }
    },

    // tus's own refusals (English, plain text) become our Spanish JSON answers.
    async onResponseError(req, error) {
      if (isRefusal(error)) return error;
      const status = (error as { status_code?: number }).status_code ?? 500;
      switch (status) {
        case 413:
          return refusal(413, photosMessages.tooLarge(await maxBytes()));
        case 404:
          return refusal(404, photoUploadsMessages.gone);
        case 410:
          return refusal(410, photoUploadsMessages.gone);
        case 409:
          return refusal(409, photoUploadsMessages.offsetMismatch);
        case 423:
          return refusal(423, photoUploadsMessages.locked);
        case 460:
        case 499:
          // The client went away, or sent a checksum we do not ask for: nobody reads this answer.
          return refusal(400, photosMessages.uploadAborted);
        default:
          if (status >= 500) {
            const node = (req as { runtime?: { node?: { req?: IncomingMessage } } }).runtime?.node?.req;
            (node && contexts.get(node)?.log)?.error({ err: error }, 'tus upload error');
            return refusal(500, messages.api.internal);
          }
          return refusal(status, messages.api.badRequest);
      }
    },
  });

  // PATCH bodies are the tus server's to read, as they come.
  app.addContentTypeParser('application/offset+octet-stream', (_request, _payload, done) => done(null));

  async function handOver(request: FastifyRequest, reply: FastifyReply): Promise<void> {
    const user = requireUser(request);
    // Parts sent in parallel and joined (tus's concatenation extension) are not offered: the phone sends
    // one upload per photo. A client's mistake, answered plainly and not logged as our failure.
    if (request.headers['upload-concat'] !== undefined) {
      request.log.info({ uploadConcat: request.headers['upload-concat'] }, 'tus concatenation asked for');
      throw BadRequest(photoUploadsMessages.noConcatenation);
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
  }

  const tusSchema = {
    tags: ['validación'],
    headers: idempotencyHeadersSchema,
    response: { 400: apiErrorSchema, 401: apiErrorSchema, 403: apiErrorSchema },
  };
  app.route({
    method: ['POST', 'OPTIONS'],
    url: PHOTO_UPLOADS_PATH,
    schema: {
      ...tusSchema,
      summary: 'Empieza la subida reanudable (tus 1.0.0) de la foto de una boleta',
      description:
        'Protocolo tus (creación): Upload-Length, Upload-Metadata con slug, recordId y kind, y la cabecera ' +
        'Idempotency-Key de la foto. Responde 201 con Location; el resto se envía con PATCH a esa dirección.',
    },
    handler: handOver,
  });
  app.route({
    method: ['HEAD', 'PATCH', 'DELETE', 'OPTIONS'],
    url: `${PHOTO_UPLOADS_PATH}/:id`,
    schema: {
      ...tusSchema,
      params: z.object({ id: photoUploadIdSchema }),
      summary: 'Continúa (PATCH), consulta (HEAD) o quita (DELETE) una subida reanudable',
      description:
        'El PATCH que completa la foto responde 201 con el mismo cuerpo que POST …/photos/:kind; los errores ' +
        'de la foto (415, 413, 409, 404) se responden al completar, y la subida rechazada se borra.',
    },
    handler: handOver,
  });

  app.post(
    `${PHOTO_UPLOADS_PATH}/:id/complete`,
    {
      schema: {
        tags: ['validación'],
        summary: 'La respuesta de una subida reanudable ya completa (si se perdió), o completarla ahora',
        params: z.object({ id: photoUploadIdSchema }),
        headers: idempotencyHeadersSchema,
        response: {
          201: photoUploadResultSchema,
          400: apiErrorSchema,
          401: apiErrorSchema,
          404: apiErrorSchema,
          409: apiErrorSchema,
          410: apiErrorSchema,
          413: apiErrorSchema,
          415: apiErrorSchema,
          422: apiErrorSchema,
          503: apiErrorSchema,
        },
      },
    },
    async (request, reply) => {
      const user = requireUser(request);
      const { id } = request.params;
      const row = await ownUpload(id, user);
      if (!row.stored_at) {
        const received = await uploads.datastore.getUpload(id).catch(() => undefined);
        if (!received || received.offset !== row.size_bytes) throw new HttpError(409, photoUploadsMessages.notFinished);
      }
      const answer = await complete(id, { user, ip: request.ip, key: row.idempotency_key, log: request.log });
      if (answer.replayed) reply.header(IDEMPOTENT_REPLAYED_HEADER, 'true');
      return reply.code(201).send(answer.body);
    },
  );

  app.get(
    '/api/photo-settings',
    {
      schema: {
        tags: ['validación'],
        summary: 'Cómo prepara el teléfono las fotos: JPEG de hasta 2560 px (por defecto) o el original',
        response: { 200: photoSettingsSchema, 401: apiErrorSchema },
      },
    },
    async (request) => {
      requireUser(request);
      return { sendOriginals: (await photos.getSetting(PHOTO_SEND_ORIGINALS_SETTING)) === '1' };
    },
  );

  // Unfinished uploads past their time go, now and every quarter of an hour.
  const sweep = () =>
    uploads.sweep().catch((error: unknown) => app.log.warn({ err: error }, 'resumable upload sweep failed'));
  app.addHook('onReady', async () => void sweep());
  const timer = setInterval(sweep, SWEEP_EVERY_MS);
  timer.unref();
  app.addHook('onClose', async () => clearInterval(timer));
};
