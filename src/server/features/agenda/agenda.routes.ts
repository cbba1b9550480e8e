import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { sendSerialized } from '#server/platform/cache/cache';
import { agendaTodaySchema } from '#shared/features/agenda/agenda';
import type { AgendaTodayReader } from './agenda.today';

export const agendaRoutes: FastifyPluginAsyncZod<{ agendaToday: AgendaTodayReader }> = async (app, options) => {
  const readToday = options.agendaToday;

  app.get(
    '/api/agenda/today',
    {
      schema: {
        tags: ['agenda'],
        summary: 'Eventos de hoy (el día lo decide el servidor en America/Caracas), en orden de hora',
        response: { 200: agendaTodaySchema },
      },
    },
    async (_request, reply) => sendSerialized(reply, await readToday()),
  );
};
