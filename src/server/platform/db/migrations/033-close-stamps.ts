import type { Kysely } from 'kysely';

/**
 * The RFC 3161 time-stamp of the chain's head at each close (decision 088), kept with the close's counts:
 * the authority's reply (DER, in base64) and when it was given, or, while there is none, when it was last
 * asked for and why it failed, so the next try waits its turn and Jornada can say it.
 */
export function closeStampsMigration() {
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await db.schema.alterTable('election_close_snapshots').addColumn('stamp', 'text').execute();
      await db.schema.alterTable('election_close_snapshots').addColumn('stamped_at', 'varchar(40)').execute();
      await db.schema.alterTable('election_close_snapshots').addColumn('stamp_tried_at', 'varchar(40)').execute();
      await db.schema.alterTable('election_close_snapshots').addColumn('stamp_error', 'varchar(200)').execute();
    },
    async down(db: Kysely<unknown>): Promise<void> {
      for (const column of ['stamp', 'stamped_at', 'stamp_tried_at', 'stamp_error']) {
        await db.schema.alterTable('election_close_snapshots').dropColumn(column).execute();
      }
    },
  };
}
