import type { Kysely } from 'kysely';

/**
 * Field reports, bounded and summed by the database (docs/decisions/060), replacing device_reports
 * (a row per device id ever sent, with its counts as JSON the view parsed):
 * - field_reporters: per person, the reports counted in the current minute (the limit per person);
 *   its row is also what a person's reports queue on, so the cap on devices holds under a burst;
 * - field_devices: one row per person and phone, bound to the session that wrote it;
 * - field_items: the items a phone said were waiting (at most 500 per phone), each with its record and
 *   slot, so the view can leave out those whose vote or photo has since arrived.
 * What device_reports held is dropped: every open phone reports again within a minute.
 */
export function fieldReportsMigration() {
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await db.schema.dropTable('device_reports').ifExists().execute();
      await db.schema
        .createTable('field_reporters')
        .addColumn('user_email', 'varchar(320)', (c) => c.primaryKey())
        .addColumn('window_started_at', 'varchar(40)', (c) => c.notNull())
        .addColumn('reports_in_window', 'integer', (c) => c.notNull())
        .execute();
      await db.schema
        .createTable('field_devices')
        .addColumn('user_email', 'varchar(320)', (c) => c.notNull())
        .addColumn('device_id', 'varchar(64)', (c) => c.notNull())
        .addColumn('session_hash', 'varchar(64)', (c) => c.notNull())
        .addColumn('reported_at', 'varchar(40)', (c) => c.notNull())
        .addColumn('last_success_at', 'varchar(40)')
        .addColumn('last_error', 'varchar(500)')
        .addColumn('last_error_at', 'varchar(40)')
        .addPrimaryKeyConstraint('field_devices_pk', ['user_email', 'device_id'])
        .execute();
      await db.schema
        .createTable('field_items')
        .addColumn('user_email', 'varchar(320)', (c) => c.notNull())
        .addColumn('device_id', 'varchar(64)', (c) => c.notNull())
        .addColumn('item_key', 'varchar(64)', (c) => c.notNull())
        .addColumn('department_id', 'integer', (c) => c.notNull().references('departments.id').onDelete('cascade'))
        .addColumn('record_id', 'integer', (c) => c.notNull())
        .addColumn('kind', 'varchar(20)', (c) => c.notNull())
        .addColumn('waiting_since', 'varchar(40)', (c) => c.notNull())
        .addPrimaryKeyConstraint('field_items_pk', ['user_email', 'device_id', 'item_key'])
        .addForeignKeyConstraint(
          'field_items_device_fk',
          ['user_email', 'device_id'],
          'field_devices',
          ['user_email', 'device_id'],
          (fk) => fk.onDelete('cascade'),
        )
        .execute();
      // The view's question: what waits in these departments, per person.
      await db.schema
        .createIndex('field_items_department_idx')
        .on('field_items')
        .columns(['department_id', 'user_email'])
        .execute();
    },
    async down(db: Kysely<unknown>): Promise<void> {
      await db.schema.dropTable('field_items').execute();
      await db.schema.dropTable('field_devices').execute();
      await db.schema.dropTable('field_reporters').execute();
      await db.schema
        .createTable('device_reports')
        .addColumn('device_id', 'varchar(64)', (c) => c.primaryKey())
        .addColumn('user_email', 'varchar(320)', (c) => c.notNull())
        .addColumn('reported_at', 'varchar(40)', (c) => c.notNull())
        .addColumn('waiting', 'integer', (c) => c.notNull())
        .addColumn('oldest_waiting_at', 'varchar(40)')
        .addColumn('last_success_at', 'varchar(40)')
        .addColumn('last_error', 'text')
        .addColumn('last_error_at', 'varchar(40)')
        .addColumn('departments', 'text', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('device_reports_user_idx').on('device_reports').column('user_email').execute();
    },
  };
}
