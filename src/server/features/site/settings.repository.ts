import type { Kysely } from 'kysely';
import { DEFAULT_RESULTS_DENOMINATOR, TIME_ZONE } from '../../../shared/constants';
import type { Database } from '../../db/schema';
import { DEFAULT_SETTINGS } from '../../db/seed/reference';

export interface Settings {
  campaignName: string;
  leaderName: string;
  resultsDenominator: number;
  timeZone: string;
  logoutRoute: string;
}

export function createSettingsRepository(db: Kysely<Database>) {
  return {
    async getAll(): Promise<Settings> {
      const rows = await db.selectFrom('settings').select(['key', 'value']).execute();
      const map = new Map(rows.map((r) => [r.key, r.value]));
      const get = (key: string) => map.get(key) ?? DEFAULT_SETTINGS[key] ?? '';
      const denominator = Number(get('results_denominator'));
      return {
        campaignName: get('campaign_name'),
        leaderName: get('leader_name'),
        resultsDenominator: Number.isFinite(denominator) && denominator > 0 ? denominator : DEFAULT_RESULTS_DENOMINATOR,
        timeZone: get('time_zone') || TIME_ZONE,
        logoutRoute: get('logout_route') || '/',
      };
    },

    async set(key: string, value: string, now: Date): Promise<void> {
      await db
        .insertInto('settings')
        .values({ key, value, updated_at: now.toISOString() })
        .onConflict((oc) => oc.column('key').doUpdateSet({ value, updated_at: now.toISOString() }))
        .execute();
    },
  };
}
export type SettingsRepository = ReturnType<typeof createSettingsRepository>;
