import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { requireUser } from '#server/platform/access/guards';
import { HttpError } from '#server/platform/http/errors';
import type { ResumableUploads } from '#server/platform/uploads/resumable-uploads';
import { createTusBridge } from '#server/platform/uploads/tus-bridge';
import {
  PHOTO_UPLOADS_PATH,
  photoSettingsSchema,
  photoUploadIdSchema,
  photoUploadsMessages,
} from '#shared/features/photos/photo-uploads';
import { photoRefusalSchema, photosMessages, photoUploadResultSchema } from '#shared/features/photos/photos';
import { apiErrorSchema } from '#shared/platform/errors';
import { IDEMPOTENT_REPLAYED_HEADER, idempotencyHeadersSchema } from '#shared/platform/idempotency';
import type { createPhotoUploadsService } from './photo-uploads.service';
import { photoMaxBytes, sendOriginals } from './photos.service';

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
export interface PhotoUploadsRoutesOptions {
  photoUploads: ReturnType<typeof createPhotoUploadsService>;
  /** The uploads' rows and files, and the tus datastore over them. */
  uploads: ResumableUploads;
}

export const photoUploadsRoutes: FastifyPluginAsyncZod<PhotoUploadsRoutesOptions> = async (app, options) => {
  const db = app.db.kysely;
  const { photoUploads, uploads } = options;
  const maxBytes = () => photoMaxBytes(db);

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

    onUploadCreate: ({ user, key }, upload) => photoUploads.register(user, key, upload),

    async onExistingUpload({ user }, method, id) {
      const row = await photoUploads.ownUpload(id, user);
      if (method === 'PATCH' && row.stored_at) throw new HttpError(409, photoUploadsMessages.alreadyReceived);
    },

    async onUploadFinish(context, upload) {
      const answer = await photoUploads.complete(upload.id, context);
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
        'Protocolo tus (creación): Upload-Length, Upload-Metadata con slug, recordId, kind y, si el teléfono lo ' +
        'calculó, sha256 (el SHA-256 de los bytes, en hexadecimal), y la cabecera Idempotency-Key de la foto. ' +
        'Responde 201 con Location; el resto se envía con PATCH a esa dirección. Si los bytes no dan ese ' +
        'SHA-256, el PATCH que completa la foto responde 422 con code photo-arrived-damaged y la subida se borra.',
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
          422: photoRefusalSchema,
          503: apiErrorSchema,
        },
      },
    },
    async (request, reply) => {
      const answer = await photoUploads.completeAsked(request.params.id, {
        user: requireUser(request),
        ip: request.ip,
        log: request.log,
      });
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
