import type { Kysely } from 'kysely';
import type { Database } from '#server/platform/db/schema';
import type { DatabaseEpochsTable } from '#server/platform/db/schema-copies';

export type EpochRow = DatabaseEpochsTable;

/** The database's epochs and the backups taken (decision 106): the only SQL on them. */
export function createCopiesRepository(db: Kysely<Database>) {
  return {
    async latestEpoch(): Promise<EpochRow | undefined> {
      return db.selectFrom('database_epochs').selectAll().orderBy('epoch', 'desc').limit(1).executeTakeFirst();
    },

    async addEpoch(row: EpochRow): Promise<void> {
      await db.insertInto('database_epochs').values(row).execute();
    },

    /** The time of the last change this database holds: every change writes an audit row. */
    async lastChangeAt(): Promise<string | null> {
      const row = await db.selectFrom('audit_log').select('at').orderBy('id', 'desc').limit(1).executeTakeFirst();
      return row?.at ?? null;
    },

    async addBackup(row: { takenAt: string; finishedAt: string; rows: number; photos: number; missingPhotos: number }) {
      await db
        .insertInto('backups_taken')
        .values({
          taken_at: row.takenAt,
          finished_at: row.finishedAt,
          rows: row.rows,
          photos: row.photos,
          missing_photos: row.missingPhotos,
        })
        .execute();
    },

    /** The instant of the newest backup whose photos were all found. */
    async lastWholeBackupAt(): Promise<string | null> {
      const row = await db
        .selectFrom('backups_taken')
        .select('taken_at')
        .where('missing_photos', '=', 0)
        .orderBy('taken_at', 'desc')
        .limit(1)
        .executeTakeFirst();
      return row?.taken_at ?? null;
    },
  };
}
