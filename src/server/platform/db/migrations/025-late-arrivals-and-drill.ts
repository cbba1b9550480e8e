import type { Kysely } from 'kysely';
import type { Dialect } from '#server/platform/db/dialect';
import { idColumn } from './helpers';

/**
 * Votes and photos accepted after the close because a phone had reported them before it
 * (docs/decisions/078): one row each, for the back office's 'llegó después del cierre' and the count
 * of late arrivals. And every vote and photo made during the drill (docs/decisions/079), with what its
 * record was before it, so that 'Terminar simulacro' puts everything back; kept after the erasure, so
 * that a phone sending a drill item later is told 'Era del simulacro'.
 */
export function lateArrivalsAndDrillMigration(dialect: Dialect) {
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
      await idColumn(db.schema.createTable('election_drill_items'), dialect)
        .addColumn('kind', 'varchar(20)', (c) => c.notNull())
        .addColumn('record_id', 'integer', (c) => c.notNull())
        .addColumn('photo_id', 'integer')
        .addColumn('item_key', 'varchar(100)')
        .addColumn('record_revision', 'integer', (c) => c.notNull())
        .addColumn('record_updated_at', 'varchar(40)', (c) => c.notNull())
        .addColumn('made_at', 'varchar(40)', (c) => c.notNull())
        .addColumn('erased_at', 'varchar(40)')
        .execute();
      await db.schema
        .createIndex('election_drill_items_key_idx')
        .on('election_drill_items')
        .column('item_key')
        .execute();
    },
    async down(db: Kysely<unknown>): Promise<void> {
      await db.schema.dropTable('election_drill_items').execute();
      await db.schema.dropTable('election_late_arrivals').execute();
    },
  };
}
