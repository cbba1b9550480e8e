import type { Kysely } from 'kysely';

/**
 * Photo storage drivers: a photo remembers the shared link the Dropbox driver created for it (as the
 * original app did), and `storage_copies` remembers which files `storage:migrate` already copied and
 * verified, so an interrupted copy resumes where it stopped.
 */
export function storageMigration() {
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await db.schema.alterTable('photos').addColumn('shared_url', 'varchar(500)').execute();
      await db.schema
        .createTable('storage_copies')
        .addColumn('target', 'varchar(300)', (c) => c.notNull())
        .addColumn('key', 'varchar(400)', (c) => c.notNull())
        .addColumn('sha256', 'varchar(64)', (c) => c.notNull())
        .addColumn('size_bytes', 'integer', (c) => c.notNull())
        .addColumn('copied_at', 'varchar(40)', (c) => c.notNull())
        .addPrimaryKeyConstraint('storage_copies_pk', ['target', 'key'])
        .execute();
    },
    async down(db: Kysely<unknown>): Promise<void> {
      await db.schema.dropTable('storage_copies').execute();
      await db.schema.alterTable('photos').dropColumn('shared_url').execute();
    },
  };
}
