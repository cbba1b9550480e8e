import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  type AuthProvider,
  authMessages,
  authProviderSchema,
  firebaseLoginBodySchema,
  loginBodySchema,
  logoutResponseSchema,
  type Session,
  sessionSchema,
} from '#shared/features/auth/auth';
import { apiErrorSchema } from '#shared/platform/errors';
import { createSerializedCache, sendSerialized } from '#server/platform/cache/serialized-cache';
import {
  clearSessionCookie,
  readSessionToken,
  type SessionUser,
  setSessionCookie,
} from '#server/platform/session/session.plugin';
import { Forbidden, NotFound } from '#server/platform/http/errors';
import { type MenuEntry, menuFor } from '#server/platform/access/access.service';
import { createSettingsRepository } from '#server/platform/settings/settings.repository';
import { createAuthService } from '#server/platform/session/session.service';

const requestContext = (request: FastifyRequest) => ({
  ip: request.ip,
  userAgent: request.headers['user-agent'] ?? null,
});

const NO_MENU: readonly MenuEntry[] = Object.freeze([]);

/** The session as the browser sees it: who, which departments, where to go. */
export async function sessionView(app: FastifyInstance, user: SessionUser | null): Promise<Session> {
  const { menu, settings } = await sessionParts(app, user);
  return viewOf(user, menu, settings.logoutRoute);
}

async function sessionParts(app: FastifyInstance, user: SessionUser | null) {
  const [menu, settings] = await Promise.all([
    user ? menuFor(app.db.kysely, user) : NO_MENU,
    createSettingsRepository(app.db.kysely).getAll(),
  ]);
  return { menu, settings };
}

function viewOf(user: SessionUser | null, menu: readonly MenuEntry[], logoutRoute: string): Session {
  return {
    user: user ? { email: user.email, role: user.role } : null,
    menu: [...menu],
    home: menu[0]?.path ?? null,
    logoutRoute,
  };
}

// The session check runs on every page load: its answer is serialised once per menu (the same array
// while nothing about access changes, see menuFor) and sent as a string.
const sessionBodies = createSerializedCache<readonly MenuEntry[], typeof sessionSchema>(sessionSchema);

export const authRoutes: FastifyPluginAsyncZod = async (app) => {
  const auth = createAuthService(app.db.kysely, app.config.now);
  const provider = app.config.auth;
  // One verifier per app: it holds the cached signing keys.
  // Loaded only with Firebase on: the JOSE library is not needed otherwise.
  const verifyFirebaseIdToken =
    provider.provider === 'firebase'
      ? (await import('./firebase-token')).createFirebaseTokenVerifier(provider)
      : undefined;
  const providerView: AuthProvider =
    provider.provider === 'firebase'
      ? {
          provider: 'firebase',
          apiKey: provider.apiKey,
          ...(provider.emulatorUrl ? { emulatorUrl: provider.emulatorUrl } : {}),
        }
      : { provider: 'local' };

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
      });
      setSessionCookie(reply, result.token, result.expiresAt);
      reply.header('cache-control', 'no-store');
      return sessionView(app, result.user);
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
      reply.header('cache-control', 'no-store');
      return sessionView(app, result.user);
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
      clearSessionCookie(reply);
      reply.header('cache-control', 'no-store');
      const settings = await createSettingsRepository(app.db.kysely).getAll();
      return { redirectTo: settings.logoutRoute };
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
    async (request, reply) => {
      reply.header('cache-control', 'no-store');
      const user = request.user;
      const { menu, settings } = await sessionParts(app, user);
      const variant = `${user?.email ?? ''} ${user?.role ?? ''} ${settings.logoutRoute}`;
      return sendSerialized(
        reply,
        sessionBodies(menu, variant, () => viewOf(user, menu, settings.logoutRoute)),
      );
    },
  );
};
