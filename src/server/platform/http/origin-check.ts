import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Config } from '#server/platform/config/config';
import { messages } from '#shared/platform/messages';
import { Forbidden } from './errors';

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

function ownOrigin(request: FastifyRequest, config: Config): string {
  if (config.publicOrigin) return config.publicOrigin;
  return `${request.protocol}://${request.host}`;
}

/**
 * State-changing API requests must come from the app's own pages: the browser's Origin header (or,
 * where a browser omits it, Sec-Fetch-Site) has to say so. Cookies alone never authorise a change.
 */
export function registerOriginCheck(app: FastifyInstance, config: Config): void {
  app.addHook('onRequest', async (request) => {
    if (SAFE_METHODS.has(request.method) || !request.url.startsWith('/api/')) return;
    const origin = request.headers.origin;
    if (origin) {
      if (origin === ownOrigin(request, config)) return;
    } else if (request.headers['sec-fetch-site'] === 'same-origin') {
      return;
    }
    request.log.warn({ origin, host: request.host }, 'cross-origin state change refused');
    throw Forbidden(messages.api.forbiddenOrigin);
  });
}
