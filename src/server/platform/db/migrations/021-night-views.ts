import type { Kysely } from 'kysely';

/**
 * The election night's views read the day's votes by time: the timeline per quarter of an hour (every
 * vote since the day began) and each validator's pace (their votes of the day). Both are range reads on
 * voted_at; without these indexes each would scan every record once per change.
 */
export function nightViewsMigration() {
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await db.schema.createIndex('records_voted_at_idx').on('records').column('voted_at').execute();
      await db.schema
        .createIndex('records_department_voted_idx')
        .on('records')
        .columns(['department_id', 'voted_at', 'voted_by'])
        .execute();
    },
  };
}
