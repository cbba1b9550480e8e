import multipart from '@fastify/multipart';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { writeAudit } from '#server/platform/audit/audit.repository';
import { BadRequest, Conflict, NotFound } from '#server/platform/http/errors';
import { createImagePipeline } from '#server/platform/images/image-pipeline';
import { receiveUpload } from '#server/platform/images/receive-upload';
import { requireAdmin } from '#server/platform/session/session.plugin';
import { createSettingsRepository, parseMaxBytes } from '#server/platform/settings/settings.repository';
import { createPhotoStorage, uploadTempDir } from '#server/platform/storage/create-photo-storage';
import {
  adminCandidateSchema,
  adminCandidatesSchema,
  CANDIDATE_PHOTOS_PATH,
  CANDIDATE_PLACEHOLDER_PHOTO,
  candidateIdParamsSchema,
  candidatesMessages,
  createCandidateBodySchema,
  updateCandidateBodySchema,
} from '#shared/features/candidates/candidates';
import { PHOTO_MAX_BYTES_SETTING, photosMessages } from '#shared/features/records/photos';
import { apiErrorSchema } from '#shared/platform/errors';
import { createAdminCandidatesRepository } from './candidates.repository';
import { presentCandidate, storageKeyOfPhotoUrl, storeCandidatePhoto } from './candidates.service';

const errors = { 400: apiErrorSchema, 401: apiErrorSchema, 404: apiErrorSchema, 409: apiErrorSchema };

