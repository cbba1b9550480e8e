import type { FastifyReply, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { requireUser } from '#server/platform/access/guards';
import { sendSerialized } from '#server/platform/cache/cache';
import { Forbidden, NotFound } from '#server/platform/http/errors';
import { actorOf } from '#server/platform/session/identity';
import { clearSessionCookie, readSessionToken, setSessionCookie } from '#server/platform/session/session.plugin';
import { readDeviceToken, setDeviceCookie } from '#server/platform/session/trusted-devices';
import {
  type AuthProvider,
  authProviderSchema,
  changePasswordBodySchema,
  firebaseLoginBodySchema,
  loginBodySchema,
} from '#shared/features/auth/auth';
import { apiErrorSchema } from '#shared/platform/errors';
import { authMessages, logoutResponseSchema, sessionSchema } from '#shared/platform/session';
import type { FirebaseIdentity } from './firebase-identity';
import type { SessionViews } from './session-view';
import type { SignInService } from './sign-in.service';

/** What a sign-in or a code check keeps of the request: its address and its browser. */
export const requestContext = (request: FastifyRequest) => ({
  ip: request.ip,
  userAgent: request.headers['user-agent'] ?? null,
});

export interface AuthRoutesOptions {
  signIn: SignInService;
  sessionViews: SessionViews;
  /** Firebase's ID token verifier, with its cached signing keys; undefined unless Firebase signs in. */
  verifyFirebaseIdToken: ((idToken: string) => Promise<FirebaseIdentity>) | undefined;
}

export const authRoutes: FastifyPluginAsyncZod<AuthRoutesOptions> = async (app, options) => {
  const { signIn: auth, sessionViews, verifyFirebaseIdToken } = options;
  const provider = app.config.auth;
  const providerView: AuthProvider =
    provider.provider === 'firebase'
      ? {
          provider: 'firebase',
          apiKey: provider.apiKey,
          ...(provider.emulatorUrl ? { emulatorUrl: provider.emulatorUrl } : {}),
        }
      : { provider: 'local' };

  /** After a sign-out: the cookie goes, and the browser is told where to go (no cache keeps any API answer). */
  const signedOut = async (reply: FastifyReply) => {
    clearSessionCookie(reply);
    return { redirectTo: await sessionViews.logoutRoute() };
  };

  app.get(
    '/api/auth/provider',
    {
      schema: {
        tags: ['sesión'],
        summary: 'Quién comprueba las contraseñas: este servidor o Firebase Auth (con la clave web pública)',
        response: { 200: authProviderSchema },
      },
    },
    async () => providerView,
  );

  app.post(
    '/api/auth/login',
    {
      schema: {
        tags: ['sesión'],
        summary: 'Inicia sesión con correo y contraseña; entrega una cookie de sesión nueva',
        body: loginBodySchema,
        response: {
          200: sessionSchema,
          400: apiErrorSchema,
          401: apiErrorSchema,
          403: apiErrorSchema,
          429: apiErrorSchema,
        },
      },
    },
    async (request, reply) => {
      if (provider.provider !== 'local') throw Forbidden(authMessages.wrongProvider);
      const result = await auth.signIn(request.body, {
        ...requestContext(request),
        previousToken: readSessionToken(request),
        deviceToken: readDeviceToken(request),
      });
      setSessionCookie(reply, result.token, result.expiresAt);
      setDeviceCookie(reply, result.deviceToken);
      return sessionViews.view(result.user);
    },
  );

  app.post(
    '/api/auth/firebase',
    {
      schema: {
        tags: ['sesión'],
        summary: 'Inicia sesión con un ID token de Firebase Auth; entrega una cookie de sesión nueva',
        body: firebaseLoginBodySchema,
        response: {
          200: sessionSchema,
          400: apiErrorSchema,
          401: apiErrorSchema,
          404: apiErrorSchema,
          429: apiErrorSchema,
          503: apiErrorSchema,
        },
      },
    },
    async (request, reply) => {
      if (!verifyFirebaseIdToken) throw NotFound();
      const { idToken } = request.body;
      const result = await auth.signInWithFirebase(() => verifyFirebaseIdToken(idToken), {
        ...requestContext(request),
        previousToken: readSessionToken(request),
        log: request.log,
      });
      setSessionCookie(reply, result.token, result.expiresAt);
      return sessionViews.view(result.user);
    },
  );

  app.post(
    '/api/auth/logout',
    {
      schema: {
        tags: ['sesión'],
        summary: 'Cierra la sesión: la revoca en el servidor y borra la cookie',
        response: { 200: logoutResponseSchema },
      },
    },
    async (request, reply) => {
      await auth.signOut(readSessionToken(request), request.user, requestContext(request));
      return signedOut(reply);
    },
  );

  app.post(
    '/api/auth/logout-all',
    {
      schema: {
        tags: ['sesión'],
        summary:
          'Cierra la sesión en todos los dispositivos: termina todas las sesiones de quien la inició (esta también) y olvida sus navegadores conocidos',
        response: { 200: logoutResponseSchema, 401: apiErrorSchema },
      },
    },
    async (request, reply) => {
      const user = requireUser(request);
      await auth.endEverywhere(user, actorOf(request, user));
      return signedOut(reply);
    },
  );

  app.post(
    '/api/auth/password',
    {
      schema: {
        tags: ['sesión'],
        summary:
          'Cambia la contraseña de quien inició sesión (obligatorio tras una contraseña de un solo uso, que no se pide otra vez); cierra sus otras sesiones y olvida sus otros navegadores conocidos',
        body: changePasswordBodySchema,
        response: {
          200: sessionSchema,
          400: apiErrorSchema,
          401: apiErrorSchema,
          404: apiErrorSchema,
          429: apiErrorSchema,
        },
      },
    },
    async (request) => {
      // With Firebase, passwords live there: this server has none to change.
      if (provider.provider !== 'local') throw NotFound();
      const user = requireUser(request);
      const changed = await auth.changePassword(user, request.body, {
        ...requestContext(request),
        token: readSessionToken(request),
        deviceToken: readDeviceToken(request),
      });
      return sessionViews.view(changed);
    },
  );

  app.get(
    '/api/auth/session',
    {
      schema: {
        tags: ['sesión'],
        summary: 'Quién ha iniciado sesión (o nadie) y qué departamentos puede abrir',
        response: { 200: sessionSchema },
      },
    },
    async (request, reply) => sendSerialized(reply, await sessionViews.current(request.user)),
  );
};
