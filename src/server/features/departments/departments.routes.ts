import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { departmentPath } from '#server/platform/access/access.service';
import { actorOf } from '#server/platform/session/identity';
import {
  type AdminDepartment,
  type AdminDepartmentDetail,
  adminDepartmentDetailSchema,
  adminDepartmentsSchema,
  createDepartmentBodySchema,
  updateDepartmentBodySchema,
} from '#shared/features/departments/departments';
import { departmentParamsSchema } from '#shared/platform/access';
import { apiErrorSchema } from '#shared/platform/errors';
import type { AdminDepartmentRow } from './departments.repository';
import type { DepartmentsService } from './departments.service';

const errors = { 400: apiErrorSchema, 401: apiErrorSchema, 404: apiErrorSchema };

function presentDepartment(d: AdminDepartmentRow): AdminDepartment {
  return {
    slug: d.slug,
    title: d.title,
    kind: d.kind,
    path: departmentPath(d),
    members: d.members,
    total: d.total,
    voted: d.voted,
    validated: d.validated,
  };
}

/** Departamentos: for admins (admin.routes.ts guards the prefix). */
export const adminDepartmentsRoutes: FastifyPluginAsyncZod<{ departments: DepartmentsService }> = async (
  app,
  { departments },
) => {
  async function detail(slug: string): Promise<AdminDepartmentDetail> {
    const { department, members } = await departments.detail(slug);
    return {
      ...presentDepartment(department),
      emails: members.map((m) => ({
        email: m.email,
        account: m.disabled === null ? null : Number(m.disabled) === 1 ? 'disabled' : 'active',
        role: m.role,
      })),
    };
  }

  app.get(
    '/api/admin/departments',
    {
      schema: {
        tags: ['administración'],
        summary: 'Departamentos en orden del menú, con su lista de acceso y su avance (validados / total)',
        response: { 200: adminDepartmentsSchema, ...errors },
      },
    },
    async () => ({ items: (await departments.list()).map(presentDepartment) }),
  );

  app.get(
    '/api/admin/departments/:slug',
    {
      schema: {
        tags: ['administración'],
        summary: 'Un departamento con los correos de su lista y la cuenta de cada uno',
        params: departmentParamsSchema,
        response: { 200: adminDepartmentDetailSchema, ...errors },
      },
    },
    async (request) => detail(request.params.slug),
  );

  app.patch(
    '/api/admin/departments/:slug',
    {
      schema: {
        tags: ['administración'],
        summary: 'Cambia el título de un departamento (el del menú y de su página)',
        params: departmentParamsSchema,
        body: updateDepartmentBodySchema,
        response: { 200: adminDepartmentDetailSchema, ...errors },
      },
    },
    async (request) => {
      await departments.rename(request.params.slug, request.body.title, actorOf(request));
      return detail(request.params.slug);
    },
  );

  app.post(
    '/api/admin/departments',
    {
      schema: {
        tags: ['administración'],
        summary: 'Agrega un departamento (municipio o parroquia) al final del menú, con su identificador',
        body: createDepartmentBodySchema,
        response: { 201: adminDepartmentDetailSchema, ...errors, 409: apiErrorSchema },
      },
    },
    async (request, reply) => {
      const slug = await departments.create(request.body, actorOf(request));
      return reply.code(201).send(await detail(slug));
    },
  );
};
