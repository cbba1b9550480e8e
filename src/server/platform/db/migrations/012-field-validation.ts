import type { Kysely } from 'kysely';

/**
 * Field validation, part 2:
 * - resumable_uploads: one row per tus upload of a ballot photo (its bytes wait in DATA_DIR/uploads/tus
 *   until complete), with who sends it, for which slot, its Idempotency-Key, and when it expires;
 *   `stored_at` is set in the photo's own transaction.
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
    },
    async down(db: Kysely<unknown>): Promise<void> {
      await db.schema.dropTable('resumable_uploads').execute();
    },
  };
}
