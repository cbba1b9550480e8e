import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { writeAudit } from '#server/platform/audit/audit.repository';
import { requireAdmin } from '#server/platform/session/session.plugin';
import { createSettingsRepository, parseMaxBytes } from '#server/platform/settings/settings.repository';
import { PHOTO_SEND_ORIGINALS_SETTING } from '#shared/features/records/photo-uploads';
import { PHOTO_MAX_BYTES_SETTING } from '#shared/features/records/photos';
import { type AdminSettings, adminSettingsSchema, PHOTO_MAX_MB_BOUNDS } from '#shared/features/settings/settings';
import { apiErrorSchema } from '#shared/platform/errors';

const errors = { 400: apiErrorSchema, 401: apiErrorSchema, 404: apiErrorSchema };
const MB = 1024 * 1024;

/** Each editable setting: its key in the settings table and how its value is stored. */
const KEYS: { [K in keyof AdminSettings]: { key: string; store: (v: AdminSettings[K]) => string } } = {
  campaignName: { key: 'campaign_name', store: (v) => v },
  leaderName: { key: 'leader_name', store: (v) => v },
  resultsDenominator: { key: 'results_denominator', store: (v) => String(v) },
  logoutRoute: { key: 'logout_route', store: (v) => v },
  photoMaxMb: { key: PHOTO_MAX_BYTES_SETTING, store: (v) => String(v * MB) },
  photoSendOriginals: { key: PHOTO_SEND_ORIGINALS_SETTING, store: (v) => (v ? '1' : '0') },
};

export const adminSettingsRoutes: FastifyPluginAsyncZod = async (app) => {
  const db = app.db.kysely;
  const settings = createSettingsRepository(db);

  async function current(): Promise<AdminSettings> {
    const [s, photoMaxBytes, sendOriginals] = await Promise.all([
      settings.readAll(),
      settings.get(PHOTO_MAX_BYTES_SETTING),
      settings.get(PHOTO_SEND_ORIGINALS_SETTING),
    ]);
    const mb = Math.round(parseMaxBytes(photoMaxBytes) / MB);
    return {
      campaignName: s.campaignName,
      leaderName: s.leaderName,
      resultsDenominator: s.resultsDenominator,
      logoutRoute: s.logoutRoute,
      photoMaxMb: Math.min(PHOTO_MAX_MB_BOUNDS.max, Math.max(PHOTO_MAX_MB_BOUNDS.min, mb)),
      photoSendOriginals: sendOriginals === '1',
    };
  }

  app.get(
    '/api/admin/settings',
    {
      schema: {
        tags: ['administración'],
        summary: 'Ajustes: campaña, líder, denominador de resultados, ruta de salida y tamaño máximo de foto',
        response: { 200: adminSettingsSchema, ...errors },
      },
    },
    async (request) => {
      requireAdmin(request);
      return current();
    },
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
    async (request) => {
      const admin = requireAdmin(request);
      const before = await current();
      const now = app.config.now();
      for (const field of Object.keys(KEYS) as (keyof AdminSettings)[]) {
        const value = request.body[field];
        if (value === before[field]) continue;
        const { key, store } = KEYS[field] as { key: string; store: (v: unknown) => string };
        // Through the settings repository: its cache forgets the old value at once.
        await settings.set(key, store(value), now);
        await writeAudit(db, {
          actorEmail: admin.email,
          action: 'setting.update',
          target: key,
          ip: request.ip,
          details: { from: before[field], to: value },
          at: now,
        });
      }
      return current();
    },
  );
};
