import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { requireDepartmentAccess } from '#server/platform/access/access.service';
import { writeAudit } from '#server/platform/audit/audit.repository';
import { BadRequest, Conflict, NotFound } from '#server/platform/http/errors';
import {
  type NotaAdmin,
  notaCreateBodySchema,
  notaDeleteResultSchema,
  notaParamsSchema,
  notaResultSchema,
  notasAdminMessages,
  notasAdminPageSchema,
  notasAdminQuerySchema,
  notaUpdateBodySchema,
} from '#shared/features/notas/notas.admin';
import { apiErrorSchema } from '#shared/platform/errors';
import { createNotasRepository, type NotaAdminRow } from './notas.repository';
import { type NotaHtml, NotaHtmlRefused, notaHtml, type PreparedNota, prepareNota } from './notas.sanitize';

/** The Notas page's allow-list also opens its editor (admins are its base group). */
export const NOTAS_DEPARTMENT = 'notas';

const errors = { 400: apiErrorSchema, 401: apiErrorSchema, 404: apiErrorSchema, 409: apiErrorSchema };

const presentSummary = (r: Omit<NotaAdminRow, 'content_html'>): Omit<NotaAdmin, 'contentHtml'> => ({
  id: r.id,
  title: r.title,
  status: r.published_at ? 'publicada' : 'borrador',
  publishedAt: r.published_at,
  createdAt: r.created_at,
  updatedAt: r.updated_at,
});

const present = (r: NotaAdminRow): NotaAdmin => ({ ...presentSummary(r), contentHtml: r.content_html });

const refusalMessage = (error: NotaHtmlRefused): string => {
  switch (error.reason) {
    case 'depth':
      return notasAdminMessages.tooDeep(error.limits.maxDepth);
    case 'elements':
      return notasAdminMessages.tooManyElements(error.limits.maxElements);
    case 'size':
      return notasAdminMessages.contentTooLong;
    case 'time':
      return notasAdminMessages.tooComplex;
  }
};

/** What the editor sent, sanitised and checked before any transaction starts; a 400 in Spanish otherwise. */
async function prepareOrRefuse(html: NotaHtml, post: { title: string; html: string }): Promise<PreparedNota> {
  let nota: PreparedNota;
  try {
    nota = await prepareNota(html, post);
  } catch (error) {
    if (error instanceof NotaHtmlRefused) throw BadRequest(refusalMessage(error));
    throw error;
  }
  if (!nota.hasContent) throw BadRequest(notasAdminMessages.contentRequired);
  if (!nota.title) throw BadRequest(notasAdminMessages.titleRequired);
  return nota;
}

/**
 * The notas editor under /api/admin/notas: for admins and the e-mails on the Notas list. HTML is
 * sanitised on the server before it is stored, on a worker thread with bounds and a time budget
 * (notas.sanitize.ts); drafts never reach /api/notas. When notas come from WordPress, nothing is
 * edited here: every change is refused with a message saying so.
 */
