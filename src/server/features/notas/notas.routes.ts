import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { sendSerialized } from '#server/platform/cache/cache';
import { notasPageSchema, notasQuerySchema } from '#shared/features/notas/notas';
import type { PublishedNotasReader } from './notas.public';

export const notasRoutes: FastifyPluginAsyncZod<{ readNotas: PublishedNotasReader }> = async (app, { readNotas }) => {
  app.get(
    '/api/notas',
    {
      schema: {
        tags: ['notas'],
        summary: 'Notas publicadas, de la más reciente a la más antigua, por páginas',
        querystring: notasQuerySchema,
        response: { 200: notasPageSchema },
      },
    },
    async (request, reply) => sendSerialized(reply, await readNotas(request.query.page, request.query.pageSize)),
  );
};
