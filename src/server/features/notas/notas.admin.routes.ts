import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { apiErrorSchema } from '#shared/platform/errors';
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
import { BadRequest, Conflict, NotFound } from '#server/platform/http/errors';
import { requireDepartmentAccess } from '#server/platform/access/access.service';
import { writeAudit } from '#server/platform/audit/audit.repository';
import { createNotasRepository, type NotaAdminRow } from './notas.repository';
import { sanitizeNotaHtml, sanitizeNotaTitle } from './notas.sanitize';

/** The Notas page's allow-list also opens its editor (admins are its base group). */
export const NOTAS_DEPARTMENT = 'notas';

const errors = { 400: apiErrorSchema, 401: apiErrorSchema, 404: apiErrorSchema, 409: apiErrorSchema };

const present = (r: NotaAdminRow): NotaAdmin => ({
  id: r.id,
  title: r.title,
  contentHtml: r.content_html,
  status: r.published_at ? 'publicada' : 'borrador',
  publishedAt: r.published_at,
  createdAt: r.created_at,
  updatedAt: r.updated_at,
});

/** The first words of a nota as plain text, for the list. */
export function notaExcerpt(html: string, max = 160): string {
  // Block ends become spaces, so "<p>a</p><p>b</p>" reads "a b".
  const text = sanitizeNotaTitle(html.replace(/<\/(p|h[1-6]|li|blockquote|figcaption|td|th)>|<br\s*\/?>/gi, '$& '));
  return text.length > max ? `${text.slice(0, max - 1).trimEnd()}…` : text;
}

/** Sanitised HTML with something to read or see: text or an image. */
function hasContent(html: string): boolean {
  const clean = sanitizeNotaHtml(html);
  return /<img\s/i.test(clean) || sanitizeNotaTitle(clean).length > 0;
}

/**
 * The notas editor under /api/admin/notas: for admins and the e-mails on the Notas list. HTML is
 * sanitised on the server before it is stored; drafts never reach /api/notas. When notas come from
 * WordPress, nothing is edited here: every change is refused with a message saying so.
 */
export const notasAdminRoutes: FastifyPluginAsyncZod = async (app) => {
  const db = app.db.kysely;
  const notas = createNotasRepository(db);
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
        items: rows.map((r) => {
          const { contentHtml, ...rest } = present(r);
          return { ...rest, excerpt: notaExcerpt(contentHtml) };
        }),
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
      if (!hasContent(contentHtml)) throw BadRequest(notasAdminMessages.contentRequired);
      if (!sanitizeNotaTitle(title)) throw BadRequest(notasAdminMessages.titleRequired);
      const now = app.config.now();
      const nota = await notas.transaction(async (trx) => {
        const row = await createNotasRepository(trx).create(
          { title, html: contentHtml, publishedAt: publish ? now.toISOString() : null },
          now,
        );
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
      if (!hasContent(contentHtml)) throw BadRequest(notasAdminMessages.contentRequired);
      if (!sanitizeNotaTitle(title)) throw BadRequest(notasAdminMessages.titleRequired);
      const now = app.config.now();
      const nota = await notas.transaction(async (trx) => {
        const row = await createNotasRepository(trx).updateContent(
          request.params.id,
          { title, html: contentHtml },
          now,
        );
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
          const repo = createNotasRepository(trx);
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
        const row = await createNotasRepository(trx).remove(request.params.id);
        if (!row) throw NotFound(notasAdminMessages.notaNotFound);
        await writeAudit(trx, audit(request, 'nota.delete', present(row), now));
      });
      return { message: notasAdminMessages.deleted };
    },
  );
};
