import type { Kysely } from 'kysely';
import { timedAnswers } from '#server/platform/cache/cache';
import type { Database } from '#server/platform/db/schema';
import { DEFAULT_SETTINGS } from '#server/platform/db/seed/reference';
import { DEFAULT_PHOTO_MAX_BYTES } from '#shared/features/photos/photos';
import { DEFAULT_RESULTS_DENOMINATOR, TIME_ZONE } from '#shared/platform/constants';

export interface Settings {
  campaignName: string;
  leaderName: string;
  resultsDenominator: number;
  timeZone: string;
  logoutRoute: string;
}

// Settings are read on hot public paths and change rarely. Each process keeps them for a moment
// (cache.ts); a change made here is seen at once, one made by another instance within two seconds.
// A change of the settings names them to the change helper, which forgets them after its commit.
export const settingsAnswers = timedAnswers<Settings>({ ttlMs: 2_000, maxEntries: 1 });

/** The upload limit in bytes: the `photo_max_bytes` setting, or 20 MB. */
export function parseMaxBytes(value: string | undefined): number {
  const n = Number(value);
  return Number.isInteger(n) && n > 0 ? n : DEFAULT_PHOTO_MAX_BYTES;
}

export function createSettingsRepository(db: Kysely<Database>) {
  return {
    /** One setting as stored (those Settings does not hold, such as the photo size limit). */
    async get(key: string): Promise<string | undefined> {
      const row = await db.selectFrom('settings').select('value').where('key', '=', key).executeTakeFirst();
      return row?.value;
    },

    getAll(): Promise<Settings> {
      return settingsAnswers(db).get('', () => this.readAll());
    },

    async readAll(): Promise<Settings> {
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

    /**
     * Stores one setting, inside a change that names `settingsAnswers` to forget (the settings' use
     * cases): the change helper forgets the kept settings once it has committed, and only then.
     */
    async set(key: string, value: string, now: Date): Promise<void> {
      await db
        .insertInto('settings')
        .values({ key, value, updated_at: now.toISOString() })
        .onConflict((oc) => oc.column('key').doUpdateSet({ value, updated_at: now.toISOString() }))
        .execute();
    },

    /** Stores one setting unless it is there already (housekeeping at start, never a person's change). */
    async addIfAbsent(key: string, value: string, now: Date): Promise<void> {
      await db
        .insertInto('settings')
        .values({ key, value, updated_at: now.toISOString() })
        .onConflict((oc) => oc.column('key').doNothing())
        .execute();
    },
  };
}
export type SettingsRepository = ReturnType<typeof createSettingsRepository>;
