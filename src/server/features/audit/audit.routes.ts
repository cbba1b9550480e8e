import { Readable } from 'node:stream';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { AuditRow } from '#server/platform/audit/audit.repository';
import { CSV_BOM, csvDateTime, csvLine, csvLines, csvZoneLabel } from '#server/platform/lib/csv';
import { actorOf } from '#server/platform/session/identity';
import { requireAdmin } from '#server/platform/session/session.plugin';
import { createSettingsRepository } from '#server/platform/settings/settings.repository';
import {
  AUDIT_PAGE_SIZE,
  auditActionLabel,
  auditFiltersSchema,
  auditPageSchema,
  auditQuerySchema,
  auditTargetLabel,
} from '#shared/features/audit/audit';
import { csvFileSchema } from '#shared/features/results/results';
import { apiErrorSchema } from '#shared/platform/errors';
import { dateInTimeZone } from '#shared/platform/format';
import { createAdminAuditRepository } from './audit.repository';
import { auditFilter, recordExport } from './audit.service';

const errors = { 400: apiErrorSchema, 401: apiErrorSchema, 404: apiErrorSchema };
const EXPORT_PAGE = 2_000;

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

export const adminAuditRoutes: FastifyPluginAsyncZod = async (app) => {
  const db = app.db.kysely;
  const repo = createAdminAuditRepository(db);
  const settings = createSettingsRepository(db);

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
      requireAdmin(request);
      const { page, ...filters } = request.query;
      const filter = auditFilter(filters, (await settings.getAll()).timeZone);
      const [rows, total] = await Promise.all([
        repo.page(filter, AUDIT_PAGE_SIZE, (page - 1) * AUDIT_PAGE_SIZE),
        repo.count(filter),
      ]);
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
    async (request, reply) => {
      const admin = requireAdmin(request);
      const now = app.config.now();
      const { timeZone } = await settings.getAll();
      const filter = auditFilter(request.query, timeZone);
      await recordExport(db, request.query, actorOf(request, admin), now);

      // Page by page as the client reads: a long log never sits in memory at once.
      async function* lines(): AsyncGenerator<string> {
        yield CSV_BOM +
          csvLine([
            `Fecha y hora (${csvZoneLabel(now)})`,
            'Persona',
            'Acción',
            'Descripción',
            'Departamento',
            'Objetivo',
            'IP',
            'Detalles',
          ]);
        let before: number | null = null;
        for (;;) {
          const rows = await repo.exportPage(filter, before, EXPORT_PAGE);
          if (rows.length === 0) return;
          yield csvLines(
            rows.map((r) => [
              csvDateTime(r.at),
              r.actor_email,
              r.action,
              auditActionLabel(r.action),
              r.department_slug,
              r.target === null ? null : auditTargetLabel(r.action, r.target),
              r.ip,
              r.details,
            ]),
          );
          before = rows.at(-1)?.id ?? before;
          if (rows.length < EXPORT_PAGE) return;
        }
      }
      const stream = Readable.from(lines());
      stream.on('error', (error) => request.log.error({ err: error }, 'audit export failed'));
      return reply
        .type('text/csv; charset=utf-8')
        .header('content-disposition', `attachment; filename="auditoria-${dateInTimeZone(now, timeZone)}.csv"`)
        .send(stream as unknown as string);
    },
  );
};
