import type { Kysely } from 'kysely';

/** The audit rows of a record (`target = 'record:<id>'`), one lookup each: the evidence package reads them by page. */
export function auditTargetIndexMigration() {
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await db.schema.createIndex('audit_log_target_idx').on('audit_log').column('target').execute();
    },
  };
}
