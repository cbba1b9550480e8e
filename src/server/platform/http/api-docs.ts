import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import type { FastifyInstance } from 'fastify';
import { jsonSchemaTransform } from 'fastify-type-provider-zod';
import { requireAdmin } from '#server/platform/access/guards';
import type { Config } from '#server/platform/config/config';

const isReference = (url: string) => url === '/api/openapi.json' || url === '/api/docs' || url.startsWith('/api/docs/');

/**
 * The API reference: an OpenAPI document of every route (/api/openapi.json) and its reading page
 * (/api/docs). It lists every admin operation, so in production only signed-in admins get it unless
 * API_DOCS=public opens it (config.apiDocs). Register after the session plugin: it needs request.user.
 */
export async function registerApiDocs(app: FastifyInstance, config: Config): Promise<void> {
  if (config.apiDocs === 'admins') {
    app.addHook('onRequest', async (request) => {
      // A visitor gets 401, anyone else who is not an admin the 404 of an unknown path.
      if (isReference(request.url.split('?', 1)[0] ?? '')) requireAdmin(request);
    });
  }
  await app.register(swagger, {
    openapi: {
      info: { title: 'Comando API', description: 'API de Comando', version: '1.0.0' },
    },
    transform: jsonSchemaTransform,
  });
  await app.register(swaggerUi, { routePrefix: '/api/docs', staticCSP: true });
  app.get('/api/openapi.json', { schema: { hide: true } }, async () => app.swagger());
}
