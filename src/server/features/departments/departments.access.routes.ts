import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { createAccessRepository } from '#server/platform/access/access.repository';
import { departmentPath, listDepartmentEmails, requireDepartmentAccess } from '#server/platform/access/access.service';
import { NotFound } from '#server/platform/http/errors';
import { actorOf } from '#server/platform/session/identity';
import { requireAdmin } from '#server/platform/session/session.plugin';
import {
  accessMemberBodySchema,
  accessMemberParamsSchema,
  departmentAccessListSchema,
  departmentAccessSchema,
  departmentParamsSchema,
  departmentSchema,
} from '#shared/platform/access';
import { apiErrorSchema } from '#shared/platform/errors';
import { createDepartmentsService } from './departments.service';

export const accessRoutes: FastifyPluginAsyncZod = async (app) => {
  const db = app.db.kysely;
  const service = createDepartmentsService(db, app.config.now);

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
      const d = await requireDepartmentAccess(db, request.user, request.params.slug);
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
      const departments = await createAccessRepository(db).listDepartmentsWithMembers();
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
    const d = await createAccessRepository(db).findDepartment(slug);
    if (!d) throw NotFound();
    return {
      slug: d.slug,
      title: d.title,
      kind: d.kind,
      path: departmentPath(d),
      emails: await listDepartmentEmails(db, slug),
    };
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
