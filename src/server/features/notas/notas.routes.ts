import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { type NotasPage, notasMessages, notasPageSchema, notasQuerySchema } from '../../../shared/notas';
import { createNotasRepository } from './notas.repository';
import { sanitizeNotaHtmlCached } from './notas.sanitize';
import { createWordpressSource } from './wordpress.source';

export const notasRoutes: FastifyPluginAsyncZod = async (app) => {
  const repo = createNotasRepository(app.db.kysely);
  const notasConfig = app.config.notas;
  const wordpress =
    notasConfig.source === 'wordpress' ? createWordpressSource({ url: notasConfig.url, log: app.log }) : undefined;

  async function fromWordpress(page: number, pageSize: number): Promise<NotasPage> {
    const snap = await wordpress!.snapshot();
    const total = snap.posts.length;
    const items = snap.posts.slice((page - 1) * pageSize, page * pageSize);
    const notice = !snap.available ? notasMessages.unavailable : snap.stale ? notasMessages.staleCopy : undefined;
    return {
      items,
      page,
      pageSize,
      total,
      totalPages: Math.max(1, Math.ceil(total / pageSize)),
      ...(notice ? { notice } : {}),
    };
  }

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
      if (wordpress) return fromWordpress(page, pageSize);
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
