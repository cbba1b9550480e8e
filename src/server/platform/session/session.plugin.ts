import cookie from '@fastify/cookie';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { hostCookieName, isHttps } from './cookie-tokens';
import type { SessionUser } from './identity';
import { getDummyHash } from './passwords';
import { createSessionService, SESSION_ABSOLUTE_MS } from './session.service';

/**
 * The signed-in person as every route sees it: `request.user` is set (or null) before any handler runs.
 * The guards that read it (requireUser, requireAdmin) live in platform/access/guards.ts.
 */
declare module 'fastify' {
  interface FastifyRequest {
    user: SessionUser | null;
  }
}

const PRUNE_EVERY_MS = 10 * 60 * 1000;

/** The session cookie's name (`__Host-` prefixed over HTTPS). */
export const sessionCookieName = (app: FastifyInstance): string => hostCookieName(app, 'comando_sesion');

export function readSessionToken(request: FastifyRequest): string | undefined {
  return request.cookies[sessionCookieName(request.server)];
}

export function setSessionCookie(reply: FastifyReply, token: string, expiresAt: Date): void {
  const app = reply.server;
  reply.setCookie(sessionCookieName(app), token, {
    path: '/',
    httpOnly: true,
    sameSite: 'lax',
    secure: isHttps(app),
    expires: expiresAt,
    maxAge: Math.floor(SESSION_ABSOLUTE_MS / 1000),
  });
}

/**
 * What a sign-out asks the browser to forget: its HTTP cache for this site. Not "storage" (the outbox of
 * unsent votes and photos lives in IndexedDB, the app's offline files in the service worker's cache) and
 * not "cookies" (the device cookie that keeps sign-in limits off a known browser): docs/decisions/061.
 */
export const SIGN_OUT_CLEAR_SITE_DATA = '"cache"';

/** Ends the session in the browser: the cookie goes, and so does anything the HTTP cache kept. */
export function clearSessionCookie(reply: FastifyReply): void {
  const app = reply.server;
  reply.clearCookie(sessionCookieName(app), { path: '/', httpOnly: true, sameSite: 'lax', secure: isHttps(app) });
  reply.header('clear-site-data', SIGN_OUT_CLEAR_SITE_DATA);
}

/**
 * Reads the session cookie of every API request and sets `request.user` (or null). The session lives
 * in the database, so every instance sharing it agrees; nothing is cached in memory.
 */
export async function registerAuth(app: FastifyInstance): Promise<void> {
  await app.register(cookie);
  app.decorateRequest('user', null);
  const auth = createSessionService(app.db.kysely, app.config.now);
  await getDummyHash();

  app.addHook('onRequest', async (request) => {
    request.user = null;
    // Static files and the SPA's HTML never look at the user: only the API pays for the lookup.
    if (!request.url.startsWith('/api/')) return;
    const token = readSessionToken(request);
    if (token) request.user = await auth.authenticate(token);
  });

  // Housekeeping: dead sessions and old throttle counters go away. Harmless if several instances do it.
  const timer = setInterval(() => {
    auth.prune().catch((error: unknown) => app.log.warn({ err: error }, 'session pruning failed'));
  }, PRUNE_EVERY_MS);
  timer.unref();
  app.addHook('onClose', async () => clearInterval(timer));
}

const tokenChecks = new WeakMap<FastifyInstance['db']['kysely'], ReturnType<typeof createSessionService>>();

/**
 * Who a session token stands for now, or null once the session ended or its person was disabled or
 * removed: for answers that outlive their request (event streams), which must stop when access does.
 */
export function sessionUserNow(app: FastifyInstance, token: string | undefined): Promise<SessionUser | null> {
  let auth = tokenChecks.get(app.db.kysely);
  if (!auth) {
    auth = createSessionService(app.db.kysely, app.config.now);
    tokenChecks.set(app.db.kysely, auth);
  }
  return auth.authenticate(token);
}
