import type { Kysely } from 'kysely';
import type { Database } from '#server/platform/db/schema';

/** Settings the site's settings repository does not read (the photo size limit). */
export function createAdminSettingsRepository(db: Kysely<Database>) {
  return {
    async get(key: string): Promise<string | undefined> {
      const row = await db.selectFrom('settings').select('value').where('key', '=', key).executeTakeFirst();
      return row?.value;
    },
  };
}
