import type { Kysely } from 'kysely';

/**
 * Idempotency keys: each vote or photo request may carry an `Idempotency-Key`, stored here with the
 * answer it got, in the same transaction as the vote or photo. A retry with the same key gets that
 * answer again instead of a 409; the key is forgotten after `expires_at`.
 */
export function idempotencyMigration() {
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await db.schema
        .createTable('idempotency_keys')
        .addColumn('key', 'varchar(100)', (c) => c.primaryKey())
        .addColumn('actor_email', 'varchar(320)', (c) => c.notNull())
        .addColumn('fingerprint', 'varchar(64)', (c) => c.notNull())
        .addColumn('status_code', 'integer', (c) => c.notNull())
        .addColumn('response_body', 'text', (c) => c.notNull())
        .addColumn('created_at', 'varchar(40)', (c) => c.notNull())
        .addColumn('expires_at', 'varchar(40)', (c) => c.notNull())
        .execute();
      // The purge's question: keys past their time.
      await db.schema.createIndex('idempotency_keys_expires_idx').on('idempotency_keys').column('expires_at').execute();
    },
    async down(db: Kysely<unknown>): Promise<void> {
      await db.schema.dropTable('idempotency_keys').execute();
    },
  };
}
