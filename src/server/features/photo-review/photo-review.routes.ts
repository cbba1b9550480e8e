import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { requireAdmin, requireUser } from '#server/platform/access/guards';
import { actorOf } from '#server/platform/session/identity';
import {
  okSchema,
  photoReviewMessages,
  reviewGrantInputSchema,
  reviewGrantsSchema,
  reviewInputSchema,
  reviewQueueQuerySchema,
  reviewQueueSchema,
  reviewRecordParamsSchema,
  reviewResultSchema,
} from '#shared/features/photo-review/photo-review';
import { apiErrorSchema } from '#shared/platform/errors';
import type { PhotoReviewService } from './photo-review.service';

/** Photo review (decision 134): the queue, a record's review, and the reviewers an admin names. */
export const photoReviewRoutes: FastifyPluginAsyncZod<{ photoReview: PhotoReviewService }> = async (
  app,
  { photoReview },
) => {
  app.get(
    '/api/photo-review/queue',
    {
      schema: {
        tags: ['revisión'],
        summary: 'Trámites validados con fotos por revisar, el voto más antiguo primero (admins y revisores)',
        querystring: reviewQueueQuerySchema,
        response: { 200: reviewQueueSchema, 400: apiErrorSchema, 401: apiErrorSchema, 404: apiErrorSchema },
      },
    },
    async (request) => photoReview.queue(requireUser(request), request.query),
  );

  app.post(
    '/api/photo-review/records/:id',
    {
      schema: {
        tags: ['revisión'],
        summary:
          "Revisa las fotos de un trámite: 'Conforme', 'Ilegible' o 'No corresponde' (estas dos piden otra foto)",
        params: reviewRecordParamsSchema,
        body: reviewInputSchema,
        response: {
          200: reviewResultSchema,
          400: apiErrorSchema,
          401: apiErrorSchema,
          403: apiErrorSchema,
          404: apiErrorSchema,
          409: apiErrorSchema,
        },
      },
    },
    async (request) => photoReview.review(requireUser(request), request.params.id, request.body, request.ip),
  );

  app.get(
    '/api/photo-review/grants',
    {
      schema: {
        tags: ['revisión'],
        summary: 'Administración: los revisores y sus municipios',
        response: { 200: reviewGrantsSchema, 401: apiErrorSchema, 404: apiErrorSchema },
      },
    },
    async (request) => {
      requireAdmin(request);
      return photoReview.grants();
    },
  );

  app.post(
    '/api/photo-review/grants',
    {
      schema: {
        tags: ['revisión'],
        summary: 'Administración: nombra a alguien revisor de un municipio',
        body: reviewGrantInputSchema,
        response: { 200: okSchema, 400: apiErrorSchema, 401: apiErrorSchema, 404: apiErrorSchema },
      },
    },
    async (request) => {
      const admin = requireAdmin(request);
      await photoReview.grant(request.body, actorOf(request, admin));
      return { message: photoReviewMessages.grantAdded };
    },
  );

  app.delete(
    '/api/photo-review/grants',
    {
      schema: {
        tags: ['revisión'],
        summary: 'Administración: quita a un revisor un municipio',
        body: reviewGrantInputSchema,
        response: { 200: okSchema, 400: apiErrorSchema, 401: apiErrorSchema, 404: apiErrorSchema },
      },
    },
    async (request) => {
      const admin = requireAdmin(request);
      await photoReview.revoke(request.body, actorOf(request, admin));
      return { message: photoReviewMessages.grantRemoved };
    },
  );
};
