import fs from 'node:fs';
import path from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance } from 'fastify';
import { apiNotFoundBody } from './errors';

/**
 * For crawlers: the public pages (home, agenda, notas, login) may be indexed; the API and the staff
 * pages, which only answer signed-in people, are not worth a crawler's visit.
 */
export const ROBOTS_TXT = [
  'User-agent: *',
  'Disallow: /api/',
  'Disallow: /validation/',
  'Disallow: /admin',
  'Disallow: /resultados',
  'Allow: /',
  '',
].join('\n');

/** A path whose last segment has an extension (`/favicon.ico`, `/x/y.png`): a file, never a page of the app. */
const looksLikeFile = (url: string) => /\/[^/?#]*\.[a-z0-9]{1,12}$/i.test(url.split(/[?#]/, 1)[0] ?? '');

/**
 * Serves the built SPA (with public/favicon.ico among its files). Hashed assets are cached for a year;
 * index.html never is. Any path that is not an API path or a file falls back to index.html so client
 * routes (and the not-found screen) work; a missing file is a plain 404.
 */
export async function registerSpa(app: FastifyInstance, webRoot: string | undefined): Promise<void> {
  const indexFile = webRoot ? path.join(webRoot, 'index.html') : undefined;
  const hasBuild = indexFile !== undefined && fs.existsSync(indexFile);
  // Answered by the server itself, built or not: never the SPA's HTML.
  app.get('/robots.txt', { schema: { hide: true } }, async (_request, reply) =>
    reply.type('text/plain; charset=utf-8').header('cache-control', 'public, max-age=3600').send(ROBOTS_TXT),
  );
  if (hasBuild && webRoot) {
    await app.register(fastifyStatic, {
      root: webRoot,
      wildcard: false,
      index: false,
      // The build writes a Brotli and a gzip copy of each text file (scripts/compress-build.mjs): sent as
      // they are to a browser that takes them, not compressed again on every request.
      preCompressed: true,
      cacheControl: false,
      setHeaders(res, filePath) {
        // Which copy was sent depends on what the browser accepts: a cache in between must know it.
        res.setHeader('vary', 'accept-encoding');
        if (filePath.includes(`${path.sep}assets${path.sep}`)) {
          res.setHeader('cache-control', 'public, max-age=31536000, immutable');
        } else {
          res.setHeader('cache-control', 'no-cache');
        }
      },
    });
  }

  app.setNotFoundHandler((request, reply) => {
    if (request.url === '/api' || request.url.startsWith('/api/') || request.url.startsWith('/api?')) {
      return reply.code(404).send(apiNotFoundBody());
    }
    if (request.method !== 'GET' && request.method !== 'HEAD') {
      return reply.code(404).send(apiNotFoundBody());
    }
    if (!hasBuild) {
      return reply
        .code(503)
        .type('text/plain; charset=utf-8')
        .send('La interfaz web no está compilada. Ejecuta "npm run build" y vuelve a iniciar el servidor.');
    }
    // A missing file must not turn into HTML: a hashed asset (the browser would try to run it), an icon
    // (/favicon.ico, /apple-touch-icon.png asked for by address). The app's routes have no extension.
    if (request.url.startsWith('/assets/') || looksLikeFile(request.url)) {
      return reply.code(404).type('text/plain; charset=utf-8').send('No encontrado');
    }
    reply.header('cache-control', 'no-cache');
    return reply.sendFile('index.html');
  });
}
