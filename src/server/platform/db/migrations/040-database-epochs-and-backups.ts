import type { Kysely } from 'kysely';

/**
 * The database's epochs (decision 106): the first one when it was made, then one each time it was
 * restored from a copy (a backup, Litestream's replica, a promoted standby), with the point the copy
 * reached; and each backup taken, so that without a continuous copy Jornada can say how old the last one is.
 */
export function databaseEpochsAndBackupsMigration() {
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await db.schema
        .createTable('database_epochs')
        .addColumn('epoch', 'integer', (c) => c.primaryKey())
        .addColumn('started_at', 'varchar(40)', (c) => c.notNull())
        .addColumn('cause', 'varchar(20)', (c) => c.notNull())
        .addColumn('origin', 'varchar(100)', (c) => c.notNull())
        .addColumn('restored_until', 'varchar(40)')
        .execute();
      await db.schema
        .createTable('backups_taken')
        .addColumn('taken_at', 'varchar(40)', (c) => c.primaryKey())
        .addColumn('finished_at', 'varchar(40)', (c) => c.notNull())
        .addColumn('rows', 'integer', (c) => c.notNull())
        .addColumn('photos', 'integer', (c) => c.notNull())
        .addColumn('missing_photos', 'integer', (c) => c.notNull())
        .execute();
    },
    async down(db: Kysely<unknown>): Promise<void> {
      await db.schema.dropTable('backups_taken').execute();
      await db.schema.dropTable('database_epochs').execute();
    },
  };
}
