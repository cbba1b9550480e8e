import type { Kysely, Selectable } from 'kysely';
import type { Database } from '#server/platform/db/schema';
import type { ElectionLateArrivalsTable, ElectionTable } from '#server/platform/db/schema-election';

export type ElectionRow = Selectable<ElectionTable>;
export type LateArrivalRow = Selectable<ElectionLateArrivalsTable>;

/** The election day's rows: the phase, the keys phones reported, the items that came after the close. */
export function createElectionRepository(db: Kysely<Database>) {
  return {
    find(): Promise<ElectionRow | undefined> {
      return db.selectFrom('election').selectAll().where('id', '=', 1).executeTakeFirst();
    },

    async save(row: Omit<ElectionRow, 'id'>): Promise<void> {
      await db
        .insertInto('election')
        .values({ id: 1, ...row })
        .onConflict((oc) => oc.column('id').doUpdateSet({ ...row }))
        .execute();
    },

    /** Keeps the first time each key was heard of; a key heard again keeps its first time. */
    async rememberHeardKeys(keys: readonly string[], email: string, at: string): Promise<void> {
      if (keys.length === 0) return;
      await db
        .insertInto('election_heard_keys')
        .values(keys.map((item_key) => ({ item_key, user_email: email, heard_at: at })))
        .onConflict((oc) => oc.column('item_key').doNothing())
        .execute();
    },

    async heardAt(key: string): Promise<string | undefined> {
      const row = await db
        .selectFrom('election_heard_keys')
        .select('heard_at')
        .where('item_key', '=', key)
        .executeTakeFirst();
      return row?.heard_at;
    },

    async addLateArrival(row: LateArrivalRow): Promise<void> {
      await db
        .insertInto('election_late_arrivals')
        .values(row)
        .onConflict((oc) => oc.column('item_key').doNothing())
        .execute();
    },

    async countLateArrivals(closedAt: string): Promise<number> {
      const row = await db
        .selectFrom('election_late_arrivals')
        .select((eb) => eb.fn.countAll<string | number>().as('n'))
        .where('closed_at', '=', closedAt)
        .executeTakeFirstOrThrow();
      return Number(row.n);
    },

    listLateArrivals(closedAt: string, limit: number): Promise<LateArrivalRow[]> {
      return db
        .selectFrom('election_late_arrivals')
        .selectAll()
        .where('closed_at', '=', closedAt)
        .orderBy('arrived_at', 'desc')
        .limit(limit)
        .execute();
    },
  };
}
