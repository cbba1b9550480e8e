import fsp from 'node:fs/promises';
import path from 'node:path';
import multipart from '@fastify/multipart';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { requireUser } from '#server/platform/access/guards';
import { BadRequest } from '#server/platform/http/errors';
import type { Answer, IdempotencyKeys } from '#server/platform/idempotency/idempotency';
import type { ImagePipeline } from '#server/platform/images/image-pipeline';
import { receiveUpload } from '#server/platform/images/receive-upload';
import type { PhotoStorage } from '#server/platform/storage/photo-storage';
import {
  PHOTO_SHA256_HEADER,
  type PhotoUploadResult,
  photoParamsSchema,
  photoQuerySchema,
  photoRefusalSchema,
  photoSha256Schema,
  photosMessages,
  photoUploadParamsSchema,
  photoUploadResultSchema,
} from '#shared/features/photos/photos';
import { ITEM_ERA_HEADER, itemEraHeadersSchema } from '#shared/platform/era';
import { apiErrorSchema } from '#shared/platform/errors';
import { IDEMPOTENT_REPLAYED_HEADER, idempotencyHeadersSchema } from '#shared/platform/idempotency';
import { acceptPhoto, openPhoto, photoMaxBytes, requireOpenSlot } from './photos.service';

/** Uploads older than this in the temporary folder are leftovers of a crash. */
const STALE_UPLOAD_MS = 60 * 60 * 1000;

async function removeStaleUploads(dir: string): Promise<void> {
  const names = await fsp.readdir(dir).catch(() => [] as string[]);
  const cutoff = Date.now() - STALE_UPLOAD_MS;
  for (const name of names) {
    const file = path.join(dir, name);
    const stat = await fsp.stat(file).catch(() => undefined);
    if (stat?.isFile() && stat.mtimeMs < cutoff) await fsp.rm(file, { force: true });
  }
}

export interface PhotosRoutesOptions {
  storage: PhotoStorage;
  /** The conversion queue of ballot photos sent in one request. */
  ballotImages: ImagePipeline;
  /** The phones' kept answers (Idempotency-Key). */
  keys: IdempotencyKeys;
  /** Where an upload waits while it is received. */
  uploadsTempDir: string;
}

export const photosRoutes: FastifyPluginAsyncZod<PhotosRoutesOptions> = async (app, options) => {
  const db = app.db.kysely;
  const { storage, ballotImages: images, keys, uploadsTempDir: tempDir } = options;

  await removeStaleUploads(tempDir);

  // Only this plugin's routes accept multipart bodies. One file per request; the byte limit is set per
  // request from the settings.
  await app.register(multipart, {
    limits: { files: 1, fields: 5, parts: 6, fieldSize: 1024, headerPairs: 50 },
    throwFileSizeLimit: false,
  });

  app.post(
    '/api/validation/:slug/records/:id/photos/:kind',
    {
      schema: {
        tags: ['validación'],
        summary: 'Sube la foto de una boleta (JPG, JPEG o HEIC) de un trámite, en multipart/form-data',
        description:
          'Con la cabecera Idempotency-Key (un UUID por foto), repetir la solicitud con el mismo archivo ' +
          'devuelve la misma respuesta 201 en lugar de 409; la misma clave con otro archivo o destino recibe 422. ' +
          'Con X-Photo-SHA256 (el SHA-256 del archivo calculado en el teléfono), un archivo que no da ese hash ' +
          'recibe 422 con code photo-arrived-damaged y no se guarda nada.',
        consumes: ['multipart/form-data'],
        params: photoUploadParamsSchema,
        headers: idempotencyHeadersSchema.extend({
          [PHOTO_SHA256_HEADER]: photoSha256Schema.optional(),
          ...itemEraHeadersSchema.shape,
        }),
        response: {
          201: photoUploadResultSchema,
          400: apiErrorSchema,
          401: apiErrorSchema,
          404: apiErrorSchema,
          409: apiErrorSchema,
          413: apiErrorSchema,
          415: apiErrorSchema,
          503: apiErrorSchema,
          507: apiErrorSchema,
          422: photoRefusalSchema,
        },
      },
    },
    async (request, reply) => {
      const user = requireUser(request);
      const { slug, id, kind } = request.params;
      const itemKey = request.headers['idempotency-key'];
      // A filled slot is refused before the file travels (requireOpenSlot).
      const department = await requireOpenSlot({ db, keys }, { user, slug, recordId: id, kind, itemKey });
      if (itemKey)
        void keys.purgeIfDue().catch((error) => request.log.warn({ err: error }, 'idempotency purge failed'));

      const maxBytes = await photoMaxBytes(db);
      // The data folder keeps its floor of free space for votes and the photos already accepted.
      await app.dataDisk.requireRoom(maxBytes);
      let part: Awaited<ReturnType<typeof request.file>>;
      try {
        part = await request.file({ limits: { fileSize: maxBytes } });
      } catch (error) {
        request.log.info({ err: error }, 'upload without a readable multipart body');
        throw BadRequest(photosMessages.missingFile);
      }
      if (!part) throw BadRequest(photosMessages.missingFile);

      // The hash the phone sent decides first: bytes changed on the way are answered 'dañada' (422) even
      // when the change made them unreadable, so the phone sends its copy again (decision 082).
      const upload = await receiveUpload(part.file, {
        maxBytes,
        tempDir,
        declared: { sha256: request.headers[PHOTO_SHA256_HEADER] },
      });
      // A person whose connection closes before the answer saw the upload fail: nothing may be stored
      // after that, or their next try would find the slot filled.
      const gone = new AbortController();
      const onClose = () => {
        if (!reply.raw.writableFinished) gone.abort(new Error('la conexión se cerró antes de la respuesta'));
      };
      reply.raw.on('close', onClose);
      let answer: Answer<PhotoUploadResult>;
      try {
        answer = await acceptPhoto(
          { db, storage, images, keys, hooks: app.recordHooks, smsVotes: app.config.sms !== undefined },
          {
            department,
            recordId: id,
            kind,
            upload,
            user,
            ip: request.ip,
            now: app.config.now(),
            itemKey,
            declaredSha256: request.headers[PHOTO_SHA256_HEADER],
            signal: gone.signal,
            era: request.headers[ITEM_ERA_HEADER],
          },
        );
      } finally {
        reply.raw.off('close', onClose);
        // Before answering: nothing of this request is left on disk once the answer is out.
        await upload.discard();
      }
      if (answer.replayed) reply.header(IDEMPOTENT_REPLAYED_HEADER, 'true');
      return reply.code(201).send(answer.body);
    },
  );

  app.get(
    '/api/photos/:id',
    {
      schema: {
        tags: ['validación'],
        summary: 'Una foto (JPEG para el navegador, miniatura u original), solo para quien ve su municipio',
        params: photoParamsSchema,
        querystring: photoQuerySchema,
        response: {
          200: z.any().describe('image/jpeg o image/heic'),
          401: apiErrorSchema,
          404: apiErrorSchema,
          503: apiErrorSchema,
        },
      },
    },
    async (request, reply) => {
      const user = requireUser(request);
      const { variant, download } = request.query;
      const photo = await openPhoto({ db, storage }, { user, id: request.params.id, variant, download }, request.log);
      return reply
        .header('content-type', photo.contentType)
        .header('content-length', String(photo.size))
        .header('content-disposition', photo.disposition)
        .send(photo.stream);
    },
  );
};
