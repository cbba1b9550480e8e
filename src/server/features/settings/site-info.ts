import type { Kysely } from 'kysely';
import type { Database } from '#server/platform/db/schema';
import { createSettingsRepository } from '#server/platform/settings/settings.repository';
import { siteInfoSchema } from '#shared/features/settings/settings';
import { dateInTimeZone } from '#shared/platform/format';

/**
 * The campaign's name, the leader and today's date in the campaign's time zone, serialised: the body of
 * GET /api/site. As fresh as the settings' short cache: a change made through this process shows at once.
 */
export function createSiteInfoReader(db: Kysely<Database>, now: () => Date) {
  const settings = createSettingsRepository(db);
  return async (): Promise<string> => {
    const s = await settings.getAll();
    const today = dateInTimeZone(now(), s.timeZone);
    return JSON.stringify(siteInfoSchema.parse({ campaignName: s.campaignName, leaderName: s.leaderName, today }));
  };
}
export type SiteInfoReader = ReturnType<typeof createSiteInfoReader>;
