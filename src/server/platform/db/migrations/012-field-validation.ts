import type { Kysely } from 'kysely';

/**
 * Field validation, part 2:
 * - resumable_uploads: one row per tus upload of a ballot photo (its bytes wait in DATA_DIR/uploads/tus
 *   until complete), with who sends it, for which slot, its Idempotency-Key, and when it expires;
 *   `stored_at` is set in the photo's own transaction.
 * - device_reports: what each signed-in phone last said about its outbox (items waiting, the oldest,
 *   its last success and last error), for the coordinators' field view.
 */
export function fieldValidationMigration() {
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await db.schema
        .createTable('resumable_uploads')
        .addColumn('id', 'varchar(64)', (c) => c.primaryKey())
        .addColumn('owner_email', 'varchar(320)', (c) => c.notNull())
        .addColumn('department_slug', 'varchar(100)', (c) => c.notNull())
        .addColumn('record_id', 'integer', (c) => c.notNull())
        .addColumn('kind', 'varchar(20)', (c) => c.notNull())
        .addColumn('idempotency_key', 'varchar(100)', (c) => c.notNull())
        .addColumn('size_bytes', 'integer', (c) => c.notNull())
        .addColumn('sha256', 'varchar(64)')
        .addColumn('stored_at', 'varchar(40)')
        .addColumn('created_at', 'varchar(40)', (c) => c.notNull())
        .addColumn('expires_at', 'varchar(40)', (c) => c.notNull())
        .execute();
      // The sweep's question (uploads past their time) and the cap on one person's open uploads.
      await db.schema
        .createIndex('resumable_uploads_expires_idx')
        .on('resumable_uploads')
        .column('expires_at')
        .execute();
      await db.schema
        .createIndex('resumable_uploads_owner_idx')
        .on('resumable_uploads')
        .column('owner_email')
        .execute();

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
    async down(db: Kysely<unknown>): Promise<void> {
      await db.schema.dropTable('device_reports').execute();
      await db.schema.dropTable('resumable_uploads').execute();
    },
  };
}
