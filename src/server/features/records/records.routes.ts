import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { requireUser } from '#server/platform/access/guards';
import { sendSerialized } from '#server/platform/cache/cache';
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
import { ITEM_ERA_HEADER, itemEraHeadersSchema } from '#shared/platform/era';
import { apiErrorSchema } from '#shared/platform/errors';
import { IDEMPOTENT_REPLAYED_HEADER, idempotencyHeadersSchema } from '#shared/platform/idempotency';
import type { RecordsService } from './records.service';

const errors = { 400: apiErrorSchema, 401: apiErrorSchema, 404: apiErrorSchema, 409: apiErrorSchema };

/** The validators' lists and votes: one records service, whose vote writer the SMS votes share (compose.ts). */
export const recordsRoutes: FastifyPluginAsyncZod<{ records: RecordsService }> = async (app, { records }) => {
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
      return records.candidates();
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
    async (request, reply) =>
      sendSerialized(reply, await records.listPage(request.user, request.params.slug, request.query)),
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
    async (request) => records.summary(request.user, request.params.slug),
  );

  app.post(
    '/api/validation/:slug/records/:id/vote',
    {
      // A small JSON both ways (never over the compression threshold): no compression hooks on the
      // busiest write of the day (decision 090).
      compress: false,
      decompress: false,
      schema: {
        tags: ['validación'],
        summary: 'Registra el voto de un trámite (una sola vez; el primero gana)',
        description:
          'Con la cabecera Idempotency-Key (un UUID por voto), repetir la solicitud devuelve 201 con el ' +
          'trámite como está ahora en lugar de 409; la misma clave con otro voto recibe 422.',
        params: recordParamsSchema,
        headers: idempotencyHeadersSchema.extend(itemEraHeadersSchema.shape),
        body: voteBodySchema,
        response: { 201: voteResultSchema, ...errors, 422: apiErrorSchema },
      },
    },
    async (request, reply) => {
      const answer = await records.vote({
        user: requireUser(request),
        ip: request.ip,
        slug: request.params.slug,
        recordId: request.params.id,
        codes: request.body.candidates,
        itemKey: request.headers['idempotency-key'],
        era: request.headers[ITEM_ERA_HEADER],
      });
      if (answer.replayed) reply.header(IDEMPOTENT_REPLAYED_HEADER, 'true');
      return reply.code(201).send(answer.body);
    },
  );
};
