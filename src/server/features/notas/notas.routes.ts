import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { notasPageSchema, notasQuerySchema } from '../../../shared/notas';
import { createNotasRepository } from './notas.repository';
import { sanitizeNotaHtmlCached } from './notas.sanitize';

export const notasRoutes: FastifyPluginAsyncZod = async (app) => {
  const repo = createNotasRepository(app.db.kysely);

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
    async (request) => {
      const { page, pageSize } = request.query;
      const { rows, total } = await repo.listPublished(page, pageSize);
      return {
        // Sanitised again on the way out: rows written by older versions or by hand are covered too.
        items: rows.map((r) => ({
          id: r.id,
          title: r.title,
          contentHtml: sanitizeNotaHtmlCached(r.content_html),
          publishedAt: r.published_at,
        })),
        page,
        pageSize,
        total,
        totalPages: Math.max(1, Math.ceil(total / pageSize)),
      };
    },
  );
};
