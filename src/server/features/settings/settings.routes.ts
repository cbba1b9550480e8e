import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { createSettingsRepository } from '#server/platform/settings/settings.repository';
import { siteInfoSchema } from '#shared/features/settings/settings';
import { dateInTimeZone } from '#shared/platform/format';

export const siteRoutes: FastifyPluginAsyncZod = async (app) => {
  const settings = createSettingsRepository(app.db.kysely);

  app.get(
    '/api/site',
    {
      schema: {
        tags: ['sitio'],
        summary: 'Nombre de la campaña, líder y fecha de hoy para la portada',
        response: { 200: siteInfoSchema },
      },
    },
    async () => {
      const s = await settings.getAll();
      return {
        campaignName: s.campaignName,
        leaderName: s.leaderName,
        today: dateInTimeZone(app.config.now(), s.timeZone),
      };
    },
  );
};
