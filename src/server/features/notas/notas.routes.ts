import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { type NotasPage, notasMessages, notasPageSchema, notasQuerySchema } from '#shared/features/notas/notas';
import { createSerializedCache, sendSerialized } from '#server/platform/cache/serialized-cache';
import { createNotasRepository, type NotaRow } from './notas.repository';
import { sanitizeNotaHtmlCached } from './notas.sanitize';
import { createWordpressSource } from './wordpress.source';

function presentPage(listed: { rows: NotaRow[]; total: number }, page: number, pageSize: number): NotasPage {
  return {
    // Sanitised again on the way out: rows written by older versions or by hand are covered too.
    items: listed.rows.map((r) => ({
      id: r.id,
      title: r.title,
      contentHtml: sanitizeNotaHtmlCached(r.content_html),
      publishedAt: r.published_at,
    })),
    page,
    pageSize,
    total: listed.total,
    totalPages: Math.max(1, Math.ceil(listed.total / pageSize)),
  };
}

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

  const serialize = createSerializedCache<{ rows: NotaRow[]; total: number }, typeof notasPageSchema>(notasPageSchema);

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
    async (request, reply) => {
      const { page, pageSize } = request.query;
      if (wordpress) return fromWordpress(page, pageSize);
      const listed = await repo.listPublished(page, pageSize);
      const body = serialize(listed, `${page}:${pageSize}`, () => presentPage(listed, page, pageSize));
      return sendSerialized(reply, body);
    },
  );
};
