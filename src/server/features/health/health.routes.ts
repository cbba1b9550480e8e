import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { ServiceUnavailable } from '#server/platform/http/errors';
import { healthSchema, readySchema } from '#shared/features/health/health';

export const healthRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/api/health',
    { schema: { tags: ['sistema'], summary: 'El proceso está vivo', response: { 200: healthSchema } } },
    async () => ({ status: 'ok' as const }),
  );

  app.get(
    '/api/ready',
    {
      schema: {
        tags: ['sistema'],
        summary: 'La base de datos responde',
        response: { 200: readySchema },
      },
    },
    async (request) => {
      try {
        await app.db.ping();
      } catch (error) {
        request.log.error({ err: error }, 'database ping failed');
        throw ServiceUnavailable('La base de datos no responde.');
      }
      return { status: 'ok' as const, database: app.db.dialect };
    },
  );
};
