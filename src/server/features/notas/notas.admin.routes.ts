import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { AccessGuards } from '#server/platform/access/guards';
import { Conflict } from '#server/platform/http/errors';
import { actorOf } from '#server/platform/session/identity';
import {
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
import { NOTAS_DEPARTMENT, type NotasService } from './notas.service';

const errors = { 400: apiErrorSchema, 401: apiErrorSchema, 404: apiErrorSchema, 409: apiErrorSchema };

/**
 * The notas editor under /api/admin/notas: for admins and the e-mails on the Notas list. Each write is
 * one of the notas' use cases (notas.service.ts); drafts never reach /api/notas. When notas come from
 * WordPress, nothing is edited here: every change is refused with a message saying so.
 */
export const notasAdminRoutes: FastifyPluginAsyncZod<{ notas: NotasService; guards: AccessGuards }> = async (
  app,
  { notas, guards },
) => {
  const fromWordpress = app.config.notas.source === 'wordpress';

  // Before the body is read: a visitor gets 401 and anyone off the list the unknown-resource 404.
  app.addHook('onRequest', async (request) => {
    await guards.department(request.user, NOTAS_DEPARTMENT);
  });
  // Before the body is validated: with WordPress as the source, every change gets the same clear answer.
  app.addHook('preValidation', async (request) => {
    if (fromWordpress && request.method !== 'GET') throw Conflict(notasAdminMessages.managedInWordpress);
  });
  // The hook above let only signed-in editors through.

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
      const { items, total } = await notas.listAdmin({ page, pageSize, status, q: q || undefined });
      return {
        source: 'local' as const,
        items,
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
      return notas.find(request.params.id);
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
      const nota = await notas.create({ title, html: contentHtml, publish }, actorOf(request));
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
      const nota = await notas.update(request.params.id, { title, html: contentHtml }, actorOf(request));
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
        const nota = await notas.setPublished(request.params.id, publish, actorOf(request));
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
      await notas.remove(request.params.id, actorOf(request));
      return { message: notasAdminMessages.deleted };
    },
  );
};
