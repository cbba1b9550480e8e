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
        summary: 'La base de datos responde y puede escribir, y la carpeta de datos tiene espacio',
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
      // Nor is a database that writes: on PostgreSQL the data folder is another disk, and on SQLite a
      // write into free pages of the file still succeeds while new rows (a vote) and photos fail.
      const disk = await app.dataDisk.problem();
      if (disk) {
        request.log.warn({ reason: disk }, 'data folder cannot take writes');
        throw Unavailable(messages.api.dataDirFull);
      }
      return { status: 'ok' as const, database: app.db.dialect };
    },
  );
};
