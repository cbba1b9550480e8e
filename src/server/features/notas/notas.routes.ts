import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { sendSerialized } from '#server/platform/cache/cache';
import { type NotasPage, notasMessages, notasPageSchema, notasQuerySchema } from '#shared/features/notas/notas';
import { createNotasRepository, type NotaRow, publishedNotasAnswers } from './notas.repository';
import { sanitizeNotaHtmlCached } from './notas.sanitize';
import type { WordpressSource } from './wordpress.source';

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

/** `wordpress`: the notas come from that site (NOTAS_SOURCE=wordpress); otherwise from our database. */
export const notasRoutes: FastifyPluginAsyncZod<{ wordpress?: WordpressSource }> = async (app, { wordpress }) => {
  const repo = createNotasRepository(app.db.kysely);

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

  const answers = publishedNotasAnswers(app.db.kysely);

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
      // Checked against the response schema and serialised once per kept answer.
      const body = await answers.get(`${page}:${pageSize}`, async () =>
        JSON.stringify(notasPageSchema.parse(presentPage(await repo.readPublished(page, pageSize), page, pageSize))),
      );
      return sendSerialized(reply, body);
    },
  );
};
