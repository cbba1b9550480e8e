import { type Kysely, sql } from 'kysely';

/**
 * Vote corrections and restores (docs/decisions/038 and 039):
 * - `vote_counted`: 1 while the record's vote (if any) is in the result counters. Only a record voided
 *   with "its vote no longer counts" has 0; records voided before this migration kept their vote in the
 *   results, so every existing row starts at 1.
 * - `vote_revision`: how many times the vote was written (the vote, each correction, a vote again after
 *   a clear). It names each change for the Airtable outbox and guards a correction against a vote that
 *   changed since it was read.
 */
export function voteCorrectionsMigration() {
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await db.schema
        .alterTable('records')
        .addColumn('vote_counted', 'integer', (c) => c.notNull().defaultTo(1))
        .execute();
      await db.schema
        .alterTable('records')
        .addColumn('vote_revision', 'integer', (c) => c.notNull().defaultTo(0))
        .execute();
      await sql`update records set vote_revision = 1 where voted_at is not null`.execute(db);
    },
  };
}
