import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { AuditRow } from '#server/platform/audit/audit.repository';
import { sendExport } from '#server/platform/export/csv-export';
import { actorOf } from '#server/platform/session/identity';
import { AUDIT_PAGE_SIZE, auditFiltersSchema, auditPageSchema, auditQuerySchema } from '#shared/features/audit/audit';
import { csvFileSchema } from '#shared/features/results/results';
import { apiErrorSchema } from '#shared/platform/errors';
import type { AuditService } from './audit.service';

const errors = { 400: apiErrorSchema, 401: apiErrorSchema, 404: apiErrorSchema };

const presentEntry = (r: AuditRow) => ({
  id: r.id,
  at: r.at,
  actorEmail: r.actor_email,
  action: r.action,
  departmentSlug: r.department_slug,
  target: r.target,
  ip: r.ip,
  details: r.details,
});

/** Auditoría: for admins (admin.routes.ts guards the prefix). */
export const adminAuditRoutes: FastifyPluginAsyncZod<{ audit: AuditService }> = async (app, { audit }) => {
  app.get(
    '/api/admin/audit',
    {
      schema: {
        tags: ['administración'],
        summary: 'Registro de auditoría, lo más reciente primero, filtrado por persona, acción, departamento y fechas',
        querystring: auditQuerySchema,
        response: { 200: auditPageSchema, ...errors },
      },
    },
    async (request) => {
      const { page, ...filters } = request.query;
      const { rows, total } = await audit.page(filters, page);
      return { items: rows.map(presentEntry), total, page, pageSize: AUDIT_PAGE_SIZE };
    },
  );

  app.get(
    '/api/admin/audit.csv',
    {
      schema: {
        tags: ['administración'],
        summary: 'Las filas filtradas del registro de auditoría como CSV para Excel (la exportación queda registrada)',
        querystring: auditFiltersSchema,
        response: {
          200: { description: 'Archivo CSV', content: { 'text/csv': { schema: csvFileSchema } } },
          ...errors,
        },
      },
    },
    async (request, reply) => sendExport(request, reply, await audit.exportCsv(request.query, actorOf(request))),
  );
};
