import type { Kysely } from 'kysely';

/**
 * A nota's plain-text excerpt, computed once when it is saved (the editors' list used to sanitise every
 * post's HTML again on every request). Rows from before are filled in the first time they are listed:
 * computing them needs the sanitiser, which a migration does not run.
 */
export function notaExcerptsMigration() {
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await db.schema.alterTable('posts').addColumn('excerpt', 'varchar(200)').execute();
    },
    async down(db: Kysely<unknown>): Promise<void> {
      await db.schema.alterTable('posts').dropColumn('excerpt').execute();
    },
  };
}
