import type { Kysely } from 'kysely';

/**
 * Accounts that exist only for a drill (decision 103): made by the rehearsal during 'Simulacro', deleted
 * with everything of theirs by 'Terminar simulacro'.
 */
export function drillAccountsMigration() {
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await db.schema
        .alterTable('users')
        .addColumn('drill_only', 'integer', (c) => c.notNull().defaultTo(0))
        .execute();
    },
    async down(db: Kysely<unknown>): Promise<void> {
      await db.schema.alterTable('users').dropColumn('drill_only').execute();
    },
  };
}
