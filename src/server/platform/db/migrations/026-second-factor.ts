import type { Kysely } from 'kysely';

/**
 * The second factor (docs/decisions/080): a person's TOTP secret once confirmed (and the one being
 * enrolled until then), the last 30-second step a code was accepted for (a code is never taken twice),
 * the ten recovery codes (their sha256 only, each spent once), and on each session whether the second
 * factor is still owed ('verify': the person has one; 'enrol': an admin must set one up first).
 */
export function secondFactorMigration() {
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await db.schema.alterTable('users').addColumn('totp_secret', 'varchar(64)').execute();
      await db.schema.alterTable('users').addColumn('totp_pending_secret', 'varchar(64)').execute();
      await db.schema.alterTable('users').addColumn('totp_enabled_at', 'varchar(40)').execute();
      await db.schema.alterTable('users').addColumn('totp_last_step', 'integer').execute();
      await db.schema.alterTable('sessions').addColumn('second_factor', 'varchar(10)').execute();
      await db.schema
        .createTable('recovery_codes')
        .addColumn('code_hash', 'varchar(64)', (c) => c.notNull().primaryKey())
        .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
        .addColumn('created_at', 'varchar(40)', (c) => c.notNull())
        .addColumn('used_at', 'varchar(40)')
        .execute();
      await db.schema.createIndex('recovery_codes_user_idx').on('recovery_codes').column('user_id').execute();
    },
  };
}
