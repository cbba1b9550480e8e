import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { AccessGuards } from '#server/platform/access/guards';
import { actorOf } from '#server/platform/session/identity';
import {
  agendaAdminListSchema,
  agendaAdminMessages,
  agendaCopyBodySchema,
  agendaCopyResultSchema,
  agendaDeleteResultSchema,
  agendaEventBodySchema,
  agendaEventParamsSchema,
  agendaEventResultSchema,
  agendaRangeQuerySchema,
} from '#shared/features/agenda/agenda.admin';
import { apiErrorSchema } from '#shared/platform/errors';
import { AGENDA_DEPARTMENT, type AgendaService } from './agenda.service';

const errors = { 400: apiErrorSchema, 401: apiErrorSchema, 404: apiErrorSchema };

/**
 * The agenda editor under /api/admin/agenda: for admins and the e-mails on the Agenda list. Each write
 * is one of the agenda's use cases (agenda.service.ts).
 */
export const agendaAdminRoutes: FastifyPluginAsyncZod<{ agenda: AgendaService; guards: AccessGuards }> = async (
  app,
  { agenda, guards },
) => {
  // Before the body is read: a visitor gets 401 and anyone off the list the unknown-resource 404.
  app.addHook('onRequest', async (request) => {
    await guards.department(request.user, AGENDA_DEPARTMENT);
  });
  // The hook above let only signed-in editors through.

  app.get(
    '/api/admin/agenda',
    {
      schema: {
        tags: ['agenda'],
        summary: 'Eventos de un rango de días (hasta 92), por día y hora, para editarlos',
        querystring: agendaRangeQuerySchema,
        response: { 200: agendaAdminListSchema, ...errors },
      },
    },
    async (request) => ({ events: await agenda.listRange(request.query.from, request.query.to) }),
  );

  app.post(
    '/api/admin/agenda',
    {
      schema: {
        tags: ['agenda'],
        summary:
          'Crea un evento (fecha, hora de 24 horas, descripción y lugar); la agenda pública lo muestra al instante',
        body: agendaEventBodySchema,
        response: { 201: agendaEventResultSchema, ...errors },
      },
    },
    async (request, reply) => {
      const event = await agenda.create(request.body, actorOf(request));
      return reply.code(201).send({ message: agendaAdminMessages.created, event });
    },
  );

  app.put(
    '/api/admin/agenda/:id',
    {
      schema: {
        tags: ['agenda'],
        summary: 'Cambia un evento',
        params: agendaEventParamsSchema,
        body: agendaEventBodySchema,
        response: { 200: agendaEventResultSchema, ...errors },
      },
    },
    async (request) => {
      const event = await agenda.update(request.params.id, request.body, actorOf(request));
      return { message: agendaAdminMessages.updated, event };
    },
  );

  app.delete(
    '/api/admin/agenda/:id',
    {
      schema: {
        tags: ['agenda'],
        summary: 'Elimina un evento (queda en el registro de auditoría)',
        params: agendaEventParamsSchema,
        response: { 200: agendaDeleteResultSchema, ...errors },
      },
    },
    async (request) => {
      await agenda.remove(request.params.id, actorOf(request));
      return { message: agendaAdminMessages.deleted };
    },
  );

  app.post(
    '/api/admin/agenda/copy',
    {
      schema: {
        tags: ['agenda'],
        summary:
          'Copia los eventos de un día a otro; los que ese día ya tiene (misma hora, descripción y lugar) no se repiten',
        body: agendaCopyBodySchema,
        response: { 201: agendaCopyResultSchema, ...errors },
      },
    },
    async (request, reply) => {
      const result = await agenda.copyDay(request.body.from, request.body.to, actorOf(request));
      return reply.code(201).send({ message: agendaAdminMessages.copied(result.copied, result.skipped), ...result });
    },
  );
};
