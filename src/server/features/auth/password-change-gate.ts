import type { FastifyInstance } from 'fastify';
import { Forbidden } from '#server/platform/http/errors';
import { authMessages } from '#shared/platform/session';

/** What a session opened with a one-time password may still ask: who am I, change it, leave. */
const OPEN_TO_ONE_TIME_PASSWORDS = new Set([
  'GET /api/auth/session',
  'GET /api/auth/provider',
  'POST /api/auth/password',
  'POST /api/auth/logout',
]);

/**
 * A person signed in with a one-time password an admin generated reaches no API but changing it
 * (decision 040): every other request answers 403 with the reason, whatever the route. Registered
 * right after the session plugin, so it runs before any route's own checks and before any body is read.
 * Local sign-in only: with Firebase, passwords are not ours and the flag is ignored.
 */
export function registerPasswordChangeGate(app: FastifyInstance): void {
  if (app.config.auth.provider !== 'local') return;
  app.addHook('onRequest', async (request) => {
    if (!request.user?.mustChangePassword) return;
    // The second factor comes first: its own gate lets through nothing but it (decision 080).
    if (request.user.secondFactor) return;
    const route = `${request.method} ${request.routeOptions.url ?? ''}`;
    if (OPEN_TO_ONE_TIME_PASSWORDS.has(route)) return;
    throw Forbidden(authMessages.passwordChangeRequired);
  });
}
