import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { dateInTimeZone } from '../../../shared/format';
import { siteInfoSchema } from '../../../shared/site';
import { createSettingsRepository } from './settings.repository';

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
