import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { lastPurgeAt } from '#server/core/records/purge-hold';
import { menuFor } from '#server/platform/access/access.service';
import { createAccessCache, sendSerialized } from '#server/platform/cache/cache';
import { Forbidden, NotFound } from '#server/platform/http/errors';
import { actorOf, type SessionUser } from '#server/platform/session/identity';
import {
  clearSessionCookie,
  readSessionToken,
  requireUser,
  setSessionCookie,
} from '#server/platform/session/session.plugin';
import { readDeviceToken, setDeviceCookie } from '#server/platform/session/trusted-devices';
import { createSettingsRepository } from '#server/platform/settings/settings.repository';
import {
  type AuthProvider,
  authProviderSchema,
  changePasswordBodySchema,
  firebaseLoginBodySchema,
  loginBodySchema,
} from '#shared/features/auth/auth';
import { apiErrorSchema } from '#shared/platform/errors';
import {
  authMessages,
  logoutResponseSchema,
  type MenuEntry,
  type Session,
  sessionSchema,
} from '#shared/platform/session';
import { createSignInService } from './sign-in.service';

/** What a sign-in or a code check keeps of the request: its address and its browser. */
export const requestContext = (request: FastifyRequest) => ({
  ip: request.ip,
  userAgent: request.headers['user-agent'] ?? null,
});

const NO_MENU: readonly MenuEntry[] = Object.freeze([]);

/** The session as the browser sees it: who, which departments, where to go. */
export async function sessionView(app: FastifyInstance, user: SessionUser | null): Promise<Session> {
  const { menu, settings } = await sessionParts(app, user);
  return viewOf(seenUser(app, user), menu, settings.logoutRoute);
}

/** With Firebase, passwords are not ours: a one-time password flag left from local sign-in means nothing. */
const seenUser = (app: FastifyInstance, user: SessionUser | null): SessionUser | null =>
  user?.mustChangePassword && app.config.auth.provider !== 'local' ? { ...user, mustChangePassword: false } : user;

async function sessionParts(app: FastifyInstance, user: SessionUser | null) {
  const [menu, settings] = await Promise.all([
    user ? menuFor(app.db.kysely, user) : NO_MENU,
    createSettingsRepository(app.db.kysely).getAll(),
  ]);
  return { menu, settings };
}

function viewOf(user: SessionUser | null, menu: readonly MenuEntry[], logoutRoute: string): Session {
  const mustChangePassword = user?.mustChangePassword === true;
  const secondFactor = user?.secondFactor ?? null;
  // A one-time password opens nothing but the form to change it; an owed second factor, nothing but its form.
  const closed = mustChangePassword || secondFactor !== null;
  return {
    user: user
      ? { email: user.email, role: user.role, mustChangePassword, ...(secondFactor ? { secondFactor } : {}) }
      : null,
    menu: closed ? [] : [...menu],
    home: closed ? null : (menu[0]?.path ?? null),
    logoutRoute,
  };
}

export const authRoutes: FastifyPluginAsyncZod = async (app) => {
  const auth = createSignInService(app.db.kysely, app.config.now, {
    secondFactorByDefault: app.config.env === 'production',
  });
  const provider = app.config.auth;
  // The session check runs on every page load: its answer, serialised, is kept per user while nothing
  // about access changes (cache.ts).
  const sessionBodies = createAccessCache<string>(app.db.kysely);
  // One verifier per app: it holds the cached signing keys.
  // Loaded only with Firebase on: the JOSE library is not needed otherwise.
  const verifyFirebaseIdToken =
    provider.provider === 'firebase'
      ? (await import('./firebase-token')).createFirebaseTokenVerifier({
          ...provider,
          // The configuration already refuses the emulator in production; this holds even if it did not.
          emulatorTokens: provider.emulatorTokens && app.config.env !== 'production',
        })
      : undefined;
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
    const settings = await createSettingsRepository(app.db.kysely).getAll();
    return { redirectTo: settings.logoutRoute };
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
      return sessionView(app, changed);
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
      const user = seenUser(app, request.user);
      const { logoutRoute } = await createSettingsRepository(app.db.kysely).getAll();
      const purgedAt = user ? await lastPurgeAt(app.db.kysely) : null;
      const variant = `${user?.email ?? ''} ${user?.role ?? ''} ${user?.mustChangePassword === true} ${user?.secondFactor ?? ''} ${logoutRoute} ${purgedAt ?? ''}`;
      const body = await sessionBodies(variant, async () => {
        const menu = user ? await menuFor(app.db.kysely, user) : NO_MENU;
        const view = viewOf(user, menu, logoutRoute);
        return JSON.stringify(sessionSchema.parse(purgedAt ? { ...view, personalDataPurgedAt: purgedAt } : view));
      });
      return sendSerialized(reply, body);
    },
  );
};
