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

const NO_STORE = 'no-store';

/** An API answer that may name people (lists, photos, votes, accounts, the session): nothing keeps it. */
const isPersonal = (request: FastifyRequest) =>
  request.url.startsWith('/api/') && request.routeOptions.config?.publicAnswer !== true;

/**
 * One rule for every API answer, by route kind rather than route by route: unless a route says its
 * answers are public, the browser's HTTP cache (and any proxy) must not keep them, so a shared phone
 * holds nothing of the last person once they are gone (docs/decisions/061). Set on the raw response as
 * the request arrives, it goes out with every answer: Fastify's replies, errors included, and those
 * written outside them (resumable uploads, event streams). No route sets its own.
 */
export function registerPrivateAnswers(app: FastifyInstance): void {
  // Runs on every request: a plain callback costs less than an async hook.
  app.addHook('onRequest', (request, reply, done) => {
    if (isPersonal(request)) reply.raw.setHeader('cache-control', NO_STORE);
    done();
  });
}
