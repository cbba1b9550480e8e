import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { guardedUser } from '#server/platform/access/guards';
import {
  adminUserSchema,
  bulkAccessBodySchema,
  bulkAccessResultSchema,
  createUserBodySchema,
  createUserResultSchema,
  endSessionsResultSchema,
  resetPasswordBodySchema,
  resetPasswordResultSchema,
  resetSecondFactorResultSchema,
  setSmsPhonesBodySchema,
  setUserDepartmentsBodySchema,
  updateUserBodySchema,
  userIdParamsSchema,
  usersPageSchema,
  usersQuerySchema,
} from '#shared/features/people/people';
import { apiErrorSchema } from '#shared/platform/errors';
import type { AdminPeopleService } from './people.service';

const errors = { 400: apiErrorSchema, 401: apiErrorSchema, 404: apiErrorSchema, 409: apiErrorSchema };

/** The signed-in admin (admin.routes.ts let only admins in), as the audit log names them. */
const adminActor = (request: FastifyRequest) => ({ ...guardedUser(request), ip: request.ip });

/** Personas: for admins (admin.routes.ts guards the prefix). */
export const adminPeopleRoutes: FastifyPluginAsyncZod<{ people: AdminPeopleService }> = async (app, { people }) => {
  app.get(
    '/api/admin/users',
    {
      schema: {
        tags: ['administración'],
        summary: 'Personas con cuenta: búsqueda por correo, rol, estado y departamento, de 50 en 50',
        querystring: usersQuerySchema,
        response: { 200: usersPageSchema, ...errors },
      },
    },
    async (request) => people.list(request.query),
  );

  app.post(
    '/api/admin/users',
    {
      schema: {
        tags: ['administración'],
        summary: 'Crea una cuenta; sin contraseña, el servidor genera una temporal que se muestra una sola vez',
        body: createUserBodySchema,
        response: { 201: createUserResultSchema, ...errors },
      },
    },
    async (request, reply) => {
      const result = await people.create(request.body, adminActor(request));
      return reply.code(201).send(result);
    },
  );

  app.patch(
    '/api/admin/users/:id',
    {
      schema: {
        tags: ['administración'],
        summary: 'Cambia el rol o desactiva/activa una cuenta (desactivar cierra sus sesiones)',
        params: userIdParamsSchema,
        body: updateUserBodySchema,
        response: { 200: adminUserSchema, ...errors },
      },
    },
    async (request) => people.update(request.params.id, request.body, adminActor(request)),
  );

  app.post(
    '/api/admin/users/:id/password',
    {
      schema: {
        tags: ['administración'],
        summary: 'Restablece la contraseña (la indicada o una temporal mostrada una sola vez) y cierra sus sesiones',
        params: userIdParamsSchema,
        body: resetPasswordBodySchema,
        response: { 200: resetPasswordResultSchema, ...errors },
      },
    },
    async (request) => people.resetPassword(request.params.id, request.body.password, adminActor(request)),
  );

  app.post(
    '/api/admin/users/:id/sessions/end',
    {
      schema: {
        tags: ['administración'],
        summary: 'Cierra la sesión de la persona en todos sus dispositivos y olvida sus navegadores conocidos',
        params: userIdParamsSchema,
        response: { 200: endSessionsResultSchema, ...errors },
      },
    },
    async (request) => people.endSessions(request.params.id, adminActor(request)),
  );

  app.post(
    '/api/admin/users/:id/second-factor/reset',
    {
      schema: {
        tags: ['administración'],
        summary:
          'Quita el segundo factor de la persona (teléfono perdido) y cierra sus sesiones; queda en la auditoría',
        params: userIdParamsSchema,
        response: { 200: resetSecondFactorResultSchema, ...errors },
      },
    },
    async (request) => people.resetSecondFactor(request.params.id, adminActor(request)),
  );

  app.put(
    '/api/admin/users/:id/sms-phones',
    {
      schema: {
        tags: ['administración'],
        summary: 'Fija los números de móvil desde los que la persona vota por SMS',
        params: userIdParamsSchema,
        body: setSmsPhonesBodySchema,
        response: { 200: adminUserSchema, ...errors },
      },
    },
    async (request) => people.setSmsPhones(request.params.id, request.body.phones, adminActor(request)),
  );

  app.put(
    '/api/admin/users/:id/departments',
    {
      schema: {
        tags: ['administración'],
        summary: 'Fija los departamentos de una persona: concede y retira la diferencia',
        params: userIdParamsSchema,
        body: setUserDepartmentsBodySchema,
        response: { 200: adminUserSchema, ...errors },
      },
    },
    async (request) => people.setDepartments(request.params.id, request.body.departments, adminActor(request)),
  );

  app.post(
    '/api/admin/access/bulk',
    {
      schema: {
        tags: ['administración'],
        summary: 'Concede o retira un departamento a una lista pegada de correos, con informe por línea',
        body: bulkAccessBodySchema,
        response: { 200: bulkAccessResultSchema, ...errors },
      },
    },
    async (request) => people.bulkAccess(request.body, adminActor(request)),
  );
};
