import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { sendSerialized } from '#server/platform/cache/cache';
import { createIdempotencyKeys, requestFingerprint } from '#server/platform/idempotency/idempotency';
import { requireUser } from '#server/platform/session/session.plugin';
import {
  candidatesSchema,
  recordParamsSchema,
  recordsPageSchema,
  recordsQuerySchema,
  recordsSummarySchema,
  voteBodySchema,
  voteResultSchema,
} from '#shared/features/records/records';
import { departmentParamsSchema } from '#shared/platform/access';
import { apiErrorSchema } from '#shared/platform/errors';
import { IDEMPOTENT_REPLAYED_HEADER, idempotencyHeadersSchema } from '#shared/platform/idempotency';
import { createRecordsRepository } from './records.repository';
import { searchPattern } from './records.search';
import { createVoteWriter, presentRecord, recordListAnswers, requireValidationDepartment } from './records.service';

const errors = { 400: apiErrorSchema, 401: apiErrorSchema, 404: apiErrorSchema, 409: apiErrorSchema };

export const recordsRoutes: FastifyPluginAsyncZod = async (app) => {
  const db = app.db.kysely;
  const repo = createRecordsRepository(db);
  const keys = createIdempotencyKeys(db, { days: app.config.idempotencyKeyDays, now: app.config.now });
  const votes = createVoteWriter(db, app.db.dialect, app.recordHooks, keys);
  const lists = recordListAnswers(db);

  app.get(
    '/api/candidates',
    {
      schema: {
        tags: ['validación'],
        summary: 'Candidatos de la boleta (código, nombre, color y foto), en su orden',
        response: { 200: candidatesSchema, 401: apiErrorSchema },
      },
    },
    async (request) => {
      requireUser(request);
      const rows = await repo.listCandidates();
      return { items: rows.map((c) => ({ code: c.code, name: c.name, colour: c.colour, photoUrl: c.photo_url })) };
    },
  );

  app.get(
    '/api/validation/:slug/records',
    {
      schema: {
        tags: ['validación'],
        summary: 'Trámites pendientes de un municipio o parroquia, de 100 en 100, con búsqueda',
        params: departmentParamsSchema,
        querystring: recordsQuerySchema,
        response: { 200: recordsPageSchema, ...errors },
      },
    },
    async (request, reply) => {
      // Access first, always: the cache below only ever holds what the department's list shows.
      const department = await requireValidationDepartment(db, request.user, request.params.slug);
      const { q, validated, after, limit } = request.query;
      const pattern = searchPattern(q);
      // Searches are each their own; the shared pages (the list as everyone scrolls it) are cached.
      const key = pattern === undefined ? `${validated}:${after ?? ''}:${limit}` : undefined;
      const read = async () => {
        const page = await repo.listPage(department.id, { includeValidated: validated, pattern, after, limit });
        return JSON.stringify(
          recordsPageSchema.parse({ items: page.rows.map(presentRecord), nextCursor: page.nextCursor }),
        );
      };
      const body = key === undefined ? await read() : await lists.get(key, read, department.slug);
      return sendSerialized(reply, body);
    },
  );

  app.get(
    '/api/validation/:slug/summary',
    {
      schema: {
        tags: ['validación'],
        summary: 'Cuántos trámites del municipio están votados y validados',
        params: departmentParamsSchema,
        response: { 200: recordsSummarySchema, ...errors },
      },
    },
    async (request) => {
      const department = await requireValidationDepartment(db, request.user, request.params.slug);
      return repo.summary(department.id);
    },
  );

  app.post(
    '/api/validation/:slug/records/:id/vote',
    {
      schema: {
        tags: ['validación'],
        summary: 'Registra el voto de un trámite (una sola vez; el primero gana)',
        description:
          'Con la cabecera Idempotency-Key (un UUID por voto), repetir la solicitud devuelve la misma ' +
          'respuesta 201 en lugar de 409; la misma clave con otro voto recibe 422.',
        params: recordParamsSchema,
        headers: idempotencyHeadersSchema,
        body: voteBodySchema,
        response: { 201: voteResultSchema, ...errors, 422: apiErrorSchema },
      },
    },
    async (request, reply) => {
      const user = requireUser(request);
      const department = await requireValidationDepartment(db, user, request.params.slug);
      const key = request.headers['idempotency-key'];
      if (key) void keys.purgeIfDue().catch((error) => request.log.warn({ err: error }, 'idempotency purge failed'));
      const codes = request.body.candidates;
      const answer = await votes.cast({
        department,
        recordId: request.params.id,
        codes,
        user,
        ip: request.ip,
        now: app.config.now(),
        idempotency:
          key === undefined
            ? undefined
            : {
                key,
                actor: user.email,
                // The same ballot whatever order its boxes were ticked in.
                fingerprint: requestFingerprint('vote', department.slug, request.params.id, ...[...codes].sort()),
              },
      });
      if (answer.replayed) reply.header(IDEMPOTENT_REPLAYED_HEADER, 'true');
      return reply.code(201).send(answer.body);
    },
  );
};
