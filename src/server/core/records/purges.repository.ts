import type { Kysely } from 'kysely';
import type { Database } from '#server/platform/db/schema';

/** The purges of personal data and the new election days after them (migration 036, decision 093). */
export function createPurgesRepository(db: Kysely<Database>) {
  return {
    async note(purge: { at: string; by: string; records: number }): Promise<void> {
      await db
        .insertInto('personal_data_purges')
        .values({
          purged_at: purge.at,
          purged_by: purge.by,
          records: purge.records,
          new_day_at: null,
          new_day_by: null,
        })
        .onConflict((oc) => oc.column('purged_at').doNothing())
        .execute();
    },

    /** The latest purge, new election day or not. */
    async last(): Promise<{ purged_at: string } | undefined> {
      return db
        .selectFrom('personal_data_purges')
        .select('purged_at')
        .orderBy('purged_at', 'desc')
        .limit(1)
        .executeTakeFirst();
    },

    /** The latest purge no new election day came after, if any. */
    async holding(): Promise<{ purged_at: string } | undefined> {
      return db
        .selectFrom('personal_data_purges')
        .select('purged_at')
        .where('new_day_at', 'is', null)
        .orderBy('purged_at', 'desc')
        .limit(1)
        .executeTakeFirst();
    },

    /** Ends the hold of every purge so far; how many it ended. */
    async startNewDay(at: string, by: string): Promise<number> {
      const result = await db
        .updateTable('personal_data_purges')
        .set({ new_day_at: at, new_day_by: by })
        .where('new_day_at', 'is', null)
        .executeTakeFirst();
      return Number(result.numUpdatedRows);
    },
  };
}
