import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { sendSerialized } from '#server/platform/cache/cache';
import { siteInfoSchema } from '#shared/features/settings/settings';
import type { SiteInfoReader } from './site-info';

export const siteRoutes: FastifyPluginAsyncZod<{ siteInfo: SiteInfoReader }> = async (app, options) => {
  const readSiteInfo = options.siteInfo;

  app.get(
    '/api/site',
    {
      schema: {
        tags: ['sitio'],
        summary: 'Nombre de la campaña, líder y fecha de hoy para la portada',
        response: { 200: siteInfoSchema },
      },
    },
    async (_request, reply) => sendSerialized(reply, await readSiteInfo()),
  );
};
