import type { Kysely } from 'kysely';

/**
 * Browsers a person signed in from (docs/decisions/052): the sign-in limit on the whole account does not
 * apply to them, so nobody can keep an owner out by failing on purpose. The cookie's token is never
 * stored, only its sha256; one browser may be trusted for several accounts (a shared phone).
 */
export function trustedDevicesMigration() {
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await db.schema
        .createTable('trusted_devices')
        .addColumn('token_hash', 'varchar(64)', (c) => c.notNull())
        .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
        .addColumn('created_at', 'varchar(40)', (c) => c.notNull())
        .addColumn('last_used_at', 'varchar(40)', (c) => c.notNull())
        .addPrimaryKeyConstraint('trusted_devices_pk', ['token_hash', 'user_id'])
        .execute();
      await db.schema.createIndex('trusted_devices_user_idx').on('trusted_devices').column('user_id').execute();
      await db.schema
        .createIndex('trusted_devices_last_used_idx')
        .on('trusted_devices')
        .column('last_used_at')
        .execute();
    },
    async down(db: Kysely<unknown>): Promise<void> {
      await db.schema.dropTable('trusted_devices').execute();
    },
  };
}
