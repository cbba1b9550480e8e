import type { Kysely } from 'kysely';

/**
 * One row that /api/ready writes each time it is asked: a database that answers but cannot write (disk
 * full, read-only) is not ready, and only a real, committed write tells.
 */
export function readyProbeMigration() {
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await db.schema
        .createTable('ready_probe')
        .addColumn('id', 'integer', (c) => c.primaryKey())
        .addColumn('at', 'varchar(40)', (c) => c.notNull())
        .execute();
    },
    async down(db: Kysely<unknown>): Promise<void> {
      await db.schema.dropTable('ready_probe').execute();
    },
  };
}
