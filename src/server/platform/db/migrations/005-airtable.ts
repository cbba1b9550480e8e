import type { Kysely } from 'kysely';
import type { Dialect } from '#server/platform/db/dialect';
import { idColumn } from './helpers';

/**
 * The Airtable adapter: agenda events remember the Airtable record they came from (records already
 * have `source_id`), so a second import updates instead of duplicating; and the write-back outbox,
 * where each vote or photo of a record that came from Airtable waits, durably, until Airtable
 * acknowledged it.
 */
export function airtableMigration(dialect: Dialect) {
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await db.schema.alterTable('agenda_events').addColumn('source_id', 'varchar(100)').execute();
      // A separate unique index: SQLite cannot add a column with a UNIQUE constraint.
      await db.schema
        .createIndex('agenda_events_source_id_idx')
        .on('agenda_events')
        .column('source_id')
        .unique()
        .execute();

      await idColumn(db.schema.createTable('airtable_outbox'), dialect)
        .addColumn('record_id', 'integer', (c) => c.notNull().references('records.id').onDelete('cascade'))
        .addColumn('airtable_id', 'varchar(40)', (c) => c.notNull())
        .addColumn('field', 'varchar(20)', (c) => c.notNull())
        .addColumn('value', 'text', (c) => c.notNull())
        .addColumn('change_key', 'varchar(100)', (c) => c.notNull().unique())
        .addColumn('state', 'varchar(20)', (c) => c.notNull().defaultTo('pending'))
        .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('next_attempt_at', 'varchar(40)', (c) => c.notNull())
        .addColumn('lease_until', 'varchar(40)')
        .addColumn('lease_owner', 'varchar(60)')
        .addColumn('last_error', 'varchar(500)')
        .addColumn('created_at', 'varchar(40)', (c) => c.notNull())
        .addColumn('sent_at', 'varchar(40)')
        .execute();
      // The worker's question: pending changes that are due, oldest first.
      await db.schema
        .createIndex('airtable_outbox_due_idx')
        .on('airtable_outbox')
        .columns(['state', 'next_attempt_at', 'id'])
        .execute();
      await db.schema
        .createIndex('airtable_outbox_record_idx')
        .on('airtable_outbox')
        .columns(['record_id', 'field'])
        .execute();
    },
  };
}
