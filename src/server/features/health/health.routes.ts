import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { Unavailable } from '#server/platform/http/errors';
import { healthSchema, readySchema } from '#shared/features/health/health';
import { messages } from '#shared/platform/messages';

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
        summary: 'La base de datos responde y puede escribir',
        response: { 200: readySchema },
      },
    },
    async (request) => {
      try {
        await app.db.ping();
      } catch (error) {
        request.log.error({ err: error }, 'database ping failed');
        throw Unavailable(messages.api.notReady);
      }
      // Answering is not enough: a full disk lets every read through and fails every write.
      try {
        await app.db.probeWrite();
      } catch (error) {
        request.log.error({ err: error }, 'database cannot write');
        throw Unavailable(messages.api.cannotWrite);
      }
      return { status: 'ok' as const, database: app.db.dialect };
    },
  );
};
