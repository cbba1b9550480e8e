import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { type AccessGuards, requireUser } from '#server/platform/access/guards';
import { Unauthorized } from '#server/platform/http/errors';
import { hashToken } from '#server/platform/session/cookie-tokens';
import { actorOf } from '#server/platform/session/identity';
import { readSessionToken } from '#server/platform/session/session.plugin';
import {
  deviceReportAnswerSchema,
  deviceReportSchema,
  fieldClearAnswerSchema,
  fieldClearBodySchema,
  fieldOverviewSchema,
  fieldPaceSchema,
  fieldParamsSchema,
  fieldViewSchema,
} from '#shared/features/field/field';
import { apiErrorSchema } from '#shared/platform/errors';
import { authMessages } from '#shared/platform/session';
import type { createFieldService } from './field.service';

type FieldService = ReturnType<typeof createFieldService>;

/** A report of 500 items, each with its content's fingerprint and era, is about 150 KB; nothing legitimate is larger. */
const REPORT_BODY_LIMIT = 192 * 1024;

/**
 * The coordinators' field view (docs/decisions/048, 060): each signed-in phone reports its outbox now and
 * then; admins, and the members of a department's list for that department, see per validator when
 * their phone was last heard from, what waits on it that the server has not received, since when, and
 * its last error.
 */
export const fieldRoutes: FastifyPluginAsyncZod<{ field: FieldService; guards: AccessGuards }> = async (
  app,
  { field, guards },
) => {
  app.metrics.gauge({
    name: 'comando_field_items_waiting',
    help: 'Votos y fotos que los teléfonos dicen tener en espera, por departamento (según sus reportes)',
    label: 'department',
    read: () => field.waitingByDepartment(),
  });

  app.post(
    '/api/field/reports',
    {
      bodyLimit: REPORT_BODY_LIMIT,
      // Runs before the body is read (the session is known by then).
      onRequest: async (request) => {
        await field.refuseIfOverLimit(requireUser(request));
      },
      schema: {
        tags: ['validación'],
        summary: 'Un teléfono informa de su cola: qué envíos esperan, desde cuándo, su último éxito y error',
        body: deviceReportSchema,
        response: {
          200: deviceReportAnswerSchema,
          400: apiErrorSchema,
          401: apiErrorSchema,
          409: apiErrorSchema,
          429: apiErrorSchema,
        },
      },
    },
    async (request) => {
      const user = requireUser(request);
      const token = readSessionToken(request);
      if (!token) throw Unauthorized(authMessages.signInRequired);
      return field.receiveReport(user, hashToken(token), request.body);
    },
  );

  app.get(
    '/api/field',
    {
      schema: {
        tags: ['validación'],
        summary:
          'El campo de todos los municipios y parroquias que puede ver esta persona: cada uno resumido y los validadores con envíos pendientes, los atascados primero',
        response: { 200: fieldOverviewSchema, 401: apiErrorSchema },
      },
    },
    async (request) => {
      const user = requireUser(request);
      return field.overview(user);
    },
  );

  // A fixed path wins over /api/field/:slug (no municipality or parish is called 'pace').
  app.get(
    '/api/field/pace',
    {
      schema: {
        tags: ['validación'],
        summary:
          'El ritmo de cada validador de las listas que puede ver esta persona: votos de la última hora, último voto, inactivo tras 30 min, envíos en el teléfono',
        response: { 200: fieldPaceSchema, 401: apiErrorSchema },
      },
    },
    async (request) => {
      const user = requireUser(request);
      return field.pace(user);
    },
  );

  app.get(
    '/api/field/:slug',
    {
      schema: {
        tags: ['validación'],
        summary:
          'El campo de un municipio: por validador, última conexión, envíos pendientes, el más antiguo y el último error',
        params: fieldParamsSchema,
        response: { 200: fieldViewSchema, 401: apiErrorSchema, 404: apiErrorSchema },
      },
    },
    async (request) => {
      const user = requireUser(request);
      const department = await guards.fieldDepartment(user, request.params.slug);
      const members = await guards.members(department.id);
      return field.departmentView(department, members);
    },
  );

  app.post(
    '/api/field/:slug/clear',
    {
      schema: {
        tags: ['validación'],
        summary:
          'Quita lo que los teléfonos de una persona dijeron que esperaba en un municipio (un teléfono que dejó de informar)',
        params: fieldParamsSchema,
        body: fieldClearBodySchema,
        response: { 200: fieldClearAnswerSchema, 400: apiErrorSchema, 401: apiErrorSchema, 404: apiErrorSchema },
      },
    },
    async (request) => {
      const user = requireUser(request);
      const department = await guards.fieldDepartment(user, request.params.slug);
      return field.clear(actorOf(request, user), department, request.body.email);
    },
  );
};
