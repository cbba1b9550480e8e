import type { Kysely } from 'kysely';

/**
 * Each 'Borrar datos personales' (decision 093): when, by whom, how many records; and the new election
 * day an admin started after it, if any. While a purge has no new day after it, imports are refused:
 * Airtable and a CSV would bring back the names and phones the purge took.
 */
export function personalDataPurgesMigration() {
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await db.schema
        .createTable('personal_data_purges')
        .addColumn('purged_at', 'varchar(40)', (c) => c.primaryKey())
        .addColumn('purged_by', 'varchar(320)', (c) => c.notNull())
        .addColumn('records', 'integer', (c) => c.notNull())
        .addColumn('new_day_at', 'varchar(40)')
        .addColumn('new_day_by', 'varchar(320)')
        .execute();
    },
    async down(db: Kysely<unknown>): Promise<void> {
      await db.schema.dropTable('personal_data_purges').execute();
    },
  };
}
