import type { FastifyInstance } from 'fastify';
import { Forbidden } from '#server/platform/http/errors';
import { secondFactorMessages } from '#shared/features/auth/second-factor';

/** What a session that still owes its second factor may ask: who am I, the second factor, leave. */
const OPEN_BEFORE_SECOND_FACTOR = new Set([
  'GET /api/auth/session',
  'GET /api/auth/provider',
  'POST /api/auth/logout',
  'GET /api/auth/second-factor',
  'POST /api/auth/second-factor/enrol',
  'POST /api/auth/second-factor/confirm',
  'POST /api/auth/second-factor/verify',
]);

/**
 * A session opened with a password (or Firebase) alone, by someone who has a second factor or must enrol
 * one, reaches no API but the second factor's (decision 080): every other request answers 403, whatever
 * the route, before the route's own checks and before any body is read. Both sign-in providers.
 */
export function registerSecondFactorGate(app: FastifyInstance): void {
  app.addHook('onRequest', async (request) => {
    const owed = request.user?.secondFactor;
    if (!owed) return;
    const route = `${request.method} ${request.routeOptions.url ?? ''}`;
    if (OPEN_BEFORE_SECOND_FACTOR.has(route)) return;
    throw Forbidden(owed === 'enrol' ? secondFactorMessages.enrolRequired : secondFactorMessages.required);
  });
}
