import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { departmentPath } from '#server/platform/access/access.service';
import { type AccessGuards, requireAdmin } from '#server/platform/access/guards';
import { NotFound } from '#server/platform/http/errors';
import { actorOf } from '#server/platform/session/identity';
import {
  accessMemberBodySchema,
  accessMemberParamsSchema,
  departmentAccessListSchema,
  departmentAccessSchema,
  departmentParamsSchema,
  departmentSchema,
} from '#shared/platform/access';
import { apiErrorSchema } from '#shared/platform/errors';
import type { DepartmentsService } from './departments.service';

export const accessRoutes: FastifyPluginAsyncZod<{ departments: DepartmentsService; guards: AccessGuards }> = async (
  app,
  { departments: service, guards },
) => {
  app.get(
    '/api/access/departments/:slug',
    {
      schema: {
        tags: ['acceso'],
        summary: 'Un departamento, si quien pregunta puede abrirlo (si no, el mismo 404 que si no existiera)',
        params: departmentParamsSchema,
        response: { 200: departmentSchema, 401: apiErrorSchema, 404: apiErrorSchema },
      },
    },
    async (request) => {
      const d = await guards.department(request.user, request.params.slug);
      return { slug: d.slug, title: d.title, kind: d.kind, path: departmentPath(d) };
    },
  );

  app.get(
    '/api/access/departments',
    {
      schema: {
        tags: ['acceso'],
        summary: 'Administración: todos los departamentos con sus listas de correos',
        response: { 200: departmentAccessListSchema, 401: apiErrorSchema, 404: apiErrorSchema },
      },
    },
    async (request) => {
      requireAdmin(request);
      const departments = await guards.departmentsWithEmails();
      return {
        departments: departments.map((d) => ({
          slug: d.slug,
          title: d.title,
          kind: d.kind,
          path: departmentPath(d),
          emails: d.emails,
        })),
      };
    },
  );

  const accessView = async (slug: string) => {
    const d = await guards.departmentWithEmails(slug);
    if (!d) throw NotFound();
    return { slug: d.slug, title: d.title, kind: d.kind, path: departmentPath(d), emails: d.emails };
  };

  app.post(
    '/api/access/departments/:slug/members',
    {
      schema: {
        tags: ['acceso'],
        summary: 'Administración: añade un correo a la lista de un departamento',
        params: departmentParamsSchema,
        body: accessMemberBodySchema,
        response: { 200: departmentAccessSchema, 400: apiErrorSchema, 401: apiErrorSchema, 404: apiErrorSchema },
      },
    },
    async (request) => {
      const admin = requireAdmin(request);
      await service.grantAccess(request.body.email, request.params.slug, actorOf(request, admin));
      return accessView(request.params.slug);
    },
  );

  app.delete(
    '/api/access/departments/:slug/members/:email',
    {
      schema: {
        tags: ['acceso'],
        summary: 'Administración: quita un correo de la lista de un departamento',
        params: accessMemberParamsSchema,
        response: { 200: departmentAccessSchema, 401: apiErrorSchema, 404: apiErrorSchema },
      },
    },
    async (request) => {
      const admin = requireAdmin(request);
      await service.revokeAccess(request.params.email, request.params.slug, actorOf(request, admin));
      return accessView(request.params.slug);
    },
  );
};
