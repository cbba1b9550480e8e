import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { guardedUser, requireAdmin } from '#server/platform/access/guards';
import {
  correctVoteBodySchema,
  purgeBodySchema,
  purgeResultSchema,
  recordAdminParamsSchema,
  recordBodySchema,
  recordPhoneSchema,
  recordResultSchema,
  recordsAdminMessages,
  recordsAdminPageSchema,
  recordsAdminQuerySchema,
  recordsDepartmentsSchema,
  restoreRecordBodySchema,
  updateRecordBodySchema,
  voidRecordBodySchema,
  voteCorrectionConflictSchema,
} from '#shared/features/records-admin/records-admin';
import { apiErrorSchema } from '#shared/platform/errors';
import type { RecordsAdminService } from './records-admin.service';
import type { createRecordsPurgeService } from './records-purge.service';

const errors = { 400: apiErrorSchema, 401: apiErrorSchema, 404: apiErrorSchema, 409: apiErrorSchema };

/** The admin this plugin's onRequest guard let through, as the audit log names them. */
const actorOf = (request: FastifyRequest) => ({ email: guardedUser(request).email, ip: request.ip });

export interface RecordsAdminRoutesOptions {
  recordsAdmin: RecordsAdminService;
  purge: ReturnType<typeof createRecordsPurgeService>;
}

/**
 * The records back office under /api/admin/records, for admins only: list, add, edit, void and restore
 * records, correct their votes (the CSV import and export are features/records-import).
 */
export const recordsAdminRoutes: FastifyPluginAsyncZod<RecordsAdminRoutesOptions> = async (app, options) => {
  const { recordsAdmin: service, purge } = options;

  // Before any body is read: a visitor gets 401 and anyone but an admin the unknown-resource 404.
  app.addHook('onRequest', async (request) => {
    requireAdmin(request);
  });

  app.get(
    '/api/admin/records/departments',
    {
      schema: {
        tags: ['registros'],
        summary: 'Municipios y parroquias con sus registros pendientes, votados, validados y anulados',
        response: { 200: recordsDepartmentsSchema, ...errors },
      },
    },
    async () => service.departments(),
  );

  app.get(
    '/api/admin/records',
    {
      schema: {
        tags: ['registros'],
        summary:
          'Registros de un municipio, o de todos sin department (cada uno con su municipio), sin anular, anulados o todos, ' +
          'con búsqueda por nombre, teléfono, comunidad o UBCH, de 50 en 50',
        querystring: recordsAdminQuerySchema,
        response: { 200: recordsAdminPageSchema, ...errors },
      },
    },
    async (request) => service.list(request.query),
  );

  app.post(
    '/api/admin/records',
    {
      schema: {
        tags: ['registros'],
        summary: 'Agrega un registro a mano (no puede repetir nombre y teléfono en el mismo municipio)',
        body: recordBodySchema,
        response: { 201: recordResultSchema, ...errors },
      },
    },
    async (request, reply) => {
      const record = await service.create(request.body, actorOf(request));
      return reply.code(201).send({ message: recordsAdminMessages.created, record });
    },
  );

  app.put(
    '/api/admin/records/:id',
    {
      schema: {
        tags: ['registros'],
        summary: 'Corrige un registro pendiente (un registro sin voto también puede cambiar de municipio)',
        params: recordAdminParamsSchema,
        body: updateRecordBodySchema,
        response: { 200: recordResultSchema, ...errors },
      },
    },
    async (request) => {
      const record = await service.update(request.params.id, request.body, actorOf(request));
      return { message: recordsAdminMessages.updated, record };
    },
  );

  app.post(
    '/api/admin/records/purge',
    {
      schema: {
        tags: ['registros'],
        summary:
          'Borrar datos personales: los nombres quedan en iniciales, los teléfonos se borran y las fotos de boletas se conservan o se borran; los conteos y resultados no cambian',
        body: purgeBodySchema,
        response: { 200: purgeResultSchema, ...errors },
      },
    },
    async (request) => purge.purge({ photos: request.body.photos }, actorOf(request)),
  );

  app.post(
    '/api/admin/records/:id/phone',
    {
      schema: {
        tags: ['registros'],
        summary:
          "'Mostrar': el teléfono completo de un registro (la lista lo muestra enmascarado); queda en la auditoría",
        params: recordAdminParamsSchema,
        response: { 200: recordPhoneSchema, ...errors },
      },
    },
    async (request) => service.showPhone(request.params.id, actorOf(request)),
  );

  app.post(
    '/api/admin/records/:id/void',
    {
      schema: {
        tags: ['registros'],
        summary:
          'Anula un registro con un motivo: sale de las listas y del avance; queda en la base y en el registro de auditoría. ' +
          'Su voto, si lo tiene, deja de contar en los resultados salvo voteCounts: true',
        params: recordAdminParamsSchema,
        body: voidRecordBodySchema,
        response: { 200: recordResultSchema, ...errors },
      },
    },
    async (request) => {
      const record = await service.void(request.params.id, request.body, actorOf(request));
      return { message: recordsAdminMessages.voidedOk, record };
    },
  );

  app.post(
    '/api/admin/records/:id/restore',
    {
      schema: {
        tags: ['registros'],
        summary:
          'Restaura un registro anulado: vuelve a la lista de validación y al avance, y su voto vuelve a contar como antes',
        params: recordAdminParamsSchema,
        body: restoreRecordBodySchema,
        response: { 200: recordResultSchema, ...errors },
      },
    },
    async (request) => {
      const record = await service.restore(request.params.id, request.body.reason, actorOf(request));
      return { message: recordsAdminMessages.restoredOk, record };
    },
  );

  app.put(
    '/api/admin/records/:id/vote',
    {
      schema: {
        tags: ['registros'],
        summary:
          'Corrige el voto de un registro pendiente con un motivo: otros candidatos (ninguno es un voto sin candidatos) o candidates: null para borrarlo. ' +
          'Resultados, avance y auditoría (antes y después) cambian en la misma transacción',
        params: recordAdminParamsSchema,
        body: correctVoteBodySchema,
        response: { 200: recordResultSchema, ...errors, 409: voteCorrectionConflictSchema },
      },
    },
    async (request) => {
      const { record, cleared } = await service.correctVote(
        request.params.id,
        { codes: request.body.candidates, reason: request.body.reason, voteRevision: request.body.voteRevision },
        actorOf(request),
      );
      return { message: cleared ? recordsAdminMessages.voteCleared : recordsAdminMessages.voteCorrected, record };
    },
  );
};
