import type { Kysely } from 'kysely';

/**
 * The election day's phase (docs/decisions/078): one row, written on the first change of phase (no row
 * reads as 'preparacion'); the Idempotency-Keys phones' field reports named, with when the server
 * first heard of each, so that an item reported before the close is still accepted after it; and the
 * counts at each close ('Resultados al cierre').
 */
export function electionMigration() {
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await db.schema
        .createTable('election')
        .addColumn('id', 'integer', (c) => c.primaryKey())
        .addColumn('phase', 'varchar(20)', (c) => c.notNull())
        .addColumn('closes_at', 'varchar(40)')
        .addColumn('closed_at', 'varchar(40)')
        .addColumn('grace_hours', 'integer', (c) => c.notNull())
        .addColumn('changed_at', 'varchar(40)', (c) => c.notNull())
        .addColumn('changed_by', 'varchar(320)')
        .addColumn('reason', 'varchar(500)')
        .execute();
      await db.schema
        .createTable('election_heard_keys')
        .addColumn('item_key', 'varchar(100)', (c) => c.primaryKey())
        .addColumn('user_email', 'varchar(320)', (c) => c.notNull())
        .addColumn('heard_at', 'varchar(40)', (c) => c.notNull())
        .execute();
      await db.schema
        .createTable('election_close_snapshots')
        .addColumn('closed_at', 'varchar(40)', (c) => c.primaryKey())
        .addColumn('taken_at', 'varchar(40)', (c) => c.notNull())
        .addColumn('counts', 'text', (c) => c.notNull())
        .execute();
    },
    async down(db: Kysely<unknown>): Promise<void> {
      await db.schema.dropTable('election_close_snapshots').execute();
      await db.schema.dropTable('election_heard_keys').execute();
      await db.schema.dropTable('election').execute();
    },
  };
}
