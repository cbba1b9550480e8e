import type { Kysely } from 'kysely';

/**
 * What each phone says about a server restored from a copy (decision 135): the database epoch it last
 * checked its items against, how many it sent again because the restored server lacked them, and how
 * many of those it still holds, waiting to go. Campo shows them per validator.
 */
export function fieldRecoveryMigration() {
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await db.schema.alterTable('field_devices').addColumn('checked_epoch', 'integer').execute();
      await db.schema
        .alterTable('field_devices')
        .addColumn('resent_items', 'integer', (c) => c.notNull().defaultTo(0))
        .execute();
      await db.schema
        .alterTable('field_devices')
        .addColumn('held_from_before', 'integer', (c) => c.notNull().defaultTo(0))
        .execute();
    },
    async down(db: Kysely<unknown>): Promise<void> {
      await db.schema.alterTable('field_devices').dropColumn('held_from_before').execute();
      await db.schema.alterTable('field_devices').dropColumn('resent_items').execute();
      await db.schema.alterTable('field_devices').dropColumn('checked_epoch').execute();
    },
  };
}
