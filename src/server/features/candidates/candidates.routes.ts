import multipart from '@fastify/multipart';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { BadRequest, NotFound } from '#server/platform/http/errors';
import { receiveUpload } from '#server/platform/images/receive-upload';
import { actorOf } from '#server/platform/session/identity';
import {
  adminCandidateSchema,
  adminCandidatesSchema,
  CANDIDATE_PHOTOS_PATH,
  candidateIdParamsSchema,
  createCandidateBodySchema,
  updateCandidateBodySchema,
} from '#shared/features/candidates/candidates';
import { photosMessages } from '#shared/features/photos/photos';
import { apiErrorSchema } from '#shared/platform/errors';
import type { CandidatesService } from './candidates.service';

const errors = { 400: apiErrorSchema, 401: apiErrorSchema, 404: apiErrorSchema, 409: apiErrorSchema };

/** Candidatos: for admins (admin.routes.ts guards the prefix). */
export const adminCandidatesRoutes: FastifyPluginAsyncZod<{
  candidates: CandidatesService;
  uploadsTempDir: string;
}> = async (app, { candidates, uploadsTempDir: tempDir }) => {
  // Only this plugin's photo route takes multipart bodies: one file, its byte limit set per request.
  await app.register(multipart, {
    limits: { files: 1, fields: 5, parts: 6, fieldSize: 1024, headerPairs: 50 },
    throwFileSizeLimit: false,
  });

  app.get(
    '/api/admin/candidates',
    {
      schema: {
        tags: ['administración'],
        summary: 'Candidatos en el orden de la boleta, con sus votos',
        response: { 200: adminCandidatesSchema, ...errors },
      },
    },
    async () => ({ items: await candidates.list() }),
  );

  app.post(
    '/api/admin/candidates',
    {
      schema: {
        tags: ['administración'],
        summary: 'Añade un candidato al final de la boleta (código único de letras mayúsculas, color hexadecimal)',
        body: createCandidateBodySchema,
        response: { 201: adminCandidateSchema, ...errors },
      },
    },
    async (request, reply) => {
      return reply.code(201).send(await candidates.create(request.body, actorOf(request)));
    },
  );

  app.patch(
    '/api/admin/candidates/:id',
    {
      schema: {
        tags: ['administración'],
        summary: 'Edita nombre, código, color o lugar en la boleta (el código no cambia si ya tiene votos)',
        params: candidateIdParamsSchema,
        body: updateCandidateBodySchema,
        response: { 200: adminCandidateSchema, ...errors },
      },
    },
    async (request) => candidates.update(request.params.id, request.body, actorOf(request)),
  );

  app.delete(
    '/api/admin/candidates/:id',
    {
      schema: {
        tags: ['administración'],
        summary: 'Borra un candidato que todavía no tiene votos',
        params: candidateIdParamsSchema,
        response: { 200: adminCandidatesSchema, ...errors },
      },
    },
    async (request) => ({ items: await candidates.remove(request.params.id, actorOf(request)) }),
  );

  app.post(
    '/api/admin/candidates/:id/photo',
    {
      schema: {
        tags: ['administración'],
        summary:
          'Cambia la foto de un candidato (JPG, JPEG o HEIC, comprobada por su contenido), en multipart/form-data',
        consumes: ['multipart/form-data'],
        params: candidateIdParamsSchema,
        response: { 200: adminCandidateSchema, ...errors, 413: apiErrorSchema, 415: apiErrorSchema },
      },
    },
    async (request) => {
      // An unknown candidate is a 404 before the body is read.
      const c = await candidates.find(request.params.id);
      const maxBytes = await candidates.photoMaxBytes();
      let part: Awaited<ReturnType<typeof request.file>>;
      try {
        part = await request.file({ limits: { fileSize: maxBytes } });
      } catch (error) {
        request.log.info({ err: error }, 'candidate photo without a readable multipart body');
        throw BadRequest(photosMessages.missingFile);
      }
      if (!part) throw BadRequest(photosMessages.missingFile);
      const upload = await receiveUpload(part.file, { maxBytes, tempDir });
      try {
        return await candidates.setPhoto(c.id, upload, actorOf(request));
      } finally {
        await upload.discard();
      }
    },
  );
};

const photoFileParamsSchema = z.object({
  dir: z.string().regex(/^[0-9a-f]{2}$/),
  file: z.string().regex(/^[0-9a-f]{32}\.jpg$/),
});

/** Candidate photos, to everyone: the results page and the ballot show them. */
export const candidatePhotoRoutes: FastifyPluginAsyncZod<{ candidates: CandidatesService }> = async (
  app,
  { candidates },
) => {
  app.get(
    `${CANDIDATE_PHOTOS_PATH}/:dir/:file`,
    {
      // Campaign material, the same for everyone: browsers keep it (a new photo gets a new address).
      config: { publicAnswer: true },
      schema: {
        tags: ['candidatos'],
        summary: 'La foto actual de un candidato (JPEG); pública, como material de campaña',
        params: photoFileParamsSchema,
        response: { 200: z.any().describe('image/jpeg'), 404: apiErrorSchema },
      },
    },
    async (request, reply) => {
      const key = `${request.params.dir}/${request.params.file}`;
      // Only a candidate's current photo: no other stored file (ballots!) is reachable from here.
      const file = await candidates.currentPhoto(key);
      if (!file) throw NotFound();
      if (file === 'missing') {
        request.log.error({ key }, 'candidate photo missing from storage');
        throw NotFound();
      }
      // A new photo gets a new address, so this one never changes.
      return reply
        .header('content-type', 'image/jpeg')
        .header('content-length', String(file.size))
        .header('cache-control', 'public, max-age=31536000, immutable')
        .send(file.stream);
    },
  );
};
