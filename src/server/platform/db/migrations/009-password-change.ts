import type { Kysely } from 'kysely';

/**
 * One-time passwords (docs/decisions/040): `must_change_password` is 1 while the account's password is
 * one an admin generated and handed over; such a session may only change it (or sign out).
 */
export function passwordChangeMigration() {
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await db.schema
        .alterTable('users')
        .addColumn('must_change_password', 'integer', (c) => c.notNull().defaultTo(0))
        .execute();
    },
  };
}
