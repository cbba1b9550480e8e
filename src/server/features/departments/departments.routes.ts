import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { departmentPath } from '#server/platform/access/access.service';
import { writeAudit } from '#server/platform/audit/audit.repository';
import { NotFound } from '#server/platform/http/errors';
import { requireAdmin } from '#server/platform/session/session.plugin';
import {
  type AdminDepartment,
  type AdminDepartmentDetail,
  adminDepartmentDetailSchema,
  adminDepartmentsSchema,
  departmentsMessages,
  updateDepartmentBodySchema,
} from '#shared/features/departments/departments';
import { departmentParamsSchema } from '#shared/platform/access';
import { apiErrorSchema } from '#shared/platform/errors';
import { type AdminDepartmentRow, createAdminDepartmentsRepository } from './departments.repository';

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

export const adminDepartmentsRoutes: FastifyPluginAsyncZod = async (app) => {
  const db = app.db.kysely;
  const repo = createAdminDepartmentsRepository(db);

  async function detail(slug: string): Promise<AdminDepartmentDetail> {
    const d = await repo.find(slug);
    if (!d) throw NotFound(departmentsMessages.departmentNotFound);
    const members = await repo.members(d.id);
    return {
      ...presentDepartment(d),
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
    async (request) => {
      requireAdmin(request);
      return { items: (await repo.list()).map(presentDepartment) };
    },
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
    async (request) => {
      requireAdmin(request);
      return detail(request.params.slug);
    },
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
      const admin = requireAdmin(request);
      const d = await repo.find(request.params.slug);
      if (!d) throw NotFound(departmentsMessages.departmentNotFound);
      const { title } = request.body;
      if (title !== d.title) {
        const now = app.config.now();
        await db.transaction().execute(async (trx) => {
          await createAdminDepartmentsRepository(trx).setTitle(d.id, title);
          await writeAudit(trx, {
            actorEmail: admin.email,
            action: 'department.update',
            departmentSlug: d.slug,
            target: d.slug,
            ip: request.ip,
            details: { title: { from: d.title, to: title } },
            at: now,
          });
        });
      }
      return detail(d.slug);
    },
  );
};
