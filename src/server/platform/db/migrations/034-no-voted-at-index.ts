import type { Kysely } from 'kysely';

/**
 * The index on records.voted_at alone (021) goes: the timeline reads its counters per quarter of an hour
 * (028, decision 083), and each validator's pace reads by department (records_department_voted_idx, which
 * stays). No query ranges over voted_at without a department any more, and every vote moved this index
 * (decision 089).
 */
export function noVotedAtIndexMigration() {
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await db.schema.dropIndex('records_voted_at_idx').execute();
    },
    async down(db: Kysely<unknown>): Promise<void> {
      await db.schema.createIndex('records_voted_at_idx').on('records').column('voted_at').execute();
    },
  };
}
