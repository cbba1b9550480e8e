import { type Kysely, sql } from 'kysely';

/** How long a one-time password handed over before this migration stays usable (docs/decisions/063). */
const GRACE_MS = 72 * 60 * 60 * 1000;

/**
 * One-time passwords expire (docs/decisions/063): `password_expires_at` is set while the account's
 * password is one an admin generated, and past it that password opens nothing. Those already handed
 * over get the same 72 hours from now, rather than failing the person who is about to type one.
 */
export function oneTimePasswordExpiryMigration() {
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await db.schema.alterTable('users').addColumn('password_expires_at', 'varchar(40)').execute();
      const expiresAt = new Date(Date.now() + GRACE_MS).toISOString();
      await sql`update users set password_expires_at = ${expiresAt} where must_change_password = 1`.execute(db);
    },
  };
}
