import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { sendSerialized } from '#server/platform/cache/cache';
import { createSettingsRepository } from '#server/platform/settings/settings.repository';
import { agendaTodaySchema } from '#shared/features/agenda/agenda';
import { dateInTimeZone, hourSortKey } from '#shared/platform/format';
import { agendaTodayAnswers, createAgendaRepository } from './agenda.repository';

export const agendaRoutes: FastifyPluginAsyncZod = async (app) => {
  const agenda = createAgendaRepository(app.db.kysely);
  const settings = createSettingsRepository(app.db.kysely);
  const answers = agendaTodayAnswers(app.db.kysely);

  app.get(
    '/api/agenda/today',
    {
      schema: {
        tags: ['agenda'],
        summary: 'Eventos de hoy (el día lo decide el servidor en America/Caracas), en orden de hora',
        response: { 200: agendaTodaySchema },
      },
    },
    async (_request, reply) => {
      const s = await settings.getAll();
      const date = dateInTimeZone(app.config.now(), s.timeZone);
      // Checked against the response schema and serialised once per kept answer.
      const body = await answers.get(`${date}\n${s.leaderName}`, async () => {
        const rows = await agenda.readByDate(date);
        return JSON.stringify(
          agendaTodaySchema.parse({
            date,
            leaderName: s.leaderName,
            events: rows
              .map((r) => ({
                id: r.id,
                fecha: r.fecha,
                hora24h: r.hora_24h,
                descripcion: r.descripcion,
                lugar: r.lugar,
              }))
              .sort((a, b) => hourSortKey(a.hora24h) - hourSortKey(b.hora24h) || a.id - b.id),
          }),
        );
      });
      return sendSerialized(reply, body);
    },
  );
};
