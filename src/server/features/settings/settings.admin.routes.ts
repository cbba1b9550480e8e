import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { actorOf } from '#server/platform/session/identity';
import { adminSettingsSchema } from '#shared/features/settings/settings';
import { apiErrorSchema } from '#shared/platform/errors';
import type { SettingsService } from './settings.service';

const errors = { 400: apiErrorSchema, 401: apiErrorSchema, 404: apiErrorSchema };

/**
 * The back office's settings: for admins (admin.routes.ts guards the prefix). Saving is the settings' use
 * case (settings.service.ts).
 */
export const adminSettingsRoutes: FastifyPluginAsyncZod<{ settings: SettingsService }> = async (app, { settings }) => {
  app.get(
    '/api/admin/settings',
    {
      schema: {
        tags: ['administración'],
        summary: 'Ajustes: campaña, líder, denominador de resultados, ruta de salida y tamaño máximo de foto',
        response: { 200: adminSettingsSchema, ...errors },
      },
    },
    async () => settings.read(),
  );

  app.put(
    '/api/admin/settings',
    {
      schema: {
        tags: ['administración'],
        summary: 'Guarda los ajustes; cada valor cambiado queda en el registro de auditoría',
        body: adminSettingsSchema,
        response: { 200: adminSettingsSchema, ...errors },
      },
    },
    async (request) => settings.save(request.body, actorOf(request)),
  );
};