export const notasAdminRoutes: FastifyPluginAsyncZod<{ html?: NotaHtml }> = async (app, options) => {
  const db = app.db.kysely;
  const html = options.html ?? notaHtml;
  const notas = createNotasRepository(db, html);
  const fromWordpress = app.config.notas.source === 'wordpress';

  // Before the body is read: a visitor gets 401 and anyone off the list the unknown-resource 404.
  app.addHook('onRequest', async (request) => {
    await requireDepartmentAccess(db, request.user, NOTAS_DEPARTMENT);
  });
  // Before the body is validated: with WordPress as the source, every change gets the same clear answer.
  app.addHook('preValidation', async (request) => {
    if (fromWordpress && request.method !== 'GET') throw Conflict(notasAdminMessages.managedInWordpress);
  });
  app.addHook('onSend', async (_request, reply) => {
    if (!reply.hasHeader('cache-control')) reply.header('cache-control', 'no-store');
  });

  // The hook above let only signed-in editors through.
  const audit = (request: FastifyRequest, action: string, nota: NotaAdmin, now: Date) => ({
    actorEmail: request.user?.email ?? null,
    departmentSlug: NOTAS_DEPARTMENT,
    ip: request.ip,
    action,
    target: `nota:${nota.id}`,
    details: { title: nota.title, status: nota.status },
    at: now,
  });

  app.get(
    '/api/admin/notas',
    {
      schema: {
        tags: ['notas'],
        summary: 'Notas para editarlas (borradores incluidos), la última cambiada primero',
        querystring: notasAdminQuerySchema,
        response: { 200: notasAdminPageSchema, ...errors },
      },
    },
    async (request) => {
      const { page, pageSize, status, q } = request.query;
      if (fromWordpress) {
        return {
          source: 'wordpress' as const,
          notice: notasAdminMessages.managedInWordpress,
          items: [],
          page,
          pageSize,
          total: 0,
          totalPages: 1,
        };
      }
      const { rows, total } = await notas.listAdmin({ page, pageSize, status, q: q || undefined });
      return {
        source: 'local' as const,
        items: rows.map((r) => ({ ...presentSummary(r), excerpt: r.excerpt })),
        page,
        pageSize,
        total,
        totalPages: Math.max(1, Math.ceil(total / pageSize)),
      };
    },
  );

  app.get(
    '/api/admin/notas/:id',
    {
      schema: {
        tags: ['notas'],
        summary: 'Una nota con su HTML, para el editor',
        params: notaParamsSchema,
        response: { 200: notaResultSchema.shape.nota, ...errors },
      },
    },
    async (request) => {
      if (fromWordpress) throw Conflict(notasAdminMessages.managedInWordpress);
      const row = await notas.findById(request.params.id);
      if (!row) throw NotFound(notasAdminMessages.notaNotFound);
      return present(row);
    },
  );

  app.post(
    '/api/admin/notas',
    {
      schema: {
        tags: ['notas'],
        summary: 'Crea una nota, como borrador o publicada; el HTML se limpia en el servidor',
        body: notaCreateBodySchema,
        response: { 201: notaResultSchema, ...errors },
      },
    },
    async (request, reply) => {
      const { title, contentHtml, publish } = request.body;
      const prepared = await prepareOrRefuse(html, { title, html: contentHtml });
      const now = app.config.now();
      const nota = await notas.transaction(async (trx) => {
        const row = await createNotasRepository(trx, html).create(prepared, publish ? now.toISOString() : null, now);
        const created = present(row);
        await writeAudit(trx, audit(request, 'nota.create', created, now));
        return created;
      });
      const message = publish ? notasAdminMessages.createdPublished : notasAdminMessages.created;
      return reply.code(201).send({ message, nota });
    },
  );

  app.put(
    '/api/admin/notas/:id',
    {
      schema: {
        tags: ['notas'],
        summary: 'Cambia el título y el contenido de una nota (sigue publicada o en borrador)',
        params: notaParamsSchema,
        body: notaUpdateBodySchema,
        response: { 200: notaResultSchema, ...errors },
      },
    },
    async (request) => {
      const { title, contentHtml } = request.body;
      const prepared = await prepareOrRefuse(html, { title, html: contentHtml });
      const now = app.config.now();
      const nota = await notas.transaction(async (trx) => {
        const row = await createNotasRepository(trx, html).updateContent(request.params.id, prepared, now);
        if (!row) throw NotFound(notasAdminMessages.notaNotFound);
        const updated = present(row);
        await writeAudit(trx, audit(request, 'nota.update', updated, now));
        return updated;
      });
      return { message: notasAdminMessages.updated, nota };
    },
  );

  for (const [action, publish] of [
    ['publish', true],
    ['unpublish', false],
  ] as const) {
    app.post(
      `/api/admin/notas/:id/${action}`,
      {
        schema: {
          tags: ['notas'],
          summary: publish
            ? 'Publica una nota: aparece en el sitio, con la fecha de ahora'
            : 'Vuelve una nota a borrador: deja de mostrarse en el sitio',
          params: notaParamsSchema,
          response: { 200: notaResultSchema, ...errors },
        },
      },
      async (request) => {
        const now = app.config.now();
        const nota = await notas.transaction(async (trx) => {
          const repo = createNotasRepository(trx, html);
          const current = await repo.findById(request.params.id);
          if (!current) throw NotFound(notasAdminMessages.notaNotFound);
          // Publishing a published nota keeps its date; it is not "news" again.
          const publishedAt = publish ? (current.published_at ?? now.toISOString()) : null;
          if (publishedAt === current.published_at) return present(current);
          const row = await repo.setPublishedAt(current.id, publishedAt, now);
          if (!row) throw NotFound(notasAdminMessages.notaNotFound);
          const changed = present(row);
          await writeAudit(trx, audit(request, publish ? 'nota.publish' : 'nota.unpublish', changed, now));
          return changed;
        });
        return { message: publish ? notasAdminMessages.published : notasAdminMessages.unpublished, nota };
      },
    );
  }

  app.delete(
    '/api/admin/notas/:id',
    {
      schema: {
        tags: ['notas'],
        summary: 'Elimina una nota (queda en el registro de auditoría con su título)',
        params: notaParamsSchema,
        response: { 200: notaDeleteResultSchema, ...errors },
      },
    },
    async (request) => {
      const now = app.config.now();
      await notas.transaction(async (trx) => {
        const row = await createNotasRepository(trx, html).remove(request.params.id);
        if (!row) throw NotFound(notasAdminMessages.notaNotFound);
        await writeAudit(trx, audit(request, 'nota.delete', present(row), now));
      });
      return { message: notasAdminMessages.deleted };
    },
  );
};
