import type { FastifyInstance, FastifyRequest } from 'fastify';

declare module 'fastify' {
  interface FastifyContextConfig {
    /**
     * The route's answers are the same for everyone and hold nothing about a person (candidate photos):
     * they keep their own Cache-Control. Every other API answer is `no-store`.
     */
    publicAnswer?: boolean;
  }
}

export const NO_STORE = 'no-store';

/** An API answer that may name people (lists, photos, votes, accounts, the session): nothing keeps it. */
const isPersonal = (request: FastifyRequest) =>
  request.url.startsWith('/api/') && request.routeOptions.config?.publicAnswer !== true;

/**
 * One rule for every API answer, by route kind rather than route by route: unless a route says its
 * answers are public, the browser's HTTP cache (and any proxy) must not keep them, so a shared phone
 * holds nothing of the last person once they are gone (docs/decisions/061). Set on the raw response at
 * the start too, for answers written outside Fastify's reply (resumable uploads, event streams).
 */
export function registerPrivateAnswers(app: FastifyInstance): void {
  // Both run on every request: plain callbacks cost less than async hooks.
  app.addHook('onRequest', (request, reply, done) => {
    if (isPersonal(request)) reply.raw.setHeader('cache-control', NO_STORE);
    done();
  });
  app.addHook('onSend', (request, reply, payload, done) => {
    if (isPersonal(request)) reply.header('cache-control', NO_STORE);
    done(null, payload);
  });
}