export const adminCandidatesRoutes: FastifyPluginAsyncZod = async (app) => {
  const db = app.db.kysely;
  const repo = createAdminCandidatesRepository(db);
  const storage = createPhotoStorage(app.config);
  const images = createImagePipeline({ concurrency: 1 });
  const tempDir = uploadTempDir(app.config.dataDir);
  const settings = createSettingsRepository(db);

  // Only this plugin's photo route takes multipart bodies: one file, its byte limit set per request.
  await app.register(multipart, {
    limits: { files: 1, fields: 5, parts: 6, fieldSize: 1024, headerPairs: 50 },
    throwFileSizeLimit: false,
  });

  async function candidateOrThrow(id: number) {
    const c = await repo.find(id);
    if (!c) throw NotFound(candidatesMessages.candidateNotFound);
    return c;
  }

  async function codeIsFree(code: string, exceptId?: number) {
    const other = await repo.findByCode(code);
    if (other && other.id !== exceptId) throw Conflict(candidatesMessages.candidateCodeTaken(code));
  }

  app.get(
    '/api/admin/candidates',
    {
      schema: {
        tags: ['administración'],
        summary: 'Candidatos en el orden de la boleta, con sus votos',
        response: { 200: adminCandidatesSchema, ...errors },
      },
    },
    async (request) => {
      requireAdmin(request);
      return { items: (await repo.list()).map(presentCandidate) };
    },
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
      const admin = requireAdmin(request);
      const body = request.body;
      await codeIsFree(body.code);
      const now = app.config.now();
      const id = await db.transaction().execute(async (trx) => {
        const newId = await createAdminCandidatesRepository(trx).insert({
          ...body,
          photoUrl: CANDIDATE_PLACEHOLDER_PHOTO,
        });
        await writeAudit(trx, {
          actorEmail: admin.email,
          action: 'candidate.create',
          target: body.code,
          ip: request.ip,
          details: { name: body.name, colour: body.colour },
          at: now,
        });
        return newId;
      });
      await repo.notifyResults(app.db.dialect);
      return reply.code(201).send(presentCandidate(await candidateOrThrow(id)));
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
    async (request) => {
      const admin = requireAdmin(request);
      const before = await candidateOrThrow(request.params.id);
      const { code, name, colour, position } = request.body;
      const changes: Record<string, { from: unknown; to: unknown }> = {};
      if (code !== undefined && code !== before.code) {
        // Votes keep the candidates' codes: a code already on ballots stays as it is.
        if (await repo.hasBallots(before.id)) throw Conflict(candidatesMessages.candidateHasVotes);
        await codeIsFree(code, before.id);
        changes.code = { from: before.code, to: code };
      }
      if (name !== undefined && name !== before.name) changes.name = { from: before.name, to: name };
      if (colour !== undefined && colour !== before.colour) changes.colour = { from: before.colour, to: colour };
      let order: number[] | undefined;
      if (position !== undefined && position !== before.position + 1) {
        const ids = (await repo.list()).map((c) => c.id).filter((id) => id !== before.id);
        ids.splice(Math.min(position - 1, ids.length), 0, before.id);
        order = ids;
        changes.position = { from: before.position + 1, to: Math.min(position, ids.length) };
      }
      if (Object.keys(changes).length > 0) {
        await db.transaction().execute(async (trx) => {
          const tx = createAdminCandidatesRepository(trx);
          await tx.update(before.id, {
            code: changes.code ? code : undefined,
            name: changes.name ? name : undefined,
            colour: changes.colour ? colour : undefined,
          });
          if (order) await tx.reorder(order);
          await writeAudit(trx, {
            actorEmail: admin.email,
            action: 'candidate.update',
            target: code ?? before.code,
            ip: request.ip,
            details: changes,
            at: app.config.now(),
          });
        });
        await repo.notifyResults(app.db.dialect);
      }
      return presentCandidate(await candidateOrThrow(before.id));
    },
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
    async (request) => {
      const admin = requireAdmin(request);
      const c = await candidateOrThrow(request.params.id);
      if (await repo.hasBallots(c.id)) throw Conflict(candidatesMessages.candidateHasVotes);
      await db.transaction().execute(async (trx) => {
        const tx = createAdminCandidatesRepository(trx);
        await tx.delete(c.id);
        await tx.reorder((await tx.list()).map((x) => x.id));
        await writeAudit(trx, {
          actorEmail: admin.email,
          action: 'candidate.delete',
          target: c.code,
          ip: request.ip,
          details: { name: c.name },
          at: app.config.now(),
        });
      });
      const oldKey = storageKeyOfPhotoUrl(c.photo_url);
      if (oldKey) await storage.delete(oldKey).catch(() => {});
      await repo.notifyResults(app.db.dialect);
      return { items: (await repo.list()).map(presentCandidate) };
    },
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
      const admin = requireAdmin(request);
      const c = await candidateOrThrow(request.params.id);
      const maxBytes = parseMaxBytes(await settings.get(PHOTO_MAX_BYTES_SETTING));
      let part: Awaited<ReturnType<typeof request.file>>;
      try {
        part = await request.file({ limits: { fileSize: maxBytes } });
      } catch (error) {
        request.log.info({ err: error }, 'candidate photo without a readable multipart body');
        throw BadRequest(photosMessages.missingFile);
      }
      if (!part) throw BadRequest(photosMessages.missingFile);

      const upload = await receiveUpload(part.file, { maxBytes, tempDir });
      let stored: Awaited<ReturnType<typeof storeCandidatePhoto>> | undefined;
      try {
        stored = await storeCandidatePhoto({ storage, images }, upload);
        const photo = stored;
        await db.transaction().execute(async (trx) => {
          await createAdminCandidatesRepository(trx).update(c.id, { photo_url: photo.url });
          await writeAudit(trx, {
            actorEmail: admin.email,
            action: 'candidate.photo',
            target: c.code,
            ip: request.ip,
            details: {
              sha256: upload.sha256,
              sizeBytes: upload.size,
              contentType: upload.type === 'heic' ? 'image/heic' : 'image/jpeg',
              width: photo.width,
              height: photo.height,
            },
            at: app.config.now(),
          });
        });
      } catch (error) {
        if (stored) await storage.delete(stored.key).catch(() => {});
        throw error;
      } finally {
        await upload.discard();
      }
      // The old picture is no longer anyone's: it goes (pictures of the public folder stay).
      const oldKey = storageKeyOfPhotoUrl(c.photo_url);
      if (oldKey) await storage.delete(oldKey).catch(() => {});
      await repo.notifyResults(app.db.dialect);
      return presentCandidate(await candidateOrThrow(c.id));
    },
  );
};

const photoFileParamsSchema = z.object({
  dir: z.string().regex(/^[0-9a-f]{2}$/),
  file: z.string().regex(/^[0-9a-f]{32}\.jpg$/),
});

/** Candidate photos, to everyone: the results page and the ballot show them. */
export const candidatePhotoRoutes: FastifyPluginAsyncZod = async (app) => {
  const repo = createAdminCandidatesRepository(app.db.kysely);
  const storage = createPhotoStorage(app.config);

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
      if (!(await repo.findByPhotoUrl(`${CANDIDATE_PHOTOS_PATH}/${key}`))) throw NotFound();
      const file = await storage.get(key);
      if (!file) {
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
