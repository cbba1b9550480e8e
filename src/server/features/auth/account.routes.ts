import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { requireUser } from '#server/platform/access/guards';
import { actorOf } from '#server/platform/session/identity';
import { clearSessionCookie, readSessionToken } from '#server/platform/session/session.plugin';
import { openSessionsSchema, sessionEndedSchema, sessionIdParamsSchema } from '#shared/features/auth/auth';
import {
  recoveryCodesSchema,
  secondFactorCodeBodySchema,
  secondFactorEnrolmentSchema,
  secondFactorStatusSchema,
} from '#shared/features/auth/second-factor';
import { apiErrorSchema } from '#shared/platform/errors';
import { sessionSchema } from '#shared/platform/session';
import { requestContext } from './auth.routes';
import type { OpenSessionsService } from './open-sessions.service';
import type { SecondFactorService } from './second-factor.service';
import type { SessionViews } from './session-view';

export interface AccountRoutesOptions {
  openSessions: OpenSessionsService;
  secondFactor: SecondFactorService;
  sessionViews: SessionViews;
}

/** Tu cuenta: the signed-in person's open sessions and their second factor (set up, confirmed, checked). */
export const accountRoutes: FastifyPluginAsyncZod<AccountRoutesOptions> = async (app, options) => {
  const { openSessions, secondFactor, sessionViews } = options;

  app.get(
    '/api/auth/sessions',
    {
      schema: {
        tags: ['sesión'],
        summary: 'Las sesiones abiertas de quien inició sesión: dispositivo, IP y su lugar, último uso',
        response: { 200: openSessionsSchema, 401: apiErrorSchema },
      },
    },
    async (request) => openSessions.list(requireUser(request), readSessionToken(request)),
  );

  app.delete(
    '/api/auth/sessions/:id',
    {
      schema: {
        tags: ['sesión'],
        summary: 'Cierra una de las sesiones abiertas de quien inició sesión (también esta, si la elige)',
        params: sessionIdParamsSchema,
        response: { 200: sessionEndedSchema, 401: apiErrorSchema, 404: apiErrorSchema },
      },
    },
    async (request, reply) => {
      const user = requireUser(request);
      const current = await openSessions.end(
        user,
        request.params.id,
        readSessionToken(request),
        actorOf(request, user),
      );
      if (current) clearSessionCookie(reply);
      return { ended: true as const, current };
    },
  );

  // 503: the server's key cannot open the stored secret (decision 086).
  const codeErrors = {
    400: apiErrorSchema,
    401: apiErrorSchema,
    409: apiErrorSchema,
    429: apiErrorSchema,
    503: apiErrorSchema,
  };

  app.get(
    '/api/auth/second-factor',
    {
      schema: {
        tags: ['sesión'],
        summary: 'Si quien inició sesión tiene segundo factor y cuántos códigos de recuperación le quedan',
        response: { 200: secondFactorStatusSchema, 401: apiErrorSchema },
      },
    },
    async (request) => secondFactor.status(requireUser(request)),
  );

  app.post(
    '/api/auth/second-factor/enrol',
    {
      schema: {
        tags: ['sesión'],
        summary: 'Un secreto TOTP nuevo, con su código QR, que se confirma con un código de la aplicación',
        response: { 200: secondFactorEnrolmentSchema, 401: apiErrorSchema, 409: apiErrorSchema },
      },
    },
    async (request) => secondFactor.enrol(requireUser(request)),
  );

  app.post(
    '/api/auth/second-factor/confirm',
    {
      schema: {
        tags: ['sesión'],
        summary: 'Confirma el segundo factor con un código; responde diez códigos de recuperación, una sola vez',
        body: secondFactorCodeBodySchema,
        response: { 200: recoveryCodesSchema, ...codeErrors },
      },
    },
    async (request) =>
      secondFactor.confirm(requireUser(request), request.body.code, {
        ...requestContext(request),
        token: readSessionToken(request),
      }),
  );

  app.post(
    '/api/auth/second-factor/verify',
    {
      schema: {
        tags: ['sesión'],
        summary: 'Tras la contraseña: un código de la aplicación o un código de recuperación (que se gasta)',
        body: secondFactorCodeBodySchema,
        response: { 200: sessionSchema, ...codeErrors },
      },
    },
    async (request) => {
      const user = await secondFactor.verify(requireUser(request), request.body.code, {
        ...requestContext(request),
        token: readSessionToken(request),
      });
      return sessionViews.view(user);
    },
  );
};
