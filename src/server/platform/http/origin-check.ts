import type { AddressInfo } from 'node:net';
import type { FastifyInstance } from 'fastify';
import type { Config } from '#server/platform/config/config';
import { messages } from '#shared/platform/messages';
import { Forbidden } from './errors';

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * Changes that no browser sends and no cookie authorises: a gateway's webhook, signed with its own key
 * (the route ignores the session and refuses what its signature does not cover).
 */
const SIGNED_PATHS = new Set(['/api/sms/webhook']);

/** Vite's dev server (`npm run dev`), which proxies /api here: its pages are ours too in development. */
const VITE_DEV_ORIGINS = ['http://localhost:5173', 'http://127.0.0.1:5173'];

/**
 * The origins our own pages are served from. Never derived from the request's Host header: a page
 * on any name that resolves to this server (DNS rebinding) would otherwise pass as "ours".
 * PUBLIC_ORIGIN when set (production requires it); otherwise, in development and tests, the address
 * the server listens on, by loopback name and number.
 */
export function ownOrigins(app: FastifyInstance, config: Config): Set<string> {
  if (config.publicOrigin) return new Set([config.publicOrigin]);
  const origins = new Set<string>(config.env === 'development' ? VITE_DEV_ORIGINS : []);
  const address = app.server.address() as AddressInfo | string | null;
  if (address && typeof address === 'object') {
    const { port } = address;
    const wildcard = address.address === '0.0.0.0' || address.address === '::';
    const hosts = wildcard ? ['localhost', '127.0.0.1', '::1'] : ['localhost', address.address];
    for (const host of hosts) origins.add(`http://${host.includes(':') ? `[${host}]` : host}:${port}`);
  }
  return origins;
}

/**
 * State-changing API requests must come from the app's own pages: the browser's Origin header (or,
 * where a browser omits it, Sec-Fetch-Site) has to say so. Cookies alone never authorise a change.
 */
export function registerOriginCheck(app: FastifyInstance, config: Config): void {
  let origins: Set<string> | undefined;
  app.addHook('onRequest', async (request) => {
    if (SAFE_METHODS.has(request.method) || !request.url.startsWith('/api/')) return;
    if (SIGNED_PATHS.has(request.url.split('?')[0] as string)) return;
    const origin = request.headers.origin;
    if (origin) {
      // Known once the server listens; the address does not change after that.
      origins ??= app.server.listening || config.publicOrigin ? ownOrigins(app, config) : undefined;
      if ((origins ?? ownOrigins(app, config)).has(origin)) return;
    } else if (request.headers['sec-fetch-site'] === 'same-origin') {
      return;
    }
    request.log.warn(
      { origin, host: request.host },
      config.publicOrigin
        ? 'cross-origin state change refused'
        : 'cross-origin state change refused (set PUBLIC_ORIGIN to the address people open the app at)',
    );
    throw Forbidden(messages.api.forbiddenOrigin);
  });
}
