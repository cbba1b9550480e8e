import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { HttpError, NotFound, TooManyRequests } from '#server/platform/http/errors';
import { type Answer, createIdempotencyKeys, requestFingerprint } from '#server/platform/idempotency/idempotency';
import { createImagePipeline } from '#server/platform/images/image-pipeline';
import { inspectReceivedFile } from '#server/platform/images/receive-upload';
import { requireValidationDepartment } from '#server/platform/records/records';
import type { SessionUser } from '#server/platform/session/identity';
import { requireUser } from '#server/platform/session/session.plugin';
import { createPhotoStorage, uploadTempDir } from '#server/platform/storage/create-photo-storage';
import {
  createResumableUploads,
  type ResumableUpload,
  resumableUploadDir,
} from '#server/platform/uploads/resumable-uploads';
import { createTusBridge, type TusContext } from '#server/platform/uploads/tus-bridge';
import {
  PHOTO_UPLOADS_PATH,
  photoSettingsSchema,
  photoUploadIdSchema,
  photoUploadMetadataSchema,
  photoUploadsMessages,
} from '#shared/features/photos/photo-uploads';
import { type PhotoUploadResult, photosMessages, photoUploadResultSchema } from '#shared/features/photos/photos';
import { apiErrorSchema } from '#shared/platform/errors';
import { IDEMPOTENT_REPLAYED_HEADER, idempotencyHeadersSchema } from '#shared/platform/idempotency';
import { photoKindSchema } from '#shared/platform/records';
import { acceptPhoto, photoMaxBytes, requireOpenSlot, sendOriginals } from './photos.service';

/**
 * One person's uploads not yet stored: beyond this, a new one waits. Their bytes together are bounded
 * too (RESUMABLE_UPLOAD_BUDGET_MB), each counted by the size it declared.
 */
export const MAX_OPEN_UPLOADS = 100;
/** How often expired uploads are looked for. */
const SWEEP_EVERY_MS = 15 * 60 * 1000;

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
  const keys = createIdempotencyKeys(db, { days: app.config.idempotencyKeyDays, now: app.config.now });
  const uploads = createResumableUploads(db, {
    directory: resumableUploadDir(uploadTempDir(app.config.dataDir)),
    hours: app.config.resumableUploadHours,
    now: app.config.now,
    dialect: app.db.dialect,
  });
  const maxBytes = () => photoMaxBytes(db);

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
  async function finish(row: ResumableUpload, context: TusContext): Promise<Answer<PhotoUploadResult>> {
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
  function complete(id: string, context: TusContext): Promise<Answer<PhotoUploadResult>> {
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

  const handOver = createTusBridge(app, {
    path: PHOTO_UPLOADS_PATH,
    datastore: uploads.datastore,
    maxSize: maxBytes,
    refusals: {
      tooLarge: photosMessages.tooLarge,
      gone: photoUploadsMessages.gone,
      offsetMismatch: photoUploadsMessages.offsetMismatch,
      locked: photoUploadsMessages.locked,
      aborted: photosMessages.uploadAborted,
      noConcatenation: photoUploadsMessages.noConcatenation,
    },

    async onUploadCreate({ user, key }, upload) {
      if (!key) throw new HttpError(400, photoUploadsMessages.keyRequired);
      if (upload.sizeIsDeferred || !upload.size) throw new HttpError(400, photoUploadsMessages.lengthRequired);
      const meta = photoUploadMetadataSchema.safeParse(upload.metadata ?? {});
      if (!meta.success) throw new HttpError(400, photoUploadsMessages.badMetadata);
      const { slug, recordId, kind } = meta.data;
      // As for a photo sent in one request: a filled slot is refused before the bytes travel.
      await requireOpenSlot({ db, keys }, { user, slug, recordId, kind, key });
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
    },

    async onExistingUpload({ user }, method, id) {
      const row = await ownUpload(id, user);
      if (method === 'PATCH' && row.stored_at) throw new HttpError(409, photoUploadsMessages.alreadyReceived);
    },

    async onUploadFinish(context, upload) {
      const answer = await complete(upload.id, context);
      return {
        statusCode: answer.statusCode,
        headers: {
          'Content-Type': 'application/json; charset=utf-8',
          ...(answer.replayed ? { [IDEMPOTENT_REPLAYED_HEADER]: 'true' } : {}),
        },
        body: JSON.stringify(photoUploadResultSchema.parse(answer.body)),
      };
    },
  });

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
      return { sendOriginals: await sendOriginals(db) };
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
