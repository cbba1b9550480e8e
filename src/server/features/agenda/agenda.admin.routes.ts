import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { requireDepartmentAccess } from '#server/platform/access/access.service';
import { writeAudit } from '#server/platform/audit/audit.repository';
import { NotFound } from '#server/platform/http/errors';
import type { AgendaEvent } from '#shared/features/agenda/agenda';
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
import { hourSortKey } from '#shared/platform/format';
import { type AgendaEventRow, createAgendaRepository } from './agenda.repository';

/** The Agenda page's allow-list also opens its editor (admins are its base group). */
export const AGENDA_DEPARTMENT = 'agenda';

const errors = { 400: apiErrorSchema, 401: apiErrorSchema, 404: apiErrorSchema };

const present = (r: AgendaEventRow): AgendaEvent => ({
  id: r.id,
  fecha: r.fecha,
  hora24h: r.hora_24h,
  descripcion: r.descripcion,
  lugar: r.lugar,
});

/** By day, then by time as the public page orders them. */
const byDayAndTime = (a: AgendaEvent, b: AgendaEvent) =>
  a.fecha.localeCompare(b.fecha) || hourSortKey(a.hora24h) - hourSortKey(b.hora24h) || a.id - b.id;

/** What the audit log keeps of an event. */
const auditDetails = (e: AgendaEvent) => ({
  fecha: e.fecha,
  hora24h: e.hora24h,
  descripcion: e.descripcion,
  lugar: e.lugar,
});

const sameEvent = (a: AgendaEventRow, b: AgendaEventRow) =>
  a.hora_24h === b.hora_24h && a.descripcion === b.descripcion && a.lugar === b.lugar;

/**
 * The agenda editor under /api/admin/agenda: for admins and the e-mails on the Agenda list. Every write
 * is one transaction with its audit row, after which the public agenda's kept answers are forgotten.
 */
export const agendaAdminRoutes: FastifyPluginAsyncZod = async (app) => {
  const db = app.db.kysely;
  const agenda = createAgendaRepository(db);

  // Before the body is read: a visitor gets 401 and anyone off the list the unknown-resource 404.
  app.addHook('onRequest', async (request) => {
    await requireDepartmentAccess(db, request.user, AGENDA_DEPARTMENT);
  });
  app.addHook('onSend', async (_request, reply) => {
    if (!reply.hasHeader('cache-control')) reply.header('cache-control', 'no-store');
  });
  // The hook above let only signed-in editors through.
  const actor = (request: FastifyRequest) => ({
    actorEmail: request.user?.email ?? null,
    departmentSlug: AGENDA_DEPARTMENT,
    ip: request.ip,
  });

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
    async (request) => {
      const rows = await agenda.listRange(request.query.from, request.query.to);
      return { events: rows.map(present).sort(byDayAndTime) };
    },
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
      const now = app.config.now();
      const event = await agenda.transaction(async (trx) => {
        const repo = createAgendaRepository(trx);
        const row = present(await repo.create(request.body, now));
        await writeAudit(trx, {
          ...actor(request),
          action: 'agenda.create',
          target: `agenda:${row.id}`,
          details: auditDetails(row),
          at: now,
        });
        return row;
      });
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
      const now = app.config.now();
      const event = await agenda.transaction(async (trx) => {
        const repo = createAgendaRepository(trx);
        const before = await repo.findById(request.params.id);
        if (!before) throw NotFound(agendaAdminMessages.eventNotFound);
        const row = await repo.update(request.params.id, request.body, now);
        if (!row) throw NotFound(agendaAdminMessages.eventNotFound);
        const after = present(row);
        await writeAudit(trx, {
          ...actor(request),
          action: 'agenda.update',
          target: `agenda:${row.id}`,
          details: { before: auditDetails(present(before)), after: auditDetails(after) },
          at: now,
        });
        return after;
      });
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
      const now = app.config.now();
      await agenda.transaction(async (trx) => {
        const repo = createAgendaRepository(trx);
        const row = await repo.remove(request.params.id);
        if (!row) throw NotFound(agendaAdminMessages.eventNotFound);
        await writeAudit(trx, {
          ...actor(request),
          action: 'agenda.delete',
          target: `agenda:${row.id}`,
          details: auditDetails(present(row)),
          at: now,
        });
      });
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
      const { from, to } = request.body;
      const now = app.config.now();
      const result = await agenda.transaction(async (trx) => {
        const repo = createAgendaRepository(trx);
        const source = await repo.readByDate(from);
        if (source.length === 0) throw NotFound(agendaAdminMessages.nothingToCopy);
        const existing = await repo.readByDate(to);
        let skipped = 0;
        for (const event of source) {
          if (existing.some((e) => sameEvent(e, event))) {
            skipped++;
            continue;
          }
          existing.push(
            await repo.create(
              { fecha: to, hora24h: event.hora_24h, descripcion: event.descripcion, lugar: event.lugar },
              now,
            ),
          );
        }
        const copied = source.length - skipped;
        await writeAudit(trx, {
          ...actor(request),
          action: 'agenda.copy',
          target: `agenda:${from}>${to}`,
          details: { from, to, copied, skipped },
          at: now,
        });
        return { copied, skipped, events: existing.map(present).sort(byDayAndTime) };
      });
      return reply.code(201).send({ message: agendaAdminMessages.copied(result.copied, result.skipped), ...result });
    },
  );
};
