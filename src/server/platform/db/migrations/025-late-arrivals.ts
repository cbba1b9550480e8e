import type { Kysely } from 'kysely';

/**
 * Votes and photos accepted after the close because a phone had reported them before it
 * (docs/decisions/078): one row each, for the back office's 'llegó después del cierre' and the count
 * of late arrivals.
 */
export function lateArrivalsMigration() {
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await db.schema
        .createTable('election_late_arrivals')
        .addColumn('item_key', 'varchar(100)', (c) => c.primaryKey())
        .addColumn('kind', 'varchar(20)', (c) => c.notNull())
        .addColumn('department_slug', 'varchar(100)', (c) => c.notNull())
        .addColumn('record_id', 'integer', (c) => c.notNull())
        .addColumn('user_email', 'varchar(320)', (c) => c.notNull())
        .addColumn('arrived_at', 'varchar(40)', (c) => c.notNull())
        .addColumn('closed_at', 'varchar(40)', (c) => c.notNull())
        .execute();
    },
    async down(db: Kysely<unknown>): Promise<void> {
      await db.schema.dropTable('election_late_arrivals').execute();
    },
  };
}
