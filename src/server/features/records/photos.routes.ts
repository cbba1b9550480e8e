import fsp from 'node:fs/promises';
import path from 'node:path';
import multipart from '@fastify/multipart';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { BadRequest, Conflict, NotFound } from '#server/platform/http/errors';
import { createImagePipeline } from '#server/platform/images/image-pipeline';
import { receiveUpload } from '#server/platform/images/receive-upload';
import { requireUser } from '#server/platform/session/session.plugin';
import { parseMaxBytes } from '#server/platform/settings/settings.repository';
import { createPhotoStorage, uploadTempDir } from '#server/platform/storage/create-photo-storage';
import {
  PHOTO_MAX_BYTES_SETTING,
  photoParamsSchema,
  photoQuerySchema,
  photosMessages,
  photoUploadParamsSchema,
  photoUploadResultSchema,
} from '#shared/features/records/photos';
import { recordsMessages } from '#shared/features/records/records';
import { apiErrorSchema } from '#shared/platform/errors';
import { contentDisposition, photoDownloadName } from './photo-names';
import { createPhotosRepository } from './photos.repository';
import { presentPhoto, storePhoto } from './photos.service';
import { createRecordsRepository } from './records.repository';
import { presentRecord, requireValidationDepartment } from './records.service';

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

export const photosRoutes: FastifyPluginAsyncZod = async (app) => {
  const db = app.db.kysely;
  const storage = createPhotoStorage(app.config);
  const images = createImagePipeline();
  const tempDir = uploadTempDir(app.config.dataDir);
  const photos = createPhotosRepository(db);
  const records = createRecordsRepository(db);

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
        consumes: ['multipart/form-data'],
        params: photoUploadParamsSchema,
        response: {
          201: photoUploadResultSchema,
          400: apiErrorSchema,
          401: apiErrorSchema,
          404: apiErrorSchema,
          409: apiErrorSchema,
          413: apiErrorSchema,
          415: apiErrorSchema,
          503: apiErrorSchema,
        },
      },
    },
    async (request, reply) => {
      const user = requireUser(request);
      const { slug, id, kind } = request.params;
      const department = await requireValidationDepartment(db, user, slug);
      const record = await records.findInDepartment(department.id, id);
      if (record?.status !== 'pendiente') throw NotFound(recordsMessages.recordNotFound);
      const current = record[`${kind}_photo_id`];
      // Validators fill a slot once; admins may replace, and the old photo stays as evidence.
      if (current !== null && user.role !== 'admin') throw Conflict(photosMessages.slotFilled);

      const maxBytes = parseMaxBytes(await photos.getSetting(PHOTO_MAX_BYTES_SETTING));
      let part: Awaited<ReturnType<typeof request.file>>;
      try {
        part = await request.file({ limits: { fileSize: maxBytes } });
      } catch (error) {
        request.log.info({ err: error }, 'upload without a readable multipart body');
        throw BadRequest(photosMessages.missingFile);
      }
      if (!part) throw BadRequest(photosMessages.missingFile);

      const upload = await receiveUpload(part.file, { maxBytes, tempDir });
      // A person whose connection closes before the answer saw the upload fail: nothing may be stored
      // after that, or their next try would find the slot filled.
      const gone = new AbortController();
      const onClose = () => {
        if (!reply.raw.writableFinished) gone.abort(new Error('la conexión se cerró antes de la respuesta'));
      };
      reply.raw.on('close', onClose);
      try {
        const { photo, warning } = await storePhoto(
          { db, storage, images, hooks: app.recordHooks },
          {
            department,
            record,
            kind,
            current,
            upload,
            user,
            ip: request.ip,
            now: app.config.now(),
            signal: gone.signal,
          },
        );
        const updated = await records.findInDepartment(department.id, id);
        return reply.code(201).send({
          message: photosMessages.uploaded,
          photo: presentPhoto(photo, department.title, record.nombre),
          record: presentRecord(updated ?? record),
          warning,
        });
      } finally {
        reply.raw.off('close', onClose);
        await upload.discard();
      }
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
      const photo = await photos.findForServing(request.params.id);
      if (!photo) throw NotFound();
      // Someone who may not see the department gets the same 404 as for a photo that does not exist.
      await requireValidationDepartment(db, user, photo.department_slug);

      const { variant, download } = request.query;
      const original = variant === 'original';
      const key = original ? photo.original_key : variant === 'thumb' ? photo.thumb_key : photo.display_key;
      const contentType = original ? photo.content_type : 'image/jpeg';
      const ext = contentType === 'image/heic' ? 'heic' : 'jpg';
      const file = await storage.get(key);
      if (!file) {
        request.log.error({ photoId: photo.id, variant }, 'photo file missing from storage');
        throw NotFound();
      }
      const name = photoDownloadName(photo.department_title, photo.kind, photo.record_nombre, ext);
      return reply
        .header('content-type', contentType)
        .header('content-length', String(file.size))
        .header('content-disposition', contentDisposition(download ? 'attachment' : 'inline', name))
        .header('cache-control', 'private, max-age=86400')
        .send(file.stream);
    },
  );
};
