import fs from 'node:fs';
import path from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance } from 'fastify';
import { apiNotFoundBody } from './errors';

/**
 * Serves the built SPA. Hashed assets are cached for a year; index.html never is. Any path that is not
 * an API path or a file falls back to index.html so client routes (and the not-found screen) work.
 */
export async function registerSpa(app: FastifyInstance, webRoot: string | undefined): Promise<void> {
  const indexFile = webRoot ? path.join(webRoot, 'index.html') : undefined;
  const hasBuild = indexFile !== undefined && fs.existsSync(indexFile);
  if (hasBuild && webRoot) {
    await app.register(fastifyStatic, {
      root: webRoot,
      wildcard: false,
      index: false,
      cacheControl: false,
      setHeaders(res, filePath) {
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
    // A missing hashed asset must not turn into HTML (the browser would try to run it).
    if (request.url.startsWith('/assets/')) {
      return reply.code(404).type('text/plain; charset=utf-8').send('No encontrado');
    }
    reply.header('cache-control', 'no-cache');
    return reply.sendFile('index.html');
  });
}
